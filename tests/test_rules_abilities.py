"""Hero abilities (R-BOARD-04, checklist section D; issue 10 item 11): every hero card carries one or
two abilities tagged Active or Passive, each a structured effect. Each ability is tested on a
hand-built position with forced dice; a surprised hero cannot use an Active ability (R-SURP-06);
using one breaks Rest (R-REST-02); the observation shows them.

Positions on the test arena (tests/data/arena.toml): room B is x 7-11, y 1-5; heroes not in use wait
in corridor c at (14,0), (16,0), (18,0). The trap arena adds a row of dart traps at (2..7, 13) in
corridor g.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from dungeon_env.content import load_heroes
from dungeon_env.content.model import ABILITY_USES, ContentError
from dungeon_env.content.variants import Variant
from dungeon_env.engine import Decision, Game, Phase, abilities, effects, items
from dungeon_env.engine.abilities import card_abilities
from dungeon_env.engine.actions import (
    ABILITY_0,
    DISARM_ACTIONS,
    END,
    MAX_ABILITIES,
    TARGET_0,
    TARGET_ABILITY,
)
from dungeon_env.engine.state import ADDED_FIELDS
from dungeon_env.engine.units import slay_monster
from dungeon_env.observation import DM, FCOL, HERO, KINDS, OBS_SPEC, Observer, unflatten
from tests.builders import (
    add_monster,
    arena_game,
    arena_variant,
    enter_phase,
    events,
    finish_turn,
    give_item,
    my_move,
    place,
    play_to,
    rolls,
    set_unit,
    tired,
)

ABILITY_1 = ABILITY_0 + 1
HEROES_FILE = Path(__file__).resolve().parent.parent / "dungeon_env" / "content" / "heroes.toml"
TRAPS = "".join(
    f'[[trap]]\nat = [{x}, 13]\nname = "dart {k}"\neffect = {{ kind = "damage", amount = 1 }}\n'
    for k, x in enumerate(range(2, 8))
)


@pytest.fixture(scope="module")
def trap_arena(tmp_path_factory) -> str:
    return arena_variant(tmp_path_factory.mktemp("ability_traps"), "ability_traps", TRAPS)


def game(heroes, adventure: str | None = None, variant=None) -> Game:
    """The heroes moved out of the way, to corridor c (y = 0)."""
    if adventure is None and variant is None:
        g = arena_game(list(heroes))
    else:
        g = Game.new(adventure=adventure or arena_game().adventure_ref, heroes=list(heroes), variant=variant)
    for u, x in enumerate((14, 16, 18)):
        place(g, u, x, 0)
    return g


def ability_events(g: Game, ability_id: str) -> list[dict]:
    return events(g, "ability", ability=ability_id)


# --------------------------------------------------------------------------------------- the cards


def test_R_BOARD_04_every_hero_card_carries_one_or_two_abilities_tagged_active_or_passive():
    roster = load_heroes()
    ids = [a.id for hero in roster.values() for a in hero.abilities]
    assert len(ids) == len(set(ids))
    for hero in roster.values():
        assert 1 <= len(hero.abilities) <= MAX_ABILITIES
        for ability in hero.abilities:
            assert ability.use in ABILITY_USES and ability.name and ability.text
            assert 1 <= ability.effect.amount <= 5
            if ability.active:
                assert ability.limit in ("adventure", "turn") and ability.when and ability.uses >= 1
            else:
                assert not ability.limit and not ability.when
    uses = {a.use for hero in roster.values() for a in hero.abilities}
    assert uses == {"active", "passive"}


BROKEN = [
    ("unknown_use", 'name = "Stand Fast"\nuse = "passive"', 'name = "Stand Fast"\nuse = "often"',
     "hero[0].abilities[0].use", "unknown ability use 'often'"),
    ("passive_with_limit", 'condition = "outnumbered"\ntext = "+1 Fighting Score in a',
     'condition = "outnumbered"\nlimit = "turn"\ntext = "+1 Fighting Score in a',
     "hero[0].abilities[0].limit", "only an active ability has a limit"),
    ("passive_with_duration", '{ kind = "fight_bonus", amount = 1 }\ncondition = "outnumbered"',
     '{ kind = "fight_bonus", amount = 1, duration = 1 }\ncondition = "outnumbered"',
     "hero[0].abilities[0].effect.duration", "no duration"),
    ("active_with_condition", 'when = ["movement", "evasion"]\neffect = { kind = "damage_bonus"',
     'when = ["movement", "evasion"]\ncondition = "wounded"\neffect = { kind = "damage_bonus"',
     "hero[1].abilities[0].condition", "only a passive ability has a condition"),
    ("active_kind", '{ kind = "damage_bonus", amount = 1 }', '{ kind = "sleep", amount = 1, duration = 1 }',
     "hero[1].abilities[0].effect.kind", "cannot be an active ability's"),
    ("amount_too_big", '{ kind = "move_bonus", amount = 2 }', '{ kind = "move_bonus", amount = 6 }',
     "hero[3].abilities[0].effect.amount", "6 is out of range; expected 1..5"),
    ("move_bonus_in_evasion", 'when = ["movement"]\neffect = { kind = "move_bonus"',
     'when = ["evasion"]\neffect = { kind = "move_bonus"', "hero[3].abilities[0].when", "Movement"),
    ("uses_once_per_turn", 'limit = "turn"\n', 'limit = "turn"\nuses = 2\n',
     "hero[4].abilities[0].uses", "once-per-turn ability has no uses count"),
    ("light_for_an_ally", 'target = "none"\neffect = { kind = "light"',
     'target = "ally"\neffect = { kind = "light"', "hero[7].abilities[1].target", "targets none, not 'ally'"),
    ("condition_on_a_check", '{ kind = "disarm_bonus", amount = 1 }',
     '{ kind = "disarm_bonus", amount = 1 }\ncondition = "wounded"',
     "hero[5].abilities[1].condition", "only a combat bonus"),
    ("duplicate_id", 'id = "slippery"', 'id = "unbowed"', "hero[6].abilities[0].id",
     "duplicate ability id 'unbowed' (same as hero[2].abilities[0])"),
    ("three_abilities", 'text = "+1 to his Disarm rolls."\n',
     'text = "+1 to his Disarm rolls."\n\n[[hero.abilities]]\nid = "x"\nname = "X"\nuse = "passive"\n'
     'effect = { kind = "jump_bonus", amount = 1 }\n', "hero[5].abilities", "expected at most 2 entries"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "key", "reason"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_broken_abilities_name_the_file_the_key_and_the_reason(tmp_path, old, new, key, reason):
    text = HEROES_FILE.read_text()
    assert text.count(old) == 1, old
    path = tmp_path / "broken_heroes.toml"
    path.write_text(text.replace(old, new))
    with pytest.raises(ContentError) as info:
        load_heroes(path)
    message = str(info.value)
    assert path.name in message and f": {key}: " in message and reason in message, message


# ------------------------------------------------------------------------------- passive abilities


def test_R_BOARD_04_stand_fast_bram_fights_at_plus_1_when_outnumbered():
    """Bram (Fighting 6) with Goblins north and east: -1 for two enemies, +1 Stand Fast, in each
    Fight; with one Goblin, neither."""
    g = game(("bram", "hob", "corvin"))
    add_monster(g, "goblin", 9, 2)
    add_monster(g, "goblin", 10, 3)
    place(g, 0, 9, 3)
    tired(g, *range(64))
    g.dice.force(*[3] * 8)
    enter_phase(g, Phase.FIGHTING)
    fights = events(g, "fight")
    assert len(fights) == 2 and g.dice.forced_left == 0
    for fight in fights:
        assert fight["a_modifiers"] == {"enemies": -1, "ability:stand_fast": 1} and fight["a_score"] == 6
    alone = game(("bram", "hob", "corvin"))
    add_monster(alone, "goblin", 9, 2)
    place(alone, 0, 9, 3)
    tired(alone, *range(64))
    alone.dice.force(3, 3, 3, 3)
    enter_phase(alone, Phase.FIGHTING)
    assert events(alone, "fight")[0]["a_modifiers"] == {}


@pytest.mark.parametrize(("health", "bonus"), [(12, False), (7, False), (6, True), (1, True)])
def test_R_BOARD_04_unbowed_gunnhild_fights_at_plus_1_at_half_health_or_less(health, bonus):
    g = game(("gunnhild", "hob", "corvin"))
    add_monster(g, "goblin", 9, 2)
    place(g, 0, 9, 3)
    set_unit(g, 0, health=health)
    tired(g, *range(64))
    g.dice.force(3, 3, 3, 3)
    enter_phase(g, Phase.FIGHTING)
    fight = events(g, "fight")[0]
    assert fight["a_modifiers"] == ({"ability:unbowed": 1} if bonus else {})
    assert fight["a_score"] == 6 + bonus


def test_R_BOARD_04_slippery_corvin_takes_1_less_from_each_lost_fight_when_outnumbered():
    """Two Orcs (Damage 2) beat Corvin: 1 damage each (Slippery); one Orc alone deals 2."""
    g = game(("corvin", "hob", "bram"))
    add_monster(g, "orc", 9, 2)
    add_monster(g, "orc", 10, 3)
    place(g, 0, 9, 3)
    tired(g, *range(64))
    g.dice.force(1, 1, 6, 6, 1, 1, 6, 6)
    enter_phase(g, Phase.FIGHTING)
    assert [e["amount"] for e in events(g, "damage", unit="hero_0")] == [1, 1]
    assert g.state.health[0] == 8 - 2
    alone = game(("corvin", "hob", "bram"))
    add_monster(alone, "orc", 9, 2)
    place(alone, 0, 9, 3)
    tired(alone, *range(64))
    alone.dice.force(1, 1, 6, 6)
    enter_phase(alone, Phase.FIGHTING)
    assert [e["amount"] for e in events(alone, "damage", unit="hero_0")] == [2]


def test_R_BOARD_04_light_fingers_hob_adds_1_to_disarm_rolls(trap_arena):
    """Hob next to the detected dart at (2,13) rolls a 1: with Light Fingers that is 2, failed
    rather than sprung."""
    g = game(("hob", "corvin", "bram"), adventure=trap_arena)
    place(g, 0, 1, 13)
    g.state.trap_detected[0] = True
    my_move(g, 0)
    g.apply(END)
    assert g.decision == (Decision.DISARM, 0)
    g.dice.force(1)
    g.apply(DISARM_ACTIONS[1])  # east
    roll = rolls(g, "disarm")[0]
    assert roll["modifiers"] == {"ability:light_fingers": 1} and roll["total"] == 2
    assert roll["result"] == "failed" and g.state.trap_armed[0] and g.state.health[0] == 6


@pytest.mark.parametrize(("die", "result"), [(1, "not_yet"), (3, "identified")])
def test_R_BOARD_04_loremaster_ilsabet_adds_1_to_identify_rolls(die, result):
    g = game(("ilsabet", "bram", "hob"))
    ring = give_item(g, 0, "ring_of_valor")
    g.dice.force(die)
    items.identify(g, 0, ring)
    roll = rolls(g, "identify")[0]
    assert roll["modifiers"] == {"ability:loremaster": 1} and roll["result"] == result
    assert effects.check_modifiers(g, 1, "identify") == {}  # Bram has no such ability


# -------------------------------------------------------------------------------- active abilities


def test_R_BOARD_04_ashblade_fury_tovar_deals_plus_1_damage_for_the_rest_of_the_turn_once():
    """Tovar uses Ashblade Fury in his Movement: the Orc he beats takes 3, not 2. The bonus ends at
    Turn End; the ability is spent for the adventure."""
    g = game(("tovar", "hob", "bram"))
    orc = add_monster(g, "orc", 9, 2)
    place(g, 0, 9, 3)
    my_move(g, 0)
    assert ABILITY_0 in g.legal_actions()
    g.apply(ABILITY_0)
    assert ability_events(g, "ashblade_fury")[0] == {
        "type": "ability", "unit": "hero_0", "ability": "ashblade_fury", "name": "Ashblade Fury",
        "target": "hero_0", "when": "movement", "turn": 1,
    }  # fmt: skip
    assert effects.damage_of(g, 0, orc) == 3
    assert ABILITY_0 not in g.legal_actions()
    tired(g, 0, orc)
    g.dice.force(6, 6, 1, 1)
    enter_phase(g, Phase.FIGHTING)
    assert events(g, "damage", unit=g.label(orc))[0]["amount"] == 3
    assert g.decision == (Decision.HERO_MOVE, 0) and g.state.turn == 2  # the turn has gone on
    assert effects.damage_of(g, 0, orc) == 2 and ABILITY_0 not in g.legal_actions()


def test_R_BOARD_04_dash_sela_gains_2_movement_in_her_movement_only():
    g = game(("sela", "hob", "bram"))
    my_move(g, 0)
    left = int(g.state.move_left[0])
    g.apply(ABILITY_0)
    assert g.state.move_left[0] == left + 2 and effects.move_bonus(g, 0) == 2
    assert abilities.ability_actions(g, 0, "evasion") == abilities.ability_actions(g, 0, "explore") == []
    finish_turn(g)
    assert effects.move_bonus(g, 0) == 0 and g.state.move_left[0] == 6
    assert ABILITY_0 not in g.legal_actions()


def test_R_BOARD_04_scout_ahead_ysolde_detects_traps_within_2_once_per_turn(trap_arena):
    """Ysolde at (1,13): the darts at (2,13) and (3,13) are found, the one at (4,13) is not. Not
    again this turn; again the next turn."""
    g = game(("ysolde", "hob", "bram"), adventure=trap_arena)
    place(g, 0, 1, 13)
    my_move(g, 0)
    g.apply(ABILITY_0)
    assert g.state.trap_detected.tolist() == [True, True, False, False, False, False]
    found = events(g, "traps_detected", unit="hero_0")[0]
    assert found["source"] == "ability:scout_ahead" and found["squares"] == [[2, 13], [3, 13]]
    assert ABILITY_0 not in g.legal_actions()
    finish_turn(g)
    play_to(g, Decision.HERO_MOVE, 0)
    assert ABILITY_0 in g.legal_actions()


def test_R_TRAP_08_scout_ahead_is_not_offered_in_combat(trap_arena):
    """Revised 2026-12-06: with a Goblin anywhere on the board Ysolde cannot Scout Ahead (her card
    does not say it works in combat), and the darts stay hidden; once the Goblin is gone she can."""
    g = game(("ysolde", "hob", "bram"), adventure=trap_arena)
    place(g, 0, 1, 13)
    m = add_monster(g, "goblin", 20, 20)
    my_move(g, 0)
    assert ABILITY_0 not in g.legal_actions()
    assert not effects.usable_now(g, card_abilities(g, 0)[0].effect)
    slay_monster(g, m, ["test"])
    g.state_edited()
    assert ABILITY_0 in g.legal_actions()


def test_R_BOARD_04_hearty_rations_hob_heals_himself_or_a_hero_next_to_him():
    """Bram (Health 3) stands next to Hob, Corvin two squares away: the candidates are Hob and Bram
    (slot order) and the observation names the purpose; Bram regains 2. Once per adventure."""
    g = game(("hob", "bram", "corvin"))
    place(g, 0, 9, 3)
    place(g, 1, 9, 4)
    place(g, 2, 9, 1)
    set_unit(g, 1, health=3)
    my_move(g, 0)
    g.apply(ABILITY_0)
    assert g.decision == (Decision.CHOOSE_TARGET, 0) and g.decision_args == (TARGET_ABILITY, 0)
    assert g.legal_actions() == [TARGET_0, TARGET_0 + 1]
    obs = unflatten(Observer().observe(g, HERO, 0, True, g.max_turns))
    assert obs["target_purpose"].tolist() == [0, 0, 0, 0, 1]
    assert obs["candidates"][:3, 0].tolist() == [1, 1, 0] and obs["figures"][
        :3, FCOL["candidate"]
    ].tolist() == [1, 1, 0]
    g.apply(TARGET_0 + 1)
    assert g.state.health[1] == 5 and ability_events(g, "hearty_rations")[0]["target"] == "hero_1"
    assert ABILITY_0 not in g.legal_actions()


def test_R_BOARD_04_hearty_rations_alone_hob_heals_himself_at_once():
    g = game(("hob", "bram", "corvin"))
    set_unit(g, 0, health=2)
    my_move(g, 0)
    g.apply(ABILITY_0)
    assert g.state.health[0] == 4 and g.decision == (Decision.HERO_MOVE, 0)


@pytest.mark.parametrize(("light", "after"), [(10, 12), (19, 20)])
def test_R_BOARD_04_witchlight_ilsabet_raises_the_light_by_2_up_to_20(light, after):
    """Witchlight is the second ability on Ilsabet's card: ABILITY_1."""
    g = game(("ilsabet", "bram", "hob"))
    g.state.light = light
    my_move(g, 0)
    assert ABILITY_1 in g.legal_actions() and ABILITY_0 not in g.legal_actions()  # Loremaster is passive
    g.apply(ABILITY_1)
    assert g.state.light == after and ability_events(g, "witchlight")[0]["target"] is None


def test_R_BOARD_04_deep_focus_orwin_regains_1_magic():
    g = game(("orwin", "bram", "hob"))
    set_unit(g, 0, magic=2)
    my_move(g, 0)
    g.apply(ABILITY_0)
    assert g.state.magic[0] == 3 and events(g, "magic", unit="hero_0")[0]["source"] == "ability:deep_focus"


def test_R_BOARD_04_dawns_blessing_maelis_gives_a_hero_next_to_her_plus_1_this_turn():
    """Maelis blesses Bram, who fights a Goblin this turn at +1 (shown as ability:dawns_blessing)."""
    g = game(("maelis", "bram", "hob"))
    goblin = add_monster(g, "goblin", 9, 2)
    place(g, 1, 9, 3)
    place(g, 0, 9, 4)
    my_move(g, 0)
    g.apply(ABILITY_0)
    g.apply(TARGET_0 + 1)  # Bram (slot 1)
    tired(g, 1, goblin)
    g.dice.force(3, 3, 3, 3)
    enter_phase(g, Phase.FIGHTING)
    fight = events(g, "fight")[0]
    assert fight["a"] == "hero_1" and fight["a_modifiers"] == {"ability:dawns_blessing": 1}
    assert g.state.turn == 2 and effects.fight_modifiers(g, 1) == {}


def test_R_BOARD_04_an_active_ability_for_the_explore_phase_is_offered_there():
    """No card's Active ability names the Explore phase; a card changed to (Deep Focus usable in
    Explore) shows the hook: offered in HERO_ACT, not in Movement."""
    g = game(("orwin", "bram", "hob"))
    card = g.heroes[int(g.state.unit_card[0])]
    focus = dataclasses.replace(card.abilities[0], when=("explore",))
    g.heroes[int(g.state.unit_card[0])] = dataclasses.replace(card, abilities=(focus,))
    g.content_edited()
    set_unit(g, 0, magic=1)
    my_move(g, 0)
    assert ABILITY_0 not in g.legal_actions()
    enter_phase(g, Phase.EXPLORE)
    play_to(g, Decision.HERO_ACT, 0)
    assert ABILITY_0 in g.legal_actions()
    g.apply(ABILITY_0)
    assert g.state.magic[0] == 2 and ability_events(g, "deep_focus")[0]["when"] == "explore"


# -------------------------------------------------------------------------------- SURP 06, REST 02


def test_R_SURP_06_a_surprised_hero_cannot_use_an_active_ability():
    """In combat Tovar may use Ashblade Fury in his Evasion; surprised, he may not (nor in Movement)."""
    g = game(("tovar", "hob", "bram"))
    add_monster(g, "orc", 9, 9)
    enter_phase(g, Phase.EVASION)
    play_to(g, Decision.HERO_EVADE, 0)
    assert ABILITY_0 in g.legal_actions()
    g.state.surprised[0] = True
    g.state_edited()
    assert ABILITY_0 not in g.legal_actions()
    assert all(abilities.ability_actions(g, 0, when) == [] for when in abilities.MOMENTS)


def test_R_REST_02_using_an_active_ability_breaks_rest():
    """Orwin only uses Deep Focus; Bram and Hob do nothing: they Rest, he does not."""
    g = game(("orwin", "bram", "hob"))
    my_move(g, 0)
    g.apply(ABILITY_0)
    finish_turn(g)
    assert sorted(e["unit"] for e in events(g, "rest")) == ["hero_1", "hero_2"]


# ----------------------------------------------------------------------------- variants and saves


def test_variant_keys_change_an_abilitys_amount_and_uses():
    var = Variant.parse(["heroes.sela.abilities.0.effect.amount=3", "heroes.hob.abilities.0.uses=2"])
    g = game(("sela", "hob", "bram"), variant=var)
    my_move(g, 0)
    left = int(g.state.move_left[0])
    g.apply(ABILITY_0)
    assert g.state.move_left[0] == left + 3
    for turn in (1, 2):
        play_to(g, Decision.HERO_MOVE, 1)
        g.apply(ABILITY_0)
        assert g.state.ability_uses[1, 0] == turn
        finish_turn(g)
    play_to(g, Decision.HERO_MOVE, 1)
    assert ABILITY_0 not in g.legal_actions()


def test_a_save_keeps_ability_uses_and_an_older_save_without_them_loads():
    g = game(("orwin", "bram", "hob"))
    my_move(g, 0)
    g.apply(ABILITY_0)
    data = json.loads(json.dumps(g.to_json()))
    loaded = Game.from_json(data)
    assert loaded.state.ability_uses[0, 0] == 1 and ABILITY_0 not in loaded.legal_actions()
    for name in ADDED_FIELDS:  # a save from before issue 10 has none of these
        del data["state"][name]
    older = Game.from_json(data)
    assert not older.state.ability_uses.any() and older.state.ability_uses.shape == (5, MAX_ABILITIES)
    assert older.state.declined_spells.shape == loaded.state.declined_spells.shape
    del data["state"]["turn"]
    with pytest.raises(ValueError, match=r"missing fields \['turn'\]"):
        Game.from_json(data)


# ---------------------------------------------------------------------------------- observation


def test_the_observation_shows_every_heros_abilities_and_which_active_ones_are_ready():
    """Hob (Hearty Rations: Active; Light Fingers: Passive) and Ilsabet (Loremaster: Passive;
    Witchlight: Active), seen by a hero and by the DM alike; Hob's ready_0 goes out once used."""
    g = game(("hob", "ilsabet", "bram"))
    observer = Observer()

    def views():
        return [
            unflatten(observer.observe(g, role, me, False, g.max_turns))["figures"]
            for role, me in ((HERO, 2), (DM, -1))
        ]

    for units in views():  # a hero's kind names its card, hence its abilities (public)
        kinds = [KINDS[int(k) - 1] for k in units[:3, FCOL["kind"]]]
        assert kinds == ["hob", "ilsabet", "bram"]
        assert units[:3, FCOL["ready_0"]].tolist() == [1, 0, 0]
        assert units[:3, FCOL["ready_1"]].tolist() == [0, 1, 0]
        assert not units[3:, FCOL["ready_0"]].any()
    assert abilities.ready_pairs(g) == [(0, 0), (1, 1)]
    my_move(g, 0)
    g.apply(ABILITY_0)
    assert abilities.ready_pairs(g) == [(1, 1)] and not abilities.ready(g, 0, 0) and abilities.ready(g, 1, 1)
    for units in views():
        assert units[0, FCOL["ready_0"]] == 0 and units[0, FCOL["kind"]] == KINDS.index("hob") + 1
    flat = observer.observe(g, HERO, 0, True, g.max_turns)["observation"]
    assert np.all((flat >= 0) & (flat <= OBS_SPEC.high()))


def test_the_readme_hero_table_is_the_generated_one():
    from dungeon_env.engine.describe import hero_table_markdown

    table = hero_table_markdown()
    assert table in (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for hero in load_heroes().values():
        assert all(f"**{a.name}** ({'Active' if a.active else 'Passive'})" in table for a in hero.abilities)
