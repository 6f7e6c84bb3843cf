"""The armor worn: entered values only; the sheet's AC shows what they add up to."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from sheet_app.edit import Path as ModelPath
from sheet_app.sheetspec import Control
from ui.context import SheetContext
from ui.controls import control_for
from ui.theme import look


def spoken_name(heading: str, spec: Control) -> str:
    """A control's name with its group's, unless it already says it: "Check penalty" under
    Shield is "Shield check penalty", "Shield bonus" stays as it is."""
    label = spec.label
    if label.lower().startswith(heading.lower()):
        return label
    return f"{heading} {label[:1].lower()}{label[1:]}"


HINT_WIDTH = 160
"""The hint beside the groups never gets narrower than this."""
NAME_CHARS = 24
"""A name field shows this many characters at least ("Heavy wooden shield")."""


class ArmorPanel(QScrollArea):
    """The groups the system declares (armor; shield and natural armor in some) side by
    side, each a form under its heading (a lone group needs none: the tab names it); a hint
    on the right. Scrolls rather than clip when the tab is short."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        body.setObjectName("armorBody")
        outer = QHBoxLayout(body)
        outer.setSpacing(18)
        self.controls: dict[ModelPath, QWidget] = {}
        groups = ctx.sheet.armor
        for heading, specs in groups:
            column = QVBoxLayout()
            column.setSpacing(4)
            if len(groups) > 1:
                title = QLabel(heading.upper())
                look(title, "sectionTitle")
                column.addWidget(title)
            form = QFormLayout()
            form.setHorizontalSpacing(12)
            for spec in specs:
                widget = control_for(ctx, spec, spoken_name(heading, spec))
                if isinstance(widget, QLineEdit):
                    widget.setMinimumWidth(
                        widget.fontMetrics().averageCharWidth() * NAME_CHARS)
                self.controls[spec.path] = widget
                form.addRow(spec.label, widget)
            column.addLayout(form)
            column.addStretch(1)
            outer.addLayout(column, 2)
        side = QVBoxLayout()
        hint = QLabel("The Defense box above updates as you edit: hover AC for every "
                      "modifier, or click it to see the breakdown in the roll panel.")
        hint.setWordWrap(True)
        hint.setMinimumWidth(HINT_WIDTH)
        look(hint, "hint")
        side.addWidget(hint)
        side.addStretch(1)
        outer.addLayout(side, 1)
        self.setWidget(body)
