"""The roll panel: a statistic's every modifier, the odds against a DC, the dice, the log.

It renders what `derive` and `sheet_app.rolls` computed: which modifier won its type, which
lost and why, the exact odds, every die and the kept one. It never adds anything up itself.
"""

from __future__ import annotations

import functools
import html
import random
import textwrap
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QObject,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QGuiApplication, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from sheet_app.checks import ModeError, format_chance, modes_for, outcomes_for
from sheet_app.derived import Derived, ModifierLine, Statistic
from sheet_app.rolls import (
    CheckRoll,
    NotRollableError,
    RollRecord,
    append_record,
    format_log,
    roll_statistic,
    statistic_mode,
    statistic_odds,
)
from sheet_app.systems import TYPICAL_DCS
from ui.context import StatSelection
from ui.document import Change, CharacterDocument
from ui.format import (
    APPLIED_COLOR,
    PENALTY_COLOR,
    SUPPRESSED_COLOR,
    sentence,
    signed,
    stat_text,
    words,
)
from ui.tables import (
    ACCESSIBLE,
    ALIGNMENT,
    BACKGROUND,
    DISPLAY,
    FONT,
    FOREGROUND,
    NUMBER_ALIGNMENT,
    TOOLTIP,
    FlatTableModel,
    Index,
)
from ui.theme import look
from ui.widgets import icon, mode_label

"""The invisible root index, as a default argument."""

VALUE_ALIGNMENT = NUMBER_ALIGNMENT
VERDICT_ALIGNMENT = int(Qt.AlignmentFlag.AlignCenter)
PENALTY_QCOLOR = QColor(PENALTY_COLOR)
SUPPRESSED_QCOLOR = QColor(SUPPRESSED_COLOR)
APPLIED_QCOLOR = QColor(APPLIED_COLOR)
GROUP_BACKGROUND = QColor("#f1ece3")

OUTCOME_COLORS = {
    "critical_success": "#0b6e2e",
    "success": APPLIED_COLOR,
    "failure": PENALTY_COLOR,
    "critical_failure": "#7a0f0a",
}
OUTCOME_QCOLORS = {outcome: QColor(color) for outcome, color in OUTCOME_COLORS.items()}
OUTCOME_SHORT = {
    "critical_success": "Crit. success",
    "success": "Success",
    "failure": "Failure",
    "critical_failure": "Crit. failure",
}


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
            rows.append(BreakdownRow("line", line.label, signed(line.value), mark, line))
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


class BreakdownModel(FlatTableModel):
    """One flat row per type header, modifier line and suppression reason.

    Columns: the verdict (✔ applies, ✘ suppressed), the value, then the text, so a reason
    sits in the wide last column without spanning. Flat, with uniform row heights, so the
    view asks only for the rows on screen: hundreds of modifiers cost no more than three.
    """

    headers = ("", "Value", "Modifier")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[BreakdownRow] = []
        self.wrap = 40
        """Characters per reason line; the panel sets it from its width."""

    def set_statistic(self, stat: Statistic | None) -> None:
        self.beginResetModel()
        self._rows = breakdown_rows(stat, self.wrap) if stat is not None else []
        self.endResetModel()

    def rows(self) -> list[BreakdownRow]:
        return list(self._rows)

    def row_total(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == DISPLAY:
            if row.kind == "reason":
                return f"   {row.text}" if col == 2 else None
            return (row.status, row.value, row.text)[col]
        suppressed = row.line is not None and not row.line.applied
        if role == FONT:
            if row.kind == "group":
                return _font("bold")
            if row.kind == "reason":
                return _font("italic")
            if suppressed:
                return _font("struck" if col > 0 else "unstruck")
            return _font("bold" if col == 1 else "plain")
        if role == FOREGROUND:
            if suppressed or row.kind == "reason":
                return PENALTY_QCOLOR if col == 0 else SUPPRESSED_QCOLOR
            if col == 0 and row.kind == "line":
                return APPLIED_QCOLOR
            return None
        if role == BACKGROUND:
            return GROUP_BACKGROUND if row.kind == "group" else None
        if role == ALIGNMENT:
            return (VALUE_ALIGNMENT if col else VERDICT_ALIGNMENT) if col < 2 else None
        if role == TOOLTIP and row.line is not None:
            line = row.line
            verdict = "applies" if line.applied else f"suppressed: {line.reason}"
            return f"{line.label}: {signed(line.value)} {words(line.type)} — {verdict}"
        if role == ACCESSIBLE:
            verdict = {"✔": "applies", "✘": "suppressed"}.get(row.status, "")
            return " ".join(filter(None, (row.text, row.value, verdict)))
        return None


# --- the roll log --------------------------------------------------------------------------


def log_records(log: list[Any]) -> list[RollRecord]:
    """The character's log as records (the model may keep plain dicts)."""
    return [r if isinstance(r, RollRecord) else RollRecord.model_validate(r) for r in log]


class RollLogModel(FlatTableModel):
    """Past rolls, newest first: time, check, dice, total, outcome."""

    headers = ("Time", "Check", "d20", "Total", "Result")

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

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or index.row() >= len(self._records):
            return None
        record = self._records[len(self._records) - 1 - index.row()]
        col = index.column()
        if role == DISPLAY:
            if col == 0:
                return _clock(record.time)
            if col == 1:
                short = {"advantage": "adv.", "disadvantage": "dis.", "fortune": "fort.",
                         "misfortune": "misf."}.get(record.mode)
                return f"{record.label} ({short})" if short else record.label
            if col == 2:
                return _faces_text(record.dice, record.natural)
            if col == 3:
                return str(record.total)
            if col == 4:
                return "—" if record.outcome is None else OUTCOME_SHORT[record.outcome]
        if role == TOOLTIP:
            from sheet_app.rolls import format_record

            return format_record(record)
        if role == FOREGROUND and col == 4 and record.outcome:
            return OUTCOME_QCOLORS[record.outcome]
        if role == ALIGNMENT and col == 3:
            return VALUE_ALIGNMENT
        return None

    def as_text(self) -> str:
        return format_log(self._records)


def _clock(time: str) -> str:
    try:
        return datetime.fromisoformat(time).strftime("%H:%M")
    except ValueError:
        return time


def _faces_text(dice: list[int] | tuple[int, ...], natural: int) -> str:
    """The kept die, then the dropped one in brackets: ``19 (17)``."""
    dropped = list(dice)
    if natural in dropped:
        dropped.remove(natural)
    return f"{natural} ({', '.join(map(str, dropped))})" if dropped else str(natural)


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
                   f" <span style='color:#555'>vs DC {result.dc}</span>")
    mode = "" if result.mode == "normal" else f" <i>({result.mode})</i>"
    return (
        f"{'&nbsp;&nbsp;'.join(faces)}"
        f"<span style='font-size:14pt'> {html.escape(signed(result.total_modifier))} = </span>"
        f"<span style='font-size:22pt; font-weight:bold'>{result.total}</span>{mode}{outcome}"
    )


PROMPT = ("<span style='color:#8f8a83'>Click the die beside a statistic, press Roll, or press "
          "Enter in the DC field.</span>")


# --- the panel -----------------------------------------------------------------------------


class DcSpinBox(QSpinBox):
    """The DC to roll against; Enter rolls."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.interpretText()
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class RollPanel(QWidget):
    """Follows the selected statistic; rolls it on request and logs the roll."""

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
        self.last: CheckRoll | None = None
        self._shown: Statistic | None = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)

        head = QHBoxLayout()
        self.title = QLabel("Select a statistic")
        look(self.title, "panelTitle")
        self.title.setWordWrap(True)
        self.total = QLabel("")
        look(self.total, "panelTotal")
        self.total.setProperty("derived", True)
        self.total.setAccessibleName("Selected statistic total")
        head.addWidget(self.title, 1)
        head.addWidget(self.total)
        layout.addLayout(head)
        self.mode_note = QLabel()
        look(self.mode_note, "modeNote")
        self.mode_note.setWordWrap(True)
        layout.addWidget(self.mode_note)

        self.breakdown = BreakdownModel(self)
        self.tree = QTreeView()
        self.tree.setObjectName("breakdown")
        self.tree.setAccessibleName("Modifiers of the selected statistic")
        self.tree.setModel(self.breakdown)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setItemsExpandable(False)
        self.tree.setIndentation(0)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 22)
        header.resizeSection(1, 40)

        self.notes = QLabel()
        look(self.notes, "hint")
        self.notes.setWordWrap(True)

        dc_row = QHBoxLayout()
        dc_label = QLabel("DC")
        look(dc_label, "caption")
        self.dc = DcSpinBox()
        self.dc.setRange(0, 60)
        self.dc.setValue(15)
        self.dc.setSpecialValueText("none")
        self.dc.setAccessibleName("Difficulty class")
        self.dc.setToolTip("The DC to beat (none: just roll). Enter rolls.")
        dc_label.setBuddy(self.dc)
        self.dc.valueChanged.connect(lambda _v: self._show_odds())
        self.dc.submitted.connect(lambda: self.roll())
        self.odds = QLabel()
        look(self.odds, "odds")
        self.odds.setWordWrap(True)
        self.odds.setAccessibleName("Odds")
        self.dc_presets = QToolButton()
        self.dc_presets.setText("Typical")
        self.dc_presets.setAutoRaise(True)
        self.dc_presets.setAccessibleName("Typical DCs")
        self.dc_presets.setToolTip("Typical DCs of this system")
        self.dc_presets.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.dc_presets.setMenu(QMenu(self.dc_presets))
        self.dc_presets.menu().aboutToShow.connect(self._fill_dc_presets)
        dc_row.addWidget(dc_label)
        dc_row.addWidget(self.dc)
        dc_row.addWidget(self.dc_presets)
        dc_row.addWidget(self.odds, 1)

        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        buttons_box = buttons
        self._mode_buttons_box = buttons_box

        self.result = QLabel()
        look(self.result, "rollResult")
        self.result.setTextFormat(Qt.TextFormat.RichText)
        self.result.setWordWrap(True)
        self.result.setAccessibleName("Last roll")
        self.result.setMinimumHeight(40)
        self.result.setText(PROMPT)

        top = QWidget()
        tv = QVBoxLayout(top)
        tv.setContentsMargins(0, 0, 0, 0)
        tv.addWidget(self.tree, 1)
        tv.addWidget(self.notes)
        tv.addLayout(dc_row)
        tv.addLayout(buttons)
        tv.addWidget(self.result)

        # the log
        bottom = QWidget()
        bv = QVBoxLayout(bottom)
        bv.setContentsMargins(0, 0, 0, 0)
        log_head = QHBoxLayout()
        log_title = QLabel("Roll log")
        look(log_title, "caption")
        self.copy = QPushButton("Copy as text")
        self.copy.setAccessibleName("Copy the roll log as text")
        self.copy.clicked.connect(self.copy_log)
        self.clear = QPushButton("Clear")
        self.clear.setAccessibleName("Clear the roll log")
        self.clear.clicked.connect(self.clear_log)
        log_head.addWidget(log_title, 1)
        log_head.addWidget(self.copy)
        log_head.addWidget(self.clear)
        self.log_model = RollLogModel(document, self)
        self.log = QTableView()
        self.log.setObjectName("rollLog")
        self.log.setAccessibleName("Roll log")
        self.log.setModel(self.log_model)
        self.log.verticalHeader().setVisible(False)
        self.log.verticalHeader().setDefaultSectionSize(20)
        self.log.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.log.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.log.setAlternatingRowColors(True)
        lh = self.log.horizontalHeader()
        for col, width in ((0, 42), (2, 52), (3, 40), (4, 92)):
            lh.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            lh.resizeSection(col, width)
        lh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        bv.addLayout(log_head)
        bv.addWidget(self.log, 1)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        layout.addWidget(split, 1)

        selection.selected.connect(self.show_statistic)
        selection.rollRequested.connect(lambda stat_id, mode: self.roll(mode, stat_id))
        document.derivedChanged.connect(self._on_derived)
        document.replaced.connect(self._rebuild_buttons)
        self._rebuild_buttons()
        if selection.current:
            self.show_statistic(selection.current)

    # --- following the sheet -------------------------------------------------------------
    def _rebuild_buttons(self) -> None:
        box = self._mode_buttons_box
        while box.count():
            item = box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        for mode in modes_for(self.document.system):
            button = QPushButton(mode_label(mode))
            if mode == "normal":
                button.setIcon(icon("d20"))
                look(button, "rollButton")
                button.setToolTip("Roll (Enter in the DC field, or Ctrl+R)")
            button.setAccessibleName("Roll" if mode == "normal" else f"Roll with {mode}")
            button.clicked.connect(lambda _=False, m=mode: self.roll(m))
            box.addWidget(button)
            self.buttons[mode] = button
        self._show_odds()

    def _fill_dc_presets(self) -> None:
        menu = self.dc_presets.menu()
        menu.clear()
        for name, dc in TYPICAL_DCS[self.document.system]:
            action = menu.addAction(f"{name}  {dc}")
            action.triggered.connect(lambda _=False, v=dc: self.dc.setValue(v))

    def show_statistic(self, stat_id: str) -> None:
        self.stat_id = stat_id
        self._render(self.document.derived.statistics.get(stat_id))

    def _on_derived(self, old: Derived, new: Derived) -> None:
        stat = new.statistics.get(self.stat_id)
        if stat != self._shown or old.system != new.system:
            self._render(stat)

    def _render(self, stat: Statistic | None) -> None:
        self._shown = stat
        self.breakdown.set_statistic(stat)
        if stat is None:
            self.title.setText("Select a statistic")
            self.total.setText("")
            self.mode_note.setText("")
            self.notes.setText("")
        else:
            self.title.setText(stat.label)
            self.total.setText(stat_text(stat))
            self.total.setToolTip(f"DC others roll against: {stat.dc}" if stat.rollable
                                  else "The DC others roll against")
            explained = ""
            if stat.rollable:
                try:
                    explained = statistic_mode(stat, self.document.system).explain()
                except ModeError as exc:
                    explained = str(exc)
            self.mode_note.setText(sentence(explained) if explained else "")
            self.mode_note.setVisible(bool(explained))
            notes = list(stat.notes)
            if not stat.rollable:
                notes.append(f"{stat.label} is not rolled: it is the DC others roll against.")
            self.notes.setText(" ".join(notes))
            self.notes.setVisible(bool(notes))
        rollable = stat is not None and stat.rollable
        for button in self.buttons.values():
            button.setEnabled(rollable)
        self.dc.setEnabled(rollable)
        self._show_odds()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # the tree's viewport is laid out after this event: size from the panel itself
        width = self.width() - 100  # margins and the verdict and value columns
        char = max(1.0, self.tree.fontMetrics().averageCharWidth() * 1.15)  # italic, wide glyphs
        chars = max(16, int(width / char) - 6)
        if chars != self.breakdown.wrap:
            self.breakdown.wrap = chars
            self.breakdown.set_statistic(self._shown)

    def _show_odds(self) -> None:
        stat = self._shown
        dc = self.dc.value()
        if stat is None or not stat.rollable or dc == 0:
            self.odds.setText("")
            for mode, button in self.buttons.items():
                button.setToolTip(mode_label(mode))
            return
        system = self.document.system
        try:
            odds = statistic_odds(stat, system, dc)
        except ModeError as exc:
            self.odds.setText(str(exc))
            return
        parts = [f"{OUTCOME_SHORT[o]} {format_chance(odds.probabilities[o])}"
                 for o in outcomes_for(system)]
        text = " · ".join(parts) if system == "pf2e" else parts[0]
        mode_word = "" if odds.mode == "normal" else f" ({odds.mode})"
        self.odds.setText(text + mode_word)
        for mode, button in self.buttons.items():
            if mode == "normal":
                continue
            try:
                chance = statistic_odds(stat, system, dc, mode).success  # type: ignore[arg-type]
            except ModeError:
                continue
            button.setToolTip(f"Roll with {mode}: {format_chance(chance)} to succeed")

    # --- rolling -------------------------------------------------------------------------
    def roll(self, mode: str = "normal", stat_id: str | None = None) -> CheckRoll | None:
        if stat_id is not None and stat_id != self.stat_id:
            self.show_statistic(stat_id)
        stat = self.document.derived.statistics.get(self.stat_id)
        if stat is None:
            return None
        dc = self.dc.value() or None
        try:
            result = roll_statistic(stat, self.document.system, self.rng,
                                    mode=mode, dc=dc)  # type: ignore[arg-type]
        except (ModeError, NotRollableError) as exc:
            self.message.emit(str(exc))
            return None
        self.last = result
        self.result.setText(dice_html(result))
        self.result.setToolTip(result.summary())
        self.result.setAccessibleDescription(result.summary())
        record = result.to_record(datetime.now().astimezone())
        log = append_record(log_records(self.document.character.roll_log), record)
        self.document.set(("roll_log",), [r.model_dump(mode="json") for r in log],
                          f"Roll {stat.label}", merge=False)
        self.rolled.emit(result)
        return result

    def copy_log(self) -> None:
        text = self.log_model.as_text()
        QGuiApplication.clipboard().setText(text)
        self.message.emit("Roll log copied" if text else "The roll log is empty")

    def clear_log(self) -> None:
        if self.document.character.roll_log:
            self.document.set(("roll_log",), [], "Clear roll log", merge=False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.roll()
            return
        super().keyPressEvent(event)
