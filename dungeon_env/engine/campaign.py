"""Campaigns (CAMP): adventures played in order by a party whose heroes, and the items they carry
out, last from one adventure to the next.

    campaign = Campaign(heroes=["bram", "sela", "orwin"], seed=3)
    while not campaign.over:
        game = campaign.next_game()
        while not game.over:
            game.apply(policy(game))
        campaign.record(game)
    print(campaign.outcome)            # "won", "lost" or "truncated"

Rulings (docs/RULINGS.md): the campaign moves on when an adventure is completed, its goals met or
not; a failed adventure is played again by the new party (C-01). The final adventure wins the
campaign only when it is completed with its primary goals met (also when every hero died doing it,
A-55); completed without them, it is played again like a failed one (C-05). Each ``history`` entry
records the adventure, the attempt, the outcome, every goal (``objectives``: ``{"kind", "text",
"primary", "met"}``), ``goals_met`` and the party. A truncated adventure ends the campaign as
"truncated", which is not a rules outcome (C-02). Items on a corpse carried out go to the hero who
carried it (C-03). After each adventure, a revive item (Elixir of Life, Holy Talisman) held by a
survivor is used on the first dead hero whose corpse left the dungeon (C-04).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from dungeon_env.content import adventure_names, load_adventure, load_heroes, load_items
from dungeon_env.content.variants import Variant
from dungeon_env.engine.actions import MAX_HEROES, MIN_HEROES
from dungeon_env.engine.game import Game
from dungeon_env.engine.state import CORPSE_OUT, EXITED

Carried = list[tuple[str, bool]]  # (item card id, identified)


@dataclass
class Campaign:
    heroes: list[str]
    adventures: list[str] = field(default_factory=list)
    seed: int = 0
    max_turns: int = 100
    variant: Variant | None = None  # the rules variant of every game (None: the rules as written)
    # --- progress ---
    index: int = 0  # the adventure being played
    attempt: int = 0  # attempts at it so far
    dead: set[str] = field(default_factory=set)  # heroes dead for good or awaiting revival
    carried_out: set[str] = field(default_factory=set)  # dead heroes whose corpse left the dungeon
    inventories: dict[str, Carried] = field(default_factory=dict)
    outcome: str = ""  # "", "won", "lost", "truncated"
    history: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        roster = load_heroes()
        if not (MIN_HEROES <= len(self.heroes) <= MAX_HEROES):
            raise ValueError(
                f"heroes: {len(self.heroes)} players; a campaign is for {MIN_HEROES}-{MAX_HEROES}"
            )
        unknown = [h for h in self.heroes if h not in roster]
        if unknown or len(set(self.heroes)) != len(self.heroes):
            raise ValueError(
                f"heroes: unknown {unknown} or repeated in {self.heroes}; roster: {list(roster)}"
            )
        self.adventures = list(self.adventures) or campaign_order()
        self.heroes = list(self.heroes)
        for hero in self.heroes:
            self.inventories.setdefault(hero, [])

    @property
    def over(self) -> bool:
        return bool(self.outcome)

    def available(self) -> list[str]:
        """Heroes a player may pick: alive (never dead, or revived) and not being played (A-54)."""
        return [h for h in load_heroes() if h not in self.dead and h not in self.heroes]

    def next_game(self) -> Game:
        if self.over:
            raise ValueError(f"the campaign is over ({self.outcome})")
        seed = _derive_seed(self.seed, self.index, self.attempt)
        carried = [list(self.inventories.get(h, [])) for h in self.heroes]
        return Game.new(
            adventure=self.adventures[self.index],
            heroes=self.heroes,
            seed=seed,
            max_turns=self.max_turns,
            carried=carried,
            variant=self.variant,
        )

    def record(self, game: Game, pick=None) -> None:
        """Take in a finished adventure: survivors keep what they carried out, the dead are replaced
        by ``pick(available) -> hero id`` (default: the first available), and the campaign is won,
        lost or goes on (R-CAMP-01..06, C-01, C-05)."""
        if not game.over:
            raise ValueError("record() needs a finished game")
        entry = {
            "adventure": self.adventures[self.index],
            "attempt": self.attempt,
            "outcome": game.outcome,
            "objectives": game.objectives(),
            "goals_met": game.goals_met,
            "heroes": list(self.heroes),
        }
        self.history.append(entry)
        if game.outcome == "truncated":
            self.outcome = "truncated"
            return
        final = load_adventure(self.adventures[self.index]).final or self.index == len(self.adventures) - 1
        self._take_survivors(game)
        self._revive()
        completed = game.outcome == "completed"
        if completed and final and _final_goal_met(game):
            self.outcome = "won"  # even if heroes died completing it (R-CAMP-05, A-55)
            return
        if not self._replace_dead(pick):
            self.outcome = "lost"  # not enough heroes for every player (R-CAMP-04)
            return
        if completed and not final:  # goals met or not (C-01)
            self.index += 1
            self.attempt = 0
        else:  # failed, or the final adventure completed without its primary goals (C-05)
            self.attempt += 1
        entry["next_party"] = list(self.heroes)

    def _take_survivors(self, game: Game) -> None:
        s = game.state
        cards = game.item_cards
        statuses = [int(s.unit_status[u]) for u in range(len(self.heroes))]
        for u, hero in enumerate(self.heroes):
            if statuses[u] == EXITED:
                self.inventories[hero] = _held(game, u, cards)
        for u, hero in enumerate(self.heroes):
            if statuses[u] == EXITED:
                continue
            self.dead.add(hero)
            self.inventories.pop(hero, None)
            if statuses[u] == CORPSE_OUT:
                self.carried_out.add(hero)
                carrier = _carrier_of(game, u)
                if carrier is not None:
                    self.inventories[self.heroes[carrier]] += _held(game, u, cards)

    def _revive(self) -> None:
        catalogue = load_items()
        for hero in [h for h in self.heroes if h in self.carried_out]:
            for owner, items in self.inventories.items():
                revive = next((i for i, (card, _) in enumerate(items) if _is_revive(catalogue, card)), None)
                if revive is not None and owner not in self.dead:
                    items.pop(revive)
                    self.dead.discard(hero)
                    self.carried_out.discard(hero)
                    self.inventories.setdefault(hero, [])
                    break

    def _replace_dead(self, pick) -> bool:
        for i, hero in enumerate(self.heroes):
            if hero not in self.dead:
                continue
            choices = self.available()
            if not choices:
                return False
            chosen = pick(choices) if pick else choices[0]
            if chosen not in choices:
                raise ValueError(f"pick returned {chosen!r}; available heroes: {choices}")
            self.heroes[i] = chosen
            self.inventories.setdefault(chosen, [])
        return True


def campaign_order() -> list[str]:
    """The bundled adventures in campaign order: by difficulty, the final adventure last."""
    names = adventure_names()
    return sorted(names, key=lambda n: (load_adventure(n).final, names.index(n)))


def _derive_seed(seed: int, index: int, attempt: int) -> int:
    digest = hashlib.sha256(f"campaign:{seed}:{index}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


def _final_goal_met(game: Game) -> bool:
    """A completed final adventure wins the campaign when its primary goals are met (C-05), or when
    the engine completed it with every hero dead: it does so only for a party that met the final
    goal and died doing it (A-55), whose ``escape`` goal cannot be met."""
    s = game.state
    gave_their_lives = not any(s.unit_status[h] == EXITED for h in range(s.n_heroes))
    return game.goals_met or gave_their_lives


def _held(game: Game, u: int, cards) -> Carried:
    s = game.state
    return [(cards[int(s.item_card[i])].id, True) for i in np.flatnonzero(s.item_holder == u)]


def _carrier_of(game: Game, corpse: int) -> int | None:
    name = game.label(corpse)
    for event in reversed(game.events):
        if event["type"] == "corpse_out" and event["unit"] == name:
            return game.unit_by_label(event["carrier"])
    return None


def _is_revive(catalogue, card_id: str) -> bool:
    card = catalogue.get(card_id)
    return card is not None and card.effect is not None and card.effect.kind == "revive"
