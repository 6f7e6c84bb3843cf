"""D&D 5e (SRD 5.1): the RULES.md worked examples and what sets it apart from Runarcana."""

from __future__ import annotations

from typing import Any

import pytest

from sheet_app import registry
from sheet_app.derived import Derived
from sheet_app.io import character_from_data, character_json, load_character
from sheet_app.systems.dnd5e.model import Dnd5eCharacter
from tests.helpers import SAMPLES

SYSTEM = "dnd5e"


def derive(**fields: Any) -> Derived:
    character = character_from_data(
        {"format": "sheet-app/character", "version": 2, "system": SYSTEM, **fields})
    return registry.get(SYSTEM).derive(character)


def carrying(strength: int, pounds: float, **fields: Any) -> Derived:
    return derive(abilities={"str": strength},
                  inventory=[{"name": "Load", "quantity": 1, "weight": pounds}], **fields)


def test_eighteen_skills_without_technology() -> None:
    stats = derive().statistics
    skills = sorted(s for s in stats if s.startswith("skill:"))
    assert len(skills) == 18 and "skill:technology" not in skills
    assert stats["skill:athletics"].ability == "str"
    assert stats["skill:animal_handling"].ability == "wis"


def test_technology_is_refused_with_a_reason() -> None:
    with pytest.raises(Exception, match="unknown skill 'technology'"):
        derive(skills={"technology": "proficient"})


def test_capacity_str_15_is_225_lb_and_push_450() -> None:
    carry = carrying(15, 0).carrying
    assert (carry.unit, carry.capacity, carry.push_drag_lift) == ("lb", 225, 450)
    assert (carry.encumbered_above, carry.heavily_encumbered_above) == (75, 150)


@pytest.mark.parametrize(
    ("pounds", "state", "speed"),
    [(70, "unencumbered", 30), (80, "encumbered", 20), (160, "heavily_encumbered", 10),
     (230, "over_capacity", 5)],
)
def test_rules_example_variant_encumbrance_str_15(pounds: float, state: str,
                                                  speed: int) -> None:
    """RULES.md E: Str 15: capacity 225 lb; 70 lb unencumbered; 80 lb encumbered; 160 lb
    heavily encumbered; 230 lb over capacity."""
    derived = carrying(15, pounds)
    assert derived.carrying.state == state
    assert derived.speed.total == speed


@pytest.mark.parametrize("pounds", [160, 230])
def test_heavy_load_gives_disadvantage_on_str_dex_con_rolls(pounds: float) -> None:
    stats = carrying(15, pounds).statistics
    for stat_id in ("skill:athletics", "save:dex", "attack:melee", "ability:con"):
        assert stats[stat_id].roll_mode == "disadvantage", stat_id
    assert stats["skill:insight"].roll_mode == "normal"


def test_size_doubles_capacity() -> None:
    assert carrying(15, 0, size="large").carrying.capacity == 450


def test_variant_off_leaves_only_capacity() -> None:
    derived = carrying(15, 160, options={"variant_encumbrance": False})
    assert derived.carrying.state == "unencumbered" and derived.speed.total == 30


def _exhausted(level: int, **fields: Any) -> Derived:
    return derive(
        level=3, abilities={"con": 14},
        hit_points={"hit_die": 10, "level_rolls": [9, 10]},
        effects=[{"name": f"Exhaustion {level}", "condition": "exhaustion", "value": level}],
        **fields)


def test_rules_example_exhaustion_4() -> None:
    """RULES.md E: exhaustion 4, max HP 31 → 15 (rounded down), speed 30 → 15,
    disadvantage on checks, attacks and saves."""
    fresh = derive(level=3, abilities={"con": 14},
                   hit_points={"hit_die": 10, "level_rolls": [9, 10]})
    assert fresh.hit_points.max == 35
    assert _exhausted(4).hit_points.max == 17
    thirty_one = derive(level=2, abilities={"con": 10},
                        hit_points={"hit_die": 20, "level_rolls": [11]},
                        effects=[{"name": "Ex", "condition": "exhaustion", "value": 4}])
    assert thirty_one.hit_points.max == 15  # 31 halved, rounded down
    stats = thirty_one.statistics
    assert thirty_one.speed.total == 15
    for stat_id in ("skill:stealth", "ability:wis", "attack:melee", "save:wis"):
        assert stats[stat_id].roll_mode == "disadvantage", stat_id


@pytest.mark.parametrize(
    ("level", "speed", "check", "attack"),
    [(1, 30, "disadvantage", "normal"), (2, 15, "disadvantage", "normal"),
     (3, 15, "disadvantage", "disadvantage"), (5, 0, "disadvantage", "disadvantage")],
)
def test_exhaustion_levels_are_cumulative(level: int, speed: int, check: str,
                                          attack: str) -> None:
    derived = _exhausted(level)
    assert derived.speed.total == speed
    assert derived.statistics["skill:arcana"].roll_mode == check
    assert derived.statistics["attack:ranged"].roll_mode == attack
    assert derived.statistics["save:con"].roll_mode == attack


def test_exhaustion_has_six_levels() -> None:
    assert registry.get(SYSTEM).facts.conditions["exhaustion"].max_value == 6
    with pytest.raises(Exception, match="goes from 1 to 6, not 7"):
        _exhausted(7)


def test_proficiency_expertise_and_passive_as_5e() -> None:
    stats = derive(level=5, abilities={"dex": 14, "wis": 15},
                   skills={"stealth": "expertise", "perception": "proficient"})
    assert stats.proficiency_bonus == 3
    assert stats.statistics["skill:stealth"].total == 2 + 6
    assert stats.passive["perception"] == 10 + 2 + 3


def test_sample_loads_round_trips_and_computes() -> None:
    character = load_character(SAMPLES[SYSTEM])
    assert character_from_data(character_json(character)) == character
    derived = registry.get(SYSTEM).derive(character)
    assert derived.carrying.unit == "lb"
    assert derived.hit_points.max == 10 + 7 + 5 + 2 * 3


def test_new_sheet_starts_at_full_hit_points() -> None:
    character = registry.get(SYSTEM).new_character("Nobody")
    assert isinstance(character, Dnd5eCharacter)
    assert character.hit_points.current == registry.get(SYSTEM).derive(character).hit_points.max
