"""``sheet-app roll``: output per CONTRACT.md, and one clear message (exit 2) for every user error.

Most tests stand in fakes for ``sheet_app.io`` and ``sheet_app.rules`` so they test this
command alone; the last ones run the real loader and rules engine on the shipped samples.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import types
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from sheet_app import cli_roll
from sheet_app.checks import check_odds
from sheet_app.derived import (
    Carrying,
    Derived,
    HitPoints,
    ModeSource,
    ModifierLine,
    Speed,
    Statistic,
)
from tests.helpers import SAMPLES

CONTRACT_KEYS = {
    "statistic", "label", "mode", "dice", "natural", "modifiers",
    "total_modifier", "total", "dc", "outcome",
}  # fmt: skip

LINES = (
    ModifierLine("Dexterity", "ability", 2),
    ModifierLine("Proficiency", "proficiency", 2),
    ModifierLine("Ring", "item", 1, applied=False, reason="a higher item bonus applies (+2 Cloak)"),
)


def make_derived(
    system: str, *extra: Statistic, stealth_modes: tuple[ModeSource, ...] = ()
) -> Derived:
    stats = [
        Statistic("skill:stealth", "Stealth", 4, LINES, mode_sources=stealth_modes),
        Statistic("skill:perception", "Perception", 3, (ModifierLine("Wisdom", "ability", 3),)),
        Statistic("ac", "Armor Class", 14, (), base=10, rollable=False),
        *extra,
    ]
    return Derived(
        system=system,
        abilities={},
        proficiency_bonus=2,
        statistics={s.id: s for s in stats},
        passive={},
        hit_points=HitPoints(10, (), 10, 0),
        carrying=Carrying("kg", 56, 112, 0, "unencumbered", 0),
        speed=Speed(30, 30, ()),
    )


class FakeLoadError(Exception):
    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{p}: {m}" if p else m for p, m in problems))


Loader = Callable[[Any], object]


@pytest.fixture
def sheet(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Install fake io/rules modules serving ``derived`` (or raising from the loader)."""

    def install(derived: Derived | None = None, load: Loader | None = None) -> None:
        def load_character(path: Any) -> object:
            return {"path": path}

        fake_io = types.ModuleType("sheet_app.io")
        fake_io.LoadError = FakeLoadError  # type: ignore[attr-defined]
        fake_io.load_character = load or load_character  # type: ignore[attr-defined]
        fake_io.format_problem = lambda p: f"{p[0]}: {p[1]}" if p[0] else p[1]  # type: ignore[attr-defined]
        fake_rules = types.ModuleType("sheet_app.rules")
        fake_rules.derive = lambda character, variants=(): derived  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "sheet_app.io", fake_io)
        monkeypatch.setitem(sys.modules, "sheet_app.rules", fake_rules)

    return install


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="sheet-app")
    cli_roll.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["roll", *argv])


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli_roll.run(parse(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run([*argv, "--json"], capsys)
    assert (code, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


# --- output --------------------------------------------------------------------------------


def test_json_has_the_contract_fields_and_odds_with_a_dc(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("runarcana"))
    data = run_json(["lux.json", "skill:stealth", "--dc", "15", "--seed", "7"], capsys)
    assert set(data) == CONTRACT_KEYS | {"odds"}
    assert data["statistic"] == "skill:stealth"
    assert data["label"] == "Stealth"
    assert data["mode"] == "normal"
    assert data["natural"] in data["dice"] and len(data["dice"]) == 1
    assert data["total_modifier"] == 4
    assert data["total"] == data["natural"] + 4
    assert data["dc"] == 15
    assert data["outcome"] == ("success" if data["total"] >= 15 else "failure")
    assert data["modifiers"] == [line.to_json() for line in LINES]
    assert data["odds"] == {"success": 0.5, "failure": 0.5}


def test_json_without_a_dc_has_no_odds_and_no_outcome(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("runarcana"))
    data = run_json(["lux.json", "skill:stealth", "--seed", "7"], capsys)
    assert set(data) == CONTRACT_KEYS
    assert (data["dc"], data["outcome"]) == (None, None)


def test_a_seed_repeats_the_roll(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("runarcana"))
    argv = ["lux.json", "skill:stealth", "--mode", "advantage", "--seed", "12345"]
    first = [run_json(argv, capsys) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    others = [run_json(["lux.json", "skill:stealth", "--seed", str(s)], capsys) for s in range(30)]
    assert len({d["natural"] for d in others}) > 1


def test_json_mode_is_the_mode_actually_rolled(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    heavy = (ModeSource("disadvantage", "Heavily encumbered"),)
    sheet(make_derived("runarcana", stealth_modes=heavy))
    asked = run_json(["lux.json", "skill:stealth", "--mode", "advantage", "--seed", "1"], capsys)
    assert (asked["mode"], len(asked["dice"])) == ("normal", 1)
    plain = run_json(["lux.json", "skill:stealth", "--seed", "1", "--dc", "15"], capsys)
    assert (plain["mode"], len(plain["dice"])) == ("disadvantage", 2)
    assert plain["natural"] == min(plain["dice"])
    assert plain["odds"] == check_odds("runarcana", 4, 15, "disadvantage").to_json()


def test_pf2e_json_reports_degrees_and_their_odds(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("pf2e"))
    data = run_json(["pf.json", "skill:stealth", "--dc", "20", "--mode", "fortune"], capsys)
    assert data["mode"] == "fortune"
    assert data["outcome"] in {"critical_success", "success", "failure", "critical_failure"}
    assert list(data["odds"]) == ["critical_success", "success", "failure", "critical_failure"]
    assert abs(sum(data["odds"].values()) - 1) < 1e-12


def test_readable_output_shows_the_roll_and_its_breakdown(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("runarcana", stealth_modes=(ModeSource("advantage", "Help"),)))
    code, out, err = run(["lux.json", "skill:stealth", "--dc", "15", "--seed", "3"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Stealth (advantage): ")
    assert " vs DC 15 — " in lines[0]
    assert lines[1:4] == [
        "   +2  Dexterity    ability",
        "   +2  Proficiency  proficiency",
        "   +1  Ring         item — not applied: a higher item bonus applies (+2 Cloak)",
    ]
    assert lines[4] == "  mode: advantage from Help"
    assert lines[5] == "  odds: 75% success, 25% failure"


def test_output_survives_a_console_without_unicode(
    sheet: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet(make_derived("runarcana"))
    buffer = io.BytesIO()
    stdout = io.TextIOWrapper(buffer, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stdout)
    args = parse(["lux.json", "skill:stealth", "--dc", "15", "--mode", "advantage", "--seed", "2"])
    assert cli_roll.run(args) == 0
    stdout.flush()
    text = buffer.getvalue().decode("ascii")
    assert " -> " in text and " -- " in text


# --- errors: one message, exit 2, never a traceback ----------------------------------------


def assert_usage_error(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2
    assert out == ""
    assert err.startswith("sheet-app roll: ")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


@pytest.mark.parametrize(
    ("stat", "fragments"),
    [
        ("skill:stelth", ["has no statistic 'skill:stelth'", "did you mean skill:stealth"]),
        ("stealth", ["did you mean skill:stealth?"]),
        ("perception", ["use 'skill:perception'"]),
        ("zzz", ["valid ids: skill:perception, skill:stealth\n"]),
    ],
)
def test_unknown_statistic_suggests_ids(
    sheet: Callable[..., None],
    capsys: pytest.CaptureFixture[str],
    stat: str,
    fragments: list[str],
) -> None:
    sheet(make_derived("runarcana"))
    assert_usage_error(*run(["lux.json", stat], capsys), *fragments)


def test_statistic_ids_are_case_insensitive(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("runarcana"))
    assert run_json(["lux.json", "Skill:Stealth"], capsys)["statistic"] == "skill:stealth"


def test_ac_cannot_be_rolled(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet(make_derived("d20srd"))
    assert_usage_error(*run(["d.json", "ac"], capsys), "Armor Class is not rolled", "(14)")


@pytest.mark.parametrize(
    ("system", "mode", "fragment"),
    [
        ("pf2e", "advantage", "pf2e has no advantage; its modes are fortune"),
        ("runarcana", "misfortune", "runarcana has no misfortune"),
        ("d20srd", "advantage", "d20srd has no roll modes"),
        ("d20srd", "fortune", "d20srd has no roll modes"),
    ],
)
def test_a_mode_the_system_lacks(
    sheet: Callable[..., None],
    capsys: pytest.CaptureFixture[str],
    system: str,
    mode: str,
    fragment: str,
) -> None:
    sheet(make_derived(system))
    assert_usage_error(*run(["x.json", "skill:stealth", "--mode", mode], capsys), fragment)


def test_an_invalid_file_lists_its_problems(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    def load(path: Any) -> object:
        raise FakeLoadError([("abilities.str", "expected a whole number"), ("level", "too high")])

    sheet(load=load)
    code, out, err = run(["bad.json", "skill:stealth"], capsys)
    assert_usage_error(code, out, err, "cannot load bad.json:")
    assert err.splitlines()[1:] == ["  abilities.str: expected a whole number", "  level: too high"]


def test_a_missing_file_is_one_line(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    def load(path: Any) -> object:
        raise FakeLoadError([("", f"{path}: no such file")])

    sheet(load=load)
    code, out, err = run(["gone.json", "skill:stealth"], capsys)
    assert_usage_error(code, out, err)
    assert err == "sheet-app roll: gone.json: no such file\n"


def test_an_os_error_is_a_message(
    sheet: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    def load(path: Any) -> object:
        raise PermissionError(13, "Permission denied")

    sheet(load=load)
    assert_usage_error(*run(["locked.json", "ac"], capsys), "cannot read locked.json")


@pytest.mark.parametrize(
    "argv", [["f.json", "ac", "--mode", "sideways"], ["f.json", "ac", "--dc", "hard"], ["f.json"]]
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        parse(argv)
    assert caught.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# --- with the real loader and rules engine -------------------------------------------------


def _samples() -> Mapping[str, Path]:
    return {f"{system}.json": path for system, path in SAMPLES.items()}


def test_every_rollable_statistic_of_every_sample_rolls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sheet_app.cli import main
    from sheet_app.io import load_character
    from sheet_app.rules import derive

    samples = _samples()
    assert samples, "no sample characters shipped"
    for name, path in samples.items():
        derived = derive(load_character(path))
        rollable = [s for s in derived.statistics.values() if s.rollable]
        assert rollable, name
        for stat in rollable:
            code = main(["roll", str(path), stat.id, "--json", "--seed", "1", "--dc", "15"])
            out, err = capsys.readouterr()
            assert (code, err) == (0, ""), (name, stat.id, err)
            data = json.loads(out)
            bonus = data.get("bonus_dice", [])
            assert set(data) == CONTRACT_KEYS | {"odds"} | ({"bonus_dice"} if bonus else set())
            assert len(bonus) == len(stat.bonus_dice)
            assert data["total_modifier"] == stat.modifier
            assert data["total"] == data["natural"] + stat.modifier + sum(
                b["value"] for b in bonus)
            assert data["modifiers"] == [line.to_json() for line in stat.modifiers]


def test_real_file_with_an_advantage_effect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CONTRACT.md's example character, with a mode effect on Stealth."""
    from sheet_app.cli import main

    character = {
        "format": "sheet-app/character",
        "version": 1,
        "system": "runarcana",
        "name": "Lux",
        "level": 3,
        "size": "medium",
        "abilities": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 15, "cha": 10},
        "proficiency_bonus": None,
        "skills": {"perception": "proficient", "stealth": "proficient"},
        "saves": {"int": "proficient", "wis": "proficient"},
        "hit_points": {"hit_die": 6, "level_rolls": [4, 5], "current": 15, "temporary": 0},
        "inventory": [{"name": "Rope", "quantity": 1, "weight": 5.0}],
        "effects": [
            {"name": "Cloak", "active": True,
             "modifiers": [{"mode": "advantage", "targets": ["skill:stealth"]}]},
        ],
        "options": {"variant_encumbrance": True},
    }  # fmt: skip
    path = tmp_path / "lux.json"
    path.write_text(json.dumps(character), encoding="utf-8")
    before = path.read_bytes()

    assert main(["roll", str(path), "skill:stealth", "--json", "--seed", "4", "--dc", "15"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Dex 14 (+2) and proficiency at level 3 (+2).
    assert (data["mode"], data["total_modifier"], len(data["dice"])) == ("advantage", 4, 2)
    assert data["natural"] == max(data["dice"])
    assert data["odds"] == check_odds("runarcana", 4, 15, "advantage").to_json()

    assert main(["roll", str(path), "skill:stealth", "--mode", "disadvantage", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mode"] == "normal"

    assert main(["roll", str(path), "skill:stelth"]) == 2
    assert "did you mean skill:stealth" in capsys.readouterr().err
    assert path.read_bytes() == before  # rolling never writes the file


def test_roll_a_runarcana_skill_with_another_ability(tmp_path: Path) -> None:
    sample = SAMPLES["runarcana"]
    result = subprocess.run(
        [sys.executable, "-m", "sheet_app", "roll", str(sample), "skill:athletics@con",
         "--seed", "4", "--json"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["label"] == "Constitution (Athletics)"
    assert payload["modifiers"][0]["label"] == "Constitution"
