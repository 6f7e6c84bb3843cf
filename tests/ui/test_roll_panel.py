"""Clicking a skill's die rolls it; the panel explains every modifier and logs the roll."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu, QPushButton, QSpinBox, QToolButton
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.checks import ResolvedMode, outcomes_for
from sheet_app.derived import Outcome, Statistic
from sheet_app.model import CharacterBase, Effect, Modifier
from sheet_app.records import RollRecord
from sheet_app.rolls import (
    AttackVerdict,
    CheckRoll,
    attack_verdict,
    follow_up_statistic,
    format_log,
    roll_statistic,
)
from sheet_app.systems.pf2e.model import Pf2eCharacter
from tests.ui.helpers import (
    MakeWindow,
    blank,
    click,
    find,
    item_bonus,
    lines,
    press,
    type_into,
)
from ui.roll_panel import (
    OUTCOME_SHORT,
    AttackActions,
    BreakdownList,
    DcRow,
    RollButtons,
    RollLogView,
    RollPanel,
    RollResultView,
    StatHeader,
    log_records,
)
from ui.widgets import roll_menu


def stealthy_pf2e() -> CharacterBase:
    character = registry.get("pf2e").new_character("Sly")
    assert isinstance(character, Pf2eCharacter)
    character.abilities.dex = 3
    character.skills = {"stealth": "expert"}
    character.effects = [item_bonus("Cloak", 2), item_bonus("Ring", 1)]
    return character


def test_click_skill_die_rolls_and_explains(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window(stealthy_pf2e(), seed=42)
    panel = window.roll_panel
    panel.dc.setValue(20)
    die = find(window, QToolButton, "Roll Stealth")
    with qtbot.waitSignal(panel.rolled) as rolled:
        click(die)
    result = rolled.args[0]

    # the same seed through the shared roll function gives the same dice
    stat = window.document.derived.statistics["skill:stealth"]
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
    assert log_records(window.document.character.roll_log)[-1].total == result.total
    assert window.isWindowModified()


def test_the_panel_is_composed_of_documented_parts(make_window: MakeWindow) -> None:
    panel = make_window("pf2e").roll_panel
    parts = (StatHeader, BreakdownList, DcRow, RollButtons, RollResultView, AttackActions,
             RollLogView)
    for part in parts:
        assert part.__doc__, part.__name__
        assert len(panel.findChildren(part)) == 1, part.__name__
    assert panel.title.parentWidget() is panel.header
    assert panel.dc.parentWidget() is panel.dc_row
    assert panel.log.parentWidget() is panel.log_view


def test_odds_before_rolling_follow_dc(make_window: MakeWindow) -> None:
    window = make_window(stealthy_pf2e())
    window.selection.select("skill:stealth")
    panel = window.roll_panel
    panel.dc.setValue(20)  # +10: 10 on the die succeeds, 20 crits, 1 fumbles
    assert panel.odds.text() == (
        "Crit. success 5% · Success 50% · Failure 40% · Crit. failure 5%"
    )
    panel.dc.setValue(0)
    assert panel.odds.text() == ""


@pytest.mark.parametrize("system", registry.known_ids())
def test_odds_name_the_outcomes_the_system_tells_apart(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(system)
    panel = window.roll_panel
    stat_id = next(s for s, stat in window.document.derived.statistics.items() if stat.rollable)
    window.selection.select(stat_id)
    panel.dc.setValue(15)
    shown = [OUTCOME_SHORT[o] for o in outcomes_for(system)
             if OUTCOME_SHORT[o] + " " in panel.odds.text()]
    if registry.get(system).facts.four_degrees:
        assert shown == [OUTCOME_SHORT[o] for o in outcomes_for(system)]
    else:
        assert shown == ["Success"]


def test_advantage_shows_both_dice_and_kept_one(make_window: MakeWindow) -> None:
    window = make_window("runarcana", seed=3)
    panel = window.roll_panel
    window.selection.roll("skill:athletics", "advantage")
    result = panel.last
    assert result is not None
    assert result.mode == "advantage" and len(result.dice) == 2
    assert result.natural == max(result.dice)
    assert "<s>" in panel.result.text()  # the dropped die is struck through
    assert set(panel.buttons) == {"normal", "advantage", "disadvantage"}


@pytest.mark.parametrize("system", registry.known_ids())
def test_modes_per_system(system: str, make_window: MakeWindow) -> None:
    window = make_window(system)
    modes = registry.get(system).facts.roll_modes
    assert list(window.roll_panel.buttons) == ["normal", *modes]
    assert window.act_roll_up.isVisible() == bool(modes)


def test_ac_is_not_rolled(make_window: MakeWindow) -> None:
    window = make_window("d20srd")
    find(window, QPushButton, "Armor Class").click()
    panel = window.roll_panel
    assert panel.title.text() == "Armor Class"
    assert not panel.buttons["normal"].isEnabled()
    assert "not rolled" in panel.notes.text()
    touch = find(window, QPushButton, "Touch AC")
    touch.click()
    assert panel.stat_id == "ac:touch"


def test_enter_and_shortcut_roll_and_log_copies(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    panel = window.roll_panel
    window.selection.select("skill:stealth")
    panel.dc.setFocus()
    press(panel.dc, Qt.Key.Key_Return)
    assert panel.log_model.rowCount() == 1
    window.act_roll.trigger()
    assert panel.log_model.rowCount() == 2
    panel.copy.click()
    copied = QGuiApplication.clipboard().text()
    assert copied == format_log(panel.log_model.records())
    assert copied.count("\n") == 1 and "Stealth" in copied
    window.act_undo.trigger()
    assert panel.log_model.rowCount() == 1
    panel.clear.click()
    assert panel.log_model.rowCount() == 0


def test_panel_follows_selection_and_edits(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    panel = window.roll_panel
    find(window, QPushButton, "Arcana total").click()
    assert panel.title.text() == "Arcana"
    before = panel.total.text()
    window.document.set(("abilities", "int"), 18)
    assert panel.total.text() != before
    window.document.set(("effects",), [Effect(name="Hex", modifiers=[
        Modifier(mode="disadvantage", targets=["skill:arcana"])])])
    assert panel.mode_note.text() == "Disadvantage from Hex"


def test_context_menu_offers_the_systems_modes(make_window: MakeWindow) -> None:
    window = make_window("pf2e", seed=9)
    menu = roll_menu(window.ctx, "skill:athletics", window)
    texts = [a.text() for a in menu.actions()]
    assert texts == ["Roll", "Roll with fortune", "Roll with misfortune"]
    menu.actions()[1].trigger()
    result = window.roll_panel.last
    assert result is not None
    assert result.statistic == "skill:athletics" and result.mode == "fortune"
    assert len(result.dice) == 2
    d20 = make_window("d20srd")
    assert [a.text() for a in roll_menu(d20.ctx, "skill:spot", d20).actions()] == ["Roll"]


def test_enter_on_a_focused_total_rolls_it(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    total = find(window, QPushButton, "Insight total")
    total.setFocus()
    press(total, Qt.Key.Key_Space)
    assert window.roll_panel.title.text() == "Insight"
    assert window.roll_panel.log_model.rowCount() == 0
    press(total, Qt.Key.Key_Return)
    assert window.roll_panel.log_model.rowCount() == 1
    last = window.roll_panel.last
    assert last is not None and last.statistic == "skill:insight"


def test_skill_rolled_with_another_ability(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    menu = roll_menu(window.ctx, "skill:athletics", window)
    sub = next(a.menu() for a in menu.actions() if a.text() == "Roll with another ability")
    assert isinstance(sub, QMenu)
    names = [a.text() for a in sub.actions()]
    assert "Constitution" in names and "Strength" not in names  # not its own ability
    next(a for a in sub.actions() if a.text() == "Constitution").trigger()

    panel = window.roll_panel
    assert panel.title.text() == "Constitution (Athletics)"
    assert log_records(window.document.character.roll_log)[-1].label == (
        "Constitution (Athletics)")
    before = panel.total.text()
    type_into(qtbot, find(window, QSpinBox, "Constitution score"), "20")
    assert panel.total.text() != before  # it stays live like any statistic
    assert window.document.derived.statistics["skill:athletics@con"].total == 5


@pytest.mark.parametrize("system", registry.known_ids())
def test_typical_dcs_of_the_system_fill_the_dc(system: str, make_window: MakeWindow) -> None:
    window = make_window(system)
    panel = window.roll_panel
    typical = registry.get(system).facts.typical_dcs
    menu = panel.dc_presets.menu()
    menu.aboutToShow.emit()
    assert [a.text() for a in menu.actions()] == [f"{name}  {dc}" for name, dc in typical]
    name, dc = typical[len(typical) // 2]
    next(a for a in menu.actions() if a.text() == f"{name}  {dc}").trigger()
    assert panel.dc.value() == dc
    stat_id = next(s for s, stat in window.document.derived.statistics.items() if stat.rollable)
    window.selection.select(stat_id)
    assert "%" in panel.odds.text()


def test_runarcana_typical_dcs_read_as_before(make_window: MakeWindow) -> None:
    panel = make_window("runarcana").roll_panel
    menu = panel.dc_presets.menu()
    menu.aboutToShow.emit()
    texts = [a.text() for a in menu.actions()]
    assert texts[0] == "Very easy  5" and texts[-1] == "Nearly impossible  30"


def test_the_parts_work_on_their_own(qtbot: QtBot) -> None:
    """Each part is usable without a window: a DC row with its presets, the buttons."""
    row = DcRow(lambda: (("Easy", 10), ("Hard", 20)))
    qtbot.addWidget(row)
    with qtbot.waitSignal(row.changed):
        row.presets.menu().aboutToShow.emit()
        row.presets.menu().actions()[1].trigger()
    assert row.value() == 20
    with qtbot.waitSignal(row.submitted):
        press(row.dc, Qt.Key.Key_Return)

    buttons = RollButtons()
    qtbot.addWidget(buttons)
    buttons.rebuild(("normal", "fortune"))
    with qtbot.waitSignal(buttons.requested) as asked:
        buttons.buttons["fortune"].click()
    assert asked.args == ["fortune"]
    buttons.rebuild(("normal",))
    assert list(buttons.buttons) == ["normal"]


def test_roll_panel_is_the_window_dock(make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    assert isinstance(window.roll_panel, RollPanel)


# --- weapon attacks ------------------------------------------------------------------------


def weapon(threat: int = 20, confirm: bool = False) -> Statistic:
    return Statistic("attack:axe", "Axe", 7, (), follow_ups=(("2nd attack", -5),),
                     threat=threat, confirm=confirm)


def rolled(natural: int, outcome: Outcome | None, total: int = 0) -> CheckRoll:
    return CheckRoll("attack:axe", "Axe", "x", "normal", ResolvedMode("normal"), (natural,),
                     natural, (), 7, total or natural + 7, 15 if outcome else None, outcome)


def test_follow_up_statistic_adds_the_penalty_as_a_line() -> None:
    stat = weapon()
    later = follow_up_statistic(stat, 1)
    assert later.total == 2 and later.modifier == 2
    assert later.label == "Axe, 2nd attack"
    assert later.modifiers[-1].label == "2nd attack" and later.modifiers[-1].value == -5
    assert follow_up_statistic(stat, 0) is stat
    assert follow_up_statistic(stat, 2) is stat  # a later attack it no longer has


def test_attack_verdicts() -> None:
    # 5e-style: a natural in the threat range is a critical hit, whatever the DC
    assert attack_verdict(rolled(20, "failure"), weapon(), False).critical is True
    assert attack_verdict(rolled(19, "success"), weapon(), False) == AttackVerdict("")
    # degrees of success: the outcome decides; without a DC the player does
    assert attack_verdict(rolled(12, "critical_success"), weapon(), True).note == "Critical hit"
    assert attack_verdict(rolled(20, "success"), weapon(), True).critical is False
    assert attack_verdict(rolled(20, None), weapon(), True).critical is None
    # confirmed threats: a hit in the range threatens, a second hit confirms
    d20 = weapon(threat=19, confirm=True)
    threat = attack_verdict(rolled(19, "success"), d20, False)
    assert threat.confirm and "Critical threat" in threat.note and threat.critical is False
    assert attack_verdict(rolled(19, "failure"), d20, False) == AttackVerdict("")
    assert attack_verdict(rolled(20, "failure"), d20, False).confirm  # a natural 20 hits
    assert attack_verdict(rolled(18, "success"), d20, False) == AttackVerdict("")
    confirmed = attack_verdict(rolled(19, "success"), d20, False, rolled(9, "success"))
    assert confirmed.critical is True and "confirmed" in confirmed.note
    assert not confirmed.confirm
    missed = attack_verdict(rolled(19, "success"), d20, False, rolled(3, "failure"))
    assert missed.critical is False and "not confirmed" in missed.note and not missed.good
    unknown = attack_verdict(rolled(19, None), d20, False, rolled(9, None))
    assert unknown.critical is None


def test_attack_actions_offer_what_the_verdict_allows(qtbot: QtBot) -> None:
    actions = AttackActions()
    qtbot.addWidget(actions)
    actions.show()
    assert actions.isHidden() is False
    actions.show_verdict(AttackVerdict("Critical threat", confirm=True), has_damage=True)
    assert actions.confirm.isVisible() and actions.damage.isVisible()
    assert not actions.critical.isVisible()
    actions.show_verdict(AttackVerdict("", critical=None), has_damage=True)
    assert actions.damage.isVisible() and actions.critical.isVisible()
    assert not actions.note.isVisible()
    with qtbot.waitSignal(actions.damageRequested) as asked:
        actions.critical.click()
    assert asked.args == [True]
    actions.show_verdict(AttackVerdict("Critical hit", critical=True), has_damage=False)
    assert not actions.damage.isVisible() and not actions.critical.isVisible()
    actions.show_verdict(None, False)
    assert not actions.isVisible()


def test_log_shows_entries_that_are_not_checks(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    entries = [
        RollRecord(time="2026-01-02T20:15:00+01:00", kind="hit_points", statistic="hp",
                   label="Hit points", total=30, text="Took 7 damage: 37 → 30"),
        RollRecord(time="2026-01-02T20:16:00+01:00", kind="damage",
                   statistic="damage:longsword", label="Longsword", dice=[3, 5], total=12,
                   text="Longsword damage: 2d8+4 (3, 5) = 12 slashing"),
    ]
    window.document.set(("roll_log",), [e.model_dump(mode="json") for e in entries], "log")
    log = window.roll_panel.log_model
    assert [log.index(0, c).data() for c in range(1, 5)] == [
        "Longsword damage", "3, 5", "12", "Damage"]
    assert [log.index(1, c).data() for c in range(1, 5)] == [
        "Took 7 damage", "", "30", "Hit points"]
    assert log.as_text().splitlines() == [
        "2026-01-02 20:15  Took 7 damage: 37 → 30",
        "2026-01-02 20:16  Longsword damage: 2d8+4 (3, 5) = 12 slashing",
    ]


def test_guidance_is_rolled_as_a_die_and_spent_with_the_roll(
        qtbot: QtBot, make_window: MakeWindow) -> None:
    """A dice bonus is rolled with the check and shown as its own die; an until-next-roll
    effect switches off in the roll's own undo step, and undo brings both back."""
    guidance = Effect(name="Guidance", until="next_roll",
                      modifiers=[Modifier(value="1d4", targets=["skill"])])
    window = make_window(blank("dnd5e", "Sage", effects=[guidance]), seed=7)
    panel = window.roll_panel
    with qtbot.waitSignal(panel.rolled) as rolled:
        panel.roll(stat_id="skill:insight")
    result = rolled.args[0]
    [die] = result.bonus
    assert die.label == "Guidance" and 1 <= die.value <= 4
    assert result.total == result.natural + result.total_modifier + die.value
    assert "[1d4 Guidance]" in panel.result.text()
    character = window.document.character
    assert character.effects[0].active is False and len(character.roll_log) == 1
    window.document.undo_stack.undo()
    character = window.document.character
    assert character.effects[0].active is True and character.roll_log == []
    with qtbot.waitSignal(panel.rolled):
        panel.roll(stat_id="save:wis")  # Guidance is for checks: a save leaves it on
    assert window.document.character.effects[0].active is True


class _Ones(random.Random):
    """Dice that always come up 1."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return start


def test_a_natural_one_that_lowers_the_degree_says_so(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    stat = window.document.derived.statistics["skill:athletics"]
    result = roll_statistic(stat, "pf2e", _Ones(), dc=stat.modifier + 1)
    assert result.outcome == "failure"  # a success by the total, one step worse
    window.roll_panel.result.show_roll(result)
    assert "Natural 1: one step worse" in window.roll_panel.result.text()
