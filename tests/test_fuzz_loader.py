"""The loader under random input: random JSON documents, mutated samples, JSON-like text and
random bytes. Each one either loads as a character or raises `LoadError` whose problems are
``(path, message)`` pairs of one-line strings; never any other exception, never a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheet_app.io import LoadError, character_from_data, load_character, parse_character
from sheet_app.model import CharacterBase
from tests.helpers import SAMPLES, SYSTEM_IDS

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

KNOWN_KEYS = (
    "format", "version", "system", "name", "level", "ancestry", "class", "speed", "inventory",
    "effects", "weapons", "spellcasting", "resources", "options", "notes", "roll_log",
    "abilities", "skills", "hit_points", "armor", "shield", "natural_armor", "size",
    "perception", "skill_ranks", "base_attack_bonus", "derived", "x_future",
)

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10 ** 120), max_value=10 ** 120),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["1d4", "check", "skill:stealth", "untyped", "advantage", "status",
                     "2026-11-29T18:40:00+00:00", "pf2e", "dnd5e", "\udc80"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.one_of(st.sampled_from(KNOWN_KEYS),
                                                      st.text(max_size=8)), inner, max_size=5)),
    max_leaves=25,
)


def _check(load: Any) -> None:
    try:
        character = load()
    except LoadError as exc:
        assert isinstance(exc.problems, list) and exc.problems
        for problem in exc.problems:
            assert isinstance(problem, tuple) and len(problem) == 2
            path, message = problem
            assert isinstance(path, str) and isinstance(message, str) and message
            assert "\n" not in path and "\n" not in message
            assert "set_int_max_str_digits" not in message
        return
    assert isinstance(character, CharacterBase)
    json.dumps(character.dump(), allow_nan=False).encode("utf-8")  # it can be saved


def _text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=True)  # lone surrogates become \udc80 escapes


@FUZZ
@given(json_values)
def test_any_json_document(doc: Any) -> None:
    _check(lambda: parse_character(_text(doc)))


@FUZZ
@given(st.sampled_from(SYSTEM_IDS), st.integers(1, 2),
       st.dictionaries(st.sampled_from(KNOWN_KEYS), json_values, max_size=6))
def test_documents_with_a_valid_header(system: str, version: int, body: dict[str, Any]) -> None:
    doc = {"format": "sheet-app/character", "version": version, "system": system, **body}
    _check(lambda: parse_character(_text(doc).encode()))
    _check(lambda: character_from_data(doc))


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _places(item, (*path, i))
    return out


@FUZZ
@given(st.sampled_from(SYSTEM_IDS), st.data())
def test_mutated_samples(system: str, data: st.DataObject) -> None:
    doc = json.loads(SAMPLES[system].read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        place = data.draw(st.sampled_from(_places(doc)[1:]))
        parent = doc
        for key in place[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent[place[-1]] = data.draw(json_values)
    _check(lambda: parse_character(_text(doc)))


JSONISH = st.text(alphabet='[]{}",:0123456789.eE-+ \\ntrufalsn\u00e9', max_size=200)


@FUZZ
@given(JSONISH)
def test_json_like_text(text: str) -> None:
    _check(lambda: parse_character(text))
    header = '{"format": "sheet-app/character", "version": 2, "system": "pf2e", "x": '
    _check(lambda: parse_character(header + text + "}"))


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(raw: bytes) -> None:
    _check(lambda: parse_character(raw))


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_from_a_file(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "random.json"
    path.write_bytes(raw)
    _check(lambda: load_character(path))
