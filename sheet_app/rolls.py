"""Rolling a derived `Statistic`, and the roll log saved with the character.

The roll panel and ``sheet-app roll`` both call `roll_statistic`, so a roll means the same
thing in the window and on the command line. `RollRecord` is what the file keeps: it lives here,
in `sheet_app.records`, which the model imports without pulling in dice and odds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

from sheet_app import dice
from sheet_app.checks import (
    CheckOdds,
    ModeError,
    Outcome,
    ResolvedMode,
    check_odds,
    check_outcome,
    resolve_mode,
)
from sheet_app.derived import ModeSource, ModifierLine, RollMode, Statistic
from sheet_app.records import ModifierRecord, RollRecord

__all__ = [
    "ROLL_LOG_LIMIT",
    "CheckRoll",
    "ModeError",
    "ModifierRecord",
    "NotRollableError",
    "RollRecord",
    "append_record",
    "format_log",
    "format_record",
    "roll_statistic",
    "statistic_mode",
    "statistic_odds",
]

ROLL_LOG_LIMIT = 200
"""Rolls kept in a character file: enough for a long session, small enough to stay readable."""

_D20: MappingProxyType[RollMode, dice.DiceExpression] = MappingProxyType(
    {
        "normal": dice.parse("1d20"),
        "advantage": dice.parse("2d20kh1"),
        "fortune": dice.parse("2d20kh1"),
        "disadvantage": dice.parse("2d20kl1"),
        "misfortune": dice.parse("2d20kl1"),
    }
)


class NotRollableError(ValueError):
    """The statistic is a DC others roll against (AC), not a check its owner rolls."""


# --- rolling -------------------------------------------------------------------------------


def statistic_mode(stat: Statistic, system: str, requested: RollMode = "normal") -> ResolvedMode:
    """The mode ``stat`` is rolled with when the player asks for ``requested``.

    Combines the raw ``mode_sources`` rather than ``roll_mode``: after cancelling, a normal
    ``roll_mode`` cannot tell "nothing asked" from "advantage and disadvantage met", and only the
    second stays normal when the player adds advantage. A ``roll_mode`` with no source listed
    (a rules engine that fills only the summary) still counts, as a source named "the sheet".
    """
    sources = list(stat.mode_sources)
    if stat.roll_mode != "normal" and all(s.mode != stat.roll_mode for s in sources):
        sources.append(ModeSource(stat.roll_mode, "the sheet"))
    return resolve_mode(system, sources, requested)


def statistic_odds(
    stat: Statistic, system: str, dc: int, requested: RollMode = "normal"
) -> CheckOdds:
    """Exact odds of each outcome for ``stat`` against ``dc``, before anyone rolls."""
    _check_rollable(stat)
    resolved = statistic_mode(stat, system, requested)
    return check_odds(system, stat.modifier, dc, resolved.mode)


@dataclass(frozen=True, slots=True)
class CheckRoll:
    """One rolled check: every die, the kept one, the breakdown it was added to, the result."""

    statistic: str
    label: str
    system: str
    mode: RollMode
    """The mode actually rolled, after combining the sheet's sources with the request."""
    resolved: ResolvedMode
    dice: tuple[int, ...]
    natural: int
    modifiers: tuple[ModifierLine, ...]
    total_modifier: int
    total: int
    dc: int | None = None
    outcome: Outcome | None = None

    def to_json(self) -> dict[str, Any]:
        """Exactly the fields CONTRACT.md fixes for ``roll --json``."""
        return {
            "statistic": self.statistic,
            "label": self.label,
            "mode": self.mode,
            "dice": list(self.dice),
            "natural": self.natural,
            "modifiers": [line.to_json() for line in self.modifiers],
            "total_modifier": self.total_modifier,
            "total": self.total,
            "dc": self.dc,
            "outcome": self.outcome,
        }

    def to_record(self, when: datetime) -> RollRecord:
        """The log entry for this roll; ``when`` is passed in so rolling stays pure."""
        return RollRecord.model_validate({**self.to_json(), "time": _iso(when)})

    def summary(self) -> str:
        """The one-line form shared with the exported log (without the time)."""
        return _summary(
            self.label,
            self.mode,
            self.dice,
            self.natural,
            self.total_modifier,
            self.total,
            self.dc,
            self.outcome,
        )


def roll_statistic(
    stat: Statistic,
    system: str,
    rng: random.Random,
    *,
    mode: RollMode = "normal",
    dc: int | None = None,
) -> CheckRoll:
    """Roll d20 + ``stat``'s total modifier with the combined mode; judge it against ``dc``.

    Every die comes from ``rng``, so one seed reproduces the roll. Raises `ModeError` for a
    mode ``system`` does not have and `NotRollableError` for AC-like statistics.
    """
    _check_rollable(stat)
    resolved = statistic_mode(stat, system, mode)
    rolled = dice.roll(_D20[resolved.mode], rng).terms[0]
    natural = rolled.kept_rolls[0]
    total = natural + stat.modifier
    return CheckRoll(
        statistic=stat.id,
        label=stat.label,
        system=system,
        mode=resolved.mode,
        resolved=resolved,
        dice=rolled.rolls,
        natural=natural,
        modifiers=stat.modifiers,
        total_modifier=stat.modifier,
        total=total,
        dc=dc,
        outcome=None if dc is None else check_outcome(system, total, dc, natural),
    )


def _check_rollable(stat: Statistic) -> None:
    if not stat.rollable:
        raise NotRollableError(
            f"{stat.label} is not rolled: it is the DC others roll against ({stat.total})"
        )


# --- the roll log --------------------------------------------------------------------------


def append_record(
    log: Sequence[RollRecord], record: RollRecord, limit: int = ROLL_LOG_LIMIT
) -> list[RollRecord]:
    """A new log with ``record`` appended (oldest first), trimmed to the newest ``limit``."""
    if limit < 1:
        raise ValueError(f"a roll log keeps at least one roll, not {limit}")
    return [*log, record][-limit:]


def format_record(record: RollRecord) -> str:
    """One chat-ready line: ``2026-11-29 18:40  Stealth (advantage): 17, 5 → 17 +4 = 21 ...``;
    entries that are not checks (damage, hit points) carry their own words."""
    if record.natural is None:
        return f"{_wall_clock(record.time)}  {record.text or record.label}"
    body = _summary(
        record.label,
        record.mode,
        record.dice,
        record.natural,
        record.total_modifier,
        record.total,
        record.dc,
        record.outcome,
    )
    return f"{_wall_clock(record.time)}  {body}"


def format_log(log: Iterable[RollRecord]) -> str:
    """The log as plain text a player can paste into chat, one line per roll, oldest first."""
    return "\n".join(format_record(record) for record in log)


def _summary(
    label: str,
    mode: str,
    rolled: Sequence[int],
    natural: int,
    total_modifier: int,
    total: int,
    dc: int | None,
    outcome: str | None,
) -> str:
    head = label if mode == "normal" else f"{label} ({mode})"
    faces = f"{', '.join(map(str, rolled))} → {natural}" if len(rolled) > 1 else str(natural)
    line = f"{head}: {faces} {total_modifier:+d} = {total}"
    if dc is not None:
        line += f" vs DC {dc}"
    if outcome is not None:
        line += f" — {outcome.replace('_', ' ')}"
    return line


def _iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def _wall_clock(time: str) -> str:
    """The recorded local time, not converted: the log reads as the table experienced it."""
    try:
        return datetime.fromisoformat(time).strftime("%Y-%m-%d %H:%M")
    except ValueError:  # a record built with model_construct skipped validation
        return time
