"""The base of the sheet's list models: rows are one list of the character, edited by path.

Like vorta's event log model, a model here owns no data: it reads the document's list and
turns each change of that list into the matching row signals. The row count is cached so
``rowsAboutToBeInserted`` observers see the count from before the change, as Qt requires.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from ui.context import SheetContext
from ui.document import Change, Path_

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
"""The invisible root index, as a default argument."""


class ListTableModel(QAbstractTableModel):
    headers: tuple[str, ...] = ()

    def __init__(self, ctx: SheetContext, path: Path_, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self._rows = len(self.items())
        ctx.binder.bind_change(self.watch_path(), self._on_change)

    def watch_path(self) -> Path_:
        """The part of the model whose changes this model follows."""
        return self.path

    def items(self) -> list[Any]:
        value = self.ctx.document.value(self.path)
        return value if isinstance(value, list) else []

    # --- Qt model contract ---------------------------------------------------------------
    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.headers):
            return self.headers[section]
        return None

    # --- following the document ----------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        length = len(self.items())
        own = change.path[: len(self.path)] == self.path
        if change.kind == "insert" and change.path == self.path and change.index is not None:
            self.beginInsertRows(QModelIndex(), change.index, change.index)
            self._rows = length
            self.endInsertRows()
        elif change.kind == "remove" and change.path == self.path and change.index is not None:
            self.beginRemoveRows(QModelIndex(), change.index, change.index)
            self._rows = length
            self.endRemoveRows()
        elif own and len(change.path) > len(self.path) and length == self._rows:
            row = int(change.path[len(self.path)])
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        else:
            self.beginResetModel()
            self._rows = length
            self.endResetModel()
        self.changed_row(change)

    def changed_row(self, change: Change) -> None:
        """Hook for subclasses (a column computed from another row's data)."""
