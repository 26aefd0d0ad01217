// agents/scripted_heroes_v2.py's ScriptedHeroesV2 in compiled code (see scripted_heroes_v2.hpp). Each
// function names the Python method it follows; the comments say where a Python read is mimicked.
#include "scripted_heroes_v2.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include "common.hpp"
#include "pursuit.hpp"
#include "rules/abilities.hpp"
#include "rules/board.hpp"
#include "rules/combat.hpp"
#include "rules/decisions.hpp"
#include "rules/inventory.hpp"
#include "rules/objectives.hpp"
#include "rules/spells.hpp"
#include "rules/trade.hpp"
#include "rules/items.hpp"
#include "rules/units.hpp"
#include "scripted_dm_v2.hpp"

namespace dungeon_agents {

using namespace dungeon_core;
using Dist = std::shared_ptr<const std::vector<int64_t>>;

namespace {

constexpr int64_t INF = 1000000000;  // _common.INF
constexpr int MOVE_ACTIONS[4] = {MOVE_N, MOVE_N + 1, MOVE_N + 2, MOVE_N + 3};

bool has(const std::vector<int>& legal, int action) {
    return std::find(legal.begin(), legal.end(), action) != legal.end();
}

template <typename T>
bool contains(const std::vector<T>& v, T x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// A list read at a square as Python reads it (a -1 reads the last entry).
size_t at(size_t n, int q) { return q < 0 ? n + q : static_cast<size_t>(q); }

// The decisions whose rule reads only the legal actions and the deciding hero's own condition
// (scripted_heroes.WITHOUT_VIEW): answered from the real game.
bool without_view(int kind) {
    switch (kind) {
        case Decision::EXPLORE_CHOICE:
        case Decision::EVENT_CHOICE:
        case Decision::CLAIM_ITEM:
        case Decision::SPELL_VERB:
        case Decision::DISARM:
        case Decision::CAST_MODE:
        case Decision::MENTAL_BID:
            return true;
        default:
            return false;
    }
}

struct Party {
    std::vector<int> comrades;
    std::map<int, Dist> fields;
    std::set<int> held;
    std::vector<int> stranded;
};

struct Heroes {
    Game& g;  // the heroes' view (or the real game for a WITHOUT_VIEW decision)
    const HeroParams& p;
    HeroMemory& memory;
    HeroCache::PerContent* memo;  // the distances' memo of the view's content
    int fixed_end = -1;       // a search's plan: the square every end_square gives (-1: none)
    bool end_asked = false;   // whether end_square was asked (a search's stale plan is then dropped)
    HeroListing* listing = nullptr;  // while a search listens: what v2 weighed (DirectedHeroes.weighed)
    // what one decision computes once (ScriptedHeroes.once)
    std::optional<std::vector<int>> in_sight_;
    std::optional<std::pair<std::vector<int>, bool>> goal_;
    std::optional<std::vector<int64_t>> costs_;
    std::optional<std::string> terrain_;
    std::optional<std::shared_ptr<const std::vector<std::vector<int>>>> steps_;

    State& s() { return g.state; }
    const Tables& t() { return g.tables(); }
    int pos(int u) { return g.state.unit_pos[u]; }
    int neighbor(int q, int d) { return t().neighbor[at(t().neighbor.size(), q * 4 + d)]; }
    int edge_door(int q, int d) { return t().edge_door[q * 4 + d]; }

    // ----------------------------------------------------------------------- _common
    std::vector<int> around(int sq) { return board::open_neighbours(g, sq); }

    std::vector<int> adjacent_foes(int u) {
        State& st = s();
        const int side = st.unit_side[u];
        std::vector<int> out;
        for (int nxt : around(st.unit_pos[u])) {
            const int v = st.occupant[nxt];
            if (v >= 0 && st.unit_status[v] == ACTIVE && st.unit_side[v] != side && st.unit_side[v] != -1) {
                out.push_back(v);
            }
        }
        return out;
    }

    int foes_next_to_square(int sq, int side) {
        State& st = s();
        int n = 0;
        for (int nxt : around(sq)) {
            const int v = st.occupant[nxt];
            if (v >= 0 && st.unit_status[v] == ACTIVE && st.unit_side[v] == 1 - side) ++n;
        }
        return n;
    }

    double hurt(int u) {
        const int base = std::max(1, int{s().base_health[u]});
        return 1.0 - static_cast<double>(s().health[u]) / base;
    }

    // _common.usable_steps(g, doors_closed_ok=True): passages through doors that are not hidden (kept
    // per content and hidden doors)
    const std::vector<std::vector<int>>& usable_steps() {
        if (!steps_ && memo != nullptr) {
            const std::string key(s().door_hidden.begin(), s().door_hidden.end());
            auto found = memo->steps.find(key);
            if (found != memo->steps.end()) steps_ = found->second;
        }
        if (!steps_) {
            const Board& b = t().board;
            std::vector<std::vector<int>> out(b.n_squares);
            for (int q = 0; q < b.n_squares; ++q) {
                for (int i = b.passage_start[q]; i < b.passage_start[q + 1]; ++i) {
                    const int door = b.passage_door[i];
                    if (door < 0 || !s().door_hidden.at(door)) out[q].push_back(b.passage_to[i]);
                }
            }
            steps_ = std::make_shared<const std::vector<std::vector<int>>>(std::move(out));
            if (memo != nullptr) memo->steps[std::string(s().door_hidden.begin(), s().door_hidden.end())] = *steps_;
        }
        return **steps_;
    }

    // _common.dijkstra(g, targets, cost, doors_closed_ok=True), by the core's cost search
    std::vector<int64_t> dijkstra(const std::vector<int>& targets, const std::vector<int64_t>& cost) {
        std::vector<uint8_t> passable(s().door_hidden.size());
        for (size_t i = 0; i < passable.size(); ++i) passable[i] = !s().door_hidden[i];
        const std::vector<int32_t> tg(targets.begin(), targets.end());
        return cost_field(t().board, reinterpret_cast<const bool*>(passable.data()), cost.data(), tg, INF);
    }

    // ----------------------------------------------------------------------- knowledge
    std::vector<int> in_sight() {  // _monsters_in_sight: active monsters on revealed areas, in slot order
        if (!in_sight_) {
            State& st = s();
            std::vector<int> out;
            for (int u = st.n_heroes; u < MAX_UNITS; ++u) {
                if (st.unit_status[u] == ACTIVE && st.unit_side[u] == SIDE_MONSTER) out.push_back(u);
            }
            std::vector<int> seen;
            for (int u : out) {
                if (st.revealed.at(t().area[at(t().area.size(), st.unit_pos[u])])) seen.push_back(u);
            }
            in_sight_ = std::move(seen);
        }
        return *in_sight_;
    }

    std::vector<int> area_squares_of(int area) {
        const auto& sq = t().area_squares.at(area);
        return std::vector<int>(sq.begin(), sq.end());
    }

    int area_index(const std::string& name) {
        const auto& names = t().area_names;
        auto found = std::find(names.begin(), names.end(), name);
        if (found == names.end()) throw std::invalid_argument("scripted heroes: no area " + name);
        return static_cast<int>(found - names.begin());
    }

    // ScriptedHeroes._goal_targets
    const std::pair<std::vector<int>, bool>& goal_targets() {
        if (!goal_) goal_ = compute_goal();
        return *goal_;
    }

    std::pair<std::vector<int>, bool> compute_goal() {
        State& st = s();
        const Adventure& adv = g.adventure();
        for (size_t i = 0; i < adv.objectives.size(); ++i) {
            const Objective& obj = adv.objectives[i];
            if (obj.kind == "escape" || !obj.primary || objectives::objective_met(g, static_cast<int>(i))) continue;
            if (obj.kind == "slay") {
                int guard = -1;
                for (size_t k = 0; k < adv.guards.size(); ++k) {
                    if (obj.at && adv.guards[k].at == *obj.at) {
                        guard = static_cast<int>(k);
                        break;
                    }
                }
                const int uid = guard >= 0 ? int{st.guard_uid.at(guard)} : -1;
                if (uid >= 0) {
                    for (int u = 0; u < MAX_UNITS; ++u) {
                        if (st.unit_uid[u] == uid && st.unit_status[u] == ACTIVE) return {around(st.unit_pos[u]), false};
                    }
                }
                return {{Game::square(*obj.at)}, false};
            }
            if (obj.kind == "retrieve" || obj.kind == "claim") {
                const int card = g.content->item_index.at(*obj.item);
                bool held = false;
                for (int it = 0; it < MAX_ITEMS; ++it) {
                    if (st.item_card[it] == card && st.item_holder[it] >= 0 && st.item_holder[it] < st.n_heroes) held = true;
                }
                if (held) continue;
                if (!obj.area) continue;
                return {area_squares_of(area_index(*obj.area)), false};
            }
            if (obj.kind == "rescue" && (st.explored_bits >> area_index(*obj.area) & 1)) continue;
            if (obj.kind == "rescue" || obj.kind == "reach") return {area_squares_of(area_index(*obj.area)), false};
        }
        std::vector<int> exits;
        for (const Square& q : adv.exits) exits.push_back(Game::square(q));
        return {exits, true};
    }

    // ScriptedHeroes.approach_targets
    std::vector<int> approach_targets(const std::vector<int>& targets) {
        std::set<int> goal, out;
        for (int q : targets) goal.insert(t().area[at(t().area.size(), q)]);
        for (int q : targets) {
            for (int d = 0; d < 4; ++d) {
                const int r = neighbor(q, d);
                if (r >= 0 && !goal.count(t().area[r]) && !s().revealed.at(t().area[r])) out.insert(r);
            }
        }
        return std::vector<int>(out.begin(), out.end());
    }

    // ScriptedHeroes.unexplored_targets
    std::vector<int> unexplored_targets() {
        std::vector<int> out;
        for (int a = 0; a < t().n_areas(); ++a) {
            const bool room = !t().is_corridor[a];
            if ((room && !(s().explored_bits >> a & 1)) || !s().revealed.at(a)) {
                for (int q : t().area_squares[a]) out.push_back(q);
            }
        }
        return out;
    }

    // ScriptedHeroes.costs (once per decision)
    const std::vector<int64_t>& costs() {
        if (!costs_) {
            State& st = s();
            std::vector<int64_t> cost(t().n_squares());
            for (int q = 0; q < t().n_squares(); ++q) cost[q] = t().furniture[q] || t().blockage[q] ? INF : 1;
            const Adventure& adv = g.adventure();
            for (size_t i = 0; i < adv.traps.size(); ++i) {
                if (st.trap_detected.at(i)) cost[Game::square(adv.traps[i].at)] = st.trap_armed.at(i) ? p.trap_cost : INF;
            }
            for (int u = 0; u < st.n_heroes; ++u) {
                if (st.unit_status[u] == CORPSE) cost[at(cost.size(), st.unit_pos[u])] = INF;
            }
            costs_ = std::move(cost);
        }
        return *costs_;
    }

    // ScriptedHeroes.terrain_key
    const std::string& terrain() {
        if (!terrain_) {
            State& st = s();
            std::string key(st.door_hidden.begin(), st.door_hidden.end());
            key += '|';
            key.append(st.trap_detected.begin(), st.trap_detected.end());
            key += '|';
            key.append(st.trap_armed.begin(), st.trap_armed.end());
            key += '|' + std::to_string(p.trap_cost) + '|';
            for (int u = 0; u < st.n_heroes; ++u) key += static_cast<char>(st.unit_status[u]);
            for (int u = 0; u < st.n_heroes; ++u) {
                if (st.unit_status[u] == CORPSE) key += '|' + std::to_string(st.unit_pos[u]);
            }
            terrain_ = std::move(key);
        }
        return *terrain_;
    }

    // ScriptedHeroes.distances: memoised per content on the targets and the terrain
    Dist distances(const std::vector<int>& targets) {
        std::string key;
        for (int q : targets) key += std::to_string(q) + ',';
        key += '#';
        key += terrain();
        if (memo != nullptr) {
            auto found = memo->fields.find(key);
            if (found != memo->fields.end()) return found->second;
        }
        Dist out = std::make_shared<const std::vector<int64_t>>(dijkstra(targets, costs()));
        if (memo != nullptr) {
            if (memo->fields.size() >= 1024) memo->fields.clear();
            memo->fields.emplace(std::move(key), out);
        }
        return out;
    }

    // ScriptedHeroes.within_one_step
    bool within_one_step(int here, const std::vector<int>& targets) {
        if (contains(targets, here)) return true;
        const auto& cost = costs();
        const auto& steps = usable_steps();
        for (int q : targets) {
            if (cost[q] == 1 && contains(steps[q], here)) return true;
        }
        return false;
    }

    std::vector<int> active_heroes() { return units::active_heroes(g); }

    // ScriptedHeroes.wants_rest
    bool wants_rest(int h) {
        State& st = s();
        bool tired = st.exhausted[h] || st.stamina[h] <= 1;
        if (st.deaths_door[h] && !tired) {
            for (int k : active_heroes()) {
                if (k != h && !st.deaths_door[k]) tired = true;
            }
        }
        return tired && in_sight().empty();
    }

    bool rests_now(int h) { return !s().moved[h] && wants_rest(h); }

    // ----------------------------------------------------------------------- movement (v1)
    // ScriptedHeroes.targets
    std::pair<std::vector<int>, bool> targets(int h) {
        State& st = s();
        const auto [goal, is_exit] = goal_targets();
        const std::vector<int> monsters = in_sight();
        if (monsters.empty() || (is_exit && exit_in_reach(h, goal))) return {goal, is_exit};
        std::vector<int> mon_sq;
        for (int m : monsters) {
            for (int q : around(st.unit_pos[m])) mon_sq.push_back(q);
        }
        const int here = pos(h);
        if (within_one_step(here, mon_sq)) return {mon_sq, false};
        const std::vector<int> heroes = active_heroes();
        const bool healthy = hurt(h) < p.hurt && !st.deaths_door[h];
        const bool good_odds = heroes.size() >= monsters.size() && healthy;
        std::set<int> goal_areas;
        for (int q : goal) goal_areas.insert(t().area[at(t().area.size(), q)]);
        bool at_goal = false;
        for (int k : heroes) at_goal = at_goal || goal_areas.count(t().area[at(t().area.size(), pos(k))]);
        const bool fight = !is_exit && (good_odds || (at_goal && healthy));
        if (fight && reachable(h, mon_sq)) return {mon_sq, false};
        return {goal, is_exit};
    }

    bool exit_in_reach(int h, const std::vector<int>& exits) {
        const int64_t d = (*distances(exits))[pos(h)];
        return 0 < d && d <= s().move_left[h];
    }

    bool reachable(int h, const std::vector<int>& targets) { return (*distances(targets))[pos(h)] < INF; }

    // ScriptedHeroes.tried_door_squares
    std::set<int> tried_door_squares(int h) {
        State& st = s();
        std::set<int> out;
        const int n = st.n_doors();
        for (int door = 0; door < n; ++door) {
            if (st.door_tried[h * n + door] && !st.door_open[door]) {
                for (int q : t().door_squares.at(door)) out.insert(q);
            }
        }
        return out;
    }

    // ScriptedHeroes.step_towards (v1)
    int step_towards_v1(int h, const std::vector<int>& legal, const std::vector<int64_t>& dist) {
        const int here = pos(h);
        const std::set<int> tried = tried_door_squares(h);
        int64_t best = dist[here];
        int choice = END;
        for (int d = 0; d < 4; ++d) {
            const int nxt = neighbor(here, d);
            if (has(legal, MOVE_ACTIONS[d]) && nxt >= 0 && dist[nxt] < best && !tried.count(nxt)) {
                best = dist[nxt];
                choice = MOVE_ACTIONS[d];
            }
        }
        return choice;
    }

    // ScriptedHeroes.jump_out
    int jump_out(int h, const std::vector<int>& legal, const std::vector<int64_t>& dist) {
        const int here = pos(h);
        int64_t best = INF;
        int choice = END;
        for (int d = 0; d < 4; ++d) {
            const int a = JUMP_N + d;
            if (!has(legal, a)) continue;
            const int over = neighbor(here, d);
            const int land = over >= 0 ? neighbor(over, d) : -1;
            if (land >= 0 && dist[land] < best) {
                best = dist[land];
                choice = a;
            }
        }
        return choice;
    }

    // ScriptedHeroes.clear_corpse
    int clear_corpse(int h, const std::vector<int>& legal, const std::vector<int>& targets) {
        const int here = pos(h);
        if (s().dragging[h] != NO_UNIT) {
            for (int a : MOVE_ACTIONS) {
                if (has(legal, a)) return a;
            }
            return END;
        }
        bool any_move = false;
        for (int a : MOVE_ACTIONS) any_move = any_move || has(legal, a);
        if (!any_move) return END;
        for (int d = 0; d < 4; ++d) {
            const int a = DRAG_N + d;
            if (!has(legal, a)) continue;
            std::vector<int64_t> cost = costs();
            cost[at(cost.size(), neighbor(here, d))] = 1;
            if (dijkstra(targets, cost)[here] < INF) return a;
        }
        return END;
    }

    int drag(const std::vector<int>& legal) {
        for (int d = 0; d < 4; ++d) {
            if (has(legal, DRAG_N + d)) return DRAG_N + d;
        }
        return -1;
    }

    bool tried_door_ahead(int h, const std::vector<int64_t>& dist) {
        State& st = s();
        const int here = pos(h);
        for (int d = 0; d < 4; ++d) {
            const int door = edge_door(here, d), nxt = neighbor(here, d);
            if (door >= 0 && !st.door_open[door] && st.door_tried[h * st.n_doors() + door] &&
                dist[at(dist.size(), nxt)] < dist[here]) {
                return true;
            }
        }
        return false;
    }

    int step_aside(int h, const std::vector<int>& legal, const std::vector<int64_t>& dist) {
        State& st = s();
        const int here = pos(h);
        std::vector<std::pair<int64_t, int>> steps;
        for (int d = 0; d < 4; ++d) {
            if (has(legal, MOVE_ACTIONS[d]) && edge_door(here, d) < 0 && neighbor(here, d) >= 0) {
                steps.emplace_back(dist[neighbor(here, d)], MOVE_ACTIONS[d]);
            }
        }
        bool others = false;
        for (int k = 0; k < st.n_heroes; ++k) {
            if (k != h && st.unit_status[k] == ACTIVE && !st.move_done[k]) others = true;
        }
        return !steps.empty() && others ? std::min_element(steps.begin(), steps.end())->second : END;
    }

    // ScriptedHeroes.comrade_in_the_way
    int comrade_in_the_way(int h, const std::vector<int>& legal, const std::vector<int64_t>& dist) {
        State& st = s();
        const int here = pos(h);
        if (st.move_left[h] <= 0 || !(0 < dist[here] && dist[here] < INF)) return -1;
        for (int nxt : around(here)) {
            const int k = st.occupant[nxt];
            if (0 <= k && k < st.n_heroes && dist[nxt] < dist[here] && has(legal, HANDOFF_0 + k) &&
                st.unit_status[k] == ACTIVE && !st.move_done[k]) {
                return k;
            }
        }
        return -1;
    }

    // ScriptedHeroes.waiting_comrade
    int waiting_comrade(int h, const std::vector<int>& legal) {
        State& st = s();
        const int y = pos(h) / WIDTH, x = pos(h) % WIDTH;
        std::optional<std::pair<int, int>> best;
        for (int k = 0; k < st.n_heroes; ++k) {
            if (k == h || !has(legal, HANDOFF_0 + k) || st.moved[k]) continue;
            const std::pair<int, int> key{std::abs(pos(k) / WIDTH - y) + std::abs(pos(k) % WIDTH - x), k};
            if (!best || key < *best) best = key;
        }
        return best ? best->second : -1;
    }

    // ScriptedHeroes.open_step_ahead (v1)
    bool open_step_ahead_v1(int h, const std::vector<int64_t>& dist) {
        const int here = pos(h);
        const std::set<int> tried = tried_door_squares(h);
        for (int q : around(here)) {
            if (dist[q] < dist[here] && !tried.count(q) && board::free(g, q)) return true;
        }
        return false;
    }

    // ScriptedHeroes.movement_step (v1)
    int movement_step_v1(int h, const std::vector<int>& legal) {
        State& st = s();
        std::optional<int> use = heal_now(h, legal, "movement");
        if (!use) use = ability_now(h, legal, false);
        if (use) return *use;
        if (rests_now(h)) return END;
        auto [targets_, is_exit] = targets(h);
        if (is_exit && in_sight().empty()) {
            const int a = drag(legal);
            if (a >= 0) return a;
        }
        Dist dist = distances(targets_);
        const int here = pos(h);
        if ((*dist)[here] >= INF) {
            int way_out = jump_out(h, legal, *dist);
            if (way_out == END) way_out = clear_corpse(h, legal, targets_);
            if (way_out != END) return way_out;
        }
        if ((*dist)[here] >= INF) {
            const std::vector<int> approach = approach_targets(targets_);
            if (!approach.empty()) dist = distances(approach);
            if ((*dist)[here] >= INF) {
                const std::vector<int> unexplored = unexplored_targets();
                dist = distances(!unexplored.empty() ? unexplored : targets_);
            }
        }
        int choice = step_towards(h, legal, dist);
        if (choice == END && (*dist)[here] >= INF) choice = jump_out(h, legal, *dist);
        if (choice == END) {
            const int blocker = comrade_in_the_way(h, legal, *dist);
            if (blocker >= 0) return HANDOFF_0 + blocker;
            if (tried_door_ahead(h, *dist) && st.move_left[h] > 0) return step_aside(h, legal, *dist);
            const std::optional<int> bonus = ability_now(h, legal, true);
            if (bonus) return *bonus;
            if (has(legal, EXTRA_MOVE) && is_exit && in_sight().empty() && st.move_left[h] == 0 && 0 < (*dist)[here] &&
                (*dist)[here] < INF && st.stamina[h] >= 4 && open_step_ahead(h, dist)) {
                return EXTRA_MOVE;
            }
        }
        return choice;
    }

    // ScriptedHeroes.hero_move
    int hero_move(int h, const std::vector<int>& legal) {
        const int action = movement_step(h, legal);
        if (action == END && !rests_now(h)) {
            const int waiting = waiting_comrade(h, legal);
            if (waiting >= 0) return HANDOFF_0 + waiting;
        }
        return action;
    }

    // ----------------------------------------------------------------------- movement (v2)
    // ScriptedHeroesV2.movement_step
    int movement_step(int h, const std::vector<int>& legal) {
        const int turn = s().turn, here = pos(h);
        auto found = memory.relieved.find(h);
        if (found != memory.relieved.end() && found->second == std::make_pair(turn, here) && has(legal, END)) return END;
        const int step_back = relieve(h, legal);
        if (step_back >= 0) {
            memory.relieved[h] = {turn, neighbor(here, step_back - MOVE_N)};
            return step_back;
        }
        return movement_step_v1(h, legal);
    }

    // ScriptedHeroesV2.step_towards
    int step_towards(int h, const std::vector<int>& legal, Dist dist) {
        const std::optional<int> end = end_square(h, *dist, 0);
        if (end) {
            if (*end == pos(h)) return END;
            dist = distances({*end});
        }
        return step_towards_v1(h, legal, *dist);
    }

    // ScriptedHeroesV2.end_square
    std::optional<int> end_square(int h, const std::vector<int64_t>& dist, int bought) {
        end_asked = true;
        if (fixed_end >= 0) return fixed_end;  // turn_search.DirectedHeroes.end_square: the plan's square
        std::vector<std::pair<int, std::pair<double, int>>> options;
        if (!end_square_options(h, dist, bought, options)) return std::nullopt;
        size_t best = 0;
        for (size_t i = 1; i < options.size(); ++i) {
            if (options[i].second > options[best].second) best = i;
        }
        std::optional<int> choice = options[best].first;
        if (dist[*choice] >= dist[pos(h)] && !in_sight().empty() && !may_wait(h)) choice.reset();
        if (listing != nullptr && bought == 0 && !listing->heroes.count(h)) {  // DirectedHeroes.weighed
            HeroListing::Entry& entry = listing->heroes[h];
            const int64_t here = dist[pos(h)];
            for (const auto& [q, key] : options) entry.options.push_back({q, key.first, key.second, here - dist[q]});
            entry.choice = choice ? *choice : -1;
        }
        return choice;
    }

    // ScriptedHeroesV2.end_square_options: false where Python gives None
    bool end_square_options(int h, const std::vector<int64_t>& dist, int bought,
                            std::vector<std::pair<int, std::pair<double, int>>>& options) {
        State& st = s();
        const int here = pos(h);
        if (st.stack.empty() || st.stack.back()[STACK_KIND] != Decision::HERO_MOVE || dist[here] >= INF ||
            !adjacent_foes(h).empty()) {
            return false;
        }
        const Party party = make_party(h);
        const double patrol = patrols_may_come() ? patrol_price(h, dist) : 0.0;
        const double room_bonus = !in_sight().empty() ? p.room_fight_weight : 0.0;
        std::map<int, int> joins;
        std::vector<std::pair<const std::vector<int64_t>*, int>> gaps;
        for (int k : party.comrades) gaps.emplace_back(party.fields.at(k).get(), squares_left(k));
        for (const auto& [q, steps] : reachable_squares(h, bought)) {
            if (dist[q] >= INF) continue;
            const int area = t().area[q];
            if (!joins.count(area)) {
                const std::vector<int> squares = area_squares_of(area);
                int n = 0;
                for (int k : party.stranded) n += !can_reach(k, *party.fields.at(k), squares);
                joins[area] = n;
            }
            const bool corridor = t().is_corridor[area];
            size_t segments = party.held.size();
            if (corridor && !party.held.count(area)) ++segments;
            double score = static_cast<double>(dist[here] - dist[q]) - patrol * static_cast<double>(static_cast<int64_t>(segments) + joins[area]);
            if (!corridor) score += room_bonus;
            int64_t gap = 0;
            bool first = true;
            for (const auto& [field, left] : gaps) {
                const int64_t v = (*field)[q] - left;
                if (first || v < gap) gap = v;
                first = false;
            }
            score -= apart_weight(gap);
            options.push_back({q, {score, -steps}});
        }
        if (options.empty()) options.push_back({here, {0.0, 0}});
        return true;
    }

    // ScriptedHeroesV2.party
    Party make_party(int h) {
        State& st = s();
        Party out;
        for (int k = 0; k < st.n_heroes; ++k) {
            if (k != h && st.unit_status[k] == ACTIVE) out.comrades.push_back(k);
        }
        for (int k : out.comrades) out.fields[k] = distances({pos(k)});
        std::vector<int> done;
        for (int k : out.comrades) {
            if (st.move_done[k] || !adjacent_foes(k).empty()) done.push_back(k);
        }
        for (int k : done) {
            const int area = t().area[at(t().area.size(), pos(k))];
            if (t().is_corridor[area]) out.held.insert(area);
        }
        const std::vector<int> rooms = room_squares();
        for (int k : out.comrades) {
            if (!contains(done, k) && !can_reach(k, *out.fields[k], rooms)) out.stranded.push_back(k);
        }
        return out;
    }

    double apart_weight(int64_t gap) {
        return p.apart_weight * static_cast<double>(std::max<int64_t>(0, gap - p.apart_radius));
    }

    // ScriptedHeroesV2.may_wait
    bool may_wait(int h) {
        if (!monsters_can_come(h)) return false;
        const int turn = s().turn;
        auto found = memory.waited.find(h);
        int last = -1, count = 0;
        if (found != memory.waited.end()) std::tie(last, count) = found->second;
        if (last != turn) {
            count = last == turn - 1 ? count + 1 : 1;
            memory.waited[h] = {turn, count};
        }
        return count <= p.wait_turns;
    }

    // ScriptedHeroesV2.monsters_can_come
    bool monsters_can_come(int h) {
        const std::vector<int> around_h = around(pos(h));
        const std::vector<int32_t> sources(around_h.begin(), around_h.end());
        const std::vector<int32_t> field = distance_field(t().board, reinterpret_cast<const bool*>(s().door_open.data()),
                                                          nullptr, sources, UNREACHABLE, -1);
        for (int m : in_sight()) {
            if (field[at(field.size(), pos(m))] < UNREACHABLE) return true;
        }
        return false;
    }

    bool can_reach(int k, const std::vector<int64_t>& field, const std::vector<int>& squares) {
        const int left = squares_left(k);
        for (int q : squares) {
            if (field[q] <= left) return true;
        }
        return false;
    }

    // ScriptedHeroesV2.room_squares
    std::vector<int> room_squares() {
        std::vector<int> out;
        for (int a = 0; a < t().n_areas(); ++a) {
            if (!t().is_corridor[a] && s().revealed.at(a)) {
                for (int q : t().area_squares[a]) out.push_back(q);
            }
        }
        return out;
    }

    int squares_left(int k) { return s().move_done[k] ? 0 : int{s().move_left[k]}; }

    // ScriptedHeroesV2.patrol_price
    double patrol_price(int h, const std::vector<int64_t>& dist) {
        State& st = s();
        const int per_turn = std::max(1, int{st.base_move[h]});
        const int64_t way = dist[pos(h)];
        const double need = p.light_margin * static_cast<double>(way) / per_turn;
        if (need <= st.light || need <= 0) return p.patrol_weight;
        return p.patrol_weight * st.light / need;
    }

    // ScriptedHeroesV2.patrols_may_come
    bool patrols_may_come() {
        for (int a = 0; a < t().n_areas(); ++a) {
            if (!s().revealed.at(a) && !t().is_corridor[a]) return true;
        }
        return false;
    }

    // ScriptedHeroesV2.open_step_ahead
    bool open_step_ahead(int h, const Dist& dist) {
        if (!open_step_ahead_v1(h, *dist)) return false;
        const std::optional<int> end = end_square(h, *dist, 1);
        return !end || *end != pos(h);
    }

    // ScriptedHeroesV2.reachable_squares: in the order found (Python's dict order)
    std::vector<std::pair<int, int>> reachable_squares(int h, int bought) {
        State& st = s();
        const int here = pos(h);
        const int left = st.move_left[h] + bought;
        const auto& cost = costs();
        const auto& steps = usable_steps();
        std::vector<std::pair<int, int>> seen{{here, 0}};
        std::vector<uint8_t> in(t().n_squares(), 0);
        in[here] = 1;
        std::vector<int> frontier{here};
        for (int d = 1; d <= left; ++d) {
            std::vector<int> nxt;
            for (int q : frontier) {
                for (int r : steps[q]) {
                    if (!in[r] && cost[r] == 1 && st.occupant[r] < 0 && !(t().furniture[r] || t().blockage[r])) {
                        in[r] = 1;
                        seen.emplace_back(r, d);
                        nxt.push_back(r);
                    }
                }
            }
            frontier = std::move(nxt);
        }
        return seen;
    }

    // ScriptedHeroesV2.relieve: the action, or -1
    int relieve(int h, const std::vector<int>& legal) {
        State& st = s();
        if (adjacent_foes(h).empty() || !(hurt(h) >= p.relieve_hurt || st.deaths_door[h])) return -1;
        bool fresher = false;
        for (int k = 0; k < st.n_heroes; ++k) {
            if (k != h && st.unit_status[k] == ACTIVE && !st.move_done[k] && !st.deaths_door[k] && hurt(k) < p.relieve_hurt) {
                fresher = true;
            }
        }
        if (!fresher) return -1;
        const int here = pos(h);
        for (int d = 0; d < 4; ++d) {
            const int nxt = neighbor(here, d);
            if (has(legal, MOVE_ACTIONS[d]) && nxt >= 0 && edge_door(here, d) < 0 && st.occupant[nxt] < 0 &&
                foes_next_to_square(nxt, st.unit_side[h]) == 0) {
                return MOVE_ACTIONS[d];
            }
        }
        return -1;
    }

    // ----------------------------------------------------------------------- items, spells, abilities
    int pick_item(int h, int action, int verb) {
        const std::vector<int> held = inventory::held(g, h);
        memory.intent[h] = {verb, held.at(action - ITEM_0), s().turn};
        return action;
    }

    std::vector<int> potion_actions(int h, const std::vector<int>& legal) {
        State& st = s();
        std::vector<int> out;
        const std::vector<int> held = inventory::held(g, h);
        for (int a : legal) {
            if (ITEM_0 <= a && a < ITEM_0 + MAX_ITEMS_HELD && a - ITEM_0 < static_cast<int>(held.size())) {
                const int item = held[a - ITEM_0];
                const ItemCard& card = g.content->item_cards.at(st.item_card[item]);
                const bool heals = card.effect && card.effect->kind == "heal";
                if (card.deck == "potions" && (heals || !st.item_known[item])) out.push_back(a);
            }
        }
        return out;
    }

    std::vector<int> heal_spell_actions(int h, const std::vector<int>& legal) {
        const std::vector<int> known = spells::known(g, h);
        std::vector<int> out;
        for (int a : legal) {
            if (SPELL_0 <= a && a < SPELL_0 + 8 && a - SPELL_0 < static_cast<int>(known.size())) {
                if (g.content->spells.at(known[a - SPELL_0]).effect.kind == "heal") out.push_back(a);
            }
        }
        return out;
    }

    // ScriptedHeroes.heal_now
    std::optional<int> heal_now(int h, const std::vector<int>& legal, const std::string& when) {
        if (hurt(h) >= p.hurt || s().deaths_door[h]) {
            const std::vector<int> potions = potion_actions(h, legal);
            if (!potions.empty()) return pick_item(h, potions[0], USE);
        }
        if (when == "movement" || when == "explore") {
            const std::vector<int> heroes = active_heroes();
            if (!heroes.empty()) {
                double most = hurt(heroes[0]);
                for (int k : heroes) most = std::max(most, hurt(k));
                if (most >= p.hurt) {
                    const std::vector<int> spells = heal_spell_actions(h, legal);
                    if (!spells.empty()) return spells[0];
                }
            }
        }
        return std::nullopt;
    }

    // ScriptedHeroes.ability_now
    std::optional<int> ability_now(int h, const std::vector<int>& legal, bool fighting) {
        State& st = s();
        for (int a : legal) {
            if (a != ABILITY_0 && a != ABILITY_0 + 1) continue;
            const Ability ability = abilities::card_abilities(g, h).at(a - ABILITY_0);
            const std::string& kind = ability.effect.kind;
            const std::vector<int> near = abilities::targets(g, h);
            bool good = false;
            if (kind == "heal") {
                if (near.empty()) throw std::logic_error("scripted heroes: a heal ability with no target");
                double most = hurt(near[0]);
                for (int k : near) most = std::max(most, hurt(k));
                good = most >= p.hurt;
            } else if (kind == "magic") {
                good = st.magic[h] + ability.effect.amount <= st.base_magic[h];
            } else if (kind == "light") {
                good = st.light <= p.light_ability;
            } else if (kind == "detect_traps") {
                good = !st.moved[h] && !wants_rest(h);
            } else if (kind == "fight_bonus" || kind == "damage_bonus") {
                const std::vector<int> who = ability.target == "ally" ? near : std::vector<int>{h};
                for (int k : who) good = good || (fighting && !adjacent_foes(k).empty());
                good = fighting && good;
            }
            if (good) return a;
        }
        return std::nullopt;
    }

    // ----------------------------------------------------------------------- evasion, fights, the rest
    bool in_danger(int h, const std::vector<int>& foes) {
        const bool about_to_die = !foes.empty() && (s().health[h] <= 2 || s().deaths_door[h]);
        const bool outnumbered = foes.size() >= 3 || (foes.size() == 2 && hurt(h) >= p.hurt);
        return about_to_die || outnumbered;
    }

    // ScriptedHeroes.hero_evade
    int hero_evade(int h, const std::vector<int>& legal) {
        const std::optional<int> use = heal_now(h, legal, "evasion");
        if (use) return *use;
        const auto [goal, is_exit] = goal_targets();
        if (is_exit) {
            const int step = step_towards(h, legal, distances(goal));
            if (step != END) return step;
        }
        const std::vector<int> foes = adjacent_foes(h);
        if (!in_danger(h, foes)) {
            const std::optional<int> bonus = ability_now(h, legal, true);
            return bonus ? *bonus : END;
        }
        const int here = pos(h);
        const Dist dist = distances(goal);
        const int now = static_cast<int>(foes.size());
        std::optional<std::tuple<int, int64_t, int>> best;
        for (int d = 0; d < 4; ++d) {
            if (!has(legal, MOVE_ACTIONS[d])) continue;
            const int nxt = neighbor(here, d);
            const std::tuple<int, int64_t, int> option{foes_next_to_square(nxt, SIDE_HERO), (*dist)[at(dist->size(), nxt)],
                                                       MOVE_ACTIONS[d]};
            if (!best || option < *best) best = option;
        }
        if (!best) return END;
        return std::get<0>(*best) < now ? std::get<2>(*best) : END;
    }

    // ScriptedHeroes.fight_stamina
    int fight_stamina(int h, const std::vector<int>& legal) {
        State& st = s();
        const Row& row = st.fights.at(st.fight_index);
        const int m = row[FIGHT_MONSTER], m_spend = row[FIGHT_M_SPEND];
        int counts_h = 0, counts_m = 0;
        for (const Row& r : st.fights) {
            counts_h += r[FIGHT_HERO] == h;
            counts_m += r[FIGHT_MONSTER] == m;
        }
        const int h_score = st.base_fight[h] + mods_total(combat::hero_modifiers(g, h, counts_h, 0));
        const int m_score = st.base_fight[m] + mods_total(combat::monster_modifiers(g, m, counts_m, m_spend));
        const int diff = h_score - m_score;
        const int dmg_taken = st.base_damage[m];
        const bool dying = st.health[h] <= dmg_taken || st.deaths_door[h];
        const bool kill = st.health[m] <= st.base_damage[h];
        const double stake = 1.0 + (dying ? p.dying_stake : 0.0) + (kill ? p.kill_stake : 0.0);
        const int left = st.stamina[h];
        const int reserve = dying ? 0 : (adjacent_foes(h).size() >= 2 ? 2 : 1);
        double best = -1e9;
        int choice = legal[0];
        for (int a : legal) {
            const int spend = a - SPEND_0;
            if (spend && left - spend < reserve) continue;
            const double value =
                stake * (p_win(diff + spend) - (1 - p_win(-(diff + spend) + 1)) * 0.5) - p.spend_cost * spend;
            if (value > best + 1e-9) {
                best = value;
                choice = a;
            }
        }
        return choice;
    }

    // ScriptedHeroes.cast_while_fighting
    int cast_while_fighting(int h, const std::vector<int>& legal) {
        State& st = s();
        const int sp = h < MAX_HEROES ? int{st.casting_spell[h]} : -1;
        const bool strong = sp >= 0 && g.content->spells.at(sp).level >= 2;
        return strong && st.health[h] >= 5 && has(legal, KEEP_CASTING) ? KEEP_CASTING : LET_FAIL;
    }

    // ScriptedHeroes.item_verb
    int item_verb(int h, const std::vector<int>& legal) {
        std::tuple<int, int, int> intent{USE, -1, -1};
        auto found = memory.intent.find(h);
        if (found != memory.intent.end()) {
            intent = found->second;
            memory.intent.erase(found);
        }
        const auto [verb, item, turn] = intent;
        const int want = item == g.decision_args().first && turn == s().turn ? verb : USE;
        if (has(legal, want)) return want;
        return has(legal, USE) && want != GIVE ? USE : BACK;
    }

    // ScriptedHeroes.mental_bid
    int mental_bid(int h, const std::vector<int>& legal) {
        const int want = s().health[h] <= 3 ? 3 : 1;
        int best = -1;
        for (int a : legal) {
            if (a - SPEND_0 <= want) best = std::max(best, a);
        }
        if (best < 0) throw std::logic_error("scripted heroes: no bid within the want");
        return best;
    }

    // ScriptedHeroes.hero_act
    int hero_act(int h, const std::vector<int>& legal) {
        if (s().phase == Phase::TRADE) return trade_act(h, legal);
        const std::optional<int> use = heal_now(h, legal, "explore");
        if (use) return *use;
        const std::vector<int> held = inventory::held(g, h);
        for (int a : legal) {
            if (ITEM_0 <= a && a < ITEM_0 + MAX_ITEMS_HELD && a - ITEM_0 < static_cast<int>(held.size())) {
                const std::vector<int> verbs = items::item_verbs(g, h, held[a - ITEM_0], IN_EXPLORE);
                for (int verb : {IDENTIFY, MEMORIZE}) {
                    if (contains(verbs, verb)) return pick_item(h, a, verb);
                }
            }
        }
        return END;
    }

    double most_hurt_of(const std::vector<int>& units) {
        double most = hurt(units.at(0));
        for (int k : units) most = std::max(most, hurt(k));
        return most;
    }

    // ScriptedHeroes.trade_act
    int trade_act(int h, const std::vector<int>& legal) {
        State& st = s();
        if (has(legal, LOOT) && !trade::corpse_items(g, h).empty()) return LOOT;
        const std::vector<int> takers = trade::receivers(g, h);
        if (!takers.empty() && most_hurt_of(takers) >= p.hurt && hurt(h) < p.hurt) {
            const std::vector<int> potions = potion_actions(h, legal);
            std::vector<int> all_items;
            for (int k = 0; k < 12; ++k) all_items.push_back(ITEM_0 + k);
            std::vector<int> needy;
            for (int r : takers) {
                if (potion_actions(r, all_items).empty()) needy.push_back(r);
            }
            if (!potions.empty() && !needy.empty() && most_hurt_of(needy) >= p.hurt) {
                const std::vector<int> held = inventory::held(g, h);
                for (int a : potions) {
                    if (st.item_known[held[a - ITEM_0]]) return pick_item(h, a, GIVE);
                }
            }
        }
        return END;
    }

    // ScriptedHeroes.spell_select
    int spell_select(int h, const std::vector<int>& legal) {
        State& st = s();
        const std::vector<int> known = spells::known(g, h);
        const std::vector<int> held = inventory::held(g, h);
        const bool monsters = !in_sight().empty();
        double most_hurt = 0.0;
        const std::vector<int> heroes = active_heroes();
        if (!heroes.empty()) most_hurt = most_hurt_of(heroes);
        double best = 0.0;
        int choice = END;
        for (int a : legal) {
            const Spell* sp = nullptr;
            if (SPELL_0 <= a && a < SPELL_0 + 8 && a - SPELL_0 < static_cast<int>(known.size())) {
                sp = &g.content->spells.at(known[a - SPELL_0]);
            } else if (ITEM_0 <= a && a < ITEM_0 + MAX_ITEMS_HELD && a - ITEM_0 < static_cast<int>(held.size())) {
                const int item = held[a - ITEM_0];
                if (!st.item_known[item]) continue;
                const auto& spell = g.content->item_cards.at(st.item_card[item]).spell;
                if (!spell) continue;
                sp = &g.content->spells.at(g.content->spell_index.at(*spell));
            } else {
                continue;
            }
            const std::string& kind = sp->effect.kind;
            const int amount = sp->effect.amount;
            double value = 0.0;
            if (sp->target == "enemy" && monsters) {
                value = kind == "damage" ? 2.0 + amount : kind == "sleep" ? 2.5 : kind == "fight_bonus" ? 1.5 : 0.5;
            } else if (kind == "heal" && most_hurt >= p.hurt) {
                value = 3.0 + most_hurt;
            } else if (sp->target == "ally" && monsters &&
                       (kind == "fight_bonus" || kind == "armour" || kind == "damage_bonus")) {
                value = 1.5;
            }
            if (value > best) {
                best = value;
                choice = a;
            }
        }
        return choice;
    }

    // ScriptedHeroes.most_hurt: the index of the most hurt candidate (the first of them); -1 for none
    int most_hurt_index(const std::vector<int>& candidates) {
        int best = -1;
        for (int k = 0; k < static_cast<int>(candidates.size()); ++k) {
            if (best < 0 || hurt(candidates[k]) > hurt(candidates[best])) best = k;
        }
        return best;
    }

    // ScriptedHeroes.choose_target, with the real game's candidates (`given`, what the view holds as
    // target_candidates): NOT_PORTED where Python would fail (no candidate to take the most hurt of)
    int choose_target(int h, const std::vector<int>& legal, const std::vector<std::pair<int, int>>& given) {
        State& st = s();
        const Row& top = st.stack.back();
        const int a = top[STACK_A], b = top[STACK_B];
        std::vector<int> cands;
        for (const auto& [u, item] : given) cands.push_back(u);
        auto target = [](int k) { return k < 0 ? NOT_PORTED : TARGET_0 + k; };
        if (a == TARGET_SPELL) {
            if (cands.empty()) return legal[0];
            const Spell& spell = g.content->spells.at(b);
            int k;
            if (spell.target == "enemy") {
                k = 0;
                for (int i = 1; i < static_cast<int>(cands.size()); ++i) {
                    if (std::make_pair(int{st.health[cands[i]]}, i) < std::make_pair(int{st.health[cands[k]]}, k)) k = i;
                }
            } else {
                k = most_hurt_index(cands);
                if (spell.effect.kind != "heal" && spell.effect.kind != "stamina" && !in_sight().empty()) {
                    for (int i = 0; i < static_cast<int>(cands.size()); ++i) {
                        if (!adjacent_foes(cands[i]).empty()) {
                            k = i;
                            break;
                        }
                    }
                }
            }
            return target(k);
        }
        if (a == TARGET_ITEM || a == TARGET_GIVE) return target(most_hurt_index(cands));
        if (a == TARGET_LOOT) return !given.empty() ? TARGET_0 : legal[0];
        if (a == TARGET_ABILITY) {
            const std::string& kind = abilities::card_abilities(g, h).at(b).effect.kind;
            if (kind == "heal" || kind == "stamina" || kind == "magic") return target(most_hurt_index(cands));
            for (int i = 0; i < static_cast<int>(cands.size()); ++i) {
                if (!adjacent_foes(cands[i]).empty()) return TARGET_0 + i;
            }
            return TARGET_0;
        }
        return legal[0];
    }

    // ScriptedHeroes.explore_choice
    int explore_choice(int h, const std::vector<int>& legal) {
        if ((s().deaths_door[h] || s().exhausted[h]) && has(legal, STAY)) return STAY;
        return has(legal, EXPLORE) ? EXPLORE : legal[0];
    }

    // ScriptedHeroes._dispatch: NOT_PORTED for the kinds left to Python
    int handle(int kind, int h, const std::vector<int>& legal) {
        switch (kind) {
            case Decision::HERO_MOVE:
                return hero_move(h, legal);
            case Decision::HERO_EVADE:
                return hero_evade(h, legal);
            case Decision::FIGHT_STAMINA:
                return fight_stamina(h, legal);
            case Decision::CAST_WHILE_FIGHTING:
                return cast_while_fighting(h, legal);
            case Decision::MENTAL_BID:
                return mental_bid(h, legal);
            case Decision::EXPLORE_CHOICE:
                return explore_choice(h, legal);
            case Decision::EVENT_CHOICE:
                return has(legal, CHOICE_0) ? CHOICE_0 : legal[0];
            case Decision::CLAIM_ITEM:
                return has(legal, TAKE) ? TAKE : legal[0];
            case Decision::ITEM_VERB:
                return item_verb(h, legal);
            case Decision::HERO_ACT:
                return hero_act(h, legal);
            case Decision::SPELL_SELECT:
                return spell_select(h, legal);
            case Decision::SPELL_VERB:
                return has(legal, USE) ? USE : BACK;
            case Decision::DISARM:
                for (int a : legal) {
                    if (DISARM_N <= a && a < DISARM_N + 4) return a;
                }
                return END;
            case Decision::CAST_MODE:
                return has(legal, NORMAL_CAST) ? NORMAL_CAST : legal[0];
            default:
                return NOT_PORTED;
        }
    }
};

}  // namespace

HeroCache::PerContent* per_content(HeroCache& cache, const std::shared_ptr<const Content>& content) {
    auto found = cache.contents.find(content.get());
    if (found == cache.contents.end()) {
        if (cache.contents.size() >= 16) cache.contents.clear();  // (a world's content holds its sight)
        found = cache.contents.emplace(content.get(), HeroCache::PerContent{content, {}, {}}).first;
    }
    return &found->second;
}

int choose_heroes_v2(Game& real, const HeroTablesMaps& maps, const HeroLens& lens, const HeroParams& p,
                     HeroMemory& memory, HeroCache& cache) {
    const State& s = real.state;
    if (real.over() || s.stack.empty()) throw std::invalid_argument("scripted heroes: no decision is asked");
    const int kind = s.stack.back()[STACK_KIND], h = s.stack.back()[STACK_UNIT];
    if (h >= s.n_heroes) throw std::invalid_argument("scripted heroes: the decision asked is the DM's");
    const std::vector<int> legal = real.legal_actions();
    if (legal.empty()) throw std::invalid_argument("scripted heroes: no legal action");
    if (legal.size() == 1) return legal[0];
    int action;
    if (without_view(kind)) {
        Heroes heroes{real, p, memory, nullptr};
        action = heroes.handle(kind, h, legal);
    } else {
        const HeroSight sight{HeroLens::monsters_in_sight(real), lens.numbers(), lens.slain()};
        Game view = heroes_view(real, maps, sight);
        Heroes heroes{view, p, memory, per_content(cache, maps.content)};
        if (kind == Decision::CHOOSE_TARGET) {
            const Row& top = s.stack.back();
            action = heroes.choose_target(h, legal, decisions::target_candidates(real, h, top[STACK_A], top[STACK_B]));
        } else {
            action = heroes.handle(kind, h, legal);
        }
    }
    if (action != NOT_PORTED && !has(legal, action)) return NOT_PORTED;  // the Python rule names the gap
    return action;
}

std::pair<int, bool> choose_heroes_v2_world(Game& world, const std::vector<int>& legal, const HeroParams& p,
                                            HeroMemory& memory, HeroCache& cache, int fixed_end,
                                            HeroListing* listing) {
    const State& s = world.state;
    if (world.over() || s.stack.empty()) throw std::invalid_argument("scripted heroes: no decision is asked");
    const int kind = s.stack.back()[STACK_KIND], h = s.stack.back()[STACK_UNIT];
    if (h >= s.n_heroes) throw std::invalid_argument("scripted heroes: the decision asked is the DM's");
    if (legal.empty()) throw std::invalid_argument("scripted heroes: no legal action");
    if (legal.size() == 1) return {legal[0], false};
    Heroes heroes{world, p, memory, per_content(cache, world.content)};
    heroes.fixed_end = fixed_end;
    heroes.listing = listing;
    int action;
    if (kind == Decision::CHOOSE_TARGET) {
        const Row& top = s.stack.back();
        action = heroes.choose_target(h, legal, decisions::target_candidates(world, h, top[STACK_A], top[STACK_B]));
    } else {
        action = heroes.handle(kind, h, legal);
    }
    if (action != NOT_PORTED && !has(legal, action)) action = NOT_PORTED;
    return {action, heroes.end_asked};
}

}  // namespace dungeon_agents
