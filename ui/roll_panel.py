"""The roll panel: a statistic's every modifier, the odds against a DC, the dice, the log.

It renders what `derive` and `sheet_app.rolls` computed: which modifier won its type, which
lost and why, the exact odds, every die and the kept one. It never adds anything up itself.
What differs between systems (the roll modes, the typical DCs, two outcomes or four) comes
from the system's facts in `sheet_app.registry`.

The panel is a column of small widgets: `StatHeader`, `DcRow`, `RollButtons` and
`RollOutlook` on top, then `RollResultView`, `AttackActions` and `BreakdownList` over
`RollLogView`; `RollPanel` wires them to the document. The header is one line high and
everything whose height changes with the selection or a roll sits below the DC field and the
buttons, so they keep their place: a second click lands where the first did.

A weapon's attack may be rolled as a later attack of the turn (pf2e's
multiple attack penalty, d20srd's iterative attacks: `follow_up_statistic`); after an attack
`AttackActions` says whether it threatens or is a critical hit (`attack_verdict`), offers
*Confirm* where the system confirms threats, and rolls the damage.
"""

from __future__ import annotations

import functools
import html
import itertools
import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import (
    QFont,
    QGuiApplication,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from sheet_app import registry
from sheet_app.checks import (
    REQUESTED,
    ModeError,
    format_chance,
    modes_for,
    natural_step,
    outcomes_for,
)
from sheet_app.damage import DamageRoll, roll_damage
from sheet_app.derived import Damage, Derived, ModifierLine, Statistic
from sheet_app.rolls import (
    AttackVerdict,
    CheckRoll,
    NotRollableError,
    RollRecord,
    append_record,
    attack_verdict,
    follow_up_statistic,
    format_log,
    format_record,
    roll_edit,
    roll_statistic,
    statistic_mode,
    statistic_odds,
)
from ui.context import StatSelection
from ui.document import Change, CharacterDocument
from ui.format import line_value, plain_tip, sentence, signed, stat_text, words
from ui.sections.tables import (
    BACKGROUND,
    CENTER_ALIGNMENT,
    FONT,
    FOREGROUND,
    NUMBER_ALIGNMENT,
    Column,
    ColumnTableModel,
    Index,
    configure_columns,
    table_view,
)
from ui.theme import (
    APPLIED_COLOR,
    DC_NOTE_COLOR,
    GROUP_BACKGROUND,
    OUTCOME_COLORS,
    PENALTY_COLOR,
    PROMPT_COLOR,
    SUPPRESSED_COLOR,
    look,
    qcolor,
)
from ui.widgets import icon, mode_label, weapon_requests

OUTCOME_SHORT = {
    "critical_success": "Crit. success",
    "success": "Success",
    "failure": "Failure",
    "critical_failure": "Crit. failure",
}
MODE_SHORT = {"advantage": "adv.", "disadvantage": "dis.", "fortune": "fort.",
              "misfortune": "misf."}
"""A roll mode as the log's Check column abbreviates it."""


# --- the breakdown ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BreakdownRow:
    kind: str  # "group", "line" or "reason"
    text: str
    value: str = ""
    status: str = ""
    line: ModifierLine | None = None


def breakdown_rows(stat: Statistic, wrap: int = 48) -> list[BreakdownRow]:
    """The modifiers grouped by type in order of first appearance: a header per type with
    its net, each line ticked (applies) or crossed (suppressed), and under each suppressed
    line the reason it lost, wrapped at ``wrap`` characters so it reads whole."""
    rows: list[BreakdownRow] = []
    if stat.base:
        rows.append(BreakdownRow("group", "Base", str(stat.base)))
    groups: dict[str, list[ModifierLine]] = {}
    for line in stat.modifiers:
        groups.setdefault(line.type, []).append(line)
    for kind, lines in groups.items():
        applied = [ln.value for ln in lines if ln.applied]
        rows.append(BreakdownRow(
            "group", sentence(words(kind)), signed(sum(applied)) if applied else "—"
        ))
        for line in lines:
            mark = "✔" if line.applied else "✘"
            rows.append(BreakdownRow("line", line.label, line_value(line), mark, line))
            if not line.applied:
                rows.extend(BreakdownRow("reason", part, line=line)
                            for part in _wrapped(line.reason or "suppressed", max(16, wrap)))
    return rows


@functools.lru_cache(maxsize=4096)
def _wrapped(reason: str, width: int) -> tuple[str, ...]:
    """Cached: the same reasons come back on every edit of a busy sheet."""
    return tuple(textwrap.wrap(f"↳ {reason}", width, subsequent_indent="   "))


@functools.cache
def _font(style: str) -> QFont:
    """A cell font that sets only ``style`` (the view fills in the rest from its own font)."""
    font = QFont()
    if style == "bold":
        font.setBold(True)
    elif style == "italic":
        font.setItalic(True)
    elif style in ("struck", "unstruck"):
        font.setStrikeOut(style == "struck")
    return font


def _line_tip(row: BreakdownRow) -> str | None:
    line = row.line
    if line is None or row.kind == "reason":
        return None
    verdict = "applies" if line.applied else f"suppressed: {line.reason}"
    return plain_tip(f"{line.label}: {line_value(line)} {words(line.type)} — {verdict}")


def _row_spoken(row: BreakdownRow) -> str:
    verdict = {"✔": "applies", "✘": "suppressed"}.get(row.status, "")
    return " ".join(filter(None, (row.text, row.value, verdict)))


class BreakdownModel(ColumnTableModel):
    """One flat row per type header, modifier line and suppression reason.

    Columns: the verdict (✔ applies, ✘ suppressed), the value, then the text, so a reason
    sits in the wide last column without spanning. Flat, with uniform row heights, so the
    view asks only for the rows on screen: hundreds of modifiers cost no more than three.
    """

    columns = (
        Column("", 22, "fixed", align=CENTER_ALIGNMENT, tip=_line_tip, accessible=_row_spoken,
               show=lambda row: None if row.kind == "reason" else row.status),
        Column("Value", 40, "fixed", align=NUMBER_ALIGNMENT, tip=_line_tip,
               accessible=_row_spoken,
               show=lambda row: None if row.kind == "reason" else row.value),
        Column("Modifier", resize="stretch", tip=_line_tip, accessible=_row_spoken,
               show=lambda row: f"   {row.text}" if row.kind == "reason" else row.text),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[BreakdownRow] = []
        self.wrap = 40
        """Characters per reason line; the view sets it from its width."""

    def set_statistic(self, stat: Statistic | None) -> None:
        self.beginResetModel()
        self._rows = breakdown_rows(stat, self.wrap) if stat is not None else []
        self.endResetModel()

    def rows(self) -> list[BreakdownRow]:
        return list(self._rows)

    def row_total(self) -> int:
        return len(self._rows)

    def cell(self, index: Index) -> BreakdownRow | None:
        row = index.row()
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def styled(self, item: Any, column: int, role: int) -> Any:
        row: BreakdownRow = item
        suppressed = row.line is not None and not row.line.applied
        if role == FONT:
            if row.kind == "group":
                return _font("bold")
            if row.kind == "reason":
                return _font("italic")
            if suppressed:
                return _font("struck" if column > 0 else "unstruck")
            return _font("bold" if column == 1 else "plain")
        if role == FOREGROUND:
            if suppressed or row.kind == "reason":
                return qcolor(PENALTY_COLOR if column == 0 else SUPPRESSED_COLOR)
            if column == 0 and row.kind == "line":
                return qcolor(APPLIED_COLOR)
            return None
        if role == BACKGROUND:
            return qcolor(GROUP_BACKGROUND) if row.kind == "group" else None
        return None


# --- the roll log --------------------------------------------------------------------------


def log_records(log: list[Any]) -> list[RollRecord]:
    """The character's log as records (the model may keep plain dicts)."""
    return [r if isinstance(r, RollRecord) else RollRecord.model_validate(r) for r in log]


def _clock(time: str) -> str:
    try:
        return datetime.fromisoformat(time).strftime("%H:%M")
    except ValueError:
        return time


KIND_SHORT = {"damage": "Damage", "hit_points": "Hit points", "death_save": "Death save",
              "recovery": "Recovery"}
"""What the log's Result column says of an entry that is not a check and has no outcome."""


def _faces_text(dice: list[int] | tuple[int, ...], natural: int | None) -> str:
    """The kept die, then the dropped one in brackets: ``19 (17)``; every die of an entry
    that keeps none (damage: ``3, 5``)."""
    if natural is None:
        return ", ".join(map(str, dice))
    dropped = list(dice)
    if natural in dropped:
        dropped.remove(natural)
    return f"{natural} ({', '.join(map(str, dropped))})" if dropped else str(natural)


def _check_text(record: RollRecord) -> str:
    """A check's name (and mode); for other entries the head of their words
    (``Longsword critical damage``)."""
    if record.natural is None and record.text:
        return record.text.partition(": ")[0]
    short = MODE_SHORT.get(record.mode)
    return f"{record.label} ({short})" if short else record.label


def _outcome_text(record: RollRecord) -> str:
    if record.outcome is not None:
        return OUTCOME_SHORT[record.outcome]
    return "—" if record.natural is not None else KIND_SHORT.get(record.kind, "—")


def _record_tip(record: RollRecord) -> str:
    """A log entry in words, as written (its label may come from a file)."""
    return plain_tip(format_record(record))


class RollLogModel(ColumnTableModel):
    """Past rolls, newest first: time, check, dice, total, outcome."""

    columns = (
        Column("Time", 42, show=lambda r: _clock(r.time), tip=_record_tip),
        Column("Check", resize="stretch", show=_check_text, tip=_record_tip),
        Column("Dice", 52, show=lambda r: _faces_text(r.dice, r.natural), tip=_record_tip),
        Column("Total", 40, show=lambda r: str(r.total), align=NUMBER_ALIGNMENT,
               tip=_record_tip),
        Column("Result", 92, show=_outcome_text, tip=_record_tip),
    )
    RESULT = 4

    def __init__(self, document: CharacterDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._records = log_records(document.character.roll_log)
        document.edited.connect(self._on_edited)

    def records(self) -> list[RollRecord]:
        """Oldest first, as the file keeps them."""
        return list(self._records)

    def _on_edited(self, change: Change) -> None:
        if change.kind == "reset" or change.path[:1] == ("roll_log",) or not change.path:
            self.beginResetModel()
            self._records = log_records(self.document.character.roll_log)
            self.endResetModel()

    def row_total(self) -> int:
        return len(self._records)

    def cell(self, index: Index) -> RollRecord | None:
        row = index.row()
        if not 0 <= row < len(self._records):
            return None
        return self._records[len(self._records) - 1 - row]

    def styled(self, item: Any, column: int, role: int) -> Any:
        record: RollRecord = item
        if role == FOREGROUND and column == self.RESULT and record.outcome:
            return qcolor(OUTCOME_COLORS[record.outcome])
        return None

    def as_text(self) -> str:
        return format_log(self._records)


def dice_html(result: CheckRoll) -> str:
    """Every die, the kept one large and bold, the dropped ones struck through."""
    kept_done = False
    faces = []
    for face in result.dice:
        if face == result.natural and not kept_done:
            kept_done = True
            faces.append(f"<span style='font-size:22pt; font-weight:bold'>{face}</span>")
        else:
            faces.append(f"<span style='font-size:14pt; color:{SUPPRESSED_COLOR}'>"
                         f"<s>{face}</s></span>")
    outcome = ""
    if result.outcome is not None:
        color = OUTCOME_COLORS[result.outcome]
        outcome = (f"<br><span style='font-size:13pt; color:{color}'><b>"
                   f"{words(result.outcome).capitalize()}</b></span>"
                   f" <span style='color:{DC_NOTE_COLOR}'>vs DC {result.dc}</span>")
    mode = mode_html(result)
    bonus = "".join(
        f"<span style='font-size:14pt'> {'−' if die.value < 0 else '+'}</span>"
        f"<span style='font-size:18pt; font-weight:bold'>{abs(die.value)}</span>"
        f"<span style='font-size:9pt; color:{DC_NOTE_COLOR}'>"
        f"[{html.escape(die.expression.lstrip('+'))} {html.escape(die.label)}]</span>"
        for die in result.bonus)
    return (
        f"{'&nbsp;&nbsp;'.join(faces)}{bonus}"
        f"<span style='font-size:14pt'> {html.escape(signed(result.total_modifier))} = </span>"
        f"<span style='font-size:22pt; font-weight:bold'>{result.total}</span>{mode}{outcome}"
        f"{cancelled_html(result)}{natural_html(result)}"
    )


def natural_html(result: CheckRoll) -> str:
    """A line saying a natural 20 or 1 moved the degree of success; empty otherwise."""
    if result.dc is None or result.outcome is None:
        return ""
    step = natural_step(result.system, result.total, result.dc, result.natural)
    if not step:
        return ""
    words_ = "one step better" if step > 0 else "one step worse"
    return (f"<br><span style='color:{DC_NOTE_COLOR}'><i>Natural {result.natural}: "
            f"{words_}</i></span>")


def mode_html(result: CheckRoll) -> str:
    """The mode beside the total: ``(fortune)`` when the player asked for it, with the
    effects behind it when the sheet did (``(fortune from Lucky charm)``); nothing for a
    normal roll."""
    if result.mode == "normal":
        return ""
    resolved = result.resolved
    from_sheet = any(source.label != REQUESTED for source in resolved.sources)
    shown = resolved.explain() if from_sheet else result.mode
    return f" <i>({html.escape(shown)})</i>"


def cancelled_html(result: CheckRoll) -> str:
    """A line saying why a roll asked for with a mode was rolled normally (``Fortune from
    Lucky charm and misfortune from Sickened cancel: normal roll``); empty otherwise."""
    if not result.resolved.cancelled:
        return ""
    return (f"<br><span style='color:{DC_NOTE_COLOR}'><i>"
            f"{html.escape(sentence(result.resolved.explain()))}</i></span>")


def damage_roll_html(roll: DamageRoll) -> str:
    """A damage roll: what was rolled (``2×(2d8+4)``), every die, and the total."""
    size = "18pt" if len(roll.dice) <= 6 else "13pt"
    faces = "&nbsp;&nbsp;".join(f"<span style='font-size:{size}; font-weight:bold'>{face}</span>"
                                for face in roll.dice)
    head = "Critical damage" if roll.critical else "Damage"
    typed = f" {html.escape(roll.damage_type)}" if roll.damage_type else ""
    return (
        f"<b>{html.escape(roll.label)}</b> {head.lower()}: "
        f"<span style='font-size:13pt'>{html.escape(roll.expression)}</span><br>"
        f"{faces or '—'}<span style='font-size:14pt'> → </span>"
        f"<span style='font-size:22pt; font-weight:bold'>{roll.total}</span>{typed}"
    )


def damage_record(roll: DamageRoll, damage: Damage, when: datetime) -> RollRecord:
    """The log entry of a damage roll: every die, the modifiers, the total and its words."""
    return RollRecord.model_validate({
        "time": when.isoformat(timespec="seconds"),
        "kind": "damage",
        "statistic": roll.statistic,
        "label": roll.label,
        "dice": list(roll.dice),
        "modifiers": [line.to_json() for line in roll.modifiers],
        "total_modifier": damage.flat,
        "total": roll.total,
        "text": roll.summary(),
    })


def prompt_html() -> str:
    """What the result area says before a roll (in the active theme's colour)."""
    return (f"<span style='color:{PROMPT_COLOR}'>Click the die beside a statistic, press "
            "Roll, or press Enter in the DC field.</span>")


def odds_text(stat: Statistic, system: str, dc: int) -> str:
    """The chance of each outcome ``system`` tells apart, best first (``Success 55%`` where a
    check passes or fails; all four degrees where the system has them)."""
    odds = statistic_odds(stat, system, dc)
    outcomes = outcomes_for(system)
    if not registry.get(system).facts.four_degrees:
        outcomes = outcomes[:1]  # a failure's chance is the rest
    parts = [f"{OUTCOME_SHORT[o]} {format_chance(odds.probabilities[o])}" for o in outcomes]
    mode_word = "" if odds.mode == "normal" else f" ({odds.mode})"
    return " · ".join(parts) + mode_word


# --- weapon attacks ------------------------------------------------------------------------

def damage_id(stat_id: str) -> str:
    """``attack:longsword`` → ``damage:longsword``: the damage that goes with an attack."""
    return "damage:" + stat_id.partition(":")[2]


def _column_box(*, spacing: int | None = None) -> QVBoxLayout:
    box = QVBoxLayout()
    box.setContentsMargins(0, 0, 0, 0)
    if spacing is not None:
        box.setSpacing(spacing)
    return box


# --- the parts of the panel ------------------------------------------------------------------


class ElidedLabel(QLabel):
    """One line of plain text cut with "…" where it does not fit (the whole text then in
    its tooltip), so a long name never makes the line taller or the panel wider."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as painted: elided to the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def refresh_tip(self) -> None:
        """The whole text as the tooltip when it is cut, none when it fits."""
        self.setToolTip(self.text() if self.shown_text() != self.text() else "")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.refresh_tip()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment()),
                                  self.palette(), self.isEnabled(), self.shown_text(),
                                  QPalette.ColorRole.WindowText)


class StatHeader(QWidget):
    """The selected statistic's name and total, on one line of a fixed height (a long name
    is cut, whole in its tooltip), so the controls under it never move."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        head = QHBoxLayout(self)
        head.setContentsMargins(0, 0, 0, 0)
        self.title = ElidedLabel("Select a statistic")  # a weapon's name, as written
        look(self.title, "panelTitle")
        self.title.setAccessibleName("Selected statistic")
        self.total = QLabel("")
        self.total.setTextFormat(Qt.TextFormat.PlainText)
        look(self.total, "panelTotal")
        self.total.setProperty("derived", True)
        self.total.setAccessibleName("Selected statistic total")
        head.addWidget(self.title, 1)
        head.addWidget(self.total)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def show_statistic(self, stat: Statistic | None) -> None:
        self.title.setText("Select a statistic" if stat is None else stat.label)
        self.title.refresh_tip()
        self.title.setAccessibleDescription("" if stat is None else stat.label)
        if stat is None:
            self.total.setText("")
            self.total.setToolTip("")
            return
        self.total.setText(stat_text(stat))
        self.total.setToolTip(f"DC others roll against: {stat.dc}" if stat.rollable
                              else "The DC others roll against")


class BreakdownList(QWidget):
    """Every modifier of the selected statistic, grouped by type, in a flat tree (one
    `BreakdownModel` row per header, line and reason), then the statistic's notes.

    Suppression reasons wrap to the list's width, so they read whole without a scroll bar.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown: Statistic | None = None
        layout = _column_box()
        self.setLayout(layout)
        self.model = BreakdownModel(self)
        self.tree = QTreeView()
        self.tree.setObjectName("breakdown")
        self.tree.setAccessibleName("Modifiers of the selected statistic")
        self.tree.setModel(self.model)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setItemsExpandable(False)
        self.tree.setIndentation(0)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        configure_columns(self.tree.header(), self.model.columns)
        self.notes = QLabel()
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        look(self.notes, "hint")
        self.notes.setWordWrap(True)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.notes)

    def show_statistic(self, stat: Statistic | None) -> None:
        self._shown = stat
        self.model.set_statistic(stat)
        if stat is None:
            self.notes.setText("")
            return
        notes = list(stat.notes)
        if not stat.rollable:
            notes.append(f"{stat.label} is not rolled: it is the DC others roll against.")
        self.notes.setText(" ".join(notes))
        self.notes.setVisible(bool(notes))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # the tree's viewport is laid out after this event: size from this widget itself
        width = self.width() - 84  # the verdict and value columns, the scroll bar
        char = max(1.0, self.tree.fontMetrics().averageCharWidth() * 1.15)  # italic, wide glyphs
        chars = max(16, int(width / char) - 6)
        if chars != self.model.wrap:
            self.model.wrap = chars
            self.model.set_statistic(self._shown)


class DcSpinBox(QSpinBox):
    """The DC to roll against; Enter rolls."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.interpretText()
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class DcRow(QWidget):
    """The DC to roll against, with the system's typical DCs one click away. (The odds
    against it are shown by `RollOutlook`, under the buttons.)"""

    changed = Signal(int)
    submitted = Signal()
    """Enter in the DC field: roll."""

    def __init__(
        self,
        typical_dcs: Callable[[], Sequence[tuple[str, int]]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._typical_dcs = typical_dcs
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        label = QLabel("DC")
        look(label, "caption")
        self.dc = DcSpinBox()
        self.dc.setRange(0, 60)
        self.dc.setValue(15)
        self.dc.setSpecialValueText("none")
        self.dc.setAccessibleName("Difficulty class")
        self.dc.setToolTip("The DC to beat (none: just roll). Enter rolls.")
        label.setBuddy(self.dc)
        self.dc.valueChanged.connect(self.changed)
        self.dc.submitted.connect(self.submitted)
        self.presets = QToolButton()
        self.presets.setText("Typical")
        self.presets.setAutoRaise(True)
        self.presets.setAccessibleName("Typical DCs")
        self.presets.setToolTip("Typical DCs of this system")
        self.presets.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.presets.setMenu(QMenu(self.presets))
        self.presets.menu().aboutToShow.connect(self._fill_presets)
        row.addWidget(label)
        row.addWidget(self.dc)
        row.addWidget(self.presets)
        row.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def value(self) -> int:
        """The DC, 0 for none."""
        return self.dc.value()

    def _fill_presets(self) -> None:
        menu = self.presets.menu()
        menu.clear()
        for name, dc in self._typical_dcs():
            action = menu.addAction(f"{name}  {dc}")
            action.triggered.connect(lambda _=False, v=dc: self.dc.setValue(v))


class RollButtons(QWidget):
    """One button per roll mode of the system, the plain roll first. Off, with a tooltip
    saying why, for a statistic that is not rolled (AC, a DC) or when none is selected."""

    requested = Signal(str)
    """The mode whose button was pressed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._box = QHBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[str, QPushButton] = {}
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def rebuild(self, modes: Sequence[str]) -> None:
        while self._box.count():
            item = self._box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        for mode in modes:
            button = QPushButton(mode_label(mode))
            if mode == "normal":
                button.setIcon(icon("d20"))
                look(button, "rollButton")
            button.setAccessibleName("Roll" if mode == "normal" else f"Roll with {mode}")
            button.clicked.connect(lambda _=False, m=mode: self.requested.emit(m))
            self._box.addWidget(button)
            self.buttons[mode] = button
        self.explain(None)

    def set_enabled(self, enabled: bool) -> None:
        for button in self.buttons.values():
            button.setEnabled(enabled)

    def explain(self, why_off: str | None) -> None:
        """Each button's plain tooltip, or ``why_off`` (the buttons are off) in words."""
        for mode, button in self.buttons.items():
            if why_off is not None:
                tip = (sentence(why_off) if mode == "normal"
                       else f"{mode_label(mode)} does nothing here: {why_off}")
            elif mode == "normal":
                tip = "Roll (Enter in the DC field, or Ctrl+R)"
            else:
                tip = f"Roll with {mode}"
            button.setToolTip(plain_tip(tip))


class RollOutlook(QWidget):
    """Under the buttons: the odds of each outcome against the DC before anyone rolls, and
    the roll mode the sheet imposes on the statistic (why it is rolled with advantage, or
    why two modes cancel). Its height follows its text; nothing clickable sits below it in
    the same column, so that moves nothing the player aims at."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = _column_box(spacing=2)
        self.setLayout(layout)
        self.odds = QLabel()
        self.odds.setTextFormat(Qt.TextFormat.PlainText)
        look(self.odds, "odds")
        self.odds.setWordWrap(True)
        self.odds.setAccessibleName("Odds")
        self.mode_note = QLabel()
        self.mode_note.setTextFormat(Qt.TextFormat.PlainText)  # names the effects behind it
        look(self.mode_note, "modeNote")
        self.mode_note.setWordWrap(True)
        self.mode_note.setAccessibleName("Roll mode")
        layout.addWidget(self.odds)
        layout.addWidget(self.mode_note)
        self.show_odds("")
        self.show_mode("")

    def show_odds(self, text: str) -> None:
        self.odds.setText(text)
        self.odds.setVisible(bool(text))

    def show_mode(self, text: str) -> None:
        self.mode_note.setText(sentence(text) if text else "")
        self.mode_note.setVisible(bool(text))


class RollResultView(QLabel):
    """The last roll: every die (the kept one large, dropped ones struck), the modifier and
    total, the outcome against the DC, and why a mode asked for was not used (fortune and
    misfortune cancel); a prompt until the first roll, and again once that roll is undone or
    another character is shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        look(self, "rollResult")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setAccessibleName("Last roll")
        self.setMinimumHeight(40)
        self.clear_roll()

    def clear_roll(self) -> None:
        """Back to the prompt: no roll shown."""
        self.setText(prompt_html())
        self.setToolTip("")
        self.setAccessibleDescription("No roll yet")

    def show_roll(self, result: CheckRoll) -> None:
        self.setText(dice_html(result))
        self.setToolTip(plain_tip(result.summary()))
        self.setAccessibleDescription(result.summary())

    def show_damage(self, roll: DamageRoll) -> None:
        self.setText(damage_roll_html(roll))
        self.setToolTip(plain_tip(roll.summary()))
        self.setAccessibleDescription(roll.summary())


class AttackActions(QWidget):
    """After a weapon's attack: whether it threatens or is a critical hit, *Confirm* for a
    threat the system confirms, and the damage (critical or not) one click away."""

    confirmRequested = Signal()
    damageRequested = Signal(bool)
    """Roll the damage; True for critical damage."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = _column_box(spacing=3)
        self.setLayout(layout)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setAccessibleName("Critical hit")
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        self.confirm = QPushButton("Confirm")
        self.confirm.setAccessibleName("Confirm the critical threat")
        self.confirm.setToolTip("Roll the attack again against the same DC: a hit confirms "
                                "the critical")
        self.damage = QPushButton("Roll damage")
        self.damage.setAccessibleName("Roll damage")
        self.critical = QPushButton("Roll critical damage")
        self.critical.setAccessibleName("Roll critical damage")
        self.confirm.clicked.connect(self.confirmRequested)
        self.damage.clicked.connect(lambda: self.damageRequested.emit(False))
        self.critical.clicked.connect(lambda: self.damageRequested.emit(True))
        for button in (self.confirm, self.damage, self.critical):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addWidget(self.note)
        layout.addLayout(buttons)
        self.verdict: AttackVerdict | None = None
        self.setVisible(False)

    def show_verdict(self, verdict: AttackVerdict | None, has_damage: bool) -> None:
        """``None`` hides the whole row (the last roll was not a weapon's attack)."""
        self.verdict = verdict
        self.setVisible(verdict is not None)
        if verdict is None:
            return
        color = OUTCOME_COLORS["critical_success" if verdict.good else "failure"]
        self.note.setText(f"<b style='color:{color}'>{html.escape(verdict.note)}</b>")
        self.note.setVisible(bool(verdict.note))
        self.confirm.setVisible(verdict.confirm)
        self.damage.setVisible(has_damage and verdict.critical is not True)
        self.critical.setVisible(has_damage and verdict.critical is not False)
        self.critical.setDefault(verdict.critical is True)


class RollLogView(QWidget):
    """The character's past rolls, newest first, with Copy as text and Clear."""

    message = Signal(str)

    def __init__(self, document: CharacterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        layout = _column_box()
        self.setLayout(layout)
        head = QHBoxLayout()
        title = QLabel("Roll log")
        look(title, "caption")
        self.copy = QPushButton("Copy as text")
        self.copy.setAccessibleName("Copy the roll log as text")
        self.copy.clicked.connect(self.copy_log)
        self.clear = QPushButton("Clear")
        self.clear.setAccessibleName("Clear the roll log")
        self.clear.clicked.connect(self.clear_log)
        head.addWidget(title, 1)
        head.addWidget(self.copy)
        head.addWidget(self.clear)
        self.model = RollLogModel(document, self)
        self.table = table_view("Roll log", "rollLog", self.model, editable=False,
                                row_height=20)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        layout.addLayout(head)
        layout.addWidget(self.table, 1)

    def copy_log(self) -> None:
        text = self.model.as_text()
        QGuiApplication.clipboard().setText(text)
        self.message.emit("Roll log copied" if text else "The roll log is empty")

    def clear_log(self) -> None:
        if self.document.character.roll_log:
            self.document.set(("roll_log",), [], "Clear roll log", merge=False)


# --- the panel -----------------------------------------------------------------------------


def _logged(record: RollRecord, log: Sequence[Any]) -> bool:
    """Whether ``record`` is still an entry of ``log`` (newest first: it is usually near
    the end)."""
    return any(entry == record for entry in reversed(log))


class RollPanel(QWidget):
    """Follows the selected statistic; rolls it on request and logs the roll.

    The result shown is that of a roll in the log: it goes back to the prompt when another
    character comes in (New, Open, Import) and when its log entry goes (undone, cleared).
    """

    rolled = Signal(object)
    """The `CheckRoll` just made."""
    message = Signal(str)

    def __init__(
        self,
        document: CharacterDocument,
        selection: StatSelection,
        rng: random.Random | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("rollPanel")
        self.document = document
        self.selection = selection
        self.rng = rng or random.Random()
        self.stat_id = ""
        self.follow_up = 0
        """The later attack of the turn the shown statistic is rolled as (0: the first)."""
        self.last: CheckRoll | None = None
        self.last_damage: DamageRoll | None = None
        self._shown: Statistic | None = None
        self._attack: tuple[CheckRoll, Statistic, CheckRoll | None] | None = None
        """The last weapon attack: its roll, the statistic as rolled, its confirmation."""
        self._records: dict[str, RollRecord] = {}
        """The log entries of what is shown: the ``result``'s, the ``attack``'s and its
        ``confirmation``'s; one that leaves the log takes its part of the panel with it."""

        self.header = StatHeader()
        self.breakdown_list = BreakdownList()
        self.dc_row = DcRow(lambda: registry.get(self.document.system).facts.typical_dcs)
        self.roll_buttons = RollButtons()
        self.outlook = RollOutlook()
        self.result = RollResultView()
        self.attack_actions = AttackActions()
        self.log_view = RollLogView(document)
        self._compose()

        # the parts' widgets by their old names, for the window and the tests
        self.title, self.total = self.header.title, self.header.total
        self.mode_note, self.odds = self.outlook.mode_note, self.outlook.odds
        self.breakdown, self.tree = self.breakdown_list.model, self.breakdown_list.tree
        self.notes = self.breakdown_list.notes
        self.dc, self.dc_presets = self.dc_row.dc, self.dc_row.presets
        self.log_model, self.log = self.log_view.model, self.log_view.table
        self.copy, self.clear = self.log_view.copy, self.log_view.clear

        self.dc_row.changed.connect(lambda _v: self._show_odds())
        self.dc_row.submitted.connect(lambda: self.roll())
        self.roll_buttons.requested.connect(lambda mode: self.roll(mode))
        self.log_view.message.connect(self.message)
        selection.selected.connect(self.show_statistic)
        selection.rollRequested.connect(lambda stat_id, mode: self.roll(mode, stat_id, 0))
        requests = weapon_requests(selection)
        requests.attackRequested.connect(
            lambda stat_id, follow_up: self.roll("normal", stat_id, follow_up))
        requests.damageRequested.connect(
            lambda damage, critical: self.roll_damage(damage, critical))
        self.attack_actions.confirmRequested.connect(lambda: self.confirm())
        self.attack_actions.damageRequested.connect(
            lambda critical: self.roll_damage(None, critical))
        document.derivedChanged.connect(self._on_derived)
        document.replaced.connect(self._rebuild_buttons)
        document.replaced.connect(self.clear_result)
        document.edited.connect(self._on_edited)
        self._rebuild_buttons()
        self._render(None)
        if selection.current:
            self.show_statistic(selection.current)

    def _compose(self) -> None:
        """The controls first, each of a fixed height (the header, the DC, the buttons), so
        they stay put whatever is selected or rolled; then a splitter of a fixed height: the
        odds, the sheet's roll mode, the result and the breakdown above the log (whose
        buttons so stay put too)."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)
        layout.addWidget(self.header)
        layout.addWidget(self.dc_row)
        layout.addWidget(self.roll_buttons)
        top = QWidget()
        column = _column_box()
        top.setLayout(column)
        column.addWidget(self.outlook)
        column.addWidget(self.result)
        column.addWidget(self.attack_actions)
        column.addWidget(self.breakdown_list, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.log_view)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        layout.addWidget(split, 1)

    @property
    def buttons(self) -> dict[str, QPushButton]:
        """The roll buttons by mode."""
        return self.roll_buttons.buttons

    # --- following the sheet -------------------------------------------------------------
    def _rebuild_buttons(self) -> None:
        self.roll_buttons.rebuild(modes_for(self.document.system))
        self.roll_buttons.set_enabled(self._shown is not None and self._shown.rollable)
        self._show_odds()
        self._chain_focus()

    def _chain_focus(self) -> None:
        """Tab goes in reading order: the DC, Typical, the roll buttons, the attack's
        buttons, then the log (the buttons are made after the log, so by default they
        would come last)."""
        chain: list[QWidget] = [self.dc, self.dc_presets, *self.buttons.values(),
                                self.attack_actions.confirm, self.attack_actions.damage,
                                self.attack_actions.critical, self.copy, self.clear, self.log]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def show_statistic(self, stat_id: str) -> None:
        self.stat_id = stat_id
        self.follow_up = 0
        self._render(self.document.derived.statistics.get(stat_id))

    def _effective(self, stat: Statistic | None) -> Statistic | None:
        """``stat`` as the panel rolls it: with the chosen later attack's penalty."""
        return follow_up_statistic(stat, self.follow_up) if stat is not None else None

    def _on_derived(self, old: Derived, new: Derived) -> None:
        stat = self._effective(new.statistics.get(self.stat_id))
        if stat != self._shown or old.system != new.system:
            self._render(stat)

    def _render(self, stat: Statistic | None) -> None:
        self._shown = stat
        self.header.show_statistic(stat)
        self.breakdown_list.show_statistic(stat)
        rollable = stat is not None and stat.rollable
        self.roll_buttons.set_enabled(rollable)
        self.dc.setEnabled(rollable)
        explained = ""
        if stat is not None and stat.rollable:
            try:
                explained = statistic_mode(stat, self.document.system).explain()
            except ModeError as exc:
                explained = str(exc)
        self.outlook.show_mode(explained)
        self._show_odds()

    def _why_off(self) -> str | None:
        """Why the roll buttons are off (nothing selected, or a statistic not rolled), or
        ``None`` while they work."""
        stat = self._shown
        if stat is None:
            return "select a statistic first"
        if not stat.rollable:
            return f"{stat.label} is not rolled (it is the DC others roll against)"
        return None

    def _show_odds(self) -> None:
        stat = self._shown
        dc = self.dc_row.value()
        buttons = self.roll_buttons.buttons
        self.roll_buttons.explain(self._why_off())
        if stat is None or not stat.rollable or dc == 0:
            self.outlook.show_odds("")
            return
        system = self.document.system
        try:
            self.outlook.show_odds(odds_text(stat, system, dc))
        except ModeError as exc:
            self.outlook.show_odds(str(exc))
            return
        for mode, button in buttons.items():
            if mode == "normal":
                continue
            try:
                chance = statistic_odds(stat, system, dc, mode).success  # type: ignore[arg-type]
            except ModeError:
                continue
            button.setToolTip(f"Roll with {mode}: {format_chance(chance)} to succeed")

    # --- rolling -------------------------------------------------------------------------
    def roll(
        self, mode: str = "normal", stat_id: str | None = None, follow_up: int | None = None
    ) -> CheckRoll | None:
        """Roll ``stat_id`` (default: the shown statistic) with ``mode``; a weapon's attack as
        its ``follow_up``-th later attack (None keeps the one shown)."""
        if stat_id is not None and stat_id != self.stat_id:
            self.show_statistic(stat_id)
        if follow_up is not None and follow_up != self.follow_up:
            self.follow_up = follow_up
            self._render(self._effective(self.document.derived.statistics.get(self.stat_id)))
        stat = self._effective(self.document.derived.statistics.get(self.stat_id))
        if stat is None:
            return None
        dc = self.dc_row.value() or None
        try:
            result = roll_statistic(stat, self.document.system, self.rng,
                                    mode=mode, dc=dc)  # type: ignore[arg-type]
        except (ModeError, NotRollableError) as exc:
            self.message.emit(str(exc))
            return None
        self.last = result
        self.last_damage = None
        self.result.show_roll(result)
        record = result.to_record(datetime.now().astimezone())
        # One undo step: the log entry, and Guidance-like effects the roll used up.
        logged = self.document.push(roll_edit(self.document.character, stat, record),
                                    f"Roll {stat.label}")
        self._after_attack(result, stat)
        self._records = {"result": record} if logged else {}
        if logged and self._attack is not None:
            self._records["attack"] = record
        self.rolled.emit(result)
        return result

    # --- the result follows the log ------------------------------------------------------
    def clear_result(self) -> None:
        """Show no roll: the prompt, no attack's buttons (another character came in, or the
        roll shown left the log)."""
        self.last = None
        self.last_damage = None
        self._attack = None
        self._records = {}
        self.result.clear_roll()
        self.attack_actions.show_verdict(None, False)

    def _on_edited(self, change: Change) -> None:
        """When the log changes (an undo, Clear): drop from the panel each roll shown whose
        entry is gone. An undone damage roll shows its attack again; an undone confirmation
        leaves the attack unconfirmed."""
        if not self._records:
            return
        if change.kind != "reset" and change.path and change.path[:1] != ("roll_log",):
            return
        log = self.document.character.roll_log
        gone = {part for part, record in self._records.items() if not _logged(record, log)}
        if not gone:
            return
        for part in gone:
            del self._records[part]
        if "attack" in gone:
            self._attack = None
            self._records.pop("confirmation", None)
            self.attack_actions.show_verdict(None, False)
        elif "confirmation" in gone and self._attack is not None:
            attack, stat, _ = self._attack
            self.last = attack
            self._after_attack(attack, stat)
        if "result" not in gone:
            return
        if self._attack is not None and "attack" in self._records:
            self.last, self.last_damage = self._attack[0], None
            self.result.show_roll(self._attack[0])
            self._records["result"] = self._records["attack"]
        else:
            self.clear_result()

    # --- weapons -------------------------------------------------------------------------
    def _after_attack(self, result: CheckRoll, stat: Statistic,
                      confirmation: CheckRoll | None = None) -> None:
        """Show what an attack means for a critical hit, or hide that row after other rolls."""
        if stat.threat is None:
            self._attack = None
            self.attack_actions.show_verdict(None, False)
            return
        self._attack = (result, stat, confirmation)
        four = registry.get(self.document.system).facts.four_degrees
        verdict = attack_verdict(result, stat, four, confirmation)
        has_damage = damage_id(stat.id) in self.document.derived.damage
        self.attack_actions.show_verdict(verdict, has_damage)

    def confirm(self) -> CheckRoll | None:
        """Roll the last attack's confirmation: the same statistic, later attack and mode,
        against the same DC; logged as a roll of its own."""
        if self._attack is None:
            return None
        attack, stat, _ = self._attack
        try:
            result = roll_statistic(stat, self.document.system, self.rng, mode=attack.mode,
                                    dc=attack.dc)
        except (ModeError, NotRollableError) as exc:
            self.message.emit(str(exc))
            return None
        result = replace(result, label=f"{stat.label} (confirm critical)")
        self.last = result
        record = result.to_record(datetime.now().astimezone())
        logged = self.document.push(roll_edit(self.document.character, stat, record),
                                    f"Confirm {stat.label}")
        self._after_attack(attack, stat, result)  # the attack stays shown, this in words
        if logged:
            self._records["confirmation"] = record
        self.rolled.emit(result)
        return result

    def roll_damage(self, damage: str | None = None, critical: bool = False) -> DamageRoll | None:
        """Roll ``damage`` (``damage:<weapon>``; default: that of the last attack), show every
        die and the total, and log it."""
        attack = self._attack[1].id if self._attack is not None else ""
        if damage is None:
            damage = damage_id(attack) if attack else ""
        elif damage != damage_id(attack):  # the sheet's damage of another weapon
            self._attack = None
            self.attack_actions.show_verdict(None, False)
            self._records.pop("attack", None)
            self._records.pop("confirmation", None)
        found = self.document.derived.damage.get(damage)
        if found is None:
            self.message.emit("No damage to roll: pick a weapon's attack first")
            return None
        rolled = roll_damage(found, self.rng, critical=critical)
        self.last_damage = rolled
        self.result.show_damage(rolled)
        record = damage_record(rolled, found, datetime.now().astimezone())
        log = append_record(log_records(self.document.character.roll_log), record)
        if self.document.set(("roll_log",), [r.model_dump(mode="json") for r in log],
                             f"Roll {rolled.label} damage", merge=False):
            self._records["result"] = record
        else:
            self._records.pop("result", None)
        self.message.emit(rolled.summary())
        return rolled

    def copy_log(self) -> None:
        self.log_view.copy_log()

    def clear_log(self) -> None:
        self.log_view.clear_log()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.roll()
            return
        super().keyPressEvent(event)
