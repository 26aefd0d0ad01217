"""Campaign rules (CAMP) and corpses carried out (R-DEATH-05): adventures in order, a finite roster;
what completing an adventure without its goals means for the campaign (C-05)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dungeon_env.content import load_adventure, load_heroes, load_items
from dungeon_env.engine import Game
from dungeon_env.engine.campaign import Campaign, campaign_order
from dungeon_env.engine.objectives import ending
from dungeon_env.engine.state import CORPSE_OUT, EXITED, GONE
from dungeon_env.engine.units import take_off
from tests.builders import ARENA

SHRINE = '[[objective]]\nkind = "reach"\ntext = "Find the shrine in room K."\narea = "K"\nprimary = true\n'


def _end(game: Game, statuses: dict[int, int], outcome: str) -> Game:
    """Finish a game by hand: each hero slot gets the given status (exited, corpse carried out...)."""
    for u, status in statuses.items():
        take_off(game, u)
        game.state.unit_status[u] = status
    game.finish(outcome, "set by the test")
    return game


def _end_by_the_rules(game: Game, statuses: dict[int, int], shrine_found: bool) -> Game:
    """Every hero exited or dead as given, room K visited or not, and the game ended as the
    engine's own rule (``objectives.ending``) says."""
    for u, status in statuses.items():
        take_off(game, u)
        game.state.unit_status[u] = status
    game.state.visited[game.tables.board.area_names.index("K")] = shrine_found
    game.finish(*ending(game))
    return game


@pytest.fixture(scope="module")
def shrine_campaign(tmp_path_factory) -> list[str]:
    """Two test-arena adventures whose primary goal is to reach room K; the first must also be walked
    out of, the second is the final one, whose primary goals may not need anyone to leave (A-55)."""
    folder = tmp_path_factory.mktemp("campaign")
    text = Path(ARENA).read_text() + "\n" + SHRINE
    escape = 'text = "Walk out at the far corner."\nprimary = true'
    assert escape in text
    paths = []
    for name, extra in (("shrine_first", ""), ("shrine_final", "\nfinal = true")):
        path = folder / f"{name}.toml"
        adventure = text.replace('id = "arena"', f'id = "{name}"{extra}')
        if extra:
            adventure = adventure.replace(escape, 'text = "Walk out at the far corner."')
        path.write_text(adventure)
        paths.append(str(path))
    assert not load_adventure(paths[0]).final and load_adventure(paths[1]).final
    return paths


def _at_final(adventures: list[str]) -> Campaign:
    campaign = Campaign(heroes=["bram", "sela", "hob"], adventures=adventures, seed=1)
    campaign.index = len(adventures) - 1
    return campaign


def _give(game: Game, u: int, card_id: str, known: bool = True) -> int:
    s = game.state
    slot = int(np.flatnonzero(s.item_card < 0)[0])
    s.item_card[slot] = game.item_index[card_id]
    s.item_holder[slot] = u
    s.item_known[slot] = known
    return slot


def _any_card(deck: str | None = None, revive: bool = False) -> str:
    for card in load_items().values():
        if revive and card.effect is not None and card.effect.kind == "revive":
            return card.id
        if not revive and (deck is None or card.deck == deck):
            return card.id
    raise AssertionError(f"items.toml has no card of deck {deck!r} (revive={revive})")


def test_campaign_order_ends_with_the_final_adventure():
    order = campaign_order()
    assert len(order) >= 3
    finals = [name for name in order if load_adventure(name).final]
    assert finals in ([], [order[-1]])


def test_R_CAMP_01_survivors_keep_items_and_memorized_spells_reset():
    card = _any_card("gear")
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    _give(game, 0, card)
    game.state.spell_known[1, :] = True  # as if sela had memorized every spell
    campaign.record(_end(game, {0: EXITED, 1: EXITED, 2: EXITED}, "completed"))
    assert campaign.inventories["bram"] == [(card, True)]
    nxt = campaign.next_game()
    assert nxt.tables.adventure.id == campaign_order()[1]
    held = [nxt.item_cards[int(c)].id for c in nxt.state.item_card[nxt.state.item_holder == 0]]
    assert held == [card]
    assert not nxt.state.spell_known[1].any()  # sela starts with no spells again


def test_R_CAMP_02_the_player_of_a_dead_hero_picks_an_unused_living_hero():
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    campaign.record(_end(game, {0: EXITED, 1: GONE, 2: EXITED}, "completed"), pick=lambda av: av[-1])
    roster = list(load_heroes())
    assert campaign.heroes[0] == "bram" and campaign.heroes[2] == "hob"
    assert campaign.heroes[1] == roster[-1] and "sela" in campaign.dead
    assert "sela" not in campaign.available() and "bram" not in campaign.available()
    with pytest.raises(ValueError, match="available heroes"):
        game = campaign.next_game()
        campaign.record(_end(game, {0: GONE, 1: EXITED, 2: EXITED}, "completed"), pick=lambda av: "sela")


def test_R_CAMP_03_a_revived_hero_becomes_available_again():
    revive = _any_card(revive=True)
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    _give(game, 0, revive)
    campaign.record(_end(game, {0: EXITED, 1: CORPSE_OUT, 2: EXITED}, "completed"))
    assert "sela" not in campaign.dead and campaign.heroes[1] == "sela"
    assert campaign.inventories["bram"] == []  # the Elixir was used up


def test_R_DEATH_05_a_corpse_left_inside_is_dead_for_good_and_its_gear_lost():
    card = _any_card("gear")
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    _give(game, 1, card)
    campaign.record(_end(game, {0: EXITED, 1: GONE, 2: EXITED}, "completed"))
    assert "sela" in campaign.dead and "sela" not in campaign.carried_out
    assert all(card_id != card for items in campaign.inventories.values() for card_id, _ in items)


def test_R_DEATH_05_a_corpse_carried_out_gives_its_gear_to_the_carrier_and_stays_revivable():
    card = _any_card("gear")
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    _give(game, 1, card)
    game.log({"type": "corpse_out", "unit": "hero_1", "carrier": "hero_2", "turn": 1})
    campaign.record(_end(game, {0: EXITED, 1: CORPSE_OUT, 2: EXITED}, "completed"))
    assert "sela" in campaign.carried_out
    assert (card, True) in campaign.inventories["hob"]


def test_R_CAMP_04_too_few_heroes_left_loses_the_campaign():
    campaign = Campaign(heroes=["bram", "sela", "hob", "tovar"], seed=1)
    campaign.dead = {h for h in load_heroes() if h not in ("bram", "sela", "hob", "tovar", "corvin")}
    game = campaign.next_game()
    campaign.record(_end(game, {0: GONE, 1: GONE, 2: EXITED, 3: EXITED}, "completed"))
    assert campaign.outcome == "lost"  # two dead, one hero left to pick


def test_R_CAMP_05_completing_the_final_adventure_wins_even_if_heroes_died(shrine_campaign):
    campaign = _at_final(shrine_campaign)
    campaign.dead = {h for h in load_heroes() if h not in ("bram", "sela", "hob")}  # no replacements left
    game = _end_by_the_rules(campaign.next_game(), {0: GONE, 1: GONE, 2: EXITED}, shrine_found=True)
    assert (game.outcome, game.goals_met) == ("completed", True)
    campaign.record(game)
    assert campaign.outcome == "won"


def test_A_55_a_party_that_dies_completing_the_final_adventure_wins_the_campaign(shrine_campaign):
    """The engine ends the final adventure as completed when the party met its goal and died doing it
    (A-55); the campaign takes that as won."""
    campaign = _at_final(shrine_campaign)
    game = campaign.next_game()
    game.state.visited[game.tables.board.area_names.index("K")] = True
    campaign.record(_end(game, {0: GONE, 1: GONE, 2: GONE}, "completed"))
    assert campaign.outcome == "won" and campaign.history[-1]["outcome"] == "completed"


def test_A_55_a_party_that_dies_without_the_final_goal_plays_it_again(shrine_campaign):
    campaign = _at_final(shrine_campaign)
    game = _end_by_the_rules(campaign.next_game(), {0: GONE, 1: GONE, 2: GONE}, shrine_found=False)
    assert game.outcome == "failed"
    campaign.record(game)
    assert campaign.outcome == "" and campaign.index == 1 and campaign.attempt == 1
    assert set(campaign.heroes).isdisjoint({"bram", "sela", "hob"})


def test_C_05_an_adventure_completed_without_its_goals_moves_the_campaign_on(shrine_campaign):
    campaign = Campaign(heroes=["bram", "sela", "hob"], adventures=shrine_campaign, seed=1)
    game = _end_by_the_rules(campaign.next_game(), {0: EXITED, 1: EXITED, 2: EXITED}, shrine_found=False)
    assert (game.outcome, game.goals_met) == ("completed", False)
    campaign.record(game)
    assert campaign.outcome == "" and (campaign.index, campaign.attempt) == (1, 0)
    assert campaign.next_game().tables.adventure.id == "shrine_final"
    entry = campaign.history[0]
    assert (entry["adventure"], entry["outcome"], entry["goals_met"]) == (
        shrine_campaign[0],
        "completed",
        False,
    )
    assert entry["objectives"] == [
        {"kind": "escape", "text": "Walk out at the far corner.", "primary": True, "met": True},
        {"kind": "reach", "text": "Find the shrine in room K.", "primary": True, "met": False},
    ]


def test_C_05_the_final_adventure_completed_without_its_goals_is_played_again(shrine_campaign):
    campaign = _at_final(shrine_campaign)
    first = _end_by_the_rules(campaign.next_game(), {0: EXITED, 1: EXITED, 2: EXITED}, shrine_found=False)
    assert (first.outcome, first.goals_met) == ("completed", False)
    campaign.record(first)
    assert campaign.outcome == "" and (campaign.index, campaign.attempt) == (1, 1)
    assert campaign.heroes == ["bram", "sela", "hob"]  # every hero survived: the same party goes back
    again = campaign.next_game()
    assert again.tables.adventure.id == "shrine_final" and again.seed != first.seed
    campaign.record(_end_by_the_rules(again, {0: EXITED, 1: EXITED, 2: EXITED}, shrine_found=True))
    assert campaign.outcome == "won"
    assert [(e["attempt"], e["goals_met"]) for e in campaign.history] == [(0, False), (1, True)]


def test_failed_adventure_is_played_again_by_the_new_party():
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    campaign.record(_end(game, {0: GONE, 1: GONE, 2: GONE}, "failed"))
    assert campaign.outcome == "" and campaign.index == 0 and campaign.attempt == 1
    assert set(campaign.heroes).isdisjoint({"bram", "sela", "hob"})
    again = campaign.next_game()
    assert again.tables.adventure.id == campaign_order()[0] and again.seed != game.seed


def test_R_CAMP_06_the_roster_is_finite_and_dead_heroes_are_not_replenished():
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    assert len(load_heroes()) == 10
    while not campaign.over:
        game = campaign.next_game()
        campaign.record(_end(game, {0: GONE, 1: GONE, 2: GONE}, "failed"))
    assert campaign.outcome == "lost"
    assert len(campaign.dead) == 9  # three parties of three, and one hero too few for a fourth
    assert len(campaign.history) == 3


def test_truncated_adventure_ends_the_campaign_as_truncated():
    campaign = Campaign(heroes=["bram", "sela", "hob"], seed=1)
    game = campaign.next_game()
    game.finish("truncated", "turn cap")
    campaign.record(game)
    assert campaign.outcome == "truncated"


def test_bad_campaign_options_are_rejected():
    with pytest.raises(ValueError, match="3-5"):
        Campaign(heroes=["bram", "sela"])
    with pytest.raises(ValueError, match="unknown"):
        Campaign(heroes=["bram", "sela", "nobody"])
    campaign = Campaign(heroes=["bram", "sela", "hob"])
    with pytest.raises(ValueError, match="finished game"):
        campaign.record(campaign.next_game())
