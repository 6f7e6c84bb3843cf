"""Skills and saving throws: one `StatRow` each, with the system's rank control."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QComboBox, QFrame, QScrollArea, QVBoxLayout, QWidget

from sheet_app.systems import (
    ABILITIES,
    ABILITY_NAMES,
    PF2E_RANKS,
    PF2E_SAVES,
    RUNARCANA_RANKS,
    SKILLS,
    skill_label,
)
from ui.context import SheetContext
from ui.document import MISSING
from ui.sections.rows import StatRow
from ui.widgets import BoundCheckBox, BoundComboBox, BoundSpinBox, Section

RUNARCANA_RANK_LABELS = {
    "untrained": "—",
    "proficient": "Proficient",
    "expertise": "Expertise",
    "expertise_twice": "Expertise ×2",
}


RANK_PADDING = 30
"""Room for the drop-down arrow and the frame beside the longest rank word."""


def rank_choices(system: str) -> list[tuple[str, str]]:
    if system == "runarcana":
        return [(r, RUNARCANA_RANK_LABELS[r]) for r in RUNARCANA_RANKS]
    return [(r, "—" if r == "untrained" else r.capitalize()) for r in PF2E_RANKS]


def rank_control(ctx: SheetContext, path: tuple[str, ...], label: str) -> QWidget:
    """The proficiency control of a skill: a rank list, or ranks bought (d20srd)."""
    if ctx.system == "d20srd":
        return BoundSpinBox(ctx, path, 0, 50, f"{label} ranks", missing_value=0,
                            tip=f"Ranks in {label}")
    return rank_combo(ctx, path, f"{label} proficiency")


def rank_combo(ctx: SheetContext, path: tuple[str, ...], name: str) -> BoundComboBox:
    """A proficiency rank list of the sheet's system, all the same width so names line up."""
    choices = rank_choices(ctx.system)
    combo = BoundComboBox(ctx, path, choices, name, missing_value="untrained")
    combo.setObjectName("rankCombo")
    combo.setFixedWidth(_rank_width(combo, tuple(label for _, label in choices)))
    return combo


_RANK_WIDTHS: dict[tuple[str, ...], tuple[QFont, int]] = {}


def _rank_width(combo: QComboBox, labels: tuple[str, ...]) -> int:
    """The width of the longest rank word plus padding, measured once per font."""
    font = combo.font()
    cached = _RANK_WIDTHS.get(labels)
    if cached is not None and cached[0] == font:
        return cached[1]
    metrics = combo.fontMetrics()
    width = max(metrics.horizontalAdvance(label) for label in labels) + RANK_PADDING
    _RANK_WIDTHS[labels] = (font, width)
    return width


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
        field = "skill_ranks" if ctx.system == "d20srd" else "skills"
        self.rows: dict[str, StatRow] = {}
        for skill, abbr in SKILLS[ctx.system].items():
            label = skill_label(skill)
            control = rank_control(ctx, (field, skill), label)
            row = StatRow(ctx, f"skill:{skill}", label, control, ability=abbr)
            self.rows[skill] = row
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
    """runarcana: a save per ability, proficient or not; pf2e: three saves with ranks;
    d20srd: three saves with their base bonus."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Saving throws", parent)
        layout = QVBoxLayout(self.body)
        layout.setSpacing(1)
        layout.setContentsMargins(6, 4, 6, 4)
        self.rows: dict[str, StatRow] = {}
        system = ctx.system
        if system == "runarcana":
            for abbr in ABILITIES:
                name = ABILITY_NAMES[abbr]
                box = BoundCheckBox(ctx, ("saves", abbr), "", f"{name} save proficiency",
                                    on="proficient", off=MISSING,
                                    tip=f"Proficient in {name} saving throws")
                self._add(ctx, f"save:{abbr}", name, box, layout)
        else:
            for save in PF2E_SAVES:
                label = save.capitalize()
                control: QWidget
                if system == "pf2e":
                    control = rank_combo(ctx, ("saves", save), f"{label} proficiency")
                else:
                    control = BoundSpinBox(ctx, ("base_saves", save), 0, 30,
                                           f"{label} base save", missing_value=0,
                                           tip=f"Base {label} save bonus (from class)")
                self._add(ctx, f"save:{save}", label, control, layout)

    def _add(
        self, ctx: SheetContext, stat_id: str, label: str, control: QWidget,
        layout: QVBoxLayout, ability: str | None = None,
    ) -> None:
        row = StatRow(ctx, stat_id, label, control, ability=ability, spoken=f"{label} save")
        self.rows[stat_id] = row
        layout.addWidget(row)
