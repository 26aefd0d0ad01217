"""Decision routing: the one table of who lists the legal actions of each kind of decision, who
applies one, and who the candidates of a target choice are.

A pending decision is ``[kind, unit, a, b]`` (``state.STACK_*`` columns): its kind, the figure it is
about, and two ints of context whose meaning belongs to the kind (an item, a spell, a candidate
list's purpose...). The legal list (``legal``), the apply step (``apply``) and the observation
(``target_candidates``) all read the table below, so a decision is routed in one place only:

- A kind is a :class:`Route` of :class:`Part` s, one per mechanic that has a share in it: a
  hero's Movement is its steps (``movement``), hand-offs (``turn``), items, spells and abilities
  usable in Movement. The legal list is the union of the parts' lists, sorted; an action is applied
  by the part that owns it.
- ``HERO_ACT`` is asked in two phases: the Explore phase's actions, or the Trade phase's.
- ``CHOOSE_TARGET``'s ``a`` says what is being targeted (``TARGET_SPELL``...): the :class:`Targets`
  of that purpose list the candidates in ``TARGET_k`` order and apply the choice.
- A Mental Combat (``MENTAL_BID``) ends in the continuation of its purpose (``MENTAL_OUTCOMES``): a
  spell lands or fails, a Mind Lash hurts or not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dungeon_env.engine import abilities, combat, explore, items, mental, movement, spells, trade, traps, turn
from dungeon_env.engine.actions import (
    ABILITY_ACTIONS,
    BACK,
    DISARM_ACTIONS,
    DRAG_ACTIONS,
    END,
    EXTRA_MOVE,
    HANDOFF_0,
    HANDOFF_ACTIONS,
    ITEM_0,
    ITEM_ACTIONS,
    JUMP_ACTIONS,
    LOOT,
    MOVE_ACTIONS,
    N_ACTIONS,
    SPELL_ACTIONS,
    TARGET_0,
    TARGET_ABILITY,
    TARGET_GIVE,
    TARGET_ITEM,
    TARGET_LOOT,
    TARGET_SPELL,
    Decision,
    Moment,
    Phase,
)

if TYPE_CHECKING:
    from dungeon_env.engine.context import Context

Legal = Callable[["Context", int, int, int], list[int]]
Apply = Callable[["Context", int, int, int, int], None]


@dataclass(frozen=True)
class Part:
    """One mechanic's share of a decision: the actions it may offer, its legal list, its apply."""

    actions: Iterable[int]
    legal: Legal
    apply: Apply


@dataclass(frozen=True)
class Route:
    """A kind of decision made of parts whose actions do not overlap. Its legal list is the one
    part's list as it gives it, or the union of several parts' lists, sorted."""

    parts: tuple[Part, ...]
    owner: tuple[Part | None, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        owner: list[Part | None] = [None] * N_ACTIONS
        for part in self.parts:
            for action in part.actions:
                if owner[action] is not None:
                    raise ValueError(f"action {action} has two owners in one decision")
                owner[action] = part
        object.__setattr__(self, "owner", tuple(owner))

    def legal(self, g: Context, unit: int, a: int, b: int) -> list[int]:
        if len(self.parts) == 1:
            return self.parts[0].legal(g, unit, a, b)
        acts: list[int] = []
        for part in self.parts:
            acts += part.legal(g, unit, a, b)
        return sorted(acts)

    def apply(self, g: Context, unit: int, a: int, b: int, action: int) -> None:
        self.owner[action].apply(g, unit, a, b, action)


def _alone(legal: Legal, apply: Apply, actions: Iterable[int] = range(N_ACTIONS)) -> Route:
    return Route((Part(tuple(actions), legal, apply),))


# ------------------------------------------------------------------------ the shared parts of a turn


def _numbered(actions: tuple[int, ...], offered, pick, moment: Moment, progress: bool) -> Part:
    """The k-th of the hero's items, spells or abilities (``actions[k]``) picked at ``moment``; in
    the hero's own Movement or Evasion a pick counts as having acted there (``state.progress``)."""
    first = actions[0]

    def apply(g: Context, unit: int, a: int, b: int, action: int) -> None:
        if progress:
            g.state.progress = True
        pick(g, unit, action - first, moment)

    return Part(actions, lambda g, u, a, b: offered(g, u, moment), apply)


def _items(moment: Moment, progress: bool = False) -> Part:
    """ITEM_k: pick the k-th item to use it (then a verb, maybe a target)."""
    return _numbered(ITEM_ACTIONS, items.item_actions, items.pick_item, moment, progress)


def _spells(moment: Moment, progress: bool = False) -> Part:
    """SPELL_k: pick the k-th spell the hero knows."""
    return _numbered(SPELL_ACTIONS, spells.spell_actions, spells.pick_spell, moment, progress)


def _abilities(moment: Moment, progress: bool = False) -> Part:
    """ABILITY_k: use the k-th ability of the hero's card."""
    return _numbered(ABILITY_ACTIONS, abilities.ability_actions, abilities.use, moment, progress)


_HANDOFFS = Part(
    HANDOFF_ACTIONS,
    lambda g, u, a, b: turn.handoffs(g, u),
    lambda g, u, a, b, action: turn.handoff(g, action - HANDOFF_0),
)

HERO_MOVE = Route(
    (
        Part(
            (*MOVE_ACTIONS, *JUMP_ACTIONS, *DRAG_ACTIONS, EXTRA_MOVE, END),
            lambda g, u, a, b: movement.legal_hero_move(g, u),
            lambda g, u, a, b, action: movement.do_hero_move(g, u, action),
        ),
        _HANDOFFS,
        _items(Moment.MOVEMENT, progress=True),
        _spells(Moment.MOVEMENT, progress=True),
        _abilities(Moment.MOVEMENT, progress=True),
    )
)
HERO_EVADE = Route(
    (
        Part(
            (*MOVE_ACTIONS, END),
            lambda g, u, a, b: movement.legal_evade(g, u),
            lambda g, u, a, b, action: movement.do_evade(g, u, action),
        ),
        _HANDOFFS,
        _items(Moment.EVASION, progress=True),
        _abilities(Moment.EVASION, progress=True),
    )
)
EXPLORE_ACT = Route(
    (
        Part((END,), lambda g, u, a, b: [END], lambda g, u, a, b, action: explore.end_acts(g, u)),
        _items(Moment.EXPLORE),
        _spells(Moment.EXPLORE),
        _abilities(Moment.EXPLORE),
    )
)
TRADE_ACT = Route(
    (
        Part((END, LOOT), trade.legal_trade_act, trade.do_trade_act),
        Part(
            ITEM_ACTIONS,
            trade.giving_items,
            lambda g, u, a, b, action: items.pick_item(g, u, action - ITEM_0, Moment.TRADE),
        ),
    )
)


def _legal_act(g: Context, unit: int, a: int, b: int) -> list[int]:
    return (TRADE_ACT if g.state.phase == Phase.TRADE else EXPLORE_ACT).legal(g, unit, a, b)


def _act(g: Context, unit: int, a: int, b: int, action: int) -> None:
    (TRADE_ACT if g.state.phase == Phase.TRADE else EXPLORE_ACT).apply(g, unit, a, b, action)


# ---------------------------------------------------------------------------------- target choices


@dataclass(frozen=True)
class Targets:
    """The candidates of one purpose of CHOOSE_TARGET (``candidates(g, unit, b)``, in ``TARGET_k``
    order) and what choosing one does (``choose(g, unit, b, candidate)``); ``back``, if given, is
    an extra BACK action (change one's mind)."""

    candidates: Callable[[Context, int, int], list]
    choose: Callable[[Context, int, int, object], None]
    back: Callable[[Context, int, int], None] | None = None


TARGETS: dict[int, Targets] = {
    TARGET_SPELL: Targets(lambda g, u, sp: spells.targets(g, u, sp), spells.cast_at),
    TARGET_ITEM: Targets(lambda g, u, item: items.item_targets(g, u), items.finish_use),
    # giving an item away always offers BACK too (ruling D-08b)
    TARGET_GIVE: Targets(lambda g, u, item: trade.receivers(g, u), trade.give_to, back=items.decline),
    TARGET_LOOT: Targets(
        lambda g, u, b: trade.corpse_items(g, u), lambda g, u, b, found: trade.loot(g, u, found)
    ),
    TARGET_ABILITY: Targets(lambda g, u, k: abilities.targets(g, u), abilities.land_on),
}


def target_candidates(g: Context, unit: int, a: int, b: int) -> list:
    """The candidates of a CHOOSE_TARGET decision ``(unit, a, b)``: figures, or ``(corpse, item)``
    pairs for LOOT, in ``TARGET_k`` order."""
    return TARGETS[a].candidates(g, unit, b)


def _legal_target(g: Context, unit: int, a: int, b: int) -> list[int]:
    purpose = TARGETS[a]
    acts = [TARGET_0 + k for k in range(len(purpose.candidates(g, unit, b)))]
    return acts + [BACK] if purpose.back is not None else acts


def _target(g: Context, unit: int, a: int, b: int, action: int) -> None:
    purpose = TARGETS[a]
    if action == BACK:
        purpose.back(g, unit, b)
    else:
        purpose.choose(g, unit, b, purpose.candidates(g, unit, b)[action - TARGET_0])


# ---------------------------------------------------------------------------------- Mental Combat

MENTAL_OUTCOMES: dict[int, Callable[[Context, int, int, int], None]] = {
    mental.PURPOSE_SPELL: spells.after_mental,
    mental.PURPOSE_LASH: mental.lash_lands,
}


def _mental_bid(g: Context, unit: int, a: int, b: int, action: int) -> None:
    duel = mental.do_bid(g, unit, a, b, action)
    if duel is not None:
        purpose, aggressor, defender, result = duel
        MENTAL_OUTCOMES[purpose](g, aggressor, defender, result)


# ------------------------------------------------------------------------------------------ the table

ROUTES: dict[int, Route] = {
    Decision.HERO_MOVE: HERO_MOVE,
    Decision.HERO_EVADE: HERO_EVADE,
    Decision.MONSTER_MOVE: _alone(
        lambda g, u, a, b: movement.legal_monster_move(g, u),
        lambda g, u, a, b, action: movement.do_monster_move(g, u, action),
    ),
    Decision.FIGHT_STAMINA: _alone(
        lambda g, u, a, b: combat.legal_fight_stamina(g, u),
        lambda g, u, a, b, action: combat.do_fight_stamina(g, u, action),
    ),
    Decision.SPELL_SELECT: _alone(spells.legal_spell_select, spells.do_spell_select),
    Decision.CAST_WHILE_FIGHTING: _alone(spells.legal_cast_while_fighting, spells.do_cast_while_fighting),
    Decision.CAST_MODE: _alone(spells.legal_cast_mode, spells.do_cast_mode),
    Decision.CHOOSE_TARGET: _alone(_legal_target, _target),
    Decision.MENTAL_BID: _alone(mental.legal_bid, _mental_bid),
    Decision.EXPLORE_CHOICE: _alone(explore.legal_explore_choice, explore.do_explore_choice),
    Decision.EVENT_CHOICE: _alone(explore.legal_event_choice, explore.do_event_choice),
    Decision.CLAIM_ITEM: _alone(explore.legal_claim, explore.do_claim),
    Decision.HERO_ACT: _alone(_legal_act, _act),
    Decision.ITEM_VERB: _alone(items.legal_item_verb, items.do_item_verb),
    Decision.SPELL_VERB: _alone(spells.legal_spell_verb, spells.do_spell_verb),
    Decision.DISARM: _alone(traps.legal_disarm, traps.do_disarm, (*DISARM_ACTIONS, END)),
}


def _handler(route: Route) -> tuple[Legal, Apply]:
    """A route's legal and apply functions; a one-part route's own (no dispatch at play time)."""
    if len(route.parts) == 1:
        return route.parts[0].legal, route.parts[0].apply
    return route.legal, route.apply


HANDLERS: dict[int, tuple[Legal, Apply]] = {kind: _handler(route) for kind, route in ROUTES.items()}
"""``kind -> (legal, apply)``: what the game loop calls for the decision on top."""
