"""Every worked example (E) of shared/RULES.md, plus the rules around them."""

from __future__ import annotations

from typing import Any

import pytest

from sheet_app.derived import Derived, Statistic
from sheet_app.io import character_from_data
from sheet_app.model import CharacterBase
from sheet_app.rules import derive
from sheet_app.rules.common import (
    Contribution,
    ability_modifier,
    combine_multipliers,
    multiply_real,
)
from sheet_app.systems.d20srd.stacking import stack_d20
from sheet_app.systems.pf2e.rules import stack_pf2e


def make(system: str, **fields: Any) -> CharacterBase:
    return character_from_data(
        {"format": "sheet-app/character", "version": 1, "system": system, **fields}
    )


def effect(name: str, *mods: dict[str, Any], active: bool = True) -> dict[str, Any]:
    return {"name": name, "active": active, "modifiers": list(mods)}


def mod(type_: str, value: int, *targets: str) -> dict[str, Any]:
    return {"type": type_, "value": value, "targets": list(targets)}


def line(stat: Statistic, label: str) -> Any:
    matches = [m for m in stat.modifiers if m.label == label]
    assert len(matches) == 1, [m.label for m in stat.modifiers]
    return matches[0]


# --- shared ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("score", "modifier"),
    [(1, -5), (2, -4), (3, -4), (4, -3), (5, -3), (6, -2), (7, -2), (8, -1), (9, -1),
     (10, 0), (11, 0), (12, 1), (13, 1), (14, 2), (15, 2), (16, 3), (17, 3), (18, 4), (19, 4),
     (20, 5), (21, 5), (22, 6), (23, 6), (24, 7), (25, 7), (26, 8), (27, 8), (28, 9), (29, 9),
     (30, 10)],
)
def test_ability_modifier_table_of_the_runarcana_seed(score: int, modifier: int) -> None:
    assert ability_modifier(score) == modifier


def test_rounding_is_floor_for_negative_numbers() -> None:
    assert ability_modifier(9) == -1
    assert ability_modifier(1) == -5


def test_abstract_multipliers_add_extra_multiples_less_one() -> None:
    assert combine_multipliers([2, 2]) == 3
    assert combine_multipliers([2, 3]) == 4
    assert combine_multipliers([3]) == 3


def test_real_world_multipliers_multiply() -> None:
    assert multiply_real([2, 2]) == 4
    assert multiply_real([8, 3]) == 24


# --- pf2e --------------------------------------------------------------------------------
def test_pf2e_proficiency_by_rank() -> None:
    for rank, expected in [("untrained", 0), ("trained", 7), ("expert", 9), ("master", 11),
                           ("legendary", 13)]:
        d = derive(make("pf2e", level=5, skills={"stealth": rank}))
        assert line(d.statistics["skill:stealth"], f"Proficiency ({rank})").value == expected


def test_pf2e_status_bonus_and_penalty_both_apply() -> None:
    """E: heroism +1 status and sickened -2 status → both apply, net -1."""
    base = derive(make("pf2e")).statistics["skill:stealth"].total
    d = derive(make("pf2e", effects=[
        effect("Heroism", mod("status", 1, "skill")),
        effect("Sickened", mod("status", -2, "check")),
    ]))
    stat = d.statistics["skill:stealth"]
    assert line(stat, "Heroism").applied and line(stat, "Sickened").applied
    assert stat.total == base - 1


def test_pf2e_only_the_highest_item_bonus_applies() -> None:
    """E: two item bonuses +1 and +2 → only +2; the +1 is shown suppressed by the +2."""
    d = derive(make("pf2e", effects=[
        effect("Ring", mod("item", 1, "skill:stealth")),
        effect("Cloak", mod("item", 2, "skill:stealth")),
    ]))
    stat = d.statistics["skill:stealth"]
    ring, cloak = line(stat, "Ring"), line(stat, "Cloak")
    assert cloak.applied and not ring.applied
    assert ring.reason == "a higher item bonus applies (+2 Cloak)"
    assert stat.total == derive(make("pf2e")).statistics["skill:stealth"].total + 2


def test_pf2e_untyped_penalties_add_up() -> None:
    """E: multiple attack penalty -5 and range penalty -2 → -7."""
    base = derive(make("pf2e")).statistics["attack:ranged"].total
    d = derive(make("pf2e", effects=[
        effect("Multiple attack penalty", mod("untyped", -5, "attack")),
        effect("Range penalty", mod("untyped", -2, "attack:ranged")),
    ]))
    assert d.statistics["attack:ranged"].total == base - 7


def test_pf2e_worst_penalty_of_a_type_applies() -> None:
    d = derive(make("pf2e", effects=[
        effect("Frightened 1", mod("status", -1, "check")),
        effect("Sickened 2", mod("status", -2, "check")),
    ]))
    stat = d.statistics["save:will"]
    assert line(stat, "Sickened 2").applied
    assert not line(stat, "Frightened 1").applied
    assert "worse status penalty" in (line(stat, "Frightened 1").reason or "")


def test_pf2e_untyped_bonuses_add_up() -> None:
    d = derive(make("pf2e", effects=[
        effect("A", mod("untyped", 1, "skill:stealth")),
        effect("B", mod("untyped", 2, "skill:stealth")),
    ]))
    assert d.statistics["skill:stealth"].total == derive(make("pf2e")).statistics[
        "skill:stealth"].total + 3


@pytest.mark.parametrize(
    ("modes", "expected"),
    [((), "normal"), (("fortune",), "fortune"), (("misfortune",), "misfortune"),
     (("fortune", "misfortune"), "normal"), (("fortune", "fortune"), "fortune"),
     (("fortune", "fortune", "misfortune"), "normal")],
)
def test_pf2e_fortune_and_misfortune(modes: tuple[str, ...], expected: str) -> None:
    effects = [effect(f"E{i}", {"mode": m, "targets": ["skill"]}) for i, m in enumerate(modes)]
    d = derive(make("pf2e", effects=effects))
    assert d.statistics["skill:stealth"].roll_mode == expected
    assert d.statistics["save:will"].roll_mode == "normal"


def test_pf2e_perception_dc_is_ten_plus_modifier() -> None:
    d = derive(make("pf2e", level=2, abilities={"wis": 3}, perception="expert"))
    assert d.statistics["perception"].total == 3 + 2 + 4
    assert d.passive["perception"] == 10 + 9
    assert d.statistics["skill:stealth"].dc == 10 + d.statistics["skill:stealth"].total


def test_pf2e_max_hp() -> None:
    d = derive(make("pf2e", level=3, abilities={"con": 2},
                    hit_points={"ancestry": 8, "class": 10}))
    assert d.hit_points.max == 8 + (10 + 2) * 3


def test_pf2e_bulk_encumbrance() -> None:
    light = [{"name": "Torch", "quantity": 19, "bulk": "L"}]
    d = derive(make("pf2e", abilities={"str": 1}, inventory=[
        *light, {"name": "Armor", "quantity": 1, "bulk": 5}]))
    # 19 L = 1 Bulk (fractions of ten L's don't count): 6 Bulk ≤ 5 + 1.
    assert d.carrying.carried == 6 and d.carrying.state == "unencumbered"
    d = derive(make("pf2e", abilities={"str": 1, "dex": 3}, inventory=[
        *light, {"name": "Armor", "quantity": 1, "bulk": 6}]))
    assert d.carrying.state == "encumbered"
    assert d.speed.total == 25 - 10
    ac = d.statistics["ac"]
    assert line(ac, "Clumsy 1 (encumbered)").value == -1
    assert d.statistics["skill:acrobatics"].total == 3 + 0 - 1
    d = derive(make("pf2e", abilities={"str": 1}, inventory=[
        {"name": "Anvil", "quantity": 1, "bulk": 12}]))
    assert d.carrying.state == "over_capacity" and d.carrying.capacity == 11


# --- runarcana ---------------------------------------------------------------------------
@pytest.mark.parametrize(("level", "pb"), [(1, 2), (4, 2), (5, 3), (8, 3), (9, 4), (12, 4),
                                           (13, 5), (16, 5), (17, 6), (20, 6)])
def test_runarcana_proficiency_by_level(level: int, pb: int) -> None:
    assert derive(make("runarcana", level=level)).proficiency_bonus == pb


def test_runarcana_proficiency_override_for_creatures() -> None:
    assert derive(make("runarcana", level=1, proficiency_bonus=7)).proficiency_bonus == 7


def test_runarcana_expertise() -> None:
    """E: PB +3: proficient +3, expertise +6, expertise twice +7, not proficient 0."""
    skills = {"arcana": "proficient", "history": "expertise", "nature": "expertise_twice"}
    d = derive(make("runarcana", level=5, skills=skills))
    prof = {s: next(m for m in d.statistics[f"skill:{s}"].modifiers if m.type == "proficiency")
            for s in ("arcana", "history", "nature", "religion")}
    assert {s: m.value for s, m in prof.items()} == {
        "arcana": 3, "history": 6, "nature": 7, "religion": 0}


def test_runarcana_skills_and_their_abilities() -> None:
    d = derive(make("runarcana", abilities={"str": 20, "dex": 10, "con": 30, "int": 10,
                                             "wis": 10, "cha": 10}))
    skills = [k for k in d.statistics if k.startswith("skill:")]
    assert len(skills) == 19
    assert d.statistics["skill:athletics"].total == 5
    assert not any(d.statistics[k].ability == "con" for k in skills)


def test_runarcana_saving_throw() -> None:
    d = derive(make("runarcana", level=1, abilities={"wis": 15}, saves={"wis": "proficient"}))
    assert d.statistics["save:wis"].total == 2 + 2
    assert d.statistics["save:int"].total == 0


def test_runarcana_passive_perception() -> None:
    """E: level 1, Wis 15, proficient in Perception → passive Perception 14."""
    d = derive(make("runarcana", level=1, abilities={"wis": 15},
                    skills={"perception": "proficient"}))
    assert d.passive["perception"] == 14


def test_runarcana_passive_with_advantage_and_disadvantage() -> None:
    adv = effect("Keen", {"mode": "advantage", "targets": ["skill:perception"]})
    dis = effect("Blinded", {"mode": "disadvantage", "targets": ["check"]})
    base = dict(level=1, abilities={"wis": 15}, skills={"perception": "proficient"})
    assert derive(make("runarcana", **base, effects=[adv])).passive["perception"] == 19
    assert derive(make("runarcana", **base, effects=[dis])).passive["perception"] == 9
    assert derive(make("runarcana", **base, effects=[adv, dis])).passive["perception"] == 14


@pytest.mark.parametrize(
    ("modes", "expected"),
    [(("advantage",), "advantage"), (("advantage", "advantage"), "advantage"),
     (("disadvantage",), "disadvantage"), (("advantage", "disadvantage"), "normal"),
     (("advantage", "disadvantage", "disadvantage"), "normal"),
     (("advantage", "advantage", "disadvantage"), "normal")],
)
def test_runarcana_advantage_and_disadvantage_cancel(
    modes: tuple[str, ...], expected: str
) -> None:
    effects = [effect(f"E{i}", {"mode": m, "targets": ["check"]}) for i, m in enumerate(modes)]
    assert derive(make("runarcana", effects=effects)).statistics["skill:stealth"].roll_mode == (
        expected
    )


def test_runarcana_same_effect_twice_counts_once() -> None:
    d = derive(make("runarcana", effects=[
        effect("Bless", mod("status", 1, "save")), effect("Bless", mod("status", 1, "save"))]))
    assert d.statistics["save:wis"].total == 1


def test_runarcana_carrying_capacity_and_size() -> None:
    d = derive(make("runarcana", abilities={"str": 15}))
    assert (d.carrying.capacity, d.carrying.push_drag_lift) == (105, 210)
    assert derive(make("runarcana", size="large", abilities={"str": 15})).carrying.capacity == 210
    assert derive(make("runarcana", size="huge", abilities={"str": 15})).carrying.capacity == 420
    assert derive(make("runarcana", size="tiny", abilities={"str": 15})).carrying.capacity == 52.5


def _carry(weight: float, variant: bool = True) -> Derived:
    return derive(make("runarcana", abilities={"str": 15},
                       inventory=[{"name": "Load", "quantity": 1, "weight": weight}],
                       options={"variant_encumbrance": variant}))


def test_runarcana_variant_encumbrance_thresholds() -> None:
    """E: Str 15: capacity 105 kg, encumbered above 35 kg, heavily above 70 kg."""
    d = _carry(30)
    assert d.carrying.encumbered_above == 35 and d.carrying.heavily_encumbered_above == 70
    assert d.carrying.state == "unencumbered" and d.speed.total == 30
    d = _carry(50)
    assert d.carrying.state == "encumbered" and d.carrying.speed_penalty == 10
    assert d.speed.total == 20
    d = _carry(90)
    assert d.carrying.state == "heavily_encumbered" and d.speed.total == 10
    for stat in ("skill:athletics", "skill:stealth", "save:con", "attack:melee",
                 "attack:ranged", "ability:dex", "initiative"):
        assert d.statistics[stat].roll_mode == "disadvantage", stat
    for stat in ("skill:arcana", "save:wis", "ability:cha"):
        assert d.statistics[stat].roll_mode == "normal", stat
    d = _carry(120)
    assert d.carrying.state == "over_capacity" and d.speed.total == 5


def test_runarcana_encumbrance_boundaries_are_strictly_above() -> None:
    assert _carry(35).carrying.state == "unencumbered"
    assert _carry(70).carrying.state == "encumbered"
    assert _carry(105).carrying.state == "heavily_encumbered"


def test_runarcana_without_variant_only_capacity_matters() -> None:
    assert _carry(90, variant=False).carrying.state == "unencumbered"
    assert _carry(90, variant=False).statistics["skill:athletics"].roll_mode == "normal"
    assert _carry(120, variant=False).carrying.state == "over_capacity"


def test_runarcana_heavy_disadvantage_cancels_with_advantage() -> None:
    d = derive(make("runarcana", abilities={"str": 15},
                    inventory=[{"name": "Load", "quantity": 1, "weight": 90}],
                    effects=[effect("Guidance", {"mode": "advantage", "targets": ["check"]})]))
    assert d.statistics["skill:stealth"].roll_mode == "normal"
    assert d.statistics["skill:arcana"].roll_mode == "advantage"


def _hp(level: int, con: int, rolls: list[int] | None = None) -> int:
    return derive(make("runarcana", level=level, abilities={"con": con},
                       hit_points={"hit_die": 8, "level_rolls": rolls or []})).hit_points.max


def test_runarcana_hit_points() -> None:
    # d8: 8 at level 1, then the average 5 per level, plus Con per level.
    assert _hp(1, 14) == 8 + 2
    assert _hp(3, 14) == 8 + 5 + 5 + 6
    assert _hp(3, 14, [3, 8]) == 8 + 3 + 8 + 6


def test_runarcana_con_drop_at_level_7() -> None:
    """E: level 7, Con modifier drops by 1 → max HP -7."""
    assert _hp(7, 14) - _hp(7, 12) == 7


def test_runarcana_con_rise_at_level_4() -> None:
    """E: level 4, Con modifier +1 → +2 → max HP +4."""
    assert _hp(4, 14) - _hp(4, 12) == 4


def test_hit_points_minimum_one_per_level() -> None:
    d = derive(make("runarcana", level=3, abilities={"con": 1},
                    hit_points={"hit_die": 6, "level_rolls": [1, 2]}))
    assert d.hit_points.max == 1 + 1 + 1


def test_runarcana_initiative_is_a_dex_check() -> None:
    d = derive(make("runarcana", abilities={"dex": 16}, effects=[
        effect("Alert", mod("untyped", 2, "ability:dex"))]))
    assert d.statistics["initiative"].total == 3 + 2


# --- d20srd ------------------------------------------------------------------------------
def _d20_ac(*effects: dict[str, Any], **fields: Any) -> Derived:
    return derive(make("d20srd", effects=list(effects), **fields))


def test_d20_deflection_does_not_stack() -> None:
    """E: +2 deflection and +3 deflection → +3."""
    d = _d20_ac(effect("Shield of Faith", mod("deflection", 2, "ac")),
                effect("Ring", mod("deflection", 3, "ac")))
    assert d.statistics["ac"].total == 13
    reason = line(d.statistics["ac"], "Shield of Faith").reason
    assert reason == "a higher deflection bonus applies (+3 Ring)"


def test_d20_dodge_stacks_from_two_sources() -> None:
    """E: +1 dodge and +1 dodge from two sources → +2."""
    d = _d20_ac(effect("Dodge", mod("dodge", 1, "ac")), effect("Haste", mod("dodge", 1, "ac")))
    assert d.statistics["ac"].total == 12


def test_d20_same_spell_twice_does_not_stack() -> None:
    """E: the same spell's +2 morale twice → +2."""
    d = derive(make("d20srd", effects=[effect("Heroism", mod("morale", 2, "attack")),
                                       effect("Heroism", mod("morale", 2, "attack"))]))
    assert d.statistics["attack:melee"].total == 2
    d = derive(make("d20srd", effects=[effect("Haste", mod("dodge", 1, "ac")),
                                       effect("Haste", mod("dodge", 1, "ac"))]))
    assert d.statistics["ac"].total == 11


def test_d20_circumstance_flanking_and_mutation_stack() -> None:
    d = derive(make("d20srd", effects=[
        effect("High ground", mod("circumstance", 1, "attack:melee")),
        effect("Flanking", mod("flanking", 2, "attack:melee")),
        effect("Extra arm", mod("mutation", 1, "attack:melee")),
        effect("Third eye", mod("mutation", 1, "attack:melee"))]))
    assert d.statistics["attack:melee"].total == 5


def test_d20_penalties_of_a_type_worst_applies_and_different_types_add() -> None:
    d = derive(make("d20srd", effects=[
        effect("Curse", mod("luck", -2, "save")), effect("Bad omen", mod("luck", -1, "save")),
        effect("Despair", mod("morale", -2, "save"))]))
    assert d.statistics["save:will"].total == -4


def test_d20_sacred_and_profane_bonuses_never_both_benefit() -> None:
    d = derive(make("d20srd", effects=[
        effect("Bless weapon", mod("sacred", 2, "attack")),
        effect("Unholy aura", mod("profane", 4, "save"))]))
    assert d.statistics["save:will"].total == 4
    sacred = line(d.statistics["attack:melee"], "Bless weapon")
    assert not sacred.applied and "profane is kept" in (sacred.reason or "")
    assert d.notes and "profane is kept" in d.notes[0]


def test_d20_sacred_wins_a_tie_and_the_player_may_choose() -> None:
    effects = [effect("Holy", mod("sacred", 2, "attack")),
               effect("Unholy", mod("profane", 2, "save"))]
    d = derive(make("d20srd", effects=effects))
    assert line(d.statistics["attack:melee"], "Holy").applied
    assert not line(d.statistics["save:will"], "Unholy").applied
    d = derive(make("d20srd", effects=effects, options={"sacred_profane": "profane"}))
    assert not line(d.statistics["attack:melee"], "Holy").applied
    assert line(d.statistics["save:will"], "Unholy").applied


def test_d20_sacred_and_profane_penalties_stack() -> None:
    d = derive(make("d20srd", effects=[effect("A", mod("sacred", -1, "save")),
                                       effect("B", mod("profane", -2, "save"))]))
    assert d.statistics["save:will"].total == -3


def test_d20_inherent_bonus_capped_at_five() -> None:
    d = derive(make("d20srd", abilities={"str": 10}, effects=[
        effect("Wish", mod("inherent", 6, "score:str"))]))
    assert d.abilities["str"].score == 15 and d.abilities["str"].modifier == 2


def test_d20_score_enhancement_changes_everything_from_it() -> None:
    d = derive(make("d20srd", abilities={"str": 10}, effects=[
        effect("Bull's Strength", mod("enhancement", 4, "score:str")),
        effect("Belt", mod("enhancement", 2, "score:str"))]))
    assert d.abilities["str"].score == 14
    assert d.statistics["attack:melee"].total == 2
    assert d.carrying.capacity == 175


def test_d20_morale_needs_intelligence() -> None:
    d = derive(make("d20srd", abilities={"int": None}, effects=[
        effect("Bless", mod("morale", 1, "attack"))]))
    assert d.statistics["attack:melee"].total == 0
    assert "no Intelligence" in (line(d.statistics["attack:melee"], "Bless").reason or "")
    d = derive(make("d20srd", abilities={"int": 0}, effects=[
        effect("Bless", mod("morale", 1, "attack"))]))
    assert d.statistics["attack:melee"].total == 0


def test_d20_competence_not_on_ability_checks_or_initiative() -> None:
    d = derive(make("d20srd", effects=[effect("Inspire", mod("competence", 2, "check"))]))
    assert d.statistics["skill:climb"].total == 2
    assert d.statistics["save:will"].total == 2
    assert d.statistics["ability:str"].total == 0
    assert d.statistics["initiative"].total == 0


def test_d20_armor_class_touch_and_flat_footed() -> None:
    d = derive(make("d20srd", size="small", abilities={"dex": 14},
                    armor={"name": "Chain shirt", "armor_bonus": 4, "shield_bonus": 1,
                           "natural_armor": 2},
                    effects=[effect("Ring", mod("deflection", 1, "ac")),
                             effect("Dodge", mod("dodge", 1, "ac"))]))
    # 10 + armor 4 + shield 1 + Dex 2 + size 1 + natural 2 + deflection 1 + dodge 1
    assert d.statistics["ac"].total == 22
    assert d.statistics["ac:touch"].total == 10 + 2 + 1 + 1 + 1
    assert d.statistics["ac:flat_footed"].total == 10 + 4 + 1 + 1 + 2 + 1


def test_d20_flat_footed_keeps_a_dex_penalty() -> None:
    d = derive(make("d20srd", abilities={"dex": 8}))
    assert d.statistics["ac:flat_footed"].total == 9


def test_d20_enhancement_on_armor_raises_the_armor_bonus() -> None:
    d = derive(make("d20srd", armor={"name": "Chain shirt", "armor_bonus": 4}, effects=[
        effect("Magic Vestment", mod("enhancement", 2, "ac:armor")),
        effect("Mage Armor", mod("armor", 4, "ac"))]))
    assert d.statistics["ac"].total == 16
    assert not line(d.statistics["ac"], "Mage Armor").applied
    assert d.statistics["ac:touch"].total == 10


def test_d20_max_dex_from_armor() -> None:
    d = derive(make("d20srd", abilities={"dex": 18}, armor={"armor_bonus": 5, "max_dex": 1}))
    assert d.statistics["ac"].total == 16


def test_d20_hit_points() -> None:
    d = derive(make("d20srd", level=3, abilities={"con": 14},
                    hit_points={"hit_die": 10, "level_rolls": [3]}))
    assert d.hit_points.max == 10 + 3 + 6 + 2 * 3


def test_d20_skill_ranks_ability_size_and_check_penalty() -> None:
    d = derive(make("d20srd", size="small", abilities={"dex": 14},
                    skill_ranks={"hide": 4, "swim": 1},
                    armor={"armor_bonus": 4, "check_penalty": -2}))
    assert d.statistics["skill:hide"].total == 4 + 2 + 4 - 2
    assert d.statistics["skill:swim"].total == 1 + 0 - 4


def test_d20_carrying_loads() -> None:
    d = derive(make("d20srd", abilities={"str": 10, "dex": 18},
                    inventory=[{"name": "Pack", "quantity": 1, "weight": 50}]))
    assert d.carrying.unit == "lb" and d.carrying.capacity == 100
    assert d.carrying.state == "encumbered" and d.speed.total == 20
    assert d.statistics["ac"].total == 13  # Dex +4 capped at +3 by a medium load
    assert d.statistics["skill:climb"].total == -3


def test_stack_helpers_keep_order_and_explain() -> None:
    lines = stack_pf2e([Contribution("A", "item", 1, "A", 1), Contribution("B", "item", 1, "B", 2)])
    assert [x.applied for x in lines] == [True, False]
    assert lines[1].reason == "an equal item bonus already applies (+1 A)"
    lines = stack_d20([Contribution("A", "luck", 1, "A", 1), Contribution("B", "luck", 2, "B", 2)])
    assert [x.applied for x in lines] == [False, True]


# --- speed -------------------------------------------------------------------------------
def test_speed_effects_stack_by_the_systems_rules() -> None:
    d = derive(make("d20srd", effects=[
        effect("Haste", mod("enhancement", 30, "speed")),
        effect("Longstrider", mod("enhancement", 10, "speed"))]))
    assert d.speed.total == 30 + 30
    d = derive(make("pf2e", speed=25, effects=[effect("Fleet", mod("circumstance", 5, "speed"))]))
    assert d.speed.total == 30


def test_speed_over_capacity_is_capped_whatever_the_effects() -> None:
    d = derive(make("runarcana", abilities={"str": 10},
                    inventory=[{"name": "Boulder", "quantity": 1, "weight": 100}],
                    effects=[effect("Haste", mod("untyped", 30, "speed"))]))
    assert d.carrying.state == "over_capacity"
    assert d.speed.total == 5
    assert sum(line.value for line in d.speed.breakdown if line.applied) == 5 - 30
    d = derive(make("runarcana", abilities={"str": 10},
                    inventory=[{"name": "Mountain", "quantity": 1, "weight": 200}]))
    assert d.speed.total == 0


def test_pf2e_armor_speed_penalty() -> None:
    d = derive(make("pf2e", speed=25, armor={"name": "Full plate", "speed_penalty": 10}))
    assert d.speed.total == 15


def test_d20_barkskin_raises_an_effective_natural_armor_of_zero() -> None:
    d = derive(make("d20srd", effects=[
        effect("Barkskin", mod("enhancement", 2, "ac:natural_armor")),
        effect("Magic Vestment", mod("enhancement", 1, "ac:armor"))]))
    assert d.statistics["ac"].total == 12
    assert d.statistics["ac:touch"].total == 10
    vestment = line(d.statistics["ac"], "Magic Vestment (enhancement to armor)")
    assert not vestment.applied and vestment.reason == "no armor bonus to enhance"


def test_every_loser_names_the_final_winner() -> None:
    d = derive(make("pf2e", effects=[
        effect("Ring", mod("item", 1, "skill:stealth")),
        effect("Cloak", mod("item", 2, "skill:stealth")),
        effect("Boots", mod("item", 3, "skill:stealth"))]))
    stat = d.statistics["skill:stealth"]
    assert line(stat, "Ring").reason == "a higher item bonus applies (+3 Boots)"
    assert line(stat, "Cloak").reason == "a higher item bonus applies (+3 Boots)"
    assert line(stat, "Boots").applied


def test_runarcana_skill_with_another_ability() -> None:
    """A skill can be rolled with another ability when asked: Constitution (Athletics)."""
    character = make("runarcana", level=5, abilities={"str": 8, "con": 16},
                     skills={"athletics": "expertise"},
                     effects=[effect("Endure", mod("untyped", 1, "ability:con")),
                              effect("Rope belt", mod("untyped", 2, "skill:athletics"))])
    d = derive(character, variants=["skill:athletics@con"])
    stat = d.statistics["skill:athletics@con"]
    assert stat.label == "Constitution (Athletics)"
    assert stat.total == 3 + 6 + 1 + 2  # Con, expertise at PB +3, both effects
    assert d.statistics["skill:athletics"].total == -1 + 6 + 2
    assert "skill:athletics@con" not in derive(character).statistics
    unknown = derive(character, variants=["skill:athletics@foo"])
    assert "skill:athletics@foo" not in unknown.statistics


def test_export_gives_each_statistic_its_dc() -> None:
    """pf2e: any check's DC is 10 + its modifier; AC is itself a DC."""
    data = derive(make("pf2e", abilities={"dex": 2}, skills={"stealth": "trained"})).to_json()
    stealth = data["statistics"]["skill:stealth"]
    assert stealth["dc"] == 10 + stealth["total"]
    assert data["statistics"]["ac"]["dc"] == data["statistics"]["ac"]["total"]
