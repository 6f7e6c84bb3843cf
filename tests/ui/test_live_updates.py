"""Typing a score updates every number that depends on it, at once, and nothing else."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app.model import Item, new_character
from tests.ui.conftest import OFFSCREEN_NOISE
from tests.ui.helpers import find, hover_tooltip, type_into
from ui.widgets import DerivedLabel


def label(window: object, name: str) -> str:
    widget = find(window, DerivedLabel, name)  # type: ignore[arg-type]
    return widget.text()


def stat(window: object, name: str) -> str:
    return find(window, QPushButton, name).text()  # type: ignore[arg-type]


def test_strength_changes_modifier_skills_capacity_and_encumbrance(
    qtbot: QtBot, make_window: object
) -> None:
    character = new_character("runarcana", "Porter")
    character.inventory = [Item(name="Pack", quantity=1, weight=40.0)]
    window = make_window(character)  # type: ignore[operator]
    assert label(window, "Strength modifier") == "+0"
    assert stat(window, "Athletics total") == "+0"
    assert label(window, "Carried load") == "40 / 70 kg"
    state = window.sheet.inventory.state  # type: ignore[attr-defined]
    assert "Encumbered" in state.text()
    assert label(window, "Speed") == "20 ft"

    type_into(qtbot, find(window, QSpinBox, "Strength score"), "18")  # type: ignore[arg-type]

    assert window.document.character.abilities.str == 18  # type: ignore[attr-defined]
    assert label(window, "Strength modifier") == "+4"
    assert stat(window, "Athletics total") == "+4"
    assert stat(window, "Strength save total") == "+4"
    assert label(window, "Carried load") == "40 / 126 kg"
    assert "Unencumbered" in state.text()
    assert label(window, "Speed") == "30 ft"
    assert "Carrying 40 of 126 kg" in window.sheet.inventory.bar.accessibleDescription()  # type: ignore[attr-defined]


def test_wisdom_changes_perception_and_passive(qtbot: QtBot, make_window: object) -> None:
    character = new_character("runarcana")
    character.skills = {"perception": "proficient"}
    window = make_window(character)  # type: ignore[operator]
    assert stat(window, "Perception total") == "+2"
    assert label(window, "Passive Perception") == "12"

    type_into(qtbot, find(window, QSpinBox, "Wisdom score"), "15")  # type: ignore[arg-type]

    assert label(window, "Wisdom modifier") == "+2"
    assert stat(window, "Perception total") == "+4"
    assert stat(window, "Insight total") == "+2"
    assert label(window, "Passive Perception") == "14"  # RULES.md E: level 1, Wis 15, proficient
    assert label(window, "Passive Insight") == "12"


def test_constitution_changes_max_hp(qtbot: QtBot, make_window: object) -> None:
    character = new_character("runarcana")
    character.level = 4
    character.abilities.con = 12
    window = make_window(character)  # type: ignore[operator]
    before = int(label(window, "Maximum hit points"))

    type_into(qtbot, find(window, QSpinBox, "Constitution score"), "14")  # type: ignore[arg-type]

    assert label(window, "Constitution modifier") == "+2"
    assert int(label(window, "Maximum hit points")) == before + 4  # RULES.md E: level 4, +1 → +2


def test_pf2e_attribute_and_bulk(qtbot: QtBot, make_window: object) -> None:
    window = make_window("pf2e")  # type: ignore[operator]
    type_into(qtbot, find(window, QSpinBox, "Strength modifier"), "0")  # type: ignore[arg-type]
    assert label(window, "Carried load") == "5 / 10 Bulk"
    assert "Unencumbered" in window.sheet.inventory.state.text()  # type: ignore[attr-defined]
    type_into(qtbot, find(window, QSpinBox, "Strength modifier"), "-1")  # type: ignore[arg-type]
    assert label(window, "Carried load") == "5 / 9 Bulk"
    assert "Encumbered" in window.sheet.inventory.state.text()  # type: ignore[attr-defined]
    assert "clumsy 1" in window.sheet.inventory.state.text()  # type: ignore[attr-defined]


def test_d20srd_shows_touch_and_flat_footed_only_there(make_window: object) -> None:
    d20 = make_window("d20srd")  # type: ignore[operator]
    assert {"ac", "ac:touch", "ac:flat_footed"} <= set(d20.sheet.defense.buttons)  # type: ignore[attr-defined]
    for system in ("runarcana", "pf2e"):
        window = make_window(system)  # type: ignore[operator]
        assert set(window.sheet.defense.buttons) == {"ac"}  # type: ignore[attr-defined]
    runarcana = make_window("runarcana")  # type: ignore[operator]
    headers = runarcana.sheet.inventory.model.headers  # type: ignore[attr-defined]
    assert "Bulk" not in headers and "Weight (kg)" in headers


def test_only_changed_widgets_update(qtbot: QtBot, make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    binder = window.binder  # type: ignore[attr-defined]
    calls: list[str] = []
    binder.bind_derived(("stat", "skill:stealth"), lambda s: calls.append("stealth"))
    calls.clear()
    type_into(qtbot, find(window, QSpinBox, "Charisma score"), "12")  # type: ignore[arg-type]
    assert calls == []  # Stealth doesn't use Charisma: not touched
    type_into(qtbot, find(window, QSpinBox, "Dexterity score"), "16")  # type: ignore[arg-type]
    assert calls and set(calls) == {"stealth"}  # "1", then "16"
    total = sum(len(v) for v in binder._derived.values())
    assert binder.updates < total / 2


def test_edits_are_one_undo_stream(qtbot: QtBot, make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    spin = find(window, QSpinBox, "Strength score")
    assert not window.isWindowModified()  # type: ignore[attr-defined]
    type_into(qtbot, spin, "12")  # type: ignore[arg-type]
    assert window.isWindowModified()  # type: ignore[attr-defined]
    assert label(window, "Strength modifier") == "+1"
    stack = window.document.undo_stack  # type: ignore[attr-defined]
    assert stack.count() == 1  # "1" then "12": one merged edit
    window.act_undo.trigger()  # type: ignore[attr-defined]
    assert spin.value() == 8  # type: ignore[attr-defined]
    assert label(window, "Strength modifier") == "−1"
    assert not window.isWindowModified()  # type: ignore[attr-defined]
    window.act_redo.trigger()  # type: ignore[attr-defined]
    assert spin.value() == 12  # type: ignore[attr-defined]
    assert stack.count() == 1  # refreshing the widget didn't echo back as a new edit


def test_rejected_edit_leaves_model_and_says_why(qtbot: QtBot, make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    rolls = window.sheet.hit_points.rolls  # type: ignore[attr-defined]
    rolls.setText("4, 9")
    rolls.editingFinished.emit()
    assert window.document.character.hit_points.level_rolls == [4, 5]  # type: ignore[attr-defined]
    assert rolls.text() == "4, 5"
    assert "higher than the hit die" in window.statusBar().currentMessage()  # type: ignore[attr-defined]
    assert window.document.undo_stack.count() == 0  # type: ignore[attr-defined]


@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, "This plugin does not support raise()")  # the tooltip
def test_derived_numbers_have_breakdown_tooltips(make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    tip = hover_tooltip(find(window, QPushButton, "Stealth total"))
    assert "Cloak of the Shadows" in tip and "Dexterity" in tip
    modifier = find(window, QLabel, "Strength modifier")
    assert modifier.property("derived") is True
    assert modifier.font().bold()
    assert "Entered score" in hover_tooltip(modifier)
    assert "Level 1: hit die maximum" in hover_tooltip(find(window, QLabel, "Maximum hit points"))
