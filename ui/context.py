"""What every section of a sheet shares: the document, the binder and the selected statistic."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from sheet_app import registry
from sheet_app.registry import Facts, RuleSystem
from sheet_app.sheetspec import SheetSpec
from ui.binding import Binder
from ui.document import CharacterDocument


class StatSelection(QObject):
    """The statistic the roll panel shows, and requests to roll one.

    Sections emit through it and the roll panel listens, so neither knows the other.
    """

    selected = Signal(str)
    rollRequested = Signal(str, str)
    """(statistic id, requested mode: ``normal``, ``advantage``, ...)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.current = ""
        self._watchers: dict[str, list[Callable[[bool], None]]] = {}

    def watch(self, stat_id: str, mark: Callable[[bool], None]) -> None:
        """``mark(selected)`` runs when ``stat_id`` gains or loses the selection, and now.

        One dict lookup per change instead of a signal to every row of the sheet."""
        self._watchers.setdefault(stat_id, []).append(mark)
        mark(stat_id == self.current)

    def forget_watchers(self) -> None:
        self._watchers.clear()

    def select(self, stat_id: str) -> None:
        if stat_id != self.current:
            previous, self.current = self.current, stat_id
            for mark in self._watchers.get(previous, ()):
                mark(False)
            for mark in self._watchers.get(stat_id, ()):
                mark(True)
            self.selected.emit(stat_id)

    def roll(self, stat_id: str, mode: str = "normal") -> None:
        self.select(stat_id)
        self.rollRequested.emit(stat_id, mode)


@dataclass(frozen=True, slots=True)
class SheetContext:
    document: CharacterDocument
    binder: Binder
    selection: StatSelection

    @property
    def system(self) -> str:
        """The id of the open character's system (for the registry; never compared)."""
        return self.document.system

    @property
    def rules(self) -> RuleSystem:
        return registry.get(self.document.system)

    @property
    def facts(self) -> Facts:
        return self.rules.facts

    @property
    def sheet(self) -> SheetSpec:
        """What the system's sheet is made of: every section is built from this."""
        return self.rules.sheet()
