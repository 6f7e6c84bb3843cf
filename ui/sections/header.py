"""The sheet's top line: who the character is."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from sheet_app.systems import SIZES, SYSTEM_NAMES
from ui.context import SheetContext
from ui.theme import look
from ui.widgets import BoundComboBox, BoundLineEdit, BoundSpinBox


class HeaderSection(QWidget):
    """Name, system, level, size, ancestry and class."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("header")
        grid = QGridLayout(self)
        grid.setContentsMargins(2, 0, 2, 4)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(1)

        self.name = BoundLineEdit(ctx, ("name",), "Character name", placeholder="Character name")
        look(self.name, "characterName")
        system = QLabel(SYSTEM_NAMES[ctx.system])
        look(system, "systemBadge")
        system.setAccessibleName("Rule system")
        system.setToolTip("The rule system of this sheet (File ▸ New to start another system)")
        self.level = BoundSpinBox(ctx, ("level",), 1, 20, "Level")
        self.size_choice = BoundComboBox(
            ctx, ("size",), [(s, s.capitalize()) for s in SIZES[ctx.system]], "Size"
        )
        ancestry_word = "Ancestry" if ctx.system == "pf2e" else "Race / origin"
        self.ancestry = BoundLineEdit(ctx, ("ancestry",), ancestry_word, placeholder=ancestry_word)
        self.class_ = BoundLineEdit(ctx, ("class_",), "Class", placeholder="Class")

        fields: list[tuple[str, QWidget, int]] = [
            ("Name", self.name, 4),
            ("System", system, 2),
            ("Level", self.level, 1),
            ("Size", self.size_choice, 2),
            (ancestry_word, self.ancestry, 3),
            ("Class", self.class_, 3),
        ]
        for col, (caption, widget, stretch) in enumerate(fields):
            label = QLabel(caption)
            look(label, "caption")
            label.setBuddy(widget)
            grid.addWidget(label, 0, col)
            grid.addWidget(widget, 1, col)
            grid.setColumnStretch(col, stretch)
