// The core's port of dungeon_env/engine/spells.py (the Python module is the reference it is checked
// against). One C++ function per public Python function, same name and arguments.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../game.hpp"

namespace dungeon_core::spells {

// python constant: SPELL_MOMENTS = (IN_COMBAT, IN_MOVEMENT, IN_EXPLORE)
// a cast row's moment (CAST_MOMENT) is the index of its moment here
constexpr const char* SPELL_MOMENTS[3] = {IN_COMBAT, IN_MOVEMENT, IN_EXPLORE};
// CAST_MODE values
constexpr int NORMAL = 0, OVERCAST_MODE = 1;
// python constant: COMBAT_TURN_CASTING = ('combat', 'any', 'movement')
// spells.fits(spell: Spell, when: str) -> bool
// The spell's Casting field allows this moment (R-SPELL-10). In a combat turn (``IN_COMBAT``:
bool fits(const Spell& spell, const std::string& when);

// spells.at_once_allowed(g: Context, when: str) -> bool
// A spell may be cast to resolve at once (Movement, Explore) only outside combat: while any
bool at_once_allowed(Game& g, const std::string& when);

// spells.known(g: Context, h: int) -> list[int]
// The hero's spells in catalogue order (SPELL_k is the k-th).
std::vector<int> known(Game& g, int h);

// spells.may_cast(g: Context, h: int) -> bool
// On the board, not surprised (R-SURP-06), no spell begun yet this turn.
bool may_cast(Game& g, int h);

// spells.targets(g: Context, h: int, sp: int) -> list[int]
// Candidate targets of the spell cast by ``h``: heroes (ally, in seat order) or monsters (enemy,
std::vector<int> targets(Game& g, int h, int sp);

// spells.castable(g: Context, h: int, sp: int, when: str, scroll: bool) -> bool
// The spell could be begun now: its timing, the recast ban, Magic (not for a scroll) and, cast
bool castable(Game& g, int h, int sp, const std::string& when, bool scroll);

// spells.spell_level_total(g: Context, h: int) -> int
int spell_level_total(Game& g, int h);

// spells.spell_actions(g: Context, h: int, when: str) -> list[int]
// SPELL_k for each known spell the hero may do something with now (in the Explore phase each
std::vector<int> spell_actions(Game& g, int h, const std::string& when);

// spells.pick_spell(g: Context, h: int, k: int, when: str) -> None
// The hero picked its k-th spell (SPELL_k): in the Movement phase cast it now; in the Explore
void pick_spell(Game& g, int h, int k, const std::string& when);

// spells.legal_spell_verb(g: Context, unit: int, a: int, b: int) -> list[int]
// FORGET, USE if it can be cast now, and always BACK: a spell that cannot be cast here is never
std::vector<int> legal_spell_verb(Game& g, int unit, int a, int b);

// spells.do_spell_verb(g: Context, unit: int, a: int, b: int, action: int) -> None
void do_spell_verb(Game& g, int unit, int a, int b, int action);

// spells.forget(g: Context, h: int, sp: int, reason: str) -> None
// The spell card is discarded: gone for the rest of the adventure (R-SPELL-07, A-21).
void forget(Game& g, int h, int sp, const std::string& reason);

// spells.scroll_spell(g: Context, item: int) -> int
int scroll_spell(Game& g, int item);

// spells.can_cast_scroll(g: Context, h: int, item: int, when: str) -> bool
// A scroll is read at its spell's moments; an unidentified one at any spell moment (its spell
bool can_cast_scroll(Game& g, int h, int item, const std::string& when);

// spells.cast_scroll(g: Context, h: int, item: int, when: str) -> None
void cast_scroll(Game& g, int h, int item, const std::string& when);

// spells.can_memorize(g: Context, h: int, item: int) -> bool
// Explore phase only (the caller's), one a phase, an identified scroll, a spell not known yet,
bool can_memorize(Game& g, int h, int item);

// spells.memorize(g: Context, h: int, item: int) -> None
void memorize(Game& g, int h, int item);

// spells.begin_spell_selection(g: Context) -> None
// 2.1: monsters held by a sleep effect will skip their movement; then each hero that may begin a
void begin_spell_selection(Game& g);

// spells.resume_spell_selection(g: Context) -> None
void resume_spell_selection(Game& g);

// spells.selection_options(g: Context, h: int) -> list[int]
std::vector<int> selection_options(Game& g, int h);

// spells.legal_spell_select(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_spell_select(Game& g, int unit, int a, int b);

// spells.do_spell_select(g: Context, unit: int, a: int, b: int, action: int) -> None
// The hero begins casting one spell (R-CTS-02): it resolves in 2.5 unless it fails first.
void do_spell_select(Game& g, int unit, int a, int b, int action);

// spells.fail(g: Context, h: int, reason: str) -> None
// The selected spell fails: no effect, no Magic paid, the scroll kept (R-SPELL-13).
void fail(Game& g, int h, const std::string& reason);

// spells.ask_cast_while_fighting(g: Context) -> None
// Each casting hero in a Fight chooses before its first Fight's dice, hero_0 first.
void ask_cast_while_fighting(Game& g);

// spells.legal_cast_while_fighting(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_cast_while_fighting(Game& g, int unit, int a, int b);

// spells.do_cast_while_fighting(g: Context, unit: int, a: int, b: int, action: int) -> None
// KEEP_CASTING: every Fight this phase on double ones (R-FIGHT-10); LET_FAIL: the spell fails.
void do_cast_while_fighting(Game& g, int unit, int a, int b, int action);

// spells.begin_spell_resolution(g: Context) -> None
// 2.5: first the Mind Lash of monsters with Mental Combat (``mental``), then each hero's spell
void begin_spell_resolution(Game& g);

// spells.resume_spell_resolution(g: Context) -> None
void resume_spell_resolution(Game& g);

// spells.resolve_selected(g: Context, h: int) -> None
void resolve_selected(Game& g, int h);

// spells.begin_cast(g: Context, h: int, sp: int, item: int, when: str) -> None
// Cast now, outside 2.1/2.5 (Movement or Explore phase): it counts as the hero's spell of the
void begin_cast(Game& g, int h, int sp, int item, const std::string& when);

// spells.legal_cast_mode(g: Context, unit: int, a: int, b: int) -> list[int]
std::vector<int> legal_cast_mode(Game& g, int unit, int a, int b);

// spells.do_cast_mode(g: Context, unit: int, a: int, b: int, action: int) -> None
void do_cast_mode(Game& g, int unit, int a, int b, int action);

// spells.cast_at(g: Context, unit: int, sp: int, target: int) -> None
// The caster chose the target of the spell it is casting (a CHOOSE_TARGET among
void cast_at(Game& g, int unit, int sp, int target);

// spells.after_mental(g: Context, caster: int, target: int, result: int) -> None
// A Mental Combat spell's duel is decided: the effect lands on a win, or on a tie if the spell
void after_mental(Game& g, int caster, int target, int result);

// spells.backlash(g: Context, h: int, sp: int, item: int) -> None
// After an Overcast, d6: 1 the spell is forgotten (from a scroll: the scroll is simply gone),
void backlash(Game& g, int h, int sp, int item);

// spells.end_adventure(g: Context) -> None
// The adventure is over: memorized spell cards are discarded (R-SPELL-05, R-END-04) and ongoing
void end_adventure(Game& g);

}  // namespace dungeon_core::spells
