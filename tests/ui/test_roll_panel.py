"""Clicking a skill's die rolls it; the panel explains every modifier and logs the roll."""

from __future__ import annotations

import random

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton, QToolButton
from pytestqt.qtbot import QtBot

from sheet_app.model import Effect, Modifier, new_character
from sheet_app.rolls import format_log, roll_statistic
from tests.ui.helpers import find
from tests.ui.test_effects import item_bonus, lines
from ui.roll_panel import log_records


def stealthy_pf2e() -> object:
    character = new_character("pf2e", "Sly")
    character.abilities.dex = 3
    character.skills = {"stealth": "expert"}
    character.effects = [item_bonus("Cloak", 2), item_bonus("Ring", 1)]
    return character


def test_click_skill_die_rolls_and_explains(qtbot: QtBot, make_window: object) -> None:
    window = make_window(stealthy_pf2e(), seed=42)  # type: ignore[operator]
    panel = window.roll_panel  # type: ignore[attr-defined]
    panel.dc.setValue(20)
    die = find(window, QToolButton, "Roll Stealth")
    with qtbot.waitSignal(panel.rolled) as rolled:
        qtbot.mouseClick(die, Qt.MouseButton.LeftButton)
    result = rolled.args[0]

    # the same seed through the shared roll function gives the same dice
    stat = window.document.derived.statistics["skill:stealth"]  # type: ignore[attr-defined]
    expected = roll_statistic(stat, "pf2e", random.Random(42), dc=20)
    assert result.dice == expected.dice and result.total == expected.total

    assert panel.title.text() == "Stealth"
    assert panel.total.text() == "+10"  # Dex 3 + expert (level 1 + 4) + Cloak 2
    shown = lines(panel.breakdown)
    assert shown["Cloak"][1] == "✔"
    assert shown["Ring"][1] == "✘"
    assert shown["Ring"][2] == "↳ a higher item bonus applies (+2 Cloak)"
    model = panel.breakdown
    ring = next(r for r in range(model.rowCount()) if model.rows()[r].text == "Ring")
    assert [model.index(ring, c).data() for c in range(3)] == ["✘", "+1", "Ring"]
    assert model.index(ring + 1, 2).data().strip().startswith("↳ a higher item bonus")
    assert "suppressed: a higher item bonus" in model.index(ring, 2).data(
        Qt.ItemDataRole.ToolTipRole)
    assert model.index(ring, 2).data(Qt.ItemDataRole.FontRole).strikeOut()

    text = panel.result.text()
    assert str(result.natural) in text and str(result.total) in text
    assert result.outcome.replace("_", " ").capitalize() in text
    assert panel.log_model.rowCount() == 1
    assert panel.log_model.index(0, 1).data() == "Stealth"
    assert panel.log_model.index(0, 3).data() == str(result.total)
    assert log_records(window.document.character.roll_log)[-1].total == result.total  # type: ignore[attr-defined]
    assert window.isWindowModified()  # type: ignore[attr-defined]


def test_odds_before_rolling_follow_dc(make_window: object) -> None:
    window = make_window(stealthy_pf2e())  # type: ignore[operator]
    window.selection.select("skill:stealth")  # type: ignore[attr-defined]
    panel = window.roll_panel  # type: ignore[attr-defined]
    panel.dc.setValue(20)  # +10: 10 on the die succeeds, 20 crits, 1 fumbles
    assert panel.odds.text() == (
        "Crit. success 5% · Success 50% · Failure 40% · Crit. failure 5%"
    )
    panel.dc.setValue(0)
    assert panel.odds.text() == ""


def test_advantage_shows_both_dice_and_kept_one(make_window: object) -> None:
    window = make_window("runarcana", seed=3)  # type: ignore[operator]
    panel = window.roll_panel  # type: ignore[attr-defined]
    window.selection.roll("skill:athletics", "advantage")  # type: ignore[attr-defined]
    result = panel.last
    assert result.mode == "advantage" and len(result.dice) == 2
    assert result.natural == max(result.dice)
    assert "<s>" in panel.result.text()  # the dropped die is struck through
    assert set(panel.buttons) == {"normal", "advantage", "disadvantage"}


def test_modes_per_system(make_window: object) -> None:
    assert set(make_window("pf2e").roll_panel.buttons) == {  # type: ignore[operator]
        "normal", "fortune", "misfortune"}
    d20 = make_window("d20srd")  # type: ignore[operator]
    assert set(d20.roll_panel.buttons) == {"normal"}
    assert not d20.act_roll_up.isVisible()


def test_ac_is_not_rolled(make_window: object) -> None:
    window = make_window("d20srd")  # type: ignore[operator]
    find(window, QPushButton, "Armor Class").click()
    panel = window.roll_panel  # type: ignore[attr-defined]
    assert panel.title.text() == "Armor Class"
    assert not panel.buttons["normal"].isEnabled()
    assert "not rolled" in panel.notes.text()
    touch = find(window, QPushButton, "Touch AC")
    touch.click()
    assert panel.stat_id == "ac:touch"


def test_enter_and_shortcut_roll_and_log_copies(qtbot: QtBot, make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    panel = window.roll_panel  # type: ignore[attr-defined]
    window.selection.select("skill:stealth")  # type: ignore[attr-defined]
    panel.dc.setFocus()
    qtbot.keyClick(panel.dc, Qt.Key.Key_Return)
    assert panel.log_model.rowCount() == 1
    window.act_roll.trigger()  # type: ignore[attr-defined]
    assert panel.log_model.rowCount() == 2
    panel.copy.click()
    copied = QGuiApplication.clipboard().text()
    assert copied == format_log(panel.log_model.records())
    assert copied.count("\n") == 1 and "Stealth" in copied
    window.act_undo.trigger()  # type: ignore[attr-defined]
    assert panel.log_model.rowCount() == 1
    panel.clear.click()
    assert panel.log_model.rowCount() == 0


def test_panel_follows_selection_and_edits(qtbot: QtBot, make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    panel = window.roll_panel  # type: ignore[attr-defined]
    find(window, QPushButton, "Arcana total").click()
    assert panel.title.text() == "Arcana"
    before = panel.total.text()
    window.document.set(("abilities", "int"), 18)  # type: ignore[attr-defined]
    assert panel.total.text() != before
    window.document.set(("effects",), [Effect(name="Hex", modifiers=[  # type: ignore[attr-defined]
        Modifier(mode="disadvantage", targets=["skill:arcana"])])])
    assert panel.mode_note.text() == "Disadvantage from Hex"


def test_context_menu_offers_the_systems_modes(make_window: object) -> None:
    from ui.widgets import roll_menu

    window = make_window("pf2e", seed=9)  # type: ignore[operator]
    menu = roll_menu(window.ctx, "skill:athletics", window)  # type: ignore[attr-defined]
    texts = [a.text() for a in menu.actions()]
    assert texts == ["Roll", "Roll with fortune", "Roll with misfortune"]
    menu.actions()[1].trigger()
    result = window.roll_panel.last  # type: ignore[attr-defined]
    assert result.statistic == "skill:athletics" and result.mode == "fortune"
    assert len(result.dice) == 2
    d20 = make_window("d20srd")  # type: ignore[operator]
    assert [a.text() for a in roll_menu(d20.ctx, "skill:spot", d20).actions()] == ["Roll"]


def test_enter_on_a_focused_total_rolls_it(qtbot: QtBot, make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    total = find(window, QPushButton, "Insight total")
    total.setFocus()
    qtbot.keyClick(total, Qt.Key.Key_Space)
    assert window.roll_panel.title.text() == "Insight"  # type: ignore[attr-defined]
    assert window.roll_panel.log_model.rowCount() == 0  # type: ignore[attr-defined]
    qtbot.keyClick(total, Qt.Key.Key_Return)
    assert window.roll_panel.log_model.rowCount() == 1  # type: ignore[attr-defined]
    assert window.roll_panel.last.statistic == "skill:insight"  # type: ignore[attr-defined]


def test_runarcana_skill_rolled_with_another_ability(qtbot: QtBot, make_window: object) -> None:
    from PySide6.QtWidgets import QSpinBox

    from tests.ui.helpers import type_into
    from ui.widgets import roll_menu

    window = make_window("runarcana")  # type: ignore[operator]
    menu = roll_menu(window.ctx, "skill:athletics", window)  # type: ignore[attr-defined]
    sub = next(a.menu() for a in menu.actions() if a.text() == "Roll with another ability")
    names = [a.text() for a in sub.actions()]
    assert "Constitution" in names and "Strength" not in names  # not its own ability
    next(a for a in sub.actions() if a.text() == "Constitution").trigger()

    panel = window.roll_panel  # type: ignore[attr-defined]
    assert panel.title.text() == "Constitution (Athletics)"
    assert log_records(window.document.character.roll_log)[-1].label == (  # type: ignore[attr-defined]
        "Constitution (Athletics)")
    before = panel.total.text()
    type_into(qtbot, find(window, QSpinBox, "Constitution score"), "20")  # type: ignore[arg-type]
    assert panel.total.text() != before  # it stays live like any statistic
    assert window.document.derived.statistics["skill:athletics@con"].total == 5  # type: ignore[attr-defined]


def test_typical_dcs_of_the_system_fill_the_dc(make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    panel = window.roll_panel  # type: ignore[attr-defined]
    menu = panel.dc_presets.menu()
    menu.aboutToShow.emit()
    texts = [a.text() for a in menu.actions()]
    assert texts[0] == "Very easy  5" and texts[-1] == "Nearly impossible  30"
    next(a for a in menu.actions() if a.text().startswith("Hard")).trigger()
    assert panel.dc.value() == 20
    assert "%" in panel.odds.text()
