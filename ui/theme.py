"""The sheet's look, set with fonts and palettes rather than a Qt style sheet.

A style sheet anywhere above a widget swaps in Qt's style-sheet style for the whole subtree,
which re-polishes on every re-parenting and paints slower; building a sheet under one took
2.8× as long as building a bare window, against 1.9× without. So each widget gets its look
once, by name: `look(widget, "bigNumber")` sets the object name and the font and colours.
Inputs keep their boxes (Fusion); derived numbers are bold and boxless.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QAbstractButton, QFrame, QLabel, QWidget

ACCENT = "#7a1f2b"
INK = "#1d1b19"
MUTED = "#6b645a"
FAINT = "#8f8a83"
BLUE = "#1f5fa8"
GREEN = "#1f5f3a"
RED = "#b3261e"
SELECTED_ROW = "#f1dfe1"
PAPER = "#fffdf7"


@dataclass(frozen=True, slots=True)
class Look:
    bold: bool | None = None
    italic: bool = False
    scale: float = 1.0
    color: str | None = None
    background: str | None = None
    framed: bool = False


LOOKS: dict[str, Look] = {
    # derived numbers: bold, no box
    "derived": Look(bold=True),
    "statButton": Look(bold=True, scale=1.08),
    "bigNumber": Look(bold=True, scale=1.9, color=ACCENT),
    "mediumNumber": Look(bold=True, scale=1.45),
    "abilityModifier": Look(bold=True, scale=1.25),
    "rowTotal": Look(bold=True, scale=1.08),
    "passiveValue": Look(bold=True, scale=1.08),
    "effectiveScore": Look(bold=True, color=BLUE),
    "panelTotal": Look(bold=True, scale=2.0),
    # words
    "caption": Look(scale=0.85, color=MUTED),
    "hint": Look(color=MUTED),
    "abilityTag": Look(scale=0.85, color=FAINT),
    "abilityName": Look(bold=True, color=ACCENT),
    "penaltyNote": Look(color=RED),
    "characterName": Look(bold=True, scale=1.3),
    "systemBadge": Look(bold=True, color="#ffffff", background=ACCENT),
    "panelTitle": Look(bold=True, scale=1.3, color=ACCENT),
    "modeNote": Look(italic=True, color=BLUE),
    "odds": Look(bold=True, color=GREEN),
    "rollButton": Look(bold=True),
    "rollResult": Look(background=PAPER, framed=True),
    "sectionTitle": Look(bold=True, scale=0.9, color=ACCENT),
    "panel": Look(background="#fbfaf7", framed=True),
}


_FONTS: dict[tuple[str, type], tuple[QFont, QFont]] = {}
_PALETTES: dict[tuple[str, type], tuple[QPalette, QPalette]] = {}


def _font(widget: QWidget, name: str, spec: Look) -> QFont:
    """The font of a look, made once per widget class and base font (widgets share the
    application's, so a sheet makes a handful, not one per widget)."""
    base = widget.font()
    key = (name, type(widget))
    cached = _FONTS.get(key)
    if cached is not None and cached[0] == base:
        return cached[1]
    font = QFont(base)
    if spec.bold is not None:
        font.setBold(spec.bold)
    if spec.italic:
        font.setItalic(True)
    if spec.scale != 1.0:
        font.setPointSizeF(font.pointSizeF() * spec.scale)
    _FONTS[key] = (base, font)
    return font


def _palette(widget: QWidget, name: str, spec: Look) -> QPalette:
    """The palette of a look, made once per widget class and base palette.

    Compared by value, not by ``cacheKey()``: each widget resolves its own copy of the
    application's palette, so the keys differ where the colours do not."""
    base = widget.palette()
    key = (name, type(widget))
    cached = _PALETTES.get(key)
    if cached is not None and cached[0] == base:
        return cached[1]
    palette = QPalette(base)
    if spec.color:
        role = (QPalette.ColorRole.ButtonText if isinstance(widget, QAbstractButton)
                else QPalette.ColorRole.WindowText)
        palette.setColor(role, QColor(spec.color))
    if spec.background:
        palette.setColor(QPalette.ColorRole.Window, QColor(spec.background))
    _PALETTES[key] = (base, palette)
    return palette


def look(widget: QWidget, name: str) -> None:
    """Give ``widget`` the object name ``name`` and the look registered under it."""
    widget.setObjectName(name)
    spec = LOOKS.get(name)
    if spec is None:
        return
    if spec.bold is not None or spec.italic or spec.scale != 1.0:
        widget.setFont(_font(widget, name, spec))
    if spec.color or spec.background:
        widget.setPalette(_palette(widget, name, spec))
        if spec.background:
            widget.setAutoFillBackground(True)
    if spec.framed and isinstance(widget, QFrame):
        widget.setFrameShape(QFrame.Shape.StyledPanel)
    if spec.background and isinstance(widget, QLabel):
        widget.setMargin(3)


def set_background(widget: QWidget, color: str | None) -> None:
    """Fill ``widget`` with ``color`` (a selected row), or stop filling it (``None``)."""
    if color is None:
        widget.setAutoFillBackground(False)
        return
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.Window, QColor(color))
    widget.setPalette(palette)
    widget.setAutoFillBackground(True)
