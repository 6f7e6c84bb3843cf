"""The rule systems the app knows, and the one interface each of them offers.

Built-in systems are listed in `sheet_app.systems.BUILT_IN` and imported the first time a sheet
of theirs is met. Third-party systems register under the ``sheet_app.systems`` entry-point
group; that group is searched only when a file names a system no built-in knows, so start-up
never pays for it. The window and the command line ask this module for a sheet's system and
build from what it declares; nothing outside ``sheet_app/systems/`` spells a system id.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from sheet_app.derived import RollMode
from sheet_app.systems import BUILT_IN

if TYPE_CHECKING:
    from sheet_app.derived import Derived
    from sheet_app.model import CharacterBase, Effect, Modifier
    from sheet_app.sheetspec import SheetSpec

ENTRY_POINT_GROUP = "sheet_app.systems"
Problem = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Condition:
    """A published condition: what an effect naming it (``"condition": "frightened"``) does.

    ``modifiers`` are built from the condition's value (frightened 2 is a -2 status penalty);
    rules beyond modifiers (exhaustion halving speed) live in the system's ``derive``.
    """

    key: str
    label: str
    summary: str
    max_value: int | None = None
    """``None``: the condition has no value (blinded); otherwise 1..max_value."""
    build: Any = None
    """``build(value) -> list[Modifier]``; ``None`` for conditions with no modifiers."""
    ends_turn_decrement: bool = False
    """The value drops by 1 at the end of each of your turns, and the condition ends at 0
    (pf2e frightened); see `sheet_app.hitpoints.end_of_turn`."""

    def modifiers(self, value: int | None) -> list[Modifier]:
        return [] if self.build is None else list(self.build(value or 1))

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "summary": self.summary,
            "max_value": self.max_value,
            "ends_turn_decrement": self.ends_turn_decrement,
            "modifiers_at_1": [m.model_dump(mode="json", exclude_none=True)
                               for m in self.modifiers(1)],
        }


@dataclass(frozen=True, slots=True)
class Facts:
    """What a system is made of, as data: the window's controls and the validator read it."""

    skills: Mapping[str, str]
    """skill key → the ability it uses, in the sheet's order."""
    saves: Mapping[str, str]
    """save key (the part after ``save:``) → the ability it uses."""
    ranks: tuple[str, ...]
    """Proficiency rank words, lowest first; empty where ranks are bought (d20srd)."""
    sizes: tuple[str, ...]
    modifier_types: tuple[str, ...]
    open_types: bool = False
    """5e-style systems name no stacking types: any snake_case word is a type."""
    favourable: RollMode | None = None
    unfavourable: RollMode | None = None
    four_degrees: bool = False
    """pf2e's critical success / success / failure / critical failure."""
    typical_dcs: tuple[tuple[str, int], ...] = ()
    conditions: Mapping[str, Condition] = field(default_factory=dict)
    ability_kind: Literal["score", "modifier"] = "score"
    weight_unit: Literal["kg", "lb", "bulk"] = "lb"
    has_ability_checks: bool = True
    skill_variants: bool = False
    """A skill may be rolled with another ability (``skill:athletics@con``)."""
    groups: tuple[str, ...] = ("check", "ability", "skill", "save", "attack", "ac",
                               "initiative", "speed", "damage", "spell_attack", "spell_dc")
    """Group targets a modifier of this system may name."""
    extra_targets: tuple[str, ...] = ()
    """Statistic ids beyond skills, saves and abilities that a modifier may target."""
    hints: Mapping[str, str] = field(default_factory=dict)
    """Ids a player may try that this system spells otherwise, with what to use instead
    (pf2e: ``skill:perception`` → ``perception``)."""
    presets: tuple[Mapping[str, Any], ...] = ()
    """Common effects offered by Add effect (spells, situations), as effect dicts with a
    ``tip``."""
    death_rule: Literal["dying", "death_saves", "negative_hp"] = "death_saves"
    """What happens at 0 hit points (`sheet_app.hitpoints`): pf2e's dying and wounded values,
    5e-style death saving throws, or the d20 SRD's disabled at 0, dying to -9, dead at -10."""

    roll_modes: tuple[RollMode, ...] = field(init=False)
    """The favourable and unfavourable modes the system has (none in d20srd)."""

    def __post_init__(self) -> None:
        modes = tuple(m for m in (self.favourable, self.unfavourable) if m is not None)
        object.__setattr__(self, "roll_modes", modes)


@runtime_checkable
class RuleSystem(Protocol):
    """One rule family: its model, facts, rules, sample and sheet description."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def facts(self) -> Facts: ...

    @property
    def model(self) -> type[CharacterBase]: ...

    def derive(self, character: CharacterBase, variants: Iterable[str] = ()) -> Derived: ...

    def sheet(self) -> SheetSpec: ...

    def new_character(self, name: str = "") -> CharacterBase: ...

    def sample(self) -> CharacterBase: ...

    def problems(self, character: CharacterBase) -> list[Problem]: ...

    def migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]: ...

    def suggest(self, stat_id: str) -> str | None: ...

    def condition_modifiers(self, effect: Effect) -> list[Modifier]: ...


class UnknownSystem(LookupError):
    def __init__(self, system: object) -> None:
        self.system = system
        super().__init__(f"unknown system {system!r} (known: {', '.join(known_ids())})")


_loaded: dict[str, RuleSystem] = {}
_plugins: dict[str, str] | None = None


def register(system: RuleSystem) -> None:
    """Make ``system`` known (tests and plug-ins; built-ins register themselves on import)."""
    _loaded[system.id] = system


def unregister(system_id: str) -> None:
    _loaded.pop(system_id, None)


def get(system_id: str) -> RuleSystem:
    """The system of that id; raises `UnknownSystem`."""
    system = _loaded.get(system_id)
    if system is not None:
        return system
    if isinstance(system_id, str) and system_id in BUILT_IN:
        module = importlib.import_module(BUILT_IN[system_id])
        system = module.SYSTEM
    else:
        system = _from_entry_points(system_id)
    if system is None:
        raise UnknownSystem(system_id)
    _loaded[system_id] = system
    return system


def is_known(system_id: object) -> bool:
    if not isinstance(system_id, str):
        return False
    try:
        get(system_id)
    except UnknownSystem:
        return False
    return True


def known_ids() -> tuple[str, ...]:
    """Built-in ids in their order, then any registered by hand (never searches plug-ins)."""
    extra = tuple(k for k in _loaded if k not in BUILT_IN)
    return (*BUILT_IN, *extra)


def all_systems() -> tuple[RuleSystem, ...]:
    return tuple(get(system_id) for system_id in known_ids())


def _from_entry_points(system_id: object) -> RuleSystem | None:
    global _plugins
    if not isinstance(system_id, str):
        return None
    if _plugins is None:
        from importlib.metadata import entry_points

        _plugins = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    target = _plugins.get(system_id)
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    try:
        loaded = getattr(importlib.import_module(module_name), attr or "SYSTEM")
    except Exception:  # a broken plug-in must not take the app down
        return None
    return loaded if isinstance(loaded, RuleSystem) else None
