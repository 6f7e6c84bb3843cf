"""Reading and writing character files: bad or hostile input, round trips, atomic saves.

Every bad file is checked three ways: ``load_character`` (the problems it lists), the
``validate``/``export`` commands in-process (fast), and the same commands in a fresh
interpreter (what a user sees). Each must exit 2 with one ``path: message`` line per problem,
print no traceback, write nothing to stdout and leave the file exactly as it was.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sheet_app import registry
from sheet_app.io import (
    MAX_FILE_BYTES,
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
from sheet_app.model import CharacterBase
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
    assert info.value.problems == [("", "/dev/zero: is a device, not a character file")]


def _load_within(path: Path, seconds: float = 5.0) -> LoadError:
    """The LoadError of loading ``path``, which must come within ``seconds`` (a pipe that
    was opened for reading would block forever: the thread would still be alive)."""
    result: list[BaseException] = []

    def load() -> None:
        try:
            load_character(path)
        except BaseException as exc:  # handed to the test
            result.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"loading {path} hangs"
    [error] = result
    assert isinstance(error, LoadError)
    return error


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    error = _load_within(fifo)
    assert error.problems == [("", f"{fifo}: is a named pipe (FIFO), not a character file")]
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    assert "named pipe" in _load_within(link).problems[0][1]


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs Unix sockets")
def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        server.listen()
        assert _load_within(path).problems == [("", f"{path}: is a socket, not a character file")]
    finally:
        server.close()


def test_a_file_swapped_for_a_pipe_after_the_check_is_still_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """os.stat said "regular file", then a pipe took its place: the open neither blocks
    (O_NONBLOCK) nor reads it (the open file is checked again)."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs named pipes")
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    regular = os.stat(SAMPLES["pf2e"])
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: regular if Path(p) == fifo
                        else real_stat(p, *a, **k))
    assert "named pipe" in _load_within(fifo).problems[0][1]


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


# --- bounded work: limits on values, numbers, strings, problems -------------------------------
HEADER_DOC = '{"format": "sheet-app/character", "version": 2, "system": "dnd5e", '


def _timed_load(path: Path) -> tuple[float, CharacterBase | LoadError]:
    start = time.perf_counter()
    try:
        result: CharacterBase | LoadError = load_character(path)
    except LoadError as exc:
        result = exc
    return time.perf_counter() - start, result


def test_ten_million_zeros_are_refused_within_a_second(tmp_path: Path) -> None:
    """The issue's file: an unknown key holding 10 M zeros (20 MB) took 32-47 s."""
    path = tmp_path / "zeros.json"
    path.write_text(HEADER_DOC + '"x": [' + ",".join(["0"] * 10_000_000) + "]}")
    assert path.stat().st_size < MAX_FILE_BYTES
    elapsed, result = _timed_load(path)
    assert isinstance(result, LoadError) and elapsed < 1.5, elapsed
    assert result.problems == [("", f"{path}: more than 2,000,000 values; not a character file")]


CRAFTED = {
    "zeros": lambda: '"x": [' + ",".join(["0"] * 7_500_000) + "]",
    "strings": lambda: '"x": [' + ",".join(['"abcdef"'] * 1_650_000) + "]",
    "keys": lambda: ",".join(f'"key{i:07d}": 0' for i in range(950_000)),
    "nested": lambda: '"x": [' + ",".join(["[[[[[[[[[[1]]]]]]]]]]"] * 680_000) + "]",
    "objects": lambda: '"x": [' + ",".join(['{"a": "' + "x" * 20 + '"}'] * 500_000) + "]",
    "escapes": lambda: '"x": "' + '\\"' * 7_400_000 + '"',
    "long-string": lambda: '"x": "' + "a" * 15_000_000 + '"',
    "openers": lambda: '"x": ' + "[" * 15_000_000,
    "closers": lambda: '"x": 1' + "]" * 15_000_000,
}


@pytest.mark.parametrize("kind", list(CRAFTED))
def test_crafted_15_mb_files_answer_in_seconds(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.json"
    path.write_text(HEADER_DOC + CRAFTED[kind]() + "}")
    assert 14_000_000 < path.stat().st_size < MAX_FILE_BYTES
    elapsed, result = _timed_load(path)
    assert elapsed < 8, (kind, elapsed)
    if isinstance(result, LoadError):
        assert all(isinstance(m, str) and "\n" not in m for _, m in result.problems)
        assert len(result.problems) <= 101
        return
    # What loads can be saved, and what is saved loads again: never a file it would refuse.
    out = tmp_path / "saved.json"
    start = time.perf_counter()
    save_character(result, out)
    assert time.perf_counter() - start < 8
    assert out.stat().st_size <= MAX_FILE_BYTES
    assert load_character(out) == result


def test_values_are_counted_not_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sheet_app.io as io_module

    monkeypatch.setattr(io_module, "MAX_VALUES", 100)
    assert parse_character(raw_doc('"x": [' + ",".join(["1"] * 50) + "]"))
    with pytest.raises(LoadError, match="more than 100 values"):
        parse_character(raw_doc('"x": [' + ",".join(["1"] * 101) + "]"))
    commas_in_text = '"x": "' + "," * 1000 + '"'  # inside a string they are not values
    assert parse_character(raw_doc(commas_in_text))
    with pytest.raises(LoadError, match="more than 100 values"):  # Python data: counted too
        character_from_data({**json.loads(doc()), "x": list(range(200))})


@pytest.mark.parametrize("number", ["1" * 101, "-" + "9" * 150, "1." + "5" * 200,
                                    "1e" + "0" * 120, "1" * 5000])
def test_long_numbers_are_refused_with_a_short_message(number: str) -> None:
    with pytest.raises(LoadError) as info:
        parse_character(raw_doc(f'"x_big": {number}'), "big.json")
    [(path, message)] = info.value.problems
    assert path == "" and message.startswith("big.json: line 1: a number with ")
    assert message.endswith("digits; numbers in a character file have at most 100")
    assert "sys." not in message and "int_max_str_digits" not in message


def test_numbers_up_to_the_cap_load() -> None:
    character = parse_character(raw_doc(f'"x_big": {"9" * 100}, "x_small": -{"9" * 99}, '
                                        f'"x_float": 1.{"5" * 90}e-3'))
    assert character.model_extra is not None
    assert character.model_extra["x_big"] == int("9" * 100)


def test_huge_python_ints_and_infinities_are_problems_with_a_path() -> None:
    base = json.loads(doc())
    with pytest.raises(LoadError) as info:
        character_from_data({**base, "x": {"deep": [10 ** 5000]}, "y": float("inf")})
    assert info.value.problems == [("x.deep.0", "a number with more than 100 digits"),
                                   ("y", "not a finite number (too large)")]


def test_overflowing_float_in_an_unknown_key_is_refused() -> None:
    """1e999 parses as infinity: kept, it would be written as Infinity, which no JSON
    reader takes; so it is refused where it is."""
    with pytest.raises(LoadError) as info:
        parse_character(raw_doc('"x_future": {"a": [1e999]}'))
    assert info.value.problems == [("x_future.a.0", "not a finite number (too large)")]


def test_strings_and_keys_have_a_length_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import sheet_app.io as io_module

    monkeypatch.setattr(io_module, "MAX_STRING_CHARS", 100)
    with pytest.raises(LoadError) as info:
        parse_character(raw_doc(f'"x_text": "{"a" * 101}", "{"k" * 101}": 1'))
    assert info.value.problems == [
        ("k" * 40 + "…", "key text of 101 characters; at most 100"),
        ("x_text", "text of 101 characters; at most 100"),
    ]


def test_many_problems_are_listed_up_to_a_cap() -> None:
    body = ", ".join(f'"x{i}": "\\udc80"' for i in range(150))
    with pytest.raises(LoadError) as info:
        parse_character(raw_doc(body), "many.json")
    assert len(info.value.problems) == 101
    assert info.value.problems[-1] == ("", "many.json: and 50 more problems")


def test_a_long_value_is_quoted_short_in_a_message() -> None:
    with pytest.raises(LoadError) as info:
        parse_character(raw_doc(f'"format": "{"f" * 10_000}"').replace(
            b'"format": "sheet-app/character", ', b""))
    [(_, message)] = [p for p in info.value.problems if p[0] == "format"]
    assert len(message) < 100 and "…" in message


# --- the roll log: the format's limit is the app's ------------------------------------------
def _record(i: int) -> dict[str, object]:
    return {"time": "2026-11-29T18:40:00+00:00", "statistic": "initiative",
            "label": "Initiative", "dice": [i % 20 + 1], "natural": i % 20 + 1, "total": i}


def test_the_roll_log_limit_is_the_apps() -> None:
    from sheet_app.io import roll_log_limit
    from sheet_app.model import MAX_ROLL_LOG
    from sheet_app.rolls import ROLL_LOG_LIMIT

    for system in SYSTEM_IDS:
        assert roll_log_limit(registry.get(system).model) == ROLL_LOG_LIMIT == MAX_ROLL_LOG


def test_a_longer_roll_log_loads_its_newest_rolls_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "long-log.json"
    data = json.loads(SAMPLES["pf2e"].read_text())
    data["roll_log"] = [_record(i) for i in range(1000)]
    path.write_text(json.dumps(data))
    notes: list[tuple[str, str]] = []
    character = load_character(path, notes=notes)
    assert [r.total for r in character.roll_log] == list(range(800, 1000))
    assert notes == [("roll_log", "the file holds 1,000 rolls and a sheet keeps the newest 200: "
                                  "the 800 oldest are left out, and leave the file when it is "
                                  "saved")]
    assert load_character(path) == character  # the same without asking for notes
    data["roll_log"] = data["roll_log"][:200]
    path.write_text(json.dumps(data))
    notes.clear()
    assert len(load_character(path, notes=notes).roll_log) == 200 and notes == []


# --- the largest sheet the model allows ------------------------------------------------------
def _largest_sheet(system: str) -> dict[str, object]:
    """Every list at its model's limit, every modifier reaching every target it may name."""
    from sheet_app.model import MAX_EFFECTS, MAX_MODIFIERS, MAX_WEAPONS
    from tests.helpers import TARGETS

    facts = registry.get(system).facts
    data: dict[str, object] = json.loads(SAMPLES[system].read_text())
    targets = list(TARGETS[system])[:64]
    data["effects"] = [
        {"name": f"Effect {i}", "active": True,
         "modifiers": [{"type": facts.modifier_types[j % len(facts.modifier_types)],
                        "value": 1 + j % 3, "targets": targets} for j in range(MAX_MODIFIERS)]}
        for i in range(MAX_EFFECTS)]
    data["weapons"] = [{"name": f"Weapon {i}", "damage": "1d8"} for i in range(MAX_WEAPONS)]
    data["roll_log"] = [_record(i) for i in range(roll_log_limit_of(system))]
    return data


def roll_log_limit_of(system: str) -> int:
    from sheet_app.io import roll_log_limit

    return roll_log_limit(registry.get(system).model)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_largest_sheet_stays_interactive_and_can_be_saved(tmp_path: Path,
                                                              system: str) -> None:
    """Issue 10, item 14: 1000 effects × 50 modifiers froze the window 2 s per edit. The
    limits keep derive near 30 ms and an edit near 40 ms here (bounds below are loose, for
    slow CI machines)."""
    from sheet_app import edit
    from sheet_app.rules import derive

    character = character_from_data(_largest_sheet(system))
    best_derive = min(_seconds(lambda: derive(character)) for _ in range(3))
    best_edit = min(_seconds(lambda: derive(edit.apply(character, edit.Set(
        ("effects", 0, "modifiers", 0, "value"), 3)))) for _ in range(3))
    assert best_derive < 0.25 and best_edit < 0.35, (best_derive, best_edit)
    path = tmp_path / "largest.json"
    save_character(character, path)
    assert path.stat().st_size < MAX_FILE_BYTES
    assert load_character(path) == character


def _seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@pytest.mark.parametrize(("field", "limit"), [(("effects",), 100), (("weapons",), 20),
                                              (("spellcasting",), 10), (("roll_log",), 200)])
def test_the_limits_are_named_in_the_message(field: tuple[str, ...], limit: int) -> None:
    data = json.loads(doc("dnd5e"))
    item: object = {"name": "X"}
    if field == ("roll_log",):
        item = _record(1)
    data[field[0]] = [item] * (limit + 1)
    if field == ("roll_log",):
        assert len(character_from_data(data).roll_log) == limit  # loads its newest
        return
    with pytest.raises(LoadError) as info:
        character_from_data(data)
    [(path, message)] = info.value.problems
    assert path == field[0] and f"at most {limit} items" in message


def test_an_effect_holds_at_most_five_modifiers() -> None:
    effect = {"name": "Many", "modifiers": [{"value": 1, "targets": ["check"]}] * 6}
    with pytest.raises(LoadError) as info:
        character_from_data({**json.loads(doc("pf2e")), "effects": [effect]})
    [(path, message)] = info.value.problems
    assert path == "effects.0.modifiers" and "at most 5 items" in message
