"""The sheet's look, set with fonts and palettes rather than a Qt style sheet; every colour of
the window is named here and nowhere else.

A style sheet anywhere above a widget swaps in Qt's style-sheet style for the whole subtree,
which re-polishes on every re-parenting and paints slower; building a sheet under one took
2.8× as long as building a bare window, against 1.9× without. So each widget gets its look
once, by name: `look(widget, "bigNumber")` sets the object name and the font and colours.
Inputs keep their boxes (Fusion); derived numbers are bold and boxless.

Colours are hex strings (they go into palettes, item roles and rich text alike); `qcolor`
turns one into a shared `QColor` for item models. A test fails on a colour literal anywhere
else under ``ui/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Final

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QAbstractButton, QFrame, QLabel, QWidget

# --- colours ---------------------------------------------------------------------------------

ACCENT: Final = "#7a1f2b"
"""Titles, the big numbers, the selection."""
INK: Final = "#1d1b19"
MUTED: Final = "#6b645a"
FAINT: Final = "#8f8a83"
BLUE: Final = "#1f5fa8"
GREEN: Final = "#1f5f3a"
RED: Final = "#b3261e"
WHITE: Final = "#ffffff"
SELECTED_ROW: Final = "#f1dfe1"
PAPER: Final = "#fffdf7"
PANEL_BACKGROUND: Final = "#fbfaf7"

SUPPRESSED_COLOR: Final = "#8a8f98"
"""A modifier that lost to another, an inactive effect."""
APPLIED_COLOR: Final = "#1f7a3a"
"""A modifier that applies; a success."""
PENALTY_COLOR: Final = RED
"""The ✘ of a suppressed modifier; a failure."""
INACTIVE_COLOR: Final = SUPPRESSED_COLOR
"""The text of an effect that is switched off."""
COMPUTED_COLOR: Final = MUTED
"""A value the rules computed (a condition's modifiers), shown but not editable."""
GROUP_BACKGROUND: Final = "#f1ece3"
"""A type's header row in the roll panel's breakdown."""
DC_NOTE_COLOR: Final = "#555555"
"""The "vs DC 20" after a roll's outcome."""
PROMPT_COLOR: Final = FAINT

OUTCOME_COLORS: Final[Mapping[str, str]] = MappingProxyType({
    "critical_success": "#0b6e2e",
    "success": APPLIED_COLOR,
    "failure": PENALTY_COLOR,
    "critical_failure": "#7a0f0a",
})
"""Each outcome of a check, by `sheet_app.checks.Outcome`."""

CARRY_STATE_COLORS: Final[Mapping[str, str]] = MappingProxyType({
    "unencumbered": "#3f8f4f",
    "encumbered": "#c98a12",
    "heavily_encumbered": "#d0621b",
    "over_capacity": RED,
})
"""The encumbrance bar's fill and the state's words, by `Carrying.state`."""
CARRY_UNKNOWN_FILL: Final = "#777777"
CARRY_UNKNOWN_TEXT: Final = "#333333"
TOTAL_COLUMN_COLOR: Final = "#6b6f76"
"""A computed column of a table (an item row's total weight)."""
BAR_OUTLINE: Final = "#9aa0a6"
BAR_TRACK: Final = "#eceff1"
BAR_MARK: Final = "#37474f"

# --- hit points in play (the Hit points box) ---
HP_WARN_COLOR: Final = "#9a5b00"
"""A state to take care of (bloodied, unconscious, stable): dark amber, readable on paper."""
HP_STATE_COLORS: Final[Mapping[str, str]] = MappingProxyType({
    "ok": APPLIED_COLOR,
    "warn": HP_WARN_COLOR,
    "danger": RED,
    "dead": INK,
})
"""The hit-point state's words, by `sheet_app.hitpoints.HpState.severity`."""


def light_palette() -> dict[QPalette.ColorRole, str]:
    """The application palette's colours, role → colour (the window's paper and ink)."""
    role = QPalette.ColorRole
    return {
        role.Window: "#f6f3ee",
        role.Base: WHITE,
        role.AlternateBase: "#f3f1ec",
        role.Button: "#efebe4",
        role.Highlight: ACCENT,
        role.HighlightedText: WHITE,
        role.Text: INK,
        role.WindowText: INK,
        role.ButtonText: INK,
        role.ToolTipBase: PAPER,
        role.ToolTipText: INK,
        role.PlaceholderText: FAINT,
    }


def application_palette() -> QPalette:
    """A `QPalette` of `light_palette`, ready for ``QApplication.setPalette``."""
    palette = QPalette()
    for role, color in light_palette().items():
        palette.setColor(role, qcolor(color))
    return palette


@cache
def qcolor(color: str) -> QColor:
    """The shared `QColor` of a colour named here (item models return it on every paint)."""
    return QColor(color)


# --- looks -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Look:
    bold: bool | None = None
    italic: bool = False
    scale: float = 1.0
    color: str | None = None
    background: str | None = None
    framed: bool = False


LOOKS: Final[Mapping[str, Look]] = MappingProxyType({
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
    "carryState": Look(),
    "characterName": Look(bold=True, scale=1.3),
    "systemBadge": Look(bold=True, color=WHITE, background=ACCENT),
    "panelTitle": Look(bold=True, scale=1.3, color=ACCENT),
    "modeNote": Look(italic=True, color=BLUE),
    "odds": Look(bold=True, color=GREEN),
    "rollButton": Look(bold=True),
    "rollResult": Look(background=PAPER, framed=True),
    "sectionTitle": Look(bold=True, scale=0.9, color=ACCENT),
    "panel": Look(background=PANEL_BACKGROUND, framed=True),
    "conditionSummary": Look(italic=True, color=MUTED),
})
"""Every look by name; `look` refuses a name not listed here."""


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
        palette.setColor(role, qcolor(spec.color))
    if spec.background:
        palette.setColor(QPalette.ColorRole.Window, qcolor(spec.background))
    _PALETTES[key] = (base, palette)
    return palette


class UnknownLook(KeyError):
    """`look` was given a name `LOOKS` does not have (a typo would otherwise pass unseen)."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"unknown look {name!r}: add it to ui.theme.LOOKS")

    def __str__(self) -> str:
        return str(self.args[0])


def look(widget: QWidget, name: str) -> None:
    """Give ``widget`` the object name ``name`` and the look registered under it.

    Raises `UnknownLook` (a `KeyError`) for a name `LOOKS` does not list."""
    spec = LOOKS.get(name)
    if spec is None:
        raise UnknownLook(name)
    widget.setObjectName(name)
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
    palette.setColor(QPalette.ColorRole.Window, qcolor(color))
    widget.setPalette(palette)
    widget.setAutoFillBackground(True)
