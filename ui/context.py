"""What every section of a sheet shares: the document, the binder and the selected statistic."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

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

    def select(self, stat_id: str) -> None:
        if stat_id != self.current:
            self.current = stat_id
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
        return self.document.system
