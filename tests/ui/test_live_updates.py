"""Typing a score updates every number that depends on it, at once, and nothing else."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QPushButton, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app.model import Effect, Item, Modifier
from tests.ui.helpers import (
    OFFSCREEN_NOISE,
    MakeWindow,
    blank,
    find,
    hover_tooltip,
    sheet_of,
    type_into,
)
from ui.controls import NumberListEdit
from ui.main_window import MainWindow
from ui.widgets import DerivedLabel


def label(window: MainWindow, name: str) -> str:
    return find(window, DerivedLabel, name).text()


def stat(window: MainWindow, name: str) -> str:
    return find(window, QPushButton, name).text()



def test_strength_changes_modifier_skills_capacity_and_encumbrance(
    qtbot: QtBot, make_window: MakeWindow
) -> None:
    character = blank("runarcana", "Porter", inventory=[Item(name="Pack", weight=40.0)])
    window = make_window(character)
    assert label(window, "Strength modifier") == "+0"
    assert stat(window, "Athletics total") == "+0"
    assert label(window, "Carried load") == "40 / 70 kg"
    state = sheet_of(window).inventory.state
    assert "Encumbered" in state.text()
    assert label(window, "Speed") == "20 ft"

    type_into(qtbot, find(window, QSpinBox, "Strength score"), "18")

    assert window.document.value(("abilities", "str")) == 18
    assert label(window, "Strength modifier") == "+4"
    assert stat(window, "Athletics total") == "+4"
    assert stat(window, "Strength save total") == "+4"
    assert label(window, "Carried load") == "40 / 126 kg"
    assert "Unencumbered" in state.text()
    assert label(window, "Speed") == "30 ft"
    assert "Carrying 40 of 126 kg" in sheet_of(window).inventory.bar.accessibleDescription()


def test_wisdom_changes_perception_and_passive(qtbot: QtBot, make_window: MakeWindow) -> None:
    character = blank("runarcana", skills={"perception": "proficient"})
    window = make_window(character)
    assert stat(window, "Perception total") == "+2"
    assert label(window, "Passive Perception") == "12"

    type_into(qtbot, find(window, QSpinBox, "Wisdom score"), "15")

    assert label(window, "Wisdom modifier") == "+2"
    assert stat(window, "Perception total") == "+4"
    assert stat(window, "Insight total") == "+2"
    assert label(window, "Passive Perception") == "14"  # RULES.md E: level 1, Wis 15, proficient
    assert label(window, "Passive Insight") == "12"


@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, "This plugin does not support raise()")  # the tooltip
def test_a_passive_leaves_dice_and_until_next_roll_out(make_window: MakeWindow) -> None:
    effects = [Effect(name="Bless", modifiers=[Modifier(value="1d4", targets=["skill"])]),
               Effect(name="Guidance", until="next_roll",
                      modifiers=[Modifier(value=2, targets=["skill:perception"])]),
               Effect(name="Keen eyes", modifiers=[Modifier(value=1, targets=["skill"])])]
    window = make_window(blank("dnd5e", skills={"perception": "proficient"}, effects=effects))
    assert stat(window, "Perception total") == "+5"  # Wis 0, PB 2, Guidance 2, Keen eyes 1
    assert label(window, "Passive Perception") == "13"  # 10 + 3: no dice, no Guidance
    tip = hover_tooltip(find(window, QLabel, "Passive Perception"))
    assert "a passive is not a roll" in tip and "until the next roll" in tip
    assert "<s>Bless</s>" in tip and "<s>Guidance</s>" in tip and "<s>Keen eyes</s>" not in tip


def test_constitution_changes_max_hp(qtbot: QtBot, make_window: MakeWindow) -> None:
    character = blank("runarcana", level=4, abilities={"con": 12})
    window = make_window(character)
    before = int(label(window, "Maximum hit points"))

    type_into(qtbot, find(window, QSpinBox, "Constitution score"), "14")

    assert label(window, "Constitution modifier") == "+2"
    assert int(label(window, "Maximum hit points")) == before + 4  # RULES.md E: level 4, +1 → +2


def test_pf2e_attribute_and_bulk(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    type_into(qtbot, find(window, QSpinBox, "Strength modifier"), "0")
    assert label(window, "Carried load") == "5 / 10 Bulk"
    assert "Unencumbered" in sheet_of(window).inventory.state.text()
    type_into(qtbot, find(window, QSpinBox, "Strength modifier"), "-1")
    assert label(window, "Carried load") == "5 / 9 Bulk"
    assert "Encumbered" in sheet_of(window).inventory.state.text()
    assert "clumsy 1" in sheet_of(window).inventory.state.text()


def test_d20srd_shows_touch_and_flat_footed_only_there(make_window: MakeWindow) -> None:
    d20 = make_window("d20srd")
    assert {"ac", "ac:touch", "ac:flat_footed"} <= set(sheet_of(d20).defense.buttons)
    for system in ("runarcana", "pf2e"):
        window = make_window(system)
        assert set(sheet_of(window).defense.buttons) == {"ac"}
    runarcana = make_window("runarcana")
    headers = sheet_of(runarcana).inventory.model.headers
    assert "Bulk" not in headers and "Weight (kg)" in headers


def test_only_changed_widgets_update(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    binder = window.binder
    calls: list[str] = []
    binder.bind_derived(("stat", "skill:stealth"), lambda s: calls.append("stealth"))
    calls.clear()
    type_into(qtbot, find(window, QSpinBox, "Charisma score"), "12")
    assert calls == []  # Stealth doesn't use Charisma: not touched
    type_into(qtbot, find(window, QSpinBox, "Dexterity score"), "16")
    assert calls and set(calls) == {"stealth"}  # "1", then "16"
    total = sum(len(v) for v in binder._derived.values())
    assert binder.updates < total / 2


def test_edits_are_one_undo_stream(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    spin = find(window, QSpinBox, "Strength score")
    assert not window.isWindowModified()
    type_into(qtbot, spin, "12")
    assert window.isWindowModified()
    assert label(window, "Strength modifier") == "+1"
    stack = window.document.undo_stack
    assert stack.count() == 1  # "1" then "12": one merged edit
    window.act_undo.trigger()
    assert spin.value() == 8
    assert label(window, "Strength modifier") == "−1"
    assert not window.isWindowModified()
    window.act_redo.trigger()
    assert spin.value() == 12
    assert stack.count() == 1  # refreshing the widget didn't echo back as a new edit


def level_rolls(window: MainWindow) -> NumberListEdit:
    return find(window, NumberListEdit, "Rolls, level 2+")


def test_rejected_edit_leaves_model_and_says_why(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    rolls = level_rolls(window)
    rolls.setText("4, 9")
    rolls.editingFinished.emit()
    assert window.document.value(("hit_points", "level_rolls")) == [4, 5]
    assert rolls.text() == "4, 5"
    message = window.statusBar().currentMessage()
    assert "higher than the hit die" in message and "kept 5" in message
    assert window.document.undo_stack.count() == 0


def test_level_rolls_keep_the_good_entries(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")  # d6, rolls 4, 5
    rolls = level_rolls(window)
    rolls.setText("3, 9, 2")
    rolls.editingFinished.emit()
    assert window.document.value(("hit_points", "level_rolls")) == [3, 5, 2]
    assert rolls.text() == "3, 5, 2"
    assert "higher than the hit die" in window.statusBar().currentMessage()
    rolls.setText("3, 5, 2, 0, 4")  # a bad new entry: the ones after it are not moved up
    rolls.editingFinished.emit()
    assert window.document.value(("hit_points", "level_rolls")) == [3, 5, 2]
    assert "1 more left off" in window.statusBar().currentMessage()
    assert window.document.undo_stack.count() == 1


def test_a_smaller_hit_die_caps_the_rolls_in_one_step(make_window: MakeWindow) -> None:
    window = make_window("runarcana")  # d6, rolls 4, 5
    die = find(window, QComboBox, "Hit die")
    die.setCurrentIndex(die.findText("d4"))
    assert window.document.value(("hit_points", "hit_die")) == 4
    assert window.document.value(("hit_points", "level_rolls")) == [4, 4]
    assert level_rolls(window).text() == "4, 4"
    assert window.document.undo_stack.count() == 1
    window.act_undo.trigger()
    assert window.document.value(("hit_points", "level_rolls")) == [4, 5]
    assert die.currentText() == "d6"


def test_a_save_proficiency_box_removes_the_entry(make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    box = find(window, QCheckBox, "Strength save proficiency")
    box.setChecked(True)
    assert window.document.value(("saves", "str")) == "proficient"
    box.setChecked(False)
    assert "str" not in window.document.value(("saves",))


@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, "This plugin does not support raise()")  # the tooltip
def test_derived_numbers_have_breakdown_tooltips(make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    tip = hover_tooltip(find(window, QPushButton, "Stealth total"))
    assert "Cloak of the Shadows" in tip and "Dexterity" in tip
    modifier = find(window, QLabel, "Strength modifier")
    assert modifier.property("derived") is True
    assert modifier.font().bold()
    assert "Entered score" in hover_tooltip(modifier)
    assert "Level 1: hit die maximum" in hover_tooltip(find(window, QLabel, "Maximum hit points"))
