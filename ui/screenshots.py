"""Regenerate the README screenshots: ``python -m ui.screenshots [OUTDIR]``.

Each known system's sample sheet as it opens, and the roll panel after a few rolls of the
first system's sample that has every rolled statistic (for the built-ins, Pathfinder 2e: a
melee attack where an item bonus loses to a higher one, rolled with fortune).
Renders off screen at 1280×800 with seeded dice, so the pictures only change when the UI
does.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

SIZE = (1280, 800)
ROLLS = (("skill:athletics", "normal"), ("perception", "misfortune"),
         ("attack:melee", "normal"), ("attack:melee", "fortune"))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QSettings

    from sheet_app import registry
    from ui.app import application, sample_character, screenshot
    from ui.main_window import MainWindow

    application()
    written = 0
    with tempfile.TemporaryDirectory() as scratch:
        settings = QSettings(str(Path(scratch) / "s.ini"), QSettings.Format.IniFormat)
        rolled = ""
        for system in registry.known_ids():
            window = MainWindow(sample_character(system), settings=settings)
            window.resize(*SIZE)
            screenshot(window, out / f"{system}.png")
            written += 1
            stats = window.document.derived.statistics
            modes = registry.get(system).facts.roll_modes
            if not rolled and all(stat in stats and (mode == "normal" or mode in modes)
                                  for stat, mode in ROLLS):
                rolled = system
            window.document.undo_stack.setClean()
            window.close()
        if not rolled:
            print(f"wrote {written} screenshots to {out} (no sample for the roll panel)")
            return 0
        window = MainWindow(sample_character(rolled), settings=settings, rng=random.Random(11))
        window.resize(*SIZE)
        sheet = window.sheet
        assert sheet is not None
        sheet.tabs.setCurrentWidget(sheet._effects)
        window.show()
        window.roll_panel.dc.setValue(20)
        for stat, mode in ROLLS:
            window.selection.roll(stat, mode)
        screenshot(window, out / "roll-panel.png")
        window.document.undo_stack.setClean()
        window.close()
    print(f"wrote {written + 1} screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
