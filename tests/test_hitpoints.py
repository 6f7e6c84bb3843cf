"""Hit points in play (issue 8 part 4): damage, healing, temporary HP, and each system's rule
at 0 (pf2e dying and wounded, 5e-style death saves, d20srd disabled/dying/dead)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from sheet_app import edit, hitpoints, registry
from sheet_app.derived import Derived
from sheet_app.edit import Batch, Remove, Set
from sheet_app.hitpoints import HpChange
from sheet_app.io import character_from_data
from sheet_app.model import CharacterBase
from tests.helpers import SYSTEM_IDS

FIVE_E = tuple(s for s in SYSTEM_IDS if registry.get(s).facts.death_rule == "death_saves")
WHEN = datetime(2026, 3, 1, 20, 15, tzinfo=timezone(timedelta(hours=1)))


class Dice(random.Random):
    """Hands out the given d20 results in order."""

    def __init__(self, *results: int) -> None:
        super().__init__(0)
        self.results = list(results)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert (start, stop) == (1, 21)
        return self.results.pop(0)


def make(system: str, effects: list[dict[str, Any]] | None = None, **hp: Any) -> CharacterBase:
    """A level 1 character of ``system`` with these hit-point fields (``current`` defaults to
    the maximum)."""
    data: dict[str, Any] = {"format": "sheet-app/character", "version": 2, "system": system,
                            "effects": effects or []}
    blank = character_from_data(data)
    maximum = registry.get(system).derive(blank).hit_points.max
    base = blank.dump()["hit_points"]
    data["hit_points"] = {**base, "current": maximum, **hp}
    return character_from_data(data)


def derived(character: CharacterBase) -> Derived:
    return registry.get(character.system).derive(character)


def max_hp(character: CharacterBase) -> int:
    return derived(character).hit_points.max


def applied(character: CharacterBase, change: HpChange) -> CharacterBase:
    """The character after ``change``, through the edit pipeline (validated)."""
    steps = hitpoints.hp_edits(character, change.values)
    return edit.apply(character, Batch(tuple(steps))) if steps else character


def hp(character: CharacterBase) -> Any:
    return getattr(character, "hit_points")  # noqa: B009


def damage(character: CharacterBase, amount: int, critical: bool = False) -> CharacterBase:
    return applied(character, hitpoints.take_damage(character, derived(character), amount,
                                                    critical))


def heal(character: CharacterBase, amount: int) -> CharacterBase:
    return applied(character, hitpoints.heal(character, derived(character), amount))


def state(character: CharacterBase) -> hitpoints.HpState:
    return hitpoints.state(character, derived(character))


def saves(character: CharacterBase) -> tuple[int, int]:
    ds = hp(character).death_saves
    return ds.successes, ds.failures


def condition(key: str, value: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": key.capitalize() + (f" {value}" if value else ""),
                           "condition": key}
    if value is not None:
        out["value"] = value
    return out


# --- the rule each system declares ---------------------------------------------------------
def test_each_system_declares_its_death_rule() -> None:
    rules = {s: registry.get(s).facts.death_rule for s in SYSTEM_IDS}
    assert rules == {"pf2e": "dying", "runarcana": "death_saves", "d20srd": "negative_hp",
                     "dnd5e": "death_saves"}


# --- every system --------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_temporary_hp_absorb_damage_first(system: str) -> None:
    c = make(system, temporary=5)
    full = hp(c).current
    after = damage(c, 3)
    assert (hp(after).temporary, hp(after).current) == (2, full)
    assert hitpoints.take_damage(c, derived(c), 3).text == (
        f"Took 3 damage, 3 to temporary HP: still {full} HP")
    after = damage(c, 7)
    assert (hp(after).temporary, hp(after).current) == (0, full - 2)
    change = hitpoints.take_damage(c, derived(c), 7)
    assert change.text == f"Took 7 damage, 5 to temporary HP: {full} → {full - 2} HP"
    assert change.values == {"temporary": 0, "current": full - 2}
    assert change.current == full - 2


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_healing_never_goes_above_max(system: str) -> None:
    c = make(system)
    top = max_hp(c)
    hurt = damage(c, 3)
    assert hp(hurt).current == top - 3
    change = hitpoints.heal(hurt, derived(hurt), 10)
    assert change.current == top and "maximum" in change.text
    assert hp(heal(hurt, 10)).current == top
    assert hp(heal(hurt, 2)).current == top - 1


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_current_above_max_is_shown_and_not_lowered_by_healing(system: str) -> None:
    c = make(system)
    over = make(system, current=max_hp(c) + 4)
    s = state(over)
    assert s.key == "over_max" and s.severity == "warn"
    assert s.words == f"over maximum ({max_hp(c) + 4} of {max_hp(c)})"
    change = hitpoints.heal(over, derived(over), 5)
    assert not change.changed


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_temporary_hp_dont_stack(system: str) -> None:
    c = make(system, temporary=5)
    lower = hitpoints.set_temporary(c, 3)
    assert not lower.changed and "doesn't stack" in lower.text
    assert hp(applied(c, lower)).temporary == 5
    higher = hitpoints.set_temporary(c, 8)
    assert higher.values == {"temporary": 8}
    assert hp(applied(c, higher)).temporary == 8


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_states_in_words_while_conscious(system: str) -> None:
    top = max_hp(make(system))
    assert state(make(system, current=top)).key == "healthy"
    assert state(make(system, current=top)).severity == "ok"
    assert state(make(system, current=top // 2 + 1)).key == "hurt"
    bloodied = state(make(system, current=top // 2))
    assert (bloodied.key, bloodied.words, bloodied.severity) == ("bloodied", "bloodied", "warn")


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_bad_amounts_are_refused(system: str) -> None:
    c = make(system)
    with pytest.raises(ValueError, match="0 or more"):
        hitpoints.take_damage(c, derived(c), -1)
    with pytest.raises(ValueError, match="0 or more"):
        hitpoints.heal(c, derived(c), -5)
    with pytest.raises(ValueError, match="0 or more"):
        hitpoints.set_temporary(c, -2)
    with pytest.raises(TypeError):
        hitpoints.take_damage(c, derived(c), True)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_character_given_is_never_changed(system: str) -> None:
    c = make(system, temporary=3, effects=[condition("frightened", 2)]
             if system == "pf2e" else [])
    d = derived(c)
    before = c.dump()
    hitpoints.take_damage(c, d, 1000, critical=True)
    hitpoints.take_damage(c, d, 4)
    hitpoints.heal(c, d, 10)
    hitpoints.set_temporary(c, 9)
    hitpoints.state(c, d)
    hitpoints.end_of_turn(c)
    down = damage(c, 1000 if system != "d20srd" else max_hp(c) + 3)
    down_before = down.dump()
    if hitpoints.needs_death_save(down):
        hitpoints.death_save(down, random.Random(3))
    if hitpoints.needs_recovery_check(down):
        hitpoints.recovery_check(down, random.Random(3))
    hitpoints.as_batch(down, hitpoints.heal(down, derived(down), 2), WHEN)
    assert c.dump() == before
    assert down.dump() == down_before


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_as_batch_is_one_undo_step_with_a_log_entry(system: str) -> None:
    c = make(system, temporary=2)
    change = hitpoints.take_damage(c, derived(c), 5)
    batch = hitpoints.as_batch(c, change, WHEN)
    assert isinstance(batch, Batch)
    after = edit.apply(c, batch)
    assert hp(after).current == change.current
    entry = after.roll_log[-1]
    assert (entry.kind, entry.statistic, entry.label) == ("hit_points", "hp", "Hit points")
    assert entry.text == change.text and entry.total == change.current
    assert entry.time == "2026-03-01T20:15:00+01:00"
    assert c.roll_log == []


def test_hp_edits_sets_only_what_changed() -> None:
    c = make("pf2e", temporary=4)
    steps = hitpoints.hp_edits(c, {"current": hp(c).current, "temporary": 1, "dying": 0})
    assert steps == [Set(("hit_points", "temporary"), 1)]
    five = make("dnd5e", current=0)
    steps = hitpoints.hp_edits(five, {"death_saves": {"successes": 0, "failures": 2}})
    assert steps == [Set(("hit_points", "death_saves", "failures"), 2)]


# --- 5e-style: death saves -----------------------------------------------------------------
@pytest.mark.parametrize("system", FIVE_E)
def test_5e_dropping_to_0_is_unconscious(system: str) -> None:
    c = damage(make(system), max_hp(make(system)))
    assert hp(c).current == 0
    s = state(c)
    assert (s.key, s.words, s.severity) == (
        "dying", "unconscious (0 successes, 0 failures)", "danger")
    assert hitpoints.needs_death_save(c)


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_damage_at_0_is_a_failed_death_save(system: str) -> None:
    c = make(system, current=0)
    once = damage(c, 1)
    assert saves(once) == (0, 1)
    assert state(once).words == "unconscious (0 successes, 1 failure)"
    crit = damage(c, 1, critical=True)
    assert saves(crit) == (0, 2)
    change = hitpoints.take_damage(c, derived(c), 1, critical=True)
    assert "two death save failures" in change.text
    dead = damage(damage(once, 1), 1)
    assert saves(dead) == (0, 3)
    assert state(dead).key == "dead" and state(dead).severity == "dead"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_damage_absorbed_by_temporary_hp_at_0_is_no_failure(system: str) -> None:
    c = make(system, current=0, temporary=5)
    after = damage(c, 3)
    assert saves(after) == (0, 0) and hp(after).temporary == 2


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_massive_damage_is_instant_death(system: str) -> None:
    c = make(system, current=5)
    top = max_hp(c)
    assert state(damage(c, 5 + top - 1)).key == "dying"
    killed = hitpoints.take_damage(c, derived(c), 5 + top)
    assert "instant death" in killed.text
    assert state(applied(c, killed)).key == "dead"
    at_zero = make(system, current=0)
    assert state(damage(at_zero, top)).key == "dead"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_death_saves_success_and_failure(system: str) -> None:
    c = make(system, current=0)
    ok = hitpoints.death_save(c, Dice(10))
    assert ok.values == {"death_saves": {"successes": 1, "failures": 0}}
    assert (ok.kind, ok.die, ok.dc, ok.outcome) == ("death_save", 10, 10, "success")
    assert ok.text == "Death save: 10, a success (1 success, 0 failures)"
    bad = hitpoints.death_save(c, Dice(9))
    assert bad.values == {"death_saves": {"successes": 0, "failures": 1}}
    assert bad.outcome == "failure"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_natural_20_regains_1_hp(system: str) -> None:
    c = make(system, current=0, death_saves={"successes": 1, "failures": 2})
    change = hitpoints.death_save(c, Dice(20))
    after = applied(c, change)
    assert hp(after).current == 1 and saves(after) == (0, 0)
    assert "regains 1 HP" in change.text
    assert state(after).key == "bloodied"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_natural_1_is_two_failures(system: str) -> None:
    c = make(system, current=0, death_saves={"successes": 2, "failures": 0})
    after = applied(c, hitpoints.death_save(c, Dice(1)))
    assert saves(after) == (2, 2)
    worse = make(system, current=0, death_saves={"successes": 0, "failures": 2})
    dead = applied(worse, hitpoints.death_save(worse, Dice(1)))
    assert saves(dead) == (0, 3) and state(dead).key == "dead"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_three_successes_stabilise_three_failures_kill(system: str) -> None:
    c = make(system, current=0)
    for roll in (12, 3, 15, 19):
        c = applied(c, hitpoints.death_save(c, Dice(roll)))
    assert saves(c) == (3, 0)
    s = state(c)
    assert (s.key, s.severity) == ("stable", "warn")
    assert not hitpoints.needs_death_save(c)
    with pytest.raises(ValueError, match="no death save needed"):
        hitpoints.death_save(c, Dice(10))
    # Damage ends stability and is a failure.
    hit = damage(c, 1)
    assert saves(hit) == (0, 1) and state(hit).key == "dying"

    d = make(system, current=0)
    for roll in (2, 15, 5, 9):
        d = applied(d, hitpoints.death_save(d, Dice(roll)))
    assert saves(d) == (1, 3) and state(d).key == "dead"
    assert not hitpoints.heal(d, derived(d), 10).changed
    assert not hitpoints.take_damage(d, derived(d), 10).changed


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_healing_at_0_resets_death_saves(system: str) -> None:
    c = make(system, current=0, death_saves={"successes": 2, "failures": 2})
    after = heal(c, 3)
    assert hp(after).current == 3 and saves(after) == (0, 0)


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_exhaustion_6_is_death(system: str) -> None:
    c = make(system, effects=[condition("exhaustion", 6)])
    assert state(c).key == "dead" and "exhaustion 6" in state(c).words


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_death_save_is_logged(system: str) -> None:
    c = make(system, current=0)
    change = hitpoints.death_save(c, Dice(14))
    after = edit.apply(c, hitpoints.as_batch(c, change, WHEN))
    entry = after.roll_log[-1]
    assert (entry.kind, entry.dice, entry.total, entry.dc, entry.outcome) == (
        "death_save", [14], 14, 10, "success")
    assert saves(after) == (1, 0)


def test_death_save_only_where_the_system_has_them() -> None:
    for system in ("pf2e", "d20srd"):
        with pytest.raises(ValueError, match="no death saves"):
            hitpoints.death_save(make(system, current=0), Dice(10))
    with pytest.raises(ValueError, match="no death save needed"):
        hitpoints.death_save(make("dnd5e"), Dice(10))


# --- pf2e: dying, wounded, doomed ----------------------------------------------------------
def test_pf2e_reaching_0_is_dying_1_or_2_after_a_critical() -> None:
    c = make("pf2e")
    down = damage(c, max_hp(c) + 10)
    assert (hp(down).current, hp(down).dying, hp(down).wounded) == (0, 1, 0)
    assert state(down).words == "dying 1" and state(down).severity == "danger"
    crit = damage(c, max_hp(c), critical=True)
    assert hp(crit).dying == 2


def test_pf2e_wounded_adds_to_dying() -> None:
    c = make("pf2e", wounded=1)
    assert hp(damage(c, max_hp(c))).dying == 2
    assert hp(damage(c, max_hp(c), critical=True)).dying == 3
    assert state(damage(c, max_hp(c))).words == "dying 2, wounded 1"


def test_pf2e_damage_while_dying_raises_dying() -> None:
    c = make("pf2e", current=0, dying=1)
    assert hp(damage(c, 2)).dying == 2
    assert hp(damage(c, 2, critical=True)).dying == 3
    dead = damage(make("pf2e", current=0, dying=3), 1)
    assert hp(dead).dying == 4 and state(dead).key == "dead"
    change = hitpoints.take_damage(make("pf2e", current=0, dying=3), derived(c), 1)
    assert change.text == "Took 1 damage: still 0 HP, dying 3 → 4: dead"


def test_pf2e_damage_at_0_when_not_dying_knocks_out_again() -> None:
    c = make("pf2e", current=0, wounded=1)
    assert state(c).key == "unconscious"
    assert hp(damage(c, 1)).dying == 2


def test_pf2e_doomed_lowers_the_dying_value_that_kills() -> None:
    doomed = [condition("doomed", 1)]
    c = make("pf2e", effects=doomed, current=0, dying=2)
    assert state(c).words == "dying 2, dies at dying 3"
    dead = damage(c, 1)
    assert hp(dead).dying == 3 and state(dead).key == "dead"
    # Knocked out at wounded 2 with doomed 2: dying 3 is past 2.
    out = damage(make("pf2e", effects=[condition("doomed", 2)], wounded=2), 1000)
    assert state(out).key == "dead"
    assert state(make("pf2e", effects=[condition("doomed", 4)])).key == "dead"


def test_pf2e_massive_damage_kills() -> None:
    c = make("pf2e")
    top = max_hp(c)
    assert state(damage(c, 2 * top - 1)).key == "dying"
    killed = hitpoints.take_damage(c, derived(c), 2 * top)
    assert "massive damage" in killed.text
    assert state(applied(c, killed)).key == "dead"


@pytest.mark.parametrize(
    ("dying", "die", "outcome", "after"),
    [(1, 20, "critical_success", 0),   # natural 20 on a success: critical
     (2, 12, "success", 1),
     (2, 11, "failure", 3),
     (2, 2, "critical_failure", 4),    # 10 or more under DC 12
     (3, 1, "critical_failure", 4),
     (1, 9, "failure", 2),
     (1, 10, "failure", 2),
     (1, 11, "success", 0)],
)
def test_pf2e_recovery_checks(dying: int, die: int, outcome: str, after: int) -> None:
    c = make("pf2e", current=0, dying=dying)
    change = hitpoints.recovery_check(c, Dice(die))
    assert (change.kind, change.die, change.dc, change.outcome) == (
        "recovery", die, 10 + dying, outcome)
    new = applied(c, change)
    assert hp(new).dying == after
    if after == 0:
        assert hp(new).wounded == 1
        assert state(new).key == "unconscious"
        assert "no longer dying" in change.text
    if after == 4:
        assert state(new).key == "dead"


def test_pf2e_recovery_adds_to_wounded() -> None:
    c = make("pf2e", current=0, dying=1, wounded=1)
    new = applied(c, hitpoints.recovery_check(c, Dice(15)))
    assert (hp(new).dying, hp(new).wounded) == (0, 2)


def test_pf2e_recovery_with_doomed() -> None:
    c = make("pf2e", effects=[condition("doomed", 1)], current=0, dying=2)
    change = hitpoints.recovery_check(c, Dice(5))
    assert change.text.endswith("dying 2 → 3, dead")
    assert state(applied(c, change)).key == "dead"
    with pytest.raises(ValueError, match="no recovery check needed"):
        hitpoints.recovery_check(applied(c, change), Dice(5))


def test_recovery_only_while_dying_in_pf2e() -> None:
    with pytest.raises(ValueError, match="no recovery check needed"):
        hitpoints.recovery_check(make("pf2e"), Dice(10))
    with pytest.raises(ValueError, match="no recovery checks"):
        hitpoints.recovery_check(make("dnd5e", current=0), Dice(10))


def test_pf2e_healing_ends_dying_and_adds_wounded() -> None:
    c = make("pf2e", current=0, dying=2, wounded=1)
    change = hitpoints.heal(c, derived(c), 5)
    assert change.values == {"current": 5, "dying": 0, "wounded": 2}
    assert "no longer dying, wounded 2" in change.text
    assert state(applied(c, change)).words == "bloodied, wounded 2"


def test_pf2e_wounded_stops_at_3() -> None:
    c = make("pf2e", current=0, dying=1, wounded=3)
    assert hp(heal(c, 1)).wounded == 3


def test_pf2e_dead_cant_be_healed() -> None:
    c = make("pf2e", current=0, dying=4)
    assert not hitpoints.heal(c, derived(c), 5).changed


# --- pf2e: end of turn ---------------------------------------------------------------------
def test_end_of_turn_lowers_frightened_and_removes_it_at_0() -> None:
    c = make("pf2e", effects=[
        condition("frightened", 1), condition("sickened", 1),
        {**condition("frightened", 3), "name": "Dragon fear 3"},
        {**condition("frightened", 2), "active": False}])
    steps = hitpoints.end_of_turn(c)
    assert steps == [Set(("effects", 2, "value"), 2),
                     Set(("effects", 2, "name"), "Dragon fear 2"),
                     Remove(("effects",), 0)]
    after = edit.apply(c, Batch(tuple(steps)))
    assert [(e.name, e.condition, e.value) for e in after.effects] == [
        ("Sickened 1", "sickened", 1), ("Dragon fear 2", "frightened", 2),
        ("Frightened 2", "frightened", 2)]
    assert hitpoints.end_of_turn_text(c) == "End of turn: Frightened 1 → ends; Frightened 3 → 2"


def test_end_of_turn_removes_from_the_last_index_down() -> None:
    c = make("pf2e", effects=[condition("frightened", 1), condition("clumsy", 1),
                              condition("frightened", 1)])
    after = edit.apply(c, Batch(tuple(hitpoints.end_of_turn(c))))
    assert [e.condition for e in after.effects] == ["clumsy"]


@pytest.mark.parametrize("system", ["dnd5e", "runarcana", "d20srd"])
def test_end_of_turn_changes_nothing_without_such_conditions(system: str) -> None:
    c = make(system, effects=[condition("frightened")])
    assert hitpoints.end_of_turn(c) == []
    assert hitpoints.end_of_turn_text(c) == "End of turn: nothing changes"


# --- d20srd: disabled, dying, dead ---------------------------------------------------------
def test_d20_hit_points_go_below_0() -> None:
    c = make("d20srd", current=5)
    disabled = damage(c, 5)
    assert hp(disabled).current == 0
    assert state(disabled) == hitpoints.HpState("disabled", "disabled (0 HP)", "warn")
    dying = damage(c, 9)
    assert hp(dying).current == -4
    assert state(dying) == hitpoints.HpState("dying", "dying (−4 HP)", "danger")
    assert state(damage(c, 14)).key == "dying"
    dead = damage(c, 15)
    assert hp(dead).current == -10 and state(dead).key == "dead"
    assert state(damage(c, 30)).key == "dead"
    assert hp(damage(c, 30)).current == -25


def test_d20_stable_at_negative_hp() -> None:
    c = make("d20srd", current=-3, effects=[condition("stable")])
    assert state(c) == hitpoints.HpState("stable", "stable (−3 HP)", "warn")


def test_d20_healing_from_negative_and_not_when_dead() -> None:
    assert hp(heal(make("d20srd", current=-4), 6)).current == 2
    dead = make("d20srd", current=-10)
    assert not hitpoints.heal(dead, derived(dead), 5).changed
    assert not hitpoints.take_damage(dead, derived(dead), 5).changed


def test_d20_massive_damage_calls_for_a_save() -> None:
    c = make("d20srd", current=80, hit_die=12, level_rolls=[12] * 7, level=8)
    change = hitpoints.take_damage(c, derived(c), 50)
    assert "Fortitude DC 15" in change.text
    assert "Fortitude" not in hitpoints.take_damage(c, derived(c), 49).text
