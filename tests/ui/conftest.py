"""Widget tests run off screen; no dialog may block (each test patches the ones it meets).

Helpers shared by the tests (and the `MakeWindow` type of ``make_window``) live in
``tests/ui/helpers.py``."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import random
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.model import CharacterBase
from tests.ui.helpers import OFFSCREEN_NOISE, MakeWindow

if TYPE_CHECKING:
    from ui.main_window import MainWindow


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
    from ui.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "_ask", unexpected)  # the window's own choice dialogs


@pytest.fixture
def make_window(qtbot: QtBot, settings: QSettings, tmp_path: Path) -> MakeWindow:
    """See `MakeWindow`: a string is a system id, whose sample the window opens."""
    from ui.app import application
    from ui.main_window import MainWindow

    application()

    def make(character: CharacterBase | str = "runarcana", path: Path | None = None,
             seed: int = 1) -> MainWindow:
        if isinstance(character, str):
            character = registry.get(character).sample()
        window = MainWindow(character, path, settings=settings, rng=random.Random(seed),
                            recovery_dir=tmp_path / "recovery")
        qtbot.addWidget(
            window, before_close_func=lambda _widget: window.document.undo_stack.setClean()
        )
        window.resize(1280, 800)
        window.show()
        return window

    return make
