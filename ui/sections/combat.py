"""Hit points, defenses, initiative, perception, speed and attacks."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from sheet_app.derived import HitPoints, Speed, Statistic
from sheet_app.edit import Path as ModelPath
from sheet_app.passive import fleeting_sources, passive_base, passive_lines
from sheet_app.sheetspec import (
    Control,
    Number,
    NumberList,
    PassiveSpec,
    StatRowSpec,
    Text,
    bounds,
)
from ui.context import SheetContext
from ui.controls import control_for
from ui.format import breakdown_html, signed
from ui.sections.hitpoints import HitPointsPlay, caption
from ui.sections.rows import StatRow, stat_row
from ui.theme import look
from ui.widgets import DerivedLabel, Section, StatButton

HP_COLUMNS = 3
SPEED_STEP = 5


def _columns(spec: Control) -> int:
    """Grid columns a control takes in the Hit points box: lists and text are wide."""
    return 2 if isinstance(spec, NumberList | Text) else 1


class HitPointsSection(Section):
    """Maximum hit points (derived) between the first two controls the system declares
    (current and temporary); under them the state in words and colour, the amount to apply
    with Damage, Heal and Temp, and the box of the system's rule at 0 HP (death saves, or
    dying and wounded); last its other controls (hit die and rolls, or ancestry and class
    hit points) two rows at a time: captions over inputs."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Hit points", parent)
        grid = QGridLayout(self.body)
        grid.setContentsMargins(8, 3, 8, 4)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        self.max = DerivedLabel("Maximum hit points")
        look(self.max, "bigNumber")
        self.controls: dict[ModelPath, QWidget] = {}
        specs = ctx.sheet.hit_points
        first, rest = specs[:2], specs[2:]
        for spec, col in zip(first, (0, 2), strict=False):
            widget = self._add(ctx, spec)
            grid.addWidget(caption(spec.label, widget), 0, col)
            grid.addWidget(widget, 1, col)
        grid.addWidget(caption("Max"), 0, 1)
        grid.addWidget(self.max, 1, 1, Qt.AlignmentFlag.AlignCenter)
        if first:  # as tall as the inputs beside it: digits need no room for descenders
            inputs = max(self.controls[spec.path].sizeHint().height() for spec in first)
            self.max.setMaximumHeight(max(inputs, round(self.max.fontMetrics().capHeight()
                                                         * 1.4)))
        self.play = HitPointsPlay(ctx, self)
        self.state, self.damage_row = self.play.state, self.play.damage_row
        grid.addWidget(self.play.state_row, 2, 0, 1, HP_COLUMNS)
        grid.addWidget(self.damage_row, 3, 0, 1, HP_COLUMNS)
        row = 4
        zero = self.play.zero_box()
        if zero is not None:
            grid.addWidget(zero, row, 0, 1, HP_COLUMNS)
            row += 1
        placed: list[tuple[Control, QWidget, int, int, int]] = []
        col = 0
        for spec in rest:
            width = min(_columns(spec), HP_COLUMNS)
            if col + width > HP_COLUMNS:
                row, col = row + 2, 0
            placed.append((spec, self._add(ctx, spec), row, col, width))
            col += width
        for index, (spec, widget, row, col, width) in enumerate(placed):
            last_in_row = index + 1 == len(placed) or placed[index + 1][2] != row
            span = HP_COLUMNS - col if last_in_row else width  # room for a long caption
            grid.addWidget(caption(spec.label, widget), row, col, 1, span)
            grid.addWidget(widget, row + 1, col, 1, width)
        for column in range(HP_COLUMNS):
            grid.setColumnStretch(column, 1)
        ctx.binder.bind_derived(("hp",), self.show_hp)

    def _add(self, ctx: SheetContext, spec: Control) -> QWidget:
        widget = control_for(ctx, spec)
        self.controls[spec.path] = widget
        return widget

    def show_hp(self, hp: HitPoints) -> None:
        self.max.show_value(str(hp.max), lambda: breakdown_html("Maximum hit points",
                                                                str(hp.max), hp.breakdown))


class DefenseSection(Section):
    """The defenses the system lists (AC, and touch and flat-footed AC in some), the first
    one large."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Defense", parent)
        layout = QHBoxLayout(self.body)
        layout.setSpacing(12)
        stats = ctx.document.derived.statistics
        self.buttons: dict[str, StatButton] = {}
        for stat_id, text in ctx.sheet.defenses:
            if stat_id not in stats:
                continue
            box = QVBoxLayout()
            box.setSpacing(0)
            button = StatButton(ctx, stat_id, stats[stat_id].label)
            look(button, "mediumNumber" if self.buttons else "bigNumber")
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
        lo, hi = bounds(ctx.rules.model, "speed")
        self.base = control_for(ctx, Number(("speed",), "Base speed", lo, hi, suffix=" ft",
                                            step=SPEED_STEP))
        self.total = DerivedLabel("Speed")
        look(self.total, "rowTotal")
        self.penalty = QLabel()
        self.penalty.setTextFormat(Qt.TextFormat.PlainText)  # effect names from the file
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
    """The system's combat rows and lone controls in order (initiative, perception,
    attacks, base attack bonus…), with the passive values and speed after the first
    `SheetSpec.combat_split` of them."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__("Combat", parent)
        layout = QVBoxLayout(self.body)
        layout.setSpacing(1)
        layout.setContentsMargins(6, 4, 6, 4)
        sheet = ctx.sheet
        stats = ctx.document.derived.statistics
        self.rows: dict[str, StatRow] = {}
        self.controls: dict[ModelPath, QWidget] = {}
        self.passives: PassiveRow | None = None
        for index, entry in enumerate(sheet.combat):
            if index == sheet.combat_split:
                self._add_passives_and_speed(ctx, layout)
            if not isinstance(entry, StatRowSpec):
                self._add_control(ctx, entry, layout)
            elif entry.stat_id in stats:
                row = stat_row(ctx, entry)
                self.rows[entry.stat_id] = row
                layout.addWidget(row)
        if len(sheet.combat) <= sheet.combat_split:
            self._add_passives_and_speed(ctx, layout)

    def _add_passives_and_speed(self, ctx: SheetContext, layout: QVBoxLayout) -> None:
        if ctx.sheet.passives:
            self.passives = PassiveRow(ctx)
            layout.addWidget(self.passives)
        self.speed = SpeedRow(ctx)
        layout.addWidget(self.speed)

    def _add_control(self, ctx: SheetContext, spec: Control, layout: QVBoxLayout) -> None:
        """A control of its own line: caption left, input right (weapon proficiency)."""
        control = control_for(ctx, spec)
        self.controls[spec.path] = control
        line = QHBoxLayout()
        line.setContentsMargins(2, 2, 0, 2)
        line.addWidget(caption(spec.label, control))
        line.addStretch(1)
        line.addWidget(control)
        layout.addLayout(line)


class PassiveRow(QWidget):
    """Passive values, 10 + a check (±5 for advantage where the system has it): passive
    Perception, a Perception DC, taking 10 on Listen and Spot. Hover one for the check
    behind it."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 0, 2)
        layout.setSpacing(14)
        prefix = ctx.sheet.passive_prefix
        self.labels: dict[str, DerivedLabel] = {}
        for spec in ctx.sheet.passives:
            box = QVBoxLayout()
            box.setSpacing(0)
            value = DerivedLabel(f"{prefix}{spec.label}")
            look(value, "passiveValue")
            value.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            box.addWidget(caption(f"{prefix}{spec.label}" if not self.labels else spec.label))
            box.addWidget(value)
            layout.addLayout(box)
            self.labels[spec.key] = value
            ctx.binder.bind_derived(("passive", spec.key), partial(self._show, spec))
        layout.addStretch(1)

    def _show(self, spec: PassiveSpec, value: int | None) -> None:
        title = f"{self.ctx.sheet.passive_prefix}{spec.label}"

        def explain() -> str:
            """The check as a passive counts it: dice bonuses and until-next-roll effects
            shown left out, and what the roll mode adds (the rules computed ``value``)."""
            document = self.ctx.document
            stat: Statistic | None = document.derived.statistics.get(spec.stat_id)
            head = f"<b>{title} {value}</b> = 10 + the check"
            if stat is None or value is None:
                return head
            fleeting = fleeting_sources(document.character)
            base = passive_base(stat, fleeting)
            if value != base:
                head += f" {signed(value - base)} ({stat.roll_mode})"
            lines = passive_lines(stat, fleeting)
            return head + "<hr>" + breakdown_html(stat.label, signed(base - 10), lines)

        self.labels[spec.key].show_value(str(value) if value is not None else "—", explain)
