"""Widget tests run off screen; no dialog may block (each test patches the ones it meets)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from sheet_app.model import AnyCharacter

OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"
"""The offscreen platform plugin warns when a top-level window gets size hints; xcb doesn't."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/ui" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture(autouse=True)
def no_blocking_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dialog a test did not expect fails the test instead of hanging it."""

    def unexpected(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"unexpected dialog: {args[1:3]}")

    for name in ("question", "warning", "critical", "information", "about"):
        monkeypatch.setattr(QMessageBox, name, unexpected)


@pytest.fixture
def make_window(
    qtbot: object, settings: QSettings, tmp_path: Path
) -> Iterator[Callable[..., object]]:
    from ui.app import application, sample_character
    from ui.main_window import MainWindow

    application()
    windows: list[MainWindow] = []

    def make(character: AnyCharacter | str = "runarcana", path: Path | None = None,
             seed: int = 1) -> MainWindow:
        if isinstance(character, str):
            character = sample_character(character)
        window = MainWindow(character, path, settings=settings, rng=random.Random(seed),
                            recovery_dir=tmp_path / "recovery")
        qtbot.addWidget(  # type: ignore[attr-defined]
            window, before_close_func=lambda w: w.document.undo_stack.setClean()
        )
        window.resize(1280, 800)
        window.show()
        windows.append(window)
        return window

    yield make
