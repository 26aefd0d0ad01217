// The heroes' side view made in the core (heroes_view.hpp): sideview._redact for a playable view,
// step by step in the same order.
#include "heroes_view.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace dungeon_core {
namespace {

constexpr int EXPLORE_STEP_EVENTS = 1;  // explore.cpp's STEP_EVENTS (explore.py's)

// Each per-unit array of a slot of `hidden` back to an empty slot's value (sideview.UNIT_FIELDS).
void blank_units(State& v, const std::vector<int>& hidden) {
    static const State blank;
#define DUNGEON_BLANK(field) \
    for (int u : hidden) v.field[u] = blank.field[u];
    DUNGEON_BLANK(unit_status) DUNGEON_BLANK(unit_side) DUNGEON_BLANK(unit_card) DUNGEON_BLANK(unit_uid)
    DUNGEON_BLANK(unit_how) DUNGEON_BLANK(unit_traits) DUNGEON_BLANK(base_move) DUNGEON_BLANK(base_fight)
    DUNGEON_BLANK(base_damage) DUNGEON_BLANK(base_health) DUNGEON_BLANK(base_stamina) DUNGEON_BLANK(base_magic)
    DUNGEON_BLANK(unit_pos) DUNGEON_BLANK(health) DUNGEON_BLANK(stamina) DUNGEON_BLANK(magic)
    DUNGEON_BLANK(deaths_door) DUNGEON_BLANK(exhausted) DUNGEON_BLANK(surprised) DUNGEON_BLANK(surprise_until)
    DUNGEON_BLANK(skip_move) DUNGEON_BLANK(inactive) DUNGEON_BLANK(acted) DUNGEON_BLANK(fought)
    DUNGEON_BLANK(rested_last) DUNGEON_BLANK(move_left) DUNGEON_BLANK(move_bought) DUNGEON_BLANK(move_done)
    DUNGEON_BLANK(move_from) DUNGEON_BLANK(moved) DUNGEON_BLANK(jumped) DUNGEON_BLANK(deferred)
    DUNGEON_BLANK(dragging) DUNGEON_BLANK(double_ones)
#undef DUNGEON_BLANK
}

template <typename T>
std::vector<T> picked(const std::vector<T>& from, const std::vector<int>& index) {
    std::vector<T> out;
    out.reserve(index.size());
    for (int i : index) out.push_back(from.at(i));
    return out;
}

// [hero, spell] with a column for the placeholder spell, known by nobody (sideview._pad)
Flags padded(const Flags& known, int spells) {
    Flags out(MAX_HEROES * (spells + 1), 0);
    for (int h = 0; h < MAX_HEROES; ++h) {
        std::copy_n(known.begin() + h * spells, spells, out.begin() + h * (spells + 1));
    }
    return out;
}

// a monster's label m<id> in the heroes' naming, one they never saw left out (sideview._renamed)
std::vector<std::string> renamed(const std::vector<std::string>& labels, const std::unordered_map<int, int>& numbers) {
    std::vector<std::string> out;
    for (const std::string& name : labels) {
        const bool monster = name.size() > 1 && name[0] == 'm' &&
                             std::all_of(name.begin() + 1, name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (!monster) {
            out.push_back(name);
            continue;
        }
        auto found = numbers.find(std::stoi(name.substr(1)));
        if (found != numbers.end()) out.push_back("m" + std::to_string(found->second));
    }
    return out;
}

}  // namespace

Game heroes_view(const Game& g, const HeroTablesMaps& maps, const HeroSight& sight) {
    if (!maps.content) throw std::invalid_argument("heroes_view: the maps hold no view content");
    const State& s = g.state;
    Game out;
    out.content = maps.content;
    out.max_turns = g.max_turns;
    out.hero_ids = g.hero_ids;
    out.moves = g.moves;
    State& v = out.state;
    v = s;

    // --- figures: monsters heroes do not see (or gone) leave no trace ---
    std::array<bool, MAX_UNITS> shown{}, hide{};
    for (int u : sight.visible) {
        if (u < 0 || u >= MAX_UNITS) throw std::invalid_argument("heroes_view: a seen slot off the units");
        shown[u] = true;
    }
    std::vector<int> hidden;
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (s.unit_side[u] == SIDE_MONSTER && !shown[u]) {
            hidden.push_back(u);
            hide[u] = true;
        }
    }
    auto hidden_unit = [&hide](int u) { return u >= 0 && u < MAX_UNITS && hide[u]; };
    blank_units(v, hidden);
    for (int u : hidden) {
        const int pos = s.unit_pos[u];
        if (pos >= 0 && v.occupant[pos] == u) v.occupant[pos] = NO_UNIT;
    }
    // monster ids: the heroes' names, which count no fog monster
    for (int u : sight.visible) {
        auto found = sight.numbers.find(s.unit_uid[u]);
        if (found == sight.numbers.end()) {
            throw std::invalid_argument("heroes_view: no number for the seen monster m" + std::to_string(s.unit_uid[u]));
        }
        v.unit_uid[u] = static_cast<int16_t>(found->second);
    }
    int unnamed = 0;  // a guard never seen: a number after the names
    for (const auto& [uid, k] : sight.numbers) unnamed = std::max(unnamed, k + 1);
    v.next_uid = unnamed + static_cast<int>(maps.guards.size());
    auto visible_only = [&](const Row& row) {
        Row kept;
        for (int m : row) {
            if (!hidden_unit(m)) kept.push_back(m);
        }
        return kept;
    };
    v.queue = visible_only(s.queue);
    v.mind_queue = visible_only(s.mind_queue);
    v.effects.clear();
    for (const Row& row : s.effects) {
        const int u = row[EFFECT_UNIT];
        if (hidden_unit(u) || s.unit_status[u] != ACTIVE || s.unit_uid[u] != row[EFFECT_UID]) continue;
        v.effects.push_back(row);
        v.effects.back()[EFFECT_UID] = v.unit_uid[u];
    }
    if (!hidden.empty()) {
        v.fights.clear();
        int index = 0;
        for (size_t k = 0; k < s.fights.size(); ++k) {
            if (hidden_unit(s.fights[k][FIGHT_MONSTER])) continue;
            v.fights.push_back(s.fights[k]);
            if (static_cast<int>(k) < s.fight_index) ++index;
        }
        v.fight_index = index;
        if (!s.mental.empty() && (hidden_unit(s.mental[MENTAL_AGGRESSOR]) || hidden_unit(s.mental[MENTAL_DEFENDER]))) {
            v.mental.clear();
        }
        if (hidden_unit(s.controller)) v.controller = NO_UNIT;
    }

    // --- doors, traps, guards, room events: the known ones, re-indexed ---
    const int n_doors = static_cast<int>(maps.doors.size()), real_doors = s.n_doors();
    v.door_open = picked(s.door_open, maps.doors);
    v.door_alert = picked(s.door_alert, maps.doors);
    v.door_tried.assign(MAX_HEROES * n_doors, 0);
    for (int h = 0; h < MAX_HEROES; ++h) {
        for (int j = 0; j < n_doors; ++j) v.door_tried[h * n_doors + j] = s.door_tried[h * real_doors + maps.doors[j]];
    }
    v.door_hidden.assign(n_doors, 0);
    v.closed_bits = 0;
    for (int j = 0; j < n_doors; ++j) {
        if (!v.door_open[j]) v.closed_bits |= uint64_t{1} << j;
    }
    v.trap_armed = picked(s.trap_armed, maps.traps);
    v.trap_detected = picked(s.trap_detected, maps.traps);
    v.ambush_fired.clear();
    v.event_done.assign(maps.events.size(), 1);
    const int n_guards = static_cast<int>(maps.guards.size());
    v.guard_uid.assign(n_guards, -1);
    v.guard_slain.assign(n_guards, 0);
    for (int j = 0; j < n_guards; ++j) {
        const int i = maps.guards[j], real = s.guard_uid.at(i);
        if (real < 0) continue;
        auto found = sight.numbers.find(real);
        v.guard_uid[j] = static_cast<int16_t>(found != sight.numbers.end() ? found->second : unnamed + j);
        if (s.guard_slain.at(i)) {
            auto slain = sight.slain.find("m" + std::to_string(real));
            v.guard_slain[j] = slain != sight.slain.end() && slain->second;
        }
    }

    // --- face-down cards: their deck's placeholder ---
    const Content& real = *g.content;
    auto deck_of = [&real](int card) {
        const std::string& deck = real.item_cards.at(card).deck;
        auto at = std::find(real.decks.begin(), real.decks.end(), deck);
        if (at == real.decks.end()) throw std::invalid_argument("heroes_view: item card of no deck: " + deck);
        return static_cast<int>(at - real.decks.begin());
    };
    std::array<bool, MAX_ITEMS> unread{};
    for (int item = 0; item < MAX_ITEMS; ++item) {
        if (s.item_card[item] >= 0 && !s.item_known[item]) {
            unread[item] = true;
            v.item_card[item] = static_cast<int16_t>(maps.item_base + deck_of(s.item_card[item]));
        }
    }
    auto is_unread = [&unread](int item) { return item >= 0 && item < MAX_ITEMS && unread[item]; };
    for (int d = 0; d < N_DECKS; ++d) {
        for (int k = 0; k < MAX_DECK; ++k) {
            v.deck_cards[d * MAX_DECK + k] = s.deck_cards[d * MAX_DECK + k] >= 0 ? static_cast<int16_t>(maps.item_base + d) : -1;
        }
    }
    const int spells = s.n_spells();
    v.spell_known = padded(s.spell_known, spells);
    v.declined_spells = padded(s.declined_spells, spells);
    for (auto& row : v.downed_by) row = renamed(row, sight.numbers);
    for (int h = 0; h < MAX_HEROES; ++h) {
        if (is_unread(s.casting_item[h])) v.casting_spell[h] = static_cast<int16_t>(maps.spell_base);
    }
    if (!v.cast.empty() && is_unread(v.cast[CAST_ITEM])) v.cast[CAST_SPELL] = maps.spell_base;

    // --- the decisions pending: none about a hidden figure, room events re-indexed ---
    v.stack.clear();
    for (const Row& row : s.stack) {
        int kind = row[STACK_KIND], unit = row[STACK_UNIT], a = row[STACK_A], b = row[STACK_B];
        if (hidden_unit(unit)) continue;
        if (kind == Decision::EVENT_CHOICE || kind == Decision::CLAIM_ITEM) {
            a = maps.event_map.at(a);
            if (a < 0) continue;
        } else if (kind == Decision::CAST_MODE && is_unread(b)) {
            a = maps.spell_base;
        }
        v.stack.push_back({kind, unit, a, b});
    }
    if (s.phase == Phase::EXPLORE && s.act_step == EXPLORE_STEP_EVENTS) {
        v.act_todo.clear();
        for (int e : s.act_todo) {
            if (maps.event_map.at(e) >= 0) v.act_todo.push_back(maps.event_map[e]);
        }
    }
    return out;
}

std::shared_ptr<const Content> reading_content(const Content& base, const std::vector<int>& doors,
                                               const std::vector<int>& traps, const std::vector<int>& guards,
                                               const std::vector<int>& events, const Board& board,
                                               std::vector<uint8_t> wall, std::vector<int16_t> edge_door,
                                               std::vector<uint8_t> furniture, std::vector<uint8_t> blockage) {
    const size_t n = base.tables.area.size();
    if (wall.size() != n * 4 || edge_door.size() != n * 4 || furniture.size() != n || blockage.size() != n ||
        board.n_squares != static_cast<int>(n)) {
        throw std::invalid_argument("reading_content: the view's board arrays do not fit the adventure's squares");
    }
    auto out = std::make_shared<Content>();
    const Tables& t = base.tables;
    Tables& v = out->tables;
    v.area = t.area;
    v.neighbor = t.neighbor;
    v.wall = std::move(wall);
    v.edge_door = std::move(edge_door);
    v.furniture = std::move(furniture);
    v.blockage = std::move(blockage);
    v.exit = t.exit;
    v.area_squares = t.area_squares;
    v.is_corridor = t.is_corridor;
    v.door_squares = picked(t.door_squares, doors);
    v.area_names = t.area_names;
    v.n_rooms = t.n_rooms;
    v.board = board;
    const Adventure& adv = base.adventure;
    Adventure& a = out->adventure;
    a.id = adv.id;
    a.name = adv.name;
    a.difficulty = adv.difficulty;
    a.goal = adv.goal;
    a.start = adv.start;
    a.exits = adv.exits;
    a.doors = picked(adv.doors, doors);
    for (const Square& q : adv.blockages) {
        if (v.blockage[Game::square(q)]) a.blockages.push_back(q);
    }
    for (size_t k = 0; k < adv.furniture.size(); ++k) {  // a piece with a square in a revealed area
        const auto& piece = adv.furniture[k];
        if (std::any_of(piece.begin(), piece.end(), [&v](const Square& q) { return v.furniture[Game::square(q)] != 0; })) {
            a.furniture.push_back(piece);
            if (k < adv.furniture_kind.size()) a.furniture_kind.push_back(adv.furniture_kind[k]);
        }
    }
    a.guards = picked(adv.guards, guards);
    a.objectives = adv.objectives;
    a.traps = picked(adv.traps, traps);
    std::vector<int> door_map(adv.doors.size(), -1);
    for (size_t j = 0; j < doors.size(); ++j) door_map.at(doors[j]) = static_cast<int>(j);
    for (int e : events) {
        RoomEvent ev = adv.events.at(e);
        if (ev.door) {
            const int door = door_map.at(*ev.door);
            ev.door = door >= 0 ? std::optional<int>(door) : std::nullopt;
        }
        a.events.push_back(std::move(ev));
    }
    a.final = adv.final;
    // tables._patrol_rooms of the view's adventure: the rooms with a known door that is not secret
    std::vector<uint8_t> with_door(t.area_squares.size(), 0);
    for (size_t j = 0; j < a.doors.size(); ++j) {
        if (a.doors[j].secret) continue;
        for (int q : v.door_squares[j]) with_door[t.area[q]] = 1;
    }
    for (int r = 0; r < t.n_rooms; ++r) {
        if (with_door[r]) v.patrol_rooms.push_back(static_cast<int16_t>(r));
    }
    out->rules = base.rules;
    out->heroes = base.heroes;
    out->monsters = base.monsters;
    out->spells = base.spells;
    out->item_cards = base.item_cards;
    out->monster_index = base.monster_index;
    out->spell_index = base.spell_index;
    out->item_index = base.item_index;
    out->traits = base.traits;
    out->decks = base.decks;
    return out;
}

}  // namespace dungeon_core
