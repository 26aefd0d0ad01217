// agents/scripted_dm_v2.py's ScriptedDMV2 in compiled code (see scripted_dm_v2.hpp). Each function
// names the Python method it follows; the comments say where the Python reads are mimicked exactly.
#include "scripted_dm_v2.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "common.hpp"
#include "pursuit.hpp"
#include "rules/board.hpp"
#include "rules/combat.hpp"
#include "rules/units.hpp"

namespace dungeon_agents {

using namespace dungeon_core;
using Field = std::vector<int32_t>;
using Steps = std::vector<std::pair<int, int>>;  // (action, square one step away), in action order

namespace {

constexpr int FAR = 1000000;     // a field's search limit: no limit (scripted_dm_v2.FAR)
constexpr int32_t BLOCKED = -1;  // in a field: a square the search does not walk through

bool has(const std::vector<int>& legal, int action) {
    return std::find(legal.begin(), legal.end(), action) != legal.end();
}

// A square as Python indexes a list with it (a -1 reads the last entry); legal steps are on the board.
size_t at(const Field& field, int q) { return q < 0 ? field.size() + q : static_cast<size_t>(q); }

const bool* doors(Game& g) { return reinterpret_cast<const bool*>(g.state.door_open.data()); }

// tables.path_distances: from the nearest source through open passages, occupants ignored.
Field path_distances(Game& g, const std::vector<int32_t>& sources) {
    return distance_field(g.tables().board, doors(g), nullptr, sources, UNREACHABLE, -1);
}

// _common.around: the squares from which a figure on `sq` can be fought.
std::vector<int> around(Game& g, int sq) { return board::open_neighbours(g, sq); }

bool active(const State& s, int u) { return s.unit_status[u] == ACTIVE; }

// _common.adjacent_foes (their number): active figures of another side next to `u`.
int adjacent_foes(Game& g, int u) {
    const State& s = g.state;
    const int side = s.unit_side[u];
    int n = 0;
    for (int q : around(g, s.unit_pos[u])) {
        const int v = s.occupant[q];
        if (v >= 0 && active(s, v) && s.unit_side[v] != side && s.unit_side[v] != -1) ++n;
    }
    return n;
}

// ScriptedDMV2.heroes_next_to
int heroes_next_to(Game& g, int q) {
    const State& s = g.state;
    int n = 0;
    for (int r : around(g, q)) {
        const int v = s.occupant[r];
        if (v >= 0 && v < s.n_heroes && active(s, v)) ++n;
    }
    return n;
}

// The goal squares of v1's closest_legal and v2's fallback: every square around every active hero.
std::vector<int32_t> around_heroes(Game& g) {
    std::vector<int32_t> goal;
    for (int h : units::active_heroes(g)) {
        for (int q : around(g, g.state.unit_pos[h])) goal.push_back(q);
    }
    return goal;
}

Steps legal_steps(Game& g, int here, const std::vector<int>& legal) {
    Steps steps;
    for (int d = 0; d < 4; ++d) {
        if (has(legal, MOVE_N + d)) steps.emplace_back(MOVE_N + d, g.tables().neighbor[here * 4 + d]);
    }
    return steps;
}

// A walk's blank (pursuit.Walk.blank): UNREACHABLE on open ground (no furniture, blockage, armed or
// detected trap) that no figure but the mover stands on, else BLOCKED.
Field walk_blank(Game& g, int here) {
    const State& s = g.state;
    const Board& board = g.tables().board;
    Field blank = board.ground_blank;
    for (size_t i = 0; i < board.trap_square.size(); ++i) {
        if (s.trap_armed[i] || s.trap_detected[i]) blank[board.trap_square[i]] = BLOCKED;
    }
    for (int q = 0; q < board.n_squares; ++q) {
        if (s.occupant[q] >= 0 && q != here) blank[q] = BLOCKED;
    }
    return blank;
}

Field walk_field(Game& g, const Field& blank, const std::vector<int32_t>& sources) {
    return distance_field(g.tables().board, doors(g), blank.data(), sources, FAR, -1);
}

struct DM {
    Game& g;
    const DMParams& p;
    DMMemory& memory;

    // ScriptedDM.closest_legal
    int closest_legal(int m, const std::vector<int>& legal) {
        const std::vector<int32_t> goal = around_heroes(g);
        const Field dist = goal.empty() ? Field() : path_distances(g, goal);
        int best = -1, key = 0;
        for (auto [a, q] : legal_steps(g, g.state.unit_pos[m], legal)) {
            const int k = goal.empty() ? 0 : dist[at(dist, q)];
            if (best < 0 || k < key) best = a, key = k;
        }
        if (best >= 0) return best;
        for (int action : {EXTRA_MOVE, DEFER, END}) {
            if (has(legal, action)) return action;
        }
        throw std::runtime_error("no movement choice for " + g.label(m) + " among the legal actions");
    }

    // ScriptedDMV2.spendable
    int spendable(int m) const {
        const State& s = g.state;
        if (s.exhausted[m]) return 0;
        return std::max(0, std::min(g.rules().move_stamina_max - int{s.move_bought[m]}, int{s.stamina[m]}));
    }

    // ScriptedDMV2.buys_fight
    bool buys_fight(int m, int d) const {
        const State& s = g.state;
        const int buy = d - s.move_left[m];
        return buy <= spendable(m) && s.stamina[m] - buy >= p.keep_stamina;
    }

    // ScriptedDMV2.fight_now
    bool fight_now(int m, int d) const { return d <= g.state.move_left[m] || buys_fight(m, d); }

    // ScriptedDMV2.fight_sources
    std::vector<int32_t> fight_sources(const Field& blank, int h, bool alone) {
        std::vector<int32_t> out;
        for (int q : around(g, g.state.unit_pos[h])) {
            if (blank[q] > 0 && (!alone || heroes_next_to(g, q) == 1)) out.push_back(q);
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    // ScriptedDMV2.movement_memory
    Movement& movement_memory(int m) {
        const State& s = g.state;
        if (s.turn != memory.turn) {
            memory.movements.clear();
            memory.turn = s.turn;
        }
        const int here = s.unit_pos[m], start = s.move_from[m];
        const auto key = std::make_tuple(s.turn, m, start);
        auto found = memory.movements.find(key);
        if (found != memory.movements.end()) {
            Movement& memo = found->second;
            const int last = memo.trail.back();
            if (last == here) return memo;
            for (int d = 0; d < 4; ++d) {
                if (g.tables().neighbor[last * 4 + d] == here) {
                    memo.trail.push_back(here);
                    return memo;
                }
            }
        }
        Movement& memo = memory.movements[key];
        memo.trail = start == here ? std::vector<int>{start} : std::vector<int>{start, here};
        memo.victim = -1;
        return memo;
    }

    // ScriptedDMV2.between_party_and_exit
    bool between_party_and_exit(int m, const std::vector<int>& heroes) {
        const State& s = g.state;
        std::vector<int32_t> exits;
        for (const Square& x : g.adventure().exits) exits.push_back(Game::square(x));
        if (exits.empty()) return false;
        std::sort(exits.begin(), exits.end());
        const Field dist = path_distances(g, exits);
        const int mine = dist[s.unit_pos[m]];
        if (mine >= UNREACHABLE) return false;
        for (int h : heroes) {
            if (!(mine < dist[s.unit_pos[h]])) return false;
        }
        return true;
    }

    // ScriptedDMV2.goal_carriers
    std::set<int> goal_carriers() {
        const State& s = g.state;
        std::set<int> cards;
        for (const Objective& o : g.adventure().objectives) {
            if (!o.primary || o.kind != "retrieve" || !o.item) continue;
            const auto found = g.content->item_index.find(*o.item);
            if (found != g.content->item_index.end()) cards.insert(found->second);
        }
        std::set<int> out;
        if (cards.empty()) return out;
        for (int i = 0; i < MAX_ITEMS; ++i) {
            if (cards.count(s.item_card[i])) out.insert(s.item_holder[i]);
        }
        return out;
    }

    // ScriptedDMV2.victim_options: (index in `heroes`, out of reach this turn, score) of every hero
    // the monster has a walk to, in the heroes' order.
    std::vector<std::tuple<int, bool, double>> victim_options(int m, const std::vector<int>& heroes,
                                                              const std::vector<Field>& fields, int committed) {
        const State& s = g.state;
        const int here = s.unit_pos[m];
        const int left = s.move_left[m];
        std::vector<int> monsters_next(heroes.size(), 0);  // ScriptedDMV2.monsters_next_to
        for (size_t k = 0; k < heroes.size(); ++k) {
            for (int q : around(g, s.unit_pos[heroes[k]])) {
                const int v = s.occupant[q];
                if (v >= s.n_heroes && active(s, v)) ++monsters_next[k];
            }
        }
        const std::set<int> carriers = goal_carriers();
        const int budget = left + spendable(m);
        std::vector<std::tuple<int, bool, double>> options;
        for (size_t k = 0; k < heroes.size(); ++k) {
            const int h = heroes[k];
            const int d = fields[k][here];
            if (!(0 <= d && d < UNREACHABLE)) continue;
            const int buy = std::max(0, d - left);
            const bool now = buy == 0 || buys_fight(m, d);
            const auto [hx, hy] = Game::xy(s.unit_pos[h]);
            int company = 0;
            for (int j : heroes) {
                const auto [jx, jy] = Game::xy(s.unit_pos[j]);
                if (j != h && std::abs(jx - hx) + std::abs(jy - hy) <= p.company_radius) ++company;
            }
            const int health = s.health[h];
            const int base = std::max(1, int{s.base_health[h]});
            // the Python expression's terms, added left to right in doubles
            double score = d;
            score += now ? p.buy_weight * buy : p.later_penalty;
            score += p.health_weight * health;
            score += p.company_weight * company;
            score -= p.wounded_weight * (base - health) / base;
            score -= s.deaths_door[h] ? p.deaths_door_bonus : 0.0;
            score -= s.base_magic[h] > 0 ? p.caster_bonus : 0.0;
            score -= carriers.count(h) ? p.carrier_bonus : 0.0;
            score -= p.gang_bonus * monsters_next[k];
            score -= h == committed ? p.commit_bonus : 0.0;
            options.emplace_back(static_cast<int>(k), d > budget, score);
        }
        return options;
    }

    // DirectedDM.planned: the hero monster `m`'s plan holds for (FREE: v2's choice), or -2 (None:
    // no plan, or one of another turn or monster, forgotten here)
    int planned(int m) {
        const auto found = memory.plans.find(m);
        if (found == memory.plans.end()) return -2;
        const Plan& plan = found->second;
        if (plan.turn == g.state.turn && plan.uid == g.state.unit_uid[m]) return plan.hero;
        memory.plans.erase(found);
        return -2;
    }

    // ScriptedDMV2.victim_v2 as DirectedDM plays it (a plain ScriptedDMV2 has no plan and never
    // listens): the index in `heroes` of the planned hero while a walk reaches it, else of the hero
    // of least (out of reach this turn, score), the first of the best; -1 if no walk reaches one.
    int victim_v2(int m, const std::vector<int>& heroes, const std::vector<Field>& fields, int committed) {
        const int here = g.state.unit_pos[m];
        const int hero = planned(m);
        if (hero >= 0) {
            const auto k = std::find(heroes.begin(), heroes.end(), hero) - heroes.begin();
            if (k < static_cast<long>(heroes.size()) && 0 <= fields[k][here] && fields[k][here] < 1000000) {
                return static_cast<int>(k);
            }
        }
        const auto options = victim_options(m, heroes, fields, committed);
        int pick = -1;
        bool pick_far = false;
        double pick_score = 0;
        for (const auto& [k, far, score] : options) {
            if (pick < 0 || far < pick_far || (far == pick_far && score < pick_score)) {
                pick = k, pick_far = far, pick_score = score;
            }
        }
        if (memory.listening && !memory.listing.count(m) && committed < 0 && !options.empty()) {
            Weighed& entry = memory.listing[m];
            for (const auto& [k, far, score] : options) entry.options.emplace_back(heroes[k], far, score);
            entry.choice = pick < 0 ? -1 : heroes[pick];
        }
        return pick;
    }

    // ScriptedDMV2.in_fight
    int in_fight(int m, const std::vector<int>& legal, int foes) {
        if (foes > 1 && p.single_fight) {
            int best = -1, key = 0;
            for (auto [a, q] : legal_steps(g, g.state.unit_pos[m], legal)) {
                const int n = heroes_next_to(g, q);
                if (1 <= n && n < foes && (best < 0 || n < key)) best = a, key = n;
            }
            if (best >= 0) return best;
        }
        return has(legal, END) ? END : closest_legal(m, legal);
    }

    // ScriptedDMV2.fallback
    int fallback(int m, const std::vector<int>& legal, const Steps& steps, const std::vector<int>& trail,
                 const std::vector<Field>& fields) {
        const State& s = g.state;
        const int here = s.unit_pos[m];
        auto visited = [&](int q) { return std::find(trail.begin(), trail.end(), q) != trail.end(); };
        auto nearest = [&](int q) {
            int best = UNREACHABLE;
            for (const Field& f : fields) {
                const int v = f[at(f, q)];
                if (0 <= v && v < UNREACHABLE) best = std::min(best, v);
            }
            return best;
        };
        const int d = nearest(here);
        int best = -1, key = 0;
        for (auto [a, q] : steps) {
            const int n = nearest(q);
            if (n < d && (n == 0 || !visited(q)) && (best < 0 || n < key)) best = a, key = n;
        }
        if (best >= 0) return best;
        const std::vector<int32_t> goal = around_heroes(g);
        const Field dist = goal.empty() ? Field() : path_distances(g, goal);
        if (!goal.empty()) {
            std::set<int> traps;  // ScriptedDM.trap_squares: the armed traps' squares
            const auto& adventure_traps = g.adventure().traps;
            for (size_t i = 0; i < adventure_traps.size(); ++i) {
                if (s.trap_armed[i]) traps.insert(Game::square(adventure_traps[i].at));
            }
            for (auto [a, q] : steps) {
                const int k = dist[at(dist, q)];
                if (!visited(q) && !traps.count(q) && k < dist[here] && (best < 0 || k < key)) best = a, key = k;
            }
            if (best >= 0) return best;
        }
        if (has(legal, END)) return END;
        for (auto [a, q] : steps) {
            const int k = goal.empty() ? 0 : dist[at(dist, q)];
            if (!visited(q) && (best < 0 || k < key)) best = a, key = k;
        }
        if (best >= 0) return best;
        return closest_legal(m, legal);
    }

    // ScriptedDMV2.monster_move_v2
    int monster_move(int m, const std::vector<int>& legal) {
        const State& s = g.state;
        const int foes = adjacent_foes(g, m);
        if (foes) return in_fight(m, legal, foes);
        const std::vector<int> heroes = units::active_heroes(g);
        if (heroes.empty()) return has(legal, END) ? END : closest_legal(m, legal);
        Movement& memo = movement_memory(m);
        const int here = s.unit_pos[m];
        const Field blank = walk_blank(g, here);
        std::vector<Field> fields;
        for (int h : heroes) fields.push_back(walk_field(g, blank, fight_sources(blank, h, false)));
        const int k = victim_v2(m, heroes, fields, memo.victim);
        if (k >= 0 && p.single_fight) {
            // a square next to the victim alone, when the monster can still reach one this turn
            const std::vector<int32_t> alone = fight_sources(blank, heroes[k], true);
            if (!alone.empty() && alone != fight_sources(blank, heroes[k], false)) {
                Field field = walk_field(g, blank, alone);
                const int d = field[here];
                if (0 <= d && d < UNREACHABLE && (d <= s.move_left[m] || buys_fight(m, d))) fields[k] = std::move(field);
            }
        }
        const Steps steps = legal_steps(g, here, legal);
        const std::vector<int> trail = memo.trail;
        auto visited = [&](int q) { return std::find(trail.begin(), trail.end(), q) != trail.end(); };
        if (k >= 0) {
            memo.victim = heroes[k];
            const Field& field = fields[k];
            const int d = field[here];
            // a fight square ends the walk (0); any other square of the trail is not stood on again
            int best = -1, key = 0;
            for (auto [a, q] : steps) {
                const int f = field[at(field, q)];
                if (0 <= f && f < d && (f == 0 || !visited(q)) && (best < 0 || f < key)) best = a, key = f;
            }
            if (best >= 0 && has(legal, END) && p.hold_exit && !fight_now(m, d) &&
                between_party_and_exit(m, heroes)) {
                return END;  // stand in the way out rather than walk into the party's file
            }
            if (best >= 0) return best;
            if (d > 0 && s.move_left[m] == 0 && has(legal, EXTRA_MOVE) && buys_fight(m, d)) return EXTRA_MOVE;
            if (has(legal, END)) return END;
        } else if (has(legal, DEFER)) {
            return DEFER;  // no way to any hero now: let the others move first
        }
        return fallback(m, legal, steps, trail, fields);
    }

    // ScriptedDM.fight_stamina
    int fight_stamina(int m, const std::vector<int>& legal) {
        State& s = g.state;
        const Row& row = s.fights.at(s.fight_index);
        const int h = row[FIGHT_HERO];
        int counts_m = 0, counts_h = 0;
        for (const Row& r : s.fights) {
            counts_m += r[FIGHT_MONSTER] == m;
            counts_h += r[FIGHT_HERO] == h;
        }
        const int m_score = s.base_fight[m] + mods_total(combat::monster_modifiers(g, m, counts_m, 0));
        const int h_score = s.base_fight[h] + mods_total(combat::hero_modifiers(g, h, counts_h, 0));
        const int h_spend = !s.exhausted[h] ? std::min(3, int{s.stamina[h]}) : 0;
        const int diff = m_score - h_score - static_cast<int>(h_spend * p.hero_spend_share);  // the hero answers
        const bool kill = s.health[h] <= s.base_damage[m] || s.deaths_door[h];
        const bool dying = s.health[m] <= s.base_damage[h];
        const int most = *std::max_element(legal.begin(), legal.end()) - SPEND_0;
        if (kill || dying) return SPEND_0 + most;
        const double gain = p_win(diff + 1) - p_win(diff);
        return SPEND_0 + (most >= 1 && gain > p.spend_gain && s.stamina[m] >= p.spend_stamina ? 1 : 0);
    }
};

}  // namespace

// ScriptedDMV2.choose, then ScriptedDM.choose for what v2 leaves to v1
int choose_v2(Game& g, const DMParams& p, DMMemory& memory) {
    const State& s = g.state;
    if (g.over() || s.stack.empty()) throw std::invalid_argument("scripted DM: no decision is asked");
    const int kind = s.stack.back()[STACK_KIND], u = s.stack.back()[STACK_UNIT];
    if (u < s.n_heroes) throw std::invalid_argument("scripted DM: the decision asked is a hero's");
    const std::vector<int> legal = g.legal_actions();
    if (legal.empty()) throw std::invalid_argument("scripted DM: no legal action");
    DM dm{g, p, memory};
    if (kind == Decision::MONSTER_MOVE) return legal.size() == 1 ? legal[0] : dm.monster_move(u, legal);
    const int top = *std::max_element(legal.begin(), legal.end());
    if (kind == Decision::FIGHT_STAMINA && p.fight_spend) {
        return std::max(dm.fight_stamina(u, legal), std::min(top, SPEND_0 + p.fight_spend));
    }
    if (legal.size() == 1) return legal[0];
    if (kind == Decision::FIGHT_STAMINA) return dm.fight_stamina(u, legal);
    if (kind == Decision::MENTAL_BID) return top;
    return NOT_PORTED;  // ScriptedDM's seeded random choice: the Python class draws it
}

}  // namespace dungeon_agents
