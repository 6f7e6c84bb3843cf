"""Format version 1 files open through the migration chain; the schema and warnings of v2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sheet_app import registry
from sheet_app.io import MIGRATIONS, LoadError, character_from_data, migrate
from sheet_app.model import FORMAT_VERSION
from sheet_app.schema import json_schema
from sheet_app.validation import key_warnings
from tests.helpers import ROOT, SYSTEM_IDS, snapshot, with_unknown_keys

V1 = ROOT / "tests" / "data" / "v1"
V1_FILES = sorted(V1.glob("*.json"))


def v1(**fields: Any) -> dict[str, Any]:
    return {"format": "sheet-app/character", "version": 1, **fields}


def test_the_chain_reaches_the_current_version() -> None:
    assert FORMAT_VERSION == 2 and sorted(MIGRATIONS) == list(range(1, FORMAT_VERSION))


@pytest.mark.parametrize("path", V1_FILES, ids=lambda p: p.stem)
def test_every_version_1_sample_migrates_and_keeps_its_numbers(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    assert data["version"] == 1
    character = character_from_data(data)
    assert character.version == 2 and character.name == data["name"]
    assert character.dump()["effects"][0]["name"] == data["effects"][0]["name"]
    derived = registry.get(character.system).derive(character)
    assert derived.statistics and derived.hit_points.max > 0


@pytest.mark.parametrize("path", V1_FILES, ids=lambda p: p.stem)
def test_unknown_keys_survive_the_migration(path: Path) -> None:
    data = with_unknown_keys(json.loads(path.read_text("utf-8")))
    dumped = character_from_data(data).dump()
    assert dumped["x_future"] == data["x_future"]
    assert dumped["armor"]["x_armor"] == ["armor", 1.5]
    assert dumped["effects"][-1]["x_icon"] == "star"


def test_d20srd_armor_splits_into_armor_shield_and_natural_armor() -> None:
    character = character_from_data(v1(
        system="d20srd",
        armor={"name": "Scale mail", "armor_bonus": 4, "shield_bonus": 2, "natural_armor": 1,
               "max_dex": 3, "check_penalty": -6, "x_note": "kept"}))
    data = character.dump()
    assert data["armor"] == {"name": "Scale mail", "bonus": 4, "max_dex": 3,
                             "check_penalty": -6, "speed_20": None, "speed_30": None,
                             "x_note": "kept"}
    assert data["shield"] == {"name": "Shield", "bonus": 2, "check_penalty": 0}
    assert data["natural_armor"] == 1
    derived = registry.get("d20srd").derive(character)
    assert derived.statistics["ac"].total == 10 + 4 + 2 + 1
    assert derived.statistics["skill:climb"].total == -6  # the whole old penalty stays


def test_d20srd_without_a_shield_gets_an_empty_one() -> None:
    data = character_from_data(v1(system="d20srd", armor={"armor_bonus": 1})).dump()
    assert data["shield"] == {"name": "", "bonus": 0, "check_penalty": 0}
    assert data["armor"]["bonus"] == 1


@pytest.mark.parametrize("system", ["pf2e", "runarcana"])
def test_other_systems_only_change_the_version(system: str) -> None:
    data = json.loads((V1 / f"{system}.json").read_text("utf-8"))
    migrated = migrate(dict(data))
    assert migrated == {**data, "version": 2}


def test_migrating_never_changes_the_input() -> None:
    data = v1(system="d20srd", armor={"armor_bonus": 4, "shield_bonus": 1})
    before = json.dumps(data, sort_keys=True)
    character_from_data(data)
    assert json.dumps(data, sort_keys=True) == before


def test_a_newer_version_is_refused_naming_both(tmp_path: Path) -> None:
    from sheet_app.io import load_character

    path = tmp_path / "future.json"
    path.write_text(json.dumps({"format": "sheet-app/character", "version": 7,
                                "system": "pf2e", "name": "Tomorrow"}))
    before = snapshot(path)
    with pytest.raises(LoadError) as info:
        load_character(path)
    [(where, message)] = info.value.problems
    assert where == "version" and "version 7" in message and "(2)" in message
    assert snapshot(path) == before


# --- version 2 keys --------------------------------------------------------------------
V2_KEYS = {
    "weapons": [{"name": "Longsword", "attack": "melee", "damage": "1d8",
                 "damage_type": "slashing", "ability": "finesse",
                 "critical": {"range": 19, "multiplier": 2}}],
    "spellcasting": [{"name": "Wizard", "ability": "int", "slots": {"1": [3, 1]}}],
    "resources": [{"name": "Hero Points", "max": 3, "current": 1}],
    "effects": [{"name": "Bless", "modifiers": [{"type": "untyped", "value": "1d4",
                                                 "targets": ["attack", "save"]}]},
                {"name": "Guidance", "until": "next_roll",
                 "modifiers": [{"value": "1d4", "targets": ["skill"]}]}],
}


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_version_2_keys_validate_and_round_trip(system: str) -> None:
    data = {**registry.get(system).new_character().dump(), **V2_KEYS}
    first = character_from_data(json.loads(json.dumps(data))).dump()
    assert {k: first[k] for k in V2_KEYS} == json.loads(json.dumps(
        {k: character_from_data(first).dump()[k] for k in V2_KEYS}))
    assert first["weapons"][0]["critical"] == {"range": 19, "multiplier": 2}
    assert first["effects"][1]["until"] == "next_roll"


@pytest.mark.parametrize(
    ("change", "path", "fragment"),
    [({"weapons": [{"name": "Axe", "damage": "lots"}]}, "weapons.0.damage", "not a damage"),
     ({"weapons": [{"name": "Axe", "attack": "thrown"}]}, "weapons.0.attack", "'melee'"),
     ({"spellcasting": [{"name": "W", "slots": {"1": [2, 3]}}]}, "spellcasting.0.slots",
      "3 slots used of 2"),
     ({"spellcasting": [{"name": "W", "slots": {"10": [1, 0]}}]}, "spellcasting.0.slots",
      "not 0-9"),
     ({"resources": [{"name": "Ki", "max": 2, "current": 3}]}, "resources.0",
      "more than the maximum"),
     ({"effects": [{"name": "B", "modifiers": [{"value": "1d", "targets": ["check"]}]}]},
      "effects.0.modifiers.0.value", "dice expression"),
     ({"effects": [{"name": "G", "until": "forever"}]}, "effects.0.until", "'next_roll'")],
)
def test_version_2_keys_are_checked_with_paths(change: dict[str, Any], path: str,
                                               fragment: str) -> None:
    data = {**registry.get("runarcana").new_character().dump(), **change}
    with pytest.raises(LoadError) as info:
        character_from_data(data)
    assert any(where == path and fragment in message
               for where, message in info.value.problems), info.value.problems


# --- schema and warnings ---------------------------------------------------------------
def _properties(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, definition in schema["$defs"].items():
        for field, spec in definition.get("properties", {}).items():
            out.append((f"{name}.{field}", spec))
    return out


def test_every_field_of_the_schema_has_a_description() -> None:
    schema = json_schema()
    properties = _properties(schema)
    assert len(properties) > 100

    def described(spec: dict[str, Any]) -> bool:
        # a field whose words equal its model's docstring is described by that model
        ref = spec.get("$ref", "").rpartition("/")[2]
        return bool(spec.get("description") or schema["$defs"].get(ref, {}).get("description"))

    missing = [name for name, spec in properties if not described(spec)]
    assert missing == []


def test_a_misspelt_key_is_a_warning_not_an_error() -> None:
    data = registry.get("pf2e").new_character().dump()
    data["effects"] = [{"name": "Heroism", "modifers": [{"value": 1, "targets": ["check"]}],
                        "x_icon": "star"}]
    warnings = key_warnings(character_from_data(data))
    assert warnings == [("effects.0.modifers",
                         "unknown key, kept as is; did you mean 'modifiers'?")]


def test_validate_prints_the_warning_and_exits_0(cli: Any, tmp_path: Path) -> None:
    data = registry.get("runarcana").new_character().dump()
    data["effects"] = [{"name": "Bless", "modifiers": [{"value": 1, "targets": ["check"],
                                                        "taregts": ["save"]}]}]
    path = tmp_path / "lux.json"
    path.write_text(json.dumps(data))
    run = cli("validate", path)
    assert run.code == 0
    assert run.err == ("warning: effects.0.modifiers.0.taregts: unknown key, kept as is; "
                       "did you mean 'targets'?\n")
