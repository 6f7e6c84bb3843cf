"""The headless command line: new, validate, export (with --derived), schema.

Bad files are covered in ``test_io``; this module checks what the commands produce from good
input, that ``new -o`` never clobbers a file by accident, that no command imports Qt, and that
a named pipe, a full disk on stdout or Ctrl-C each give one line and no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from sheet_app import registry
from sheet_app.facts import ABILITIES
from sheet_app.io import character_from_data, character_json, dumps, load_character
from sheet_app.rules import derive
from sheet_app.systems.d20srd.facts import SKILLS as D20_SKILLS
from sheet_app.systems.pf2e.facts import SKILLS as PF2E_SKILLS
from sheet_app.systems.runarcana.facts import SKILLS as RUNARCANA_SKILLS
from tests.helpers import (
    ROOT,
    SAMPLES,
    SYSTEM_IDS,
    Run,
    character_docs,
    run_subprocess,
    snapshot,
    with_unknown_keys,
)

Cli = Callable[..., Run]


# --- new ---------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_new_prints_a_blank_valid_character(cli: Cli, system: str) -> None:
    run = cli("new", "--system", system, "--name", "Blank")
    assert run.code == 0 and run.err == ""
    data = json.loads(run.out)
    assert data["format"] == "sheet-app/character" and data["version"] == 2
    assert data["system"] == system and data["name"] == "Blank"
    character = character_from_data(data)
    assert character_json(character) == data  # already normalised
    snapshot_ = derive(character)
    assert snapshot_.system == system and snapshot_.hit_points.max >= 1
    assert "ac" in snapshot_.statistics and "initiative" in snapshot_.statistics


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_new_to_a_file_validates(cli: Cli, tmp_path: Path, system: str) -> None:
    out = tmp_path / f"{system}.json"
    run = cli("new", "--system", system, "-o", out)
    assert run.code == 0 and run.out == "" and run.err == ""
    assert load_character(out).system == system
    run = cli("validate", out)
    assert run.code == 0 and run.out == f"{out}: valid\n" and run.err == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


def test_new_refuses_to_overwrite_without_force(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "mine.json"
    out.write_bytes(SAMPLES["runarcana"].read_bytes())
    before = snapshot(out)
    run = cli("new", "--system", "pf2e", "-o", out)
    assert run.code == 2 and run.out == "" and "Traceback" not in run.err
    assert len(run.err_lines) == 1 and "--force" in run.err and str(out) in run.err
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]

    run = cli("new", "--system", "pf2e", "-o", out, "--force")
    assert run.code == 0
    assert load_character(out).system == "pf2e"


def test_new_refuses_in_a_subprocess_too(tmp_path: Path) -> None:
    out = tmp_path / "mine.json"
    out.write_text("not even a character\n")
    before = snapshot(out)
    run = run_subprocess("new", "--system", "d20srd", "-o", out)
    assert run.code == 2 and "Traceback" not in run.err and "--force" in run.err
    assert snapshot(out) == before


def test_new_into_a_missing_folder_names_the_file(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "missing" / "pc.json"
    run = cli("new", "--system", "pf2e", "-o", out)
    assert run.code == 2 and "Traceback" not in run.err
    assert run.err_lines == [f"sheet-app: {out}: cannot write (No such file or directory)"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["new"],
        ["new", "--system", "gurps"],
        ["validate"],
        ["export"],
        ["export", str(SAMPLES["pf2e"]), "--bogus"],
    ],
    ids=["nothing", "unknown-command", "new-no-system", "new-bad-system", "validate-no-file",
         "export-no-file", "export-bad-flag"],
)
def test_usage_errors_exit_2_with_one_line(cli: Cli, args: list[str]) -> None:
    run = cli(*args)
    assert run.code == 2 and run.out == "" and "Traceback" not in run.err
    assert len(run.err_lines) == 1 and run.err_lines[0].startswith("sheet-app")


# --- validate and export -----------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_validate_sample(cli: Cli, system: str) -> None:
    before = snapshot(SAMPLES[system])
    run = cli("validate", SAMPLES[system])
    assert (run.code, run.out, run.err) == (0, f"{SAMPLES[system]}: valid\n", "")
    assert snapshot(SAMPLES[system]) == before


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_export_is_the_normalised_document(cli: Cli, tmp_path: Path, system: str) -> None:
    run = cli("export", SAMPLES[system])
    assert run.code == 0 and run.err == ""
    expected = character_json(load_character(SAMPLES[system]))
    assert json.loads(run.out) == expected
    assert run.out == dumps(expected)
    assert "derived" not in expected

    out = tmp_path / "out.json"
    run = cli("export", SAMPLES[system], "-o", out)
    assert run.code == 0 and run.out == ""
    assert out.read_text(encoding="utf-8") == dumps(expected)


@pytest.mark.parametrize("system", SYSTEM_IDS)
@pytest.mark.parametrize("unknown", [False, True], ids=["sample", "unknown-keys"])
def test_export_load_export_is_identical(cli: Cli, tmp_path: Path, system: str,
                                         unknown: bool) -> None:
    source = tmp_path / "in.json"
    data = json.loads(SAMPLES[system].read_text())
    source.write_text(json.dumps(with_unknown_keys(data) if unknown else data))
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert cli("export", source, "-o", first).code == 0
    assert cli("export", first, "-o", second).code == 0
    assert first.read_bytes() == second.read_bytes()
    exported = json.loads(first.read_text())
    if unknown:
        assert exported["x_future"]["nested"] == [1, {"deeper": None}]
        assert exported["abilities"]["x_abilities"] == ["abilities", 1.5]
        assert exported["effects"][-1]["modifiers"][0]["x_note"] == {"a": 1}
    else:
        assert "x_future" not in exported


def test_export_round_trip_in_a_subprocess(tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    source.write_text(json.dumps(with_unknown_keys(json.loads(SAMPLES["d20srd"].read_text()))))
    first = run_subprocess("export", source)
    assert first.code == 0 and first.err == ""
    again = tmp_path / "again.json"
    again.write_text(first.out, encoding="utf-8")
    second = run_subprocess("export", again)
    assert second.code == 0 and second.out == first.out


# --- export --derived --------------------------------------------------------------------


def statistic_ids(system: str) -> set[str]:
    """The statistic ids CONTRACT.md promises for ``system``, from its facts."""
    rules = registry.get(system)
    facts = rules.facts
    ids = {*(f"skill:{s}" for s in facts.skills), *(f"save:{s}" for s in facts.saves),
           "initiative", "attack:melee", "attack:ranged",
           *(stat_id for stat_id, _ in rules.sheet().defenses)}
    if facts.has_ability_checks:
        ids |= {f"ability:{a}" for a in ABILITIES}
    if "perception" in facts.groups:
        ids.add("perception")
    return ids


STATISTIC_IDS = {
    "runarcana": {*(f"ability:{a}" for a in ABILITIES), *(f"skill:{s}" for s in RUNARCANA_SKILLS),
                  *(f"save:{a}" for a in ABILITIES), "initiative", "ac", "attack:melee",
                  "attack:ranged"},
    "pf2e": {*(f"skill:{s}" for s in PF2E_SKILLS), "save:fortitude", "save:reflex", "save:will",
             "perception", "initiative", "ac", "attack:melee", "attack:ranged"},
    "d20srd": {*(f"ability:{a}" for a in ABILITIES), *(f"skill:{s}" for s in D20_SKILLS),
               "save:fortitude", "save:reflex", "save:will", "initiative", "ac", "ac:touch",
               "ac:flat_footed", "attack:melee", "attack:ranged"},
}
"""Spelt out by hand for the three seeded systems, so the facts can't drift unnoticed."""


def test_the_facts_promise_the_contracts_ids() -> None:
    for system, ids in STATISTIC_IDS.items():
        assert statistic_ids(system) == ids


ROLL_MODES = {"normal", "advantage", "disadvantage", "fortune", "misfortune"}
CARRY_STATES = {"unencumbered", "encumbered", "heavily_encumbered", "over_capacity"}


def check_derived_block(system: str, derived: dict[str, Any]) -> None:
    """The ``derived`` block has every key CONTRACT.md fixes, with values of the right kind."""
    assert set(derived["abilities"]) == set(ABILITIES)
    for value in derived["abilities"].values():
        assert {"base", "score", "modifier"} <= set(value)
        assert isinstance(value["modifier"], int)
    pb = derived["proficiency_bonus"]
    five_e = registry.get(system).facts.open_types
    assert isinstance(pb, int) if five_e else pb is None or isinstance(pb, int)
    assert statistic_ids(system) <= set(derived["statistics"])
    for stat_id, stat in derived["statistics"].items():
        assert {"label", "total", "roll_mode", "modifiers"} <= set(stat), stat_id
        assert isinstance(stat["label"], str) and stat["label"]
        assert isinstance(stat["total"], int) and not isinstance(stat["total"], bool)
        assert stat["roll_mode"] in ROLL_MODES
        assert stat["modifiers"], stat_id
        for line in stat["modifiers"]:
            assert set(line) >= {"label", "type", "value", "applied", "reason"}, line
            assert isinstance(line["applied"], bool) and isinstance(line["value"], int)
            assert (line["reason"] is None) == line["applied"], line
    assert isinstance(derived["passive"], dict) and derived["passive"]
    if system != "d20srd":  # it takes 10 on Listen and Spot instead
        assert isinstance(derived["passive"]["perception"], int)
    assert isinstance(derived["hit_points"]["max"], int) and derived["hit_points"]["max"] >= 1
    carrying = derived["carrying"]
    assert {"unit", "capacity", "push_drag_lift", "carried", "state", "speed_penalty"} <= set(
        carrying)
    assert carrying["unit"] == registry.get(system).facts.weight_unit
    assert {"runarcana": "kg", "pf2e": "bulk", "d20srd": "lb"}.get(system, carrying["unit"]) \
        == carrying["unit"]
    assert carrying["state"] in CARRY_STATES
    for key in ("capacity", "push_drag_lift", "carried", "speed_penalty"):
        assert isinstance(carrying[key], int | float) and carrying[key] >= 0


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_export_derived_has_the_contract_keys(cli: Cli, system: str) -> None:
    run = cli("export", "--derived", SAMPLES[system])
    assert run.code == 0 and run.err == ""
    data = json.loads(run.out)
    character = load_character(SAMPLES[system])
    derived = data.pop("derived")
    assert data == character_json(character)
    check_derived_block(system, derived)
    assert derived == json.loads(json.dumps(derive(character).to_json()))


def test_runarcana_sample_derived_values() -> None:
    """Spot values of the contract's example character (Lux): the block carries real numbers."""
    derived = character_json(load_character(SAMPLES["runarcana"]), derived=True)["derived"]
    assert derived["abilities"]["str"] == {"base": 8, "score": 8, "modifier": -1}
    assert derived["proficiency_bonus"] == 2
    assert derived["carrying"]["unit"] == "kg" and derived["carrying"]["capacity"] == 56
    assert derived["carrying"]["push_drag_lift"] == 112
    stealth = derived["statistics"]["skill:stealth"]
    assert [(m["label"], m["applied"]) for m in stealth["modifiers"]][:2] == [
        ("Dexterity", True), ("Proficiency", True)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(character_docs())
def test_derived_block_of_generated_characters(doc: dict[str, Any]) -> None:
    data = json.loads(dumps(character_json(character_from_data(doc), derived=True)))
    check_derived_block(doc["system"], data.pop("derived"))
    assert character_json(character_from_data(data)) == data


def test_checker_catches_a_broken_derived_block() -> None:
    derived = character_json(load_character(SAMPLES["pf2e"]), derived=True)["derived"]
    check_derived_block("pf2e", derived)
    broken = json.loads(json.dumps(derived))
    del broken["carrying"]["push_drag_lift"]
    with pytest.raises(AssertionError):
        check_derived_block("pf2e", broken)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_exported_derived_file_imports(cli: Cli, tmp_path: Path, system: str) -> None:
    with_derived = tmp_path / "with_derived.json"
    assert cli("export", "--derived", SAMPLES[system], "-o", with_derived).code == 0
    assert "derived" in json.loads(with_derived.read_text())
    run = cli("validate", with_derived)
    assert run.code == 0 and run.err == ""
    run = cli("export", with_derived)
    assert run.code == 0
    assert json.loads(run.out) == character_json(load_character(SAMPLES[system]))


# --- schema ------------------------------------------------------------------------------
ANNOTATIONS = {"title", "description", "default", "examples", "$schema", "$defs"}


def schema_errors(value: Any, schema: dict[str, Any], root: dict[str, Any],
                  path: str = "$") -> list[str]:
    """A small JSON Schema checker for the keywords pydantic emits (jsonschema isn't a
    dependency). An unknown keyword fails loudly rather than being skipped."""
    errors: list[str] = []
    unknown = set(schema) - ANNOTATIONS - {
        "$ref", "type", "const", "enum", "anyOf", "oneOf", "discriminator", "properties",
        "required", "additionalProperties", "items", "minimum", "maximum", "maxLength",
        "minLength", "maxItems", "minItems"}
    if unknown:
        raise NotImplementedError(f"{path}: keywords {sorted(unknown)}")
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        errors += schema_errors(value, target, root, path)
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        ok = False
        for t in types:
            if t == "integer":
                ok |= isinstance(value, int) and not isinstance(value, bool)
            elif t == "number":
                ok |= isinstance(value, int | float) and not isinstance(value, bool)
            else:
                ok |= isinstance(value, kinds[t])
        if not ok:
            return [*errors, f"{path}: {value!r} is not {types}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} != {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if "anyOf" in schema and all(schema_errors(value, s, root, path) for s in schema["anyOf"]):
        errors.append(f"{path}: matches none of anyOf")
    if "oneOf" in schema:
        if "discriminator" in schema:
            tag = value.get(schema["discriminator"]["propertyName"])
            ref = schema["discriminator"]["mapping"].get(tag)
            if ref is None:
                errors.append(f"{path}: unknown discriminator {tag!r}")
            else:
                errors += schema_errors(value, {"$ref": ref}, root, path)
        elif sum(not schema_errors(value, s, root, path) for s in schema["oneOf"]) != 1:
            errors.append(f"{path}: must match exactly one of oneOf")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} > {schema['maximum']}")
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            errors.append(f"{path}: too long")
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{path}: too short")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            errors.append(f"{path}: wrong number of items")
        if "items" in schema:
            for i, item in enumerate(value):
                errors += schema_errors(item, schema["items"], root, f"{path}[{i}]")
    if isinstance(value, dict):
        errors += [f"{path}: missing {key!r}" for key in schema.get("required", [])
                   if key not in value]
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                errors += schema_errors(item, properties[key], root, f"{path}.{key}")
            elif extra is False:
                errors.append(f"{path}: unexpected key {key!r}")
            elif isinstance(extra, dict):
                errors += schema_errors(item, extra, root, f"{path}.{key}")
    return errors


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "sheet_app", "schema"], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          check=False, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return data


def test_schema_is_a_discriminated_union_of_the_three_systems(
    cli: Cli, schema: dict[str, Any]
) -> None:
    assert cli("schema").out == json.dumps(schema, indent=2) + "\n"
    assert schema["discriminator"]["propertyName"] == "system"
    mapping = schema["discriminator"]["mapping"]
    assert set(mapping) == set(SYSTEM_IDS)
    assert {alt["$ref"] for alt in schema["oneOf"]} == set(mapping.values())
    for system, ref in mapping.items():
        definition = schema["$defs"][ref.removeprefix("#/$defs/")]
        assert definition["type"] == "object"
        assert definition["properties"]["system"]["const"] == system
        assert {"format", "version", "system"} <= set(definition["required"])
        assert definition.get("additionalProperties", True) is not False  # unknown keys kept
        assert {"abilities", "effects", "inventory", "hit_points", "level"} <= set(
            definition["properties"])


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_samples_and_blank_sheets_conform_to_the_schema(cli: Cli, schema: dict[str, Any],
                                                        system: str) -> None:
    sample = json.loads(SAMPLES[system].read_text())
    assert schema_errors(sample, schema, schema) == []
    assert schema_errors(json.loads(cli("export", SAMPLES[system]).out), schema, schema) == []
    assert schema_errors(json.loads(cli("new", "--system", system).out), schema, schema) == []


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"level": 0}, "$.level: 0 < 1"),
        ({"level": "3"}, "$.level: '3' is not ['integer']"),
        ({"system": "gurps"}, "unknown discriminator 'gurps'"),
        ({"effects": [{"active": 1}]}, "$.effects[0].active"),
        ({"format": None}, "$.format"),
    ],
)
def test_schema_checker_rejects_what_the_loader_rejects(schema: dict[str, Any],
                                                        change: dict[str, Any],
                                                        fragment: str) -> None:
    sample = {**json.loads(SAMPLES["runarcana"].read_text()), **change}
    errors = schema_errors(sample, schema, schema)
    assert any(fragment in e for e in errors), errors
    with pytest.raises(Exception):  # noqa: B017 - LoadError; the point is that both refuse
        character_from_data(sample)


# --- no Qt in the headless commands ------------------------------------------------------
@pytest.mark.parametrize("command", ["validate", "export --derived", "new --system pf2e",
                                     "schema"])
def test_headless_commands_do_not_import_qt(command: str) -> None:
    args = command.split()
    if command.startswith(("validate", "export")):
        args.append(str(SAMPLES["runarcana"]))
    code = (
        "import sys, io, contextlib\n"
        "from sheet_app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({args!r}) == 0\n"
        "qt = sorted(m for m in sys.modules\n"
        "            if m.startswith(('PySide6', 'shiboken6', 'ui.')) or m == 'ui')\n"
        "assert not qt, qt\n"
        "print('qt-free')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "qt-free\n"


# --- files that are not files, output that can't be written, Ctrl-C -------------------------
def _run_quick(args: list[str], *, timeout: float = 30, stdout: Any = subprocess.PIPE,
               env: dict[str, str] | None = None) -> tuple[Run, float]:
    """``python -m sheet_app ARGS``; fails the test (instead of waiting forever) on a hang."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sheet_app", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, encoding="utf-8", cwd=ROOT,
                          env=env or {**os.environ, "PYTHONPATH": str(ROOT)}, timeout=timeout,
                          check=False)
    return Run(proc.returncode, proc.stdout or "", proc.stderr), time.perf_counter() - start


FIFO_COMMANDS = {
    "validate": ["validate", "{fifo}"],
    "export": ["export", "{fifo}"],
    "export-derived": ["export", "--derived", "{fifo}"],
    "export-to-file": ["export", "{fifo}", "-o", "{out}"],
    "roll": ["roll", "{fifo}", "initiative"],
    "roll-damage": ["roll", "{fifo}", "damage:longsword", "--critical"],
    "export-into-fifo": ["export", str(SAMPLES["pf2e"]), "-o", "{fifo}"],
    "new-into-fifo": ["new", "--system", "pf2e", "-o", "{fifo}"],
    "new-into-fifo-forced": ["new", "--system", "pf2e", "--force", "-o", "{fifo}"],
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("command", list(FIFO_COMMANDS))
def test_a_named_pipe_through_every_command_is_refused_quickly(tmp_path: Path,
                                                               command: str) -> None:
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    out = tmp_path / "out.json"
    args = [a.format(fifo=fifo, out=out) for a in FIFO_COMMANDS[command]]
    run, elapsed = _run_quick(args)
    assert run.code == 2 and "Traceback" not in run.err and run.out == "", run
    assert len(run.err_lines) == 1 and ("named pipe" in run.err or "exists" in run.err), run.err
    assert elapsed < 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_given_to_the_window_is_refused_quickly(tmp_path: Path) -> None:
    """``sheet-app x.json`` loads the file before any window opens (here: off screen)."""
    pytest.importorskip("PySide6")
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "ui.main", str(fifo), "--screenshot",
                           str(tmp_path / "shot.png")], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [f"{fifo}: is a named pipe (FIFO), not a character file"]


def _unbuffered(on: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    if on:
        env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", [
    ["export", str(SAMPLES["dnd5e"])],
    ["export", "--derived", str(SAMPLES["pf2e"])],
    ["schema"],
    ["conditions", "--system", "pf2e"],
    ["roll", str(SAMPLES["dnd5e"]), "initiative", "--seed", "1"],
    ["validate", str(SAMPLES["d20srd"])],
    ["new", "--system", "runarcana"],
    ["--help"],
    ["--version"],
], ids=lambda a: "-".join(x for x in a if not x.startswith("/")))
def test_a_full_disk_on_stdout_is_one_line(args: list[str], unbuffered: bool) -> None:
    with open("/dev/full", "w") as full:
        run, _ = _run_quick(args, stdout=full, env=_unbuffered(unbuffered))
    assert run.code == 2, run
    assert run.err_lines == ["sheet-app: cannot write to standard output: "
                             "No space left on device"]


def test_ctrl_c_in_process_exits_130_with_one_line(cli: Cli,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import sheet_app.cli as cli_module

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, "load_character", interrupted)
    run = cli("validate", SAMPLES["pf2e"])
    assert (run.code, run.out, run.err_lines) == (130, "", ["sheet-app: interrupted"])


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_while_writing_exits_130_with_one_line(tmp_path: Path) -> None:
    """The export is stuck writing to a pipe nobody reads (more than a pipe holds) when
    Ctrl-C comes: one line, status 130, no traceback."""
    big = tmp_path / "big.json"
    data = json.loads(SAMPLES["runarcana"].read_text())
    data["notes"] = "x" * 99_000
    big.write_text(json.dumps(data))
    proc = subprocess.Popen([sys.executable, "-m", "sheet_app", "export", str(big)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        assert os.read(proc.stdout.fileno(), 1) == b"{"  # it runs, and the pipe is full
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    text = err.decode()
    assert proc.returncode == 130, text
    assert text.splitlines() == ["sheet-app: interrupted"] and out.startswith(b"\n")


def test_a_long_statistic_id_is_echoed_short(cli: Cli) -> None:
    wanted = "x" * 10_000
    for stat in (wanted, f"damage:{wanted}"):
        run = cli("roll", SAMPLES["dnd5e"], stat)
        assert run.code == 2 and len(run.err_lines) == 1
        assert f"'{stat[:40]}…'" in run.err and "x" * 41 not in run.err
    run = cli("roll", SAMPLES["dnd5e"], "initiative", "--mode", wanted)
    assert run.code == 2 and "x" * 40 + "…'" in run.err and "x" * 41 not in run.err


def test_a_longer_roll_log_is_a_warning_not_a_silent_cut(cli: Cli, tmp_path: Path) -> None:
    data = json.loads(SAMPLES["dnd5e"].read_text())
    data["roll_log"] = [{"time": "2026-11-29T18:40:00+00:00", "statistic": "initiative",
                         "label": "Initiative", "natural": 10, "total": i} for i in range(250)]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data))
    warning = ("warning: roll_log: the file holds 250 rolls and a sheet keeps the newest 200: "
               "the 50 oldest are left out, and leave the file when it is saved")
    run = cli("validate", path)
    assert run.code == 0 and run.err_lines == [warning]
    out = tmp_path / "out.json"
    run = cli("export", path, "-o", out)
    assert run.code == 0 and run.err_lines == [warning]
    assert [r["total"] for r in json.loads(out.read_text())["roll_log"]] == list(range(50, 250))


def test_many_unknown_keys_are_counted_not_each_checked_for_typos(cli: Cli,
                                                                  tmp_path: Path) -> None:
    data = json.loads(SAMPLES["pf2e"].read_text())
    data.update({f"x_key_{i}": i for i in range(5000)})
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(data))
    start = time.perf_counter()
    run = cli("validate", path)
    assert run.code == 0 and time.perf_counter() - start < 5
    assert run.err_lines == ["warning: 5,000 unknown keys, kept as is (too many to check for "
                             "misspellings)"]
