#include "game.hpp"

#include <charconv>
#include <cstring>
#include <stdexcept>

#include "rules/decisions.hpp"
#include "rules/inventory.hpp"
#include "rules/objectives.hpp"
#include "rules/spells.hpp"
#include "rules/turn.hpp"

namespace dungeon_core {

int mods_total(const Mods& mods) {
    int total = 0;
    for (const auto& m : mods) total += m.second;
    return total;
}

void mods_add(Mods& mods, const std::string& name, int amount) {
    for (auto& m : mods) {
        if (m.first == name) {
            m.second += amount;
            return;
        }
    }
    mods.emplace_back(name, amount);
}

void mods_set(Mods& mods, const std::string& name, int amount) {
    for (auto& m : mods) {
        if (m.first == name) {
            m.second = amount;
            return;
        }
    }
    mods.emplace_back(name, amount);
}

Value mods_value(const Mods& mods) {
    Value v = Value::empty_obj();
    for (const auto& m : mods) v.object.emplace_back(intern_key(m.first), Value(m.second));
    return v;
}

namespace {

// game.py's _phase_name and _action_name: a name, or what is wrong with the value (a corrupt state)
std::string phase_name(int phase) {
    if (phase >= 0 && phase < Phase::N_PHASES) return PHASE_NAMES[phase];
    return std::to_string(phase) + " (not a Phase)";
}

std::string action_name(int action) {
    if (action >= 0 && action < N_ACTIONS) return ACTION_NAMES[action];
    return "not an action of 0.." + std::to_string(N_ACTIONS - 1);
}

std::string stack_text(const State& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.stack.size(); ++i) {
        if (i) out += ", ";
        out += "[";
        for (size_t k = 0; k < s.stack[i].size(); ++k) out += (k ? ", " : "") + std::to_string(s.stack[i][k]);
        out += "]";
    }
    return out + "]";
}

// The decision on top of the stack, copied (four ints, not the row): applying it pops its row.
struct Top {
    int kind, unit, a, b;
};
Top top_of(const State& s) {
    const Row& row = s.stack.back();
    return {row[STACK_KIND], row[STACK_UNIT], row[STACK_A], row[STACK_B]};
}
}  // namespace

const std::vector<int>& Game::legal_actions() {
    static const std::vector<int> none;
    if (over()) return none;
    if (!legal_known) {
        if (state.stack.empty()) throw std::logic_error("no decision is being asked: advance() the game first");
        const Row& top = state.stack.back();
        legal_cache = decisions::legal(*this, top[STACK_KIND], top[STACK_UNIT], top[STACK_A], top[STACK_B]);
        legal_known = true;
    }
    return legal_cache;
}

void Game::apply(int action) {
    if (over()) throw IllegalAction("the game is over (" + state.outcome + "); no action can be applied");
    const std::vector<int>& legal = legal_actions();
    bool found = false;
    for (int a : legal) found = found || a == action;
    if (!found) {
        std::string names;
        for (int a : legal) names += (names.empty() ? "" : ", ") + std::to_string(a) + " (" + ACTION_NAMES[a] + ")";
        const Row& top = state.stack.back();
        int unit = top[STACK_UNIT];
        std::string agent = unit < state.n_heroes ? "hero_" + std::to_string(unit) : "dm";
        throw IllegalAction(agent + " cannot play action " + std::to_string(action) + " (" + action_name(action) +
                            ") at decision " + DECISION_NAMES[top[STACK_KIND]] + " for " + label(unit) +
                            "; legal: " + names);
    }
    const Top top = top_of(state);
    state.stack.pop_back();
    legal_known = false;
    decisions::apply(*this, top.kind, top.unit, top.a, top.b, action);
    advance();
    ++moves;
}

void Game::advance() {
    State& s = state;
    int steps = 0, turn_seen = s.turn;
    while (s.outcome.empty()) {
        if (++steps > MAX_AUTO_STEPS) {
            if (s.turn == turn_seen) {
                throw std::runtime_error("the engine made no progress in " + std::to_string(MAX_AUTO_STEPS) +
                                         " automatic steps of turn " + std::to_string(s.turn) + ": phase " +
                                         phase_name(s.phase) + ", phase_started " +
                                         (s.phase_started ? "True" : "False") + ", stack " + stack_text(s) +
                                         " (a corrupt or hand-edited state?)");
            }
            steps = 0;
            turn_seen = s.turn;
        }
        if (!s.stack.empty()) {
            const Top top = top_of(s);
            std::vector<int> legal = decisions::legal(*this, top.kind, top.unit, top.a, top.b);
            if (legal.size() > 1) {
                legal_cache = std::move(legal);
                legal_known = true;
                return;
            }
            s.stack.pop_back();
            legal_known = false;
            decisions::apply(*this, top.kind, top.unit, top.a, top.b, legal.at(0));
        } else if (!s.phase_started) {
            s.phase_started = true;
            turn::begin(*this);
        } else {
            turn::resume(*this);
        }
    }
    s.stack.clear();
    legal_known = false;
}

int Game::check(const std::string& check, const std::string& actor, Stream stream, const Mods& modifiers,
                const std::function<Value(int)>& classify) {
    int face = dice.d6(stream);
    int modifier = mods_total(modifiers);
    int total = face + modifier;
    log(Value::obj({{"type", "roll"},
                    {"check", check},
                    {"actor", actor},
                    {"dice", std::vector<int>{face}},
                    {"modifiers", mods_value(modifiers)},
                    {"modifier", modifier},
                    {"total", total},
                    {"result", classify(total)},
                    {"turn", state.turn}}));
    return total;
}

void Game::finish(const std::string& outcome, const std::string& reason) {
    State& s = state;
    s.outcome = outcome;
    s.end_reason = reason;
    s.phase = Phase::GAME_OVER;
    s.stack.clear();
    inventory::end_adventure(*this);  // every item is identified at the adventure's end (R-IDENT-04)
    spells::end_adventure(*this);     // memorized spell cards are discarded (R-END-04)
    log(Value::obj({{"type", "end"},
                    {"outcome", outcome},
                    {"reason", reason},
                    {"turn", s.turn},
                    {"light", s.light},
                    {"objectives", Value(objectives::objectives_report(*this))},
                    {"goals_met", objectives::goals_met(*this)}}));
}

void Game::check_end() {
    if (!state.outcome.empty()) return;
    auto result = objectives::ending(*this);
    if (result) finish(result->first, result->second);
}

std::pair<int, int> Game::decision_args() const {
    if (state.stack.empty()) return {-1, -1};
    const Row& top = state.stack.back();
    return {top[STACK_A], top[STACK_B]};
}

bool Game::monsters_besides(const std::vector<int>& group) const {
    const State& s = state;
    for (int u = s.n_heroes; u < MAX_UNITS; ++u) {
        if (s.unit_status[u] != ACTIVE || s.unit_side[u] != SIDE_MONSTER) continue;
        bool in_group = false;
        for (int v : group) in_group = in_group || v == u;
        if (!in_group) return true;
    }
    return false;
}

std::string Game::label(int u) const {
    // "hero_<slot>" or "m<uid>", written in one buffer: an event or two of every decision names a unit
    const bool hero = u < state.n_heroes;
    const size_t prefix = hero ? 5 : 1;
    char text[24];
    std::memcpy(text, hero ? "hero_" : "m", prefix);
    char* end = std::to_chars(text + prefix, text + sizeof text, hero ? u : static_cast<int>(state.unit_uid[u])).ptr;
    return std::string(text, static_cast<size_t>(end - text));
}

int Game::unit_by_label(const std::string& id) const {
    for (int u = 0; u < MAX_UNITS; ++u) {
        if (state.unit_status[u] != EMPTY && label(u) == id) return u;
    }
    return NO_UNIT;
}

}  // namespace dungeon_core
