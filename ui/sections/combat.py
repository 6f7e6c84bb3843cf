"""Hit points, defenses, initiative, perception, speed and attacks."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from sheet_app.derived import HitPoints, Speed, Statistic
from sheet_app.model import DieHitPoints
from sheet_app.systems import skill_label
from ui.binding import qt_signals_blocked
from ui.context import SheetContext
from ui.format import breakdown_html, signed, statistic_html
from ui.sections.rows import StatRow
from ui.sections.skills import rank_combo
from ui.theme import look
from ui.widgets import (
    BoundComboBox,
    BoundSpinBox,
    DerivedLabel,
    Section,
    StatButton,
    slot,
)

HIT_DICE = (4, 6, 8, 10, 12, 20)


def caption(text: str, buddy: QWidget | None = None) -> QLabel:
    label = QLabel(text)
    look(label, "caption")
    if buddy is not None:
        label.setBuddy(buddy)
    return label


class LevelRollsEdit(QLineEdit):
    """The hit die rolled at each level from 2 on, as ``4, 5, 3``; empty levels use the average.

    Applied when editing finishes (a half-typed list is not a list)."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = ("hit_points", "level_rolls")
        self.setValidator(QRegularExpressionValidator(r"[0-9, ]*", self))
        self.setPlaceholderText("average")
        self.setAccessibleName("Hit die rolls, levels 2 and up")
        self.setToolTip("The hit die you rolled at levels 2, 3, …, separated by commas.\n"
                        "Levels without a roll use the average (die / 2 + 1).")
        self.editingFinished.connect(slot(self._commit))
        ctx.binder.bind_input(self.path, self.refresh)

    def _commit(self) -> None:
        rolls = [int(part) for part in re.split(r"[,\s]+", self.text()) if part]
        self.ctx.document.set(self.path, rolls, "Set level rolls")

    def refresh(self, value: Any) -> None:
        text = ", ".join(str(v) for v in value or ())
        if text != self.text():
            with qt_signals_blocked(self):
                self.setText(text)


class HitDieCombo(BoundComboBox):
    """The hit die; a smaller die caps rolls already entered (one command, one undo step)."""

    def _edited(self, index: int) -> None:
        if index < 0:
            return
        die = self._values[index]
        hp = self.ctx.document.character.hit_points
        assert isinstance(hp, DieHitPoints)
        new = hp.model_copy(update={"hit_die": die,
                                    "level_rolls": [min(r, die) for r in hp.level_rolls]})
        self.ctx.document.set(("hit_points",), new, "Set hit die")


class HitPointsSection(Section):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Hit points", parent)
        grid = QGridLayout(self.body)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(3)
        self.max = DerivedLabel("Maximum hit points")
        look(self.max, "bigNumber")
        self.current = BoundSpinBox(ctx, ("hit_points", "current"), -10_000, 10_000,
                                    "Current hit points")
        self.temporary = BoundSpinBox(ctx, ("hit_points", "temporary"), 0, 10_000,
                                      "Temporary hit points")
        grid.addWidget(caption("Current", self.current), 0, 0)
        grid.addWidget(caption("Max"), 0, 1)
        grid.addWidget(caption("Temp", self.temporary), 0, 2)
        grid.addWidget(self.current, 1, 0)
        grid.addWidget(self.max, 1, 1, Qt.AlignmentFlag.AlignCenter)
        grid.addWidget(self.temporary, 1, 2)
        if ctx.system == "pf2e":
            self.ancestry = BoundSpinBox(ctx, ("hit_points", "ancestry"), 0, 100, "Ancestry HP",
                                         tip="Hit points your ancestry gives at level 1")
            self.class_ = BoundSpinBox(ctx, ("hit_points", "class_"), 0, 100, "Class HP",
                                       tip="Hit points your class gives each level")
            grid.addWidget(caption("Ancestry HP", self.ancestry), 2, 0)
            grid.addWidget(caption("Class HP / level", self.class_), 2, 1, 1, 2)
            grid.addWidget(self.ancestry, 3, 0)
            grid.addWidget(self.class_, 3, 1)
        else:
            self.die = HitDieCombo(ctx, ("hit_points", "hit_die"),
                                   [(d, f"d{d}") for d in HIT_DICE], "Hit die")
            self.rolls = LevelRollsEdit(ctx)
            grid.addWidget(caption("Hit die", self.die), 2, 0)
            grid.addWidget(caption("Rolls, level 2+", self.rolls), 2, 1, 1, 2)
            grid.addWidget(self.die, 3, 0)
            grid.addWidget(self.rolls, 3, 1, 1, 2)
        for col in range(3):
            grid.setColumnStretch(col, 1)
        ctx.binder.bind_derived(("hp",), self.show_hp)

    def show_hp(self, hp: HitPoints) -> None:
        self.max.show_value(str(hp.max), lambda: breakdown_html("Maximum hit points",
                                                                str(hp.max), hp.breakdown))


class DefenseSection(Section):
    """Armor Class; on d20srd also touch and flat-footed AC."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Defense", parent)
        layout = QHBoxLayout(self.body)
        layout.setSpacing(12)
        stats = ctx.document.derived.statistics
        self.buttons: dict[str, StatButton] = {}
        shown = (("ac", "AC"), ("ac:touch", "Touch"), ("ac:flat_footed", "Flat-footed"))
        for stat_id, text in shown:
            if stat_id not in stats:
                continue
            box = QVBoxLayout()
            box.setSpacing(0)
            button = StatButton(ctx, stat_id, stats[stat_id].label)
            look(button, "bigNumber" if stat_id == "ac" else "mediumNumber")
            self.buttons[stat_id] = button
            box.addWidget(caption(text), 0, Qt.AlignmentFlag.AlignHCenter)
            box.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)
            layout.addLayout(box)
        layout.addStretch(1)


class SpeedRow(QWidget):
    """Base speed (entered) and speed after encumbrance and armor (derived), with what
    slowed it on a second line."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 0, 2)
        outer.setSpacing(0)
        layout = QHBoxLayout()
        layout.setSpacing(6)
        self.base = BoundSpinBox(ctx, ("speed",), 0, 300, "Base speed", suffix=" ft")
        self.base.setSingleStep(5)
        self.total = DerivedLabel("Speed")
        look(self.total, "rowTotal")
        self.penalty = QLabel()
        look(self.penalty, "penaltyNote")
        self.penalty.setWordWrap(True)
        self.penalty.setAccessibleName("Speed penalty")
        layout.addWidget(caption("Speed", self.base))
        layout.addWidget(self.base)
        layout.addWidget(QLabel("→"))
        layout.addWidget(self.total)
        layout.addStretch(1)
        outer.addLayout(layout)
        outer.addWidget(self.penalty)
        ctx.binder.bind_derived(("speed",), self.show_speed)

    def show_speed(self, speed: Speed) -> None:
        explain = lambda: breakdown_html("Speed", f"{speed.total} ft", speed.breakdown,  # noqa: E731
                                         base=speed.base)
        self.total.show_value(f"{speed.total} ft", explain)
        lost = speed.base - speed.total
        reasons = ", ".join(f"{line.label.lower()} ({signed(line.value)} ft)"
                            for line in speed.breakdown if line.applied and line.value)
        self.penalty.setText(f"slowed by {reasons}" if lost else "")
        self.penalty.setVisible(bool(lost))


class CombatSection(Section):
    """Initiative, perception and its passive values, speed, attacks."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Combat", parent)
        layout = QVBoxLayout(self.body)
        layout.setSpacing(1)
        layout.setContentsMargins(6, 4, 6, 4)
        system = ctx.system
        self.rows: dict[str, StatRow] = {}
        if system == "pf2e":
            rank = rank_combo(ctx, ("perception",), "Perception proficiency")
            self._row(ctx, "perception", "Perception", rank, layout)
        self._row(ctx, "initiative", "Initiative", None, layout)
        self.passives = PassiveRow(ctx)
        layout.addWidget(self.passives)
        layout.addWidget(SpeedRow(ctx))
        control: QWidget | None = None
        if system == "pf2e":
            control = rank_combo(ctx, ("weapon_proficiency",), "Weapon proficiency")
        elif system == "d20srd":
            control = BoundSpinBox(ctx, ("base_attack_bonus",), 0, 40, "Base attack bonus",
                                   tip="Base attack bonus (from class and level)")
        if control is not None:
            line = QHBoxLayout()
            line.setContentsMargins(2, 2, 0, 2)
            text = "Weapon proficiency" if system == "pf2e" else "Base attack bonus"
            line.addWidget(caption(text, control))
            line.addStretch(1)
            line.addWidget(control)
            layout.addLayout(line)
        self._row(ctx, "attack:melee", "Melee attack", None, layout)
        self._row(ctx, "attack:ranged", "Ranged attack", None, layout)

    def _row(
        self, ctx: SheetContext, stat_id: str, label: str, control: QWidget | None,
        layout: QVBoxLayout,
    ) -> None:
        if stat_id not in ctx.document.derived.statistics:
            return
        row = StatRow(ctx, stat_id, label, control)
        self.rows[stat_id] = row
        layout.addWidget(row)


class PassiveRow(QWidget):
    """Passive values (10 + the check, ±5 for advantage in runarcana): Perception DC in pf2e,
    taking 10 on Listen and Spot in d20srd. Hover one for the check behind it."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 0, 2)
        layout.setSpacing(14)
        prefix = {"runarcana": "Passive ", "pf2e": "", "d20srd": "Take 10: "}[ctx.system]
        self.labels: dict[str, DerivedLabel] = {}
        for skill in ctx.document.derived.passive:
            name = "Perception DC" if ctx.system == "pf2e" else skill_label(skill)
            box = QVBoxLayout()
            box.setSpacing(0)
            value = DerivedLabel(f"{prefix}{name}")
            look(value, "passiveValue")
            value.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            box.addWidget(caption(f"{prefix}{name}" if not self.labels else name))
            box.addWidget(value)
            layout.addLayout(box)
            self.labels[skill] = value
            ctx.binder.bind_derived(("passive", skill), partial(self._show, skill))
        layout.addStretch(1)

    def _show(self, skill: str, value: int | None) -> None:
        stat_id = "perception" if self.ctx.system == "pf2e" else f"skill:{skill}"

        def explain() -> str:
            stat: Statistic | None = self.ctx.document.derived.statistics.get(stat_id)
            head = f"<b>Passive {skill_label(skill)} {value}</b> = 10 + the check"
            if stat is not None and stat.roll_mode in ("advantage", "disadvantage"):
                head += f" {'+5' if stat.roll_mode == 'advantage' else '−5'} ({stat.roll_mode})"
            return head + ("<hr>" + statistic_html(stat) if stat is not None else "")

        self.labels[skill].show_value(str(value) if value is not None else "—", explain)
