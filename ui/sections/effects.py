"""Effects (spells, conditions, items): a table of effects and the modifiers of the chosen one."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sheet_app.model import Effect, Modifier
from sheet_app.systems import MODIFIER_TYPES, ROLL_MODES
from ui.context import SheetContext
from ui.document import Change, Path_
from ui.format import signed, words
from ui.sections.tables import ListTableModel
from ui.tables import Index
from ui.theme import look


@cache
def _presets() -> dict[str, list[dict[str, Any]]]:
    text = (resources.files("resources") / "conditions.json").read_text(encoding="utf-8")
    data: dict[str, list[dict[str, Any]]] = json.loads(text)
    return data


def conditions(system: str) -> list[tuple[Effect, str]]:
    """The quick-add effects of ``system``: (effect, one-line description)."""
    out = []
    for entry in _presets().get(system, []):
        effect = Effect.model_validate({k: v for k, v in entry.items() if k != "tip"})
        out.append((effect, str(entry.get("tip", ""))))
    return out


def modifier_text(mod: Modifier) -> str:
    targets = ", ".join(mod.targets) or "nothing"
    if mod.mode is not None:
        return f"{mod.mode} → {targets}"
    kind = "" if mod.type in (None, "untyped") else f" {words(mod.type or '')}"
    return f"{signed(mod.value or 0)}{kind} → {targets}"


def parse_targets(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


class EffectsModel(ListTableModel):
    """One row per effect: on/off, name, and its modifiers in one line."""

    headers = ("On", "Effect", "Modifiers")

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        super().__init__(ctx, ("effects",), parent)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 0:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        if index.column() == 1:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        effect: Effect | None = self.row_item(index)
        if effect is None:
            return None
        col = index.column()
        if col == 0 and role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if effect.active else Qt.CheckState.Unchecked
        if col == 0 and role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{effect.name} {'active' if effect.active else 'inactive'}"
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 1:
                return effect.name
            if col == 2:
                return "; ".join(modifier_text(m) for m in effect.modifiers) or "—"
        if role == Qt.ItemDataRole.ForegroundRole and not effect.active and col > 0:
            return QColor("#8a8f98")
        if role == Qt.ItemDataRole.ToolTipRole and col == 2:
            return "<br>".join(modifier_text(m) for m in effect.modifiers) or None
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        effect: Effect | None = self.row_item(index)
        if effect is None:
            return False
        row = index.row()
        if index.column() == 0 and role == Qt.ItemDataRole.CheckStateRole:
            active = Qt.CheckState(value) == Qt.CheckState.Checked
            name = effect.name
            return self.ctx.document.set(("effects", row, "active"), active,
                                         f"{'Activate' if active else 'Deactivate'} {name}")
        if index.column() == 1 and role == Qt.ItemDataRole.EditRole:
            return self.ctx.document.set(("effects", row, "name"), str(value), "Rename effect")
        return False

    def add(self, effect: Effect, text: str) -> int:
        row = len(self._shown)
        self.ctx.document.insert(("effects",), row, effect, text)
        return row


class ModifiersModel(ListTableModel):
    """The modifiers of one effect: type (or roll mode), value and targets."""

    headers = ("Type", "Value", "Targets")

    def __init__(self, ctx: SheetContext, parent: QObject | None = None) -> None:
        self.effect_row = -1
        super().__init__(ctx, ("effects", -1, "modifiers"), parent)

    def watch_path(self) -> Path_:
        return ("effects",)

    def items(self) -> list[Any]:
        effects = self.ctx.document.character.effects
        if not self._detached and 0 <= self.effect_row < len(effects):
            return effects[self.effect_row].modifiers
        return []

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
            super()._on_change(change)  # inside this effect's modifiers
        elif len(path) <= 1 or (len(path) == 2 and path[1] == self.effect_row):
            # the effects list itself, or this whole effect, was replaced
            self.set_effect(min(self.effect_row, len(self.ctx.document.character.effects) - 1))

    def flags(self, index: Index) -> Qt.ItemFlag:
        mod: Modifier | None = self.row_item(index)
        if mod is None:
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 1 and mod.mode is not None:
            return base
        return base | Qt.ItemFlag.ItemIsEditable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        mod: Modifier | None = self.row_item(index)
        if mod is None:
            return None
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 0:
                if mod.mode is not None:
                    return mod.mode if role == Qt.ItemDataRole.EditRole else f"{mod.mode} (roll)"
                return mod.type if role == Qt.ItemDataRole.EditRole else words(mod.type or "")
            if col == 1:
                if mod.mode is not None:
                    return "—"
                return mod.value if role == Qt.ItemDataRole.EditRole else signed(mod.value or 0)
            if col == 2:
                return ", ".join(mod.targets)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and col == 2:
            return TARGETS_HELP
        if role == Qt.ItemDataRole.FontRole and col == 0 and mod.mode is not None:
            font = QFont()
            font.setItalic(True)
            return font
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        mod: Modifier | None = self.row_item(index)
        if role != Qt.ItemDataRole.EditRole or mod is None:
            return False
        row, col = index.row(), index.column()
        path = (*self.path, row)
        doc = self.ctx.document
        if col == 0:
            kind = str(value).strip()
            if kind in ROLL_MODES[self.ctx.system]:
                new = Modifier(mode=kind, targets=mod.targets)
            elif mod.mode is not None:
                new = Modifier(type=kind, value=1, targets=mod.targets)
            else:
                return doc.set((*path, "type"), kind, "Set modifier type")
            return doc.set(path, new, "Set modifier type")
        if col == 1:
            try:
                number = int(value)
            except (TypeError, ValueError):
                doc.rejected.emit(f"not a whole number: {value!r}")
                return False
            return doc.set((*path, "value"), number, "Set modifier value")
        if col == 2:
            return doc.set((*path, "targets"), parse_targets(str(value)), "Set modifier targets")
        return False

    def add(self, mode: bool) -> None:
        if self.effect_row < 0:
            return
        system = self.ctx.system
        modifier = (
            Modifier(mode=ROLL_MODES[system][0], targets=["check"])
            if mode else Modifier(type=MODIFIER_TYPES[system][0] if system == "pf2e"
                                  else "untyped", value=1, targets=["check"])
        )
        self.ctx.document.insert(self.path, len(self._shown), modifier, "Add modifier")

    def remove(self, row: int) -> None:
        if 0 <= row < len(self._shown):
            self.ctx.document.remove(self.path, row, "Remove modifier")


TARGETS_HELP = (
    "Targets, separated by commas: a statistic (skill:stealth, save:dex, ac, initiative),\n"
    "a group (skill, save, ability, attack, perception), check (every d20 check),\n"
    "uses:str (every check using Strength) or score:str (the score itself)."
)


class TypeDelegate(QStyledItemDelegate):
    """A list of the system's modifier types and roll modes (runarcana also takes any word)."""

    def __init__(self, system: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.system = system

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget:
        combo = QComboBox(parent)
        combo.setAccessibleName("Modifier type")
        combo.addItems(list(MODIFIER_TYPES[self.system]) + list(ROLL_MODES[self.system]))
        combo.setEditable(self.system == "runarcana")
        return combo

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        value = str(index.data(Qt.ItemDataRole.EditRole) or "")
        found = editor.findText(value)
        if found >= 0:
            editor.setCurrentIndex(found)
        else:
            editor.setEditText(value)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)


def _table(name: str) -> QTableView:
    view = QTableView()
    view.setAccessibleName(name)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                         | QAbstractItemView.EditTrigger.EditKeyPressed
                         | QAbstractItemView.EditTrigger.SelectedClicked)
    return view


class EffectsPanel(QWidget):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)

        self.model = EffectsModel(ctx, self)
        self.view = _table("Effects")
        self.view.setObjectName("effectsTable")
        self.view.setModel(self.model)
        header = self.view.horizontalHeader()
        # fixed widths: sizing to contents would read every row on each change
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.view.setColumnWidth(0, 34)
        self.view.setColumnWidth(1, 150)

        self.modifiers = ModifiersModel(ctx, self)
        self.mod_view = _table("Modifiers of the selected effect")
        self.mod_view.setObjectName("modifiersTable")
        self.mod_view.setModel(self.modifiers)
        self.mod_view.setItemDelegateForColumn(0, TypeDelegate(ctx.system, self.mod_view))
        mh = self.mod_view.horizontalHeader()
        mh.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        mh.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        mh.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.mod_view.setColumnWidth(0, 120)
        self.mod_view.setColumnWidth(1, 52)
        self.view.selectionModel().currentRowChanged.connect(
            lambda current, _prev: self._show_modifiers(current.row())
        )

        # left: effects
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        add = QPushButton("New effect")
        add.setAccessibleName("Add a new effect")
        add.clicked.connect(self._add_blank)
        self.conditions = QToolButton()
        self.conditions.setText("Add condition")
        self.conditions.setAccessibleName("Add a common condition or spell")
        self.conditions.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.conditions)
        for effect, tip in conditions(ctx.system):
            action = menu.addAction(effect.name)
            action.setToolTip(tip)
            action.setStatusTip(tip)
            action.triggered.connect(lambda _=False, e=effect: self.add_effect(e))
        menu.setToolTipsVisible(True)
        self.conditions.setMenu(menu)
        remove = QPushButton("Remove")
        remove.setAccessibleName("Remove selected effect")
        remove.clicked.connect(self._remove)
        bar.addWidget(add)
        bar.addWidget(self.conditions)
        bar.addWidget(remove)
        bar.addStretch(1)
        if ctx.system == "d20srd":
            from ui.widgets import BoundComboBox

            bar.addWidget(BoundComboBox(
                ctx, ("options", "sacred_profane"),
                [(None, "Sacred/profane: larger wins"), ("sacred", "Keep sacred bonuses"),
                 ("profane", "Keep profane bonuses")],
                "Sacred or profane bonuses",
                tip="A character benefits from sacred or profane bonuses, not both"))
        lv.addLayout(bar)
        lv.addWidget(self.view, 1)
        self.notes = QLabel()
        look(self.notes, "hint")
        self.notes.setWordWrap(True)
        lv.addWidget(self.notes)
        ctx.binder.bind_derived(("notes",), lambda n: self.notes.setText(" ".join(n or ())))

        # right: modifiers of the chosen effect
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rbar = QHBoxLayout()
        self.mod_title = QLabel("Modifiers")
        look(self.mod_title, "caption")
        add_bonus = QPushButton("+ Bonus")
        add_bonus.setAccessibleName("Add a bonus or penalty to the selected effect")
        add_bonus.clicked.connect(lambda: self.modifiers.add(mode=False))
        rbar.addWidget(self.mod_title, 1)
        rbar.addWidget(add_bonus)
        if ROLL_MODES[ctx.system]:
            add_mode = QPushButton("+ Roll mode")
            add_mode.setAccessibleName("Add a roll mode to the selected effect")
            add_mode.clicked.connect(lambda: self.modifiers.add(mode=True))
            rbar.addWidget(add_mode)
        remove_mod = QPushButton("Remove")
        remove_mod.setAccessibleName("Remove selected modifier")
        remove_mod.setToolTip("Remove the selected modifier")
        remove_mod.clicked.connect(
            lambda: self.modifiers.remove(self.mod_view.currentIndex().row())
        )
        rbar.addWidget(remove_mod)
        rv.addLayout(rbar)
        rv.addWidget(self.mod_view, 1)
        self.mod_buttons = [add_bonus, remove_mod]

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split)
        if self.model.rowCount():
            self.view.selectRow(0)
        self._show_modifiers(self.view.currentIndex().row())
        ctx.binder.bind_change(("effects",), self._resync)

    def _resync(self, change: Change) -> None:
        """After the models: follow the view's current row and the effect's new name."""
        row = self.view.currentIndex().row()
        if row != self.modifiers.effect_row or len(change.path) <= 3:
            self._show_modifiers(row)

    def add_effect(self, effect: Effect) -> None:
        row = self.model.add(effect.model_copy(deep=True), f"Add {effect.name}")
        self.view.selectRow(row)

    def _add_blank(self) -> None:
        row = self.model.add(Effect(name="New effect"), "Add effect")
        self.view.selectRow(row)
        self.view.edit(self.model.index(row, 1))

    def _remove(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.ctx.document.remove(("effects",), index.row(), "Remove effect")

    def _show_modifiers(self, row: int) -> None:
        if row != self.modifiers.effect_row:
            self.modifiers.set_effect(row)
        effects = self.ctx.document.character.effects
        name = effects[row].name if 0 <= row < len(effects) else ""
        self.mod_title.setText(f"Modifiers of {name}" if name else "Modifiers")
        for button in self.mod_buttons:
            button.setEnabled(bool(name))

