"""The widget for each control a system's `SheetSpec` declares.

`control_for` turns a `Number`, `Choice`, `Toggle`, `Text` or `NumberList` into the bound
input that edits it; the sections place the widgets and never ask which system they show.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtGui import QFont, QRegularExpressionValidator
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from sheet_app.edit import EditRejected, Set, apply, dotted
from sheet_app.edit import Path as ModelPath
from sheet_app.model import DieHitPoints
from sheet_app.sheetspec import (
    Choice,
    Control,
    Number,
    NumberList,
    SheetSpec,
    StatRowSpec,
    Text,
    Toggle,
)
from ui.binding import qt_signals_blocked
from ui.context import SheetContext
from ui.format import brief, parse_whole
from ui.widgets import (
    BoundCheckBox,
    BoundComboBox,
    BoundLineEdit,
    BoundSpinBox,
    slot,
)

RANK_PADDING = 30
"""Room for the drop-down arrow and the frame beside the longest rank word."""


def control_for(ctx: SheetContext, spec: Control, name: str | None = None) -> QWidget:
    """The bound input for ``spec``; ``name`` (default: the spec's label) is what a screen
    reader calls it, the spec's tip its description and tooltip."""
    spoken = name or spec.label
    if isinstance(spec, Number):
        return BoundSpinBox(ctx, spec.path, spec.lo, spec.hi, spoken, none_text=spec.none_text,
                            missing_value=spec.missing, suffix=spec.suffix, step=spec.step,
                            tip=spec.tip)
    if isinstance(spec, Choice):
        if spec.role == "hit_die":
            return HitDieCombo(ctx, spec.path, spec.choices, spoken, missing_value=spec.missing,
                               tip=spec.tip)
        combo = BoundComboBox(ctx, spec.path, spec.choices, spoken, missing_value=spec.missing,
                              tip=spec.tip)
        if spec.role == "rank":
            combo.setObjectName("rankCombo")
            combo.setFixedWidth(_rank_width(combo, rank_labels(ctx.sheet)))
        return combo
    if isinstance(spec, Toggle):
        return BoundCheckBox(ctx, spec.path, "", spoken, on=spec.on, off=spec.off, tip=spec.tip)
    if isinstance(spec, Text):
        return BoundLineEdit(ctx, spec.path, spoken, placeholder=spec.placeholder, tip=spec.tip)
    return NumberListEdit(ctx, spec, spoken)


# --- rank lists ----------------------------------------------------------------------------

MAX_CACHED_SHEETS = 16
_RANK_LABELS: dict[int, tuple[SheetSpec, tuple[str, ...]]] = {}
_RANK_WIDTHS: dict[tuple[str, ...], tuple[QFont, int]] = {}


def _controls(sheet: SheetSpec) -> list[Control]:
    """Every control the sheet declares, wherever it sits."""
    found: list[Control] = [*sheet.header, *sheet.hit_points]
    found.extend(sheet.abilities.inputs.values())
    for row in (*sheet.saves, *sheet.skills, *sheet.combat):
        control = row.control if isinstance(row, StatRowSpec) else row
        if control is not None:
            found.append(control)
    for _, group in sheet.armor:
        found.extend(group)
    return found


def rank_labels(sheet: SheetSpec) -> tuple[str, ...]:
    """The words of every rank list on the sheet: each list is as wide as the widest of
    them, so the names beside them line up."""
    cached = _RANK_LABELS.get(id(sheet))
    if cached is not None and cached[0] is sheet:
        return cached[1]
    labels: dict[str, None] = {}
    for control in _controls(sheet):
        if isinstance(control, Choice) and control.role == "rank":
            labels.update(dict.fromkeys(label for _, label in control.choices))
    result = tuple(labels)
    if len(_RANK_LABELS) > MAX_CACHED_SHEETS:  # a system that builds a new one each time
        _RANK_LABELS.clear()
    _RANK_LABELS[id(sheet)] = (sheet, result)
    return result


def _rank_width(combo: QComboBox, labels: tuple[str, ...]) -> int:
    """The width of the longest rank word plus padding, measured once per font."""
    font = combo.font()
    cached = _RANK_WIDTHS.get(labels)
    if cached is not None and cached[0] == font:
        return cached[1]
    metrics = combo.fontMetrics()
    width = max((metrics.horizontalAdvance(label) for label in labels), default=0)
    width += RANK_PADDING
    _RANK_WIDTHS[labels] = (font, width)
    return width


# --- hit dice ------------------------------------------------------------------------------


class HitDieCombo(BoundComboBox):
    """The hit die; a smaller die caps the level rolls already entered (one command, one
    undo step)."""

    def _edited(self, index: int) -> None:
        if index < 0:
            return
        die = self._values[index]
        owner_path = self.path[:-1]
        owner = self.ctx.document.value(owner_path)
        if not isinstance(owner, DieHitPoints) or not isinstance(die, int):
            super()._edited(index)
            return
        new = owner.model_copy(update={"hit_die": die,
                                       "level_rolls": [min(r, die) for r in owner.level_rolls]})
        self.ctx.document.set(owner_path, new, f"Set {self.accessibleName()}")


MAX_PROBLEMS = 3
"""A list's message names at most this many bad entries (then how many more)."""


class NumberListEdit(QLineEdit):
    """Whole numbers separated by commas (the hit die rolled at levels 2, 3, …).

    Applied when editing finishes (a half-typed list is not a list). An entry the sheet
    can't take (out of range, above the hit die) is reported in the status bar and the
    others are kept: a bad entry keeps the value it had, and entries after a bad new one
    are left off rather than moved up a place."""

    def __init__(
        self, ctx: SheetContext, spec: NumberList, name: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.spec = spec
        self.path: ModelPath = spec.path
        digits = r"[-0-9, ]*" if spec.lo < 0 else r"[0-9, ]*"
        self.setValidator(QRegularExpressionValidator(digits, self))
        self.setPlaceholderText(spec.placeholder)
        self.setAccessibleName(name)
        if spec.tip:
            self.setToolTip(spec.tip)
            self.setAccessibleDescription(spec.tip)
        self.editingFinished.connect(slot(self._commit))
        ctx.binder.bind_input(self.path, self.refresh)

    def _commit(self) -> None:
        document = self.ctx.document
        old = document.value(self.path)
        old_list: list[Any] = list(old) if isinstance(old, list) else []
        kept, problems = self._checked(self.text(), old_list)
        if kept != old_list:
            document.set(self.path, kept, f"Set {self.accessibleName()}")
        self.refresh(document.value(self.path))
        if problems:
            more = len(problems) - MAX_PROBLEMS
            document.rejected.emit("; ".join(problems[:MAX_PROBLEMS])
                                   + (f"; and {more} more" if more > 0 else ""))

    def _checked(self, text: str, old: list[Any]) -> tuple[list[int], list[str]]:
        """The entries of ``text`` the sheet accepts, and why each other one was not."""
        spec = self.spec
        character = self.ctx.document.character
        kept: list[int] = []
        problems: list[str] = []
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        where = self.accessibleName() or dotted(self.path)
        for position, part in enumerate(parts):
            value = parse_whole(part)
            if value is None:
                problem = (f"{where}: entry {position + 1}, {brief(part)}, is not a whole "
                           f"number from {spec.lo} to {spec.hi}")
            elif not spec.lo <= value <= spec.hi:
                problem = (f"{where}: entry {position + 1}: {value} is not between "
                           f"{spec.lo} and {spec.hi}")
            else:
                try:
                    apply(character, Set(self.path, [*kept, value]))  # the model's own checks
                except EditRejected as exc:
                    problem = str(exc)
                else:
                    kept.append(value)
                    continue
            if position < len(old):
                kept.append(old[position])
                problems.append(f"{problem} (kept {old[position]})")
            else:
                left = len(parts) - position - 1
                problems.append(problem + (f" ({left} more left off)" if left else ""))
                break
        return kept, problems

    def refresh(self, value: Any) -> None:
        text = ", ".join(str(v) for v in value or ())
        if text != self.text():
            with qt_signals_blocked(self):
                self.setText(text)

