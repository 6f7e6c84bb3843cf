"""The QApplication: Fusion style and the sheet's palette; samples read via importlib.resources."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

# isort: off
# The Qt-free core loads before PySide6: once PySide6 is imported, its ``__feature__`` import
# hook reads the source of every module imported after it (~30 ms over pydantic and the rules).
import sheet_app.rules  # noqa: F401
from sheet_app.io import parse_character
from sheet_app.model import AnyCharacter, new_character

# isort: on
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget


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
    app.setStyle("Fusion")
    palette = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#f6f3ee",
        QPalette.ColorRole.Base: "#ffffff",
        QPalette.ColorRole.AlternateBase: "#f3f1ec",
        QPalette.ColorRole.Button: "#efebe4",
        QPalette.ColorRole.Highlight: "#7a1f2b",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Text: "#1d1b19",
        QPalette.ColorRole.WindowText: "#1d1b19",
        QPalette.ColorRole.ButtonText: "#1d1b19",
        QPalette.ColorRole.ToolTipBase: "#fffdf7",
        QPalette.ColorRole.ToolTipText: "#1d1b19",
        QPalette.ColorRole.PlaceholderText: "#8f8a83",
    }
    for role, color in colors.items():
        palette.setColor(role, QColor(color))
    app.setPalette(palette)


def sample_character(system: str = "runarcana") -> AnyCharacter:
    """The bundled sample of ``system`` (a blank character if the sample is missing)."""
    sample = resources.files("resources") / "samples" / f"{system}.json"
    try:
        return parse_character(sample.read_bytes(), f"{system} sample")
    except (FileNotFoundError, OSError):
        return new_character(system)


def screenshot(widget: QWidget, path: Path) -> bool:
    """Render ``widget`` (laid out and painted) to a PNG."""
    app = QApplication.instance()
    assert app is not None
    widget.show()
    for _ in range(3):
        app.processEvents()
    return widget.grab().save(str(path), "PNG")
