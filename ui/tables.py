"""What every table model of the window shares: flat rows under a row of headers."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
"""The invisible root index, as a default argument."""

# looked up once: data() runs for every visible cell and role on each paint
DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
FONT = Qt.ItemDataRole.FontRole
FOREGROUND = Qt.ItemDataRole.ForegroundRole
BACKGROUND = Qt.ItemDataRole.BackgroundRole
ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole
ACCESSIBLE = Qt.ItemDataRole.AccessibleTextRole
NUMBER_ALIGNMENT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class FlatTableModel(QAbstractTableModel):
    """A read-mostly table: subclasses name their ``headers`` and say how many rows they show."""

    headers: tuple[str, ...] = ()

    def row_total(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else self.row_total()

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.headers):
            return self.headers[section]
        return None
