"""The window's table models and views: columns declared as data, rows from the document.

A table model names its columns once, as a tuple of `Column` specs (header, width, how a
cell reads, how it is edited); `ColumnTableModel` answers Qt's ``data``/``flags``/``setData``
from them and `configure_columns` sizes a view's header from the same tuple, so a column is
described in one place.

`ListTableModel` shows one list of the character. Like vorta's event log model it owns no
data: it turns each change of that list into the matching row signals. It keeps a shallow copy
of the list it last announced, so while ``rowsAboutToBeInserted`` (or removed) is being
delivered the rows still read as before the change, as Qt's model contract requires.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ui.context import SheetContext
from ui.document import Change, Path_

__all__ = [
    "ACCESSIBLE",
    "ALIGNMENT",
    "BACKGROUND",
    "BOUNDS",
    "CHECK",
    "DISPLAY",
    "EDIT",
    "FONT",
    "FOREGROUND",
    "NUMBER_ALIGNMENT",
    "ROOT",
    "TOOLTIP",
    "Column",
    "ColumnTableModel",
    "Editor",
    "FlatTableModel",
    "Index",
    "ListTableModel",
    "configure_columns",
    "table_view",
]

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
"""The invisible root index, as a default argument."""

# looked up once: data() runs for every visible cell and role on each paint
DISPLAY = Qt.ItemDataRole.DisplayRole
EDIT = Qt.ItemDataRole.EditRole
CHECK = Qt.ItemDataRole.CheckStateRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
FONT = Qt.ItemDataRole.FontRole
FOREGROUND = Qt.ItemDataRole.ForegroundRole
BACKGROUND = Qt.ItemDataRole.BackgroundRole
ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole
ACCESSIBLE = Qt.ItemDataRole.AccessibleTextRole
BOUNDS = Qt.ItemDataRole.UserRole + 1
"""A cell's ``(lowest, highest)`` whole number, for a ``bounded`` editor."""
NUMBER_ALIGNMENT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
CENTER_ALIGNMENT = int(Qt.AlignmentFlag.AlignCenter)

Editor = Literal["text", "check", "bounded", "choice"]
"""How a cell is edited: typed text (a delegate may check it), a check box, a whole number
within the cell's `BOUNDS`, or one of a list (the view installs the delegate)."""
Resize = Literal["fixed", "interactive", "stretch"]
Getter = Callable[[Any], Any]
Writer = Callable[[Any, int, Any, Any], bool]
"""``write(model, row, shown item, value) -> accepted``."""

_RESIZE = {
    "fixed": QHeaderView.ResizeMode.Fixed,
    "interactive": QHeaderView.ResizeMode.Interactive,
    "stretch": QHeaderView.ResizeMode.Stretch,
}


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a table: its header and width, and how its cells read and are edited.

    Every getter takes the shown row (what the model's `ColumnTableModel.cell` returns) and
    answers one role; a getter left ``None`` answers nothing for that role.
    """

    header: str
    width: int = 80
    """Starting width in pixels (a ``stretch`` column takes what is left)."""
    resize: Resize = "interactive"
    show: Getter | None = None
    """The text shown (``DisplayRole``)."""
    value: Getter | None = None
    """What an editor starts from (``EditRole``); `show` when ``None``."""
    checked: Getter | None = None
    """``bool`` for a check box column."""
    tip: Getter | None = None
    accessible: Getter | None = None
    bounds: Getter | None = None
    """``(lowest, highest)`` for a ``bounded`` editor."""
    align: int | None = None
    editor: Editor | None = None
    """``None``: read-only."""
    editable: Getter | None = None
    """Whether this row's cell may be edited (``None``: every row may)."""
    write: Writer | None = None
    """Applies an edit (the document refuses what the model does not allow)."""


class FlatTableModel(QAbstractTableModel):
    """A table of flat rows: subclasses name their ``headers`` and say how many rows they
    show (a model declaring `columns` gets its headers from them)."""

    headers: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        if self.columns and not self.headers:
            self.headers = tuple(column.header for column in self.columns)

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


class ColumnTableModel(FlatTableModel):
    """A table whose cells read and write through its `columns`.

    Subclasses say which object a row shows (`cell`) and may answer more roles (fonts,
    colours) in `styled`; everything else comes from the column specs. Never raises from a
    Qt override: an exception in Python called from C++ can crash PySide6 6.11 instead of
    propagating.
    """

    def cell(self, index: Index) -> Any:
        """The object row ``index`` shows (what the column getters receive), or ``None``."""
        raise NotImplementedError

    def styled(self, item: Any, column: int, role: int) -> Any:
        """Roles the columns don't declare (fonts, colours); ``None`` by default."""
        return None

    def _column(self, index: Index) -> Column | None:
        col = index.column()
        return self.columns[col] if 0 <= col < len(self.columns) else None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        item = self.cell(index)
        column = self._column(index)
        if item is None or column is None:
            return None
        if role == DISPLAY:
            return column.show(item) if column.show is not None else None
        if role == EDIT:
            getter = column.value or column.show
            return getter(item) if getter is not None else None
        if role == CHECK:
            if column.checked is None:
                return None
            return Qt.CheckState.Checked if column.checked(item) else Qt.CheckState.Unchecked
        if role == ALIGNMENT:
            return column.align
        if role == TOOLTIP and column.tip is not None:
            return column.tip(item)
        if role == ACCESSIBLE and column.accessible is not None:
            return column.accessible(item)
        if role == BOUNDS and column.bounds is not None:
            return column.bounds(item)
        return self.styled(item, index.column(), role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        item = self.cell(index) if index.isValid() else None
        column = self._column(index)
        if item is None or column is None:
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if column.editor is None or column.write is None:
            return flags
        if column.editable is not None and not column.editable(item):
            return flags
        if column.editor == "check":
            return flags | Qt.ItemFlag.ItemIsUserCheckable
        return flags | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: Index, value: Any, role: int = EDIT) -> bool:
        item = self.cell(index) if index.isValid() else None
        column = self._column(index)
        if item is None or column is None or column.write is None:
            return False
        if role != (CHECK if column.editor == "check" else EDIT):
            return False
        if column.editable is not None and not column.editable(item):
            return False
        return column.write(self, index.row(), item, value)


class ListTableModel(ColumnTableModel):
    """Rows are one list of the character (``path``), edited through the document."""

    def __init__(self, ctx: SheetContext, path: Path_, parent: QObject | None = None) -> None:
        self.ctx = ctx
        self.path = path
        self._detached = False
        self._shown: list[Any] = []
        super().__init__(parent)
        self._shown = list(self.items())
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
        """The element shown at ``index``, or ``None`` (never raises)."""
        if not index.isValid() or not 0 <= index.row() < len(self._shown):
            return None
        return self._shown[index.row()]

    def cell(self, index: Index) -> Any:
        return self.row_item(index)

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
        elif (change.kind != "reset" and change.path[:at] == self.path
              and len(change.path) > at and len(current) == len(self._shown)):
            # inside one row (a field, or a list within it): that row reads anew
            row = int(change.path[at])
            self._shown = list(current)  # the row may be a new object (a replaced modifier)
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        else:
            self.beginResetModel()
            self._shown = list(current)
            self.endResetModel()


# --- views ---------------------------------------------------------------------------------


def configure_columns(header: QHeaderView, columns: Sequence[Column]) -> None:
    """Size ``header``'s sections from the column specs (fixed widths: sizing to contents
    would read every row on each change)."""
    header.setStretchLastSection(False)
    for section, column in enumerate(columns):
        header.setSectionResizeMode(section, _RESIZE[column.resize])
        if column.resize != "stretch":
            header.resizeSection(section, column.width)


def table_view(name: str, object_name: str, model: FlatTableModel, *,
               editable: bool = True, row_height: int = 22) -> QTableView:
    """A table of whole rows, one selected at a time, with the columns ``model`` declares."""
    view = QTableView()
    view.setObjectName(object_name)
    view.setAccessibleName(name)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(row_height)
    view.setEditTriggers(
        QAbstractItemView.EditTrigger.DoubleClicked
        | QAbstractItemView.EditTrigger.EditKeyPressed
        | QAbstractItemView.EditTrigger.SelectedClicked
        if editable else QAbstractItemView.EditTrigger.NoEditTriggers
    )
    view.setModel(model)
    if model.columns:
        configure_columns(view.horizontalHeader(), model.columns)
    return view
