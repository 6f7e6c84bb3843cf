"""Rolling a derived `Statistic`, and the roll log saved with the character.

The roll panel and ``sheet-app roll`` both call `roll_statistic`, so a roll means the same
thing in the window and on the command line. `RollRecord` is what the file keeps: it lives
in `sheet_app.records`, which the model imports without pulling in dice and odds.

Dice-valued bonuses (Bless's ``+1d4``) are rolled with the check, each shown as its own
`BonusDie`, and the odds count them exactly. An effect that lasts ``until: "next_roll"``
(Guidance) is spent by the roll it changed: `spend_edits` switches it off and `roll_edit` puts
that in the same `edit.Batch` as the log entry, so one undo brings both back.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from sheet_app import dice, edit
from sheet_app.checks import (
    CheckOdds,
    ModeError,
    Outcome,
    ResolvedMode,
    check_odds,
    check_outcome,
    is_success,
    resolve_mode,
)
from sheet_app.derived import ModeSource, ModifierLine, RollMode, Statistic
from sheet_app.facts import MINUS, signed
from sheet_app.model import CharacterBase
from sheet_app.passive import (
    DICE_REASON,
    FLEETING_REASON,
    NEXT_ROLL,
    fleeting_sources,
    passive_lines,
    passive_mode_sources,
    passive_total,
)
from sheet_app.records import ModifierRecord, RollRecord

__all__ = [
    "DICE_REASON",
    "FLEETING_REASON",
    "FOLLOW_UP_TYPE",
    "ROLL_LOG_LIMIT",
    "AttackVerdict",
    "BonusDie",
    "CheckRoll",
    "ModeError",
    "ModifierRecord",
    "NotRollableError",
    "RollRecord",
    "append_record",
    "attack_verdict",
    "fleeting_sources",
    "follow_up_statistic",
    "format_log",
    "format_record",
    "passive_lines",
    "passive_mode_sources",
    "passive_total",
    "roll_edit",
    "roll_statistic",
    "spend_edits",
    "spent_effects",
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
    """Exact odds of each outcome for ``stat`` against ``dc``, before anyone rolls: the d20
    under the combined mode, the total modifier and every applied dice-valued bonus."""
    _check_rollable(stat)
    resolved = statistic_mode(stat, system, requested)
    return check_odds(system, stat.modifier, dc, resolved.mode, stat.bonus_dice)


@dataclass(frozen=True, slots=True)
class BonusDie:
    """One dice-valued bonus as rolled with a check: Bless's ``+1d4`` that came up 3."""

    label: str
    """The breakdown line it came from (the effect's name: ``Bless``)."""
    expression: str
    """Signed, as on the line: ``+1d4``, ``-1d4`` (Bane), ``+2d6+1``."""
    faces: tuple[int, ...]
    """Every die rolled for it, as rolled."""
    value: int
    """What it added to the total (negative for a penalty)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "expression": self.expression,
            "dice": list(self.faces),
            "value": self.value,
        }


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
    """``natural + total_modifier`` plus every bonus die's value."""
    dc: int | None = None
    outcome: Outcome | None = None
    bonus: tuple[BonusDie, ...] = ()
    """The dice-valued bonuses rolled with the d20, in breakdown order."""

    def to_json(self) -> dict[str, Any]:
        """The fields CONTRACT.md fixes for ``roll --json``; with dice-valued bonuses also
        ``bonus_dice`` (each bonus's label, expression, dice and value), which ``total``
        includes. ``dice`` and ``natural`` stay the d20's."""
        out: dict[str, Any] = {
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
        if self.bonus:
            out["bonus_dice"] = [b.to_json() for b in self.bonus]
        return out

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
            tuple((b.value, b.expression) for b in self.bonus),
        )


def roll_statistic(
    stat: Statistic,
    system: str,
    rng: random.Random,
    *,
    mode: RollMode = "normal",
    dc: int | None = None,
) -> CheckRoll:
    """Roll d20 + ``stat``'s total modifier + its dice-valued bonuses with the combined mode;
    judge it against ``dc``.

    Every die comes from ``rng`` (the d20s first, then each bonus in breakdown order), so one
    seed reproduces the roll. A natural 20 or 1 is the d20's alone. Raises `ModeError` for a
    mode ``system`` does not have and `NotRollableError` for AC-like statistics.
    """
    _check_rollable(stat)
    resolved = statistic_mode(stat, system, mode)
    rolled = dice.roll(_D20[resolved.mode], rng).terms[0]
    natural = rolled.kept_rolls[0]
    bonus = tuple(_roll_bonus(line, rng) for line in stat.modifiers if line.applied and line.dice)
    total = natural + stat.modifier + sum(b.value for b in bonus)
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
        bonus=bonus,
    )


def _roll_bonus(line: ModifierLine, rng: random.Random) -> BonusDie:
    assert line.dice is not None
    rolled = dice.roll(line.dice, rng)
    return BonusDie(line.label, line.dice, rolled.rolls, rolled.total)


def _check_rollable(stat: Statistic) -> None:
    if not stat.rollable:
        raise NotRollableError(
            f"{stat.label} is not rolled: it is the DC others roll against ({stat.total})"
        )


# --- effects spent by a roll ("until": "next_roll") ----------------------------------------


def spent_effects(character: CharacterBase, stat: Statistic) -> list[int]:
    """Indexes in ``character.effects`` of the active effects lasting until the next roll
    that a roll of ``stat`` spends: those (by effect name) with an applied line in its
    breakdown or a roll-mode source on it. A roll of something they don't touch spends none."""
    touched = {line.source for line in stat.modifiers if line.applied and line.source}
    touched.update(source.label for source in stat.mode_sources)
    return [
        i for i, effect in enumerate(character.effects)
        if effect.active and effect.until == NEXT_ROLL and effect.name in touched
    ]


def spend_edits(character: CharacterBase, stat: Statistic) -> list[edit.Set]:
    """The edits that switch off what a roll of ``stat`` spends (see `spent_effects`)."""
    return [edit.Set(("effects", i, "active"), False) for i in spent_effects(character, stat)]


def roll_edit(
    character: CharacterBase,
    stat: Statistic,
    record: RollRecord,
    limit: int = ROLL_LOG_LIMIT,
) -> edit.Batch:
    """One undo step for a roll of ``stat``: ``record`` appended to the roll log and every
    effect the roll spent switched off (`edit.apply` it; undo restores both together)."""
    log = append_record(_records(character.roll_log), record, limit)
    logged = edit.Set(("roll_log",), [r.model_dump(mode="json") for r in log])
    return edit.Batch((logged, *spend_edits(character, stat)))


def _records(log: Iterable[Any]) -> list[RollRecord]:
    return [r if isinstance(r, RollRecord) else RollRecord.model_validate(r) for r in log]


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
        _record_bonus(record),
    )
    return f"{_wall_clock(record.time)}  {body}"


def _record_bonus(record: RollRecord) -> tuple[tuple[int, str], ...]:
    """The bonus dice a record keeps (``bonus_dice``, an extra key); anything malformed in
    a hand-edited file is skipped rather than breaking the log."""
    kept = (record.model_extra or {}).get("bonus_dice")
    if not isinstance(kept, list):
        return ()
    out = []
    for item in kept:
        if isinstance(item, dict):
            value, expression = item.get("value"), item.get("expression")
            if type(value) is int and isinstance(expression, str):
                out.append((value, expression))
    return tuple(out)


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
    bonus: Sequence[tuple[int, str]] = (),
) -> str:
    head = label if mode == "normal" else f"{label} ({mode})"
    faces = f"{', '.join(map(str, rolled))} → {natural}" if len(rolled) > 1 else str(natural)
    extra = "".join(f" {value:+d}[{_unsigned(expression)}]" for value, expression in bonus)
    line = f"{head}: {faces} {total_modifier:+d}{extra} = {total}"
    if dc is not None:
        line += f" vs DC {dc}"
    if outcome is not None:
        line += f" — {outcome.replace('_', ' ')}"
    return line


def _unsigned(expression: str) -> str:
    """``+1d4`` → ``1d4``; ``-1d4`` → ``1d4`` too (its value is shown signed), but ``-1d6+1``
    stays as it is, since dropping the sign would change it."""
    body = expression[1:] if expression[:1] in "+-" else expression
    if expression.startswith("-") and ("+" in body or "-" in body):
        return expression
    return body


def _iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def _wall_clock(time: str) -> str:
    """The recorded local time, not converted: the log reads as the table experienced it."""
    try:
        return datetime.fromisoformat(time).strftime("%Y-%m-%d %H:%M")
    except ValueError:  # a record built with model_construct skipped validation
        return time


# --- weapon attacks ------------------------------------------------------------------------

FOLLOW_UP_TYPE = "multiple_attack"
"""The breakdown type of a later attack's penalty (read "Multiple attack")."""


def follow_up_statistic(stat: Statistic, follow_up: int) -> Statistic:
    """``stat`` rolled as its ``follow_up``-th later attack of the turn (1 = the first of
    ``stat.follow_ups``): the penalty is one more breakdown line (``2nd Strike −5``) and in
    the total, and the label says which attack it is (``Longsword, 2nd Strike``). 0, or a
    later attack the statistic no longer has, is ``stat`` itself."""
    if not 0 < follow_up <= len(stat.follow_ups):
        return stat
    name, penalty = stat.follow_ups[follow_up - 1]
    line = ModifierLine(name, FOLLOW_UP_TYPE, penalty)
    return replace(stat, label=f"{stat.label}, {name}", total=stat.total + penalty,
                   modifiers=(*stat.modifiers, line))


@dataclass(frozen=True, slots=True)
class AttackVerdict:
    """What an attack roll means for a critical hit, and what the panel offers next."""

    note: str
    """"Critical threat", "Critical hit", "Critical hit confirmed"…; empty for none."""
    confirm: bool = False
    """Offer *Confirm*: a threat the system wants confirmed and not yet confirmed."""
    critical: bool | None = False
    """Whether the damage is critical; ``None`` when the panel can't tell (no DC)."""
    good: bool = True
    """Whether the note is good news (coloured as a success)."""


def attack_verdict(
    result: CheckRoll, stat: Statistic, four_degrees: bool,
    confirmation: CheckRoll | None = None,
) -> AttackVerdict:
    """The critical-hit reading of an attack ``result`` of ``stat``.

    Where a threat must be confirmed (``stat.confirm``), a natural roll of ``stat.threat`` or
    more that hits (a natural 20 always does) threatens, and ``confirmation``, rolled against
    the same DC, confirms it if it hits. Otherwise: with degrees of success a critical success
    is a critical hit; without them a natural roll in the threat range is one."""
    threat = stat.threat if stat.threat is not None else 21
    natural = result.natural
    if stat.confirm:
        hits = result.outcome is None or is_success(result.outcome) or natural == 20
        if natural < threat or not hits:
            return AttackVerdict("")
        if confirmation is None:
            return AttackVerdict(f"Critical threat (natural {natural}): confirm it",
                                 confirm=True, critical=False)
        rolled = (f"{confirmation.natural} {signed(confirmation.total_modifier, MINUS)} = "
                  f"{confirmation.total}")
        if confirmation.outcome is None:
            return AttackVerdict(f"Confirmation {rolled}: a critical hit if that hits",
                                 critical=None)
        if is_success(confirmation.outcome) or confirmation.natural == 20:
            return AttackVerdict(f"Critical hit confirmed: {rolled}", critical=True)
        return AttackVerdict(f"Critical hit not confirmed: {rolled}", critical=False,
                             good=False)
    if four_degrees:
        if result.outcome is None:  # no DC: the player judges
            return AttackVerdict("", critical=None)
        if result.outcome == "critical_success":
            return AttackVerdict("Critical hit", critical=True)
        return AttackVerdict("")
    if natural >= threat:
        return AttackVerdict(f"Critical hit (natural {natural})", critical=True)
    return AttackVerdict("")
