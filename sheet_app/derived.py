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

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "type": self.type,
            "value": self.value,
            "applied": self.applied,
            "reason": self.reason,
        }


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
        }


def _num(value: float | None) -> float | int | None:
    """Whole numbers print as integers in exports (56, not 56.0)."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 3)
