"""The immutable snapshot that ``derive(character)`` returns.

Every number the sheet shows is here, each with its breakdown: the modifiers that touched it,
applied or suppressed, with the reason a suppressed one lost. The window diffs two snapshots and
repaints only what changed, so everything here compares by value (frozen dataclasses, tuples).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

RollMode = Literal["normal", "advantage", "disadvantage", "fortune", "misfortune"]
Outcome = Literal["critical_success", "success", "failure", "critical_failure"]
CarryState = Literal["unencumbered", "encumbered", "heavily_encumbered", "over_capacity"]


def frozen_map(items: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """A read-only view of a fresh dict (snapshots must not be edited in place)."""
    return MappingProxyType(dict(items or {}))


@dataclass(frozen=True, slots=True)
class ModifierLine:
    """One contribution to a number: where it came from, its type and value, and its fate."""

    label: str
    type: str
    value: int
    applied: bool = True
    reason: str | None = None
    source: str | None = None
    """The effect name for effect modifiers (same source = same name); ``None`` for built-ins."""
    dice: str | None = None
    """A dice-valued bonus (``+1d4``): rolled with the check, so ``value`` is 0."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "type": self.type,
            "value": self.value,
            "applied": self.applied,
            "reason": self.reason,
        }
        if self.dice is not None:
            out["dice"] = self.dice
        return out


@dataclass(frozen=True, slots=True)
class ModeSource:
    """An effect (or a rule, like heavy encumbrance) that changes how a check is rolled."""

    mode: RollMode
    label: str


@dataclass(frozen=True, slots=True)
class Statistic:
    """A rollable or DC-like number: a skill, a save, AC, initiative, an attack.

    ``total`` is ``base`` plus the applied modifiers; ``base`` is 0 for checks and 10 for AC
    and other DC-like values. ``roll_mode`` is the mode the sheet itself imposes (effects,
    encumbrance) after the system's cancelling rules; ``mode_sources`` lists what asked for it.
    """

    id: str
    label: str
    total: int
    modifiers: tuple[ModifierLine, ...]
    roll_mode: RollMode = "normal"
    mode_sources: tuple[ModeSource, ...] = ()
    base: int = 0
    ability: str | None = None
    rollable: bool = True
    notes: tuple[str, ...] = ()
    follow_ups: tuple[tuple[str, int], ...] = ()
    """Later attacks of a turn and their penalty: pf2e's multiple attack penalty (("2nd
    Strike", -5), ("3rd Strike", -10)) or d20srd's iterative attacks (("2nd attack", -5))."""
    threat: int | None = None
    """For a weapon's attack: the lowest natural roll that threatens a critical hit."""
    confirm: bool = False
    """Whether a threat must be confirmed by a second roll (d20srd)."""

    @property
    def bonus_dice(self) -> tuple[str, ...]:
        """The applied dice-valued bonuses (``+1d4``), rolled with the check."""
        return tuple(line.dice for line in self.modifiers if line.applied and line.dice)

    @property
    def modifier(self) -> int:
        """The total modifier added to the d20 (the sum of the applied lines)."""
        return self.total - self.base

    @property
    def dc(self) -> int:
        """The DC others roll against: 10 + the modifier for checks, the total for AC."""
        return self.total if self.base else 10 + self.total

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "total": self.total,
            "roll_mode": self.roll_mode,
            "modifiers": [line.to_json() for line in self.modifiers],
            "dc": self.dc,
            **({"follow_ups": [list(f) for f in self.follow_ups]} if self.follow_ups else {}),
            **({"threat": self.threat} if self.threat is not None else {}),
        }


CriticalRule = Literal["double_total", "double_dice", "multiply"]


@dataclass(frozen=True, slots=True)
class Damage:
    """A weapon's damage: its dice, the flat modifiers with their breakdown, dice-valued
    bonuses, and the system's rule for a critical hit and its minimum."""

    id: str
    label: str
    dice: str
    """The weapon's dice after runes (pf2e striking: ``2d8``)."""
    modifiers: tuple[ModifierLine, ...]
    critical: CriticalRule
    """pf2e doubles the total; 5e-style rolls every die twice; d20srd rolls ``multiplier``
    times, flat modifiers included, dice-valued bonuses once."""
    multiplier: int = 2
    minimum: int = 0
    damage_type: str = ""

    @property
    def flat(self) -> int:
        return sum(line.value for line in self.modifiers if line.applied)

    @property
    def bonus_dice(self) -> tuple[str, ...]:
        return tuple(line.dice for line in self.modifiers if line.applied and line.dice)

    @property
    def expression(self) -> str:
        """``2d8+4`` (with any dice bonus: ``1d8+1d4+3``)."""
        text = self.dice + "".join(d if d[0] in "+-" else f"+{d}" for d in self.bonus_dice)
        flat = self.flat
        return text + (f"{flat:+d}" if flat else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "expression": self.expression,
            "dice": self.dice,
            "modifiers": [line.to_json() for line in self.modifiers],
            "critical": self.critical,
            "multiplier": self.multiplier,
            "minimum": self.minimum,
            "damage_type": self.damage_type,
        }


@dataclass(frozen=True, slots=True)
class AbilityValue:
    """An ability: the entered ``base``, the ``score`` after ``score:`` modifiers, its modifier.

    For pf2e the attribute modifier is stored directly, so ``base``, ``score`` and ``modifier``
    are all modifiers. ``score`` is ``None`` for a creature with no such ability (d20srd Int —).
    """

    abbr: str
    label: str
    base: int | None
    score: int | None
    modifier: int
    breakdown: tuple[ModifierLine, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "score": self.score, "modifier": self.modifier}


@dataclass(frozen=True, slots=True)
class HitPoints:
    max: int
    breakdown: tuple[ModifierLine, ...]
    current: int
    temporary: int

    def to_json(self) -> dict[str, Any]:
        return {"max": self.max}


@dataclass(frozen=True, slots=True)
class Carrying:
    """Load carried against the system's limits, in ``unit`` (kg, lb or bulk)."""

    unit: str
    capacity: float
    push_drag_lift: float
    carried: float
    state: CarryState
    speed_penalty: int
    encumbered_above: float | None = None
    heavily_encumbered_above: float | None = None
    effects: tuple[str, ...] = ()
    """Plain-language consequences of the current state, for the encumbrance display."""

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "capacity": _num(self.capacity),
            "push_drag_lift": _num(self.push_drag_lift),
            "carried": _num(self.carried),
            "state": self.state,
            "speed_penalty": self.speed_penalty,
            "encumbered_above": _num(self.encumbered_above),
            "heavily_encumbered_above": _num(self.heavily_encumbered_above),
        }


@dataclass(frozen=True, slots=True)
class Speed:
    base: int
    total: int
    breakdown: tuple[ModifierLine, ...]


@dataclass(frozen=True, slots=True)
class Derived:
    """Everything computed from one character, as one immutable value."""

    system: str
    abilities: Mapping[str, AbilityValue]
    proficiency_bonus: int | None
    statistics: Mapping[str, Statistic]
    passive: Mapping[str, int]
    hit_points: HitPoints
    carrying: Carrying
    speed: Speed
    notes: tuple[str, ...] = field(default=())
    damage: Mapping[str, Damage] = field(default_factory=lambda: frozen_map())
    """``damage:<weapon>`` → its damage, one per weapon."""
    """Sheet-wide rulings a player should see (e.g. which of sacred/profane was kept)."""

    def statistic(self, stat_id: str) -> Statistic:
        return self.statistics[stat_id]

    def to_json(self) -> dict[str, Any]:
        return {
            "abilities": {k: v.to_json() for k, v in self.abilities.items()},
            "proficiency_bonus": self.proficiency_bonus,
            "statistics": {k: v.to_json() for k, v in self.statistics.items()},
            "passive": dict(self.passive),
            "hit_points": self.hit_points.to_json(),
            "carrying": self.carrying.to_json(),
            "speed": {"base": self.speed.base, "total": self.speed.total},
            "notes": list(self.notes),
            "damage": {k: v.to_json() for k, v in self.damage.items()},
        }


def _num(value: float | None) -> float | int | None:
    """Whole numbers print as integers in exports (56, not 56.0)."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 3)
