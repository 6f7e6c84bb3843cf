"""What a passive counts: a passive is not a roll.

A passive (5e-style passive Perception, pf2e's Perception DC, d20srd's passive Listen and Spot)
is 10 + the check's modifiers, but only those that hold without a roll:

* dice-valued bonuses (Bless's +1d4) are rolled with a check, so a passive leaves them out
  (their line's value is 0 already; `passive_lines` shows them suppressed and says why);
* an effect that lasts ``until: "next_roll"`` (Guidance, Help, Sure Strike, a pf2e Aid) is
  spent by the next roll it changes, so it never counts toward a passive: neither its values
  nor the roll mode it asks for.

Pure functions over a derived `Statistic` and the names of the sheet's fleeting effects, so the
rules (the value) and the window (the breakdown) read one definition.
"""

from __future__ import annotations

from collections.abc import Collection

from sheet_app.derived import ModeSource, ModifierLine, Statistic
from sheet_app.model import CharacterBase

__all__ = [
    "DICE_REASON",
    "FLEETING_REASON",
    "NEXT_ROLL",
    "fleeting_sources",
    "passive_lines",
    "passive_mode_sources",
    "passive_total",
]

NEXT_ROLL = "next_roll"
"""The ``until`` of an effect spent by the next roll it changes."""
DICE_REASON = "a passive is not a roll: dice bonuses are left out"
FLEETING_REASON = "lasts until the next roll, so it doesn't count toward a passive"


def fleeting_sources(character: CharacterBase) -> frozenset[str]:
    """The names of the active effects that last until the next roll."""
    return frozenset(e.name for e in character.effects if e.active and e.until == NEXT_ROLL)


def passive_lines(
    stat: Statistic, fleeting_sources: Collection[str] = frozenset()
) -> tuple[ModifierLine, ...]:
    """``stat``'s breakdown as its passive counts it: every applied dice-valued line and every
    applied line of a fleeting effect (by effect name) shown not applied, with the reason.
    Lines already suppressed keep their own reason; the others are returned as they are."""
    out: list[ModifierLine] = []
    changed = False
    for line in stat.modifiers:
        reason = _left_out(line, fleeting_sources)
        if reason is None:
            out.append(line)
        else:
            out.append(ModifierLine(line.label, line.type, line.value, False, reason,
                                    line.source, line.dice))
            changed = True
    return tuple(out) if changed else stat.modifiers


def passive_total(stat: Statistic, fleeting_sources: Collection[str] = frozenset()) -> int:
    """``stat``'s total without what a passive leaves out (add 10 for the passive): the total
    of `passive_lines`. Dice lines are worth 0 already, so only fleeting values come off."""
    if not fleeting_sources:
        return stat.total
    return stat.total - sum(
        line.value for line in stat.modifiers
        if line.applied and line.source is not None and line.source in fleeting_sources
    )


def passive_mode_sources(
    stat: Statistic, fleeting_sources: Collection[str] = frozenset()
) -> tuple[ModeSource, ...]:
    """The mode sources a passive keeps: all but those of fleeting effects (Help's advantage
    is for the next check, not for a 5e passive's +5)."""
    if not fleeting_sources:
        return stat.mode_sources
    return tuple(s for s in stat.mode_sources if s.label not in fleeting_sources)


def _left_out(line: ModifierLine, fleeting: Collection[str]) -> str | None:
    if not line.applied:
        return None
    if line.dice:
        return DICE_REASON
    if line.source is not None and line.source in fleeting:
        return FLEETING_REASON
    return None


def passive_base(stat: Statistic, fleeting_sources: Collection[str] = frozenset()) -> int:
    """A passive before any roll mode's shift: 10 + `passive_total`."""
    return 10 + passive_total(stat, fleeting_sources)
