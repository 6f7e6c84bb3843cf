"""One row per rollable statistic: its rank control, its name, its total and its die."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from sheet_app.sheetspec import StatRowSpec
from ui.context import SheetContext
from ui.controls import control_for
from ui.theme import SELECTED_ROW, look, set_background
from ui.widgets import ClickableLabel, RollButton, StatButton

TAG_WIDTH = 28
TOTAL_WIDTH = 50
"""Fixed, so totals line up in a column whatever the names beside them."""


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
        spoken: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``spoken`` names the statistic for screen readers when ``label`` relies on its
        section ("Strength" under Saving throws is "Strength save")."""
        super().__init__(parent)
        spoken = spoken or label
        self.ctx = ctx
        self.stat_id = stat_id
        self.setObjectName("statRow")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 0, 0)
        layout.setSpacing(6)
        self.control = control
        if control is not None:
            layout.addWidget(control)
        self.name = ClickableLabel(label, ctx, stat_id)
        self.name.setObjectName("rowName")
        layout.addWidget(self.name, 1)
        if ability:
            abbr = QLabel(ability.capitalize())
            look(abbr, "abilityTag")
            abbr.setFixedWidth(TAG_WIDTH)
            abbr.setAccessibleName(f"{spoken} uses {ability}")
            layout.addWidget(abbr)
        self.total = StatButton(ctx, stat_id, f"{spoken} total")
        self.total.setFixedWidth(TOTAL_WIDTH)
        layout.addWidget(self.total)
        self.roll = RollButton(ctx, stat_id, spoken)
        layout.addWidget(self.roll)
        if control is not None:
            control.setAccessibleName(control.accessibleName() or f"{spoken} rank")
        self._selected = False
        ctx.selection.watch(stat_id, self.mark_selected)

    def mark_selected(self, selected: bool) -> None:
        if selected != self._selected:
            self._selected = selected
            set_background(self, SELECTED_ROW if selected else None)


def stat_row(ctx: SheetContext, spec: StatRowSpec) -> StatRow:
    """The row a `StatRowSpec` describes, with the input its control declares."""
    control = control_for(ctx, spec.control) if spec.control is not None else None
    return StatRow(ctx, spec.stat_id, spec.label, control, ability=spec.ability,
                   spoken=spec.spoken)
