// One game in the core: the static content, the state, the dice and the event log, with the few
// moves of the engine loop that the rules call (engine/context.py's Context protocol and the loop
// of engine/game.py). Rule functions take `Game& g`, as the Python ones take `g: Context`.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "actions.hpp"
#include "content.hpp"
#include "dice.hpp"
#include "event_log.hpp"
#include "state.hpp"
#include "value.hpp"

namespace dungeon_core {

// a check's named modifiers, in the order they were added (a Python dict[str, int])
using Mods = std::vector<std::pair<std::string, int>>;
int mods_total(const Mods& mods);
void mods_add(Mods& mods, const std::string& name, int amount);  // add to the named one, or append
void mods_set(Mods& mods, const std::string& name, int amount);  // mods[name] = amount: a key keeps its place
Value mods_value(const Mods& mods);  // as an event's object

constexpr int MAX_AUTO_STEPS = 100000;

class IllegalAction : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct Game {
    std::shared_ptr<const Content> content;
    State state;
    Dice dice;
    EventLog log_events;
    int max_turns = 100;
    std::vector<std::string> hero_ids;  // the heroes in play, in seat order
    std::vector<int> legal_cache;       // the legal actions of the decision on top, once computed
    bool legal_known = false;
    PursuitMemo pursuit;                // the duty to attack's searches, kept through a monster's Movement
    long moves = 0;

    // shorthands the rules use
    const Tables& tables() const { return content->tables; }
    const Adventure& adventure() const { return content->adventure; }
    const Rules& rules() const { return content->rules; }

    // ----- the public loop (game.py) -----
    bool over() const { return !state.outcome.empty(); }
    const std::vector<int>& legal_actions();
    void apply(int action);  // IllegalAction if not legal
    void advance();

    // ----- what the rules call (context.py) -----
    void log(Value event) { log_events.push_back(std::move(event)); }
    // roll one d6 check, log it as a "roll" event whose result is classify(total) (a word, or a
    // number for Detect Traps), and return the modified total
    int check(const std::string& check, const std::string& actor, Stream stream, const Mods& modifiers,
              const std::function<Value(int)>& classify);
    void push(int kind, int unit, int a = -1, int b = -1) { state.stack.push_back({kind, unit, a, b}); }
    void goto_phase(int phase) {
        state.phase = phase;
        state.phase_started = false;
    }
    void finish(const std::string& outcome, const std::string& reason);
    void check_end();
    std::pair<int, int> decision_args() const;
    bool monsters_besides(const std::vector<int>& group) const;
    const HeroCard& hero_card(int u) const { return content->heroes[state.unit_card[u]]; }
    const MonsterCard& monster_card(int u) const { return content->monsters[state.unit_card[u]]; }
    const std::string& card_name(int u) const {
        return u < state.n_heroes ? hero_card(u).name : monster_card(u).name;
    }
    std::string label(int u) const;  // hero_<i> or m<uid>
    int unit_by_label(const std::string& id) const;
    static std::pair<int, int> xy(int sq) { return {sq % WIDTH, sq / WIDTH}; }
    static Value xy_value(int sq) { return Value::pair(sq % WIDTH, sq / WIDTH); }  // an event's [x, y]
    static int square(int x, int y) { return y * WIDTH + x; }
    static int square(const Square& at) { return at[1] * WIDTH + at[0]; }
};

}  // namespace dungeon_core
