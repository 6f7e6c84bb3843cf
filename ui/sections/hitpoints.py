"""Hit points in play: damage, healing and temporary hit points, the state in words and colour,
and what the system does at 0 HP.

The rules are `sheet_app.hitpoints`; these widgets only ask it and push what it answers, each
action as one undo step that also writes the roll log (`hitpoints.as_batch`). Which box shows
at 0 HP comes from the system's ``facts.death_rule``: death save boxes (``death_saves``),
dying, wounded and doomed (``dying``), or the state words alone (``negative_hp``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any, Final

from PySide6.QtCore import QObject, QRegularExpression, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPalette, QRegularExpressionValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QToolButton,
    QWidget,
)

from sheet_app import hitpoints
from sheet_app.hitpoints import HpChange, HpState
from sheet_app.model import CharacterBase
from sheet_app.sheetspec import Number, bounds
from ui.binding import qt_signals_blocked
from ui.context import SheetContext
from ui.controls import control_for
from ui.theme import HP_STATE_COLORS, look, qcolor
from ui.widgets import BoundSpinBox, icon, slot

DEATH_SAVES: Final = "death_saves"
"""``facts.death_rule`` of the 5e-style systems: three success and three failure boxes."""
DYING: Final = "dying"
"""``facts.death_rule`` of a system with a dying value (recovery checks, wounded, doomed)."""
CRITICAL_MATTERS: Final = (DEATH_SAVES, DYING)
"""The rules at 0 HP where a critical hit does more (two failures; dying 2)."""
SAVE_BOXES: Final = 3
AMOUNT_DIGITS: Final = 5
SHIFT: Final = Qt.KeyboardModifier.ShiftModifier

_FALLBACK_RNG = random.Random()


def window_rng(widget: QWidget) -> random.Random:
    """The dice of ``widget``'s window: its roll panel's (a window made with ``rng=`` rolls
    death saves with the same seeded dice as checks), else a shared one."""
    from ui.roll_panel import RollPanel  # the panel is the window's; imported when rolling

    panel = widget.window().findChild(RollPanel)
    return panel.rng if panel is not None else _FALLBACK_RNG


def announce(widget: QWidget, text: str) -> None:
    """``text`` in the window's status bar (through the roll panel's messages)."""
    from ui.roll_panel import RollPanel

    panel = widget.window().findChild(RollPanel)
    if panel is not None:
        panel.message.emit(text)


def push_change(ctx: SheetContext, change: HpChange) -> bool:
    """``change`` and its roll-log entry as one undo step named by its text."""
    batch = hitpoints.as_batch(ctx.document.character, change, datetime.now().astimezone())
    return ctx.document.push(batch, change.text)


def roll_and_apply(
    widget: QWidget, ctx: SheetContext,
    roll: Callable[[CharacterBase, random.Random], HpChange],
) -> HpChange | None:
    """Roll ``roll`` (a death save, a recovery check) with the window's dice and apply it as
    one undo step with its log entry; a roll the sheet can't make says why in the status bar."""
    try:
        change = roll(ctx.document.character, window_rng(widget))
    except ValueError as exc:
        ctx.document.rejected.emit(str(exc))
        return None
    if push_change(ctx, change):
        announce(widget, change.text)
    return change


def state_text(state: HpState) -> str:
    return state.words[:1].upper() + state.words[1:]


# --- small widgets -------------------------------------------------------------------------


class AmountEdit(QLineEdit):
    """How many hit points: digits only. Enter applies (`submitted`), Shift+Enter as a critical
    hit."""

    submitted = Signal(bool)
    """Enter was pressed; True with Shift held (critical)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setValidator(QRegularExpressionValidator(
            QRegularExpression(rf"\d{{0,{AMOUNT_DIGITS}}}"), self))
        self.setPlaceholderText("HP")
        self.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setAccessibleName("Hit points to apply")
        tip = ("Type an amount, then Damage (Enter), Heal or Temp.\n"
               "Shift+Enter: damage from a critical hit.")
        self.setToolTip(tip)
        self.setAccessibleDescription(tip)
        self.setFixedWidth(self.fontMetrics().horizontalAdvance("0" * AMOUNT_DIGITS) + 18)

    def amount(self) -> int | None:
        text = self.text().strip()
        return int(text) if text else None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submitted.emit(bool(event.modifiers() & SHIFT))
            event.accept()
            return
        super().keyPressEvent(event)


class ShiftButton(QToolButton):
    """A compact text button that remembers whether Shift was held when it was clicked."""

    def __init__(self, text: str, name: str, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setText(text)
        self.setAccessibleName(name)
        self.setToolTip(tip)
        self.setAccessibleDescription(tip)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.shift = False

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self.shift = bool(event.modifiers() & SHIFT)
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.shift = bool(event.modifiers() & SHIFT)
        super().keyPressEvent(event)

    def take_shift(self) -> bool:
        """Whether Shift was held for the click being handled (then forgotten)."""
        held, self.shift = self.shift, False
        return held


def _roll_button(text: str, name: str, tip: str, action: Callable[[], object]) -> QToolButton:
    """A die and a word: a roll made with the window's dice."""
    button = QToolButton()
    button.setText(text)
    button.setIcon(icon("d20"))
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setAccessibleName(name)
    button.setToolTip(tip)
    button.setAccessibleDescription(tip)
    button.clicked.connect(lambda _=False: action())
    return button


class StateLabel(QLabel):
    """The hit-point state in words ("Bloodied", "Dying 2, wounded 1"), coloured by its
    severity."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        look(self, "rowTotal")
        self.setWordWrap(True)
        self.setAccessibleName("Hit point state")
        self.state: HpState | None = None

    def show_state(self, state: HpState) -> None:
        if state == self.state:
            return
        self.state = state
        text = state_text(state)
        self.setText(text)
        self.setAccessibleDescription(text)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.WindowText, qcolor(HP_STATE_COLORS[state.severity]))
        self.setPalette(palette)


def caption(text: str, buddy: QWidget | None = None) -> QLabel:
    """A small muted label over (or beside) an input; ``buddy`` gets the focus from it."""
    label = QLabel(text)
    look(label, "caption")
    if buddy is not None:
        label.setBuddy(buddy)
    return label


class HpActions(QWidget):
    """An amount with Damage, Heal and Temp, and a Critical box where the system's rule at 0 HP
    makes a critical hit count for more."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(3)
        self.amount = AmountEdit()
        self.damage = ShiftButton(
            "Damage", "Take damage",
            "Take this much damage (Enter). Temporary HP are lost first.\n"
            "Shift+click or Shift+Enter: from a critical hit.")
        self.heal = ShiftButton("Heal", "Heal", "Heal this much, never above the maximum")
        self.temp = ShiftButton(
            "Temp", "Gain temporary hit points",
            "Gain this many temporary HP. They don't stack: the higher value stays.")
        self.critical: QCheckBox | None = None
        row.addWidget(self.amount)
        row.addWidget(self.damage)
        row.addWidget(self.heal)
        row.addWidget(self.temp)
        if ctx.facts.death_rule in CRITICAL_MATTERS:
            self.critical = QCheckBox("Crit")
            self.critical.setAccessibleName("Critical hit")
            tip = ("The damage is from a critical hit (or Shift+click Damage)"
                   + (": two death save failures at 0 HP" if ctx.facts.death_rule == DEATH_SAVES
                      else ": dying 2 when it drops you to 0 HP, dying +2 while dying"))
            self.critical.setToolTip(tip)
            self.critical.setAccessibleDescription(tip)
            row.addWidget(self.critical)
        row.addStretch(1)
        self.damage.clicked.connect(lambda _=False: self.apply_damage(self.damage.take_shift()))
        self.heal.clicked.connect(lambda _=False: self.apply_heal())
        self.temp.clicked.connect(lambda _=False: self.apply_temporary())
        self.amount.submitted.connect(self.apply_damage)
        self.amount.textChanged.connect(slot(self._enable))
        self._enable()

    def _enable(self, _text: str = "") -> None:
        ready = self.amount.amount() is not None
        for button in (self.damage, self.heal, self.temp):
            button.setEnabled(ready)

    def _apply(self, make: Callable[[CharacterBase, int], HpChange]) -> bool:
        amount = self.amount.amount()
        if amount is None:
            self.ctx.document.rejected.emit("Type an amount of hit points first")
            return False
        change = make(self.ctx.document.character, amount)
        if not push_change(self.ctx, change):
            return False
        self.amount.clear()
        announce(self, change.text)
        return True

    def apply_damage(self, shift: bool = False) -> bool:
        """Damage by the amount typed: critical with Shift or the Critical box (then cleared)."""
        critical = shift or (self.critical is not None and self.critical.isChecked())
        derived = self.ctx.document.derived
        done = self._apply(lambda c, n: hitpoints.take_damage(c, derived, n, critical))
        if done and self.critical is not None:
            self.critical.setChecked(False)
        return done

    def apply_heal(self) -> bool:
        derived = self.ctx.document.derived
        return self._apply(lambda c, n: hitpoints.heal(c, derived, n))

    def apply_temporary(self) -> bool:
        return self._apply(hitpoints.set_temporary)


class CountBoxes(QWidget):
    """A count from 0 to 3 as three check boxes, bound to one whole-number path: checking the
    third sets 3, unchecking it sets 2."""

    def __init__(self, ctx: SheetContext, path: tuple[str, ...], word: str, words_: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self.words = words_
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        self.boxes: list[QCheckBox] = []
        for index in range(SAVE_BOXES):
            box = QCheckBox()
            box.setAccessibleName(f"Death save {word} {index + 1}")
            box.setToolTip(f"Death save {words_} (click to set by hand)")
            box.toggled.connect(partial(self._toggled, index))
            self.boxes.append(box)
            row.addWidget(box)
        row.addStretch(1)
        ctx.binder.bind_input(path, self.refresh)

    def count(self) -> int:
        return sum(box.isChecked() for box in self.boxes)

    def _toggled(self, index: int, checked: bool) -> None:
        count = index + 1 if checked else index
        self.ctx.document.set(self.path, count, f"Set death save {self.words}", merge=False)
        self.refresh(self.ctx.document.value(self.path))

    def refresh(self, value: Any) -> None:
        count = value if isinstance(value, int) else 0
        for index, box in enumerate(self.boxes):
            if box.isChecked() != (index < count):
                with qt_signals_blocked(box):
                    box.setChecked(index < count)


# --- what happens at 0 HP ------------------------------------------------------------------


class DeathSavesBox(QWidget):
    """5e-style: three success and three failure boxes on one line (editable by hand), and
    Roll death save, enabled at 0 HP while neither stable nor dead."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        self.successes = CountBoxes(ctx, ("hit_points", "death_saves", "successes"),
                                    "success", "successes")
        self.failures = CountBoxes(ctx, ("hit_points", "death_saves", "failures"),
                                   "failure", "failures")
        self.roll = _roll_button("Roll", "Roll death save",
                                 "Roll a death save: d20, 10 or more succeeds; a natural 20 "
                                 "regains 1 HP, a natural 1 is two failures", self.roll_save)
        row.addWidget(caption("Successes", self.successes.boxes[0]))
        row.addWidget(self.successes)
        row.addSpacing(8)
        row.addWidget(caption("Failures", self.failures.boxes[0]))
        row.addWidget(self.failures)
        row.addStretch(1)
        row.addWidget(self.roll)

    def refresh(self, character: CharacterBase) -> None:
        self.roll.setEnabled(hitpoints.needs_death_save(character))

    def roll_save(self) -> HpChange | None:
        """Roll a death save with the window's dice and apply it (one undo step, logged)."""
        return roll_and_apply(self, self.ctx, hitpoints.death_save)


class DyingBox(QWidget):
    """pf2e-style: dying and wounded (spin boxes bounded by the model, read "Dying 2"), a
    recovery check against DC 10 + dying while dying, and doomed from the conditions
    (`doomed_row`, placed beside the state)."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        model = ctx.rules.model
        self.dying = self._number(("hit_points", "dying"), "Dying", model,
                                  "Dying: at 0 HP, a recovery check each turn")
        self.wounded = self._number(("hit_points", "wounded"), "Wounded", model,
                                    "Wounded: added to dying when you drop to 0 HP; "
                                    "it goes up by 1 each time you stop dying")
        self.doomed_caption = caption("Doomed")
        self.doomed = QLabel("0")
        look(self.doomed, "rowTotal")
        self.doomed.setAccessibleName("Doomed")
        self.doomed_row = QWidget()
        doom = QHBoxLayout(self.doomed_row)
        doom.setContentsMargins(0, 0, 0, 0)
        doom.setSpacing(4)
        doom.addWidget(self.doomed_caption)
        doom.addWidget(self.doomed)
        self.roll = _roll_button("Recovery", "Recovery check",
                                 "A recovery check: a flat check against DC 10 + dying",
                                 self.roll_recovery)
        row.addWidget(self.dying)
        row.addWidget(self.wounded)
        row.addStretch(1)
        row.addWidget(self.roll)

    def _number(self, path: tuple[str, ...], label: str, model: Any, tip: str) -> BoundSpinBox:
        lo, hi = bounds(model, *path)
        widget = control_for(self.ctx, Number(path, label, lo, hi, tip))
        assert isinstance(widget, BoundSpinBox)
        widget.setPrefix(f"{label} ")
        widget.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return widget

    def refresh(self, character: CharacterBase) -> None:
        dies_at = hitpoints.death_at(character)
        doomed = hitpoints.PF2E_DEATH - dies_at
        self.doomed.setText(str(doomed))
        tip = ("Doomed, from the conditions (Effects tab): each point lowers the dying value "
               f"that kills you (now dying {max(dies_at, 0)})")
        self.doomed.setToolTip(tip)
        self.doomed_caption.setToolTip(tip)
        needed = hitpoints.needs_recovery_check(character)
        self.roll.setEnabled(needed)
        dc = hitpoints.recovery_dc(character)
        dying = dc - 10
        text = f"DC {dc}" if needed else "Recovery"  # the DC while it can be rolled
        if self.roll.text() != text:
            self.roll.setText(text)
        tip = (f"Roll a recovery check: a flat check against DC {dc} (10 + dying {dying})"
               if needed else "A recovery check (a flat check against DC 10 + dying), "
                              "while dying")
        self.roll.setToolTip(tip)
        self.roll.setAccessibleDescription(tip)

    def roll_recovery(self) -> HpChange | None:
        """Roll a recovery check with the window's dice and apply it (one undo step, logged)."""
        return roll_and_apply(self, self.ctx, hitpoints.recovery_check)


class HitPointsPlay(QObject):
    """The parts of hit points in play, for the Hit points box to place: the state in words
    (`state_row`, with doomed beside it where the rule has it), the damage and healing row
    (`damage_row`) and the box of the system's rule at 0 HP with its roll (`zero_box`: death
    saves, or dying and wounded; none for a rule with words only), kept up to date with the
    hit points, the effects (doomed, exhaustion) and the maximum."""

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.system = ctx.system
        self.state = StateLabel()
        self.damage_row = HpActions(ctx)
        self.death_saves: DeathSavesBox | None = None
        self.dying: DyingBox | None = None
        rule = ctx.facts.death_rule
        if rule == DEATH_SAVES:
            self.death_saves = DeathSavesBox(ctx)
        elif rule == DYING:
            self.dying = DyingBox(ctx)
        self.state_row = QWidget()
        line = QHBoxLayout(self.state_row)
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(6)
        line.addWidget(self.state, 1)
        if self.dying is not None:
            line.addWidget(self.dying.doomed_row, 0, Qt.AlignmentFlag.AlignTop)
        ctx.binder.bind_change(("hit_points",), lambda _change: self.refresh())
        ctx.binder.bind_change(("effects",), lambda _change: self.refresh())
        ctx.binder.bind_derived(("hp",), lambda _hp: self.refresh())

    def zero_box(self) -> DeathSavesBox | DyingBox | None:
        """The box of the system's rule at 0 HP, if it has one."""
        return self.death_saves or self.dying

    def refresh(self) -> None:
        document = self.ctx.document
        character = document.character
        if character.system != self.system or document.derived.system != self.system:
            return  # another system's sheet is on its way
        self.state.show_state(hitpoints.state(character, document.derived))
        zero = self.zero_box()
        if zero is not None:
            zero.refresh(character)
