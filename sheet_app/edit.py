"""Edits to a character, without Qt: paths, validated changes, and what each change means.

An edit never touches the character it is given. `apply` builds a new character that shares
every untouched part with the old one and rebuilds (and so re-validates) each model on the
path, the character itself included, so its whole-sheet checks run on every edit. A refused
edit raises `EditRejected` and leaves nothing changed; an accepted one is a new value that an
undo step can swap in and out.

A path is a tuple of model field names (``"class_"``, not the alias), dict keys and list
indexes: ``("effects", 0, "modifiers", 1, "value")``. Reading an absent place gives `MISSING`;
writing `MISSING` removes a dict key (or an unknown key kept from a newer file).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from sheet_app.model import Problems
from sheet_app.sheetspec import ABSENT

Key = str | int
Path = tuple[Key, ...]
ChangeKind = Literal["set", "insert", "remove", "reset"]
MISSING: Any = ABSENT
"""An absent dict key (a skill never ranked), distinct from ``None`` (a d20srd Int of —)."""

MAX_LIST = 10_000
M = TypeVar("M", bound=BaseModel)


class EditRejected(ValueError):
    """An edit the model refused; the message names the field and is fit for a status bar."""


@dataclass(frozen=True, slots=True)
class Change:
    """What one edit did to the model: ``path`` names the field or list it touched."""

    kind: ChangeKind
    path: Path = ()
    index: int | None = None

    def touches(self, path: Path) -> bool:
        """Whether a widget bound to ``path`` may need refreshing after this change: the
        change is at, inside or above it (a whole list replaced touches every row)."""
        if self.kind == "reset":
            return True
        n = min(len(path), len(self.path))
        return path[:n] == self.path[:n]


@dataclass(frozen=True, slots=True)
class Set:
    """Put ``value`` at ``path`` (`MISSING` removes a dict key)."""

    path: Path
    value: Any


@dataclass(frozen=True, slots=True)
class Insert:
    """Insert ``item`` into the list at ``path`` before ``index`` (clamped to the list)."""

    path: Path
    index: int
    item: Any


@dataclass(frozen=True, slots=True)
class Remove:
    """Remove the element at ``index`` from the list at ``path``."""

    path: Path
    index: int


@dataclass(frozen=True, slots=True)
class Batch:
    """Several edits made as one (a roll that adds to the log and spends Guidance; damage
    that changes hit points and logs it): one undo step, all accepted or none."""

    steps: tuple[Set | Insert | Remove, ...]

    @property
    def path(self) -> Path:
        """The common path of the steps (``()`` when they touch different parts)."""
        paths = [step.path for step in self.steps]
        if not paths:
            return ()
        common = paths[0]
        for other in paths[1:]:
            n = 0
            while n < min(len(common), len(other)) and common[n] == other[n]:
                n += 1
            common = common[:n]
        return common


Edit = Set | Insert | Remove | Batch


# --- reading -------------------------------------------------------------------------------


def get_path(root: Any, path: Path) -> Any:
    """The value at ``path``; `MISSING` where there is nothing (an absent dict key, an
    unknown field, an index past the end, or a part of a value that has no parts)."""
    obj = root
    for key in path:
        obj = _child(obj, key)
        if obj is MISSING:
            return MISSING
    return obj


def _child(obj: Any, key: Key) -> Any:
    if isinstance(obj, BaseModel):
        name = str(key)
        if name in type(obj).model_fields:
            return getattr(obj, name)
        return (obj.model_extra or {}).get(name, MISSING)
    if isinstance(obj, dict):
        return obj.get(key, MISSING)
    if isinstance(obj, list) and isinstance(key, int) and 0 <= key < len(obj):
        return obj[key]
    return MISSING


# --- applying ------------------------------------------------------------------------------


def apply(character: M, edit: Edit) -> M:
    """A new character with ``edit`` made, validated as a whole; raises `EditRejected`.

    ``character`` is never changed, whether the edit is accepted or not. The value (or item)
    is copied in, so changing it afterwards can't reach the new character either."""
    if isinstance(edit, Batch):
        if not edit.steps:
            raise EditRejected("an edit needs at least one step")
        for step in edit.steps:
            character = apply(character, step)
        return character
    if not edit.path:
        raise EditRejected("an edit needs a path")
    given = edit.item if isinstance(edit, Insert) else getattr(edit, "value", None)
    if not _encodable(given):
        raise EditRejected(f"{dotted(edit.path)}: not valid Unicode text "
                           "(an unpaired surrogate), so it could not be saved")
    if isinstance(edit, Set):
        new_value = copy.deepcopy(edit.value)
    else:
        items = get_path(character, edit.path)
        if not isinstance(items, list):
            raise EditRejected(f"{dotted(edit.path)} is not a list")
        items = list(items)
        if isinstance(edit, Insert):
            if len(items) >= MAX_LIST:
                raise EditRejected(f"{dotted(edit.path)}: the list is full")
            items.insert(_clamp(edit.index, len(items)), copy.deepcopy(edit.item))
        else:
            if not 0 <= edit.index < len(items):
                raise EditRejected(f"{dotted(edit.path)}: nothing to remove at {edit.index}")
            del items[edit.index]
        new_value = items
    try:
        new = _replace(character, edit.path, new_value, ())
    except _Invalid as bad:
        raise EditRejected(first_message(bad.error, edit.path, bad.at)) from None
    except LookupError as exc:
        raise EditRejected(f"{dotted(edit.path)}: {exc.args[0]}") from None
    except (TypeError, ValueError) as exc:  # a validator that failed in an unusual way
        raise EditRejected(f"{dotted(edit.path)}: {exc}") from None
    assert isinstance(new, type(character))
    return new


def normalized(character: BaseModel, edit: Edit) -> Edit:
    """``edit`` as `apply` will make it: an insert's index clamped to the list's length."""
    if isinstance(edit, Insert):
        items = get_path(character, edit.path)
        if isinstance(items, list):
            return replace(edit, index=_clamp(edit.index, len(items)))
    return edit


def change_of(edit: Edit) -> Change:
    """The change ``edit`` makes (pass it through `normalized` first for an insert's row)."""
    if isinstance(edit, Batch):
        return Change("set", edit.path)
    if isinstance(edit, Set):
        return Change("set", edit.path)
    if isinstance(edit, Insert):
        return Change("insert", edit.path, edit.index)
    return Change("remove", edit.path, edit.index)


def inverse_change(edit: Edit) -> Change:
    """The change undoing ``edit`` makes: an insert's undo removes that row, and so on."""
    if isinstance(edit, Batch):
        return Change("set", edit.path)
    if isinstance(edit, Set):
        return Change("set", edit.path)
    if isinstance(edit, Insert):
        return Change("remove", edit.path, edit.index)
    return Change("insert", edit.path, edit.index)


def _encodable(value: Any) -> bool:
    """Whether every string in ``value`` can be written as UTF-8 (a file could not keep a
    lone surrogate, so the save would fail later instead of the edit now)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True


def _clamp(index: int, length: int) -> int:
    return max(0, min(index, length))


class _Invalid(Exception):
    """A model on the path refused its new value; ``at`` is where that model sits."""

    def __init__(self, error: ValidationError, at: Path) -> None:
        super().__init__(str(error))
        self.error = error
        self.at = at


def _replace(obj: Any, path: Sequence[Key], value: Any, at: Path) -> Any:
    """``obj`` with ``path`` set to ``value``: containers are copied, models re-validated.
    ``at`` is where ``obj`` sits in the character (for messages)."""
    if not path:
        return value
    key, rest = path[0], path[1:]
    here = (*at, key)
    if isinstance(obj, BaseModel):
        field = str(key)
        known = field in type(obj).model_fields
        extras = obj.model_extra or {}
        if not known and field not in extras:
            raise LookupError(f"{_name(at)} has no field {field!r}")
        inner = _replace(_child(obj, field), rest, value, here)
        if inner is MISSING and known:
            raise LookupError(f"{field!r} can't be removed, only changed")
        try:
            return _rebuilt(obj, field, inner)
        except ValidationError as exc:
            raise _Invalid(exc, at) from None
    if isinstance(obj, dict):
        out = dict(obj)
        if rest and key not in out:
            raise LookupError(f"{_name(at)} has no {key!r}")
        inner = _replace(out.get(key, MISSING), rest, value, here)
        if inner is MISSING:
            out.pop(key, None)
        else:
            out[key] = inner
        return out
    if isinstance(obj, list):
        if not isinstance(key, int) or isinstance(key, bool):
            raise LookupError(f"{_name(at)} is a list: {key!r} is not an index")
        if not 0 <= key < len(obj):
            raise LookupError(f"{_name(at)} has no item {key} (it has {len(obj)})")
        if value is MISSING and not rest:
            raise LookupError("a list item is removed with Remove, not set to MISSING")
        items = list(obj)
        items[key] = _replace(items[key], rest, value, here)
        return items
    raise LookupError(f"{_name(at)} has no parts")


def _name(at: Sequence[Key]) -> str:
    return dotted(at) or "the sheet"


def _rebuilt(model: BaseModel, field: str, value: Any) -> BaseModel:
    """A new model of ``model``'s type with ``field`` replaced (removed if `MISSING`),
    validated as a whole (its model validators run); its other fields are handed over as
    they are."""
    data = {name: getattr(model, name) for name in type(model).model_fields}
    data.update(model.model_extra or {})
    if value is MISSING:
        data.pop(field, None)
    else:
        data[field] = value
    return type(model).model_validate(data)


# --- describing ----------------------------------------------------------------------------


def dotted(path: Sequence[Key]) -> str:
    """``("class_",)`` → ``class``; ``("effects", 0, "name")`` → ``effects.0.name``."""
    return ".".join(str(k).rstrip("_") if isinstance(k, str) else str(k) for k in path)


def first_message(exc: ValidationError, path: Sequence[Key] = (), at: Sequence[Key] = ()) -> str:
    """The first problem of ``exc`` as ``where: message``.

    A whole-sheet check names its own place (the one under ``path`` if there are several).
    Otherwise pydantic's location is relative to the model that refused, which sits at
    ``at``: that full location is used when it lies under the edited ``path`` (a bad
    modifier inside a replaced effect), else the edited path itself (a model validator that
    looked at the whole model, like a level roll above the hit die)."""
    err = exc.errors(include_url=False)[0]
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, Problems):
        edited = dotted(path)
        found = cause.problems
        where, message = next(
            (p for p in found if edited and (p[0] == edited or p[0].startswith(edited + "."))),
            found[0],
        )
        return f"{where}: {message}" if where else message
    message = str(err["msg"]).removeprefix("Value error, ")
    full = (*at, *err["loc"])
    place = full if tuple(full[: len(path)]) == tuple(path) else tuple(path)
    if place and message.startswith(f"{place[-1]}: "):  # "str: 16 is a score ..."
        message = message[len(f"{place[-1]}: "):]
    where = dotted(place)
    return f"{where}: {message}" if where else message


def describe(edit: Edit) -> str:
    """Undo text: "Edit skill ranks hide", "Add to effects", "Remove from inventory"."""
    if isinstance(edit, Batch):
        return describe(edit.steps[0]) if len(edit.steps) == 1 else "Edit"
    words = [str(k).rstrip("_").replace("_", " ") for k in edit.path if not isinstance(k, int)]
    if isinstance(edit, Insert):
        return f"Add to {words[-1]}" if words else "Add"
    if isinstance(edit, Remove):
        return f"Remove from {words[-1]}" if words else "Remove"
    return "Edit " + " ".join(words[-2:]) if words else "Edit"


def same(a: Any, b: Any) -> bool:
    """Equal and of one type (1 and True differ; so do 2 and 2.0)."""
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # pragma: no cover - exotic values compare unequal
        return False
