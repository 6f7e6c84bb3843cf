"""Effects (spells, conditions, items): a table of effects and the modifiers of the chosen one.

Everything system-specific comes from the system's sheet description and facts: the modifier
types and roll modes offered, whether any word is a type, the quick-add presets, the published
conditions (whose modifiers the rules compute from their value), and the sacred/profane-style
side choice where the system has one.

The tab is made of `EffectsToolbar`, the effects table (`EffectsModel`), `ModifierEditor`
(`ModifiersModel`) and, on request, `ConditionPicker`; `EffectsPanel` wires them together.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sheet_app import registry
from sheet_app.edit import Batch
from sheet_app.facts import MINUS
from sheet_app.hitpoints import end_of_turn, end_of_turn_text
from sheet_app.model import DICE_RE, Effect, Modifier
from sheet_app.registry import Condition, RuleSystem
from ui.context import SheetContext
from ui.document import Change, Path_
from ui.format import brief, parse_whole, plain_tip, signed, words
from ui.sections.hitpoints import announce
from ui.sections.tables import (
    BOUNDS,
    FONT,
    FOREGROUND,
    NUMBER_ALIGNMENT,
    TOOLTIP,
    Column,
    Index,
    ListTableModel,
    table_view,
)
from ui.theme import COMPUTED_COLOR, INACTIVE_COLOR, look, qcolor
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
    return model.ctx.document.set((*model.path, row, "targets"), parse_targets(str(value)),
                                  "Set modifier targets")


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

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        self.effect_row = -1
        super().__init__(ctx, ("effects", -1, "modifiers"), parent)

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
        self.beginResetModel()
        self.effect_row = row
        self.path = ("effects", row, "modifiers")
        self._shown = list(self.items())
        self.endResetModel()

    def _on_change(self, change: Change) -> None:
        path = change.path
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
            self.view.selectRow(row)

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
            self.view.selectRow(row)
            self.view.edit(self.model.index(row, EffectsModel.NAME))

    def _remove(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.ctx.document.remove(("effects",), index.row(), "Remove effect")

    def _show_modifiers(self, row: int) -> None:
        effects = self.ctx.document.character.effects
        name = effects[row].name if 0 <= row < len(effects) else ""
        self.editor.show_effect(row, name)
