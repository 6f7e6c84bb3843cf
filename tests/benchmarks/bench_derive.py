"""How long ``derive()`` takes: a typical sheet (the samples) and a heavy one, per system.

Run on demand, as a script (prints a table; exits 1 if a target is missed)::

    .venv/bin/python tests/benchmarks/bench_derive.py            # the table
    .venv/bin/python tests/benchmarks/bench_derive.py --profile  # + cProfile of the heavy sheets

or under pytest-benchmark (the default pytest options ignore this folder)::

    .venv/bin/python -m pytest -p benchmark tests/benchmarks/bench_derive.py \\
        -o addopts="" -o python_files="bench_*.py"

Targets: a typical sheet under 1 ms, a heavy one (the most the format allows: 100 effects ×
5 modifiers, 300 items) under 16 ms (one frame at 60 Hz), and cost growing linearly with the
number of modifiers.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import json
import pstats
import random
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a plain script

from sheet_app import registry
from sheet_app.io import character_from_data, load_character
from sheet_app.model import CharacterBase
from sheet_app.rules import derive
from tests.helpers import SAMPLES, TARGETS

SYSTEMS = registry.known_ids()
TYPICAL_TARGET_MS = 1.0
HEAVY_TARGET_MS = 16.0
MODIFIERS_PER_EFFECT = 5
ITEMS = 300
LINEARITY_STEPS = (12, 25, 50, 100)


def heavy_document(system: str, effects: int = 100, items: int = ITEMS,
                   seed: int = 20261129) -> dict[str, Any]:
    """A sample sheet plus ``effects`` effects of 5 modifiers each and ``items`` items.

    Deterministic. Modifiers use every type of the system, mostly small bonuses and some
    penalties, 1-3 targets each (groups and single statistics). Every effect is active (the
    worst case: inactive ones cost nothing) and names repeat (so some effects share a source);
    one modifier in ten is a roll mode where the system has them.
    """
    rng = random.Random(f"{seed}-{system}-{effects}")
    doc: dict[str, Any] = json.loads(SAMPLES[system].read_text())
    facts = registry.get(system).facts
    types = facts.modifier_types
    modes = facts.roll_modes
    doc["effects"] = []
    for i in range(effects):
        mods: list[dict[str, Any]] = []
        for _ in range(MODIFIERS_PER_EFFECT):
            targets = rng.sample(TARGETS[system], rng.randint(1, 3))
            if modes and rng.random() < 0.1:
                mods.append({"mode": rng.choice(modes), "targets": targets})
            else:
                mods.append({"type": rng.choice(types), "value": rng.choice((-2, -1, 1, 1, 2, 3)),
                             "targets": targets})
        doc["effects"].append({"name": f"Effect {i % 60}", "active": True,
                               "modifiers": mods})
    if facts.weight_unit == "bulk":
        doc["inventory"] = [{"name": f"Item {i}", "quantity": 1,
                             "bulk": rng.choice(("L", 0, 1))} for i in range(items)]
    else:
        doc["inventory"] = [{"name": f"Item {i}", "quantity": rng.randint(1, 3),
                             "weight": round(rng.uniform(0, 0.3), 2)} for i in range(items)]
    return doc


def heavy_character(system: str, effects: int = 100) -> CharacterBase:
    return character_from_data(heavy_document(system, effects))


def time_ms(
    fn: Callable[[], object], repeat: int = 9, budget_s: float = 0.2
) -> tuple[float, float]:
    """(min, median) milliseconds per call over ``repeat`` runs of about ``budget_s`` each."""
    fn()  # warm up: lazy imports, caches
    single = min(timeit.repeat(fn, number=1, repeat=3))
    number = max(1, int(budget_s / max(single, 1e-6)))
    runs = [t / number * 1000 for t in timeit.repeat(fn, number=number, repeat=repeat)]
    return min(runs), statistics.median(runs)


def modifier_count(character: CharacterBase) -> int:
    return sum(len(e.modifiers) for e in character.effects if e.active)


def profile(character: CharacterBase, top: int = 15) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(20):
        derive(character)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of each heavy sheet (always done on a miss)")
    args = parser.parse_args(argv)

    print(f"Python {sys.version.split()[0]}; per-call times in ms (min / median of 9 runs)\n")
    print(f"{'system':<10} {'typical':>17} {'heavy':>17} {'heavy/typical':>14}  targets")
    missed: list[str] = []
    heavies: dict[str, CharacterBase] = {}
    for system in SYSTEMS:
        typical = load_character(SAMPLES[system])
        heavy = heavies[system] = heavy_character(system)
        t_min, t_med = time_ms(functools.partial(derive, typical))
        h_min, h_med = time_ms(functools.partial(derive, heavy))
        ok_t = t_med < TYPICAL_TARGET_MS
        ok_h = h_med < HEAVY_TARGET_MS
        if not ok_t:
            missed.append(f"{system} typical")
        if not ok_h:
            missed.append(f"{system} heavy")
        verdict = (f"typical {'ok' if ok_t else 'MISSED'} (<{TYPICAL_TARGET_MS:g}), "
                   f"heavy {'ok' if ok_h else 'MISSED'} (<{HEAVY_TARGET_MS:g})")
        print(f"{system:<10} {t_min:7.3f} / {t_med:7.3f} {h_min:7.3f} / {h_med:7.3f} "
              f"{h_med / t_med:13.1f}x  {verdict}")
    sizes = {s: modifier_count(c) for s, c in heavies.items()}
    print(f"\nheavy = 100 effects x 5 modifiers ({sizes} active), {ITEMS} items\n")

    print("linearity: median ms of derive() by number of effects (x5 modifiers, 300 items)")
    print(f"{'system':<10} " + " ".join(f"{n:>9}" for n in LINEARITY_STEPS)
          + "   us/modifier (12 -> 100)   100/12")
    for system in SYSTEMS:
        medians = []
        for n in LINEARITY_STEPS:
            character = heavy_character(system, n)
            medians.append((time_ms(functools.partial(derive, character), repeat=5)[1],
                            modifier_count(character)))
        (t_lo, m_lo), (t_hi, m_hi) = medians[0], medians[-1]
        slope_us = (t_hi - t_lo) / (m_hi - m_lo) * 1000
        print(f"{system:<10} " + " ".join(f"{t:9.3f}" for t, _ in medians)
              + f"   {slope_us:10.2f}                {t_hi / t_lo:5.1f}x"
              + f"  (modifiers x{m_hi / m_lo:.1f})")
    print("\n(linear: each doubling of effects at most doubles the time; the 100/12 ratio stays "
          "below the ratio of modifiers because of the fixed per-sheet cost)")

    if args.profile or missed:
        for system, character in heavies.items():
            print(f"\n--- cProfile: derive() of the heavy {system} sheet, 20 calls ---")
            print(profile(character))
    if missed:
        print("MISSED: " + ", ".join(missed))
        return 1
    print("all targets met")
    return 0


# --- pytest-benchmark (only with -p benchmark) ---------------------------------------------
def _bench_params() -> list[tuple[str, str]]:
    return [(system, kind) for system in SYSTEMS for kind in ("typical", "heavy")]


try:
    import pytest
except ImportError:  # pragma: no cover - the script needs no pytest
    pytest = None  # type: ignore[assignment]

if pytest is not None:

    @pytest.mark.benchmark
    @pytest.mark.parametrize(("system", "kind"), _bench_params())
    def test_derive(benchmark: Any, system: str, kind: str) -> None:
        character = (load_character(SAMPLES[system]) if kind == "typical"
                     else heavy_character(system))
        result = benchmark(derive, character)
        assert result.system == system


if __name__ == "__main__":
    raise SystemExit(main())
