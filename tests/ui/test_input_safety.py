"""Input in the window that the sheet can't take: lists at their limit, numbers it can't
read, weights finer than two decimals, and names from a file that look like HTML.

Each is refused (or kept) with a clear message in the status bar, leaves no undo step
behind, and leaves the model and the field showing the same value. Limits are read from the
model's fields at run time, so a lowered limit is tested as it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from annotated_types import MaxLen
from pydantic import BaseModel
from PySide6 import QtGui
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.io import load_character
from sheet_app.model import CharacterBase, Effect, Modifier, Weapon
from tests.ui.helpers import (
    OFFSCREEN_NOISE,
    MakeWindow,
    blank,
    find,
    hover_tooltip,
    lines,
    sheet_of,
)
from ui.controls import NumberListEdit
from ui.document import CharacterDocument
from ui.main_window import MainWindow
from ui.sections.effects import EffectsModel, EffectsPanel, ModifiersModel
from ui.sections.inventory import InventoryPanel


def limit_of(model: type[BaseModel], field: str) -> int:
    """The model's own ``max_length`` of a list field, as it is now."""
    info = model.model_fields[field]
    return min(m.max_length for m in info.metadata if isinstance(m, MaxLen))


def shown(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What Qt puts on screen for ``text``: a label or tooltip in ``fmt`` renders it as
    HTML when it is rich text (an image becomes U+FFFC, tags vanish)."""
    rich = fmt == Qt.TextFormat.RichText or (
        fmt == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text))
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText().replace("\u00a0", " ")


def label_shows(label: QLabel) -> str:
    return shown(label.text(), label.textFormat())


def message(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def effects_tab(window: MainWindow) -> EffectsPanel:
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet._effects)
    return sheet.effects


def inventory_tab(window: MainWindow) -> InventoryPanel:
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet.inventory)
    return sheet.inventory


def enter(editor: QWidget) -> None:
    """Press Enter in a cell's editor: the view commits the edit (queued) and closes it."""
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()


def editor_of(view: QWidget) -> QLineEdit:
    """The line edit a table view opened on its current cell."""
    found = [w for w in view.findChildren(QLineEdit) if w.isVisible()]
    assert len(found) == 1, found
    return found[0]


# --- item 15: lists at their limit ---------------------------------------------------------


def at_limits(system: str) -> CharacterBase:
    """A character one short of every list limit the window adds to: effects (the first
    with one modifier short of its limit), inventory and weapons."""
    model = registry.get(system).model
    n_effects = limit_of(model, "effects")
    n_mods = limit_of(Effect, "modifiers")
    mod = Modifier(type="untyped", value=1, targets=["skill:stealth"])
    effects = [Effect(name="Busy", modifiers=[mod] * (n_mods - 1))]
    effects += [Effect(name=f"E{i}", active=False) for i in range(n_effects - 2)]
    item = {"name": "Pebble", "quantity": 1}
    return blank(system, "Full",
                 effects=[e.model_dump(mode="json") for e in effects],
                 inventory=[item] * (limit_of(model, "inventory") - 1),
                 weapons=[Weapon(name=f"W{i}").model_dump(mode="json")
                          for i in range(limit_of(model, "weapons") - 1)])


def test_a_full_list_refuses_more_with_a_message_and_no_undo_step(
    qtbot: QtBot, make_window: MakeWindow
) -> None:
    system = "pf2e"
    model = registry.get(system).model
    start = at_limits(system)
    window = make_window(start)
    doc = window.document
    stack = doc.undo_stack

    # + Bonus fills the effect; then the button is off, saying why, and a call is refused
    effects = effects_tab(window)
    effects.view.selectRow(0)
    bonus = effects.editor.adders[0][0]
    assert bonus.isEnabled()
    bonus.click()
    n_mods = limit_of(Effect, "modifiers")
    assert len(doc.character.effects[0].modifiers) == n_mods
    assert not bonus.isEnabled()
    assert f"{n_mods} modifiers" in bonus.toolTip()
    effects.modifiers.add(mode=False)
    assert f"Busy holds {n_mods} modifiers" in message(window)
    assert stack.count() == 1

    # New effect fills the sheet; then New effect, Quick add and Add condition are off
    effects.toolbar.add.click()
    QApplication.processEvents()
    effects.view.closePersistentEditor(effects.model.index(len(start.effects), 1))
    n_effects = limit_of(model, "effects")
    assert len(doc.character.effects) == n_effects
    assert stack.count() == 2
    for button in (effects.toolbar.add, effects.quick_add, effects.add_condition):
        assert not button.isEnabled()
        assert f"{n_effects:,} effects" in button.toolTip()
    effects._add_blank()
    effects.add_effect(Effect(name="Bless"))
    effects.pick_condition().accept()
    assert f"The sheet holds {n_effects:,} effects" in message(window)
    assert stack.count() == 2

    # Add item and Add weapon: one more each, then a message
    inventory = inventory_tab(window)
    inventory.add.click()
    QApplication.processEvents()
    inventory.view.closePersistentEditor(inventory.view.currentIndex())
    assert not inventory.add.isEnabled()
    inventory._add()
    assert f"{limit_of(model, 'inventory'):,} items" in message(window)
    weapons = sheet_of(window).weapons
    weapons.add_weapon()
    assert weapons.editor is not None
    weapons.editor.close()
    weapons.add_weapon()
    assert f"{limit_of(model, 'weapons'):,} weapons" in message(window)
    assert stack.count() == 4
    full = doc.character

    # undo and redo everything, through the stack itself and the window's actions
    while stack.canUndo():
        stack.undo()
    assert doc.character == start
    assert bonus.isEnabled() and effects.toolbar.add.isEnabled() and inventory.add.isEnabled()
    while stack.canRedo():
        stack.redo()
    assert doc.character == full
    for _ in range(4):
        window.act_undo.trigger()
    assert doc.character == start
    for _ in range(4):
        window.act_redo.trigger()
    assert doc.character == full
    assert not effects.toolbar.add.isEnabled()


def test_the_document_refuses_an_insert_into_a_full_list() -> None:
    """Without a window: the refused insert leaves no command; undo and redo still work."""
    character = blank("runarcana", effects=[
        Effect(name="Busy", modifiers=[Modifier(value=1, targets=["check"])] * (
            limit_of(Effect, "modifiers") - 1)).model_dump(mode="json")])
    doc = CharacterDocument(character)
    said: list[str] = []
    doc.rejected.connect(said.append)
    path = ("effects", 0, "modifiers")
    assert doc.insert(path, 99, Modifier(value=2, targets=["check"]))
    assert not doc.insert(path, 99, Modifier(value=3, targets=["check"]))
    assert len(said) == 1 and "remove one to add another" in said[0]
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.character == character
    doc.undo_stack.redo()
    assert doc.value((*path, -1)) is not None
    assert len(doc.value(path)) == doc.list_limit(path)


def test_the_limit_is_read_from_the_model_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lowered limit in the model counts at once (nothing is hard-coded in the window)."""
    doc = CharacterDocument(blank("dnd5e"))
    assert doc.list_limit(("effects",)) == limit_of(type(doc.character), "effects")
    assert doc.list_limit(("no_such_list",)) >= 1
    info = type(doc.character).model_fields["effects"]
    monkeypatch.setattr(info, "metadata", [MaxLen(0)])
    assert doc.list_limit(("effects",)) == 0
    assert not doc.insert(("effects",), 0, Effect(name="Bless"))
    assert doc.undo_stack.count() == 0


# --- item 16: numbers the sheet can't read -------------------------------------------------


def test_pasting_a_page_of_digits_into_the_hit_die_rolls(make_window: MakeWindow) -> None:
    window = make_window("runarcana")  # d6, rolls 4, 5
    rolls = find(window, NumberListEdit, "Rolls, level 2+")
    rolls.setFocus()
    rolls.selectAll()
    QApplication.clipboard().setText("1" * 10_240)
    rolls.paste()
    assert len(rolls.text()) == 10_240
    rolls.editingFinished.emit()
    model_value = window.document.value(("hit_points", "level_rolls"))
    assert rolls.text() == ", ".join(map(str, model_value))
    said = message(window)
    assert "entry 1" in said and "whole number" in said
    assert len(said) < 200 and "set_int_max_str_digits" not in said

    for bad in ("4, ²", "4, 5, " + "9" * 5000, "4, 5, 6.5"):
        rolls.setText(bad)  # (typing can't reach these: the field's validator stops them)
        rolls.editingFinished.emit()
        model_value = window.document.value(("hit_points", "level_rolls"))
        assert rolls.text() == ", ".join(map(str, model_value))
        assert len(message(window)) < 200


def bulk_character() -> CharacterBase:
    return blank("pf2e", inventory=[{"name": "Rope", "quantity": 1, "bulk": "L"}])


@pytest.mark.parametrize("typed", ["²", "1" * 4_301, "3.5", "-2", "L2"])
def test_a_bulk_cell_says_what_it_takes(typed: str, make_window: MakeWindow) -> None:
    window = make_window(bulk_character())
    panel = inventory_tab(window)
    view, model = panel.view, panel.model
    index = model.index(0, 2)
    view.setCurrentIndex(index)
    view.edit(index)
    editor = editor_of(view)
    editor.setText(typed)
    enter(editor)
    assert window.document.character.inventory[0].bulk == "L"
    assert index.data() == "L"
    said = message(window)
    assert "Bulk" in said and len(said) < 200
    assert window.document.undo_stack.count() == 0


def test_a_bulk_beyond_the_models_bound_is_named(make_window: MakeWindow) -> None:
    window = make_window(bulk_character())
    model = inventory_tab(window).model
    assert not model.setData(model.index(0, 2), "999999")
    assert "from 0 to" in message(window)
    assert model.setData(model.index(0, 2), "2")
    assert model.index(0, 2).data() == "2"


@pytest.mark.parametrize(("column", "value"), [
    (1, "9" * 5000), (1, -3), (1, 10**12), (1, "²"),
    (2, "9" * 5000), (2, "nan"), (2, "1e400"), (2, "-1"), (2, "0.5.5"),
])
def test_quantity_and_weight_cells_refuse_what_they_cant_take(
    column: int, value: object, make_window: MakeWindow
) -> None:
    window = make_window(blank("dnd5e", inventory=[{"name": "Rope", "quantity": 2,
                                                    "weight": 10}]))
    model = inventory_tab(window).model
    before = window.document.character
    assert not model.setData(model.index(0, column), value)
    assert window.document.character == before
    assert model.index(0, 1).data() == 2 and model.index(0, 2).data() == "10"
    said = message(window)
    assert said and len(said) < 200 and "int_max_str" not in said


def test_effect_cells_refuse_numbers_they_cant_take(make_window: MakeWindow) -> None:
    character = blank("pf2e", effects=[
        {"name": "Frightened 2", "condition": "frightened", "value": 2},
        {"name": "Cloak", "modifiers": [{"type": "item", "value": 1,
                                         "targets": ["skill:stealth"]}]}])
    window = make_window(character)
    effects = effects_tab(window)
    value_cell = effects.model.index(0, EffectsModel.VALUE)
    for bad in ("9" * 5000, "²", "99"):
        assert not effects.model.setData(value_cell, bad)
        assert value_cell.data() == "2" and len(message(window)) < 200
    effects.view.selectRow(1)
    mods: ModifiersModel = effects.modifiers
    for bad in ("9" * 5000, "1d" + "9" * 5000, "²"):
        assert not mods.setData(mods.index(0, 1), bad)
        assert mods.index(0, 1).data() == "+1" and len(message(window)) < 200
    assert window.document.undo_stack.count() == 0


# --- item 17: weights as they are ----------------------------------------------------------


def test_weight_cells_keep_and_show_the_real_value(make_window: MakeWindow) -> None:
    character = blank("runarcana", inventory=[
        {"name": "Ring", "quantity": 1, "weight": 0.125},
        {"name": "Feather", "quantity": 3, "weight": 0.004}])
    window = make_window(character)
    panel = inventory_tab(window)
    view, model = panel.view, panel.model
    assert [model.index(r, 2).data() for r in range(2)] == ["0.125", "0.004"]
    assert model.index(1, 3).data() == "0.012"
    for row in range(2):
        index = model.index(row, 2)
        view.setCurrentIndex(index)
        view.edit(index)
        editor = editor_of(view)
        assert editor.text() == ("0.125", "0.004")[row]
        enter(editor)  # opened and closed: nothing changes
    assert [i.weight for i in window.document.character.inventory] == [0.125, 0.004]
    assert window.document.undo_stack.count() == 0

    index = model.index(0, 2)
    view.setCurrentIndex(index)
    view.edit(index)
    editor = editor_of(view)
    editor.selectAll()
    QTest.keyClicks(editor, "0,0625")
    enter(editor)
    assert window.document.character.inventory[0].weight == 0.0625
    assert index.data() == "0.0625"


# --- item 19: names from a file are text ---------------------------------------------------

EFFECT = '<img src="x.png"><b>Big</b>'
LUCKY = "<i>Lucky</i> & <u>co</u>"
WEAPON = "<h1>Axe</h1>"
OLD_ROLL = "<font color=red>Old</font>"


def html_named(tmp_path: Path) -> CharacterBase:
    """A pf2e character, read from a file, whose names are all HTML."""
    character = blank("pf2e", "<b>Hero</b>", skills={"stealth": "trained"})
    data: dict[str, Any] = json.loads(character.model_dump_json(by_alias=True))
    data["effects"] = [
        {"name": EFFECT, "modifiers": [{"type": "item", "value": 2,
                                        "targets": ["skill:stealth"]}]},
        {"name": LUCKY, "modifiers": [{"mode": "fortune", "targets": ["skill:stealth"]}]},
    ]
    data["weapons"] = [{"name": WEAPON, "damage": "1d8", "damage_type": "<s>slashing</s>"}]
    data["roll_log"] = [{"time": "2024-01-01T10:00:00+00:00", "statistic": "skill:stealth",
                         "label": OLD_ROLL, "dice": [12], "natural": 12,
                         "total_modifier": 3, "total": 15}]
    path = tmp_path / "html.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_character(path)


@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, "This plugin does not support raise()")  # the tips
def test_names_from_a_file_show_as_written(tmp_path: Path, make_window: MakeWindow) -> None:
    window = make_window(html_named(tmp_path))
    panel = window.roll_panel

    # the effects table, its tooltip and the modifiers' caption
    effects = effects_tab(window)
    model = effects.model
    assert model.index(0, EffectsModel.NAME).data() == EFFECT
    assert model.index(1, EffectsModel.NAME).data() == LUCKY
    tip = model.index(1, EffectsModel.MODIFIERS).data(Qt.ItemDataRole.ToolTipRole)
    assert shown(tip) == "fortune → skill:stealth"
    effects.view.selectRow(0)
    assert label_shows(effects.editor.title) == f"Modifiers of {EFFECT}"

    # the statistic's tooltip and the roll panel's breakdown, its tooltips and mode note
    stealth = find(window, QPushButton, "Stealth total")
    assert EFFECT in shown(hover_tooltip(stealth))
    window.selection.select("skill:stealth")
    assert EFFECT in lines(panel.breakdown)
    rows = panel.breakdown.rows()
    row = next(i for i, r in enumerate(rows) if r.text == EFFECT)
    line_tip = panel.breakdown.index(row, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert shown(line_tip).startswith(f"{EFFECT}: +2")
    assert LUCKY in label_shows(panel.mode_note)

    # the log from the file: its label in the table and the tooltip
    log = panel.log_model
    old = log.index(0, 1)
    assert old.data() == OLD_ROLL
    assert OLD_ROLL in shown(old.data(Qt.ItemDataRole.ToolTipRole))

    # the weapon row, its buttons' tooltips, and its attack and damage rolled
    sheet = sheet_of(window)
    weapons = sheet.weapons
    sheet.tabs.setCurrentWidget(weapons)
    axe = weapons.row(WEAPON)
    assert label_shows(axe.name) == WEAPON
    assert shown(axe.edit.toolTip()) == f"Edit {WEAPON}"
    assert shown(axe.remove.toolTip()) == f"Remove {WEAPON}"
    assert WEAPON in shown(hover_tooltip(axe.damage))
    axe.roll_attack()
    assert label_shows(panel.title) == WEAPON
    assert log.index(0, 1).data() == WEAPON
    assert WEAPON in shown(log.index(0, 1).data(Qt.ItemDataRole.ToolTipRole))
    assert WEAPON in shown(panel.result.toolTip())
    axe.roll_damage(False)
    assert WEAPON in label_shows(panel.result)
    assert "<s>slashing</s>" in label_shows(panel.result)
    assert WEAPON in log.index(0, 1).data()
    editor = weapons.edit_weapon(0)
    assert "<s>slashing</s>" in label_shows(editor.preview)
    editor.close()

    # every label on the window that shows a name shows it as written
    for label in window.findChildren(QLabel):
        if label.isVisible() and any(
                name in label.text() for name in (EFFECT, LUCKY, WEAPON, OLD_ROLL)):
            assert any(name in label_shows(label) for name in (EFFECT, LUCKY, WEAPON,
                                                               OLD_ROLL)), label.objectName()


def test_shown_reads_html_as_qt_does() -> None:
    """The helper itself: a tag is rendered, an escaped one is shown."""
    assert shown("<b>Big</b>") == "Big"
    assert shown("&lt;b&gt;", Qt.TextFormat.RichText) == "<b>"
    assert shown("<b>Big</b>", Qt.TextFormat.PlainText) == "<b>Big</b>"
    assert QModelIndex().data() is None
