"""A declarative description of a system's sheet: which sections, rows, fields and controls.

Each system's package builds one (``sheet()``); the window builds its widgets from it and
never asks which system it is showing. Bounds and defaults come from the system's pydantic
model (`bounds`), so the window can never offer a value the file would refuse.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Le
from pydantic import BaseModel

Path = tuple[str | int, ...]


class _Absent:
    """A dict entry that is not there (a skill never ranked), as a control's off value."""

    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number in a spin box."""

    path: Path
    label: str
    lo: int
    hi: int
    tip: str = ""
    none_text: str | None = None
    """Shown for ``null`` (a d20srd creature with no Int; proficiency "auto")."""
    missing: int | None = None
    """The value an absent dict entry stands for (0 ranks)."""
    suffix: str = ""
    step: int = 1


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a fixed list of values, each with its label."""

    path: Path
    label: str
    choices: tuple[tuple[Any, str], ...]
    tip: str = ""
    missing: Any = None
    """The value an absent dict entry stands for (``untrained``)."""
    role: Literal["plain", "rank", "hit_die"] = "plain"
    """``rank`` lines proficiency lists up; ``hit_die`` caps level rolls when lowered."""


@dataclass(frozen=True, slots=True)
class Toggle:
    """A check box: ``on`` when ticked, ``off`` (maybe `ABSENT`) when not."""

    path: Path
    label: str
    on: Any = True
    off: Any = False
    tip: str = ""


@dataclass(frozen=True, slots=True)
class Text:
    path: Path
    label: str
    placeholder: str = ""
    tip: str = ""


@dataclass(frozen=True, slots=True)
class NumberList:
    """Whole numbers separated by commas (hit die rolls at levels 2 and up)."""

    path: Path
    label: str
    lo: int
    hi: int
    placeholder: str = ""
    tip: str = ""


Control = Number | Choice | Toggle | Text | NumberList


@dataclass(frozen=True, slots=True)
class StatRowSpec:
    """A rollable statistic's row: its control (rank, ranks, base), name, total and die."""

    stat_id: str
    label: str
    control: Control | None = None
    ability: str | None = None
    spoken: str | None = None
    """The name a screen reader says when ``label`` leans on its section ("Strength save")."""


@dataclass(frozen=True, slots=True)
class PassiveSpec:
    key: str
    """The key in ``Derived.passive``."""
    label: str
    stat_id: str
    """The check behind it, shown when hovered."""


@dataclass(frozen=True, slots=True)
class AbilitiesSpec:
    title: str
    kind: Literal["score", "modifier"]
    inputs: Mapping[str, Number]
    """Ability abbreviation → its entry."""
    proficiency: Number | None = None
    """5e-style: the proficiency bonus override, beside the derived bonus."""


@dataclass(frozen=True, slots=True)
class SheetSpec:
    system_name: str
    header: tuple[Control, ...]
    abilities: AbilitiesSpec
    saves: tuple[StatRowSpec, ...]
    skills: tuple[StatRowSpec, ...]
    combat: tuple[StatRowSpec | Control, ...]
    """Rows and lone controls (weapon proficiency, base attack bonus) in order; the
    passives and speed sit after the first rows (`combat_split`)."""
    passives: tuple[PassiveSpec, ...]
    passive_prefix: str
    hit_points: tuple[Control, ...]
    armor: tuple[tuple[str, tuple[Control, ...]], ...]
    """Armor tab groups: (heading, controls)."""
    inventory_load: Literal["weight", "bulk"]
    load_unit: str
    load_options: tuple[Control, ...]
    """Choices beside the encumbrance bar (5e-style: variant encumbrance on or off)."""
    weapon_fields: tuple[Control, ...]
    """The weapon editor's fields beyond name, attack, damage and damage type; each path is
    relative to one weapon (``("potency",)``)."""
    modifier_types: tuple[str, ...]
    open_types: bool
    roll_modes: tuple[str, ...]
    side_choice: Choice | None = None
    """d20srd: which of sacred/profane bonuses the character keeps."""
    combat_split: int = 1
    defenses: tuple[tuple[str, str], ...] = (("ac", "AC"),)
    """(statistic id, caption) of the Defense box, the first one large."""
    presets: tuple[Mapping[str, Any], ...] = field(default=())
    typical_dcs: tuple[tuple[str, int], ...] = ()
    degrees: bool = False


# --- bounds from the model ---------------------------------------------------------------


def bounds(model: type[BaseModel], *path: str) -> tuple[int, int]:
    """The ``ge``/``le`` bounds of a field (``bounds(Model, "abilities", "str")``), or of
    the values of a dict or list field (``bounds(Model, "skill_ranks", "*")``)."""
    annotation: Any = model
    for part in path:
        if part == "*":
            annotation = _dict_value(annotation)
            continue
        owner = _model_of(annotation)
        info = owner.model_fields[part]
        if path[-1] == part:
            found = _bounds_of(info.metadata)
            if found is not None:
                return found
        annotation = info.annotation
    found = _bounds_of(_metadata(annotation))
    if found is None:
        raise LookupError(f"no bounds on {'.'.join(path)}")
    return found


def _model_of(annotation: Any) -> type[BaseModel]:
    for candidate in (annotation, *get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    raise LookupError(f"not a model: {annotation!r}")


def _dict_value(annotation: Any) -> Any:
    args = get_args(annotation)
    if get_origin(annotation) is dict and len(args) == 2:
        return args[1]
    if get_origin(annotation) is list and len(args) == 1:
        return args[0]
    raise LookupError(f"not a dict or list: {annotation!r}")


def _metadata(annotation: Any) -> list[Any]:
    if get_origin(annotation) is Annotated:
        return list(annotation.__metadata__)
    if get_origin(annotation) in (Union, types.UnionType):
        out: list[Any] = []
        for arg in get_args(annotation):
            out.extend(_metadata(arg))
        return out
    return []


def _bounds_of(metadata: list[Any]) -> tuple[int, int] | None:
    lo = hi = None
    for item in metadata:
        if isinstance(item, Ge):
            lo = int(item.ge)  # type: ignore[call-overload]
        elif isinstance(item, Le):
            hi = int(item.le)  # type: ignore[call-overload]
        else:
            inner = getattr(item, "metadata", None)
            if inner:
                found = _bounds_of(list(inner))
                if found:
                    return found
    if lo is None or hi is None:
        return None
    return lo, hi
