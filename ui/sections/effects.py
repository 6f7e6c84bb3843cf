"""Effects (spells, conditions, items): a table of effects and the modifiers of the chosen one.

Everything system-specific comes from the system's sheet description and facts: the modifier
types and roll modes offered, whether any word is a type, the quick-add presets, the published
conditions (whose modifiers the rules compute from their value), and the sacred/profane-style
side choice where the system has one.

The tab is made of `EffectsToolbar`, the effects table (`EffectsModel`), `ModifierEditor`
(`ModifiersModel`) and, on request, `ConditionPicker`; `EffectsPanel` wires them together.

A modifier's targets are typed in a `TargetsEdit`: it offers every target of the system (its
statistics with their names, its groups, ``uses:<ability>`` and ``score:<ability>``,
`target_choices`) as the player types, and marks a target the system would refuse as it is
typed. A refused edit is explained at its cell (tooltip, icon, the line under the table), and
the cell's editor reopens on what was typed, to correct it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from pydantic import ValidationError
from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from sheet_app import registry
from sheet_app.derived import Derived
from sheet_app.edit import Batch
from sheet_app.facts import ABILITIES, ABILITY_NAMES, MINUS
from sheet_app.hitpoints import end_of_turn, end_of_turn_text
from sheet_app.model import DICE_RE, Effect, Modifier
from sheet_app.registry import Condition, RuleSystem
from sheet_app.validation import target_problem
from ui.context import SheetContext
from ui.document import Change, Path_
from ui.format import brief, parse_whole, plain_tip, sentence, signed, words
from ui.sections.hitpoints import announce
from ui.sections.tables import (
    BOUNDS,
    DISPLAY,
    EDIT,
    FONT,
    FOREGROUND,
    NUMBER_ALIGNMENT,
    TOOLTIP,
    Column,
    Index,
    ListTableModel,
    table_view,
)
from ui.theme import COMPUTED_COLOR, INACTIVE_COLOR, PENALTY_COLOR, look, qcolor
from ui.widgets import BoundComboBox

TARGETS_HELP = (
    "Targets, separated by commas: a statistic (skill:stealth, save:dex, ac, initiative),\n"
    "a group (skill, save, ability, attack, perception), check (every d20 check),\n"
    "uses:str (every check using Strength) or score:str (the score itself)."
)
VALUE_HELP = "A whole number (−2 for a penalty) or dice such as 1d4"


# --- texts ---------------------------------------------------------------------------------


def value_text(value: int | str | None) -> str:
    """+2, −1, +1d4, −1d6: a modifier's value with its sign."""
    if isinstance(value, str):
        text = value if value[:1] in "+-" else f"+{value}"
        return text.replace("-", MINUS)
    return signed(value or 0)


def parse_value(text: object) -> int | str | None:
    """A whole number or a dice expression (``1d4``, ``-1d6``); ``None`` if it is neither."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    raw = str(text).strip().replace(MINUS, "-").replace(" ", "").lower()
    if re.fullmatch(r"[+-]?\d{1,4}", raw):
        return int(raw)
    return raw.removeprefix("+") if DICE_RE.match(raw) else None


def modifier_text(mod: Modifier) -> str:
    targets = ", ".join(mod.targets) or "nothing"
    if mod.mode is not None:
        return f"{mod.mode} → {targets}"
    kind = "" if mod.type in (None, "untyped") else f" {words(mod.type or '')}"
    return f"{value_text(mod.value)}{kind} → {targets}"


def parse_targets(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


# --- targets -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """A target the system's sheets take, with what it reaches in words."""

    id: str
    label: str


_PATH_PREFIX = re.compile(r"^effects(\.\w+)*: ")
"""The ``effects.0.modifiers.1.targets.0: `` a refused edit's message starts with."""


def reason_text(message: str) -> str:
    """A refusal's message without the path it starts with (shown at the field itself)."""
    return _PATH_PREFIX.sub("", message, count=1)


def target_problem_text(rules: RuleSystem, target: str) -> str | None:
    """Why ``rules``' sheets refuse ``target`` as a modifier target, or ``None``: the
    model's own checks (the target's form, then the system's `target_problem`)."""
    try:
        Modifier(type="untyped", value=1, targets=[target])
    except ValidationError as exc:
        return str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
    return target_problem(rules.facts, rules.id, target)  # worded as the sheet's own check


def _group_label(group: str, derived: Derived) -> str:
    stat = derived.statistics.get(group)
    name = stat.label if stat is not None else " ".join(
        word.upper() if len(word) == 2 else word for word in words(group).split())
    return f"every {name}"


def target_choices(rules: RuleSystem, derived: Derived) -> list[TargetChoice]:
    """Every target ``rules``' sheets take, each once, with its name: the sheet's
    statistics and weapons' damage (as ``derived`` has them), the system's further targets,
    its groups (``skill``: every skill), ``uses:<ability>`` (checks using it) and
    ``score:<ability>``. Only what the model would accept is offered."""
    found: dict[str, str] = {}

    def offer(target: str, label: str) -> None:
        if target not in found and target_problem_text(rules, target) is None:
            found[target] = label

    facts = rules.facts
    for stat_id, stat in derived.statistics.items():
        if "@" not in stat_id:  # a skill rolled with another ability is not a target
            offer(stat_id, stat.label)
    for damage_id, damage in derived.damage.items():
        offer(damage_id, f"{damage.label} damage")
    for target in facts.extra_targets:
        offer(target, words(target.partition(":")[2]) + " " + words(target.partition(":")[0]))
    for group in facts.groups:
        offer(group, _group_label(group, derived))
    for abbr in ABILITIES:
        offer(f"uses:{abbr}", f"checks using {ABILITY_NAMES[abbr]}")
    for abbr in ABILITIES:
        offer(f"score:{abbr}", f"{ABILITY_NAMES[abbr]} {facts.ability_kind}")
    return [TargetChoice(target, label) for target, label in found.items()]


TARGET_ID = Qt.ItemDataRole.UserRole + 1
"""A completion's target id."""
TARGET_SEARCH = Qt.ItemDataRole.UserRole + 2
"""What a completion is found by: its id and its name."""


class TargetsEdit(QLineEdit):
    """Targets separated by commas, with every target of the system offered as the player
    types (found by id or name: "stea" offers Stealth) or presses Down; choosing one puts
    its id in place of the word being typed. A target the system would refuse turns the
    text red and says why (`problemChanged`, and the tooltip) before anything is saved."""

    problemChanged = Signal(str)
    """Why a typed target would be refused ("" once none is)."""

    def __init__(self, rules: RuleSystem, choices: Sequence[TargetChoice],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        self.problem = ""
        self.setAccessibleName("Modifier targets")
        self.setPlaceholderText("skill:stealth, save, check…")
        model = QStandardItemModel(self)
        for choice in choices:
            item = QStandardItem(f"{choice.label}  ·  {choice.id}")
            item.setData(choice.id, TARGET_ID)
            item.setData(f"{choice.id} {choice.label}", TARGET_SEARCH)
            item.setToolTip(choice.id)
            model.appendRow(item)
        self.choices = QCompleter(model, self)
        self.choices.setWidget(self)
        self.choices.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.choices.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.choices.setFilterMode(Qt.MatchFlag.MatchContains)
        self.choices.setCompletionRole(TARGET_SEARCH)
        self.choices.setMaxVisibleItems(12)
        self.popup().setAccessibleName("Targets of this system")
        by_index = cast("Any", self.choices.activated)[QModelIndex]  # (the stubs lack [])
        by_index.connect(self.choose)
        self.textEdited.connect(lambda _text: self.offer(self.word()))
        self.textChanged.connect(lambda _text: self._check())
        self._plain = QPalette(self.palette())

    def popup(self) -> QAbstractItemView:
        """The list of offered targets."""
        popup = self.choices.popup()
        assert popup is not None  # a completer always has one
        return popup

    # --- the word being typed -----------------------------------------------------------
    def _span(self) -> tuple[int, int]:
        """Where the target under the cursor starts and ends."""
        text, cursor = self.text(), self.cursorPosition()
        start = max(text.rfind(",", 0, cursor), text.rfind(" ", 0, cursor)) + 1
        ends = [i for i in (text.find(",", cursor), text.find(" ", cursor)) if i >= 0]
        return start, min(ends, default=len(text))

    def word(self) -> str:
        """The target being typed (up to the cursor)."""
        start, _ = self._span()
        return self.text()[start:self.cursorPosition()].strip()

    def offer(self, word: str, *, everything: bool = False) -> int:
        """Show the targets matching ``word`` (all of them with ``everything``); how many."""
        if not word and not everything:
            self.popup().hide()
            return 0
        self.choices.setCompletionPrefix(word)
        count = self.choices.completionCount()
        if count == 0:
            self.popup().hide()
            return 0
        popup = self.popup()
        shown = self.choices.completionModel()
        metrics = popup.fontMetrics()
        widest = max(metrics.horizontalAdvance(str(shown.index(row, 0).data()))
                     for row in range(count))
        rect = self.rect()
        rect.setWidth(max(rect.width(), widest + popup.verticalScrollBar().sizeHint().width()
                          + 4 * popup.frameWidth() + 12))
        self.choices.complete(rect)
        popup.setCurrentIndex(self.choices.completionModel().index(0, 0))
        return count

    def choose(self, index: QModelIndex) -> None:
        """Put the chosen target in place of the word being typed."""
        target = str(index.data(TARGET_ID) or "")
        if not target:
            return
        text = self.text()
        start, end = self._span()
        head, tail = text[:start], text[end:].lstrip(", ")
        joined = head + target + (", " + tail if tail else "")
        self.setText(joined)
        self.setCursorPosition(len(head) + len(target))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        popup = self.popup()
        if popup.isVisible() and event.key() in (
            Qt.Key.Key_Enter, Qt.Key.Key_Return, Qt.Key.Key_Escape, Qt.Key.Key_Tab,
            Qt.Key.Key_Backtab,
        ):
            event.ignore()  # the completer picks (or closes) the list
            return
        if event.key() == Qt.Key.Key_Down and not popup.isVisible():
            self.offer(self.word(), everything=True)
            return
        super().keyPressEvent(event)

    # --- checking ------------------------------------------------------------------------
    def _check(self) -> None:
        """Mark the first target the system would refuse; the last one only once it can't
        become a target by typing on (no offered target contains it)."""
        targets = parse_targets(self.text())
        typing = self.word()
        problem = ""
        for i, target in enumerate(targets):
            last = i == len(targets) - 1 and target == typing
            if last and self._could_become(target):
                continue
            why = target_problem_text(self.rules, target)
            if why:
                problem = why  # (it names the target)
                break
        if problem == self.problem:
            return
        self.problem = problem
        palette = QPalette(self._plain)
        if problem:
            palette.setColor(QPalette.ColorRole.Text, qcolor(PENALTY_COLOR))
        self.setPalette(palette)
        self.setToolTip(plain_tip(problem or TARGETS_HELP))
        self.problemChanged.emit(problem)

    def _could_become(self, word: str) -> bool:
        model = self.choices.model()
        lowered = word.lower()
        return any(lowered in str(model.index(row, 0).data(TARGET_ID)).lower()
                   for row in range(model.rowCount()))


def presets(system: str) -> list[tuple[Effect, str]]:
    """The quick-add effects of ``system`` (its sheet's presets): (effect, one-line tip)."""
    out = []
    for entry in registry.get(system).sheet().presets:
        effect = Effect.model_validate({k: v for k, v in entry.items() if k != "tip"})
        out.append((effect, str(entry.get("tip", ""))))
    return out


def condition_effect(condition: Condition, value: int | None = None) -> Effect:
    """A new, active effect of ``condition`` (at ``value``, 1..max_value, where it has one)."""
    data: dict[str, Any] = {"name": condition.label, "condition": condition.key,
                            "active": True}
    if condition.max_value is not None:
        level = max(1, min(condition.max_value, value or 1))
        data["name"] = f"{condition.label} {level}"
        data["value"] = level
    return Effect.model_validate(data)


def _computed(system: RuleSystem, effect: Effect) -> list[Modifier]:
    """What ``effect``'s condition does at its value (its own modifiers left out)."""
    if effect.condition is None:
        return []
    return system.condition_modifiers(effect.model_copy(update={"modifiers": []}))


# --- the effects table ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EffectRow:
    """An effect as its row reads it, with its condition looked up in the system."""

    effect: Effect
    system: RuleSystem

    @property
    def condition(self) -> Condition | None:
        key = self.effect.condition
        return None if key is None else self.system.facts.conditions.get(key)

    @property
    def condition_label(self) -> str:
        key = self.effect.condition
        if key is None:
            return ""
        condition = self.condition
        return condition.label if condition is not None else words(key)

    @property
    def max_value(self) -> int | None:
        condition = self.condition
        return None if condition is None else condition.max_value

    @property
    def level(self) -> int:
        return self.effect.value or 1

    def modifiers(self) -> list[Modifier]:
        """The condition's modifiers, then the effect's own."""
        return [*_computed(self.system, self.effect), *self.effect.modifiers]

    def auto_name(self, level: int) -> str:
        """The name `condition_effect` gives this condition at ``level``."""
        return f"{self.condition_label} {level}"


def _set_active(model: EffectsModel, row: int, item: EffectRow, value: Any) -> bool:
    active = Qt.CheckState(value) == Qt.CheckState.Checked
    verb = "Activate" if active else "Deactivate"
    return model.ctx.document.set(("effects", row, "active"), active,
                                  f"{verb} {item.effect.name}")


def _rename(model: EffectsModel, row: int, item: EffectRow, value: Any) -> bool:
    return model.ctx.document.set(("effects", row, "name"), str(value), "Rename effect")


def _set_level(model: EffectsModel, row: int, item: EffectRow, value: Any) -> bool:
    """A condition's new value, within 1..max_value; a name that spelled the old value
    (``Frightened 2``) follows it in the same undo step."""
    doc = model.ctx.document
    top = item.max_value or 1
    level = parse_whole(value)
    if level is None:
        doc.rejected.emit(f"{item.condition_label} takes a whole number from 1 to {top}, "
                          f"not {brief(value)}")
        return False
    if not 1 <= level <= top:
        doc.rejected.emit(f"{item.condition_label} goes from 1 to {top}, not {level}")
        return False
    update: dict[str, Any] = {"value": level}
    if item.effect.name == item.auto_name(item.level):
        update["name"] = item.auto_name(level)
    new = item.effect.model_copy(update=update, deep=True)
    return doc.set(("effects", row), new, f"Set {item.condition_label} to {level}")


def _modifiers_text(item: EffectRow) -> str:
    return "; ".join(modifier_text(m) for m in item.modifiers()) or "—"


def _modifiers_tip(item: EffectRow) -> str | None:
    return plain_tip("\n".join(modifier_text(m) for m in item.modifiers()) or None)


def _spoken_state(item: EffectRow) -> str:
    return f"{item.effect.name} {'active' if item.effect.active else 'inactive'}"


def _condition_tip(item: EffectRow) -> str | None:
    condition = item.condition
    return plain_tip(condition.summary) if condition is not None else None


class EffectsModel(ListTableModel):
    """One row per effect: on/off, name, its condition and value, and what it changes."""

    columns = (
        Column("On", 34, "fixed", editor="check", write=_set_active,
               checked=lambda r: r.effect.active,
               accessible=_spoken_state),
        Column("Effect", 150, show=lambda r: r.effect.name, editor="text", write=_rename),
        Column("Condition", 84, show=lambda r: r.condition_label, tip=_condition_tip),
        Column("Value", 44, align=NUMBER_ALIGNMENT, editor="bounded", write=_set_level,
               show=lambda r: str(r.level) if r.max_value else "",
               value=lambda r: r.level,
               editable=lambda r: r.max_value is not None,
               bounds=lambda r: (1, r.max_value or 1),
               tip=lambda r: f"1 to {r.max_value}" if r.max_value else None),
        Column("Modifiers", resize="stretch", show=_modifiers_text, tip=_modifiers_tip),
    )
    ON, NAME, CONDITION, VALUE, MODIFIERS = range(5)

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        super().__init__(ctx, ("effects",), parent)

    def cell(self, index: Index) -> EffectRow | None:
        effect = self.row_item(index)
        return None if effect is None else EffectRow(effect, self.ctx.rules)

    def styled(self, item: Any, column: int, role: int) -> Any:
        row: EffectRow = item
        if role == FOREGROUND and not row.effect.active and column > 0:
            return qcolor(INACTIVE_COLOR)
        return None

    def add(self, effect: Effect, text: str) -> int:
        """Add ``effect`` at the end; its row, or -1 if the sheet refused it (full: the
        document says why)."""
        row = len(self._shown)
        return row if self.ctx.document.insert(("effects",), row, effect, text) else -1


# --- the modifiers of one effect -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModifierRow:
    """A modifier as its row reads it; ``computed_by`` names the condition (and value) whose
    rules made it: such a row is shown so players see what the condition does, not edited."""

    modifier: Modifier
    computed_by: str | None = None

    @property
    def editable(self) -> bool:
        return self.computed_by is None


def _type_shown(row: ModifierRow) -> str:
    mod = row.modifier
    return f"{mod.mode} (roll)" if mod.mode is not None else words(mod.type or "")


def _set_type(model: ModifiersModel, row: int, item: ModifierRow, value: Any) -> bool:
    mod = item.modifier
    kind = str(value).strip()
    doc = model.ctx.document
    path = (*model.path, row)
    if kind in model.ctx.sheet.roll_modes:
        new = Modifier(mode=kind, targets=mod.targets)
    elif mod.mode is not None:
        new = Modifier(type=kind, value=1, targets=mod.targets)
    else:
        return doc.set((*path, "type"), kind, "Set modifier type")
    return doc.set(path, new, "Set modifier type")


def _set_value(model: ModifiersModel, row: int, item: ModifierRow, value: Any) -> bool:
    parsed = parse_value(value)
    if parsed is None:
        model.ctx.document.rejected.emit(
            f"A modifier's value is a whole number or dice like 1d4, not {brief(value)}")
        return False
    return model.ctx.document.set((*model.path, row, "value"), parsed, "Set modifier value")


def _set_targets(model: ModifiersModel, row: int, item: ModifierRow, value: Any) -> bool:
    """Set the targets typed; a refusal is kept with what was typed, to be explained at
    the cell (`ModifiersModel.problem`) and offered again when it is edited."""
    typed = str(value)
    document = model.ctx.document
    reasons: list[str] = []

    def refused(message: str) -> None:
        reasons.append(message)

    document.rejected.connect(refused)
    try:
        accepted = document.set((*model.path, row, "targets"), parse_targets(typed),
                                "Set modifier targets")
    finally:
        document.rejected.disconnect(refused)
    model.note_problem(row, None if accepted else
                       (typed, reason_text(reasons[0]) if reasons else "refused"))
    return accepted


def _targets_tip(row: ModifierRow) -> str | None:
    if row.computed_by is None:
        return TARGETS_HELP
    return plain_tip(f"From {row.computed_by}: set by the rules "
                     "(change the condition's value instead)")


def _from_tip(row: ModifierRow) -> str | None:
    return plain_tip(f"From {row.computed_by}") if row.computed_by else None


class ModifiersModel(ListTableModel):
    """The modifiers of one effect: type (or roll mode), value and targets; below its own,
    read-only, the modifiers its condition gives at its value."""

    columns = (
        Column("Type", 120, show=_type_shown, editor="choice", write=_set_type,
               value=lambda r: r.modifier.mode or r.modifier.type,
               editable=lambda r: r.editable, tip=_from_tip),
        Column("Value", 52, align=NUMBER_ALIGNMENT, editor="text", write=_set_value,
               show=lambda r: "—" if r.modifier.mode is not None else value_text(r.modifier.value),
               value=lambda r: "" if r.modifier.value is None else str(r.modifier.value),
               editable=lambda r: r.editable and r.modifier.mode is None,
               tip=lambda r: VALUE_HELP if r.editable else _from_tip(r)),
        Column("Targets", resize="stretch", show=lambda r: ", ".join(r.modifier.targets),
               editor="text", write=_set_targets, editable=lambda r: r.editable,
               tip=_targets_tip),
    )

    TARGETS = 2
    problemChanged = Signal(int, str)
    """(row, why its targets were refused); (-1, "") once no row has a problem."""

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        self.effect_row = -1
        self._problem: tuple[int, str, str] | None = None
        """(row, what was typed, why it was refused) of the last refused targets."""
        super().__init__(ctx, ("effects", -1, "modifiers"), parent)

    # --- a refused edit, explained at its cell ------------------------------------------
    def problem(self, row: int) -> str | None:
        """Why the last targets typed in ``row`` were refused, or ``None``."""
        if self._problem is None or self._problem[0] != row:
            return None
        return self._problem[2]

    def note_problem(self, row: int, problem: tuple[str, str] | None) -> None:
        """Keep (typed, why) as ``row``'s problem, or forget the row's problem."""
        old = self._problem
        if problem is None:
            if old is None or old[0] != row:
                return
            self._problem = None
        else:
            self._problem = (row, *problem)
        for changed in {r for r in (row, old[0] if old else -1) if r >= 0}:
            cell = self.index(changed, self.TARGETS)
            self.dataChanged.emit(cell, cell)
        self.problemChanged.emit(row if self._problem else -1,
                                 self._problem[2] if self._problem else "")

    def _forget_problem(self) -> None:
        if self._problem is not None:
            self._problem = None
            self.problemChanged.emit(-1, "")

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        problem = self._problem
        if (problem is not None and index.isValid() and index.row() == problem[0]
                and index.column() == self.TARGETS):
            if role == EDIT:
                return problem[1]  # the editor reopens on what was typed, to correct it
            if role == TOOLTIP:
                return plain_tip(f"Not changed: {problem[2]}\nYou typed: {problem[1]}")
            if role == Qt.ItemDataRole.DecorationRole:
                return QApplication.style().standardIcon(
                    QStyle.StandardPixmap.SP_MessageBoxWarning)
            if role == FOREGROUND:
                return qcolor(PENALTY_COLOR)
        return super().data(index, role)

    def full_message(self) -> str | None:
        """Why no modifier can be added to the shown effect (it has the most the model
        allows), or ``None``."""
        return self.ctx.document.full_message(self.path) if self.effect() is not None else None

    def watch_path(self) -> Path_:
        return ("effects",)

    def effect(self) -> Effect | None:
        effects = self.ctx.document.character.effects
        if not self._detached and 0 <= self.effect_row < len(effects):
            return effects[self.effect_row]
        return None

    def items(self) -> list[Any]:
        effect = self.effect()
        if effect is None:
            return []
        rows = [ModifierRow(m) for m in effect.modifiers]
        computed = _computed(self.ctx.rules, effect)
        if computed:
            source = EffectRow(effect, self.ctx.rules)
            label = (source.auto_name(source.level) if source.max_value
                     else source.condition_label)
            rows.extend(ModifierRow(m, label) for m in computed)
        return rows

    def own_count(self) -> int:
        effect = self.effect()
        return 0 if effect is None else len(effect.modifiers)

    def set_effect(self, row: int) -> None:
        if self._detached:
            return
        self._forget_problem()
        self.beginResetModel()
        self.effect_row = row
        self.path = ("effects", row, "modifiers")
        self._shown = list(self.items())
        self.endResetModel()

    def _on_change(self, change: Change) -> None:
        path = change.path
        if change.kind != "set" or path[:3] != self.path or len(path) <= 3:
            self._forget_problem()  # rows come and go: the refused row is not that row
        if change.kind != "reset" and self.effect_row >= 0 and path[:3] == self.path:
            super()._on_change(change)  # inside this effect's modifiers (computed rows last)
        elif len(path) <= 1 or (path[1] == self.effect_row
                                and (len(path) == 2 or path[2] in ("condition", "value"))):
            # the effects list, this whole effect or its condition changed
            self.set_effect(min(self.effect_row, len(self.ctx.document.character.effects) - 1))

    def styled(self, item: Any, column: int, role: int) -> Any:
        row: ModifierRow = item
        if role == FONT and (row.computed_by or (column == 0 and row.modifier.mode)):
            font = QFont()
            font.setItalic(True)
            return font
        if role == FOREGROUND and row.computed_by:
            return qcolor(COMPUTED_COLOR)
        return None

    def add(self, mode: bool) -> None:
        if self.effect_row < 0:
            return
        sheet = self.ctx.sheet
        if mode:
            if not sheet.roll_modes:
                return
            modifier = Modifier(mode=sheet.roll_modes[0], targets=["check"])
        else:
            types = sheet.modifier_types
            kind = "untyped" if "untyped" in types or not types else types[0]
            modifier = Modifier(type=kind, value=1, targets=["check"])
        self.ctx.document.insert(self.path, self.own_count(), modifier, "Add modifier")

    def remove(self, row: int) -> None:
        if 0 <= row < self.own_count():
            self.ctx.document.remove(self.path, row, "Remove modifier")


# --- editors -------------------------------------------------------------------------------


class TypeDelegate(QStyledItemDelegate):
    """A list of the system's modifier types and roll modes; where the system names no
    stacking types (``open_types``), any word may be typed."""

    def __init__(self, types: Sequence[str], open_types: bool,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.types = list(types)
        self.open_types = open_types

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget:
        combo = QComboBox(parent)
        combo.setAccessibleName("Modifier type")
        combo.addItems(self.types)
        combo.setEditable(self.open_types)
        return combo

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if not isinstance(editor, QComboBox):
            return
        value = str(index.data(Qt.ItemDataRole.EditRole) or "")
        found = editor.findText(value)
        if found >= 0:
            editor.setCurrentIndex(found)
        elif editor.isEditable():
            editor.setEditText(value)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)


class TargetsDelegate(QStyledItemDelegate):
    """Targets are typed in a `TargetsEdit` offering the system's targets, made afresh
    each time (the sheet's weapons and statistics may have changed)."""

    problemChanged = Signal(str)
    """Why a target being typed would be refused ("" once none is)."""

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget:
        rules = self.ctx.rules
        editor = TargetsEdit(rules, target_choices(rules, self.ctx.document.derived), parent)
        editor.problemChanged.connect(self.problemChanged)
        return editor

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            editor.setText(str(index.data(EDIT) or ""))

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), EDIT)


class BoundedDelegate(QStyledItemDelegate):
    """A spin box limited to the cell's `BOUNDS` (a condition's 1..max_value)."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget:
        spin = QSpinBox(parent)
        spin.setAccessibleName("Condition value")
        lo, hi = index.data(BOUNDS) or (1, 1)
        spin.setRange(int(lo), int(hi))
        return spin

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QSpinBox):
            editor.setValue(int(index.data(Qt.ItemDataRole.EditRole) or editor.minimum()))

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        if isinstance(editor, QSpinBox):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)


class ConditionPicker(QDialog):
    """The system's published conditions: pick one (its summary shown, and as the tooltip),
    and its value where it has one; accepting offers the new effect through `chosen`."""

    chosen = Signal(object)
    """The `Effect` to add."""

    def __init__(self, conditions: Mapping[str, Condition],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add condition")
        self.conditions = list(conditions.values())
        form = QFormLayout(self)
        self.combo = QComboBox()
        self.combo.setAccessibleName("Condition")
        for i, condition in enumerate(self.conditions):
            self.combo.addItem(condition.label, condition.key)
            self.combo.setItemData(i, condition.summary, TOOLTIP)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        look(self.summary, "conditionSummary")
        self.summary.setWordWrap(True)
        self.summary.setMinimumWidth(280)
        self.value = QSpinBox()
        self.value.setAccessibleName("Condition value")
        self.value_label = QLabel("&Value")
        self.value_label.setBuddy(self.value)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        condition_label = QLabel("&Condition")
        condition_label.setBuddy(self.combo)
        form.addRow(condition_label, self.combo)
        form.addRow(self.summary)
        form.addRow(self.value_label, self.value)
        form.addRow(buttons)
        self.combo.currentIndexChanged.connect(self._show)
        self._show(self.combo.currentIndex())

    def condition(self) -> Condition | None:
        index = self.combo.currentIndex()
        return self.conditions[index] if 0 <= index < len(self.conditions) else None

    def choose(self, key: str, value: int | None = None) -> None:
        """Select the condition ``key`` (and its value), as a player would."""
        self.combo.setCurrentIndex(self.combo.findData(key))
        if value is not None:
            self.value.setValue(value)

    def _show(self, _index: int) -> None:
        condition = self.condition()
        self.summary.setText(condition.summary if condition is not None else "")
        self.combo.setToolTip(plain_tip(condition.summary if condition is not None else ""))
        has_value = condition is not None and condition.max_value is not None
        if condition is not None and condition.max_value is not None:
            self.value.setRange(1, condition.max_value)
        self.value.setVisible(has_value)
        self.value_label.setVisible(has_value)

    def effect(self) -> Effect | None:
        condition = self.condition()
        if condition is None:
            return None
        return condition_effect(condition, self.value.value())

    def accept(self) -> None:
        effect = self.effect()
        super().accept()
        if effect is not None:
            self.chosen.emit(effect)


# --- the parts of the tab ------------------------------------------------------------------


class EffectsToolbar(QWidget):
    """New effect, the system's quick-add presets, Add condition…, Remove, End of turn (where a
    condition of the system goes down at the end of each turn), and the system's side choice
    (sacred or profane bonuses) where it has one."""

    newRequested = Signal()
    presetChosen = Signal(object)
    """An `Effect` from the presets."""
    conditionRequested = Signal()
    removeRequested = Signal()
    endTurnRequested = Signal()
    """End of turn: lower the conditions that drop each turn (shown only where the system has
    one, such as frightened)."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        sheet = ctx.sheet
        self.ctx = ctx
        self.add = add = QPushButton("New effect")
        add.setAccessibleName("Add a new effect")
        add.clicked.connect(self.newRequested)
        self.quick_add = QToolButton()
        self.quick_add.setText("Quick add")
        self.quick_add.setAccessibleName("Add a common spell, condition or situation")
        self.quick_add.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.quick_add)
        for effect, tip in presets(ctx.system):
            action = menu.addAction(effect.name)
            action.setToolTip(plain_tip(tip))
            action.setStatusTip(tip)
            action.triggered.connect(lambda _=False, e=effect: self.presetChosen.emit(e))
        menu.setToolTipsVisible(True)
        self.quick_add.setMenu(menu)
        self.add_condition = QPushButton("Add condition…")
        self.add_condition.setAccessibleName("Add a condition")
        self.add_condition.clicked.connect(self.conditionRequested)
        self._adders: tuple[tuple[QAbstractButton, bool, str], ...] = (
            (add, True, "Add a new effect and name it"),
            (self.quick_add, bool(menu.actions()), "Add a common spell, condition or situation"),
            (self.add_condition, bool(ctx.facts.conditions),
             "One of the system's conditions, at the value you choose"),
        )
        self.enable_adding()
        remove = QPushButton("Remove")
        remove.setAccessibleName("Remove selected effect")
        remove.clicked.connect(self.removeRequested)
        self.end_turn = QPushButton("End of turn")
        self.end_turn.setAccessibleName("End of turn")
        lowered = [c.label for c in ctx.facts.conditions.values() if c.ends_turn_decrement]
        tip = f"End of your turn: {', '.join(lowered)} goes down by 1 (and ends at 0)"
        self.end_turn.setToolTip(tip)
        self.end_turn.setAccessibleDescription(tip)
        self.end_turn.setVisible(bool(lowered))
        self.end_turn.clicked.connect(self.endTurnRequested)
        bar.addWidget(add)
        bar.addWidget(self.quick_add)
        bar.addWidget(self.add_condition)
        bar.addWidget(remove)
        bar.addWidget(self.end_turn)
        bar.addStretch(1)
        self.side_choice: BoundComboBox | None = None
        choice = sheet.side_choice
        if choice is not None:
            self.side_choice = BoundComboBox(ctx, choice.path, choice.choices, choice.label,
                                             missing_value=choice.missing, tip=choice.tip)
            bar.addWidget(self.side_choice)

    def enable_adding(self) -> None:
        """The add buttons work while the sheet has room for another effect; at its limit
        they are off and their tooltip says why."""
        full = self.ctx.document.full_message(("effects",))
        for button, usable, tip in self._adders:
            button.setEnabled(usable and full is None)
            button.setToolTip(tip if full is None else full)


class ModifierEditor(QWidget):
    """The modifiers of the selected effect, editable (type, value or dice, targets), with
    the ones its condition gives listed read-only below; + Bonus, + Roll mode, Remove."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        sheet = ctx.sheet
        self.model = ModifiersModel(ctx, self)
        self.view = table_view("Modifiers of the selected effect", "modifiersTable", self.model)
        self.view.setItemDelegateForColumn(0, TypeDelegate(
            (*sheet.modifier_types, *sheet.roll_modes), sheet.open_types, self.view))
        self.targets = TargetsDelegate(ctx, self.view)
        self.view.setItemDelegateForColumn(ModifiersModel.TARGETS, self.targets)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)  # may quote what was typed
        look(self.problem, "penaltyNote")
        self.problem.setWordWrap(True)
        self.problem.setAccessibleName("Problem with the targets")
        self.problem.setVisible(False)
        self.model.problemChanged.connect(self._show_refusal)
        self.targets.problemChanged.connect(self._show_typing_problem)
        self.targets.closeEditor.connect(lambda *_: self._show_typing_problem(""))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.title = QLabel("Modifiers")
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # an effect's name, as written
        look(self.title, "caption")
        add_bonus = QPushButton("+ Bonus")
        add_bonus.setAccessibleName("Add a bonus or penalty to the selected effect")
        add_bonus.clicked.connect(lambda: self.model.add(mode=False))
        bar.addWidget(self.title, 1)
        bar.addWidget(add_bonus)
        self.buttons = [add_bonus]
        self.adders: list[tuple[QPushButton, str]] = [
            (add_bonus, "Add a bonus or penalty (a whole number or dice) to the selected effect")]
        if sheet.roll_modes:
            add_mode = QPushButton("+ Roll mode")
            add_mode.setAccessibleName("Add a roll mode to the selected effect")
            add_mode.clicked.connect(lambda: self.model.add(mode=True))
            bar.addWidget(add_mode)
            self.buttons.append(add_mode)
            self.adders.append((add_mode, "Roll the selected effect's targets with a mode"))
        remove = QPushButton("Remove")
        remove.setAccessibleName("Remove selected modifier")
        remove.setToolTip("Remove the selected modifier")
        remove.clicked.connect(lambda: self.model.remove(self.view.currentIndex().row()))
        bar.addWidget(remove)
        self.buttons.append(remove)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.problem)

    def _refusal(self) -> str:
        row = self.view.currentIndex().row()
        for candidate in (row, *range(self.model.rowCount())):
            why = self.model.problem(candidate)
            if why:
                return f"Targets not changed: {why}"
        return ""

    def _show_line(self, text: str) -> None:
        self.problem.setText(sentence(text))
        self.problem.setVisible(bool(text))

    def _show_refusal(self, row: int, why: str) -> None:
        """A refused edit: said under the table, and at the cell as a tooltip."""
        self._show_line(self._refusal())
        if row < 0 or not why:
            return
        viewport = self.view.viewport()
        rect = self.view.visualRect(self.model.index(row, ModifiersModel.TARGETS))
        if viewport.isVisible():
            QToolTip.showText(viewport.mapToGlobal(rect.bottomLeft()),
                              plain_tip(f"Not changed: {why}"), viewport, rect)

    def _show_typing_problem(self, why: str) -> None:
        """While targets are typed: why one would be refused; after: the last refusal."""
        self._show_line(f"Not a target here: {why}" if why else self._refusal())

    def show_effect(self, row: int, name: str) -> None:
        if row != self.model.effect_row:
            self.model.set_effect(row)
        self.title.setText(f"Modifiers of {name}" if name else "Modifiers")
        for button in self.buttons:
            button.setEnabled(bool(name))
        full = self.model.full_message() if name else None
        for button, tip in self.adders:
            button.setEnabled(bool(name) and full is None)
            button.setToolTip(tip if full is None else full)


class EffectsPanel(QWidget):
    """The Effects tab: the effects on the left, the selected one's modifiers on the right."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.picker: ConditionPicker | None = None
        self.toolbar = EffectsToolbar(ctx)
        self.model = EffectsModel(ctx, self)
        self.view = table_view("Effects", "effectsTable", self.model)
        self.view.setItemDelegateForColumn(EffectsModel.VALUE, BoundedDelegate(self.view))
        self.notes = QLabel()
        self.notes.setTextFormat(Qt.TextFormat.PlainText)  # may name effects
        look(self.notes, "hint")
        self.notes.setWordWrap(True)
        self.editor = ModifierEditor(ctx)
        self._compose()

        # the parts' widgets by their old names, for the sheet and the tests
        self.quick_add, self.add_condition = self.toolbar.quick_add, self.toolbar.add_condition
        self.modifiers, self.mod_view = self.editor.model, self.editor.view
        self.mod_title, self.mod_buttons = self.editor.title, self.editor.buttons

        self.toolbar.newRequested.connect(self._add_blank)
        self.toolbar.presetChosen.connect(self.add_effect)
        self.toolbar.conditionRequested.connect(self.pick_condition)
        self.toolbar.removeRequested.connect(self._remove)
        self.end_turn = self.toolbar.end_turn
        self.toolbar.endTurnRequested.connect(lambda: self.end_of_turn())
        self.view.selectionModel().currentRowChanged.connect(
            lambda current, _prev: self._show_modifiers(current.row())
        )
        ctx.binder.bind_derived(("notes",), lambda n: self.notes.setText(" ".join(n or ())))
        if self.model.rowCount():
            self.view.selectRow(0)
        self._show_modifiers(self.view.currentIndex().row())
        ctx.binder.bind_change(("effects",), self._resync)
        ctx.binder.bind_change(("effects",), lambda _change: self._enable_end_turn())
        ctx.binder.bind_change(("effects",), lambda _change: self.toolbar.enable_adding())
        self._enable_end_turn()

    def _compose(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.toolbar)
        column.addWidget(self.view, 1)
        column.addWidget(self.notes)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.editor)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split)

    def _resync(self, change: Change) -> None:
        """After the models: follow the view's current row and the effect's new name."""
        row = self.view.currentIndex().row()
        if row != self.modifiers.effect_row or len(change.path) <= 3:
            self._show_modifiers(row)

    def _enable_end_turn(self) -> None:
        self.end_turn.setEnabled(bool(end_of_turn(self.ctx.document.character)))

    def end_of_turn(self) -> bool:
        """Lower each condition that drops at the end of a turn (frightened 2 → 1, 1 → gone):
        one undo step. False if nothing changes."""
        character = self.ctx.document.character
        steps = end_of_turn(character)
        if not steps:
            return False
        text = end_of_turn_text(character)
        if not self.ctx.document.push(Batch(tuple(steps)), text):
            return False
        announce(self, text)
        return True

    def add_effect(self, effect: Effect) -> None:
        row = self.model.add(effect.model_copy(deep=True), f"Add {effect.name}")
        if row >= 0:
            self.select(row)

    def select(self, row: int) -> None:
        """Make effect ``row`` the selected one, whose modifiers + Bonus and + Roll mode
        add to (a new effect is selected at once, before and after it is named)."""
        index = self.model.index(row, EffectsModel.NAME)
        if not index.isValid():
            return
        flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                 | QItemSelectionModel.SelectionFlag.Rows)
        self.view.selectionModel().setCurrentIndex(index, flags)
        self.view.scrollTo(index)
        self._show_modifiers(row)

    def pick_condition(self) -> ConditionPicker:
        """Open the condition picker (not blocking); the chosen condition is added."""
        if self.picker is None:
            self.picker = ConditionPicker(self.ctx.facts.conditions, self)
            self.picker.chosen.connect(self.add_effect)
        self.picker.open()
        return self.picker

    def _add_blank(self) -> None:
        row = self.model.add(Effect(name="New effect"), "Add effect")
        if row >= 0:
            self.select(row)
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)
            self.view.edit(self.model.index(row, EffectsModel.NAME))

    def _remove(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.ctx.document.remove(("effects",), index.row(), "Remove effect")

    def _show_modifiers(self, row: int) -> None:
        effects = self.ctx.document.character.effects
        name = effects[row].name if 0 <= row < len(effects) else ""
        self.editor.show_effect(row, name)
