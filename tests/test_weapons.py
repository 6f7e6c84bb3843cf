"""Weapons: the RULES.md "Attacks and damage" worked examples, damage rolls and criticals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from sheet_app import registry
from sheet_app.damage import critical_expression, damage_range, roll_damage
from sheet_app.derived import Damage, Derived
from sheet_app.io import LoadError, character_from_data
from tests.conftest import Cli
from tests.helpers import SAMPLES, snapshot

SEEDS = range(400)


def derive(system: str, *weapons: dict[str, Any], **fields: Any) -> Derived:
    character = character_from_data({"format": "sheet-app/character", "version": 2,
                                     "system": system, "weapons": list(weapons), **fields})
    return registry.get(system).derive(character)


def rolls(damage: Damage, critical: bool = False) -> list[int]:
    return [roll_damage(damage, random.Random(seed), critical=critical).total for seed in SEEDS]


LONGSWORD = {"name": "Longsword", "attack": "melee", "damage": "1d8", "damage_type": "slashing"}
FIVE_E = tuple(s for s in registry.known_ids() if registry.get(s).facts.open_types)


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_longsword(system: str) -> None:
    """RULES.md E: Str 16, PB +2, longsword 1d8: attack +5; damage 1d8+3 (4–11); critical
    2d8+3 (5–19)."""
    d = derive(system, LONGSWORD, abilities={"str": 16})
    assert d.statistics["attack:longsword"].total == 5
    damage = d.damage["damage:longsword"]
    assert damage.expression == "1d8+3" and damage_range(damage) == (4, 11)
    assert critical_expression(damage) == "2d8+3"
    assert damage_range(damage, critical=True) == (5, 19)
    normal, critical = rolls(damage), rolls(damage, critical=True)
    assert min(normal) >= 4 and max(normal) <= 11 and {4, 11} <= set(normal)
    assert min(critical) >= 5 and max(critical) <= 19


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_rapier_finesse(system: str) -> None:
    """RULES.md E: rapier (finesse) with Str 10, Dex 16: attack +5, damage 1d8+3."""
    d = derive(system, {"name": "Rapier", "damage": "1d8", "ability": "finesse"},
               abilities={"str": 10, "dex": 16})
    assert d.statistics["attack:rapier"].total == 5
    assert d.damage["damage:rapier"].expression == "1d8+3"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_not_proficient_and_minimum_zero(system: str) -> None:
    d = derive(system, {"name": "Club", "damage": "1d4", "proficient": False},
               abilities={"str": 3})
    assert d.statistics["attack:club"].total == -4
    assert damage_range(d.damage["damage:club"]) == (0, 0)


def test_pf2e_longsword_with_runes() -> None:
    """RULES.md E: level 5, expert, Str +4, longsword 1d8, potency 1, striking 1: attack +14;
    damage 2d8+4 (6–20); critical 2 × (2d8+4) (12–40, always even)."""
    d = derive("pf2e", {**LONGSWORD, "rank": "expert", "potency": 1, "striking": 1},
               level=5, abilities={"str": 4})
    attack = d.statistics["attack:longsword"]
    assert attack.total == 14
    assert attack.follow_ups == (("2nd Strike", -5), ("3rd Strike", -10))
    damage = d.damage["damage:longsword"]
    assert damage.expression == "2d8+4" and damage_range(damage) == (6, 20)
    assert critical_expression(damage) == "2×(2d8+4)"
    critical = rolls(damage, critical=True)
    assert all(total % 2 == 0 and 12 <= total <= 40 for total in critical)
    assert len(set(critical)) > 8


def test_pf2e_potency_is_an_item_bonus_that_competes() -> None:
    d = derive("pf2e", {**LONGSWORD, "potency": 1},
               effects=[{"name": "Weapon blessing", "modifiers": [
                   {"type": "item", "value": 2, "targets": ["attack"]}]}])
    lines = {m.label: m for m in d.statistics["attack:longsword"].modifiers}
    assert not lines["Longsword potency rune"].applied
    assert lines["Weapon blessing"].applied


def test_pf2e_agile_map_and_ranged_damage_has_no_str() -> None:
    d = derive("pf2e", {"name": "Shortsword", "damage": "1d6", "agile": True},
               {"name": "Shortbow", "attack": "ranged", "damage": "1d6"},
               {"name": "Javelin", "attack": "ranged", "damage": "1d6", "thrown": True},
               abilities={"str": 3, "dex": 2})
    assert d.statistics["attack:shortsword"].follow_ups == (("2nd Strike", -4),
                                                            ("3rd Strike", -8))
    assert d.damage["damage:shortbow"].expression == "1d6"
    assert d.damage["damage:javelin"].expression == "1d6+3"


def test_pf2e_minimum_damage_is_one() -> None:
    d = derive("pf2e", {"name": "Fist", "damage": "1d4"}, abilities={"str": -4})
    assert damage_range(d.damage["damage:fist"]) == (1, 1)


def test_pf2e_enfeebled_lowers_melee_damage() -> None:
    """RULES.md: enfeebled is a status penalty to Str-based rolls, melee damage included."""
    weak = derive("pf2e", LONGSWORD, abilities={"str": 4},
                  effects=[{"name": "Enfeebled 1", "condition": "enfeebled", "value": 1}])
    assert weak.damage["damage:longsword"].expression == "1d8+3"


def test_d20_longsword() -> None:
    """RULES.md E: Str 16, BAB +4, longsword 1d8 19–20/×2: attack +7; damage 1d8+3 (4–11);
    critical 2d8+6 (8–22)."""
    d = derive("d20srd", {**LONGSWORD, "critical": {"range": 19, "multiplier": 2}},
               abilities={"str": 16}, base_attack_bonus=4)
    attack = d.statistics["attack:longsword"]
    assert (attack.total, attack.threat, attack.confirm) == (7, 19, True)
    damage = d.damage["damage:longsword"]
    assert damage.expression == "1d8+3" and damage_range(damage) == (4, 11)
    assert critical_expression(damage) == "2d8+6"
    assert damage_range(damage, critical=True) == (8, 22)
    assert all(8 <= t <= 22 for t in rolls(damage, critical=True))


def test_d20_greataxe_two_handed_x3() -> None:
    """RULES.md E: greataxe 1d12 ×3, two-handed, Str 16: damage 1d12+4 (5–16); critical
    3d12+12 (15–48)."""
    d = derive("d20srd", {"name": "Greataxe", "damage": "1d12", "two_handed": True,
                          "critical": {"range": 20, "multiplier": 3}}, abilities={"str": 16})
    damage = d.damage["damage:greataxe"]
    assert damage.expression == "1d12+4" and damage_range(damage) == (5, 16)
    assert critical_expression(damage) == "3d12+12"
    assert damage_range(damage, critical=True) == (15, 48)
    assert all(15 <= t <= 48 for t in rolls(damage, critical=True))


def test_d20_iterative_attacks_from_bab() -> None:
    d = derive("d20srd", LONGSWORD, base_attack_bonus=11)
    assert d.statistics["attack:longsword"].follow_ups == (("2nd attack", -5),
                                                           ("3rd attack", -10))
    assert derive("d20srd", LONGSWORD, base_attack_bonus=5).statistics[
        "attack:longsword"].follow_ups == ()


def test_d20_sneak_attack_dice_are_not_multiplied() -> None:
    d = derive("d20srd", LONGSWORD, abilities={"str": 10}, effects=[
        {"name": "Sneak attack", "modifiers": [{"value": "1d6", "targets": ["damage"]}]}])
    damage = d.damage["damage:longsword"]
    assert damage.expression == "1d8+1d6"
    assert critical_expression(damage) == "2d8+1d6"
    assert damage_range(damage, critical=True) == (3, 22)


def test_two_weapons_of_one_name_get_their_own_ids() -> None:
    d = derive("dnd5e", {"name": "Dagger", "damage": "1d4"}, {"name": "Dagger", "damage": "1d4"})
    assert {"attack:dagger", "attack:dagger_2"} <= set(d.statistics)
    assert set(d.damage) == {"damage:dagger", "damage:dagger_2"}


@pytest.mark.parametrize(
    ("weapon", "fragment"),
    [({"name": "Bomb", "damage": "1000000d1000000"}, "not a damage expression"),
     ({"name": "Bomb", "damage": "x" * 500}, "at most 60 characters"),
     ({"name": "Bomb", "damage": "1d8; rm -rf /"}, "not a damage expression"),
     ({"name": "", "damage": "1d8"}, "at least 1 character"),
     ({"name": "Axe", "critical": {"range": 1}}, "greater than or equal to 2")],
)
def test_a_hostile_weapon_is_refused_and_the_file_left_alone(
        cli: Cli, tmp_path: Path, weapon: dict[str, Any], fragment: str) -> None:
    data = registry.get("d20srd").new_character().dump()
    data["weapons"] = [weapon]
    with pytest.raises(LoadError) as info:
        character_from_data(data)
    assert any(where.startswith("weapons.0") and fragment in message
               for where, message in info.value.problems), info.value.problems
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    before = snapshot(path)
    run = cli("roll", path, "damage:bomb")
    assert run.code == 2 and "weapons.0" in run.err and "Traceback" not in run.err
    assert snapshot(path) == before


# --- the command line ------------------------------------------------------------------
def test_roll_damage_json_has_the_contract_fields(cli: Cli) -> None:
    run = cli("roll", SAMPLES["d20srd"], "damage:dwarven_waraxe", "--critical", "--seed", "5",
              "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert set(data) == {"statistic", "label", "critical", "expression", "dice", "modifiers",
                         "total"}
    assert data["critical"] is True and data["expression"] == "3d10+9"
    assert len(data["dice"]) == 3 and data["total"] == sum(data["dice"]) + 9


def test_roll_damage_is_repeatable_and_normal_by_default(cli: Cli) -> None:
    first = cli("roll", SAMPLES["pf2e"], "damage:longsword", "--seed", "9", "--json")
    again = cli("roll", SAMPLES["pf2e"], "damage:longsword", "--seed", "9", "--json")
    assert first.out == again.out and json.loads(first.out)["critical"] is False


def test_roll_attack_of_a_weapon(cli: Cli) -> None:
    run = cli("roll", SAMPLES["pf2e"], "attack:longsword", "--seed", "2", "--json")
    assert run.code == 0 and json.loads(run.out)["statistic"] == "attack:longsword"


@pytest.mark.parametrize(("stat", "fragment"),
                         [("damage:longswrd", "did you mean damage:longsword"),
                          ("damage:zzz", "weapons: damage:javelin, damage:longsword")])
def test_an_unknown_weapon_is_named(cli: Cli, stat: str, fragment: str) -> None:
    run = cli("roll", SAMPLES["pf2e"], stat)
    assert run.code == 2 and fragment in run.err


def test_critical_needs_a_damage_roll(cli: Cli) -> None:
    run = cli("roll", SAMPLES["pf2e"], "skill:athletics", "--critical")
    assert run.code == 2 and "--critical goes with a damage roll" in run.err
