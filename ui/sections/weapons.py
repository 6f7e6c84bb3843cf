"""The Weapons tab: one row per weapon with its attack, later attacks and damage, each one
click from a roll, and an editor for the weapon's fields.

Everything shown comes from the snapshot: ``attack:<weapon>`` (its total, ``follow_ups`` and
``threat``) and ``damage:<weapon>``. The rows follow the list by position and are refreshed
from the whole snapshot, so they keep no binding behind when a weapon is renamed or removed.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Sequence
from functools import partial
from typing import Any, get_args

from pydantic import BaseModel
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent, QRegularExpressionValidator
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sheet_app.derived import Damage, Derived, Statistic
from sheet_app.edit import MISSING, Change
from sheet_app.edit import Path as ModelPath
from sheet_app.model import Weapon
from sheet_app.rules.weapons import weapon_ids
from sheet_app.sheetspec import Control, Number
from ui.binding import Binder, qt_signals_blocked
from ui.context import SheetContext
from ui.controls import control_for
from ui.format import (
    critical_text,
    damage_html,
    damage_text,
    follow_up_text,
    plain_tip,
    signed,
    statistic_html,
)
from ui.theme import SELECTED_ROW, look, set_background
from ui.widgets import (
    BoundComboBox,
    BoundLineEdit,
    BoundSpinBox,
    ClickableLabel,
    ExplainedButton,
    StatButton,
    pointing,
    slot,
    weapon_requests,
)

WEAPONS: ModelPath = ("weapons",)
ATTACK_WIDTH = 50
NAME_WIDTH = 150
ATTACK_KINDS = (("melee", "Melee"), ("ranged", "Ranged"))
DICE_TYPING = re.compile(r"[0-9dD+\- ]*")
"""What the damage field lets one type; the model says whether the whole is a damage."""


class DamageButton(ExplainedButton):
    """A weapon's damage (``2d8+4 (6–20) slashing``): click rolls it, right-click offers
    critical damage, hover shows its breakdown."""

    def __init__(self, row: WeaponRow, parent: QWidget | None = None) -> None:
        super().__init__("Damage", parent)
        self.row = row
        self.clicked.connect(lambda: row.roll_damage(False))

    def contextMenuEvent(self, e: QContextMenuEvent) -> None:
        menu = QMenu(self)
        menu.addAction("Roll damage").triggered.connect(lambda: self.row.roll_damage(False))
        menu.addAction("Roll critical damage").triggered.connect(
            lambda: self.row.roll_damage(True))
        menu.exec(e.globalPos())


class WeaponRow:
    """The widgets of one weapon's line in the grid: name and kind, attack, later attacks,
    damage, critical range, Edit and Remove. Follows the weapon at ``index``."""

    def __init__(self, panel: WeaponsPanel, index: int) -> None:
        self.panel = panel
        self.ctx = ctx = panel.ctx
        self.index = index
        self.key = ""
        self._shown: tuple[str, Weapon, Statistic | None, Damage | None] | None = None
        self.name = ClickableLabel("", ctx, "")
        self.name.setObjectName("rowName")
        self.kind = QLabel()
        self.kind.setTextFormat(Qt.TextFormat.PlainText)
        look(self.kind, "abilityTag")
        self.attack = StatButton(ctx, "", "Attack", bound=False,
                                 on_click=lambda: self.roll_attack())
        self.attack.setFixedWidth(ATTACK_WIDTH)
        self.follow_box = QWidget()
        self.follow_layout = QHBoxLayout(self.follow_box)
        self.follow_layout.setContentsMargins(0, 0, 0, 0)
        self.follow_layout.setSpacing(0)
        self.follow_ups: list[QToolButton] = []
        self.damage = DamageButton(self)
        self.critical = QLabel()
        self.critical.setTextFormat(Qt.TextFormat.PlainText)
        look(self.critical, "caption")
        self.edit = QToolButton()
        self.edit.setText("Edit…")
        self.edit.setAutoRaise(True)
        self.edit.clicked.connect(lambda: panel.edit_weapon(self.index))
        self.remove = QToolButton()
        self.remove.setText("✕")
        self.remove.setAutoRaise(True)
        self.remove.clicked.connect(lambda: panel.remove_weapon(self.index))
        self.widgets: tuple[QWidget, ...] = (
            self.name, self.kind, self.attack, self.follow_box, self.damage, self.critical,
            self.edit, self.remove)

    @property
    def stat_id(self) -> str:
        return f"attack:{self.key}"

    def place(self, grid: QGridLayout, row: int) -> None:
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        for column, widget in enumerate(self.widgets):
            align = left if column in (3, 4) else Qt.AlignmentFlag.AlignVCenter
            grid.addWidget(widget, row, column, align)

    def dispose(self) -> None:
        for widget in self.widgets:
            widget.hide()
            widget.setParent(None)
            widget.deleteLater()

    # --- showing -------------------------------------------------------------------------
    def show(self, key: str, weapon: Weapon, derived: Derived) -> None:
        stat = derived.statistics.get(f"attack:{key}")
        damage = derived.damage.get(f"damage:{key}")
        shown = (key, weapon, stat, damage)
        if shown == self._shown:  # most edits touch no weapon
            return
        self._shown = shown
        self.key = key
        name = weapon.name
        if self.name.text() != name:
            self.name.setText(name)
            self.attack.setAccessibleName(f"{name} attack")
            self.damage.setAccessibleName(f"{name} damage")
            self.edit.setAccessibleName(f"Edit {name}")
            self.edit.setToolTip(plain_tip(f"Edit {name}"))
            self.remove.setAccessibleName(f"Remove {name}")
            self.remove.setToolTip(plain_tip(f"Remove {name}"))
        self.name.stat_id = self.attack.stat_id = self.stat_id
        ability = f" · {stat.ability.capitalize()}" if stat is not None and stat.ability else ""
        self.kind.setText(f"{weapon.attack.capitalize()}{ability}")
        self.attack.show_statistic(stat)
        self._show_follow_ups(stat, name)
        if damage is None:
            self.damage.show_value("—")
        else:
            self.damage.show_value(damage_text(damage), partial(damage_html, damage))
        self.critical.setText(critical_text(stat, damage))
        self.critical.setToolTip("Critical threat range / damage multiplier"
                                 if self.critical.text() else "")

    def _show_follow_ups(self, stat: Statistic | None, name: str) -> None:
        follow_ups: Sequence[tuple[str, int]] = stat.follow_ups if stat is not None else ()
        while len(self.follow_ups) > len(follow_ups):
            button = self.follow_ups.pop()
            button.setParent(None)
            button.deleteLater()
        while len(self.follow_ups) < len(follow_ups):
            button = QToolButton()
            button.setAutoRaise(True)
            button.setCursor(pointing())
            look(button, "caption")
            number = len(self.follow_ups) + 1
            button.clicked.connect(lambda _=False, n=number: self.roll_attack(n))
            self.follow_layout.addWidget(button)
            self.follow_ups.append(button)
        assert stat is not None or not follow_ups
        for button, (label, penalty) in zip(self.follow_ups, follow_ups, strict=True):
            assert stat is not None
            text = follow_up_text(stat, penalty)
            button.setText(text)
            button.setAccessibleName(f"{name} {label}")
            button.setToolTip(plain_tip(f"Roll the {label}: {signed(penalty)} → {text}"))

    def mark_selected(self, selected: bool) -> None:
        set_background(self.name, SELECTED_ROW if selected else None)

    # --- rolling -------------------------------------------------------------------------
    def roll_attack(self, follow_up: int = 0) -> None:
        self.ctx.selection.select(self.stat_id)
        weapon_requests(self.ctx.selection).attackRequested.emit(self.stat_id, follow_up)

    def roll_damage(self, critical: bool) -> None:
        self.ctx.selection.select(self.stat_id)
        weapon_requests(self.ctx.selection).damageRequested.emit(f"damage:{self.key}",
                                                                 critical)


class WeaponsPanel(QWidget):
    """Every weapon of the character in a grid, Add weapon above it."""

    HEADERS = ("Weapon", "", "Attack", "Later attacks", "Damage", "Critical", "", "")

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("weaponsPanel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 4)
        outer.setSpacing(4)
        bar = QHBoxLayout()
        self.add = QPushButton("Add weapon")
        self.add.setAccessibleName("Add weapon")
        self.add.clicked.connect(lambda: self.add_weapon())
        hint = QLabel("Click an attack or a damage to roll it; the small numbers are later "
                      "attacks of the turn.")
        look(hint, "caption")
        hint.setWordWrap(True)
        bar.addWidget(self.add)
        bar.addWidget(hint, 1)
        outer.addLayout(bar)
        self.body = QWidget()
        self.grid = QGridLayout(self.body)
        self.grid.setContentsMargins(4, 0, 4, 0)
        self.grid.setHorizontalSpacing(8)
        self.grid.setVerticalSpacing(0)
        self.headers: dict[int, QLabel] = {}
        for column, text in enumerate(self.HEADERS):
            if text:
                self.headers[column] = _caption(text)
                self.grid.addWidget(self.headers[column], 0, column)
        self.grid.setColumnMinimumWidth(0, NAME_WIDTH)
        self.grid.setColumnStretch(len(self.HEADERS), 1)  # the rows keep together on the left
        self.empty = QLabel("No weapons yet: Add weapon makes one.")
        look(self.empty, "hint")
        self.grid.addWidget(self.empty, 1, 0, 1, len(self.HEADERS))
        self.grid.setRowStretch(200, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.body)
        outer.addWidget(scroll, 1)
        self.rows: list[WeaponRow] = []
        self._selected: WeaponRow | None = None
        self.editor: WeaponEditor | None = None
        ctx.binder.bind_snapshot(self.refresh)
        ctx.selection.selected.connect(slot(self._on_selected))
        self._on_selected(ctx.selection.current)

    # --- following the snapshot ----------------------------------------------------------
    def refresh(self, derived: Derived) -> None:
        weapons = weapon_ids(self.ctx.document.character.weapons)
        while len(self.rows) > len(weapons):
            row = self.rows.pop()
            if row is self._selected:
                self._selected = None
            row.dispose()
        while len(self.rows) < len(weapons):
            row = WeaponRow(self, len(self.rows))
            row.place(self.grid, len(self.rows) + 2)
            self.rows.append(row)
        for row, (key, weapon) in zip(self.rows, weapons, strict=True):
            row.show(key, weapon, derived)
        self.empty.setVisible(not weapons)
        # a column's caption only where some weapon has something under it
        self.headers[3].setVisible(any(row.follow_ups for row in self.rows))
        self.headers[5].setVisible(any(row.critical.text() for row in self.rows))
        self._on_selected(self.ctx.selection.current)

    def _on_selected(self, stat_id: str) -> None:
        found = next((row for row in self.rows if row.stat_id == stat_id), None)
        if found is not self._selected:
            if self._selected is not None:
                self._selected.mark_selected(False)
            if found is not None:
                found.mark_selected(True)
            self._selected = found

    def row(self, name: str) -> WeaponRow:
        """The row of the weapon named ``name`` (for tests and the window)."""
        return next(row for row in self.rows if row.name.text() == name)

    # --- editing -------------------------------------------------------------------------
    def add_weapon(self) -> int:
        """Add a weapon at the end and open its editor; its index."""
        document = self.ctx.document
        index = len(document.character.weapons)
        taken = {weapon.name for weapon in document.character.weapons}
        name = next(n for n in (f"Weapon {i}" if i > 1 else "Weapon" for i in range(1, 999))
                    if n not in taken)
        if document.insert(WEAPONS, index, Weapon(name=name), "Add weapon"):
            self.edit_weapon(index)
        return index

    def remove_weapon(self, index: int) -> None:
        weapons = self.ctx.document.character.weapons
        if 0 <= index < len(weapons):
            self.ctx.document.remove(WEAPONS, index, f"Remove {weapons[index].name}")

    def edit_weapon(self, index: int) -> WeaponEditor:
        """Open the editor of the weapon at ``index`` (one at a time, not blocking)."""
        if self.editor is not None:
            self.editor.close()
        editor = self.editor = WeaponEditor(self.ctx, index, self)
        editor.destroyed.connect(lambda: self._forget(editor))
        editor.open()
        return editor

    def _forget(self, editor: WeaponEditor) -> None:
        if self.editor is editor:
            self.editor = None


def _caption(text: str) -> QLabel:
    label = QLabel(text)
    look(label, "caption")
    return label


# --- the editor ----------------------------------------------------------------------------


def model_default(model: type[BaseModel], path: ModelPath) -> Any:
    """The model's default for the field at ``path`` (list indexes skipped): what a field
    inside an absent object (a weapon's ``critical``) reads as until it is set."""
    annotation: Any = model
    default: Any = None
    for key in path:
        if isinstance(key, int):
            annotation = next(iter(get_args(annotation)), annotation)
            continue
        owner = next((a for a in (annotation, *get_args(annotation))
                      if isinstance(a, type) and issubclass(a, BaseModel)), None)
        if owner is None or key not in owner.model_fields:
            return None
        field = owner.model_fields[key]
        default, annotation = field.default, field.annotation
    return default


class NestedSpinBox(BoundSpinBox):
    """A number inside an object the weapon may not have yet (``critical.range`` while
    ``critical`` is null): the first edit sets the whole object, the model filling in the
    rest; until then it shows the model's default."""

    def _edited(self, value: int) -> None:
        owner = self.path[:-1]
        if self.ctx.document.value(owner) is None:
            self.ctx.document.set(owner, {self.path[-1]: value}, f"Set {self.accessibleName()}")
            return
        super()._edited(value)


class DiceEdit(QLineEdit):
    """The weapon's damage dice (``1d8``), applied when editing finishes: a half-typed
    expression is not one. A refused one is put back and the reason shown."""

    def __init__(self, ctx: SheetContext, path: ModelPath, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.path = path
        self.setValidator(QRegularExpressionValidator(DICE_TYPING.pattern, self))
        self.setPlaceholderText("1d8")
        self.setAccessibleName("Damage dice")
        self.setToolTip("The weapon's own dice, without the ability (1d8, 2d6, 1d4+1)")
        self.editingFinished.connect(slot(self._commit))
        ctx.binder.bind_input(path, self.refresh)

    def _commit(self) -> None:
        text = self.text().replace(" ", "").lower()
        if text and text != self.ctx.document.value(self.path):
            self.ctx.document.set(self.path, text, "Set damage dice")
        self.refresh(self.ctx.document.value(self.path))

    def refresh(self, value: Any) -> None:
        text = "" if value in (None, MISSING) else str(value)
        if text != self.text():
            with qt_signals_blocked(self):
                self.setText(text)


class WeaponEditor(QDialog):
    """One weapon's fields: name, melee or ranged, damage dice and type, then the system's
    own (`SheetSpec.weapon_fields`). Every change is made at once, one undo step each; the
    attack and damage they give show below as they change."""

    def __init__(self, ctx: SheetContext, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.index = index
        self.prefix: ModelPath = (*WEAPONS, index)
        # a binder of its own: its bindings go with the dialog
        self.ctx = SheetContext(ctx.document, Binder(ctx.document, self), ctx.selection)
        self.controls: dict[ModelPath, QWidget] = {}
        layout = QVBoxLayout(self)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name = BoundLineEdit(self.ctx, self._path("name"), "Weapon name")
        self.attack_kind = BoundComboBox(self.ctx, self._path("attack"), ATTACK_KINDS,
                                         "Melee or ranged")
        self.dice = DiceEdit(self.ctx, self._path("damage"))
        self.damage_type = BoundLineEdit(self.ctx, self._path("damage_type"), "Damage type",
                                         placeholder="slashing, piercing, fire…")
        fields: tuple[tuple[str, QWidget, ModelPath], ...] = (
            ("Name", self.name, self.name.path),
            ("Attack", self.attack_kind, self.attack_kind.path),
            ("Damage dice", self.dice, self.dice.path),
            ("Damage type", self.damage_type, self.damage_type.path),
        )
        for label, widget, path in fields:
            form.addRow(label, widget)
            self.controls[path] = widget
        model = self.ctx.rules.model
        for spec in self.ctx.sheet.weapon_fields:
            spec = dataclasses.replace(spec, path=(*self.prefix, *spec.path))
            control = self._control(spec, model)
            self.controls[spec.path] = control
            form.addRow(spec.label, control)
        layout.addLayout(form)
        self.preview = QLabel()
        self.preview.setTextFormat(Qt.TextFormat.RichText)  # its parts are escaped
        self.preview.setWordWrap(True)
        self.preview.setAccessibleName("Attack and damage")
        layout.addWidget(self.preview)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)  # a message naming a field
        look(self.problem, "penaltyNote")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.remove = buttons.addButton("Remove weapon",
                                        QDialogButtonBox.ButtonRole.DestructiveRole)
        self.remove.clicked.connect(self._remove)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.ctx.binder.bind_snapshot(self._show)
        self.ctx.binder.bind_change(WEAPONS, self._on_change)
        ctx.document.rejected.connect(self._rejected)
        self.setMinimumWidth(380)

    def _path(self, *parts: str) -> ModelPath:
        return (*self.prefix, *parts)

    def _control(self, spec: Control, model: type[BaseModel]) -> QWidget:
        if isinstance(spec, Number) and len(spec.path) > len(self.prefix) + 1:
            return NestedSpinBox(self.ctx, spec.path, spec.lo, spec.hi, spec.label,
                                 none_text=spec.none_text,
                                 missing_value=model_default(model, spec.path),
                                 suffix=spec.suffix, step=spec.step, tip=spec.tip)
        return control_for(self.ctx, spec)

    def _weapon(self) -> Weapon | None:
        weapons = self.ctx.document.character.weapons
        return weapons[self.index] if 0 <= self.index < len(weapons) else None

    def _show(self, derived: Derived) -> None:
        weapon = self._weapon()
        if weapon is None:
            return
        key = weapon_ids(self.ctx.document.character.weapons)[self.index][0]
        stat = derived.statistics.get(f"attack:{key}")
        damage: Damage | None = derived.damage.get(f"damage:{key}")
        self.setWindowTitle(f"Edit weapon — {weapon.name}")
        parts = []
        if stat is not None:
            later = "/".join(follow_up_text(stat, p) for _, p in stat.follow_ups)
            parts.append(f"Attack <b>{signed(stat.modifier)}</b>"
                         + (f"/{html.escape(later)}" if later else ""))
        if damage is not None:  # its damage type is typed in: as written
            parts.append(f"Damage <b>{html.escape(damage_text(damage))}</b>")
        self.preview.setText(" · ".join(parts))
        self.preview.setToolTip(statistic_html(stat) if stat is not None else "")

    def _on_change(self, change: Change) -> None:
        if self._weapon() is None:  # removed (or an undo took it away)
            self.close()

    def _rejected(self, message: str) -> None:
        self.problem.setText(message)
        self.problem.show()

    def _remove(self) -> None:
        weapon = self._weapon()
        self.close()
        if weapon is not None:
            self.ctx.document.remove(WEAPONS, self.index, f"Remove {weapon.name}")
