// Adventure goals (dungeon_env/engine/objectives.py): which objectives are met, and how the adventure
// ends (END, A-55). Kinds: escape (a hero left by an exit), slay (the guard on `at` is slain), reach (a
// hero stood in `area`), retrieve (an item of card `item` was carried out of the dungeon, by a hero or
// on a corpse dragged out), claim (a hero has held an item of card `item`: taken, found or looted),
// rescue (a hero explored `area` in an Explore phase and the party then escapes: a hero has left by an
// exit).
#include "objectives.hpp"

#include <algorithm>
#include <stdexcept>

namespace dungeon_core::objectives {

namespace {

bool any_exited(const State& s) {
    for (int h = 0; h < s.n_heroes; ++h) {
        if (s.unit_status[h] == EXITED) return true;
    }
    return false;
}

// area_names.index(name)
int area_index(const Game& g, const std::optional<std::string>& name) {
    const auto& names = g.tables().area_names;
    const auto it = std::find(names.begin(), names.end(), name.value_or(""));
    if (!name || it == names.end()) throw std::invalid_argument("objective area is not an area of the board");
    return static_cast<int>(it - names.begin());
}

// item_index.get(item, -1)
int card_index(const Game& g, const std::optional<std::string>& item) {
    if (!item) return -1;
    const auto it = g.content->item_index.find(*item);
    return it == g.content->item_index.end() ? -1 : it->second;
}

// An item of catalogue card `card` is held by a hero who left the dungeon, or by a corpse carried out
// (its gear goes back to the party, R-DEATH-05).
bool carried_out(Game& g, int card) {
    const State& s = g.state;
    if (card < 0) return false;
    for (int i = 0; i < MAX_ITEMS; ++i) {
        if (s.item_card[i] != card) continue;
        const int h = s.item_holder[i];
        if (h >= 0 && h < s.n_heroes && (s.unit_status[h] == EXITED || s.unit_status[h] == CORPSE_OUT)) return true;
    }
    return false;
}

}  // namespace

bool objective_met(Game& g, int index) {
    const State& s = g.state;
    const Adventure& adv = g.adventure();
    const Objective& obj = adv.objectives[index];
    if (obj.kind == "escape") return any_exited(s);
    if (obj.kind == "slay") {
        for (size_t i = 0; i < adv.guards.size(); ++i) {
            if (obj.at && adv.guards[i].at == *obj.at) return s.guard_slain[i];
        }
        throw std::logic_error("slay objective: no guard stands on its square");
    }
    if (obj.kind == "reach") return s.visited[area_index(g, obj.area)];
    if (obj.kind == "retrieve") return carried_out(g, card_index(g, obj.item));
    if (obj.kind == "claim") {
        const int card = card_index(g, obj.item);
        for (int i = 0; i < MAX_ITEMS; ++i) {
            if (s.item_claimed[i] && s.item_card[i] == card) return true;
        }
        return false;
    }
    if (obj.kind == "rescue") {
        const bool explored = (s.explored_bits >> area_index(g, obj.area)) & 1;
        return explored && any_exited(s);
    }
    throw std::invalid_argument("unknown objective kind '" + obj.kind + "'");
}

std::vector<Value> objectives_report(Game& g) {
    std::vector<Value> out;
    const auto& objectives = g.adventure().objectives;
    for (size_t i = 0; i < objectives.size(); ++i) {
        const Objective& o = objectives[i];
        out.push_back(Value::obj({{"kind", o.kind},
                                  {"text", o.text},
                                  {"primary", o.primary},
                                  {"met", objective_met(g, static_cast<int>(i))}}));
    }
    return out;
}

// Every primary objective of the adventure is met (R-END-03: reported beside the outcome).
bool goals_met(Game& g) {
    const auto& objectives = g.adventure().objectives;
    for (size_t i = 0; i < objectives.size(); ++i) {
        if (objectives[i].primary && !objective_met(g, static_cast<int>(i))) return false;
    }
    return true;
}

// (outcome, reason) once no hero is left on the board, else none. The adventure is completed when
// every surviving hero has left the dungeon (R-END-01), whether or not its goals were met: each goal is
// reported met or not met beside the outcome (R-END-03). It fails when every hero is dead (R-END-05),
// except that in the final adventure a party that met the primary goals and died doing it has
// completed it (A-55, R-CAMP-05).
std::optional<std::pair<std::string, std::string>> ending(Game& g) {
    const State& s = g.state;
    for (int h = 0; h < s.n_heroes; ++h) {
        if (s.unit_status[h] == ACTIVE) return std::nullopt;
    }
    const bool met = goals_met(g);
    if (!any_exited(s)) {
        if (g.adventure().final && met) {
            return std::make_pair("completed", "the heroes gave their lives to complete the final adventure");
        }
        return std::make_pair("failed", "every hero is dead");
    }
    if (met) return std::make_pair("completed", "every surviving hero left the dungeon with the goals met");
    std::string missing, separator;
    const auto& objectives = g.adventure().objectives;
    for (size_t i = 0; i < objectives.size(); ++i) {
        if (objectives[i].primary && !objective_met(g, static_cast<int>(i))) {
            missing += separator + objectives[i].text;
            separator = "; ";
        }
    }
    return std::make_pair("completed", "every surviving hero left the dungeon; goals not met: " + missing);
}

}  // namespace dungeon_core::objectives
