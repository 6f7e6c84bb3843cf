"""The QApplication: Fusion style and the sheet's palette; each system's sample sheet."""

from __future__ import annotations

import sys
from pathlib import Path

# isort: off
# The Qt-free core loads before PySide6: once PySide6 is imported, its ``__feature__`` import
# hook reads the source of every module imported after it (~30 ms over pydantic and the rules).
import sheet_app.rules  # noqa: F401
from sheet_app import registry
from sheet_app.io import LoadError
from sheet_app.model import CharacterBase

# isort: on
from PySide6.QtWidgets import QApplication, QWidget

from ui import theme


def application(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, created and styled on first use."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
        if app.property("sheetAppStyled"):
            return app
    else:
        app = QApplication([sys.argv[0] if sys.argv else "sheet-app", *(argv or [])])
    app.setProperty("sheetAppStyled", True)
    app.setOrganizationName("sheet-app")
    app.setApplicationName("sheet-app")
    app.setApplicationDisplayName("sheet-app")
    app.setApplicationVersion("0.1.0")
    app.setDesktopFileName("sheet-app")
    style(app)
    return app


def style(app: QApplication) -> None:
    """Fusion with the theme the player chose (View ▸ Theme; the system's by default),
    following the desktop's light or dark scheme live while the choice is "system"."""
    from PySide6.QtCore import QSettings

    theme.apply(app, theme.saved_scheme(QSettings()))
    theme.follow_system(app)


def default_system() -> str:
    """The system the window opens with no file: the first that lets a skill be rolled
    with another ability (a 5e-style one, the most played family), else the first known."""
    for system in registry.all_systems():
        if system.facts.skill_variants:
            return system.id
    return registry.known_ids()[0]


def sample_character(system_id: str | None = None) -> CharacterBase:
    """The sample sheet a system ships (`default_system` when none is named); a blank
    character if it ships none or its sample can't be read."""
    system = registry.get(system_id or default_system())
    try:
        return system.sample()
    except (OSError, LoadError):
        return system.new_character()


def screenshot(widget: QWidget, path: Path) -> bool:
    """Render ``widget`` (laid out and painted) to a PNG."""
    app = QApplication.instance()
    assert app is not None
    widget.show()
    for _ in range(3):
        app.processEvents()
    return widget.grab().save(str(path), "PNG")
