"""The Weapons tab: a row per weapon from the snapshot, attacks and damage one click from a
roll, later attacks with their penalty, critical hits and their confirmation, the editor."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLineEdit, QPushButton, QSpinBox, QToolButton
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.damage import roll_damage
from sheet_app.derived import Statistic
from sheet_app.rolls import CheckRoll, follow_up_statistic, format_log, roll_statistic
from sheet_app.rules.weapons import weapon_ids
from tests.ui.helpers import (
    OFFSCREEN_NOISE,
    MakeWindow,
    click,
    find,
    hover_tooltip,
    lines,
    press,
    sheet_of,
    type_text,
)
from ui.format import damage_text, signed
from ui.main_window import MainWindow
from ui.roll_panel import log_records
from ui.sections.weapons import WeaponEditor, WeaponsPanel


def weapons_of(window: MainWindow) -> WeaponsPanel:
    sheet = sheet_of(window)
    assert sheet.tabs.currentWidget() is sheet.weapons  # the tab a fight needs is open
    return sheet.weapons


def attack(window: MainWindow, key: str) -> Statistic:
    return window.document.derived.statistics[f"attack:{key}"]


def seed_where(stat: Statistic, system: str, dc: int,
               wanted: Callable[[CheckRoll, CheckRoll], bool]) -> int:
    """The first seed whose rolls (attack, then a second d20) satisfy ``wanted``."""
    for seed in range(5000):
        rng = random.Random(seed)
        first = roll_statistic(stat, system, rng, dc=dc)
        second = roll_statistic(stat, system, rng, dc=dc)
        if wanted(first, second):
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("system", registry.known_ids())
def test_the_section_lists_the_samples_weapons(system: str, make_window: MakeWindow) -> None:
    window = make_window(system)
    panel = weapons_of(window)
    derived = window.document.derived
    weapons = weapon_ids(window.document.character.weapons)
    assert weapons, "every sample has weapons"
    assert len(panel.rows) == len(weapons)
    for row, (key, weapon) in zip(panel.rows, weapons, strict=True):
        stat = derived.statistics[f"attack:{key}"]
        damage = derived.damage[f"damage:{key}"]
        assert row.name.text() == weapon.name
        assert row.attack.text() == signed(stat.modifier)
        assert row.damage.text() == damage_text(damage)
        assert damage.expression in row.damage.text()
        assert [b.text() for b in row.follow_ups] == [
            signed(stat.modifier + penalty) for _, penalty in stat.follow_ups]
        assert row.attack.accessibleName() == f"{weapon.name} attack"
    assert not panel.empty.isVisible()


def test_rules_examples_read_on_the_sheet(make_window: MakeWindow) -> None:
    """RULES.md: pf2e level 5, expert, Str +4, longsword 1d8, potency 1, striking 1."""
    character = registry.get("pf2e").sample()
    data = character.dump()
    data.update(level=5, effects=[], weapon_proficiency="trained")
    data["abilities"]["str"] = 4
    data["weapons"] = [{"name": "Longsword", "damage": "1d8", "damage_type": "slashing",
                        "potency": 1, "striking": 1, "rank": "expert"}]
    window = make_window(registry.get("pf2e").model.model_validate(data))
    row = weapons_of(window).row("Longsword")
    assert row.attack.text() == "+14"
    assert row.damage.text() == "2d8+4 (6–20) slashing"
    assert [b.text() for b in row.follow_ups] == ["+9", "+4"]


def test_clicking_attack_and_damage_rolls_them(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("dnd5e", seed=7)
    roll_panel = window.roll_panel
    roll_panel.dc.setValue(12)
    row = weapons_of(window).row("Longsword")
    stat = attack(window, "longsword")
    with qtbot.waitSignal(roll_panel.rolled) as rolled:
        click(row.attack)
    rng = random.Random(7)
    expected = roll_statistic(stat, "dnd5e", rng, dc=12)
    assert rolled.args[0].dice == expected.dice and rolled.args[0].total == expected.total
    assert roll_panel.stat_id == "attack:longsword"
    assert roll_panel.title.text() == "Longsword"
    assert roll_panel.attack_actions.isVisible()

    steps = window.document.undo_stack.count()
    click(row.damage)
    damage = window.document.derived.damage["damage:longsword"]
    expected_damage = roll_damage(damage, rng)
    shown = roll_panel.last_damage
    assert shown is not None
    assert (shown.dice, shown.total, shown.critical) == (
        expected_damage.dice, expected_damage.total, False)
    assert shown.expression in roll_panel.result.text()
    assert str(shown.total) in roll_panel.result.text()
    assert window.document.undo_stack.count() == steps + 1  # one undo step

    record = log_records(window.document.character.roll_log)[-1]
    assert (record.kind, record.statistic, record.natural) == ("damage", "damage:longsword",
                                                               None)
    assert record.dice == list(shown.dice) and record.total == shown.total
    assert record.text == shown.summary()
    log = roll_panel.log_model
    assert log.index(0, 1).data() == "Longsword damage"
    assert log.index(0, 2).data() == ", ".join(map(str, shown.dice))
    assert log.index(0, 3).data() == str(shown.total)
    assert log.index(0, 4).data() == "Damage"
    assert shown.summary() in log.as_text()
    assert log.as_text() == format_log(log.records())

    window.act_undo.trigger()
    assert len(window.document.character.roll_log) == 1


def test_pf2e_multiple_attack_penalty_button(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("pf2e", seed=3)
    roll_panel = window.roll_panel
    row = weapons_of(window).row("Longsword")
    stat = attack(window, "longsword")
    assert stat.follow_ups[0] == ("2nd Strike", -5)
    second = find(sheet_of(window), QToolButton, "Longsword 2nd Strike")
    with qtbot.waitSignal(roll_panel.rolled) as rolled:
        click(second)
    result = rolled.args[0]
    assert result.total_modifier == stat.modifier - 5
    expected = roll_statistic(follow_up_statistic(stat, 1), "pf2e", random.Random(3), dc=15)
    assert result.total == expected.total
    assert lines(roll_panel.breakdown)["2nd Strike"][:2] == ("−5", "✔")
    assert roll_panel.total.text() == signed(stat.modifier - 5)
    assert roll_panel.title.text() == "Longsword, 2nd Strike"
    record = log_records(window.document.character.roll_log)[-1]
    assert any(m.label == "2nd Strike" and m.value == -5 for m in record.modifiers)

    # the panel's own Roll keeps the later attack; the attack's total is the first again
    click(roll_panel.buttons["normal"])
    assert roll_panel.last is not None and roll_panel.last.total_modifier == stat.modifier - 5
    click(row.attack)
    assert roll_panel.last.total_modifier == stat.modifier
    assert "2nd Strike" not in lines(roll_panel.breakdown)
    assert roll_panel.title.text() == "Longsword"
    assert roll_panel.total.text() == signed(stat.modifier)


def test_pf2e_agile_weapon_has_its_own_penalties(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    stat = attack(window, "shortsword")
    assert [p for _, p in stat.follow_ups] == [-4, -8]
    row = weapons_of(window).row("Shortsword")
    assert [b.text() for b in row.follow_ups] == [signed(stat.modifier - 4),
                                                  signed(stat.modifier - 8)]


def test_pf2e_critical_success_is_a_critical_hit(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    stat = attack(window, "longsword")
    dc = 20
    seed = seed_where(stat, "pf2e", dc, lambda a, _b: a.outcome == "critical_success")
    window.roll_panel.rng = random.Random(seed)
    window.roll_panel.dc.setValue(dc)
    click(weapons_of(window).row("Longsword").attack)
    actions = window.roll_panel.attack_actions
    assert "Critical hit" in actions.note.text()
    assert not actions.confirm.isVisible()
    assert actions.critical.isVisible() and not actions.damage.isVisible()
    click(actions.critical)
    rolled = window.roll_panel.last_damage
    assert rolled is not None and rolled.critical and rolled.expression == "2×(2d8+4)"
    assert rolled.total % 2 == 0
    assert "2×(2d8+4)" in window.roll_panel.result.text()


def test_5e_natural_20_is_a_critical_hit(make_window: MakeWindow) -> None:
    window = make_window("dnd5e")
    stat = attack(window, "longsword")
    seed = seed_where(stat, "dnd5e", 30, lambda a, _b: a.natural == 20)
    window.roll_panel.rng = random.Random(seed)
    window.roll_panel.dc.setValue(30)
    click(weapons_of(window).row("Longsword").attack)
    actions = window.roll_panel.attack_actions
    assert "Critical hit" in actions.note.text()
    click(actions.critical)
    rolled = window.roll_panel.last_damage
    assert rolled is not None and rolled.critical and len(rolled.dice) == 2  # 1d8 twice


def test_d20srd_threat_confirmed_rolls_multiplied_damage(make_window: MakeWindow) -> None:
    window = make_window("d20srd")
    stat = attack(window, "light_crossbow")
    assert stat.threat == 19 and stat.confirm
    dc = 15
    seed = seed_where(stat, "d20srd", dc, lambda a, b: a.natural == 19 and b.total >= dc)
    roll_panel = window.roll_panel
    roll_panel.rng = rng = random.Random(seed)
    roll_panel.dc.setValue(dc)
    click(weapons_of(window).row("Light crossbow").attack)
    actions = roll_panel.attack_actions
    assert "Critical threat" in actions.note.text()
    assert actions.confirm.isVisible() and actions.damage.isVisible()
    assert not actions.critical.isVisible()

    expected = random.Random(seed)
    roll_statistic(stat, "d20srd", expected, dc=dc)
    confirmation = roll_statistic(stat, "d20srd", expected, dc=dc)
    before = len(window.document.character.roll_log)
    click(actions.confirm)
    assert roll_panel.last is not None and roll_panel.last.total == confirmation.total
    assert roll_panel.last.dc == dc
    assert "Critical hit confirmed" in actions.note.text()
    assert not actions.confirm.isVisible()
    assert len(window.document.character.roll_log) == before + 1
    assert "confirm" in log_records(window.document.character.roll_log)[-1].label

    click(actions.critical)
    damage = window.document.derived.damage["damage:light_crossbow"]
    want = roll_damage(damage, expected, critical=True)
    rolled = roll_panel.last_damage
    assert rolled is not None and rolled.critical
    assert (rolled.dice, rolled.total, rolled.expression) == (want.dice, want.total, "2d8")
    assert len(rolled.dice) == 2  # ×2: the weapon's die twice
    assert rng.random() == expected.random()  # the panel drew exactly those dice


def test_d20srd_threat_not_confirmed(make_window: MakeWindow) -> None:
    window = make_window("d20srd")
    stat = attack(window, "light_crossbow")
    dc = 25
    seed = seed_where(stat, "d20srd", dc, lambda a, b: (
        a.natural == 19 and a.outcome == "success" and b.total < dc and b.natural != 20))
    window.roll_panel.rng = random.Random(seed)
    window.roll_panel.dc.setValue(dc)
    click(weapons_of(window).row("Light crossbow").attack)
    actions = window.roll_panel.attack_actions
    click(actions.confirm)
    assert "not confirmed" in actions.note.text()
    assert actions.damage.isVisible() and not actions.critical.isVisible()


def test_a_miss_in_the_threat_range_is_no_threat(make_window: MakeWindow) -> None:
    window = make_window("d20srd")
    stat = attack(window, "light_crossbow")
    dc = 30
    seed = seed_where(stat, "d20srd", dc, lambda a, _b: a.natural == 19)
    window.roll_panel.rng = random.Random(seed)
    window.roll_panel.dc.setValue(dc)
    click(weapons_of(window).row("Light crossbow").attack)
    actions = window.roll_panel.attack_actions
    assert not actions.confirm.isVisible()
    assert not actions.note.isVisible()


def test_other_rolls_hide_the_attack_actions(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    click(weapons_of(window).row("Longsword").attack)
    assert window.roll_panel.attack_actions.isVisible()
    window.selection.roll("skill:athletics")
    assert not window.roll_panel.attack_actions.isVisible()
    # the generic attack rows have no damage to roll
    window.selection.roll("attack:melee")
    actions = window.roll_panel.attack_actions
    assert not actions.damage.isVisible() and not actions.critical.isVisible()


def open_editor(window: MainWindow, name: str) -> WeaponEditor:
    panel = weapons_of(window)
    click(panel.row(name).edit)
    editor = panel.editor
    assert editor is not None and editor.isVisible()
    return editor


def test_editing_potency_is_one_undo_step(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    document = window.document
    # without the sample's +2 item effect, so the rune's item bonus counts
    document.set(("effects",), [e for e in document.character.effects
                                if e.name != "Weapon potency"], "drop")
    row = weapons_of(window).row("Longsword")
    before = attack(window, "longsword").modifier
    assert row.attack.text() == signed(before)
    editor = open_editor(window, "Longsword")
    potency = find(editor, QSpinBox, "Potency rune")
    steps = document.undo_stack.count()
    potency.setValue(potency.value() + 1)
    assert document.undo_stack.count() == steps + 1
    assert attack(window, "longsword").modifier == before + 1
    assert row.attack.text() == signed(before + 1)
    assert signed(before + 1) in editor.preview.text()
    window.act_undo.trigger()
    assert row.attack.text() == signed(before)
    assert potency.value() == document.character.weapons[0].potency  # the editor follows
    editor.close()


def test_editor_renames_and_sets_damage(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("dnd5e")
    editor = open_editor(window, "Longsword")
    name = find(editor, QLineEdit, "Weapon name")
    name.selectAll()
    type_text(name, "Greatsword")
    panel = weapons_of(window)
    assert panel.rows[0].name.text() == "Greatsword"
    assert "attack:greatsword" in window.document.derived.statistics
    assert panel.rows[0].stat_id == "attack:greatsword"

    dice = find(editor, QLineEdit, "Damage dice")
    dice.setFocus()
    dice.selectAll()
    type_text(dice, "2d6")
    assert window.document.character.weapons[0].damage == "1d8"  # not before it is done
    press(dice, Qt.Key.Key_Return)
    assert window.document.character.weapons[0].damage == "2d6"
    assert panel.rows[0].damage.text().startswith("2d6+")

    dice.selectAll()
    type_text(dice, "2d")
    press(dice, Qt.Key.Key_Return)  # not a damage: refused, put back, said why
    assert window.document.character.weapons[0].damage == "2d6"
    assert dice.text() == "2d6"
    assert editor.problem.isVisibleTo(editor) and "damage" in editor.problem.text()
    proficient = find(editor, QCheckBox, "Proficient")
    total = attack(window, "greatsword").modifier
    proficient.setChecked(False)
    assert attack(window, "greatsword").modifier < total
    editor.close()


def test_d20srd_critical_range_on_a_weapon_without_one(make_window: MakeWindow) -> None:
    window = make_window("d20srd")
    editor = open_editor(window, "Throwing axe")
    threat = find(editor, QSpinBox, "Threat range from")
    multiplier = find(editor, QSpinBox, "Critical ×")
    assert (threat.value(), multiplier.value()) == (20, 2)  # the model's defaults
    threat.setValue(19)
    critical = window.document.character.weapons[2].critical
    assert critical is not None and (critical.range, critical.multiplier) == (19, 2)
    assert attack(window, "throwing_axe").threat == 19
    assert weapons_of(window).row("Throwing axe").critical.text() == "19–20/×2"
    editor.close()


def test_add_and_remove_weapons(make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    panel = weapons_of(window)
    document = window.document
    count = len(document.character.weapons)
    click(panel.add)
    assert len(document.character.weapons) == count + 1
    assert len(panel.rows) == count + 1
    editor = panel.editor
    assert editor is not None and editor.isVisible()
    assert editor.index == count
    added = document.character.weapons[-1].name
    assert panel.rows[-1].name.text() == added
    assert f"attack:{panel.rows[-1].key}" in document.derived.statistics
    editor.close()

    click(find(sheet_of(window), QToolButton, f"Remove {added}"))
    assert len(document.character.weapons) == count
    assert len(panel.rows) == count
    window.act_undo.trigger()
    assert len(panel.rows) == count + 1

    # the editor's Remove closes it; undo brings the weapon back
    first = document.character.weapons[0].name
    editor = open_editor(window, first)
    remover = next(b for b in editor.findChildren(QPushButton) if b.text() == "Remove weapon")
    click(remover)
    assert not editor.isVisible()
    assert first not in [w.name for w in document.character.weapons]
    window.act_undo.trigger()
    assert document.character.weapons[0].name == first

    document.set(("weapons",), [], "no weapons")
    assert panel.rows == [] and panel.empty.isVisibleTo(panel)


def test_editor_closes_when_its_weapon_goes(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    editor = open_editor(window, "Javelin")
    window.document.remove(("weapons",), 2, "gone")
    assert not editor.isVisible()


@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, "This plugin does not support raise()")  # the tip
def test_damage_tooltip_and_critical_menu(make_window: MakeWindow) -> None:
    window = make_window("d20srd")
    row = weapons_of(window).row("Dwarven waraxe")
    assert row.critical.text() == "×3"
    explained = row.damage.explanation()
    assert "Critical: 3d10+9" in explained
    assert "Critical: 3d10+9" in hover_tooltip(row.damage)
    assert "Base attack bonus" in hover_tooltip(row.attack)
    row.roll_damage(True)
    rolled = window.roll_panel.last_damage
    assert rolled is not None and rolled.critical and len(rolled.dice) == 3
