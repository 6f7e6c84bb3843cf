"""The base of the sheet's list models: rows are one list of the character, edited by path.

Like vorta's event log model, a model here owns no data: it shows a list of the document and
turns each change of that list into the matching row signals. It keeps a shallow copy of the
list it last announced, so while ``rowsAboutToBeInserted`` (or removed) is being delivered the
rows still read as before the change, as Qt's model contract requires.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject

from ui.context import SheetContext
from ui.document import Change, Path_
from ui.tables import ROOT, FlatTableModel, Index


class ListTableModel(FlatTableModel):

    def __init__(self, ctx: SheetContext, path: Path_, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self._detached = False
        self._shown: list[Any] = list(self.items())
        ctx.binder.bind_change(self.watch_path(), self._on_change)

    def watch_path(self) -> Path_:
        """The part of the model whose changes this model follows."""
        return self.path

    def items(self) -> list[Any]:
        """The document's list as it is now."""
        if self._detached:
            return []
        value = self.ctx.document.value(self.path)
        return value if isinstance(value, list) else []

    def detach(self) -> None:
        """Show nothing from now on (the sheet holding this model is being dropped)."""
        self.beginResetModel()
        self._detached = True
        self._shown = []
        self.endResetModel()

    def row_item(self, index: Index) -> Any:
        """The element shown at ``index``, or ``None`` (never raises: an exception in a
        Python override called from C++ can crash PySide6 6.11 instead of propagating)."""
        if not index.isValid() or not 0 <= index.row() < len(self._shown):
            return None
        return self._shown[index.row()]

    def row_total(self) -> int:
        return len(self._shown)

    # --- following the document ----------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        current = self.items()
        at = len(self.path)
        if change.kind == "insert" and change.path == self.path and change.index is not None:
            self.beginInsertRows(ROOT, change.index, change.index)
            self._shown = list(current)
            self.endInsertRows()
        elif change.kind == "remove" and change.path == self.path and change.index is not None:
            self.beginRemoveRows(ROOT, change.index, change.index)
            self._shown = list(current)
            self.endRemoveRows()
        elif (change.kind == "set" and change.path[:at] == self.path and len(change.path) > at
              and len(current) == len(self._shown)):
            row = int(change.path[at])
            self._shown = list(current)  # the row may be a new object (a replaced modifier)
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        else:
            self.beginResetModel()
            self._shown = list(current)
            self.endResetModel()
