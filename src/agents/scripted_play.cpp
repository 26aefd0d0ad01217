// Both scripted agents v2 playing on in compiled code (see scripted_play.hpp).
#include "scripted_play.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dungeon_agents {

using namespace dungeon_core;

namespace {

template <typename Vec>
void append_bytes(std::string& out, const Vec& v) {
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
    out.push_back('|');  // (fields of different lengths never run into each other)
}

// turn_search.macro_point's answer at a monster's Movement without a plan, as the search's DM walker finds
// it: v2's choice made while listening (DirectedDM.choose_native; the memory is left as that call leaves
// it), then whether DirectedDM.alternatives names a hero to weigh against v2's victim (the same reach, a
// score within `spread`).
bool dm_weighs(Game& g, const DMParams& p, DMMemory& memory, int m, double spread) {
    memory.listening = true;
    memory.listing.clear();
    choose_v2(g, p, memory);
    memory.listening = false;
    const std::map<int, Weighed> listing = std::move(memory.listing);
    memory.listing.clear();
    const auto entry = listing.find(m);
    if (entry == listing.end() || entry->second.choice < 0) return false;
    std::map<int, std::pair<int, double>> scores;  // hero -> (-out of reach, -score), as the Python dict
    for (const auto& [h, far, score] : entry->second.options) scores[h] = {-static_cast<int>(far), -score};
    const auto chosen = scores.find(entry->second.choice);
    if (chosen == scores.end()) return false;
    const auto [reach, top] = chosen->second;
    for (const auto& [h, key] : scores) {
        if (h != entry->second.choice && key.first == reach && key.second >= top - spread) return true;
    }
    return false;
}

// The same for a hero's Movement without a plan that holds (its stale plan dropped, as
// DirectedHeroes.planned drops it): v2's choice made while listening (DirectedHeroes.choose_listing),
// then whether DirectedHeroes.alternatives names a square of another area to weigh (scored within
// `spread` of v2's best, as much progress as v2's choice). `left`: the choice is NOT_PORTED.
bool hero_weighs(Game& g, const WorldSides& sides, int h, double spread, bool& left) {
    sides.plans.erase(h);
    HeroListing listing;
    const std::vector<int> legal = g.legal_actions();
    const int action = choose_heroes_v2_world(g, legal, sides.heroes, sides.hero_memory, sides.hero_cache, -1,
                                              &listing).first;
    left = action == NOT_PORTED;
    const auto entry = listing.heroes.find(h);
    if (left || entry == listing.heroes.end()) return false;
    const auto& options = entry->second.options;
    const int choice = entry->second.choice;
    double top = options.front().score;
    int64_t most = options.front().progress;
    int64_t least = 0;
    for (const auto& o : options) {
        top = std::max(top, o.score);
        most = std::max(most, o.progress);
        if (o.square == choice) least = o.progress;
    }
    const auto& area = g.tables().area;
    const int mine = choice >= 0 ? area[choice] : -1;
    if (choice < 0) least = std::max<int64_t>(0, most);
    for (const auto& o : options) {
        if (area[o.square] == mine || o.score < top - spread || o.progress < least) continue;
        return true;
    }
    return false;
}

}  // namespace

std::string public_key(const State& s) {
    std::string key;
    append_bytes(key, s.revealed);
    append_bytes(key, s.door_hidden);
    append_bytes(key, s.trap_detected);
    append_bytes(key, s.guard_uid);
    append_bytes(key, s.event_done);
    return key;
}

Played play_scripted(Game& g, HeroLens& lens, ShownEvents& shown, const Sides& sides,
                     const std::function<const HeroTablesMaps*(const std::string&)>& maps_for, int stop_turn,
                     int max_moves, int point_side, double spread) {
    Played played{Stop::OVER};
    while (true) {
        if (g.over()) return played.stop = Stop::OVER, played;
        if (stop_turn >= 0 && g.state.turn >= stop_turn) return played.stop = Stop::TURN, played;
        if (max_moves >= 0 && played.heroes_moves + played.dm_moves >= max_moves) {
            return played.stop = Stop::MOVES, played;
        }
        const State& s = g.state;
        if (s.stack.empty()) throw std::logic_error("the game goes on without a decision to ask");
        if (at_point(g, point_side, nullptr, sides.dm_memory)) {
            // a monster's Movement without a plan: weighed here when `spread` is given (the memory put
            // back for the search to weigh it itself, where it is a macro point)
            if (std::isnan(spread) || point_side != DM_POINTS) return played.stop = Stop::POINT, played;
            const DMMemory before = sides.dm_memory;
            if (dm_weighs(g, sides.dm, sides.dm_memory, s.stack.back()[STACK_UNIT], spread)) {
                sides.dm_memory = before;
                return played.stop = Stop::POINT, played;
            }
        }
        const bool dm = s.stack.back()[STACK_UNIT] >= s.n_heroes;
        int action;
        if (dm) {
            action = choose_v2(g, sides.dm, sides.dm_memory);
            if (action == NOT_PORTED) return played.stop = Stop::DM_LEFT, played;
        } else {
            std::string key = public_key(s);
            const HeroTablesMaps* maps = maps_for(key);
            if (maps == nullptr) {
                played.key = std::move(key);
                return played.stop = Stop::NEED_MAPS, played;
            }
            action = choose_heroes_v2(g, *maps, lens, sides.heroes, sides.hero_memory, sides.hero_cache);
            if (action == NOT_PORTED) return played.stop = Stop::HEROES_LEFT, played;
        }
        const size_t before = g.log_events.size();
        g.apply(action);
        fold_log(lens, g, before, &shown);
        ++(dm ? played.dm_moves : played.heroes_moves);
    }
}

std::pair<int64_t, int64_t> knowledge_mark(Game& g) {
    const State& s = g.state;
    const auto& area = g.tables().area;
    int64_t revealed = 0, in_sight = 0;
    for (auto r : s.revealed) revealed += r;
    for (int u = s.n_heroes; u < static_cast<int>(s.unit_status.size()); ++u) {
        if (s.unit_status[u] == ACTIVE && s.unit_side[u] == SIDE_MONSTER && s.revealed.at(area.at(s.unit_pos[u]))) {
            ++in_sight;
        }
    }
    return {revealed, in_sight};
}

bool at_point(Game& g, int point_side, const std::map<int, HeroPlan>* hero_plans, const DMMemory& dm) {
    if (point_side == NO_POINTS) return false;
    const State& s = g.state;
    const int kind = s.stack.back()[STACK_KIND], u = s.stack.back()[STACK_UNIT];
    if (point_side == HERO_POINTS && kind == Decision::HERO_MOVE) {
        if (hero_plans == nullptr) return true;
        const auto plan = hero_plans->find(u);
        if (plan == hero_plans->end()) return true;
        const auto [revealed, in_sight] = knowledge_mark(g);
        const HeroPlan& p = plan->second;
        return p.turn != s.turn || p.revealed != revealed || p.in_sight != in_sight;
    }
    if (point_side == DM_POINTS && kind == Decision::MONSTER_MOVE) {
        const auto plan = dm.plans.find(u);
        return plan == dm.plans.end() || plan->second.turn != s.turn || plan->second.uid != s.unit_uid[u];
    }
    return false;
}

Played play_world(Game& g, const WorldSides& sides, int stop_turn, int point_side, double spread) {
    Played played{Stop::OVER};
    while (true) {
        if (g.over()) return played.stop = Stop::OVER, played;
        if (stop_turn >= 0 && g.state.turn >= stop_turn) return played.stop = Stop::TURN, played;
        const State& s = g.state;
        if (s.stack.empty()) throw std::logic_error("the game goes on without a decision to ask");
        if (at_point(g, point_side, &sides.plans, sides.dm_memory)) {
            // a Movement without a plan that holds: weighed here when `spread` is given (the memories and
            // plans put back for the search to weigh it itself, where it is a macro point)
            if (std::isnan(spread)) return played.stop = Stop::POINT, played;
            const int u = s.stack.back()[STACK_UNIT];
            bool is_point, left = false;
            if (point_side == DM_POINTS) {
                const DMMemory before = sides.dm_memory;
                is_point = dm_weighs(g, sides.dm, sides.dm_memory, u, spread);
                if (is_point) sides.dm_memory = before;
            } else {
                const HeroMemory before = sides.hero_memory;
                const std::map<int, HeroPlan> plans_before = sides.plans;
                is_point = hero_weighs(g, sides, u, spread, left);
                if (is_point || left) sides.hero_memory = before, sides.plans = plans_before;
            }
            if (left) return played.stop = Stop::HEROES_LEFT, played;
            if (is_point) return played.stop = Stop::POINT, played;
        }
        const int h = s.stack.back()[STACK_UNIT];
        const bool dm = h >= s.n_heroes;
        int action;
        if (dm) {
            action = choose_v2(g, sides.dm, sides.dm_memory);
            if (action == NOT_PORTED) return played.stop = Stop::DM_LEFT, played;
        } else {
            // turn_search.DirectedHeroes.choose on a heroes' world
            const HeroMemory before = sides.hero_memory;
            const auto plan = sides.plans.find(h);
            int fixed = -1;
            bool stale = false;
            if (plan != sides.plans.end()) {
                const auto [revealed, in_sight] = knowledge_mark(g);
                const HeroPlan& p = plan->second;
                stale = p.turn != s.turn || p.revealed != revealed || p.in_sight != in_sight;
                fixed = stale ? -1 : p.square;  // (FREE is -1)
            }
            const std::vector<int> legal = g.legal_actions();
            const auto [chosen, asked] =
                choose_heroes_v2_world(g, legal, sides.heroes, sides.hero_memory, sides.hero_cache, fixed);
            if (chosen == NOT_PORTED) {
                sides.hero_memory = before;
                return played.stop = Stop::HEROES_LEFT, played;
            }
            if (asked && stale) sides.plans.erase(plan);
            action = chosen;
        }
        g.apply(action);
        ++(dm ? played.dm_moves : played.heroes_moves);
    }
}

}  // namespace dungeon_agents
