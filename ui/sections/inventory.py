"""Inventory table and the encumbrance bar: weights in the system's unit, or Bulk."""

from __future__ import annotations

import html
from typing import Any, get_args

from annotated_types import Ge, Le
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import QObject, QRectF, QRegularExpression, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPaintEvent, QPen, QRegularExpressionValidator
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sheet_app.derived import Carrying
from sheet_app.model import CharacterBase, Item
from sheet_app.sheetspec import Control
from ui.context import SheetContext
from ui.controls import control_for
from ui.format import (
    breakdown_html,
    brief,
    exact_number,
    number,
    parse_decimal,
    parse_whole,
    plain_tip,
    words,
)
from ui.sections.tables import (
    ALIGNMENT,
    DISPLAY,
    EDIT,
    FOREGROUND,
    NUMBER_ALIGNMENT,
    TOOLTIP,
    Index,
    ListTableModel,
)
from ui.theme import (
    BAR_MARK,
    BAR_OUTLINE,
    BAR_TRACK,
    CARRY_STATE_COLORS,
    CARRY_UNKNOWN_FILL,
    CARRY_UNKNOWN_TEXT,
    TOTAL_COLUMN_COLOR,
    look,
    qcolor,
)
from ui.widgets import DerivedLabel


def parse_bulk(text: str) -> str | int | None:
    """``L`` (light), ``-`` (negligible) or a whole number of ASCII digits; ``None`` if it is
    neither (``²``, ``1.5``, a page of digits)."""
    text = text.strip()
    if text.upper() == "L":
        return "L"
    if text in ("-", "—", "", "0"):
        return "-" if text != "0" else 0
    value = parse_whole(text)
    return value if value is not None and value >= 0 and text[:1] not in "+-" else None


def number_bounds(model: type[BaseModel], field: str) -> tuple[float | None, float | None]:
    """The lowest and highest number the model lets ``field`` hold (its ``ge``/``le``, also
    inside a union such as Bulk's ``"L" | "-" | int``), read now from the model;
    ``None`` where it sets none."""
    info = model.model_fields.get(field)
    if info is None:
        return None, None
    low: float | None = None
    high: float | None = None
    seen: list[Any] = [*info.metadata, info.annotation]
    while seen:
        part = seen.pop()
        if isinstance(part, FieldInfo):
            seen.extend(part.metadata)
        elif isinstance(part, Ge) and isinstance(part.ge, int | float):
            low = float(part.ge) if low is None else min(low, float(part.ge))
        elif isinstance(part, Le) and isinstance(part.le, int | float):
            high = float(part.le) if high is None else max(high, float(part.le))
        else:
            seen.extend(get_args(part))
    return low, high


def item_type(model: type[CharacterBase]) -> type[BaseModel]:
    """The model of one inventory entry of a system's character (`Item` by default)."""
    field = model.model_fields.get("inventory")
    for arg in get_args(field.annotation if field is not None else None):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return Item


def load_options(ctx: SheetContext) -> tuple[Control, ...]:
    """Choices beside the inventory, as the sheet description lists them."""
    return ctx.sheet.load_options


WEIGHT_TYPING = QRegularExpression(r"\s*[0-9]{0,9}([.,][0-9]{0,30})?\s*")
"""What a weight cell lets one type: digits and one decimal point (or comma)."""


class WeightDelegate(QStyledItemDelegate):
    """A weight typed as text, kept as typed: no spin box rounding 0.125 to 0.13."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget:
        edit = QLineEdit(parent)
        edit.setAccessibleName("Weight")
        edit.setValidator(QRegularExpressionValidator(WEIGHT_TYPING, edit))
        edit.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return edit

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            editor.setText(str(index.data(EDIT) or ""))

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), EDIT)


class InventoryModel(ListTableModel):
    """Name, quantity, weight (or Bulk) per item, and the row's total weight."""

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        sheet = ctx.sheet
        self.bulk = sheet.inventory_load == "bulk"
        self.unit = sheet.load_unit
        self.item_type = item_type(ctx.rules.model)
        self.headers = (
            ("Item", "Qty", self.unit) if self.bulk
            else ("Item", "Qty", f"Weight ({self.unit})", f"Total ({self.unit})")
        )
        super().__init__(ctx, ("inventory",), parent)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() < 3:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        item = self.row_item(index)
        if item is None:
            return None
        col = index.column()
        if role in (DISPLAY, EDIT):
            if col == 0:
                return item.name
            if col == 1:
                return item.quantity
            if col == 2:
                if self.bulk:
                    return {"L": "L", "-": "—"}.get(str(item.bulk), str(item.bulk))
                return exact_number(item.weight) if role == EDIT else number(item.weight)
            if col == 3:
                return number(item.weight * item.quantity)
        if role == ALIGNMENT and col > 0:
            return NUMBER_ALIGNMENT
        if role == TOOLTIP and col == 2 and self.bulk:
            return "L = light (10 make 1 Bulk), — = negligible, or a number"
        if role == TOOLTIP and col == 0:
            return plain_tip(item.name) if item.name else None
        if role == FOREGROUND and col == 3:
            return qcolor(TOTAL_COLUMN_COLOR)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or self.row_item(index) is None:
            return False
        row, col = index.row(), index.column()
        doc = self.ctx.document
        if col == 0:
            return doc.set(("inventory", row, "name"), str(value), "Rename item")
        if col == 1:
            quantity = parse_whole(value)
            if not self._within("quantity", quantity, "Quantity", "a whole number", value):
                return False
            return doc.set(("inventory", row, "quantity"), quantity, "Set quantity")
        if col == 2 and self.bulk:
            bulk = parse_bulk(str(value))
            if bulk is None:
                doc.rejected.emit(f"{self.unit} is L, — or a whole number, not {brief(value)}")
                return False
            if not self._within("bulk", bulk, self.unit, "L, — or a whole number", value):
                return False
            return doc.set(("inventory", row, "bulk"), bulk, f"Set {self.unit}")
        if col == 2:
            weight = 0.0 if not str(value).strip() else parse_decimal(value)  # cleared: none
            if not self._within("weight", weight, f"Weight ({self.unit})", "a number",
                                value):
                return False
            return doc.set(("inventory", row, "weight"), weight, "Set weight")
        return False

    def _within(self, field: str, value: object, what: str, kind: str, typed: Any) -> bool:
        """Whether ``value`` (parsed from ``typed``; ``None`` if it didn't parse) is a
        number the item's ``field`` takes; if not, the status bar says what it takes."""
        if isinstance(value, str):
            return True  # Bulk's L and —
        low, high = number_bounds(self.item_type, field)
        if isinstance(value, int | float) and (low is None or value >= low) and (
                high is None or value <= high):
            return True
        if low is not None and high is not None:
            span = f" from {number(low)} to {number(high)}"
        elif low is not None or high is not None:
            span = f" of {number(low)} or more" if low is not None else f" up to {number(high)}"
        else:
            span = ""
        self.ctx.document.rejected.emit(f"{what} takes {kind}{span}, not {brief(typed)}")
        return False

    def add_item(self, row: int | None = None) -> int:
        """Add a new item before ``row`` (default: at the end); its row, or -1 if the
        inventory is full (the document says so)."""
        row = len(self._shown) if row is None else row
        item = self.item_type(name="New item")
        return row if self.ctx.document.insert(("inventory",), row, item, "Add item") else -1

    def remove_item(self, row: int) -> None:
        self.ctx.document.remove(("inventory",), row, "Remove item")


class EncumbranceBar(QWidget):
    """Load against capacity, with a tick at each threshold and the state in its colour.

    Draws what `Carrying` says; the thresholds and the state are the rules engine's."""

    def __init__(self, unit: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.unit = unit
        self.carry: Carrying | None = None
        self.setMinimumHeight(40)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Encumbrance")

    def sizeHint(self) -> QSize:
        return QSize(300, 40)

    def set_carrying(self, carry: Carrying) -> None:
        self.carry = carry
        self.setAccessibleDescription(describe_carrying(carry, self.unit))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        carry = self.carry
        if carry is None:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w = self.width() - 2
        bar = QRectF(1, 4, w, 14)
        scale = max(carry.capacity, carry.carried, 1e-9) * (1.08 if carry.carried >
                                                             carry.capacity else 1.0)
        p.setPen(QPen(qcolor(BAR_OUTLINE), 1))
        p.setBrush(qcolor(BAR_TRACK))
        p.drawRoundedRect(bar, 4, 4)
        fill = QRectF(bar)
        fill.setWidth(max(0.0, min(1.0, carry.carried / scale)) * w)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(qcolor(CARRY_STATE_COLORS.get(carry.state, CARRY_UNKNOWN_FILL)))
        if fill.width() > 0:
            p.drawRoundedRect(fill, 4, 4)
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 0.85)
        p.setFont(font)
        unit = self.unit
        marks = []
        if carry.encumbered_above is not None:
            marks.append((carry.encumbered_above, f"enc. >{number(carry.encumbered_above)}"))
        if carry.heavily_encumbered_above is not None:
            marks.append((carry.heavily_encumbered_above,
                          f"heavy >{number(carry.heavily_encumbered_above)}"))
        marks.append((carry.capacity, f"max {number(carry.capacity)} {unit}"))
        metrics = p.fontMetrics()
        for value, text in marks:
            x = 1 + w * min(1.0, value / scale)
            p.setPen(QPen(qcolor(BAR_MARK), 1.5))
            p.drawLine(int(x), 2, int(x), 20)
            tw = metrics.horizontalAdvance(text)
            tx = min(max(0, int(x - tw / 2)), self.width() - tw)
            p.setPen(qcolor(BAR_MARK))
            p.drawText(tx, 21 + metrics.ascent(), text)
        p.end()


def describe_carrying(carry: Carrying, unit: str) -> str:
    parts = [f"Carrying {number(carry.carried)} of {number(carry.capacity)} {unit}:"
             f" {words(carry.state)}"]
    if carry.encumbered_above is not None:
        parts.append(f"encumbered above {number(carry.encumbered_above)}")
    if carry.heavily_encumbered_above is not None:
        parts.append(f"heavily encumbered above {number(carry.heavily_encumbered_above)}")
    return "; ".join(parts)


class InventoryPanel(QWidget):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.model = InventoryModel(ctx, self)
        self.view = QTableView()
        self.view.setObjectName("inventoryTable")
        self.view.setAccessibleName("Inventory")
        self.view.setModel(self.model)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(22)
        if not self.model.bulk:
            self.view.setItemDelegateForColumn(2, WeightDelegate(self.view))
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # fixed widths: sizing to contents would read every row on each change
        for col, width in zip(range(1, self.model.columnCount()), (48, 96, 86), strict=False):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)

        buttons = QHBoxLayout()
        self.add = add = QPushButton("Add item")
        add.setAccessibleName("Add item")
        add.clicked.connect(self._add)
        remove = QPushButton("Remove")
        remove.setAccessibleName("Remove selected item")
        remove.clicked.connect(self._remove)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        for option in load_options(ctx):
            box = control_for(ctx, option)
            if isinstance(box, QAbstractButton):
                box.setText(option.label)
            buttons.addWidget(box)
        buttons.addStretch(1)
        self.total = DerivedLabel("Carried load")
        look(self.total, "rowTotal")
        buttons.addWidget(self.total)

        self.unit = self.model.unit
        self.bar = EncumbranceBar(self.unit)
        self.state = QLabel()
        look(self.state, "carryState")
        self.state.setWordWrap(True)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.bar)
        layout.addWidget(self.state)
        ctx.binder.bind_derived(("carrying",), self.show_carrying)
        ctx.binder.bind_change(("inventory",), lambda _change: self._enable_adding())
        self._enable_adding()

    def _enable_adding(self) -> None:
        """Add item works while the inventory has room; when full it is off, its tooltip
        saying why."""
        full = self.ctx.document.full_message(("inventory",))
        self.add.setEnabled(full is None)
        self.add.setToolTip(full or "Add an item at the end of the list")

    def show_carrying(self, carry: Carrying) -> None:
        self.bar.set_carrying(carry)
        unit = self.unit
        self.total.show_value(
            f"{number(carry.carried)} / {number(carry.capacity)} {unit}",
            lambda: breakdown_html("Carried", f"{number(carry.carried)} {unit}", (),
                                   footer=[describe_carrying(carry, unit),
                                           f"Push, drag or lift up to "
                                           f"{number(carry.push_drag_lift)} {unit}"]),
        )
        color = CARRY_STATE_COLORS.get(carry.state, CARRY_UNKNOWN_TEXT)
        detail = html.escape("; ".join(carry.effects))
        self.state.setText(
            f"<span style='color:{color}'><b>{html.escape(words(carry.state).capitalize())}"
            "</b></span>" + (f" — {detail}" if detail else "")
        )
        self.state.setAccessibleName(f"Encumbrance: {words(carry.state)}")

    def _add(self) -> None:
        row = self.model.add_item()
        if row < 0:
            return
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.edit(index)

    def _remove(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.model.remove_item(index.row())


