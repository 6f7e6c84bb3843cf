"""The open character and the one command stream that changes it.

Every edit (a widget, an import, a roll added to the log, an undo) is a `QUndoCommand` pushed
here. An edit is first made on a copy (`sheet_app.edit.apply`, which validates the whole
character); only an accepted edit becomes a command, holding the character before and after.
Its ``redo`` installs the new character and its ``undo`` the old one; either way ``derive``
runs once and the document announces two things: what changed in the model (`edited`, for
input widgets and table models) and the old and new snapshots (`derivedChanged`, for derived
widgets, which diff them). Undo/redo, the modified mark and autosave all hang off the same
`QUndoStack`.

The character is a value: every edit installs a new one (sharing the untouched parts), so
hold on to a path, never to ``document.character`` or a part of it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from annotated_types import MaxLen
from pydantic import BaseModel
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from sheet_app import edit, registry
from sheet_app.derived import Derived
from sheet_app.edit import Change
from sheet_app.model import CharacterBase

Path_ = edit.Path
"""A path into the character (``("effects", 0, "name")``); see `sheet_app.edit`."""

__all__ = [
    "LIST_NOUNS", "MAX_VARIANTS", "MERGE_WINDOW_S", "Change", "CharacterDocument",
    "EditCommand", "Path_", "ReplaceCommand",
]  # Change and Path_ are re-exported: some ui modules still import them from here

MAX_VARIANTS = 12
"""How many asked-for extra statistics stay live (each costs one more in every derive)."""

LIST_NOUNS = {"inventory": "items", "roll_log": "log entries"}
"""What a list's entries are called in a message, where its field's name won't do."""

MERGE_WINDOW_S = 1.5
"""Edits of one field within this many seconds become one undo step (typing "18" is one edit)."""


def _derive(character: CharacterBase, variants: tuple[str, ...] = ()) -> Derived:
    return registry.get(character.system).derive(character, variants)


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

    def __init__(self, character: CharacterBase, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._character = character
        self._variants: tuple[str, ...] = ()
        self._derived = _derive(character)
        self._path: Path | None = None
        self.undo_stack = QUndoStack(self)

    # --- state ---------------------------------------------------------------------------
    @property
    def character(self) -> CharacterBase:
        """The character now; a new object after every change (read it again, don't keep it)."""
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
        """Ask the engine for a statistic beyond the sheet's own (a 5e-style skill with
        another ability, ``skill:athletics@con``); it then stays live like any other. False
        if the system has no such statistic."""
        if stat_id in self._derived.statistics:
            return True
        variants = (*self._variants, stat_id)[-MAX_VARIANTS:]
        derived = _derive(self._character, variants)
        if stat_id not in derived.statistics:
            return False
        old, self._variants, self._derived = self._derived, variants, derived
        self.derivedChanged.emit(old, derived)
        return True

    def value(self, path: Path_) -> Any:
        """The value at ``path`` now (`sheet_app.edit.MISSING` for an absent dict entry)."""
        return edit.get_path(self._character, path)

    def list_limit(self, list_path: Path_) -> int:
        """The most entries the list at ``list_path`` may hold: its field's ``max_length``
        in the model (read now, so a lowered limit counts at once), else
        `sheet_app.edit.MAX_LIST`."""
        owner = edit.get_path(self._character, list_path[:-1])
        field = list_path[-1] if list_path else None
        info = type(owner).model_fields.get(field) if (
            isinstance(owner, BaseModel) and isinstance(field, str)) else None
        limits = [m.max_length for m in (info.metadata if info is not None else ())
                  if isinstance(m, MaxLen)]
        return min((*limits, edit.MAX_LIST))

    def full_message(self, list_path: Path_) -> str | None:
        """Why nothing more can be added to the list at ``list_path`` (it holds its
        `list_limit`), or ``None`` while there is room."""
        items = self.value(list_path)
        limit = self.list_limit(list_path)
        if not isinstance(items, list) or len(items) < limit:
            return None
        field = str(list_path[-1])
        noun = LIST_NOUNS.get(field, field.replace("_", " "))
        owner = "The sheet" if len(list_path) == 1 else "This entry"
        name = getattr(self.value(list_path[:-1]), "name", "")
        if len(list_path) > 1 and isinstance(name, str) and name.strip():
            owner = name.strip() if len(name) <= 40 else name[:39].rstrip() + "…"
        return f"{owner} holds {limit:,} {noun}, the most it can: remove one to add another."

    # --- commands ------------------------------------------------------------------------
    def set(
        self, path: Path_, value: Any, text: str | None = None, *, merge: bool = True
    ) -> bool:
        """Push one edit of ``path``; False (and `rejected`) if the model refuses it.

        Quick successive edits of one field merge into one undo step unless ``merge`` is
        off (each roll is its own step)."""
        if edit.same(self.value(path), value):
            return True
        return self.push(edit.Set(path, value), text, merge=merge)

    def insert(self, list_path: Path_, index: int, item: Any, text: str | None = None) -> bool:
        """Insert ``item`` before ``index`` (clamped) in the list at ``list_path``. A full
        list refuses it with a message (`full_message`) and leaves no undo step."""
        full = self.full_message(list_path)
        if full is not None:
            self.rejected.emit(full)
            return False
        return self.push(edit.Insert(list_path, index, item), text)

    def remove(self, list_path: Path_, index: int, text: str | None = None) -> bool:
        return self.push(edit.Remove(list_path, index), text)

    def push(self, step: edit.Edit, text: str | None = None, *, merge: bool = False) -> bool:
        """Make ``step`` on a copy and, if the model accepts it, push it as one undo step;
        otherwise emit `rejected` (and put the widgets of that path back). ``merge``: a
        `sheet_app.edit.Set` may merge with a quick earlier one of the same path."""
        step = edit.normalized(self._character, step)
        try:
            new = edit.apply(self._character, step)
        except edit.EditRejected as exc:
            self.rejected.emit(str(exc))
            self.edited.emit(Change("set", step.path))  # put the widget back
            return False
        if isinstance(step, edit.Set) and edit.same(
            edit.get_path(new, step.path), self.value(step.path)
        ):  # the model took it as the value it had ("3.0" for 3): only show it again
            self.edited.emit(Change("set", step.path))
            return True
        command = EditCommand(self, self._character, new, step, text or edit.describe(step))
        command.mergeable = merge and isinstance(step, edit.Set)
        self.undo_stack.push(command)
        return True

    def replace(self, character: CharacterBase, text: str) -> bool:
        """An undoable swap of the whole character (Import JSON, a recovery copy)."""
        self.undo_stack.push(ReplaceCommand(self, character, text))
        return True

    def load(self, character: CharacterBase, path: Path | None) -> None:
        """A new document in this window (New, Open): no undo history, clean."""
        self.undo_stack.clear()
        self._path = path
        self._install(character)
        self.undo_stack.setClean()
        self.pathChanged.emit()

    # --- installing ----------------------------------------------------------------------
    def _swap(self, character: CharacterBase, change: Change) -> None:
        """Make ``character`` (one edit away from the current one) the current one."""
        old = self._derived
        self._character = character
        self._derived = _derive(character, self._variants)
        self.edited.emit(change)
        self.derivedChanged.emit(old, self._derived)

    def _install(self, character: CharacterBase) -> None:
        """Make a different character the current one: every binding starts over."""
        old = self._derived
        self._character = character
        self._derived = _derive(character, self._variants)
        self.replaced.emit()
        self.edited.emit(Change("reset"))
        self.derivedChanged.emit(old, self._derived)


class EditCommand(QUndoCommand):
    """One accepted edit: the character before and after it. Quick edits of one field merge
    into one command that keeps the first ``old`` and the latest ``new``."""

    _ID = 1

    def __init__(
        self, document: CharacterDocument, old: CharacterBase, new: CharacterBase,
        step: edit.Edit, text: str,
    ) -> None:
        super().__init__(text)
        self.document = document
        self.old = old
        self.new = new
        self.path: Path_ = step.path
        self.done = edit.change_of(step)
        self.undone = edit.inverse_change(step)
        self.stamp = time.monotonic()
        self.mergeable = False

    def redo(self) -> None:
        self.document._swap(self.new, self.done)

    def undo(self) -> None:
        self.document._swap(self.old, self.undone)

    def id(self) -> int:
        return self._ID if self.mergeable else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or other.path != self.path:
            return False
        if not (self.mergeable and other.mergeable):
            return False
        if other.stamp - self.stamp > MERGE_WINDOW_S:
            return False
        self.new = other.new
        self.stamp = other.stamp
        if self.new == self.old:
            self.setObsolete(True)
        return True


class ReplaceCommand(QUndoCommand):
    """The whole character swapped for another (Import): widgets rebind."""

    def __init__(self, document: CharacterDocument, character: CharacterBase, text: str) -> None:
        super().__init__(text)
        self.document = document
        self.old = document.character
        self.new = character

    def redo(self) -> None:
        self.document._install(self.new)

    def undo(self) -> None:
        self.document._install(self.old)
