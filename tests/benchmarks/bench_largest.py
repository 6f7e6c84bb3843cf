"""Open, first paint and one edit of the largest sheet the format accepts (issue 10).

Run on demand: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_largest.py``.
The sheet: every list at its limit (effects × modifiers, weapons, inventory, roll log), each
modifier with several targets. Prints medians of a few runs.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a plain script
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sheet_app import registry
from sheet_app.io import dumps, load_character
from sheet_app.model import CharacterBase, Effect
from tests.helpers import TARGETS

RUNS = 5


def limit(model: Any, field: str) -> int:
    for item in model.model_fields[field].metadata:
        if hasattr(item, "max_length"):
            return int(item.max_length)
    raise LookupError(field)


def largest(system: str) -> dict[str, Any]:
    rules = registry.get(system)
    rng = random.Random(10)
    data = rules.sample().dump()
    effects, mods = limit(CharacterBase, "effects"), limit(Effect, "modifiers")
    data["effects"] = [
        {"name": f"Effect {i}", "modifiers": [
            {"type": rng.choice(rules.facts.modifier_types), "value": rng.choice((-2, -1, 1, 2)),
             "targets": rng.sample(TARGETS[system], 8)} for _ in range(mods)]}
        for i in range(effects)]
    data["weapons"] = [{"name": f"Weapon {i}", "damage": "1d8"}
                       for i in range(limit(CharacterBase, "weapons"))]
    data["inventory"] = [{"name": f"Item {i}", "quantity": 1, "weight": 0.01}
                         for i in range(limit(type(rules.sample()), "inventory"))]
    record = {"time": "2026-11-30T10:00:00+00:00", "statistic": "initiative",
              "label": "Initiative", "dice": [10], "natural": 10, "total": 12,
              "total_modifier": 2}
    data["roll_log"] = [record] * limit(CharacterBase, "roll_log")
    return data


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from ui.app import application
    from ui.main_window import MainWindow

    app = application()
    with tempfile.TemporaryDirectory() as folder:
        for system in registry.known_ids():
            path = Path(folder) / f"{system}.json"
            path.write_text(dumps(largest(system)), encoding="utf-8")
            opened, edits = [], []
            for _ in range(RUNS):
                start = time.perf_counter()
                window = MainWindow(load_character(path), path)
                window.resize(1280, 800)
                window.show()
                QApplication.processEvents()
                opened.append(time.perf_counter() - start)
                document = window.document
                start = time.perf_counter()
                document.set(("level",), 2 if document.character.level != 2 else 3)
                QApplication.processEvents()
                edits.append(time.perf_counter() - start)
                window.document.undo_stack.setClean()
                window.close()
                window.deleteLater()
                QApplication.processEvents()
            size = path.stat().st_size / 1e6
            print(f"{system:10} {size:5.1f} MB: open + first paint "
                  f"{statistics.median(opened) * 1000:7.0f} ms; one edit "
                  f"{statistics.median(edits) * 1000:6.1f} ms (medians of {RUNS})")
    app.quit()


if __name__ == "__main__":
    main()
