"""Dice-valued bonuses (Bless's +1d4) rolled with a check, their exact odds, passives that
leave them out, and effects that last ``until: "next_roll"`` spent by the roll they change."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sheet_app import dice, edit, registry
from sheet_app.checks import check_odds, check_outcome, outcomes_for
from sheet_app.derived import Derived, ModeSource, ModifierLine, Outcome, RollMode, Statistic
from sheet_app.io import character_from_data
from sheet_app.model import CharacterBase
from sheet_app.rolls import (
    DICE_REASON,
    FLEETING_REASON,
    BonusDie,
    RollRecord,
    fleeting_sources,
    format_record,
    passive_lines,
    passive_total,
    roll_edit,
    roll_statistic,
    spend_edits,
    spent_effects,
    statistic_odds,
)
from tests.conftest import Cli

SYSTEMS = registry.known_ids()
WHEN = datetime(2026, 11, 29, 18, 40, 12, tzinfo=timezone(timedelta(hours=1)))


class ScriptedRandom(random.Random):
    """Hands out the given faces in order (d20s first, then the bonus dice)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        face = self.faces.pop(0)
        assert stop is not None and start <= face < stop, f"{face} is not a face of this die"
        return face


WISDOM = ModifierLine("Wisdom", "ability", 3)
PROFICIENCY = ModifierLine("Proficiency", "proficiency", 2)
BLESS = ModifierLine("Bless", "status", 0, source="Bless", dice="+1d4")
BANE = ModifierLine("Bane", "untyped", 0, source="Bane", dice="-1d4")
D6 = ModifierLine("Inspiration", "untyped", 0, source="Inspiration", dice="+1d6")


def check(*extra: ModifierLine, modes: tuple[ModeSource, ...] = ()) -> Statistic:
    lines = (WISDOM, PROFICIENCY, *extra)
    total = sum(line.value for line in lines if line.applied)
    return Statistic("skill:perception", "Perception", total, lines, mode_sources=modes)


# --- rolling -------------------------------------------------------------------------------


def test_a_bonus_die_is_rolled_with_the_check_and_shown_as_its_own_die() -> None:
    result = roll_statistic(check(BLESS), "runarcana", ScriptedRandom([17, 3]), dc=20)
    assert result.natural == 17
    assert result.dice == (17,)
    assert result.bonus == (BonusDie("Bless", "+1d4", (3,), 3),)
    assert result.total_modifier == 5
    assert result.total == 17 + 5 + 3
    assert result.outcome == "success"
    assert result.summary() == "Perception: 17 +5 +3[1d4] = 25 vs DC 20 — success"


def test_a_penalty_die_subtracts_and_several_dice_roll_in_breakdown_order() -> None:
    rng = ScriptedRandom([12, 9, 4, 2, 6])  # 2d20 (advantage), then +1d4, -1d4, +1d6
    result = roll_statistic(check(BLESS, BANE, D6), "runarcana", rng, mode="advantage")
    assert (result.dice, result.natural) == ((12, 9), 12)
    assert [(b.label, b.expression, b.value) for b in result.bonus] == [
        ("Bless", "+1d4", 4), ("Bane", "-1d4", -2), ("Inspiration", "+1d6", 6)]
    assert result.total == 12 + 5 + 4 - 2 + 6
    assert result.summary() == (
        "Perception (advantage): 12, 9 → 12 +5 +4[1d4] -2[1d4] +6[1d6] = 25")


def test_a_suppressed_dice_line_is_not_rolled() -> None:
    lost = ModifierLine("Bless", "status", 0, applied=False, reason="a higher status bonus",
                        source="Bless", dice="+1d4")
    result = roll_statistic(check(lost), "runarcana", ScriptedRandom([10]))
    assert result.bonus == ()
    assert result.total == 15


def test_the_natural_is_the_d20s_alone() -> None:
    """pf2e's natural 20/1 step reads the kept d20 face only, never a bonus die's."""
    big = ModifierLine("Wild die", "untyped", 0, source="Wild", dice="+1d20")
    # a bonus die showing 20 on a natural 1: still a natural 1, one step down
    low = roll_statistic(check(big), "pf2e", ScriptedRandom([1, 20]), dc=20)
    assert (low.natural, low.total) == (1, 1 + 5 + 20)
    assert low.outcome == check_outcome("pf2e", 26, 20, 1) == "failure"
    # a natural 20 under a -1d4: the total fails by 1, the natural 20 lifts it to success
    high = roll_statistic(check(BANE), "pf2e", ScriptedRandom([20, 1]), dc=25)
    assert (high.natural, high.total) == (20, 24)
    assert high.outcome == "success"


def test_the_same_seed_gives_the_same_bonus_dice() -> None:
    stat = check(BLESS, D6)
    first = [roll_statistic(stat, "dnd5e", random.Random(seed)) for seed in range(50)]
    again = [roll_statistic(stat, "dnd5e", random.Random(seed)) for seed in range(50)]
    assert first == again
    for result in first:
        assert result.total == result.natural + 5 + sum(b.value for b in result.bonus)
        assert 1 <= result.bonus[0].value <= 4 and 1 <= result.bonus[1].value <= 6


def test_json_keeps_the_contract_and_adds_the_bonus_dice() -> None:
    result = roll_statistic(check(BLESS), "runarcana", ScriptedRandom([17, 3]), dc=20)
    data = result.to_json()
    assert data["total"] == 25 and data["natural"] == 17 and data["total_modifier"] == 5
    assert data["dice"] == [17]
    assert data["bonus_dice"] == [{"label": "Bless", "expression": "+1d4", "dice": [3],
                                   "value": 3}]
    assert data["modifiers"][2] == {"label": "Bless", "type": "status", "value": 0,
                                    "applied": True, "reason": None, "dice": "+1d4"}
    json.dumps(data)
    plain = roll_statistic(check(), "runarcana", ScriptedRandom([17])).to_json()
    assert "bonus_dice" not in plain  # exactly CONTRACT.md's fields without dice bonuses


def test_the_log_keeps_the_bonus_dice() -> None:
    result = roll_statistic(check(BANE), "runarcana", ScriptedRandom([11, 4]), dc=10)
    record = result.to_record(WHEN)
    assert record.total == 12
    assert (record.model_extra or {})["bonus_dice"][0]["value"] == -4
    loaded = RollRecord.model_validate_json(record.model_dump_json())
    assert loaded == record
    assert format_record(loaded) == (
        "2026-11-29 18:40  Perception: 11 +5 -4[1d4] = 12 vs DC 10 — success")
    broken = RollRecord.model_validate({**record.model_dump(), "bonus_dice": "nonsense"})
    assert "Perception: 11 +5 = 12" in format_record(broken)


# --- exact odds ----------------------------------------------------------------------------


def _faces(expression: str) -> list[int]:
    """Every equally likely value of ``+NdS`` / ``-NdS``, by listing every roll."""
    sign = -1 if expression.startswith("-") else 1
    count, sides = map(int, expression.lstrip("+-").split("d"))
    return [sign * sum(r) for r in itertools.product(range(1, sides + 1), repeat=count)]


def brute_force(system: str, modifier: int, dc: int, mode: RollMode,
                bonus: Sequence[str]) -> dict[Outcome, Fraction]:
    """Every d20 (both of them with a mode) and every face of every bonus die, counted."""
    pairs: Iterable[tuple[int, ...]] = (
        ((f,) for f in range(1, 21)) if mode == "normal"
        else itertools.product(range(1, 21), repeat=2))
    keep = min if mode in ("disadvantage", "misfortune") else max
    tally: Counter[Outcome] = Counter()
    rolls = 0
    for d20 in pairs:
        natural = keep(d20)
        for extra in itertools.product(*(_faces(b) for b in bonus)):
            tally[check_outcome(system, natural + modifier + sum(extra), dc, natural)] += 1
            rolls += 1
    return {o: Fraction(tally[o], rolls) for o in outcomes_for(system)}


BONUS_SETS = [("+1d4",), ("-1d4",), ("+1d4", "+1d6"), ("+1d4", "-1d4"), ("+2d4",)]


@pytest.mark.parametrize("bonus", BONUS_SETS, ids="".join)
@pytest.mark.parametrize(("system", "mode"), [
    ("runarcana", "normal"), ("runarcana", "advantage"), ("runarcana", "disadvantage"),
    ("pf2e", "normal"), ("pf2e", "fortune"), ("pf2e", "misfortune"),
])
def test_odds_with_bonus_dice_equal_brute_force_enumeration(
        system: str, mode: RollMode, bonus: tuple[str, ...]) -> None:
    for modifier, dc in itertools.product((-2, 0, 5), (2, 9, 14, 20, 27, 35)):
        odds = check_odds(system, modifier, dc, mode, bonus)
        assert dict(odds.probabilities) == brute_force(system, modifier, dc, mode, bonus), (
            modifier, dc)
        assert tuple(odds.probabilities) == outcomes_for(system)
        assert sum(odds.probabilities.values()) == 1
        assert odds.bonus_dice == bonus


def test_statistic_odds_count_the_applied_dice_lines_only() -> None:
    lost = ModifierLine("Bane", "untyped", 0, applied=False, reason="no", source="Bane",
                        dice="-1d4")
    stat = check(BLESS, D6, lost, modes=(ModeSource("advantage", "Keen senses"),))
    odds = statistic_odds(stat, "dnd5e", 15)
    assert odds == check_odds("dnd5e", 5, 15, "advantage", ("+1d4", "+1d6"))
    assert dict(odds.probabilities) == brute_force("dnd5e", 5, 15, "advantage",
                                                   ("+1d4", "+1d6"))
    # between no dice at all and both dice always at their highest (+10)
    lowest = check_odds("dnd5e", 5, 15, "advantage").success
    assert lowest < odds.success < check_odds("dnd5e", 15, 15, "advantage").success


def test_known_odds_with_bless() -> None:
    # d20 + 4 + 1d4 against 15: succeed when d20 + d4 >= 11: 50 of the 80 rolls
    assert check_odds("runarcana", 4, 15, "normal", ("+1d4",)).success == Fraction(50, 80)
    assert check_odds("runarcana", 4, 15).success == Fraction(1, 2)


def test_dice_distributions_are_exact() -> None:
    assert dice.distribution("1d4") == {v: Fraction(1, 4) for v in range(1, 5)}
    assert dice.distribution("-1d4") == {v: Fraction(1, 4) for v in range(-4, 0)}
    two = dice.distribution("2d6+1")
    assert two[8] == Fraction(6, 36) and two[3] == two[13] == Fraction(1, 36)
    for text, faces in (("4d6kh3", 4), ("2d20kl1", 2), ("3d4-1d6+2", 0)):
        parsed = dice.parse(text)
        got = dice.weights(parsed)
        if faces:
            term = parsed.terms[0]
            assert isinstance(term, dice.Dice)
            counts = Counter(
                sum(sorted(r, reverse=text.endswith("kh3"))[: term.kept_count])
                for r in itertools.product(range(1, term.sides + 1), repeat=faces))
        else:
            counts = Counter(a + b + c - d + 2 for a, b, c in itertools.product(range(1, 5),
                             repeat=3) for d in range(1, 7))
        assert {got.low + i: n for i, n in enumerate(got.counts) if n} == dict(counts), text
        assert (got.low, got.high) == (parsed.minimum, parsed.maximum)


def test_a_distribution_too_big_to_count_is_refused_before_any_work() -> None:
    with pytest.raises(dice.DiceLimitError, match="too many outcomes"):
        dice.weights("99d999", "99d999")
    with pytest.raises(dice.DiceLimitError, match="too many outcomes"):
        dice.weights("9d20kh1")


# --- sheets: rolls, passives, effects spent by the roll ----------------------------------


def character(system: str, *effects: dict[str, Any], **fields: Any) -> CharacterBase:
    return character_from_data({"format": "sheet-app/character", "version": 2,
                                "system": system, "effects": list(effects), **fields})


def derive(c: CharacterBase) -> Derived:
    return registry.get(c.system).derive(c)


PERCEPTION = {"pf2e": ("perception", ("perception",)),
              "d20srd": ("skill:spot", ("spot", "listen"))}


def perception(system: str) -> tuple[str, tuple[str, ...]]:
    """The statistic a passive reads in ``system`` and its passive keys."""
    return PERCEPTION.get(system, ("skill:perception", ("perception",)))


def types_of(system: str) -> tuple[str, str]:
    """Two stacking types of ``system`` that don't compete with each other."""
    known = registry.get(system).facts.modifier_types
    first = "luck" if "luck" in known else "status"
    return first, "circumstance"


def effect(name: str, *, until: str | None = None, **modifier: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "modifiers": [{"targets": ["check"], **modifier}]}
    if until:
        out["until"] = until
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_sheet_rolls_its_dice_bonus(system: str) -> None:
    kind, _ = types_of(system)
    stat_id, _ = perception(system)
    plain = derive(character(system)).statistics[stat_id]
    blessed = derive(character(system, effect("Bless", type=kind, value="1d4")))
    stat = blessed.statistics[stat_id]
    assert stat.bonus_dice == ("+1d4",) and stat.total == plain.total
    for seed in range(30):
        result = roll_statistic(stat, system, random.Random(seed))
        (bonus,) = result.bonus
        assert bonus.label == "Bless" and 1 <= bonus.value <= 4
        assert result.total == result.natural + stat.modifier + bonus.value
    odds = statistic_odds(stat, system, 15)
    assert dict(odds.probabilities) == brute_force(system, stat.modifier, 15, "normal",
                                                   ("+1d4",))


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_passive_leaves_out_dice_and_what_lasts_until_the_next_roll(system: str) -> None:
    kind, other = types_of(system)
    stat_id, keys = perception(system)
    base = derive(character(system))
    bless = effect("Bless", type=kind, value="1d4")
    aid = effect("Aid", until="next_roll", type=other, value=2)
    lasting = effect("Aid", type=other, value=2)

    fleeting_sheet = character(system, bless, aid)
    fleeting = derive(fleeting_sheet)
    stat = fleeting.statistics[stat_id]
    assert stat.total == base.statistics[stat_id].total + 2  # the roll gets the +2 ...
    for key in keys:
        assert fleeting.passive[key] == base.passive[key]  # ... the passive gets neither
    assert fleeting_sources(fleeting_sheet) == {"Aid"}
    lines = {line.label: line for line in passive_lines(stat, fleeting_sources(fleeting_sheet))}
    assert (lines["Bless"].applied, lines["Bless"].reason) == (False, DICE_REASON)
    assert (lines["Aid"].applied, lines["Aid"].reason) == (False, FLEETING_REASON)
    assert lines["Aid"].value == 2 and lines["Bless"].dice == "+1d4"
    assert passive_total(stat, {"Aid"}) == sum(
        line.value for line in lines.values() if line.applied)
    # the breakdown as rolled is untouched
    assert all(line.applied for line in stat.modifiers if line.label in ("Bless", "Aid"))

    lasting_sheet = derive(character(system, bless, lasting))
    for key in keys:
        assert lasting_sheet.passive[key] == base.passive[key] + 2  # a lasting +2 counts
    # an inactive fleeting effect is nothing at all
    asleep = character(system, {**aid, "active": False})
    assert fleeting_sources(asleep) == frozenset()


@pytest.mark.parametrize("system", [s for s in SYSTEMS if registry.get(s).facts.open_types])
def test_5e_help_gives_a_roll_advantage_but_not_the_passive_its_plus_5(system: str) -> None:
    base = derive(character(system)).passive["perception"]
    help_ = effect("Help", until="next_roll", mode="advantage")
    keen = effect("Keen senses", mode="advantage")
    helped = derive(character(system, help_))
    assert helped.statistics["skill:perception"].roll_mode == "advantage"
    assert helped.passive["perception"] == base
    assert derive(character(system, keen)).passive["perception"] == base + 5
    assert derive(character(system, keen, help_)).passive["perception"] == base + 5
    heavy = effect("Hex", mode="disadvantage")  # Help and Hex cancel on a roll; not passively
    assert derive(character(system, heavy, help_)).passive["perception"] == base - 5


def test_passive_lines_leave_a_plain_statistic_alone() -> None:
    stat = check()
    assert passive_lines(stat, {"Guidance"}) is stat.modifiers
    assert passive_total(stat) == stat.total == 5


# --- until: next_roll ----------------------------------------------------------------------

GUIDANCE = {"name": "Guidance", "until": "next_roll",
            "modifiers": [{"type": "untyped", "value": "1d4", "targets": ["skill"]}]}


def test_a_roll_spends_guidance_in_the_same_undo_step() -> None:
    before = character("dnd5e", GUIDANCE, {"name": "Bless", "modifiers": [
        {"type": "untyped", "value": "1d4", "targets": ["save"]}]})
    stealth = derive(before).statistics["skill:stealth"]
    assert stealth.bonus_dice == ("+1d4",)
    assert spent_effects(before, stealth) == [0]
    assert spend_edits(before, stealth) == [edit.Set(("effects", 0, "active"), False)]

    result = roll_statistic(stealth, "dnd5e", random.Random(4), dc=12)
    step = roll_edit(before, stealth, result.to_record(WHEN))
    assert isinstance(step, edit.Batch)
    assert step.steps[1:] == (edit.Set(("effects", 0, "active"), False),)
    after = edit.apply(before, step)
    assert [e.active for e in after.effects] == [False, True]  # Bless stays
    assert len(after.roll_log) == 1
    assert after.roll_log[0].total == result.total
    assert derive(after).statistics["skill:stealth"].bonus_dice == ()

    # undo puts the old character back: Guidance on, the log as it was
    assert before.effects[0].active and before.roll_log == []
    assert derive(before).statistics["skill:stealth"].bonus_dice == ("+1d4",)
    # and redoing the same step spends it again
    assert edit.apply(before, step) == after


def test_a_roll_guidance_does_not_touch_leaves_it_on() -> None:
    before = character("dnd5e", GUIDANCE)
    save = derive(before).statistics["save:wis"]
    assert spent_effects(before, save) == []
    result = roll_statistic(save, "dnd5e", random.Random(1))
    step = roll_edit(before, save, result.to_record(WHEN))
    assert len(step.steps) == 1
    after = edit.apply(before, step)
    assert after.effects[0].active and len(after.roll_log) == 1


def test_a_mode_from_a_fleeting_effect_is_spent_too() -> None:
    before = character("runarcana", {"name": "Help", "until": "next_roll", "modifiers": [
        {"mode": "advantage", "targets": ["skill:athletics"]}]})
    d = derive(before)
    assert spent_effects(before, d.statistics["skill:athletics"]) == [0]
    assert spent_effects(before, d.statistics["skill:stealth"]) == []


def test_an_outstacked_or_inactive_fleeting_effect_is_not_spent() -> None:
    aid = {"name": "Aid", "until": "next_roll", "modifiers": [
        {"type": "circumstance", "value": 1, "targets": ["skill"]}]}
    cover = {"name": "Cover", "modifiers": [
        {"type": "circumstance", "value": 2, "targets": ["skill:stealth"]}]}
    sheet = character("pf2e", aid, cover, {**aid, "name": "Old aid", "active": False})
    d = derive(sheet)
    assert spent_effects(sheet, d.statistics["skill:stealth"]) == []  # Aid lost to Cover
    assert spent_effects(sheet, d.statistics["skill:athletics"]) == [0]


# --- the command line ----------------------------------------------------------------------


def test_roll_command_rolls_the_bonus_dice(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "blessed.json"
    sheet = character("runarcana", {"name": "Bless", "modifiers": [
        {"type": "status", "value": "1d4", "targets": ["skill:stealth"]}]})
    path.write_text(json.dumps(sheet.dump()))
    run = cli("roll", path, "skill:stealth", "--seed", "7", "--dc", "15", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    (bonus,) = data["bonus_dice"]
    assert bonus["expression"] == "+1d4" and bonus["label"] == "Bless"
    assert data["total"] == data["natural"] + data["total_modifier"] + bonus["value"]
    stat = derive(sheet).statistics["skill:stealth"]
    assert data["odds"] == statistic_odds(stat, "runarcana", 15).to_json()
    text = cli("roll", path, "skill:stealth", "--seed", "7")
    assert f"[1d4] = {data['total']}" in text.out.splitlines()[0]
    assert any(line.strip().startswith("+1d4  Bless") and f"rolled {bonus['value']:+d}" in line
               for line in text.out.splitlines())
