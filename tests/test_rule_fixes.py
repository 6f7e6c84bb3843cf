"""The audit's rule fixes and the RULES.md worked examples of conditions, each a test."""

from __future__ import annotations

from typing import Any

import pytest

from sheet_app import registry
from sheet_app.derived import Derived, ModifierLine, Statistic
from sheet_app.io import character_from_data, load_character
from tests.helpers import SAMPLES, SYSTEM_IDS


def derive(system: str, **fields: Any) -> Derived:
    character = character_from_data(
        {"format": "sheet-app/character", "version": 2, "system": system, **fields})
    return registry.get(system).derive(character)


def effect(name: str, *mods: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "modifiers": list(mods), **extra}


def mod(type_: str, value: int, *targets: str) -> dict[str, Any]:
    return {"type": type_, "value": value, "targets": list(targets)}


def condition(key: str, value: int | None = None, name: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name or key.capitalize(), "condition": key}
    if value is not None:
        out["value"] = value
    return out


def lines(stat: Statistic, label: str) -> list[ModifierLine]:
    return [m for m in stat.modifiers if m.label.startswith(label)]


# --- d20srd ----------------------------------------------------------------------------
def test_d20_flat_footed_keeps_another_abilitys_bonus_to_ac() -> None:
    """A monk's Wisdom to AC (an ability-type effect) stays when flat-footed; Dex and dodge
    bonuses go."""
    d = derive("d20srd", abilities={"dex": 14, "wis": 16}, effects=[
        effect("Monk AC bonus", mod("ability", 3, "ac")),
        effect("Dodge feat", mod("dodge", 1, "ac"))])
    assert d.statistics["ac"].total == 10 + 2 + 3 + 1
    assert d.statistics["ac:flat_footed"].total == 10 + 3
    [wis] = lines(d.statistics["ac:flat_footed"], "Monk AC bonus")
    assert wis.applied


def test_d20_morale_follows_effective_intelligence() -> None:
    d = derive("d20srd", abilities={"int": 10}, effects=[
        effect("Mind drain", mod("untyped", -10, "score:int")),
        effect("Heroism song", mod("morale", 2, "attack"))])
    assert d.abilities["int"].score == 0
    [morale] = lines(d.statistics["attack:melee"], "Heroism song")
    assert not morale.applied and "no Intelligence" in (morale.reason or "")
    restored = derive("d20srd", abilities={"int": None}, effects=[
        effect("Awaken", mod("untyped", 0, "attack")),
        effect("Heroism song", mod("morale", 2, "attack"))])
    assert restored.statistics["attack:melee"].total == 0


def test_d20_inherent_cap_on_every_value() -> None:
    """RULES.md E: inherent +7 on Climb → +5, the rest shown as capped."""
    d = derive("d20srd", effects=[effect("Manual", mod("inherent", 7, "skill:climb"))])
    climb = d.statistics["skill:climb"]
    assert climb.total == 5
    [line] = lines(climb, "Manual")
    assert line.value == 5 and "capped at +5" in line.label and "+7" in line.label


def test_d20_circumstance_example_from_rules() -> None:
    """RULES.md E: circumstance +2, +1, −2 and −2 (four sources) on Climb → +1; the second
    −2 is suppressed."""
    d = derive("d20srd", effects=[
        effect("Rope", mod("circumstance", 2, "skill:climb")),
        effect("Knotted", mod("circumstance", 1, "skill:climb")),
        effect("Slippery", mod("circumstance", -2, "skill:climb")),
        effect("Wind", mod("circumstance", -2, "skill:climb"))])
    climb = d.statistics["skill:climb"]
    assert climb.total == 1
    applied = {line.label: line.applied for line in climb.modifiers}
    assert applied == {"Ranks": True, "Strength": True, "Rope": True, "Knotted": True,
                       "Slippery": True, "Wind": False}


def test_d20_sample_balance_counts_the_shield() -> None:
    d = registry.get("d20srd").derive(load_character(SAMPLES["d20srd"]))
    assert d.statistics["skill:balance"].total == -5


def test_d20_armor_and_shield_penalties_add_and_the_worse_of_load_wins() -> None:
    worn = {"armor": {"bonus": 4, "check_penalty": -4}, "shield": {"bonus": 1,
                                                               "check_penalty": -1}}
    assert derive("d20srd", **worn).statistics["skill:climb"].total == -5
    heavy = derive("d20srd", abilities={"str": 10}, **worn,
                   inventory=[{"name": "Anvil", "weight": 90.0}])
    assert heavy.statistics["skill:climb"].total == -6


def test_d20_armor_speed_for_a_30_ft_creature() -> None:
    d = derive("d20srd", armor={"name": "Breastplate", "bonus": 5, "speed_30": 20})
    assert d.speed.total == 20


@pytest.mark.parametrize(
    ("conditions", "total"),
    [([condition("shaken"), condition("sickened")], -4),
     ([condition("shaken"), condition("shaken")], -2)],
)
def test_d20_shaken_and_sickened(conditions: list[dict[str, Any]], total: int) -> None:
    """RULES.md E: shaken and sickened → −4 in all (different sources); shaken twice is one
    source → −2."""
    d = derive("d20srd", effects=conditions)
    for stat_id in ("attack:melee", "save:will", "skill:climb", "ability:str"):
        assert d.statistics[stat_id].total == total, stat_id


def test_d20_fatigued_and_exhausted_lower_scores_and_speed() -> None:
    """RULES.md E: fatigued → −2 Str and −2 Dex; exhausted → −6 Str and −6 Dex, half speed."""
    base = {"abilities": {"str": 14, "dex": 14}}
    fatigued = derive("d20srd", **base, effects=[condition("fatigued")])
    assert (fatigued.abilities["str"].score, fatigued.abilities["dex"].score) == (12, 12)
    exhausted = derive("d20srd", **base, effects=[condition("exhausted")])
    assert (exhausted.abilities["str"].score, exhausted.abilities["dex"].score) == (8, 8)
    assert exhausted.speed.total == 15


# --- pf2e ------------------------------------------------------------------------------
def test_pf2e_frightened_2_and_sickened_1() -> None:
    """RULES.md E: −2 status to every check and DC (AC too); the −1 is shown suppressed."""
    d = derive("pf2e", effects=[condition("frightened", 2, "Frightened 2"),
                                condition("sickened", 1, "Sickened 1")])
    for stat_id in ("skill:stealth", "save:will", "perception", "attack:melee", "ac"):
        stat = d.statistics[stat_id]
        [scared] = lines(stat, "Frightened 2")
        [sick] = lines(stat, "Sickened 1")
        assert scared.applied and scared.value == -2, stat_id
        assert not sick.applied and "Frightened 2" in (sick.reason or ""), stat_id


def test_pf2e_clumsy_2() -> None:
    """RULES.md E: Clumsy 2 → −2 status to AC, Reflex, Acrobatics, Stealth, Thievery,
    ranged attacks."""
    plain = derive("pf2e").statistics
    clumsy = derive("pf2e", effects=[condition("clumsy", 2)]).statistics
    for stat_id in ("ac", "save:reflex", "skill:acrobatics", "skill:stealth",
                    "skill:thievery", "attack:ranged"):
        assert clumsy[stat_id].total == plain[stat_id].total - 2, stat_id
    assert clumsy["attack:melee"].total == plain["attack:melee"].total


def test_pf2e_drained_2_at_level_5() -> None:
    """RULES.md E: −2 status to Con-based checks (Fortitude) and max HP −10."""
    plain = derive("pf2e", level=5)
    drained = derive("pf2e", level=5, effects=[condition("drained", 2)])
    assert drained.statistics["save:fortitude"].total == plain.statistics[
        "save:fortitude"].total - 2
    assert drained.hit_points.max == plain.hit_points.max - 10


def test_pf2e_enfeebled_1() -> None:
    """RULES.md E: −1 status to Str-based rolls and DCs (melee attacks, Athletics)."""
    plain = derive("pf2e").statistics
    weak = derive("pf2e", effects=[condition("enfeebled", 1)]).statistics
    assert weak["attack:melee"].total == plain["attack:melee"].total - 1
    assert weak["skill:athletics"].total == plain["skill:athletics"].total - 1
    assert weak["attack:ranged"].total == plain["attack:ranged"].total


# --- 5e-style systems --------------------------------------------------------------------
FIVE_E = tuple(s for s in SYSTEM_IDS if registry.get(s).facts.open_types)
"""The 5e-style systems (Runarcana, D&D 5e): their modifier types are open words."""


@pytest.mark.parametrize("system", FIVE_E)
def test_proficiency_effect_on_a_proficient_skill_is_suppressed(system: str) -> None:
    d = derive(system, skills={"stealth": "proficient"}, effects=[
        effect("Cloak of skill", mod("proficiency", 2, "skill:stealth"))])
    stealth = d.statistics["skill:stealth"]
    assert stealth.total == 2
    [line] = lines(stealth, "Cloak of skill")
    assert not line.applied and "at most once" in (line.reason or "")
    untrained = derive(system, effects=[
        effect("Cloak of skill", mod("proficiency", 2, "skill:stealth"))])
    assert untrained.statistics["skill:stealth"].total == 2


@pytest.mark.parametrize("system", FIVE_E)
def test_effects_keep_scores_within_0_and_30(system: str) -> None:
    d = derive(system, abilities={"str": 28, "dex": 3}, effects=[
        effect("Belt", mod("item", 6, "score:str")), effect("Curse", mod("untyped", -8,
                                                                           "score:dex"))])
    assert (d.abilities["str"].score, d.abilities["str"].modifier) == (30, 10)
    assert d.abilities["dex"].score == 0
    [cap] = lines_of(d.abilities["str"].breakdown, "A score is at most 30")
    assert cap.value == -4


def lines_of(breakdown: tuple[ModifierLine, ...], label: str) -> list[ModifierLine]:
    return [m for m in breakdown if m.label == label]


@pytest.mark.parametrize("system", FIVE_E)
def test_heavy_disadvantage_stays_above_capacity(system: str) -> None:
    facts = registry.get(system).facts
    per_str = 7 if facts.weight_unit == "kg" else 15
    d = derive(system, abilities={"str": 10},
               inventory=[{"name": "Load", "weight": float(per_str * 10 + 1)}])
    assert d.carrying.state == "over_capacity"
    assert d.statistics["skill:athletics"].roll_mode == "disadvantage"


@pytest.mark.parametrize("system", FIVE_E)
def test_poisoned_gives_disadvantage_on_attacks_and_checks(system: str) -> None:
    d = derive(system, effects=[condition("poisoned")])
    assert d.statistics["attack:melee"].roll_mode == "disadvantage"
    assert d.statistics["skill:stealth"].roll_mode == "disadvantage"
    assert d.statistics["save:dex"].roll_mode == "normal"


# --- messages --------------------------------------------------------------------------
def test_pf2e_score_is_explained() -> None:
    with pytest.raises(Exception, match="Pathfinder 2e stores attribute modifiers"):
        derive("pf2e", abilities={"str": 16})


def test_unknown_condition_suggests_the_closest() -> None:
    with pytest.raises(Exception, match="did you mean 'frightened'"):
        derive("pf2e", effects=[condition("frightend", 1)])
