"""Stacking, the shared machinery: keep the best of a group, say why each loser lost.

Each system's policy (in its package) takes the contributions to one statistic and returns
one line per contribution, in the given order, each applied or suppressed with a reason a
player can read.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from sheet_app.derived import ModifierLine
from sheet_app.rules.common import Contribution, signed

BUILT_IN_TYPES = frozenset({"ability", "proficiency", "base", "ranks", "armor_check", "level"})
"""Types the sheet itself adds, one of each per number, so they never compete."""



def describe(c: Contribution) -> str:
    return f"{c.dice or signed(c.value)} {c.label}"


def kind_of(value: float) -> str:
    return "bonus" if value > 0 else "penalty"


def keep_best(
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
        if c.weight == 0 or i in verdict:
            continue
        group = group_of(c)
        if group is None:
            continue
        key = (group, c.weight > 0)
        members.append((i, key))
        held = best.get(key)
        if held is None or abs(c.weight) > abs(items[held].weight):
            best[key] = i
    reasons: dict[tuple[int, bool], str] = {}
    for i, key in members:
        winner = best[key]
        if winner == i:
            continue
        tie = abs(items[i].weight) == abs(items[winner].weight)
        reason = reasons.get((winner, tie))
        if reason is None:
            reason = reasons[(winner, tie)] = reason_for(items[i], items[winner])
        verdict[i] = reason


def type_reason(loser: Contribution, winner: Contribution) -> str:
    kind = kind_of(loser.weight)
    if abs(winner.weight) == abs(loser.weight):
        return f"an equal {winner.type} {kind} already applies ({describe(winner)})"
    word = "higher" if kind == "bonus" else "worse"
    return f"a {word} {winner.type} {kind} applies ({describe(winner)})"


NO_SELF_STACK = "an effect doesn't stack with itself"


def source_reason(loser: Contribution, winner: Contribution) -> str:
    if abs(winner.weight) == abs(loser.weight):
        return f"same source as {describe(winner)}, which already applies ({NO_SELF_STACK})"
    word = "higher" if loser.weight > 0 else "worse"
    return f"same source: the {word} {describe(winner)} applies ({NO_SELF_STACK})"


def verdict_lines(
    items: Sequence[Contribution], verdict: dict[int, str]
) -> tuple[ModifierLine, ...]:
    """One line per item: applied, or suppressed with the reason ``verdict`` gives it."""
    if not verdict:
        return tuple(c.applied_line for c in items)
    return tuple(
        c.line(applied=False, reason=verdict[i]) if i in verdict else c.applied_line
        for i, c in enumerate(items)
    )
