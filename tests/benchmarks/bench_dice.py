"""Rolls per second of our dice engine beside the ``d20`` library (Avrae's), in the same run.

The target is at least twice d20's throughput on each expression. Both sides are measured
through their public call, which is what the app would use: ``d20.roll(text)`` (it caches
parses, and renders its result string eagerly) against ``sheet_app.dice.roll(text, rng)``
(cached parse, result rendered only on ``str()``). The "ours+str" column adds that rendering,
so the comparison holds even when the text is wanted.

Rounds interleave the engines so drift in machine load hits both alike; medians are reported.

    .venv/bin/python -m tests.benchmarks.bench_dice [--rounds 15] [--number 5000]  (repo root)
    .venv/bin/python -m pytest tests/benchmarks/bench_dice.py -p benchmark --override-ini addopts=
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

import d20
import pytest

from sheet_app import dice

EXPRESSIONS = ("1d20+5", "2d20kh1+7", "4d6kh3")
TARGET_RATIO = 2.0


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=5000, help="rolls per timed round")
    args = parser.parse_args(argv)
    rows = compare(args.rounds, args.number)
    print(f"Python {sys.version.split()[0]}, d20 {metadata.version('d20')}")
    print(report(rows))
    return 0 if all(row.ratio >= TARGET_RATIO for row in rows) else 1


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


if __name__ == "__main__":
    raise SystemExit(main())
