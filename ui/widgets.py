"""The small controls a sheet is built from: one bound field or one derived number each.

Inputs (`BoundSpinBox`, `BoundComboBox`, ...) push one command per user edit and are refreshed
from the model with their signals blocked. Displays (`DerivedLabel`, `StatButton`) show a
computed value in bold without a box; one `Explainer` on the sheet builds a display's breakdown
tooltip when it is hovered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial
from importlib import resources
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QContextMenuEvent, QCursor, QHelpEvent, QIcon, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QFrame,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from sheet_app.checks import modes_for
from sheet_app.derived import Statistic
from sheet_app.edit import MISSING
from sheet_app.edit import Path as Path_
from sheet_app.facts import ABILITIES, ABILITY_NAMES
from ui.binding import qt_signals_blocked
from ui.context import SheetContext, StatSelection
from ui.format import plain_tip, stat_text, statistic_html
from ui.theme import look

_ICONS: dict[str, QIcon] = {}


def icon(name: str) -> QIcon:
    """An SVG icon from ``resources/icons`` (read through importlib.resources)."""
    if name not in _ICONS:
        from PySide6.QtGui import QPixmap

        data = (resources.files("resources") / "icons" / f"{name}.svg").read_bytes()
        pixmap = QPixmap()
        pixmap.loadFromData(data, "SVG")
        _ICONS[name] = QIcon(pixmap)
    return _ICONS[name]


def slot(method: Callable[..., None]) -> Callable[..., None]:
    """``method`` of a widget as a plain callable to connect a signal to.

    PySide connects a bound method of a QObject about three times slower than other
    callables (it first looks for a matching slot on the receiver); a sheet makes a
    hundred such connections while it opens."""
    bound: Any = method
    return partial(bound.__func__, bound.__self__)


def _name(widget: QWidget, name: str, tip: str = "") -> None:
    widget.setAccessibleName(name)
    if tip:
        widget.setToolTip(plain_tip(tip))
        widget.setAccessibleDescription(tip)


def mode_label(mode: str) -> str:
    return {"normal": "Roll", "advantage": "Advantage", "disadvantage": "Disadvantage",
            "fortune": "Fortune", "misfortune": "Misfortune"}[mode]


# --- inputs -------------------------------------------------------------------------------


class BoundSpinBox(QSpinBox):
    """An integer field bound to one model path.

    With ``none_text`` the lowest position means ``None`` (a score a creature lacks, an automatic
    proficiency bonus) and reads as that text.
    """

    def __init__(
        self,
        ctx: SheetContext,
        path: Path_,
        minimum: int,
        maximum: int,
        name: str,
        *,
        none_text: str | None = None,
        missing_value: int | None = None,
        suffix: str = "",
        step: int = 1,
        tip: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self._none = none_text is not None
        self._missing = missing_value
        self.setRange(minimum - 1 if self._none else minimum, maximum)
        if none_text is not None:
            self.setSpecialValueText(none_text)
        if suffix:
            self.setSuffix(suffix)
        if step != 1:
            self.setSingleStep(step)
        self.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setKeyboardTracking(True)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
        _name(self, name, tip)
        self.valueChanged.connect(slot(self._edited))
        ctx.binder.bind_input(path, self.refresh)

    def _edited(self, value: int) -> None:
        new: int | None = None if self._none and value == self.minimum() else value
        self.ctx.document.set(self.path, new, f"Set {self.accessibleName()}")

    def refresh(self, value: Any) -> None:
        if value is MISSING:
            value = self._missing
        target = self.minimum() if value is None else int(value)
        if target != self.value():
            with qt_signals_blocked(self):
                self.setValue(target)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), 56), hint.height())


class BoundComboBox(QComboBox):
    """A choice among fixed values (a rank, a size, a hit die), bound to one model path."""

    def __init__(
        self,
        ctx: SheetContext,
        path: Path_,
        choices: Sequence[tuple[Any, str]],
        name: str,
        *,
        missing_value: Any = None,
        tip: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self._values = [value for value, _ in choices]
        self._missing = missing_value
        self.addItems([label for _, label in choices])
        _name(self, name, tip)
        self.currentIndexChanged.connect(slot(self._edited))
        ctx.binder.bind_input(path, self.refresh)

    def _edited(self, index: int) -> None:
        if index >= 0:
            self.ctx.document.set(self.path, self._values[index], f"Set {self.accessibleName()}")

    def refresh(self, value: Any) -> None:
        if value is MISSING:
            value = self._missing
        index = self._values.index(value) if value in self._values else -1
        if index != self.currentIndex():
            with qt_signals_blocked(self):
                self.setCurrentIndex(index)


class BoundLineEdit(QLineEdit):
    """Free text bound to one model path; every keystroke is an edit, merged for undo."""

    def __init__(
        self,
        ctx: SheetContext,
        path: Path_,
        name: str,
        *,
        placeholder: str = "",
        max_length: int = 200,
        tip: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self.setMaxLength(max_length)
        self.setPlaceholderText(placeholder)
        _name(self, name, tip)
        self.textEdited.connect(slot(self._edited))
        ctx.binder.bind_input(path, self.refresh)

    def _edited(self, text: str) -> None:
        self.ctx.document.set(self.path, text, f"Edit {self.accessibleName()}")

    def refresh(self, value: Any) -> None:
        text = "" if value in (None, MISSING) else str(value)
        if text != self.text():
            with qt_signals_blocked(self):
                self.setText(text)
                if not self.hasFocus():
                    self.setCursorPosition(0)  # a long name shows its start, not its end


class BoundCheckBox(QCheckBox):
    """A yes/no option bound to one model path, optionally mapping to two other values."""

    def __init__(
        self,
        ctx: SheetContext,
        path: Path_,
        text: str,
        name: str,
        *,
        on: Any = True,
        off: Any = False,
        tip: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(text, parent)
        self.ctx = ctx
        self.path = path
        self._on, self._off = on, off
        _name(self, name, tip)
        self.toggled.connect(slot(self._edited))
        ctx.binder.bind_input(path, self.refresh)

    def _edited(self, checked: bool) -> None:
        self.ctx.document.set(self.path, self._on if checked else self._off,
                              f"Set {self.accessibleName()}")

    def refresh(self, value: Any) -> None:
        checked = value == self._on
        if checked != self.isChecked():
            with qt_signals_blocked(self):
                self.setChecked(checked)


# --- derived displays ---------------------------------------------------------------------

@cache
def pointing() -> QCursor:
    """Made once (after the application): every clickable name, total and die shares it."""
    return QCursor(Qt.CursorShape.PointingHandCursor)


class DerivedLabel(QLabel):
    """A computed number: bold, no box, its breakdown built on hover (see `Explainer`)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__("—", parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setProperty("derived", True)
        look(self, "derived")
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setAccessibleName(name)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._explain: Callable[[], str] | None = None

    def show_value(self, text: str, explain: Callable[[], str] | None = None) -> None:
        """Show ``text``; ``explain()`` gives the breakdown, called only when hovered."""
        if text != self.text():
            self.setText(text)
            self.setAccessibleDescription(text)
        self._explain = explain

    def explanation(self) -> str:
        return self._explain() if self._explain is not None else ""


class StatButton(QPushButton):
    """A statistic's number on the sheet: click to show it in the roll panel, hover for why.

    Flat and bold, so it reads as computed, not as a field to type in; focusable, so the
    keyboard reaches it (Space selects, the context menu rolls with a mode).
    """

    def __init__(
        self, ctx: SheetContext, stat_id: str, name: str, parent: QWidget | None = None,
        *, bound: bool = True, on_click: Callable[[], None] | None = None,
    ) -> None:
        """``bound=False``: the owner calls `show_statistic` itself (a row that is rebuilt
        or re-keyed must not leave a binding behind); ``on_click`` replaces selecting (a
        weapon's attack rolls when clicked)."""
        super().__init__("—", parent)
        self.ctx = ctx
        self.stat_id = stat_id
        self.setFlat(True)
        look(self, "statButton")
        self.setCursor(pointing())
        self.setAccessibleName(name)
        self._stat: Statistic | None = None
        self.clicked.connect(on_click if on_click is not None
                             else partial(ctx.selection.select, stat_id))
        if bound:
            ctx.binder.bind_derived(("stat", stat_id), self.show_statistic)

    def show_statistic(self, stat: Statistic | None) -> None:
        self._stat = stat
        text = stat_text(stat)
        if stat is not None and stat.roll_mode != "normal":
            text += " " + {"advantage": "▲", "fortune": "▲"}.get(stat.roll_mode, "▼")
        if text != self.text():
            self.setText(text)
            self.setAccessibleDescription(text)

    def explanation(self) -> str:
        return statistic_html(self._stat) if self._stat is not None else ""

    def keyPressEvent(self, e: QKeyEvent) -> None:
        """Enter rolls the focused statistic (Space only selects it, as a button click)."""
        if e.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._stat is not None:
            if self._stat.rollable:
                self.ctx.selection.roll(self.stat_id)
            return
        super().keyPressEvent(e)

    def contextMenuEvent(self, e: QContextMenuEvent) -> None:
        if self._stat is not None and self._stat.rollable:
            roll_menu(self.ctx, self.stat_id, self).exec(e.globalPos())


class ExplainedButton(QPushButton):
    """A flat button showing a computed value (a weapon's damage) whose breakdown, like a
    `StatButton`'s, is built only when hovered (see `Explainer`)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__("—", parent)
        self.setFlat(True)
        self.setCursor(pointing())
        self.setAccessibleName(name)
        self._explain: Callable[[], str] | None = None

    def show_value(self, text: str, explain: Callable[[], str] | None = None) -> None:
        if text != self.text():
            self.setText(text)
            self.setAccessibleDescription(text)
        self._explain = explain

    def explanation(self) -> str:
        return self._explain() if self._explain is not None else ""


class Explainer(QObject):
    """Answers tooltip requests for every derived number under the widget it filters.

    A display keeps no tooltip text: building every breakdown up front (and again on each
    edit) costs more than the few a player hovers. With no tooltip of its own, a display's
    ToolTip event goes on to its parents; installed on the sheet, this one filter finds the
    display under the mouse and asks it for its breakdown then.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ToolTip or not isinstance(watched, QWidget):
            return False
        assert isinstance(event, QHelpEvent)
        widget = watched.childAt(event.pos())
        while widget is not None and widget is not watched:
            if isinstance(widget, DerivedLabel | StatButton | ExplainedButton):
                text = widget.explanation()
                if not text:
                    return False
                QToolTip.showText(event.globalPos(), text, widget)
                event.accept()
                return True
            widget = widget.parentWidget()
        return False


def roll_menu(ctx: SheetContext, stat_id: str, parent: QWidget) -> QMenu:
    """Roll normally or with each mode the system has (none in some); where the system
    lets a skill be rolled with another ability, a submenu offers each."""
    menu = QMenu(parent)
    for mode in modes_for(ctx.system):
        text = "Roll" if mode == "normal" else f"Roll with {mode}"
        action = menu.addAction(text)
        action.triggered.connect(lambda _=False, m=mode: ctx.selection.roll(stat_id, m))
    if ctx.facts.skill_variants and stat_id.startswith("skill:") and "@" not in stat_id:
        _add_other_abilities(menu, ctx, stat_id)
    return menu


def _add_other_abilities(menu: QMenu, ctx: SheetContext, stat_id: str) -> None:
    """A skill's proficiency applied to another ability's check (``skill:athletics@con``)."""
    own = ctx.document.derived.statistics[stat_id].ability
    sub = menu.addMenu("Roll with another ability")
    for abbr in ABILITIES:
        if abbr == own:
            continue
        variant = f"{stat_id}@{abbr}"
        action = sub.addAction(ABILITY_NAMES[abbr])
        action.triggered.connect(lambda _=False, v=variant: _roll_variant(ctx, v))


def _roll_variant(ctx: SheetContext, variant: str) -> None:
    if ctx.document.request_variant(variant):
        ctx.selection.roll(variant, "normal")


@cache
def _roll_hint(system: str) -> str:
    modes = modes_for(system)
    return f" (right-click: {', '.join(modes[1:])})" if len(modes) > 1 else ""


ROLL_ICON_SIZE = QSize(16, 16)


class RollButton(QToolButton):
    """The die beside a statistic: click to roll it; right-click for advantage and the like."""

    def __init__(
        self, ctx: SheetContext, stat_id: str, label: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.stat_id = stat_id
        self.setIcon(icon("d20"))
        self.setIconSize(ROLL_ICON_SIZE)
        self.setAutoRaise(True)
        self.setCursor(pointing())
        self.setAccessibleName(f"Roll {label}")
        self.setToolTip(plain_tip(f"Roll {label}{_roll_hint(ctx.system)}"))
        self.clicked.connect(partial(ctx.selection.roll, stat_id))

    def contextMenuEvent(self, e: QContextMenuEvent) -> None:
        roll_menu(self.ctx, self.stat_id, self).exec(e.globalPos())


class WeaponRequests(QObject):
    """Requests from the sheet to roll a weapon's attack with a follow-up's penalty, or its
    damage. Like `StatSelection`'s own requests: the Weapons section emits, the roll panel
    listens, neither knows the other. One per selection (`weapon_requests`)."""

    attackRequested = Signal(str, int)
    """(statistic id, follow-up): 0 is the first attack, n the n-th of ``follow_ups``."""
    damageRequested = Signal(str, bool)
    """(damage id ``damage:<weapon>``, critical)."""


def weapon_requests(selection: StatSelection) -> WeaponRequests:
    """The `WeaponRequests` that goes with ``selection`` (made on first use, its child)."""
    found = selection.findChild(WeaponRequests)
    return found if found is not None else WeaponRequests(selection)


class Section(QWidget):
    """A titled panel of the sheet: a small accent title over a framed body.

    Lay the content out on ``body``. (A QGroupBox can't have its title styled apart from
    its children without a style sheet.)"""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.title = QLabel(title.upper())
        look(self.title, "sectionTitle")
        self.body = QFrame()
        look(self.body, "panel")
        self.body.setAccessibleName(title)
        outer.addWidget(self.title)
        outer.addWidget(self.body, 1)


class ClickableLabel(QLabel):
    """A row's name, shown as plain text: clicking it selects the row's statistic,
    double-clicking rolls it."""

    def __init__(
        self, text: str, ctx: SheetContext | None = None, stat_id: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)  # a name from a file shows as written
        self.ctx = ctx
        self.stat_id = stat_id
        if ctx is not None and stat_id:
            self.setCursor(pointing())

    def mousePressEvent(self, ev: QMouseEvent) -> None:
        if self.ctx is not None and self.stat_id and ev.button() == Qt.MouseButton.LeftButton:
            self.ctx.selection.select(self.stat_id)
        super().mousePressEvent(ev)

    def mouseDoubleClickEvent(self, ev: QMouseEvent) -> None:
        if self.ctx is not None and self.stat_id:
            self.ctx.selection.roll(self.stat_id)
        super().mouseDoubleClickEvent(ev)
