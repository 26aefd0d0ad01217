// The spell a hero has begun casting in Spell Selection (2.1) and its failing
// (dungeon_env/engine/casting.py), shared by the modules that can make it fail: Evasion and Fights
// (spells) and Surprise (encounters). casting_spell[h] is the spell index (-1: none) and
// casting_item[h] the scroll it is read from (-1: from memory) until the spell resolves at 2.5 or fails.
#include "casting.hpp"

#include "units.hpp"

namespace dungeon_core::casting {

bool is_casting(Game& g, int h) {
    return h < static_cast<int>(g.state.casting_spell.size()) && g.state.casting_spell[h] >= 0;
}

// No effect, no Magic paid, the scroll kept (R-SPELL-13). The log names the spell only if heroes may
// know it (not an unidentified scroll's).
void fail_spell(Game& g, int h, const std::string& reason) {
    State& s = g.state;
    const int sp = s.casting_spell[h], item = s.casting_item[h];
    s.casting_spell[h] = s.casting_item[h] = -1;
    const bool named = item < 0 || s.item_known[item];
    g.log(Value::obj({{"type", "spell_fail"},
                      {"unit", units::label(g, h)},
                      {"spell", named ? Value(g.content->spells[sp].id) : Value()},
                      {"reason", reason},
                      {"turn", s.turn}}));
}

}  // namespace dungeon_core::casting
