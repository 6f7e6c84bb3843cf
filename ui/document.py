"""The open character and the one command stream that changes it.

Every edit (a widget, an import, a roll added to the log, an undo) is a `QUndoCommand` pushed
here. Applying it changes the pydantic model in place, then ``derive`` runs once and the
document announces two things: what changed in the model (`edited`, for input widgets and
table models) and the old and new snapshots (`derivedChanged`, for derived widgets, which diff
them). Undo/redo, the modified mark and autosave all hang off the same `QUndoStack`.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from sheet_app.derived import Derived
from sheet_app.model import AnyCharacter
from sheet_app.rules import derive
from sheet_app.validation import semantic_problems

Key = str | int
Path_ = tuple[Key, ...]
ChangeKind = Literal["set", "insert", "remove", "reset"]

MAX_VARIANTS = 12
"""How many asked-for extra statistics stay live (each costs one more in every derive)."""

MERGE_WINDOW_S = 1.5
"""Edits of one field within this many seconds become one undo step (typing "18" is one edit)."""


class _Missing:
    """An absent dict key (a skill never ranked), distinct from ``None`` (a d20srd Int of —)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(frozen=True, slots=True)
class Change:
    """What one command did to the model: ``path`` names the field or list it touched."""

    kind: ChangeKind
    path: Path_ = ()
    index: int | None = None

    def touches(self, path: Path_) -> bool:
        """Whether a widget bound to ``path`` may need refreshing after this change."""
        if self.kind == "reset":
            return True
        n = min(len(path), len(self.path))
        return path[:n] == self.path[:n]


class EditRejected(ValueError):
    """An edit the model refused; the message is fit for the status bar."""


# --- paths into the model -----------------------------------------------------------------


def get_path(root: Any, path: Path_) -> Any:
    obj = root
    for key in path:
        if isinstance(obj, BaseModel):
            obj = getattr(obj, str(key))
        elif isinstance(obj, dict):
            obj = obj.get(key, MISSING)
        else:
            obj = obj[int(key)]
    return obj


def set_path(root: BaseModel, path: Path_, value: Any) -> None:
    """Set ``path`` to ``value``, validated by pydantic; the model is unchanged on failure.

    A dict entry or list element is replaced by assigning a new container to the owning
    field, so the field's validator sees it. Pydantic leaves a value in place when a model
    validator rejects it after assignment, so the old value is put back by hand.
    """
    if not path:
        raise ValueError("empty path")
    # Walk down to the last model on the path; what is below it is a container to copy.
    owner: BaseModel = root
    depth = 0
    obj: Any = root
    for i, key in enumerate(path[:-1]):
        obj = obj[int(key)] if isinstance(obj, list) else (
            obj[key] if isinstance(obj, dict) else getattr(obj, str(key))
        )
        if isinstance(obj, BaseModel):
            owner, depth = obj, i + 1
    field = str(path[depth])
    if depth == len(path) - 1:
        new_field_value = value
    else:
        new_field_value = _replaced(getattr(owner, field), path[depth + 1 :], value)
    old = owner.__dict__.get(field)
    try:
        setattr(owner, field, new_field_value)
    except ValidationError as exc:
        owner.__dict__[field] = old
        raise EditRejected(_first_message(exc)) from None


def _replaced(container: Any, path: Path_, value: Any) -> Any:
    """A shallow copy of ``container`` with ``path`` inside it set to ``value``."""
    key, rest = path[0], path[1:]
    if isinstance(container, dict):
        out_d = dict(container)
        inner = value if not rest else _replaced(out_d.get(key), rest, value)
        if inner is MISSING:
            out_d.pop(key, None)
        else:
            out_d[key] = inner
        return out_d
    out_l = list(container)
    out_l[int(key)] = value if not rest else _replaced(out_l[int(key)], rest, value)
    return out_l


def _first_message(exc: ValidationError) -> str:
    err = exc.errors(include_url=False)[0]
    message = str(err["msg"]).removeprefix("Value error, ")
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {message}" if where else message


# --- the document -------------------------------------------------------------------------


class CharacterDocument(QObject):
    """One character, its derived snapshot, its file and its undo stack."""

    edited = Signal(object)
    """A `Change`: what the last command (or undo) did to the model."""
    derivedChanged = Signal(object, object)
    """(old `Derived`, new `Derived`), after every change."""
    replaced = Signal()
    """A different character (New, Open, Import, or undoing an Import): rebind everything."""
    rejected = Signal(str)
    """An edit the model refused; the message says why."""
    pathChanged = Signal()

    def __init__(self, character: AnyCharacter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._character = character
        self._variants: tuple[str, ...] = ()
        self._derived = derive(character)
        self._path: Path | None = None
        self.undo_stack = QUndoStack(self)

    # --- state ---------------------------------------------------------------------------
    @property
    def character(self) -> AnyCharacter:
        return self._character

    @property
    def derived(self) -> Derived:
        return self._derived

    @property
    def system(self) -> str:
        return self._character.system

    @property
    def path(self) -> Path | None:
        return self._path

    def set_path(self, path: Path | None) -> None:
        self._path = path
        self.pathChanged.emit()

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()

    def request_variant(self, stat_id: str) -> bool:
        """Ask the engine for a statistic beyond the sheet's own (runarcana's skill with
        another ability, ``skill:athletics@con``); it then stays live like any other. False
        if the system has no such statistic."""
        if stat_id in self._derived.statistics:
            return True
        variants = (*self._variants, stat_id)[-MAX_VARIANTS:]
        derived = derive(self._character, variants)
        if stat_id not in derived.statistics:
            return False
        old, self._variants, self._derived = self._derived, variants, derived
        self.derivedChanged.emit(old, derived)
        return True

    def value(self, path: Path_) -> Any:
        return get_path(self._character, path)

    # --- commands ------------------------------------------------------------------------
    def set(
        self, path: Path_, value: Any, text: str | None = None, *, merge: bool = True
    ) -> bool:
        """Push one edit of ``path``; False (and `rejected`) if the model refuses it.

        Quick successive edits of one field merge into one undo step unless ``merge`` is
        off (each roll is its own step)."""
        old = self.value(path)
        if old is not MISSING and _same(old, value):
            return True
        command = SetValueCommand(self, path, old, value, text or _describe(path))
        command.mergeable = merge
        return self._push(command)

    def insert(self, list_path: Path_, index: int, item: Any, text: str) -> bool:
        return self._push(ListInsertCommand(self, list_path, index, item, text))

    def remove(self, list_path: Path_, index: int, text: str) -> bool:
        return self._push(ListRemoveCommand(self, list_path, index, text))

    def replace(self, character: AnyCharacter, text: str) -> bool:
        """An undoable swap of the whole character (Import JSON)."""
        return self._push(ReplaceCommand(self, character, text))

    def load(self, character: AnyCharacter, path: Path | None) -> None:
        """A new document in this window (New, Open): no undo history, clean."""
        self.undo_stack.clear()
        self._path = path
        self._install(character)
        self.undo_stack.setClean()
        self.pathChanged.emit()

    def _push(self, command: _Command) -> bool:
        try:
            command.check()
        except EditRejected as exc:
            self.rejected.emit(str(exc))
            self.edited.emit(Change("set", command.path))  # put the widget back
            return False
        self.undo_stack.push(command)
        return True

    # --- applying ------------------------------------------------------------------------
    def _apply(self, change: Change) -> None:
        old = self._derived
        self._derived = derive(self._character, self._variants)
        self.edited.emit(change)
        self.derivedChanged.emit(old, self._derived)

    def _install(self, character: AnyCharacter) -> None:
        old = self._derived
        self._character = character
        self._derived = derive(character, self._variants)
        self.replaced.emit()
        self.edited.emit(Change("reset"))
        self.derivedChanged.emit(old, self._derived)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # pragma: no cover - exotic values compare unequal
        return False


def _describe(path: Path_) -> str:
    words = [str(k).rstrip("_").replace("_", " ") for k in path if not isinstance(k, int)]
    return "Edit " + " ".join(words[-2:]) if words else "Edit"


class _Command(QUndoCommand):
    path: Path_ = ()

    def __init__(self, document: CharacterDocument, text: str) -> None:
        super().__init__(text)
        self.document = document

    def check(self) -> None:
        """Raise `EditRejected` if the model would refuse this command (before it is pushed)."""


class SetValueCommand(_Command):
    """Set one field (or dict entry, or list element); merges quick edits of one field."""

    _ID = 1

    def __init__(
        self, document: CharacterDocument, path: Path_, old: Any, new: Any, text: str
    ) -> None:
        super().__init__(document, text)
        self.path = path
        self.old = old
        self.new = new
        self.stamp = time.monotonic()
        self.mergeable = True
        self._pending = False

    def check(self) -> None:
        """Validation is the assignment itself, so this applies the value; `redo` (which
        `QUndoStack.push` calls at once) then only announces it."""
        character = self.document.character
        set_path(character, self.path, self.new)
        try:
            if self.path and self.path[0] == "effects":
                problems = semantic_problems(character)
                if problems:
                    path, message = problems[0]
                    raise EditRejected(f"{path}: {message}")
        except EditRejected:
            set_path(character, self.path, self.old)
            raise
        self._pending = True

    def redo(self) -> None:
        if self._pending:
            self._pending = False
        else:
            set_path(self.document.character, self.path, self.new)
        self.document._apply(Change("set", self.path))

    def undo(self) -> None:
        set_path(self.document.character, self.path, self.old)
        self.document._apply(Change("set", self.path))

    def id(self) -> int:
        return self._ID if self.mergeable else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetValueCommand) or other.path != self.path:
            return False
        if not (self.mergeable and other.mergeable):
            return False
        if other.stamp - self.stamp > MERGE_WINDOW_S:
            return False
        self.new = other.new
        self.stamp = other.stamp
        if _same(self.old, self.new):
            self.setObsolete(True)
        return True


class ListInsertCommand(_Command):
    def __init__(
        self, document: CharacterDocument, path: Path_, index: int, item: Any, text: str
    ) -> None:
        super().__init__(document, text)
        self.path = path
        self.index = index
        self.item = item

    def check(self) -> None:
        items = list(self.document.value(self.path))
        if len(items) >= 10_000:
            raise EditRejected("the list is full")
        self.index = max(0, min(self.index, len(items)))

    def redo(self) -> None:
        items = list(self.document.value(self.path))
        items.insert(self.index, copy.deepcopy(self.item))
        set_path(self.document.character, self.path, items)
        self.document._apply(Change("insert", self.path, self.index))

    def undo(self) -> None:
        items = list(self.document.value(self.path))
        del items[self.index]
        set_path(self.document.character, self.path, items)
        self.document._apply(Change("remove", self.path, self.index))


class ListRemoveCommand(_Command):
    def __init__(self, document: CharacterDocument, path: Path_, index: int, text: str) -> None:
        super().__init__(document, text)
        self.path = path
        self.index = index
        self.item: Any = None

    def check(self) -> None:
        items = self.document.value(self.path)
        if not 0 <= self.index < len(items):
            raise EditRejected("nothing to remove")
        self.item = items[self.index]

    def redo(self) -> None:
        items = list(self.document.value(self.path))
        del items[self.index]
        set_path(self.document.character, self.path, items)
        self.document._apply(Change("remove", self.path, self.index))

    def undo(self) -> None:
        items = list(self.document.value(self.path))
        items.insert(self.index, self.item)
        set_path(self.document.character, self.path, items)
        self.document._apply(Change("insert", self.path, self.index))


class ReplaceCommand(_Command):
    def __init__(self, document: CharacterDocument, character: AnyCharacter, text: str) -> None:
        super().__init__(document, text)
        self.old = document.character
        self.new = character

    def redo(self) -> None:
        self.document._install(self.new)

    def undo(self) -> None:
        self.document._install(self.old)
