// The heroes' lens of a game's log in the core: knowledge.HeroLens (and the naming step of
// side_knowledge.HeroKnowledge) folded over the core's events. Which events heroes may know, and
// which fields name figures, are knowledge.py's tables, handed over once (HeroRules): the core
// applies them and owns none of them. tests/test_core_lens.py checks it event by event against
// the Python lens.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "game.hpp"

namespace dungeon_core {

// knowledge.py's rules of what heroes see of an event (PUBLIC, ABOUT, OPEN_CHECKS, FIGURE_FIELDS,
// _FIGURES_OF).
struct HeroRules {
    std::set<std::string> public_types;
    std::map<std::string, std::string> about;  // event type -> the field naming its figure
    std::set<std::string> open_checks;
    std::vector<std::string> figure_fields;  // in the order names are given
    std::map<std::string, std::vector<std::string>> figures_of;  // per type, instead of figure_fields

    // What the tables say of one event type, looked up once per event instead of by string
    // comparisons at each question the fold asks: whether it is public, the field naming its figure,
    // its figure fields in the order names are given, which of the types the fold tracks it is.
    struct EventType {
        enum Kind : uint8_t { OTHER, MOVE, SPAWN, REVEAL, SLAIN, ROLL };
        Kind kind = OTHER;
        bool is_public = false;
        bool has_about = false;
        std::string about;               // the field naming its figure (has_about)
        std::vector<std::string> keys;   // its figure fields
        // [monster moved][room event placed]: one of its figure fields is one redact() rewrites
        bool rewrites[2][2] = {};
    };
    // the tables above as EventTypes, by type: made by index() once they are filled (the rules never
    // change after), shared read-only by every lens (and thread) folding with them
    struct TypeHash {  // a type name's length and first and last bytes (a few tens of words)
        size_t operator()(const std::string& type) const {
            const size_t n = type.size();
            uint64_t a = 0, b = 0;
            std::memcpy(&a, type.data(), std::min<size_t>(n, 8));
            if (n > 8) std::memcpy(&b, type.data() + n - 8, 8);
            return static_cast<size_t>(((a ^ (static_cast<uint64_t>(n) << 56)) * 0x9E3779B97F4A7C15ull ^ b) *
                                       0xBF58476D1CE4E5B9ull >> 7);
        }
    };
    std::unordered_map<std::string, EventType, TypeHash> types;
    EventType other;  // a type none of the tables names: not public, no figure field named
    void index();
    const EventType& type(const std::string& name) const {
        auto it = types.find(name);
        return it != types.end() ? it->second : other;
    }
};
// the rules from knowledge.py's tables, indexed
HeroRules make_hero_rules(std::set<std::string> public_types, std::map<std::string, std::string> about,
                          std::set<std::string> open_checks, std::vector<std::string> figure_fields,
                          std::map<std::string, std::vector<std::string>> figures_of);

class HeroLens {
public:
    explicit HeroLens(std::shared_ptr<const HeroRules> rules) : rules_(std::move(rules)) {}
    // a lens as saved (pickles): what the fold tracked so far
    HeroLens(std::shared_ptr<const HeroRules> rules, std::vector<uint8_t> revealed, std::set<std::string> revealed_names,
             std::unordered_map<std::string, int> where, std::unordered_map<int, int> numbers,
             std::unordered_map<std::string, bool> slain, bool unnamed)
        : unnamed_possible(unnamed), rules_(std::move(rules)), revealed_(std::move(revealed)),
          revealed_names_(std::move(revealed_names)), where_(std::move(where)), numbers_(std::move(numbers)),
          slain_(std::move(slain)) {
        index_numbers();
    }
    const std::shared_ptr<const HeroRules>& rules() const { return rules_; }
    const std::vector<uint8_t>& revealed_areas() const { return revealed_; }

    // The event as heroes may know it (nullopt: not at all), judged as `g` stands now; folds it in.
    std::optional<Value> see(const Game& g, const Value& event);
    // The same fold as see(), the event's names given in the same order, without making the
    // redacted copy (the batched env folds to name monsters and track them, and reads no event).
    void fold(const Game& g, const Value& event);
    // Name the monsters heroes see that no event named yet, in square order
    // (HeroKnowledge._after_fold), if one may stand in sight (unnamed_possible).
    void name_unnamed(const Game& g);
    // The heroes' number k (name m<k>) of the engine's monster id `uid`, -1 if they never saw it.
    int number(int uid) const;
    // engine monster id -> the heroes' number, for every monster they have seen
    const std::unordered_map<int, int>& numbers() const { return numbers_; }
    // what the fold tracks: each monster's square (by engine id, those on the board), the areas
    // revealed (by name), and per slain monster whether a hero was among its killers
    const std::unordered_map<std::string, int>& where() const { return where_; }
    const std::set<std::string>& revealed() const { return revealed_names_; }
    const std::unordered_map<std::string, bool>& slain() const { return slain_; }
    bool unnamed_possible = true;  // a monster may stand in sight that no event named

    // knowledge.monsters_in_sight: active monsters on a square of a revealed area, in slot order
    static std::vector<int> monsters_in_sight(const Game& g);

private:
    bool shown(const Game& g, const Value& event, const HeroRules::EventType& info) const;
    void name_figures(const Game& g, const Value& event, const HeroRules::EventType& info);
    int number_of(const std::string& ref);
    bool seen_square(const Game& g, const Value& xy) const;
    bool sees(const Game& g, const Value& ref) const;
    std::string name(const std::string& ref);
    Value figure(const Game& g, const Value& ref);
    Value redact(const Game& g, const Value& event);
    void track(const Game& g, const Value& event, const HeroRules::EventType& info);
    bool area_revealed(int area) const { return area >= 0 && area < static_cast<int>(revealed_.size()) && revealed_[area]; }

    std::shared_ptr<const HeroRules> rules_;
    std::vector<uint8_t> revealed_;             // by area index: a "reveal" event named it
    std::set<std::string> revealed_names_;      // the same areas by name
    std::unordered_map<std::string, int> where_;  // monster id -> its square, for those on the board
    std::unordered_map<int, int> numbers_;      // engine monster uid -> the heroes' k
    // numbers_ as a table by uid (-1: none), read by number() without hashing; kept only while every
    // uid is in [0, MAX_INDEXED_UID) (else empty, and number() reads numbers_)
    static constexpr int MAX_INDEXED_UID = 4096;
    std::vector<int> by_uid_;
    int add_number(int uid);  // uid gets the next number
    void index_numbers();
    std::unordered_map<std::string, bool> slain_;  // engine monster id -> slain with a hero among the killers
};

// The events heroes were shown (HeroLens::see's results), each with its index in the game's log,
// kept as the core's values and made Python dicts only when read (side_knowledge.HeroKnowledge of a
// game on the core; bound as _core.ShownEvents): an env that reads none of them pays no dict for them.
struct ShownEvents {
    std::deque<std::pair<size_t, Value>> events;  // in the log's order

    // the first kept event whose index in the log is `start` or later
    std::deque<std::pair<size_t, Value>>::const_iterator from(size_t start) const;
    void drop_before(size_t start) {
        bool dropped = false;
        while (!events.empty() && events.front().first < start) {
            events.pop_front();
            dropped = true;
        }
        if (dropped) {
            as_log_.clear();
            in_log_ = 0;
        }
    }
    // The kept events as an event log whose whole chunks are frozen, brought up to date at each call:
    // the log of a heroes' view made in the core is a copy of it (sharing the frozen chunks), not a
    // copy of every value. Events are only appended to `events` or dropped by drop_before.
    const EventLog& as_log() {
        for (; in_log_ < events.size(); ++in_log_) as_log_.push_back(events[in_log_].second);
        as_log_.freeze_whole_chunks();
        return as_log_;
    }

private:
    EventLog as_log_;    // the first in_log_ events, as a log (as_log)
    size_t in_log_ = 0;
};

// Fold the game's events from `start` on into `lens`, as the game stands now, then name the monsters
// in sight that no event named (side_knowledge.HeroKnowledge.sync): the shown ones kept in `shown`,
// or, with `shown` null, folded without their redacted copies (nobody reads them).
void fold_log(HeroLens& lens, const Game& g, size_t start, ShownEvents* shown);

}  // namespace dungeon_core
