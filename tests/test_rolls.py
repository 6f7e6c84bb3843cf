"""Rolling a Statistic with the combined roll mode, and the roll log kept in the file."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import ValidationError

from sheet_app.checks import ModeError, check_odds, check_outcome
from sheet_app.derived import ModeSource, ModifierLine, RollMode, Statistic
from sheet_app.rolls import (
    ROLL_LOG_LIMIT,
    NotRollableError,
    RollRecord,
    append_record,
    format_log,
    format_record,
    roll_statistic,
    statistic_mode,
    statistic_odds,
)

CONTRACT_KEYS = {
    "statistic", "label", "mode", "dice", "natural", "modifiers",
    "total_modifier", "total", "dc", "outcome",
}  # fmt: skip


class ScriptedRandom(random.Random):
    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop == 21, "a check rolls d20s"
        return self.faces.pop(0)


STEALTH_LINES = (
    ModifierLine("Dexterity", "ability", 2),
    ModifierLine("Proficiency", "proficiency", 2),
    ModifierLine("Ring", "item", 1, applied=False, reason="a higher item bonus applies (+2 Cloak)"),
)


def stealth(*sources: ModeSource, roll_mode: RollMode = "normal") -> Statistic:
    return Statistic(
        id="skill:stealth",
        label="Stealth",
        total=4,
        modifiers=STEALTH_LINES,
        roll_mode=roll_mode,
        mode_sources=sources,
        ability="dex",
    )


HEAVY = ModeSource("disadvantage", "Heavily encumbered")
HELP = ModeSource("advantage", "Help")
AC = Statistic(
    "ac", "Armor Class", 15, (ModifierLine("Armor", "armor", 3),), base=10, rollable=False
)


# --- rolling -------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_roll() -> None:
    rolls = [
        roll_statistic(stealth(), "runarcana", random.Random(99), mode="advantage", dc=15)
        for _ in range(2)
    ]
    assert rolls[0] == rolls[1]
    series, again = (
        [roll_statistic(stealth(), "runarcana", rng) for _ in range(30)]
        for rng in (random.Random(3), random.Random(3))
    )
    assert series == again
    assert len({r.natural for r in series}) > 1  # the generator advances between rolls


def test_a_normal_roll_is_one_d20_plus_the_total_modifier() -> None:
    result = roll_statistic(stealth(), "runarcana", ScriptedRandom([12]))
    assert (result.dice, result.natural, result.total_modifier, result.total) == ((12,), 12, 4, 16)
    assert result.mode == "normal"
    assert result.modifiers == STEALTH_LINES  # suppressed lines travel with the roll


@pytest.mark.parametrize(
    ("system", "mode", "natural"),
    [
        ("runarcana", "advantage", 17),
        ("runarcana", "disadvantage", 5),
        ("pf2e", "fortune", 17),
        ("pf2e", "misfortune", 5),
    ],
)
def test_two_dice_modes_keep_the_right_die(system: str, mode: RollMode, natural: int) -> None:
    result = roll_statistic(stealth(), system, ScriptedRandom([5, 17]), mode=mode)
    assert result.dice == (5, 17)
    assert result.natural == natural
    assert result.total == natural + 4
    assert result.mode == mode


def test_several_advantages_still_add_one_die() -> None:
    second = ModeSource("advantage", "Inspiration")
    result = roll_statistic(stealth(HELP, second), "runarcana", ScriptedRandom([3, 8]))
    assert result.dice == (3, 8)
    assert result.mode == "advantage"


def test_heavy_encumbrance_cancels_the_players_advantage() -> None:
    stat = stealth(HEAVY, roll_mode="disadvantage")
    result = roll_statistic(stat, "runarcana", ScriptedRandom([11]), mode="advantage", dc=15)
    assert result.mode == "normal"  # the JSON reports the mode actually rolled
    assert result.dice == (11,)
    assert result.resolved.cancelled


def test_the_sheets_mode_applies_when_the_player_asks_for_nothing() -> None:
    result = roll_statistic(
        stealth(HEAVY, roll_mode="disadvantage"), "runarcana", ScriptedRandom([16, 2])
    )
    assert (result.mode, result.natural) == ("disadvantage", 2)


def test_cancelled_sheet_modes_still_cancel_a_request() -> None:
    """Advantage + disadvantage on the sheet is normal; adding advantage keeps it normal."""
    stat = stealth(HELP, HEAVY, roll_mode="normal")
    assert statistic_mode(stat, "runarcana", "advantage").mode == "normal"


def test_a_roll_mode_without_listed_sources_still_counts() -> None:
    stat = stealth(roll_mode="disadvantage")
    resolved = statistic_mode(stat, "runarcana")
    assert resolved.mode == "disadvantage"
    assert resolved.sources == (ModeSource("disadvantage", "the sheet"),)


@pytest.mark.parametrize(
    ("system", "mode"), [("pf2e", "advantage"), ("d20srd", "advantage"), ("d20srd", "fortune")]
)
def test_a_mode_the_system_lacks_is_refused(system: str, mode: RollMode) -> None:
    with pytest.raises(ModeError):
        roll_statistic(stealth(), system, random.Random(1), mode=mode)


def test_d20srd_rolls_normally() -> None:
    result = roll_statistic(stealth(), "d20srd", ScriptedRandom([1]), dc=5)
    assert (result.mode, result.total, result.outcome) == ("normal", 5, "success")


def test_outcome_only_with_a_dc() -> None:
    assert roll_statistic(stealth(), "runarcana", ScriptedRandom([12])).outcome is None
    assert roll_statistic(stealth(), "runarcana", ScriptedRandom([11]), dc=15).outcome == "success"
    assert roll_statistic(stealth(), "runarcana", ScriptedRandom([10]), dc=15).outcome == "failure"


@pytest.mark.parametrize(
    ("faces", "mode", "expected"),
    [
        ([20], "normal", "critical_success"),  # 24 succeeds; the natural 20 raises it
        ([1], "normal", "critical_failure"),  # 5 is DC - 10 already; a natural 1 cannot go lower
        ([20, 11], "misfortune", "success"),  # keeps 11: 15 succeeds; the dropped 20 raises nothing
        ([1, 11], "fortune", "success"),  # keeps 11; the dropped 1 lowers nothing
        ([1, 11], "misfortune", "critical_failure"),
    ],
)
def test_pf2e_outcomes_use_the_kept_natural(
    faces: list[int], mode: RollMode, expected: str
) -> None:
    result = roll_statistic(stealth(), "pf2e", ScriptedRandom(faces), mode=mode, dc=15)
    assert result.outcome == expected
    assert result.outcome == check_outcome("pf2e", result.total, 15, result.natural)


def test_ac_is_not_rolled() -> None:
    with pytest.raises(NotRollableError, match="Armor Class is not rolled"):
        roll_statistic(AC, "d20srd", random.Random(1))
    with pytest.raises(NotRollableError):
        statistic_odds(AC, "d20srd", 15)


def test_json_has_exactly_the_contract_fields() -> None:
    result = roll_statistic(
        stealth(), "runarcana", ScriptedRandom([17, 5]), mode="advantage", dc=15
    )
    data = result.to_json()
    assert set(data) == CONTRACT_KEYS
    assert data == {
        "statistic": "skill:stealth",
        "label": "Stealth",
        "mode": "advantage",
        "dice": [17, 5],
        "natural": 17,
        "modifiers": [line.to_json() for line in STEALTH_LINES],
        "total_modifier": 4,
        "total": 21,
        "dc": 15,
        "outcome": "success",
    }
    json.dumps(data)  # serialisable as is


def test_statistic_odds_use_the_combined_mode() -> None:
    stat = stealth(HEAVY, roll_mode="disadvantage")
    assert statistic_odds(stat, "runarcana", 15) == check_odds("runarcana", 4, 15, "disadvantage")
    assert statistic_odds(stat, "runarcana", 15, "advantage") == check_odds("runarcana", 4, 15)


def test_summary_line() -> None:
    result = roll_statistic(
        stealth(), "runarcana", ScriptedRandom([17, 5]), mode="advantage", dc=15
    )
    assert result.summary() == "Stealth (advantage): 17, 5 → 17 +4 = 21 vs DC 15 — success"


# --- the roll log --------------------------------------------------------------------------

WHEN = datetime(2026, 11, 29, 18, 40, 12, tzinfo=timezone(timedelta(hours=1)))


def record(**changes: Any) -> RollRecord:
    data: dict[str, Any] = {
        "time": "2026-11-29T18:40:12+01:00",
        "statistic": "skill:stealth",
        "label": "Stealth",
        "mode": "advantage",
        "dice": [17, 5],
        "natural": 17,
        "modifiers": [line.to_json() for line in STEALTH_LINES],
        "total_modifier": 4,
        "total": 21,
        "dc": 15,
        "outcome": "success",
    }
    return RollRecord.model_validate({**data, **changes})


def test_a_roll_becomes_a_record() -> None:
    result = roll_statistic(
        stealth(), "runarcana", ScriptedRandom([17, 5]), mode="advantage", dc=15
    )
    assert result.to_record(WHEN) == record()


def test_a_record_round_trips_through_json() -> None:
    original = record()
    loaded = RollRecord.model_validate_json(original.model_dump_json())
    assert loaded == original
    assert json.loads(original.model_dump_json())["time"] == "2026-11-29T18:40:12+01:00"


def test_unknown_keys_survive_a_round_trip() -> None:
    newer = record(reroll_of=3, modifiers=[{**STEALTH_LINES[0].to_json(), "source": "Dex"}])
    dumped = json.loads(RollRecord.model_validate_json(newer.model_dump_json()).model_dump_json())
    assert dumped["reroll_of"] == 3
    assert dumped["modifiers"][0]["source"] == "Dex"


@pytest.mark.parametrize(
    "changes",
    [
        {"time": "yesterday evening"},
        {"time": "29/11/2026 18:40"},
        {"mode": "inspired"},
        {"outcome": "great"},
        {"dice": ["many"]},
    ],
)
def test_invalid_records_are_rejected(changes: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        record(**changes)


def test_records_are_immutable() -> None:
    with pytest.raises(ValidationError):
        record().total = 99  # type: ignore[misc]


def test_append_keeps_the_newest_200() -> None:
    log = [record(total=i) for i in range(ROLL_LOG_LIMIT)]
    newer = append_record(log, record(total=999))
    assert len(newer) == ROLL_LOG_LIMIT == 200
    assert newer[-1].total == 999
    assert newer[0].total == 1  # the oldest one went
    assert len(log) == 200 and log[0].total == 0  # the old log is untouched


def test_append_grows_a_short_log() -> None:
    log = append_record(append_record([], record(total=1)), record(total=2))
    assert [r.total for r in log] == [1, 2]
    assert [r.total for r in append_record(log, record(total=3), limit=2)] == [2, 3]
    with pytest.raises(ValueError):
        append_record(log, record(), limit=0)


def test_log_line_for_chat() -> None:
    assert format_record(record()) == (
        "2026-11-29 18:40  Stealth (advantage): 17, 5 → 17 +4 = 21 vs DC 15 — success"
    )


def test_log_line_variants() -> None:
    plain = record(
        mode="normal", dice=[9], natural=9, total_modifier=-1, total=8, dc=None, outcome=None
    )
    assert format_record(plain) == "2026-11-29 18:40  Stealth: 9 -1 = 8"
    crit = record(mode="normal", dice=[20], natural=20, total=24, dc=20, outcome="critical_success")
    assert format_record(crit).endswith("Stealth: 20 +4 = 24 vs DC 20 — critical success")
    utc = record(time="2026-11-29T17:40:00Z")
    assert format_record(utc).startswith("2026-11-29 17:40  ")  # shown as recorded


def test_log_export_is_one_line_per_roll() -> None:
    log = [record(), record(label="Perception", mode="normal", dice=[3], natural=3, total=7)]
    text = format_log(log)
    assert text.splitlines() == [format_record(r) for r in log]
    assert format_log([]) == ""


def test_record_schema_is_available_for_the_file_schema() -> None:
    schema = RollRecord.model_json_schema()
    assert {"time", "statistic", "label", "total"} == set(schema["required"])
    assert {"dice", "natural", "kind", "text"} <= set(schema["properties"])
    assert schema["additionalProperties"] is True
