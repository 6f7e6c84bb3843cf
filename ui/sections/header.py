"""The sheet's top line: who the character is, with the fields the system declares."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from sheet_app.edit import Path as ModelPath
from sheet_app.sheetspec import Choice, Control, Number
from ui.context import SheetContext
from ui.controls import control_for
from ui.theme import look

NAME_PATH: ModelPath = ("name",)
"""Every character has a name (`CharacterBase`): it leads the line, large."""


def _stretch(spec: Control) -> int:
    """How much of the line a field takes: the name most, numbers least."""
    if spec.path == NAME_PATH:
        return 4
    if isinstance(spec, Number):
        return 1
    if isinstance(spec, Choice):
        return 2
    return 3


class HeaderSection(QWidget):
    """Name, system, then the system's other header fields (level, size, ancestry, class)."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("header")
        grid = QGridLayout(self)
        grid.setContentsMargins(2, 0, 2, 4)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(1)
        sheet = ctx.sheet

        self.controls: dict[ModelPath, QWidget] = {}
        fields: list[tuple[str, QWidget, int]] = []
        for spec in sheet.header:
            if spec.path == NAME_PATH:
                widget = control_for(ctx, spec, "Character name")
                look(widget, "characterName")
            else:
                widget = control_for(ctx, spec)
            self.controls[spec.path] = widget
            fields.append((spec.label, widget, _stretch(spec)))
        system = QLabel(sheet.system_name)
        look(system, "systemBadge")
        system.setAccessibleName("Rule system")
        system.setToolTip("The rule system of this sheet (File ▸ New to start another system)")
        self.system_badge = system
        at = 1 if sheet.header and sheet.header[0].path == NAME_PATH else 0
        fields.insert(at, ("System", system, 2))

        for col, (caption, widget, stretch) in enumerate(fields):
            label = QLabel(caption)
            look(label, "caption")
            if widget is not system:
                label.setBuddy(widget)
            grid.addWidget(label, 0, col)
            grid.addWidget(widget, 1, col)
            grid.setColumnStretch(col, stretch)

    @property
    def name(self) -> QWidget:
        """The character's name field (focused when a sheet opens)."""
        found = self.controls.get(NAME_PATH) or next(iter(self.controls.values()), None)
        return found if found is not None else self
