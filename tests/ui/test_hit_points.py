"""Hit points in play in the window (issue 8 part 4): Damage, Heal and Temp from one amount, the
state in words and colour, death saves, dying and recovery checks, and End of turn on the
Effects tab; each action one undo step, written to the roll log."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox, QLineEdit, QSpinBox, QToolButton

from sheet_app import hitpoints, registry
from sheet_app.model import CharacterBase, Effect
from tests.ui.helpers import MakeWindow, click, find, press, sheet_of, type_text
from ui.main_window import MainWindow
from ui.sections.combat import HitPointsSection
from ui.sections.effects import EffectsPanel, condition_effect
from ui.sections.hitpoints import DeathSavesBox, DyingBox
from ui.theme import HP_STATE_COLORS, qcolor

SYSTEMS = registry.known_ids()
RULE: dict[str, str] = {s: registry.get(s).facts.death_rule for s in SYSTEMS}
DEATH_SAVES = [s for s in SYSTEMS if RULE[s] == "death_saves"]
DYING = [s for s in SYSTEMS if RULE[s] == "dying"]
NEGATIVE_HP = [s for s in SYSTEMS if RULE[s] == "negative_hp"]
TURN_ENDS = [s for s in SYSTEMS
             if any(c.ends_turn_decrement for c in registry.get(s).facts.conditions.values())]


def character(system: str, effects: list[Effect] | None = None, **hp: Any) -> CharacterBase:
    """A new character of ``system`` with these hit-point fields (the rest as new)."""
    rules = registry.get(system)
    data = rules.new_character("Test").dump()
    data["hit_points"] = {**data["hit_points"], **hp}
    if effects is not None:
        data["effects"] = [e.model_dump(mode="json", exclude_none=True) for e in effects]
    return rules.model.model_validate(data)


def hp(window: MainWindow) -> Any:
    return getattr(window.document.character, "hit_points")  # noqa: B009


def max_hp(window: MainWindow) -> int:
    return window.document.derived.hit_points.max


def section(window: MainWindow) -> HitPointsSection:
    return sheet_of(window).hit_points


def amount(window: MainWindow) -> QLineEdit:
    return find(window, QLineEdit, "Hit points to apply")


def button(window: MainWindow, name: str) -> QToolButton:
    return find(window, QToolButton, name)


def enter(window: MainWindow, value: int, shift: bool = False) -> None:
    """Type ``value`` into the amount and press Enter (Shift+Enter: critical)."""
    field = amount(window)
    field.setFocus()
    field.selectAll()
    type_text(field, str(value))
    press(field, Qt.Key.Key_Return,
          Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier)


def use(window: MainWindow, name: str, value: int) -> None:
    """Type ``value`` into the amount and click the button ``name``."""
    field = amount(window)
    field.setFocus()
    field.selectAll()
    type_text(field, str(value))
    click(button(window, name))


def state_words(window: MainWindow) -> str:
    return section(window).state.text()


def state_colour(window: MainWindow) -> str:
    color = section(window).state.palette().color(QPalette.ColorRole.WindowText)
    return str(color.name())


def steps(window: MainWindow) -> int:
    return window.document.undo_stack.count()


def last_log(window: MainWindow) -> Any:
    return window.document.character.roll_log[-1]


def seed_for(test: Callable[[int], bool]) -> int:
    """The first seed whose first d20 (as the rules roll it) passes ``test``."""
    return next(s for s in range(1, 1000) if test(random.Random(s).randrange(1, 21)))


def first_d20(seed: int) -> int:
    return random.Random(seed).randrange(1, 21)


# --- every system --------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_damage_takes_temporary_hp_first_as_one_step(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(character(system, temporary=5))
    full = max_hp(window)
    assert hp(window).current == full
    assert state_words(window) == "Healthy"
    assert state_colour(window) == qcolor(HP_STATE_COLORS["ok"]).name()
    before = steps(window)
    for name in ("Take damage", "Heal", "Gain temporary hit points"):
        assert not button(window, name).isEnabled()  # nothing typed yet
    enter(window, 7)  # Enter applies Damage
    assert (hp(window).temporary, hp(window).current) == (0, full - 2)
    assert steps(window) == before + 1
    log = last_log(window)
    assert log.kind == "hit_points"
    assert log.text == f"Took 7 damage, 5 to temporary HP: {full} → {full - 2} HP"
    assert window.document.undo_stack.undoText() == log.text
    assert log.text in window.statusBar().currentMessage()
    assert amount(window).text() == ""  # cleared for the next one
    window.act_undo.trigger()
    assert (hp(window).temporary, hp(window).current) == (5, full)
    assert window.document.character.roll_log == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_heal_never_goes_above_max(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system))
    full = max_hp(window)
    use(window, "Take damage", 3)
    assert hp(window).current == full - 3
    before = steps(window)
    use(window, "Heal", 10)
    assert hp(window).current == full
    assert steps(window) == before + 1
    assert "(maximum" in last_log(window).text


@pytest.mark.parametrize("system", SYSTEMS)
def test_temporary_hp_dont_stack(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system, temporary=5))
    before = steps(window)
    use(window, "Gain temporary hit points", 3)
    assert hp(window).temporary == 5
    assert "doesn't stack" in last_log(window).text
    use(window, "Gain temporary hit points", 8)
    assert hp(window).temporary == 8
    assert steps(window) == before + 2
    window.act_undo.trigger()
    assert hp(window).temporary == 5


@pytest.mark.parametrize("system", SYSTEMS)
def test_current_above_max_is_shown(system: str, make_window: MakeWindow) -> None:
    top = registry.get(system).derive(registry.get(system).new_character()).hit_points.max
    window = make_window(character(system, current=top + 5))
    assert state_words(window) == f"Over maximum ({top + 5} of {top})"
    assert state_colour(window) == qcolor(HP_STATE_COLORS["warn"]).name()


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_box_at_0_hp_comes_from_the_death_rule(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(character(system))
    play = section(window).play
    rule = RULE[system]
    assert isinstance(play.zero_box(), DeathSavesBox if rule == "death_saves"
                      else DyingBox if rule == "dying" else type(None))
    critical = window.findChildren(QCheckBox)
    assert any(c.accessibleName() == "Critical hit" for c in critical) == (rule != "negative_hp")


# --- 5e-style: death saves -----------------------------------------------------------------
@pytest.mark.parametrize("system", DEATH_SAVES)
def test_death_saves_with_the_windows_dice(system: str, make_window: MakeWindow) -> None:
    seed = seed_for(lambda d: 10 <= d < 20)
    window = make_window(character(system), seed=seed)
    roll = button(window, "Roll death save")
    assert not roll.isEnabled()
    enter(window, max_hp(window))  # down to 0, not instant death
    assert hp(window).current == 0
    assert state_words(window) == "Unconscious (0 successes, 0 failures)"
    assert state_colour(window) == qcolor(HP_STATE_COLORS["danger"]).name()
    assert roll.isEnabled()
    before = steps(window)
    click(roll)
    die = first_d20(seed)
    assert hp(window).death_saves.successes == 1
    assert steps(window) == before + 1
    log = last_log(window)
    assert (log.kind, log.dice, log.dc, log.outcome) == ("death_save", [die], 10, "success")
    assert f"Death save: {die}, a success" in window.statusBar().currentMessage()
    boxes = section(window).play.death_saves
    assert boxes is not None
    assert [b.isChecked() for b in boxes.successes.boxes] == [True, False, False]
    assert state_words(window) == "Unconscious (1 success, 0 failures)"
    window.act_undo.trigger()
    assert hp(window).death_saves.successes == 0
    assert not boxes.successes.boxes[0].isChecked()


@pytest.mark.parametrize("system", DEATH_SAVES)
def test_a_natural_20_regains_1_hp(system: str, make_window: MakeWindow) -> None:
    seed = seed_for(lambda d: d == 20)
    window = make_window(character(system, current=0), seed=seed)
    click(button(window, "Roll death save"))
    assert hp(window).current == 1
    assert not button(window, "Roll death save").isEnabled()
    assert "natural 20" in window.statusBar().currentMessage()


@pytest.mark.parametrize("system", DEATH_SAVES)
def test_death_save_boxes_edit_by_hand(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system, current=0))
    boxes = section(window).play.death_saves
    assert boxes is not None
    before = steps(window)
    click(boxes.failures.boxes[1])  # the second box: two failures
    assert hp(window).death_saves.failures == 2
    assert [b.isChecked() for b in boxes.failures.boxes] == [True, True, False]
    click(boxes.failures.boxes[1])  # unchecking it leaves one
    assert hp(window).death_saves.failures == 1
    assert steps(window) == before + 2
    click(boxes.successes.boxes[2])
    assert state_words(window) == "Stable (unconscious at 0 HP)"
    assert not button(window, "Roll death save").isEnabled()


@pytest.mark.parametrize("system", DEATH_SAVES)
def test_critical_damage_at_0_is_two_failures(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system, current=0))
    enter(window, 1, shift=True)  # Shift+Enter: critical
    assert hp(window).death_saves.failures == 2
    window.act_undo.trigger()
    critical = find(window, QCheckBox, "Critical hit")
    critical.setChecked(True)
    use(window, "Take damage", 1)
    assert hp(window).death_saves.failures == 2
    assert not critical.isChecked()  # only for that hit
    use(window, "Take damage", 1)  # not critical: one more
    assert hp(window).death_saves.failures == 3
    assert state_words(window).startswith("Dead")
    assert state_colour(window) == qcolor(HP_STATE_COLORS["dead"]).name()


@pytest.mark.parametrize("system", DEATH_SAVES)
def test_shift_click_damage_is_critical(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system, current=0))
    field = amount(window)
    type_text(field, "1")
    damage = button(window, "Take damage")
    QTest.mouseClick(damage, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     QPoint())
    assert hp(window).death_saves.failures == 2


# --- pf2e-style: dying, wounded, doomed, recovery checks -----------------------------------
@pytest.mark.parametrize("system", DYING)
def test_dropping_to_0_is_dying_plus_wounded(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system, wounded=1))
    box = section(window).play.dying
    assert box is not None
    assert (box.dying.minimum(), box.dying.maximum()) == (0, 4)
    assert (box.wounded.minimum(), box.wounded.maximum()) == (0, 3)
    assert box.wounded.value() == 1 and box.dying.text() == "Dying 0"
    recovery = button(window, "Recovery check")
    assert not recovery.isEnabled()
    enter(window, max_hp(window))
    assert (hp(window).current, hp(window).dying) == (0, 2)
    assert box.dying.value() == 2
    assert state_words(window) == "Dying 2, wounded 1"
    assert state_colour(window) == qcolor(HP_STATE_COLORS["danger"]).name()
    assert recovery.isEnabled() and recovery.text() == "DC 12"
    window.act_undo.trigger()
    find(window, QCheckBox, "Critical hit").setChecked(True)
    use(window, "Take damage", max_hp(window))
    assert hp(window).dying == 3  # dying 2 from a critical hit, + wounded 1


@pytest.mark.parametrize("system", DYING)
def test_recovery_check_with_the_windows_dice(system: str, make_window: MakeWindow) -> None:
    seed = seed_for(lambda d: 12 <= d < 20)  # DC 11: a success, not a critical one
    window = make_window(character(system, current=0, dying=1), seed=seed)
    recovery = button(window, "Recovery check")
    assert recovery.text() == "DC 11"
    before = steps(window)
    click(recovery)
    die = first_d20(seed)
    assert (hp(window).dying, hp(window).wounded) == (0, 1)
    assert steps(window) == before + 1
    log = last_log(window)
    assert (log.kind, log.dice, log.dc, log.outcome) == ("recovery", [die], 11, "success")
    assert f"Recovery check DC 11: {die}, success" in window.statusBar().currentMessage()
    assert not recovery.isEnabled()
    assert state_words(window) == "Unconscious at 0 HP, wounded 1"
    window.act_undo.trigger()
    assert (hp(window).dying, hp(window).wounded) == (1, 0)
    assert recovery.isEnabled()


@pytest.mark.parametrize("system", DYING)
def test_doomed_comes_from_the_conditions(system: str, make_window: MakeWindow) -> None:
    doomed = registry.get(system).facts.conditions["doomed"]
    window = make_window(character(system, current=0, dying=2,
                                   effects=[condition_effect(doomed, 1)]))
    box = section(window).play.dying
    assert box is not None
    assert box.doomed.text() == "1"
    assert state_words(window) == "Dying 2, dies at dying 3"
    find(window, QSpinBox, "Dying").setValue(3)  # by hand: dying 3 is death when doomed 1
    assert hp(window).dying == 3
    assert state_words(window).startswith("Dead")
    assert not button(window, "Recovery check").isEnabled()


# --- d20srd-style: negative hit points -----------------------------------------------------
@pytest.mark.parametrize("system", NEGATIVE_HP)
def test_disabled_then_dying_in_words(system: str, make_window: MakeWindow) -> None:
    window = make_window(character(system))
    full = max_hp(window)
    assert section(window).play.zero_box() is None
    enter(window, full)
    assert state_words(window) == "Disabled (0 HP)"
    assert state_colour(window) == qcolor(HP_STATE_COLORS["warn"]).name()
    enter(window, 3)
    assert hp(window).current == -3
    assert state_words(window) == "Dying (−3 HP)"
    assert state_colour(window) == qcolor(HP_STATE_COLORS["danger"]).name()
    enter(window, 7)
    assert state_words(window).startswith("Dead")
    window.act_undo.trigger()
    assert state_words(window) == "Dying (−3 HP)"


# --- End of turn ---------------------------------------------------------------------------
def effects_of(window: MainWindow) -> EffectsPanel:
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet._effects)
    return sheet.effects


@pytest.mark.parametrize("system", SYSTEMS)
def test_end_of_turn_only_where_a_condition_drops_each_turn(
    system: str, make_window: MakeWindow
) -> None:
    window = make_window(character(system))
    effects = effects_of(window)
    assert effects.end_turn.isVisibleTo(effects) == (system in TURN_ENDS)
    assert not effects.end_turn.isEnabled()  # nothing to lower


@pytest.mark.parametrize("system", TURN_ENDS)
def test_end_of_turn_lowers_frightened(system: str, make_window: MakeWindow) -> None:
    conditions = registry.get(system).facts.conditions
    frightened = next(c for c in conditions.values() if c.ends_turn_decrement)
    window = make_window(character(system, effects=[condition_effect(frightened, 2)]))
    effects = effects_of(window)
    assert effects.end_turn.isEnabled()
    before = steps(window)
    click(effects.end_turn)
    effect = window.document.character.effects[0]
    assert (effect.name, effect.value) == (f"{frightened.label} 1", 1)
    assert steps(window) == before + 1
    assert window.document.undo_stack.undoText() == (
        f"End of turn: {frightened.label} 2 → 1")
    click(effects.end_turn)
    assert window.document.character.effects == []
    assert steps(window) == before + 2
    assert not effects.end_turn.isEnabled()
    window.act_undo.trigger()
    assert window.document.character.effects[0].value == 1
    assert effects.end_turn.isEnabled()
    window.act_undo.trigger()
    assert window.document.character.effects[0].value == 2
    assert hitpoints.end_of_turn(window.document.character)
