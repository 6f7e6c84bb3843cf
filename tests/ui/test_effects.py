"""Effects: toggling one changes the totals and which modifier wins in the roll panel; presets,
conditions and modifier types all come from the system."""

from __future__ import annotations

from typing import TypeVar

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStyleOptionViewItem,
    QWidget,
)
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.model import Effect, Item, Modifier
from tests.ui.helpers import (
    MakeWindow,
    blank,
    click,
    find,
    item_bonus,
    lines,
    press,
    sheet_of,
    type_text,
)
from ui.main_window import MainWindow
from ui.sections.effects import (
    TARGET_ID,
    ConditionPicker,
    EffectsModel,
    EffectsPanel,
    ModifierEditor,
    ModifiersModel,
    TargetsEdit,
    TypeDelegate,
    presets,
    target_choices,
    target_problem_text,
)
from ui.sections.tables import BOUNDS
from ui.theme import PENALTY_COLOR, qcolor

W = TypeVar("W", bound=QWidget)


def effects_of(window: MainWindow) -> EffectsPanel:
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet._effects)
    return sheet.effects


def save_total(window: MainWindow, name: str = "Fortitude save total") -> int:
    return int(find(window, QPushButton, name).text().replace("−", "-"))


def test_toggling_an_effect_changes_totals_and_winners(
    qtbot: QtBot, make_window: MakeWindow
) -> None:
    character = blank("pf2e", skills={"stealth": "trained"},
                      effects=[item_bonus("Cloak", 2), item_bonus("Ring", 1)])
    window = make_window(character)
    total = find(window, QPushButton, "Stealth total")
    assert total.text() == "+5"  # trained 1+2, Cloak +2
    window.selection.select("skill:stealth")
    panel = window.roll_panel
    shown = lines(panel.breakdown)
    assert shown["Cloak"][1].startswith("✔")
    assert shown["Ring"][1] == "✘"
    assert "higher item bonus" in (shown["Ring"][2] or "")

    effects = effects_of(window)
    cloak_on = effects.model.index(0, EffectsModel.ON)
    assert effects.model.data(cloak_on, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    # the user clicks the checkbox of the first effect
    view = effects.view
    rect = view.visualRect(cloak_on)
    click(view.viewport(), pos=rect.center())

    assert window.document.character.effects[0].active is False
    assert total.text() == "+4"
    shown = lines(panel.breakdown)
    assert "Cloak" not in shown
    assert shown["Ring"][1].startswith("✔")
    assert panel.total.text() == "+4"

    window.act_undo.trigger()
    assert total.text() == "+5"
    assert lines(panel.breakdown)["Ring"][1] == "✘"


def test_quick_add_a_preset_condition(make_window: MakeWindow) -> None:
    window = make_window(registry.get("pf2e").new_character())
    before = save_total(window)
    effects = effects_of(window)
    names = [a.text() for a in effects.quick_add.menu().actions()]
    assert {"Frightened 1", "Sickened 1", "Heroism"} <= set(names)
    action = next(a for a in effects.quick_add.menu().actions() if a.text() == "Frightened 1")
    action.trigger()
    added = window.document.character.effects[-1]
    assert (added.name, added.condition, added.value) == ("Frightened 1", "frightened", 1)
    assert save_total(window) == before - 1
    # the condition's modifier is shown, read-only, so the player sees what it does
    mods = effects.modifiers
    assert mods.rowCount() == 1
    assert "status" in mods.index(0, 0).data()
    assert mods.index(0, 1).data() == "−1"
    for col in range(3):
        assert not mods.flags(mods.index(0, col)) & Qt.ItemFlag.ItemIsEditable
    assert not mods.setData(mods.index(0, 1), 3)


@pytest.mark.parametrize("system", registry.known_ids())
def test_presets_come_from_the_system(system: str, make_window: MakeWindow) -> None:
    window = make_window(system)
    expected = [entry["name"] for entry in registry.get(system).sheet().presets]
    assert [effect.name for effect, _ in presets(system)] == expected
    effects = effects_of(window)
    actions = effects.quick_add.menu().actions()
    assert [a.text() for a in actions] == expected
    assert all(a.toolTip() for a in actions)
    for effect, _ in presets(system):  # every preset is valid on its own sheet
        assert window.document.insert(("effects",), 0, effect, "add")


@pytest.mark.parametrize("system", registry.known_ids())
def test_add_condition_offers_the_systems_conditions(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(registry.get(system).new_character())
    conditions = registry.get(system).facts.conditions
    effects = effects_of(window)
    effects.add_condition.click()
    picker = effects.picker
    assert isinstance(picker, ConditionPicker) and picker.isVisible()
    combo = picker.combo
    assert [combo.itemText(i) for i in range(combo.count())] == [
        c.label for c in conditions.values()]
    assert [combo.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(combo.count())] == [
        c.summary for c in conditions.values()]
    for condition in conditions.values():
        picker.choose(condition.key)
        assert picker.summary.text() == condition.summary
        assert picker.value.isVisibleTo(picker) == (condition.max_value is not None)
        if condition.max_value is not None:
            assert (picker.value.minimum(), picker.value.maximum()) == (1, condition.max_value)
    picker.reject()


def test_add_condition_inserts_it_at_its_value(make_window: MakeWindow) -> None:
    window = make_window(registry.get("pf2e").new_character())
    before = save_total(window)
    effects = effects_of(window)
    picker = effects.pick_condition()
    picker.choose("frightened", 2)
    picker.accept()
    added = window.document.character.effects[-1]
    assert added.model_dump(include={"name", "condition", "value", "active"}) == {
        "name": "Frightened 2", "condition": "frightened", "value": 2, "active": True}
    assert save_total(window) == before - 2

    # the table shows the condition and its value; the value is bounded by the condition
    model = effects.model
    row = model.rowCount() - 1
    assert model.index(row, EffectsModel.CONDITION).data() == "Frightened"
    assert model.index(row, EffectsModel.VALUE).data() == "2"
    assert model.index(row, EffectsModel.VALUE).data(BOUNDS) == (1, 4)
    assert "status" in model.index(row, EffectsModel.MODIFIERS).data()
    assert model.setData(model.index(row, EffectsModel.VALUE), 3)
    effect = window.document.character.effects[-1]
    assert (effect.name, effect.value) == ("Frightened 3", 3)  # the name follows its value
    assert save_total(window) == before - 3
    assert not model.setData(model.index(row, EffectsModel.VALUE), 5)
    assert "1 to 4" in window.statusBar().currentMessage()
    assert effects.modifiers.index(0, 1).data() == "−3"
    window.act_undo.trigger()
    assert window.document.character.effects[-1].name == "Frightened 2"

    # a condition without a value has none to edit
    picker = effects.pick_condition()
    picker.choose("blinded")
    picker.accept()
    blinded = window.document.character.effects[-1]
    assert (blinded.name, blinded.condition, blinded.value) == ("Blinded", "blinded", None)
    row = model.rowCount() - 1
    assert model.index(row, EffectsModel.VALUE).data() == ""
    assert not model.flags(model.index(row, EffectsModel.VALUE)) & Qt.ItemFlag.ItemIsEditable


def test_own_and_condition_modifiers_side_by_side(make_window: MakeWindow) -> None:
    effect = Effect(name="Scared stiff", condition="frightened", value=1,
                    modifiers=[Modifier(type="circumstance", value=-1, targets=["save"])])
    window = make_window(blank("pf2e", effects=[effect]))
    mods = effects_of(window).modifiers
    assert mods.rowCount() == 2
    assert mods.index(0, 1).data() == "−1" and mods.index(0, 0).data() == "circumstance"
    assert mods.flags(mods.index(0, 1)) & Qt.ItemFlag.ItemIsEditable
    assert "Frightened 1" in mods.index(1, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert not mods.flags(mods.index(1, 1)) & Qt.ItemFlag.ItemIsEditable
    mods.add(mode=False)  # new modifiers go after the effect's own, before the computed
    assert len(window.document.character.effects[0].modifiers) == 2
    assert mods.rowCount() == 3 and mods.index(2, 2).data(Qt.ItemDataRole.ToolTipRole) != (
        mods.index(1, 2).data(Qt.ItemDataRole.ToolTipRole))
    mods.remove(2)  # a computed row can't be removed
    assert mods.rowCount() == 3


def test_edit_modifier_value_type_and_targets(make_window: MakeWindow) -> None:
    window = make_window(blank("pf2e", effects=[item_bonus("Cloak", 2)]))
    mods = effects_of(window).modifiers
    assert mods.rowCount() == 1
    assert mods.setData(mods.index(0, 1), 3)
    assert window.document.character.effects[0].modifiers[0].value == 3
    assert find(window, QPushButton, "Stealth total").text() == "+3"
    assert mods.setData(mods.index(0, 1), "−2")
    assert window.document.character.effects[0].modifiers[0].value == -2
    assert mods.setData(mods.index(0, 2), "skill:stealth, skill:thievery")
    assert find(window, QPushButton, "Thievery total").text() == "−2"
    assert not mods.setData(mods.index(0, 2), "skill:flying")  # not a pf2e skill
    assert "flying" in window.statusBar().currentMessage()
    assert mods.setData(mods.index(0, 0), "fortune")
    assert window.document.character.effects[0].modifiers[0].mode == "fortune"
    assert mods.index(0, 1).data() == "—"
    assert not (mods.flags(mods.index(0, 1)) & Qt.ItemFlag.ItemIsEditable)
    assert mods.setData(mods.index(0, 0), "status")
    assert window.document.character.effects[0].modifiers[0].type == "status"


def test_a_modifier_value_may_be_dice(make_window: MakeWindow) -> None:
    window = make_window(blank("runarcana", effects=[
        Effect(name="Bless", modifiers=[Modifier(value=1, targets=["attack"])])]))
    effects = effects_of(window)
    mods = effects.modifiers
    assert mods.setData(mods.index(0, 1), "1d4")
    assert window.document.character.effects[0].modifiers[0].value == "1d4"
    assert mods.index(0, 1).data() == "+1d4"
    assert mods.index(0, 1).data(Qt.ItemDataRole.EditRole) == "1d4"
    assert "+1d4" in effects.model.index(0, EffectsModel.MODIFIERS).data()
    assert mods.setData(mods.index(0, 1), "-1d6")
    assert mods.index(0, 1).data() == "−1d6"
    assert not mods.setData(mods.index(0, 1), "lots")
    assert "1d4" in window.statusBar().currentMessage()
    assert window.document.character.effects[0].modifiers[0].value == "-1d6"


def _type_editor(view_parent: QWidget, delegate: TypeDelegate) -> QComboBox:
    editor = delegate.createEditor(view_parent, QStyleOptionViewItem(), QModelIndex())
    assert isinstance(editor, QComboBox)
    return editor


@pytest.mark.parametrize("system", registry.known_ids())
def test_modifier_types_and_roll_modes_come_from_the_system(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(system)
    sheet = registry.get(system).sheet()
    effects = effects_of(window)
    delegate = effects.mod_view.itemDelegateForColumn(0)
    assert isinstance(delegate, TypeDelegate)
    combo = _type_editor(effects.mod_view.viewport(), delegate)
    assert [combo.itemText(i) for i in range(combo.count())] == [
        *sheet.modifier_types, *sheet.roll_modes]
    assert combo.isEditable() == sheet.open_types
    buttons = {b.text() for b in effects.editor.findChildren(QPushButton)}
    assert ("+ Roll mode" in buttons) == bool(sheet.roll_modes)


@pytest.mark.parametrize("system", registry.known_ids())
def test_side_choice_only_where_the_system_has_one(system: str, make_window: MakeWindow) -> None:
    window = make_window(system)
    choice = registry.get(system).sheet().side_choice
    effects = effects_of(window)
    if choice is None:
        assert effects.toolbar.side_choice is None
        return
    combo = find(effects, QComboBox, choice.label)
    assert [combo.itemText(i) for i in range(combo.count())] == [t for _, t in choice.choices]
    combo.setCurrentIndex(1)
    assert window.document.value(choice.path) == choice.choices[1][0]


def test_parts_are_documented(make_window: MakeWindow) -> None:
    effects = effects_of(make_window("d20srd"))
    for part in (EffectsModel, ModifiersModel, ModifierEditor, ConditionPicker, TypeDelegate):
        assert part.__doc__, part.__name__
    assert effects.findChildren(ModifierEditor) == [effects.editor]


def test_picker_on_its_own(qtbot: QtBot) -> None:
    conditions = registry.get("pf2e").facts.conditions
    picker = ConditionPicker(conditions)
    qtbot.addWidget(picker)
    picker.choose("clumsy", 9)  # clamped to the condition's maximum
    with qtbot.waitSignal(picker.chosen) as chosen:
        picker.accept()
    effect = chosen.args[0]
    assert (effect.name, effect.condition, effect.value, effect.active) == (
        "Clumsy 4", "clumsy", 4, True)
    assert picker.findChild(QSpinBox) is picker.value


def test_inventory_edit_add_remove(make_window: MakeWindow) -> None:
    window = make_window(registry.get("runarcana").new_character())
    inv = sheet_of(window).inventory
    model = inv.model
    inv._add()
    inv.view.closePersistentEditor(model.index(0, 0))
    assert model.rowCount() == 1
    assert model.setData(model.index(0, 2), "12.5")
    assert model.setData(model.index(0, 1), 2)
    assert model.index(0, 3).data() == "25"
    assert inv.total.text() == "25 / 70 kg"
    assert not model.setData(model.index(0, 2), "heavy")
    inv.view.setCurrentIndex(model.index(0, 0))
    inv._remove()
    assert model.rowCount() == 0
    assert inv.total.text() == "0 / 70 kg"
    window.act_undo.trigger()
    assert model.rowCount() == 1
    assert model.index(0, 3).data() == "25"
    assert isinstance(window.document.character.inventory[0], Item)


# --- a new effect is the selected one; targets offered, and a bad one explained at its cell ---


def _editor_of(view: QWidget, kind: type[W]) -> W:
    editors = [w for w in view.findChildren(kind) if w.isVisible()]
    assert len(editors) == 1, editors
    return editors[0]


@pytest.mark.parametrize("start", [None, 1])
def test_a_new_effect_is_selected_so_bonus_adds_to_it(
    qtbot: QtBot, make_window: MakeWindow, start: int | None
) -> None:
    window = make_window("pf2e")
    effects = effects_of(window)
    qtbot.waitUntil(effects.view.isVisible)  # the tab's content is shown a moment later
    if start is not None:
        effects.view.selectRow(start)
    before = [effect.model_copy(deep=True) for effect in window.document.character.effects]
    click(effects.toolbar.add)
    row = len(before)
    assert effects.view.currentIndex().row() == row
    assert [i.row() for i in effects.view.selectionModel().selectedRows()] == [row]
    assert effects.mod_title.text() == "Modifiers of New effect"
    name = _editor_of(effects.view, QLineEdit)
    name.selectAll()
    type_text(name, "Bless")
    press(name, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.document.character.effects[row].name == "Bless")
    assert effects.view.currentIndex().row() == row
    assert effects.mod_title.text() == "Modifiers of Bless"

    click(find(window, QPushButton, "Add a bonus or penalty to the selected effect"))
    after = window.document.character.effects
    assert len(after[row].modifiers) == 1
    assert after[:row] == before  # the bonus went to the new effect, not another one
    assert effects.modifiers.rowCount() == 1


@pytest.mark.parametrize("system", registry.known_ids())
def test_targets_offered_are_the_systems_with_their_names(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(system)
    rules = registry.get(system)
    derived = window.document.derived
    choices = {choice.id: choice.label for choice in target_choices(rules, derived)}
    for stat_id, stat in derived.statistics.items():
        if "@" not in stat_id:
            assert choices[stat_id] == stat.label
    for group in rules.facts.groups:
        if target_problem_text(rules, group) is None:
            assert choices[group].startswith("every ") or group in derived.statistics
    assert set(rules.facts.extra_targets) <= set(choices)
    assert choices["uses:str"] == "checks using Strength"
    assert "score:dex" in choices
    first_skill = next(iter(rules.facts.skills))
    assert f"skill:{first_skill}" in choices
    # every one offered is taken by the sheet
    offered = list(choices)
    effect = Effect(name="All of them", modifiers=[
        Modifier(value=1, targets=offered[i:i + 32]) for i in range(0, len(offered), 32)])
    assert window.document.insert(("effects",), 0, effect, "add")


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: the list's popup
def test_targets_are_typed_with_the_systems_targets_offered(
    qtbot: QtBot, make_window: MakeWindow
) -> None:
    window = make_window(blank("pf2e", effects=[item_bonus("Cloak", 2, "save")]))
    effects = effects_of(window)
    qtbot.waitUntil(effects.mod_view.isVisible)
    cell = effects.modifiers.index(0, ModifiersModel.TARGETS)
    effects.mod_view.setCurrentIndex(cell)
    effects.mod_view.edit(cell)
    editor = _editor_of(effects.mod_view, TargetsEdit)
    assert editor.text() == "save"
    editor.setCursorPosition(len(editor.text()))
    type_text(editor, ", stea")  # found by its name
    popup = editor.popup()
    assert popup.isVisible()
    offered = [popup.model().index(r, 0).data() for r in range(popup.model().rowCount())]
    assert "Stealth  ·  skill:stealth" in offered
    assert not editor.problem  # still being typed
    current = popup.currentIndex()
    assert current.data(TARGET_ID) == "skill:stealth"
    editor.choose(current)
    assert editor.text() == "save, skill:stealth"
    editor.setCursorPosition(len(editor.text()))
    type_text(editor, ", ")
    assert not popup.isVisible()
    press(editor, Qt.Key.Key_Down)  # Down offers every target
    assert popup.isVisible() and popup.model().rowCount() > 20
    popup.hide()
    press(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.document.character.effects[0].modifiers[0].targets == [
        "save", "skill:stealth"])


def test_a_bad_target_is_explained_as_typed(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    rules = registry.get("pf2e")
    editor = TargetsEdit(rules, target_choices(rules, window.document.derived))
    problems: list[str] = []
    editor.problemChanged.connect(problems.append)
    editor.setText("skil")  # may still become a target
    assert editor.problem == ""
    editor.setText("skil:")  # no target has that in it
    assert "unknown target" in editor.problem
    assert editor.palette().color(QPalette.ColorRole.Text) == qcolor(PENALTY_COLOR)
    assert "unknown target" in editor.toolTip()
    editor.setText("skill:stelth, save")  # a finished one
    assert "did you mean 'stealth'" in editor.problem
    editor.setText("skill:stealth, save")
    assert editor.problem == "" and problems[-1] == ""
    assert editor.palette().color(QPalette.ColorRole.Text) != qcolor(PENALTY_COLOR)
    editor.deleteLater()


def test_a_refused_target_is_explained_at_its_cell(make_window: MakeWindow) -> None:
    window = make_window(blank("pf2e", effects=[item_bonus("Cloak", 2)]))
    effects = effects_of(window)
    mods = effects.modifiers
    cell = mods.index(0, ModifiersModel.TARGETS)
    assert not mods.setData(cell, "skill:stelth")
    assert window.document.character.effects[0].modifiers[0].targets == ["skill:stealth"]
    assert cell.data() == "skill:stealth"  # the cell shows the sheet
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "Not changed" in tip and "did you mean 'stealth'" in tip and "skill:stelth" in tip
    assert cell.data(Qt.ItemDataRole.EditRole) == "skill:stelth"  # reopens to correct it
    assert cell.data(Qt.ItemDataRole.DecorationRole) is not None
    line = effects.editor.problem
    assert not line.isHidden() and "did you mean 'stealth'" in line.text()
    assert "effects.0" not in line.text()  # no path in the words at the field
    assert mods.setData(cell, "skill:stealth, save")
    assert cell.data(Qt.ItemDataRole.EditRole) == "skill:stealth, save"
    assert cell.data(Qt.ItemDataRole.DecorationRole) is None
    assert line.isHidden()
    # another effect's modifiers shown: the problem does not follow
    assert not mods.setData(cell, "nowhere")
    window.document.insert(("effects",), 1, item_bonus("Ring", 1), "add")
    effects.select(1)
    assert line.isHidden() and mods.problem(0) is None
