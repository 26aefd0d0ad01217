// The set-up of a game in the core: see setup.hpp.
#include "setup.hpp"

#include <stdexcept>

#include "rules/inventory.hpp"
#include "rules/units.hpp"
#include "rules/visibility.hpp"

namespace dungeon_core {
namespace {

int index_of_hero(const Content& c, const std::string& id) {
    for (size_t i = 0; i < c.heroes.size(); ++i) {
        if (c.heroes[i].id == id) return static_cast<int>(i);
    }
    throw std::invalid_argument("set-up: no hero '" + id + "' in the roster");
}

int index_of_spell(const Content& c, const std::string& id) {
    for (size_t i = 0; i < c.spells.size(); ++i) {
        if (c.spells[i].id == id) return static_cast<int>(i);
    }
    throw std::invalid_argument("set-up: a hero card names an unknown spell '" + id + "'");
}

// The fields sized by the adventure, all at their starting values (Game._place's first half).
void size_state(Game& g, int n_heroes) {
    State& s = g.state;
    const Tables& t = g.tables();
    const Adventure& adv = g.adventure();
    const size_t doors = t.n_doors(), areas = t.n_areas(), spells = g.content->spells.size();
    s = State();
    s.n_heroes = n_heroes;
    s.light = g.rules().light_start;
    s.door_open.assign(doors, 0);
    s.door_alert.assign(doors, 0);
    s.door_tried.assign(MAX_HEROES * doors, 0);
    s.closed_bits = doors >= 64 ? ~uint64_t{0} : (uint64_t{1} << doors) - 1;
    s.revealed.assign(areas, 0);
    s.visited.assign(areas, 0);
    s.patrol_corridors.assign(areas, 0);
    s.guard_uid.assign(adv.guards.size(), -1);
    s.guard_slain.assign(adv.guards.size(), 0);
    s.ambush_fired.assign(adv.ambushes.size(), 0);
    s.trap_armed.assign(adv.traps.size(), 1);
    s.trap_detected.assign(adv.traps.size(), 0);
    s.event_done.assign(adv.events.size(), 0);
    s.door_hidden.resize(adv.doors.size());
    for (size_t d = 0; d < adv.doors.size(); ++d) s.door_hidden[d] = adv.doors[d].secret;
    s.spell_known.assign(MAX_HEROES * spells, 0);
    s.declined_spells.assign(MAX_HEROES * spells, 0);
}

}  // namespace

void set_up(Game& g, const std::vector<std::string>& hero_ids, int64_t seed, const Carried& carried) {
    const Content& c = *g.content;
    const Adventure& adv = c.adventure;
    const int n = static_cast<int>(hero_ids.size());
    if (n < MIN_HEROES || n > MAX_HEROES || n > static_cast<int>(adv.start.size())) {
        throw std::invalid_argument("set-up: " + std::to_string(n) + " heroes; the game is for " +
                                    std::to_string(MIN_HEROES) + "-" + std::to_string(MAX_HEROES));
    }
    std::vector<int> cards(n);
    for (int u = 0; u < n; ++u) cards[u] = index_of_hero(c, hero_ids[u]);
    g.hero_ids = hero_ids;
    g.log_events = EventLog();
    g.legal_known = false;
    g.moves = 0;
    size_state(g, n);
    State& s = g.state;
    for (int u = 0; u < n; ++u) {
        units::place_hero(g, u, cards[u], Game::square(adv.start[u]));
        s.visited[g.tables().area[s.unit_pos[u]]] = 1;
        for (const std::string& spell : c.heroes[cards[u]].spells) s.knows(u, index_of_spell(c, spell)) = 1;
    }
    inventory::setup_items(g, carried);
    std::vector<Value> units;
    units.reserve(n);
    for (int u = 0; u < n; ++u) units.push_back(units::unit_info(g, u));
    g.log(Value::obj({{"type", "setup"},
                      {"adventure", adv.id},
                      {"seed", static_cast<long long>(seed)},
                      {"goal", adv.goal},
                      {"light", s.light},
                      {"max_turns", g.max_turns},
                      {"units", Value(std::move(units))}}));
    s.phase = Phase::TURN_START;
    visibility::look(g, units::active_heroes(g));
    g.advance();
}

}  // namespace dungeon_core
