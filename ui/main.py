"""The ``sheet-app`` console script.

Headless subcommands go to ``sheet_app.cli`` before anything imports Qt, so ``sheet-app
validate`` starts as fast as Python does; everything else opens the window.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.main_window import MainWindow

HEADLESS = frozenset({
    "new", "validate", "export", "roll", "schema", "conditions", "-h", "--help", "--version",
})
EXIT_USAGE = 2
SCREENSHOT_SIZE = (1280, 800)
TEST_EDIT_EVERY_MS = "SHEET_APP_TEST_EDIT_EVERY_MS"
"""For tests only (tests/ui/test_xvfb.py): set to a number of milliseconds, the window types
one letter onto the character's name that often, as a player typing steadily would, and
prints ``pid N`` once, then ``edit N NAME`` after each edit, to stdout."""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in HEADLESS:
        from sheet_app.cli import main as cli_main

        return cli_main(args)
    return run_window(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheet-app",
        description="Open the character sheet window (see `sheet-app --help` for commands).",
        add_help=False,
    )
    parser.add_argument("file", nargs="?", help="a character file to open")
    parser.add_argument("--screenshot", metavar="PNG",
                        help=f"render the window off screen at {SCREENSHOT_SIZE[0]}×"
                             f"{SCREENSHOT_SIZE[1]} to PNG and exit")
    return parser


def _has_display() -> bool:
    """Qt aborts the process when it finds no display; say so plainly instead. Only Linux
    and other X11/Wayland systems need one named; a platform chosen by hand is trusted."""
    if os.environ.get("QT_QPA_PLATFORM") or not sys.platform.startswith(("linux", "freebsd")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_window(args: list[str]) -> int:
    parser = _parser()
    try:
        options, qt_args = parser.parse_known_args(args)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE
    unknown = [a for a in qt_args if a.startswith("--") and a != "--"]
    if unknown and options.screenshot:
        print(f"sheet-app: unknown option {unknown[0]}", file=sys.stderr)
        return EXIT_USAGE
    if options.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    elif not _has_display():
        print("sheet-app: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are "
              "not set). Run it in a desktop session, or use --screenshot PNG or a headless "
              "command (sheet-app --help).", file=sys.stderr)
        return EXIT_USAGE

    from sheet_app.io import LoadError, format_problem, load_character
    from ui.app import application, sample_character, screenshot

    character = None
    path = Path(options.file) if options.file else None
    problems: list[tuple[str, str]] = []
    notes: list[tuple[str, str]] = []
    if path is not None:
        try:
            character = load_character(path, notes=notes)
        except LoadError as exc:
            problems = exc.problems
            for problem in problems:
                print(format_problem(problem), file=sys.stderr)
            if options.screenshot:
                return EXIT_USAGE
            path = None

    app = application(qt_args)
    from PySide6.QtCore import QSettings

    from ui.main_window import MainWindow

    if options.screenshot:
        # a fresh layout, not the user's saved window state (a closed dock, a small window)
        with tempfile.TemporaryDirectory() as scratch:
            settings = QSettings(str(Path(scratch) / "settings.ini"), QSettings.Format.IniFormat)
            window = MainWindow(character or sample_character(), path, settings=settings,
                                recovery_dir=Path(scratch) / "recovery")
            window.resize(*SCREENSHOT_SIZE)
            ok = screenshot(window, Path(options.screenshot))
        if not ok:
            print(f"sheet-app: could not write {options.screenshot}", file=sys.stderr)
            return EXIT_USAGE
        return 0
    window = MainWindow(character or sample_character(), path)
    if not window.confirm_read_only():
        print(f"sheet-app: {options.file} is open in another window; not opened again.",
              file=sys.stderr)
        window.detach()
        return 0
    window.show()
    if problems:
        window.show_problems(f"Could not open {options.file}", problems)
    else:
        if notes:  # loaded differently from the file: say so
            window.statusBar().showMessage("; ".join(format_problem(n) for n in notes), 15000)
        window.offer_recovery()
    every = os.environ.get(TEST_EDIT_EVERY_MS, "")
    if every.isdigit() and int(every) > 0:
        _type_steadily(window, int(every))
    code = app.exec()
    # Tear the window down now, while Python is whole, not at interpreter exit in no order.
    window.release_file()
    window.detach()
    from PySide6.QtCore import QEvent

    window.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return code


def _type_steadily(window: MainWindow, every_ms: int) -> None:
    """`TEST_EDIT_EVERY_MS`: one letter onto the name every ``every_ms``."""
    from PySide6.QtCore import QTimer

    letters = "abcdefghijklmnopqrstuvwxyz"
    count = 0

    def edit() -> None:
        nonlocal count
        count += 1
        name = window.document.character.name + letters[count % len(letters)]
        window.document.set(("name",), name)
        print(f"edit {count} {name}", flush=True)

    timer = QTimer(window)
    timer.timeout.connect(edit)
    timer.start(every_ms)
    print(f"pid {os.getpid()}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
