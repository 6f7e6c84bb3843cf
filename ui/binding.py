"""Binding widgets to the document without echo, and repainting only what changed.

Two directions, two registries. `Binder.bind_input` ties an input widget to a model path: the
widget pushes a command when the user edits it, and is refreshed (signals blocked, so the
refresh does not bounce back as an edit) when a command touches its path. `Binder.bind_derived`
ties a display to one part of the snapshot (``("stat", "skill:stealth")``, ``("hp",)``); after
every command the binder diffs the old and new snapshots part by part and calls only the
displays whose part changed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QObject

from sheet_app.derived import Derived
from sheet_app.edit import Change, Path
from ui.document import CharacterDocument

DerivedKey = tuple[str, ...]
"""``("ability", abbr)``, ``("stat", id)``, ``("passive", skill)``, ``("pb",)``, ``("hp",)``,
``("carrying",)``, ``("speed",)`` or ``("notes",)``."""


@contextmanager
def qt_signals_blocked(obj: QObject) -> Iterator[None]:
    """Block ``obj``'s signals for the duration (napari's helper of the same name)."""
    previous = obj.blockSignals(True)
    try:
        yield
    finally:
        obj.blockSignals(previous)


def derived_part(derived: Derived, key: DerivedKey) -> Any:
    """The piece of ``derived`` that ``key`` names, or ``None`` when this system lacks it."""
    kind = key[0]
    if kind == "stat":
        return derived.statistics.get(key[1])
    if kind == "ability":
        return derived.abilities.get(key[1])
    if kind == "passive":
        return derived.passive.get(key[1])
    if kind == "pb":
        return derived.proficiency_bonus
    if kind == "hp":
        return derived.hit_points
    if kind == "carrying":
        return derived.carrying
    if kind == "speed":
        return derived.speed
    if kind == "notes":
        return derived.notes
    raise KeyError(key)


def changed_keys(old: Derived | None, new: Derived) -> set[DerivedKey]:
    """Every part of the snapshot that differs between ``old`` and ``new``."""
    if old is None or old.system != new.system:
        keys: set[DerivedKey] = {("pb",), ("hp",), ("carrying",), ("speed",), ("notes",)}
        keys.update(("stat", k) for k in new.statistics)
        keys.update(("ability", k) for k in new.abilities)
        keys.update(("passive", k) for k in new.passive)
        return keys
    out: set[DerivedKey] = set()
    for name, value in new.abilities.items():
        if old.abilities.get(name) != value:
            out.add(("ability", name))
    old_stats = old.statistics
    for stat_id, stat in new.statistics.items():
        if old_stats.get(stat_id) != stat:
            out.add(("stat", stat_id))
    for skill, passive in new.passive.items():
        if old.passive.get(skill) != passive:
            out.add(("passive", skill))
    if old.proficiency_bonus != new.proficiency_bonus:
        out.add(("pb",))
    if old.hit_points != new.hit_points:
        out.add(("hp",))
    if old.carrying != new.carrying:
        out.add(("carrying",))
    if old.speed != new.speed:
        out.add(("speed",))
    if old.notes != new.notes:
        out.add(("notes",))
    return out


class Binder(QObject):
    """Routes the document's changes to the widgets bound to them."""

    def __init__(self, document: CharacterDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._inputs: list[tuple[Path, Callable[[Any], None]]] = []
        self._derived: defaultdict[DerivedKey, list[Callable[[Any], None]]] = defaultdict(list)
        self._all_derived: list[Callable[[Derived], None]] = []
        self._changes: list[tuple[Path, Callable[[Change], None]]] = []
        self.updates = 0
        """How many display callbacks the last change triggered (tests and benchmarks)."""
        document.edited.connect(self._on_edited)
        document.derivedChanged.connect(self._on_derived)

    def clear(self) -> None:
        self._inputs.clear()
        self._derived.clear()
        self._all_derived.clear()
        self._changes.clear()

    # --- registering ---------------------------------------------------------------------
    def bind_input(self, path: Path, refresh: Callable[[Any], None]) -> None:
        """``refresh(value)`` runs (with the caller's signals blocked) when ``path`` changes,
        and once now."""
        self._inputs.append((path, refresh))
        refresh(self.document.value(path))

    def bind_change(self, path: Path, react: Callable[[Change], None]) -> None:
        """``react(change)`` runs for every change touching ``path`` (table models use this
        to turn inserts and removals into row signals)."""
        self._changes.append((path, react))

    def bind_derived(self, key: DerivedKey, show: Callable[[Any], None]) -> None:
        """``show(part)`` runs when that part of the snapshot changes, and once now."""
        self._derived[key].append(show)
        show(derived_part(self.document.derived, key))

    def bind_snapshot(self, show: Callable[[Derived], None]) -> None:
        """``show(derived)`` runs after every change (for the few views that need it all)."""
        self._all_derived.append(show)
        show(self.document.derived)

    # --- dispatching ---------------------------------------------------------------------
    def _on_edited(self, change: Change) -> None:
        value = self.document.value
        for path, refresh in self._inputs:
            if change.touches(path):
                refresh(value(path))
        for path, react in self._changes:
            if change.touches(path):
                react(change)

    def _on_derived(self, old: Derived, new: Derived) -> None:
        count = 0
        for key in changed_keys(old, new):
            shows = self._derived.get(key)
            if not shows:
                continue
            part = derived_part(new, key)
            for show in shows:
                show(part)
                count += 1
        for show_all in self._all_derived:
            show_all(new)
            count += 1
        self.updates = count
