"""Rolls per second of our dice engine beside the ``d20`` library (Avrae's), in the same run;
the exact odds of a check with a dice-valued bonus; damage rolls per second.

Targets: at least twice d20's throughput on each expression; the exact odds of a check with
a 1d4 bonus (Bless) under 1 ms; at least 100,000 damage rolls per second through
``sheet_app.damage.roll_damage`` on a typical weapon (the dnd5e sample's longsword, 1d8+3).

Both engines are measured
through their public call, which is what the app would use: ``d20.roll(text)`` (it caches
parses, and renders its result string eagerly) against ``sheet_app.dice.roll(text, rng)``
(cached parse, result rendered only on ``str()``). The "ours+str" column adds that rendering,
so the comparison holds even when the text is wanted.

Rounds interleave the engines so drift in machine load hits both alike; medians are reported.

    .venv/bin/python -m tests.benchmarks.bench_dice [--rounds 15] [--number 5000] \
        [--part engines|odds|damage]  (repo root; every part by default)
    .venv/bin/python -m pytest tests/benchmarks/bench_dice.py -p benchmark --override-ini addopts=
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import metadata

import d20
import pytest

from sheet_app import checks, dice, registry
from sheet_app.damage import roll_damage
from sheet_app.derived import Damage, ModeSource, ModifierLine, Statistic
from sheet_app.rolls import statistic_odds

EXPRESSIONS = ("1d20+5", "2d20kh1+7", "4d6kh3")
TARGET_RATIO = 2.0
ODDS_TARGET_MS = 1.0
DAMAGE_TARGET_PER_SECOND = 100_000


def _ours(text: str) -> Callable[[], object]:
    rng = random.Random(1)
    return lambda: dice.roll(text, rng)


def _ours_with_text(text: str) -> Callable[[], object]:
    rng = random.Random(1)
    return lambda: str(dice.roll(text, rng))


def _d20(text: str) -> Callable[[], object]:
    return lambda: d20.roll(text)


ENGINES: dict[str, Callable[[str], Callable[[], object]]] = {
    "ours": _ours,
    "ours+str": _ours_with_text,
    "d20": _d20,
}


@dataclass(frozen=True)
class Row:
    expression: str
    median_rolls_per_second: dict[str, float]

    @property
    def ratio(self) -> float:
        """Our throughput over d20's, both through the plain public roll call."""
        return self.median_rolls_per_second["ours"] / self.median_rolls_per_second["d20"]

    @property
    def ratio_with_text(self) -> float:
        return self.median_rolls_per_second["ours+str"] / self.median_rolls_per_second["d20"]


def compare(rounds: int = 15, number: int = 5000) -> list[Row]:
    rows = []
    for text in EXPRESSIONS:
        calls = {name: make(text) for name, make in ENGINES.items()}
        for call in calls.values():  # warm the parse caches and the interpreter
            for _ in range(1000):
                call()
        samples: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(rounds):
            for name, call in calls.items():
                seconds = timeit.timeit(call, number=number)
                samples[name].append(number / seconds)
        rows.append(Row(text, {name: statistics.median(s) for name, s in samples.items()}))
    return rows


def report(rows: list[Row]) -> str:
    lines = [
        f"{'expression':<12}{'ours':>14}{'ours+str':>14}{'d20':>14}{'ratio':>9}{'ratio+str':>11}",
        f"{'':<12}{'(median rolls/s)':>42}",
    ]
    for row in rows:
        rps = row.median_rolls_per_second
        lines.append(
            f"{row.expression:<12}{rps['ours']:>14,.0f}{rps['ours+str']:>14,.0f}"
            f"{rps['d20']:>14,.0f}{row.ratio:>8.2f}x{row.ratio_with_text:>10.2f}x"
        )
    met = all(row.ratio >= TARGET_RATIO for row in rows)
    lines.append(f"target: at least {TARGET_RATIO:g}x d20 on each: {'met' if met else 'NOT met'}")
    return "\n".join(lines)


# --- exact odds with a dice bonus ----------------------------------------------------------

BLESSED = Statistic(
    "skill:perception", "Perception", 5,
    (ModifierLine("Wisdom", "ability", 3), ModifierLine("Proficiency", "proficiency", 2),
     ModifierLine("Bless", "status", 0, source="Bless", dice="+1d4")),
)
"""Perception +5 with Bless (+1d4)."""


BLESSED_KEEN = replace(BLESSED, mode_sources=(ModeSource("advantage", "Keen senses"),))


def _uncached() -> object:
    """The first odds of a new bonus: the dice's distribution counted afresh."""
    checks._bonus_tail.cache_clear()
    dice._weights_cached.cache_clear()
    return statistic_odds(BLESSED, "pf2e", 15)


ODDS_CASES: dict[str, Callable[[], object]] = {
    "5e-style, +1d4": lambda: statistic_odds(BLESSED, "runarcana", 15),
    "5e-style, +1d4, advantage": lambda: statistic_odds(BLESSED_KEEN, "runarcana", 15),
    "pf2e degrees, +1d4": lambda: statistic_odds(BLESSED, "pf2e", 15),
    "pf2e, +1d4, uncached": _uncached,
}


def odds_medians(rounds: int = 15, number: int = 2000) -> dict[str, float]:
    """Median milliseconds per exact-odds call, per case."""
    medians = {}
    for name, call in ODDS_CASES.items():
        call()
        samples = [timeit.timeit(call, number=number) / number * 1000 for _ in range(rounds)]
        medians[name] = statistics.median(samples)
    return medians


def odds_report(medians: dict[str, float]) -> str:
    lines = [f"{'exact odds of a check vs DC 15':<34}{'median ms':>12}"]
    lines += [f"{name:<34}{ms:>12.4f}" for name, ms in medians.items()]
    met = all(ms < ODDS_TARGET_MS for ms in medians.values())
    lines.append(f"target: under {ODDS_TARGET_MS:g} ms each: {'met' if met else 'NOT met'}")
    return "\n".join(lines)


# --- damage rolls ----------------------------------------------------------------------------


def sample_damage(system: str, weapon: str) -> Damage:
    rules = registry.get(system)
    return rules.derive(rules.sample()).damage[f"damage:{weapon}"]


DAMAGE_CASES: tuple[tuple[str, str, str, bool], ...] = (
    ("dnd5e longsword 1d8+3", "dnd5e", "longsword", False),
    ("dnd5e longsword, critical", "dnd5e", "longsword", True),
    ("pf2e longsword 2d8+4", "pf2e", "longsword", False),
    ("pf2e longsword, critical", "pf2e", "longsword", True),
    ("d20srd waraxe 1d10+3, critical", "d20srd", "dwarven_waraxe", True),
)
TYPICAL_DAMAGE = DAMAGE_CASES[0][0]
"""The case the target is for: a plain hit with the most common weapon."""


def _damage_call(damage: Damage, critical: bool) -> Callable[[], object]:
    rng = random.Random(1)
    return lambda: roll_damage(damage, rng, critical=critical)


def damage_medians(rounds: int = 15, number: int = 20000) -> dict[str, float]:
    """Median damage rolls per second through ``roll_damage``, per case."""
    medians = {}
    for name, system, weapon, critical in DAMAGE_CASES:
        call = _damage_call(sample_damage(system, weapon), critical)

        for _ in range(1000):
            call()
        samples = [number / timeit.timeit(call, number=number) for _ in range(rounds)]
        medians[name] = statistics.median(samples)
    return medians


def damage_report(medians: dict[str, float]) -> str:
    lines = [f"{'damage roll':<34}{'median rolls/s':>16}"]
    lines += [f"{name:<34}{rps:>16,.0f}" for name, rps in medians.items()]
    met = medians[TYPICAL_DAMAGE] >= DAMAGE_TARGET_PER_SECOND
    lines.append(f"target: at least {DAMAGE_TARGET_PER_SECOND:,} per second for "
                 f"{TYPICAL_DAMAGE}: {'met' if met else 'NOT met'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=5000, help="rolls per timed round")
    parser.add_argument("--part", choices=("engines", "odds", "damage"), action="append",
                        help="run only this part (repeatable); every part by default")
    args = parser.parse_args(argv)
    parts = args.part or ["engines", "odds", "damage"]
    ok = True
    print(f"Python {sys.version.split()[0]}, d20 {metadata.version('d20')}")
    if "engines" in parts:
        rows = compare(args.rounds, args.number)
        print(report(rows))
        ok &= all(row.ratio >= TARGET_RATIO for row in rows)
    if "odds" in parts:
        odds = odds_medians(args.rounds)
        print(odds_report(odds))
        ok &= all(ms < ODDS_TARGET_MS for ms in odds.values())
    if "damage" in parts:
        damage = damage_medians(args.rounds, 4 * args.number)
        print(damage_report(damage))
        ok &= damage[TYPICAL_DAMAGE] >= DAMAGE_TARGET_PER_SECOND
    return 0 if ok else 1


# --- pytest (on demand: -p benchmark --override-ini addopts=) ------------------------------


@pytest.mark.benchmark
@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("text", EXPRESSIONS)
def test_roll_throughput(benchmark: Callable[..., object], engine: str, text: str) -> None:
    """pytest-benchmark's table gives each engine's median time per roll."""
    call = ENGINES[engine](text)
    benchmark(call)


@pytest.mark.benchmark
def test_at_least_twice_the_d20_library(capsys: pytest.CaptureFixture[str]) -> None:
    rows = compare(rounds=9, number=3000)
    with capsys.disabled():
        print("\n" + report(rows))
    for row in rows:
        assert row.ratio >= TARGET_RATIO, f"{row.expression}: only {row.ratio:.2f}x d20"


@pytest.mark.benchmark
@pytest.mark.parametrize("case", list(ODDS_CASES))
def test_odds_with_a_dice_bonus(benchmark: Callable[..., object], case: str) -> None:
    benchmark(ODDS_CASES[case])


@pytest.mark.benchmark
def test_odds_with_a_dice_bonus_under_1_ms(capsys: pytest.CaptureFixture[str]) -> None:
    medians = odds_medians(rounds=9, number=1000)
    with capsys.disabled():
        print("\n" + odds_report(medians))
    for name, ms in medians.items():
        assert ms < ODDS_TARGET_MS, f"{name}: {ms:.3f} ms"


@pytest.mark.benchmark
@pytest.mark.parametrize("case", [c[0] for c in DAMAGE_CASES])
def test_damage_roll(benchmark: Callable[..., object], case: str) -> None:
    _, system, weapon, critical = next(c for c in DAMAGE_CASES if c[0] == case)
    benchmark(_damage_call(sample_damage(system, weapon), critical))


@pytest.mark.benchmark
def test_at_least_100_000_damage_rolls_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    medians = damage_medians(rounds=9, number=10000)
    with capsys.disabled():
        print("\n" + damage_report(medians))
    assert medians[TYPICAL_DAMAGE] >= DAMAGE_TARGET_PER_SECOND, medians


if __name__ == "__main__":
    raise SystemExit(main())
