"""Stacking: which candidate modifiers apply to one number, and why each loser lost.

Each policy takes the contributions to one statistic and returns one line per contribution,
in the given order, each applied or suppressed with a reason a player can read.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from sheet_app.derived import ModifierLine
from sheet_app.rules.common import Contribution, signed

BUILT_IN_TYPES = frozenset({"ability", "proficiency", "base", "ranks", "armor_check", "level"})
"""Types the sheet itself adds, one of each per number, so they never compete."""

PF2E_TYPED = frozenset({"circumstance", "item", "status"})
D20_STACKING_TYPES = frozenset({"dodge", "circumstance", "flanking", "mutation", "untyped"})
"""d20 SRD types that stack with their own type (unless from the same source)."""


def _describe(c: Contribution) -> str:
    return f"{signed(c.value)} {c.label}"


def _kind(value: int) -> str:
    return "bonus" if value > 0 else "penalty"


def _keep_best(
    items: Sequence[Contribution],
    group_of: Callable[[Contribution], Hashable | None],
    reason_for: Callable[[Contribution, Contribution], str],
    verdict: dict[int, str],
) -> None:
    """Within each group keep the best bonus and the worst penalty; record why others lose.

    ``verdict`` maps an item's position to the reason it lost, always naming the final winner
    (so a +1 never claims to lose to a +2 that itself lost to a +3). Ties keep the first
    listed. Reasons repeat across losers to one winner, so each is formatted once.
    """
    best: dict[tuple[Hashable, bool], int] = {}
    members: list[tuple[int, tuple[Hashable, bool]]] = []
    for i, c in enumerate(items):
        if c.value == 0 or i in verdict:
            continue
        group = group_of(c)
        if group is None:
            continue
        key = (group, c.value > 0)
        members.append((i, key))
        held = best.get(key)
        if held is None or abs(c.value) > abs(items[held].value):
            best[key] = i
    reasons: dict[tuple[int, bool], str] = {}
    for i, key in members:
        winner = best[key]
        if winner == i:
            continue
        tie = abs(items[i].value) == abs(items[winner].value)
        reason = reasons.get((winner, tie))
        if reason is None:
            reason = reasons[(winner, tie)] = reason_for(items[i], items[winner])
        verdict[i] = reason


def _type_reason(loser: Contribution, winner: Contribution) -> str:
    kind = _kind(loser.value)
    if abs(winner.value) == abs(loser.value):
        return f"an equal {winner.type} {kind} already applies ({_describe(winner)})"
    word = "higher" if kind == "bonus" else "worse"
    return f"a {word} {winner.type} {kind} applies ({_describe(winner)})"


_NO_SELF_STACK = "an effect doesn't stack with itself"


def _source_reason(loser: Contribution, winner: Contribution) -> str:
    if abs(winner.value) == abs(loser.value):
        return f"same source as {_describe(winner)}, which already applies ({_NO_SELF_STACK})"
    word = "higher" if loser.value > 0 else "worse"
    return f"same source: the {word} {_describe(winner)} applies ({_NO_SELF_STACK})"


def _lines(items: Sequence[Contribution], verdict: dict[int, str]) -> tuple[ModifierLine, ...]:
    if not verdict:
        return tuple(c.applied_line for c in items)
    return tuple(
        c.line(applied=False, reason=verdict[i]) if i in verdict else c.applied_line
        for i, c in enumerate(items)
    )


def _d20_type_group(c: Contribution) -> str | None:
    """The type a d20 modifier competes within, or None if it stacks freely. The sheet's own
    lines (ranks, the ability modifier) never compete; an effect's ``ability`` bonus does."""
    if c.type in D20_STACKING_TYPES or (c.source is None and c.type in BUILT_IN_TYPES):
        return None
    return c.type


def stack_pf2e(items: Sequence[Contribution]) -> tuple[ModifierLine, ...]:
    """Per type (circumstance, item, status) only the highest bonus and the worst penalty
    apply; a bonus and a penalty of one type both apply. Untyped modifiers all add up."""
    verdict: dict[int, str] = {}
    _keep_best(items, lambda c: c.type if c.type in PF2E_TYPED else None, _type_reason, verdict)
    return _lines(items, verdict)


def stack_runarcana(items: Sequence[Contribution]) -> tuple[ModifierLine, ...]:
    """5e-style: bonuses don't have stacking types; different effects add up, but the same
    effect twice (two effects with one name) counts once, the most potent instance."""
    verdict: dict[int, str] = {}
    _keep_best(items, lambda c: c.source, _source_reason, verdict)
    return _lines(items, verdict)


@dataclass(frozen=True, slots=True)
class D20Context:
    """Sheet-wide facts the d20 SRD stacking rules need for one statistic."""

    losing_side: str | None = None
    """``sacred`` or ``profane``: whose bonuses this character cannot benefit from."""
    losing_reason: str = ""
    has_intelligence: bool = True
    competence_allowed: bool = True
    competence_reason: str = ""


def stack_d20(
    items: Sequence[Contribution], context: D20Context = D20Context()
) -> tuple[ModifierLine, ...]:
    """Different types add up. The same type doesn't: the best bonus and the worst penalty
    apply, except dodge, circumstance, flanking (a kind of circumstance), mutation and untyped,
    which stack with themselves. Nothing stacks with the same source (the same spell twice)."""
    verdict: dict[int, str] = {}
    for i, c in enumerate(items):
        if c.value > 0 and c.type == context.losing_side:
            verdict[i] = context.losing_reason
        elif c.value > 0 and c.type == "morale" and not context.has_intelligence:
            verdict[i] = "a creature with no Intelligence can't benefit from morale bonuses"
        elif c.type == "competence" and not context.competence_allowed:
            verdict[i] = context.competence_reason
    _keep_best(
        items,
        lambda c: (c.source, c.type) if c.source is not None else None,
        _source_reason,
        verdict,
    )
    _keep_best(
        items,
        _d20_type_group,
        _type_reason,
        verdict,
    )
    return _lines(items, verdict)
