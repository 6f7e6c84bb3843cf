"""Reading and writing character files: bad or hostile input, round trips, atomic saves.

Every bad file is checked three ways: ``load_character`` (the problems it lists), the
``validate``/``export`` commands in-process (fast), and the same commands in a fresh
interpreter (what a user sees). Each must exit 2 with one ``path: message`` line per problem,
print no traceback, write nothing to stdout and leave the file exactly as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sheet_app import registry
from sheet_app.io import (
    LoadError,
    character_from_data,
    character_json,
    dumps,
    format_problem,
    load_character,
    parse_character,
    parse_json,
    save_character,
)
from sheet_app.systems.runarcana.model import RunarcanaCharacter
from tests.helpers import (
    SAMPLES,
    SYSTEM_IDS,
    Run,
    run_subprocess,
    snapshot,
    with_unknown_keys,
)

HEADER = '"format": "sheet-app/character", "version": 1'


def doc(system: str = "runarcana", **fields: object) -> bytes:
    data = {"format": "sheet-app/character", "version": 1, "system": system, **fields}
    return json.dumps(data).encode()


def raw_doc(body: str, system: str = "runarcana") -> bytes:
    """A document whose body is written by hand (NaN, escapes, huge numbers: not json.dumps)."""
    return f'{{{HEADER}, "system": "{system}", {body}}}'.encode()


@dataclass(frozen=True)
class Bad:
    """A bad file and the problems it must produce: ``(path, fragment)`` pairs, in order.

    An empty path is a problem with the whole file; its line starts with the file's name.
    """

    id: str
    content: bytes | None
    expected: tuple[tuple[str, str], ...]


BAD_FILES = [
    Bad("not-json", b"name: Lux\nlevel: 3\n", (("", "not valid JSON"),)),
    Bad("truncated-json", doc()[:-5], (("", "not valid JSON"),)),
    Bad("not-utf8", b'{"name": "Andr\xe9"}', (("", "not UTF-8"),)),
    Bad("utf16", '{"name": "x"}'.encode("utf-16"), (("", "not UTF-8"),)),
    Bad("empty", b"", (("", "empty"),)),
    Bad("only-whitespace", b" \n\t\r\n", (("", "empty"),)),
    Bad("array", b"[]", (("", "expected a JSON object, got an array"),)),
    Bad("array-of-character", b"[" + doc() + b"]", (("", "got an array"),)),
    Bad("string", b'"character"', (("", "got a string"),)),
    Bad("number", b"42", (("", "got a number"),)),
    Bad("null", b"null", (("", "got null"),)),
    Bad("deep-arrays", b"[" * 100_000 + b"]" * 100_000, (("", "nested"),)),
    Bad("deep-objects", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, (("", "nested"),)),
    Bad("deep-inside-character",
        raw_doc('"extra": ' + "[" * 100_000 + "]" * 100_000), (("", "nested"),)),
    Bad("nan", raw_doc('"abilities": {"str": NaN}'), (("", "NaN"),)),
    Bad("infinity", raw_doc('"inventory": [{"weight": Infinity}]'), (("", "Infinity"),)),
    Bad("minus-infinity", raw_doc('"level": -Infinity'), (("", "Infinity"),)),
    Bad("overflowing-float", raw_doc('"inventory": [{"weight": 1e999}]'),
        (("inventory.0.weight", "finite"),)),
    Bad("huge-integer", raw_doc('"level": 1' + "0" * 5000), (("", "digits"),)),
    Bad("wrong-types", doc(name=5, level="three", effects="none"),
        (("name", "valid string"), ("level", "valid integer"), ("effects", "valid list"))),
    Bad("bool-as-number", doc(level=True), (("level", "valid integer"),)),
    Bad("string-as-number", doc(abilities={"str": "14"}), (("abilities.str", "valid integer"),)),
    Bad("string-as-bool", doc(effects=[{"name": "Bless", "active": "no"}]),
        (("effects.0.active", "valid boolean"),)),
    Bad("two-out-of-range", doc(abilities={"str": 0, "dex": 31}),
        (("abilities.str", "greater than or equal to 1"),
         ("abilities.dex", "less than or equal to 30"))),
    Bad("out-of-range-level", doc("pf2e", level=21), (("level", "less than or equal to 20"),)),
    Bad("negative-weight", doc(inventory=[{"name": "Rock", "weight": -1}]),
        (("inventory.0.weight", "greater than or equal to 0"),)),
    Bad("roll-above-die", doc(hit_points={"hit_die": 6, "level_rolls": [7]}),
        (("hit_points", "higher than the hit die"),)),
    Bad("unknown-skill", doc(skills={"hacking": "proficient"}), (("skills", "unknown skill"),)),
    Bad("bad-rank", doc("pf2e", skills={"stealth": "proficient"}),
        (("skills.stealth", "'untrained', 'trained'"),)),
    Bad("unknown-system", doc("gurps"), (("system", "unknown system \"gurps\""),)),
    Bad("no-system", b'{' + HEADER.encode() + b'}', (("system", "unknown system null"),)),
    Bad("future-version", json.dumps({"format": "sheet-app/character", "version": 3,
                                      "system": "pf2e"}).encode(),
        (("version", "format version 3 is newer than this app reads (2)"),)),
    Bad("version-zero", json.dumps({"format": "sheet-app/character", "version": 0,
                                    "system": "pf2e"}).encode(),
        (("version", "unknown format version 0"),)),
    Bad("version-string", json.dumps({"format": "sheet-app/character", "version": "1",
                                      "system": "pf2e"}).encode(),
        (("version", "whole number"),)),
    Bad("no-header", b'{"name": "Lux"}',
        (("format", "expected 'sheet-app/character'"), ("version", "whole number"),
         ("system", "unknown system"))),
    Bad("other-format", json.dumps({"format": "foundry/actor", "version": 1,
                                    "system": "pf2e"}).encode(),
        (("format", '"foundry/actor"'),)),
    Bad("modifier-value-and-mode",
        doc(effects=[{"modifiers": [{"value": 1, "mode": "advantage", "targets": ["check"]}]}]),
        (("effects.0.modifiers.0", "either a 'mode' or a 'value'"),)),
    Bad("unknown-target", doc(effects=[{"modifiers": [{"value": 1, "targets": ["luck"]}]}]),
        (("effects.0.modifiers.0.targets", "unknown target 'luck'"),)),
    Bad("semantic", doc("d20srd", effects=[{"modifiers": [
        {"type": "status", "value": 1, "targets": ["skill:stealth"]},
        {"mode": "advantage", "targets": ["check"]}]}]),
        (("effects.0.modifiers.0.type", "not a d20srd modifier type"),
         ("effects.0.modifiers.0.targets.0", "use 'skill:hide' or 'skill:move_silently'"),
         ("effects.0.modifiers.1.mode", "no 'advantage' roll mode"))),
    Bad("lone-surrogate-unknown-key", raw_doc('"x_future": "\\udc80"'),
        (("x_future", "unpaired surrogate"),)),
    Bad("lone-surrogate-known-field", raw_doc('"name": "\\ud800"'),
        (("name", "unpaired surrogate"),)),
    Bad("newline-in-key", doc(skills={"x\ny\x1b[31m": "bad"}),
        (('skills."x\\ny\\u001b[31m"', "'untrained', 'proficient'"),)),
]


def _check_problems(problems: list[tuple[str, str]], case: Bad, source: str) -> None:
    assert len(problems) == len(case.expected), problems
    for (path, message), (want_path, fragment) in zip(problems, case.expected, strict=True):
        if want_path:
            assert path == want_path or path.startswith(want_path + "."), (path, want_path)
        else:
            assert path == "" and message.startswith(f"{source}: "), (path, message)
        assert fragment in message, (fragment, message)
        assert "\n" not in path + message


def _check_run(run: Run, case: Bad, path: Path) -> None:
    assert run.code == 2, run
    assert "Traceback" not in run.err
    assert run.out == ""
    lines = run.err_lines
    assert len(lines) == len(case.expected), lines
    for line, (want_path, fragment) in zip(lines, case.expected, strict=True):
        assert line.startswith(f"{want_path}" if want_path else f"{path}: "), line
        assert ": " in line and fragment in line, (fragment, line)


def _write(tmp_path: Path, case: Bad) -> Path:
    path = tmp_path / f"{case.id}.json"
    assert case.content is not None
    path.write_bytes(case.content)
    return path


@pytest.mark.parametrize("case", BAD_FILES, ids=lambda c: c.id)
def test_load_character_lists_every_problem(tmp_path: Path, case: Bad) -> None:
    path = _write(tmp_path, case)
    before = snapshot(path)
    with pytest.raises(LoadError) as info:
        load_character(path)
    _check_problems(info.value.problems, case, str(path))
    assert str(info.value) == "\n".join(format_problem(p) for p in info.value.problems)
    assert snapshot(path) == before


@pytest.mark.parametrize("command", [["validate"], ["export"], ["export", "--derived"]])
@pytest.mark.parametrize("case", BAD_FILES, ids=lambda c: c.id)
def test_bad_file_in_process(cli: Callable[..., Run], tmp_path: Path, case: Bad,
                             command: list[str]) -> None:
    path = _write(tmp_path, case)
    before = snapshot(path)
    _check_run(cli(*command, path), case, path)
    assert snapshot(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("command", ["validate", "export"])
@pytest.mark.parametrize("case", BAD_FILES, ids=lambda c: c.id)
def test_bad_file_subprocess(tmp_path: Path, case: Bad, command: str) -> None:
    path = _write(tmp_path, case)
    before = snapshot(path)
    _check_run(run_subprocess(command, path), case, path)
    assert snapshot(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_export_of_bad_file_leaves_output_alone(cli: Callable[..., Run], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(doc(level=99))
    out = tmp_path / "out.json"
    run = cli("export", bad, "-o", out)
    assert run.code == 2 and not out.exists()
    out.write_text("precious\n")
    before = snapshot(out)
    run = cli("export", "--derived", bad, "-o", out)
    assert run.code == 2 and run.err_lines == ["level: Input should be less than or equal to 20 "
                                               "(got 99)"]
    assert snapshot(out) == before


# --- paths that are not files ------------------------------------------------------------
def _not_a_file(tmp_path: Path, kind: str) -> tuple[Path, str]:
    if kind == "missing":
        return tmp_path / "nowhere.json", "no such file"
    if kind == "missing-dir":
        return tmp_path / "no" / "such" / "dir.json", "no such file"
    folder = tmp_path / "folder.json"
    folder.mkdir()
    return folder, "is a folder, not a character file"


@pytest.mark.parametrize("kind", ["missing", "missing-dir", "directory"])
def test_path_that_is_not_a_file(cli: Callable[..., Run], tmp_path: Path, kind: str) -> None:
    path, fragment = _not_a_file(tmp_path, kind)
    with pytest.raises(LoadError) as info:
        load_character(path)
    assert info.value.problems == [("", f"{path}: {fragment}")]
    for run in (cli("validate", path), cli("export", path), run_subprocess("validate", path),
                run_subprocess("export", "--derived", path)):
        assert run.code == 2 and "Traceback" not in run.err and run.out == ""
        assert run.err_lines == [f"{path}: {fragment}"]
    assert path.is_dir() if kind == "directory" else not path.exists()
    if kind == "directory":
        assert list(path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_device_is_refused_not_read_forever() -> None:
    with pytest.raises(LoadError) as info:
        load_character("/dev/zero")
    [(path, message)] = info.value.problems
    assert path == "" and "more than" in message and "bytes" in message


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "secret.json"
    path.write_bytes(doc())
    path.chmod(0)
    try:
        run = cli("validate", path)
    finally:
        path.chmod(0o600)
    assert run.code == 2 and run.err_lines == [f"{path}: permission denied"]


def test_oversized_file_is_refused_before_parsing(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import sheet_app.io as io_module

    path = tmp_path / "big.json"
    path.write_bytes(doc(notes="x" * 2000))
    monkeypatch.setattr(io_module, "MAX_FILE_BYTES", 1000)
    with pytest.raises(LoadError) as info:
        load_character(path)
    assert "limit is 1,000" in info.value.problems[0][1]


# --- reading never executes anything -----------------------------------------------------
HOSTILE_PAYLOADS = [
    # Python, YAML and pickle payloads: a loader that evaluated any of them would touch MARKER.
    b'{"format": "sheet-app/character", "version": 1, "system": "runarcana", '
    b'"name": "__import__(\'os\').system(\'touch MARKER\')", '
    b'"notes": "{{ self.__init__.__globals__ }} $(touch MARKER) `touch MARKER`"}',
    b"!!python/object/apply:os.system ['touch MARKER']\n",
    b"cos\nsystem\n(S'touch MARKER'\ntR.",
    b'{"__class__": "os.system", "__reduce__": ["touch MARKER"], "__dict__": {"level": 20},'
    b' "model_config": {"extra": "forbid"}, "format": "sheet-app/character",'
    b' "version": 1, "system": "runarcana"}',
]


@pytest.mark.parametrize("payload", HOSTILE_PAYLOADS, ids=["strings", "yaml", "pickle", "dunder"])
def test_reading_never_executes(tmp_path: Path, payload: bytes,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "hostile.json"
    path.write_bytes(payload)
    try:
        character = load_character(path)
    except LoadError:
        character = None
    for command in ("validate", "export"):
        run_subprocess(command, path, cwd=tmp_path)
    assert not (tmp_path / "MARKER").exists()
    if character is not None:  # strings stay strings; unknown keys stay plain data
        assert type(character) is RunarcanaCharacter and character.level == 1
        data = character.dump()
        assert data["name"] in ("", "__import__('os').system('touch MARKER')")
        assert all(isinstance(v, str | int | float | bool | list | dict | None)
                   for v in data.values())
        if b"__class__" in payload:
            assert data["__class__"] == "os.system"
            assert data["model_config"] == {"extra": "forbid"}
    else:
        assert not payload.startswith(b'{"format"')


# --- good files --------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_samples_load(system: str) -> None:
    character = load_character(SAMPLES[system])
    assert character.system == system and character.name


def test_byte_order_mark_and_crlf_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "windows.json"
    text = json.dumps(json.loads(SAMPLES["pf2e"].read_text()), indent=2).replace("\n", "\r\n")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_character(path) == load_character(SAMPLES["pf2e"])


def test_parse_accepts_text_and_bytes() -> None:
    raw = SAMPLES["runarcana"].read_bytes()
    assert parse_character(raw) == parse_character(raw.decode())
    with pytest.raises(LoadError) as info:
        parse_json("[1, 2", "inline")
    assert info.value.problems[0][1].startswith("inline: not valid JSON")
    assert info.value.source == "inline"


def test_character_from_data_needs_an_object() -> None:
    with pytest.raises(LoadError) as info:
        character_from_data(["not", "a", "dict"])
    assert info.value.problems == [("", "expected a JSON object, got an array")]


def test_character_from_data_walks_deep_python_data_without_recursion() -> None:
    nested: object = "\udc80"
    for _ in range(50_000):  # beyond any recursion limit; only io's JSON parser caps depth
        nested = [nested]
    with pytest.raises(LoadError) as info:
        character_from_data({"format": "sheet-app/character", "version": 1,
                             "system": "pf2e", "deep": nested})
    [(path, message)] = info.value.problems
    assert path == "deep" + ".0" * 50_000 and "surrogate" in message


def test_nesting_just_inside_the_limit_loads() -> None:
    from sheet_app.io import MAX_DEPTH

    deep = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    character = parse_character(raw_doc(f'"x_deep": {deep}'))
    assert character.model_extra is not None and "x_deep" in character.model_extra
    with pytest.raises(LoadError):
        parse_character(raw_doc(f'"x_deep": [{deep}]'))


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = "[{" * 5000 + '\\"' + "]}" * 5000
    character = parse_character(raw_doc(f'"notes": "{text}"'))
    assert character.notes == text.replace('\\"', '"')


def test_derived_block_is_dropped_on_import(tmp_path: Path) -> None:
    character = load_character(SAMPLES["d20srd"])
    exported = character_json(character, derived=True)
    assert "derived" in exported
    path = tmp_path / "exported.json"
    path.write_text(dumps(exported), encoding="utf-8")
    again = load_character(path)
    assert again == character
    assert "derived" not in again.dump()
    assert again.model_extra is not None and "derived" not in again.model_extra


# --- round trips -------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEM_IDS)
@pytest.mark.parametrize("unknown", [False, True], ids=["plain", "unknown-keys"])
def test_export_load_export_is_identical(system: str, unknown: bool) -> None:
    data = json.loads(SAMPLES[system].read_text())
    if unknown:
        data = with_unknown_keys(data)
    first = dumps(character_json(character_from_data(data)))
    second = dumps(character_json(parse_character(first)))
    assert first == second
    if unknown:
        again = json.loads(second)
        assert again["x_future"] == data["x_future"]
        assert again["abilities"]["x_abilities"] == ["abilities", 1.5]
        assert again["hit_points"]["x_hit_points"] == ["hit_points", 1.5]
        assert again["options"]["x_options"] == ["options", 1.5]
        assert again["armor"]["x_armor"] == ["armor", 1.5]
        assert again["effects"][-1]["x_icon"] == "star"
        assert again["effects"][-1]["modifiers"][0]["x_note"] == {"a": 1}
        assert again["inventory"][-1]["x_rarity"] == "rare"


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_a_roll_log_written_by_the_app_loads_back(tmp_path: Path, system: str) -> None:
    """Strict loading still accepts what the app itself writes (the roll log's records)."""
    import random
    from datetime import UTC, datetime

    from sheet_app.rolls import append_record, roll_statistic
    from sheet_app.rules import derive

    character = load_character(SAMPLES[system])
    roll = roll_statistic(derive(character).statistic("initiative"), system, random.Random(7),
                          dc=15)
    record = roll.to_record(datetime(2026, 11, 29, 18, 40, tzinfo=UTC))
    character.roll_log = append_record(character.roll_log, record)
    path = tmp_path / "rolled.json"
    save_character(character, path)
    again = load_character(path)
    assert again == character and again.roll_log[-1].dc == 15
    assert dumps(character_json(again)) == path.read_text(encoding="utf-8")


def test_python_field_names_are_unknown_keys_in_a_file() -> None:
    """The file says "class"; a "class_" key is someone else's unknown key, kept verbatim."""
    character = parse_character(doc("pf2e", **{"class": "Fighter", "class_": "Wizard",
                                                "hit_points": {"class": 10, "class_": 6}}))
    data = character_json(character)
    assert (data["class"], data["class_"]) == ("Fighter", "Wizard")
    assert (data["hit_points"]["class"], data["hit_points"]["class_"]) == (10, 6)


def test_normalisation_fills_defaults_and_is_stable() -> None:
    character = parse_character(doc("runarcana", effects=[{"modifiers": [
        {"value": 2, "targets": ["check"]}]}]))
    data = character_json(character)
    assert data["effects"][0]["modifiers"][0]["type"] == "untyped"
    assert data["level"] == 1 and data["abilities"]["str"] == 10
    assert character_json(character_from_data(data)) == data


# --- saving ------------------------------------------------------------------------------
def _leftovers(folder: Path, keep: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != keep)


def test_save_writes_utf8_json_that_loads_back(tmp_path: Path) -> None:
    character = registry.get("runarcana").new_character("Zoë ✓")
    assert isinstance(character, RunarcanaCharacter)
    character.abilities.str = 15
    path = tmp_path / "zoe.json"
    save_character(character, path)
    raw = path.read_bytes()
    assert "Zoë ✓".encode() in raw and raw.endswith(b"\n")
    assert load_character(path) == character
    assert _leftovers(tmp_path, "zoe.json") == []


def test_save_replaces_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "pc.json"
    path.write_bytes(SAMPLES["pf2e"].read_bytes())
    character = load_character(path)
    character.name = "Renamed"
    save_character(character, path)
    assert load_character(path).name == "Renamed"
    assert _leftovers(tmp_path, "pc.json") == []


@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_failed_save_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               failing: str) -> None:
    import io as stdlib_io

    path = tmp_path / "pc.json"
    path.write_bytes(SAMPLES["runarcana"].read_bytes())
    before = snapshot(path)
    character = load_character(path)
    character.name = "Half-written"

    def boom(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    if failing == "write":
        real_fdopen = os.fdopen

        class HalfWriting:
            """The file handle of a full disk: part of the text lands, then the write fails."""

            def __init__(self, handle: stdlib_io.TextIOWrapper) -> None:
                self.handle = handle

            def __enter__(self) -> HalfWriting:
                return self

            def __exit__(self, *_exc: object) -> None:
                self.handle.close()

            def write(self, text: str) -> None:
                self.handle.write(text[:10])
                boom()

        monkeypatch.setattr(os, "fdopen",
                            lambda fd, *a, **k: HalfWriting(real_fdopen(fd, *a, **k)))
    else:
        monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError, match="No space left"):
        save_character(character, path)
    monkeypatch.undo()
    assert snapshot(path) == before
    assert _leftovers(tmp_path, "pc.json") == []


def test_save_into_a_missing_folder_raises_and_creates_nothing(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "pc.json"
    with pytest.raises(OSError):
        save_character(registry.get("pf2e").new_character(), target)
    assert list(tmp_path.iterdir()) == []
