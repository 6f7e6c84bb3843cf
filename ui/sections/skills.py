"""Skills and saving throws: one `StatRow` each, with the control the system declares."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from ui.context import SheetContext
from ui.sections.rows import StatRow, stat_row
from ui.widgets import Section


class SkillsSection(Section):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Skills", parent)
        outer = QVBoxLayout(self.body)
        outer.setContentsMargins(4, 4, 4, 4)
        scroll = SkillsScroll()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        body.setObjectName("skillsBody")
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        scroll.setWidget(body)  # while empty: the scroll area measures what it is given
        self.rows: dict[str, StatRow] = {}
        """Statistic id (``skill:stealth``) → its row."""
        for spec in ctx.sheet.skills:
            row = stat_row(ctx, spec)
            self.rows[spec.stat_id] = row
            layout.addWidget(row)
        layout.addStretch(1)
        outer.addWidget(scroll)


class SkillsScroll(QScrollArea):
    """Never narrower than its rows: names are not cut off, the list scrolls only down."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        body = self.widget()
        if body is None:
            return hint
        # asked as the sheet is laid out, after the rows are polished: measured once
        width = body.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(width, hint.height())


class SavesSection(Section):
    """A row per saving throw, with its proficiency, rank or base bonus."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Saving throws", parent)
        layout = QVBoxLayout(self.body)
        layout.setSpacing(1)
        layout.setContentsMargins(6, 4, 6, 4)
        self.rows: dict[str, StatRow] = {}
        for spec in ctx.sheet.saves:
            row = stat_row(ctx, spec)
            self.rows[spec.stat_id] = row
            layout.addWidget(row)
