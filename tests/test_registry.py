"""The registry of rule systems, and that no code outside sheet_app/systems/ names one."""

from __future__ import annotations

import io
import tokenize
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import pytest

from sheet_app import registry
from sheet_app.io import LoadError, character_from_data
from sheet_app.systems import BUILT_IN
from sheet_app.systems.base import BasicSystem
from sheet_app.systems.runarcana.model import RunarcanaCharacter
from tests.helpers import ROOT, SYSTEM_IDS


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_every_built_in_implements_the_protocol(system_id: str) -> None:
    system = registry.get(system_id)
    assert isinstance(system, registry.RuleSystem)
    assert system.id == system_id and system.name
    sample = system.sample()
    assert sample.system == system_id
    derived = system.derive(sample)
    assert derived.system == system_id and derived.statistics
    sheet = system.sheet()
    assert sheet.skills and all(row.stat_id in derived.statistics for row in sheet.skills)
    assert all(row.stat_id in derived.statistics for row in sheet.saves)
    assert all(p.key in derived.passive for p in sheet.passives)
    assert system.problems(sample) == []


def test_built_ins_come_in_their_order() -> None:
    assert registry.known_ids()[: len(BUILT_IN)] == tuple(BUILT_IN)


def _copy(system_id: str, new_id: str) -> BasicSystem:
    original = registry.get(system_id)
    assert isinstance(original, BasicSystem)
    return replace(original, id=new_id, name="Homebrew")


def test_a_registered_system_is_found_without_entry_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_plugins(**_: Any) -> list[Any]:
        raise AssertionError("entry points searched for a known system")

    monkeypatch.setattr("importlib.metadata.entry_points", no_plugins)
    for system_id in SYSTEM_IDS:
        registry.get(system_id)


class _EntryPoint:
    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value


def test_an_unknown_id_searches_the_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def entry_points(group: str) -> list[_EntryPoint]:
        calls.append(group)
        return [_EntryPoint("homebrew", "tests.test_registry:HOMEBREW")]

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    monkeypatch.setattr(registry, "_plugins", None)
    try:
        system = registry.get("homebrew")
        assert system is HOMEBREW and calls == ["sheet_app.systems"]
        with pytest.raises(registry.UnknownSystem, match="unknown system 'gurps'"):
            registry.get("gurps")
        assert calls == ["sheet_app.systems"]  # searched once
    finally:
        registry.unregister("homebrew")


def test_a_broken_plugin_is_an_unknown_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("importlib.metadata.entry_points",
                        lambda group: [_EntryPoint("broken", "no_such_module:SYSTEM")])
    monkeypatch.setattr(registry, "_plugins", None)
    assert not registry.is_known("broken")


class HomebrewCharacter(RunarcanaCharacter):
    system: Literal["homebrew"] = "homebrew"  # type: ignore[assignment]


def test_a_registered_system_loads_validates_and_derives_its_files() -> None:
    registry.register(replace(_copy("runarcana", "homebrew"), model_type=HomebrewCharacter))
    try:
        data = registry.get("runarcana").sample().dump()
        data["system"] = "homebrew"
        character = character_from_data(data)
        assert isinstance(character, HomebrewCharacter)
        derived = registry.get("homebrew").derive(character)
        assert derived.system == "runarcana"  # its rules are runarcana's, by construction
        assert "homebrew" in registry.known_ids()
        data["skills"] = {"hacking": "proficient"}
        with pytest.raises(LoadError, match="unknown skill 'hacking'"):
            character_from_data(data)
    finally:
        registry.unregister("homebrew")
    assert not registry.is_known("homebrew")


HOMEBREW = _copy("runarcana", "homebrew")


# --- nothing outside sheet_app/systems/ spells a system id --------------------------------
FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", -1)
"""Python 3.12 splits f-strings into tokens; 3.11 gives them whole, as STRING."""


def _quoted_ids(path: Path) -> list[tuple[int, str]]:
    found = []
    ids = set(BUILT_IN)
    for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        if token.type == tokenize.STRING:
            text = token.string.lstrip("rbufRBUF").strip("'\"")
            if text in ids:
                found.append((token.start[0], token.string))
        elif token.type == FSTRING_MIDDLE and token.string in ids:
            found.append((token.start[0], token.string))
    return found


def _outside_systems() -> list[Path]:
    files = [*ROOT.joinpath("sheet_app").rglob("*.py"), *ROOT.joinpath("ui").rglob("*.py")]
    systems = ROOT / "sheet_app" / "systems"
    return [p for p in files if systems not in p.parents]


def test_no_quoted_system_id_outside_the_system_packages() -> None:
    offenders = {str(p.relative_to(ROOT)): hits for p in _outside_systems()
                 if (hits := _quoted_ids(p))}
    assert offenders == {}


def test_the_search_finds_a_quoted_id(tmp_path: Path) -> None:
    planted = tmp_path / "x.py"
    planted.write_text('if system == "pf2e":\n    pass\nname = f"{x}"\n', "utf-8")
    assert _quoted_ids(planted) == [(1, '"pf2e"')]
