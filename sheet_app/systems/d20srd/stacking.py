"""The d20 SRD's stacking rules (seed 003, "Stacking" and the 24 bonus types)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sheet_app.derived import ModifierLine
from sheet_app.rules.common import Contribution
from sheet_app.rules.scores import INHERENT_CAP, cap_inherent_bonus
from sheet_app.rules.stacking import (
    BUILT_IN_TYPES,
    keep_best,
    source_reason,
    type_reason,
    verdict_lines,
)

SELF_STACKING_BONUSES = frozenset({"dodge", "circumstance", "flanking"})
"""Types whose *bonuses* stack with their own type (unless from the same source). The seed
names only dodge and circumstance bonuses (flanking is a circumstance bonus); their penalties
follow the general rule, and only the worst applies."""
SELF_STACKING = frozenset({"mutation", "untyped"})
"""Types whose bonuses and penalties both stack with their own type."""


@dataclass(frozen=True, slots=True)
class D20Context:
    """Sheet-wide facts the d20 SRD stacking rules need for one statistic."""

    losing_side: str | None = None
    """``sacred`` or ``profane``: whose bonuses this character cannot benefit from."""
    losing_reason: str = ""
    has_intelligence: bool = True
    """Judged on the effective Intelligence: 0 or none means no morale bonuses."""
    competence_allowed: bool = True
    competence_reason: str = ""


def type_group(c: Contribution) -> str | None:
    """The type a modifier competes within, or None if it stacks freely. The sheet's own
    lines (ranks, the ability modifier) never compete; an effect's ``ability`` bonus does."""
    if c.type in SELF_STACKING or (c.source is None and c.type in BUILT_IN_TYPES):
        return None
    if c.type in SELF_STACKING_BONUSES and c.weight > 0:
        return None
    return c.type


def stack_d20(
    items: Sequence[Contribution], context: D20Context = D20Context()
) -> tuple[ModifierLine, ...]:
    """Different types add up. The same type doesn't: the best bonus and the worst penalty
    apply, except dodge and circumstance bonuses (flanking too), mutation and untyped
    modifiers, which stack with themselves. Nothing stacks with the same source (the same
    spell twice). An inherent bonus counts at most +5 on any value."""
    verdict: dict[int, str] = {}
    capped = False
    for i, c in enumerate(items):
        if c.value > INHERENT_CAP and c.type == "inherent":
            capped = True
        elif c.weight > 0 and c.type == context.losing_side:
            verdict[i] = context.losing_reason
        elif c.weight > 0 and c.type == "morale" and not context.has_intelligence:
            verdict[i] = "a creature with no Intelligence can't benefit from morale bonuses"
        elif c.type == "competence" and not context.competence_allowed:
            verdict[i] = context.competence_reason
    if capped:
        items = [cap_inherent_bonus(c) for c in items]
    keep_best(
        items,
        lambda c: (c.source, c.type) if c.source is not None else None,
        source_reason,
        verdict,
    )
    keep_best(items, type_group, type_reason, verdict)
    return verdict_lines(items, verdict)
