"""Inventory table and the encumbrance bar (kg or lb, or pf2e Bulk)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sheet_app.derived import Carrying
from sheet_app.model import Item, Pf2eItem
from ui.context import SheetContext
from ui.format import breakdown_html, number, words
from ui.sections.tables import ListTableModel
from ui.tables import (
    ALIGNMENT,
    DISPLAY,
    EDIT,
    FOREGROUND,
    NUMBER_ALIGNMENT,
    TOOLTIP,
    Index,
)
from ui.theme import look
from ui.widgets import BoundCheckBox, DerivedLabel

STATE_COLORS = {
    "unencumbered": "#3f8f4f",
    "encumbered": "#c98a12",
    "heavily_encumbered": "#d0621b",
    "over_capacity": "#b3261e",
}


TOTAL_COLOR = QColor("#6b6f76")


def unit_word(unit: str) -> str:
    return "Bulk" if unit == "bulk" else unit


def parse_bulk(text: str) -> str | int | None:
    """``L`` (light), ``-`` (negligible) or a whole number; ``None`` if it is neither."""
    text = text.strip()
    if text.upper() == "L":
        return "L"
    if text in ("-", "—", "", "0"):
        return "-" if text != "0" else 0
    return int(text) if text.isdigit() else None


class InventoryModel(ListTableModel):
    """Name, quantity, weight (or Bulk) per item, and the row's total weight."""

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        self.bulk = ctx.system == "pf2e"
        unit = ctx.document.derived.carrying.unit
        self.headers = (
            ("Item", "Qty", "Bulk") if self.bulk
            else ("Item", "Qty", f"Weight ({unit})", f"Total ({unit})")
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
                return item.weight if role == EDIT else number(item.weight)
            if col == 3:
                return number(item.weight * item.quantity)
        if role == ALIGNMENT and col > 0:
            return NUMBER_ALIGNMENT
        if role == TOOLTIP and col == 2 and self.bulk:
            return "L = light (10 make 1 Bulk), — = negligible, or a number"
        if role == FOREGROUND and col == 3:
            return TOTAL_COLOR
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or self.row_item(index) is None:
            return False
        row, col = index.row(), index.column()
        doc = self.ctx.document
        if col == 0:
            return doc.set(("inventory", row, "name"), str(value), "Rename item")
        if col == 1:
            return doc.set(("inventory", row, "quantity"), int(value), "Set quantity")
        if col == 2 and self.bulk:
            bulk = parse_bulk(str(value))
            if bulk is None:
                doc.rejected.emit(f"Bulk is L, — or a whole number, not {value!r}")
                return False
            return doc.set(("inventory", row, "bulk"), bulk, "Set Bulk")
        if col == 2:
            try:
                weight = float(str(value).replace(",", "."))
            except ValueError:
                doc.rejected.emit(f"not a weight: {value!r}")
                return False
            return doc.set(("inventory", row, "weight"), weight, "Set weight")
        return False

    def add_item(self, row: int | None = None) -> int:
        row = len(self._shown) if row is None else row
        item = Pf2eItem(name="New item") if self.bulk else Item(name="New item")
        self.ctx.document.insert(("inventory",), row, item, "Add item")
        return row

    def remove_item(self, row: int) -> None:
        self.ctx.document.remove(("inventory",), row, "Remove item")


class EncumbranceBar(QWidget):
    """Load against capacity, with a tick at each threshold and the state in its colour.

    Draws what `Carrying` says; the thresholds and the state are the rules engine's."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.carry: Carrying | None = None
        self.setMinimumHeight(40)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Encumbrance")

    def sizeHint(self) -> QSize:
        return QSize(300, 40)

    def set_carrying(self, carry: Carrying) -> None:
        self.carry = carry
        self.setAccessibleDescription(describe_carrying(carry))
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
        p.setPen(QPen(QColor("#9aa0a6"), 1))
        p.setBrush(QColor("#eceff1"))
        p.drawRoundedRect(bar, 4, 4)
        fill = QRectF(bar)
        fill.setWidth(max(0.0, min(1.0, carry.carried / scale)) * w)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(STATE_COLORS.get(carry.state, "#777")))
        if fill.width() > 0:
            p.drawRoundedRect(fill, 4, 4)
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 0.85)
        p.setFont(font)
        unit = unit_word(carry.unit)
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
            p.setPen(QPen(QColor("#37474f"), 1.5))
            p.drawLine(int(x), 2, int(x), 20)
            tw = metrics.horizontalAdvance(text)
            tx = min(max(0, int(x - tw / 2)), self.width() - tw)
            p.setPen(QColor("#37474f"))
            p.drawText(tx, 21 + metrics.ascent(), text)
        p.end()


def describe_carrying(carry: Carrying) -> str:
    unit = unit_word(carry.unit)
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
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # fixed widths: sizing to contents would read every row on each change
        for col, width in zip(range(1, self.model.columnCount()), (48, 96, 86), strict=False):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)

        buttons = QHBoxLayout()
        add = QPushButton("Add item")
        add.setAccessibleName("Add item")
        add.clicked.connect(self._add)
        remove = QPushButton("Remove")
        remove.setAccessibleName("Remove selected item")
        remove.clicked.connect(self._remove)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        if ctx.system == "runarcana":
            buttons.addWidget(BoundCheckBox(
                ctx, ("options", "variant_encumbrance"), "Variant encumbrance",
                "Variant encumbrance",
                tip="Encumbered above ⅓ of capacity (−10 ft), heavily above ⅔ (−20 ft and "
                    "disadvantage on Str, Dex and Con rolls)"))
        buttons.addStretch(1)
        self.total = DerivedLabel("Carried load")
        look(self.total, "rowTotal")
        buttons.addWidget(self.total)

        self.bar = EncumbranceBar()
        self.state = QLabel()
        look(self.state, "carryState")
        self.state.setWordWrap(True)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.bar)
        layout.addWidget(self.state)
        ctx.binder.bind_derived(("carrying",), self.show_carrying)

    def show_carrying(self, carry: Carrying) -> None:
        self.bar.set_carrying(carry)
        unit = unit_word(carry.unit)
        self.total.show_value(
            f"{number(carry.carried)} / {number(carry.capacity)} {unit}",
            lambda: breakdown_html("Carried", f"{number(carry.carried)} {unit}", (),
                                   footer=[describe_carrying(carry),
                                           f"Push, drag or lift up to "
                                           f"{number(carry.push_drag_lift)} {unit}"]),
        )
        color = STATE_COLORS.get(carry.state, "#333")
        detail = "; ".join(carry.effects)
        self.state.setText(
            f"<span style='color:{color}'><b>{words(carry.state).capitalize()}</b></span>"
            + (f" — {detail}" if detail else "")
        )
        self.state.setAccessibleName(f"Encumbrance: {words(carry.state)}")

    def _add(self) -> None:
        row = self.model.add_item()
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.edit(index)

    def _remove(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.model.remove_item(index.row())


