"""One row per rollable statistic: its rank control, its name, its total and its die."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from ui.context import SheetContext
from ui.widgets import ClickableLabel, RollButton, StatButton


class StatRow(QFrame):
    """``[control] Name (abl)   +7 [d20]``: clicking the name or total shows the breakdown in
    the roll panel, the die rolls. The row is highlighted while its statistic is selected."""

    def __init__(
        self,
        ctx: SheetContext,
        stat_id: str,
        label: str,
        control: QWidget | None = None,
        *,
        ability: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.stat_id = stat_id
        self.setObjectName("statRow")
        self.setProperty("selected", False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 0, 0)
        layout.setSpacing(6)
        self.control = control
        if control is not None:
            layout.addWidget(control)
        self.name = ClickableLabel(label)
        self.name.setObjectName("rowName")
        self.name.clicked.connect(lambda: ctx.selection.select(stat_id))
        self.name.doubleClicked.connect(lambda: ctx.selection.roll(stat_id))
        layout.addWidget(self.name, 1)
        if ability:
            abbr = QLabel(ability.capitalize())
            abbr.setObjectName("abilityTag")
            abbr.setAccessibleName(f"{label} uses {ability}")
            layout.addWidget(abbr)
        self.total = StatButton(ctx, stat_id, f"{label} total")
        self.total.setMinimumWidth(44)
        layout.addWidget(self.total)
        self.roll = RollButton(ctx, stat_id, label)
        layout.addWidget(self.roll)
        if control is not None:
            control.setAccessibleName(control.accessibleName() or f"{label} rank")
        ctx.selection.selected.connect(self._on_selected)
        self._on_selected(ctx.selection.current)

    def _on_selected(self, stat_id: str) -> None:
        selected = stat_id == self.stat_id
        if self.property("selected") != selected:
            self.setProperty("selected", selected)
            self.style().unpolish(self)
            self.style().polish(self)


def section_title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionTitle")
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return label
