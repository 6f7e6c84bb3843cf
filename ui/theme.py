"""The sheet's look, set with fonts and palettes rather than a Qt style sheet; every colour of
the window is named here and nowhere else, once per theme (light and dark).

A style sheet anywhere above a widget swaps in Qt's style-sheet style for the whole subtree,
which re-polishes on every re-parenting and paints slower; building a sheet under one took
2.8× as long as building a bare window, against 1.9× without (an application-wide focus rule
alone tripled the sheet's build time). So each widget gets its look once, by name:
`look(widget, "bigNumber")` sets the object name and the font and colours. Inputs keep their
boxes (Fusion); derived numbers are bold and boxless. The keyboard focus is drawn by one
`FocusRing` that follows the focused widget, whatever its kind.

Themes. `LIGHT` and `DARK` are `Theme` values; `current()` is the active one. `apply(app,
scheme)` picks one ("system" follows ``QStyleHints.colorScheme``), sets the application
palette, re-colours every widget that has a look, and emits ``signals().changed``;
`follow_system(app)` re-applies when the system scheme changes. The View ▸ Theme choice is
saved under `SETTINGS_KEY` (`saved_scheme`, `save_scheme`, or `theme_menu` for the whole menu).

Colours are hex strings (they go into palettes, item roles and rich text alike). The module's
colour names (``APPLIED_COLOR``, ``OUTCOME_COLORS`` …) stay importable and follow the active
theme: each name is a `Color`, a ``str`` that formats (f-strings, ``str()``) as the active
theme's value, and `qcolor` resolves it too; each mapping looks its values up in the active
theme. A string built from one keeps the colour of the moment it was built. A test fails on
a colour literal anywhere else under ``ui/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType
from typing import Final, Literal, cast, get_args

from PySide6.QtCore import QObject, QRectF, QSettings, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QColor,
    QFont,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFocusFrame,
    QFrame,
    QLabel,
    QMenu,
    QProxyStyle,
    QStyle,
    QStyleHintReturn,
    QStyleOption,
    QToolTip,
    QWidget,
)
from shiboken6 import Shiboken

ThemeName = Literal["light", "dark"]
Scheme = Literal["system", "light", "dark"]
SCHEMES: Final[tuple[Scheme, ...]] = get_args(Scheme)
SCHEME_LABELS: Final[Mapping[Scheme, str]] = MappingProxyType(
    {"system": "&System", "light": "&Light", "dark": "&Dark"})
"""View ▸ Theme's entries, in order."""
SETTINGS_KEY: Final = "view/theme"
"""The QSettings key of the View ▸ Theme choice: one of `SCHEMES`."""


# --- the themes ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour of one theme, as ``#rrggbb``. Surfaces first, then text, then graphics.

    Each text colour is readable on the surfaces it is shown on (4.5:1, WCAG 2.x): the pairs
    are listed and checked in ``tests/ui/test_theme.py``; add a pair there with a colour."""

    name: ThemeName
    # surfaces
    window: str
    """The window, the tabs' pages, the roll panel."""
    base: str
    """Inputs and tables."""
    alternate_base: str
    """Every other row of a table."""
    button: str
    panel_background: str
    """A section's framed body."""
    paper: str
    """The last roll's box."""
    tooltip_base: str
    selected_row: str
    """The sheet row whose statistic the roll panel shows."""
    group_background: str
    """A type's header row in the roll panel's breakdown."""
    highlight: str
    """A table's selected row (under `highlighted_text`)."""
    badge_background: str
    """The system's badge in the header."""
    # text
    ink: str
    highlighted_text: str
    badge_text: str
    muted: str
    """Captions, hints."""
    faint: str
    """Ability tags, the roll panel's prompt, placeholders."""
    accent: str
    """Titles, the big numbers (the brand's red)."""
    blue: str
    """An effective score, the roll mode's note."""
    green: str
    """The odds."""
    red: str
    """A penalty's note; a failure."""
    white: str
    suppressed: str
    """A modifier that lost to another, with its reason; an inactive effect."""
    applied: str
    """A modifier that applies; a success."""
    penalty: str
    """The ✘ of a suppressed modifier."""
    inactive: str
    computed: str
    """A value the rules computed (a condition's modifiers), shown but not editable."""
    dc_note: str
    """The "vs DC 20" after a roll's outcome."""
    prompt: str
    total_column: str
    """A computed column of a table (an item row's total weight)."""
    hp_warn: str
    """A hit-point state to take care of (bloodied, unconscious, stable)."""
    carry_unknown_text: str
    link: str
    disabled_text: str
    """A disabled control's text (exempt from the contrast rule, yet legible)."""
    # graphics
    focus: str
    """The focus ring: 3:1 against every surface it is drawn on."""
    carry_unknown_fill: str
    bar_outline: str
    bar_track: str
    bar_mark: str
    # by key
    outcome: Mapping[str, str] = field(default_factory=dict)
    """Each outcome of a check, by `sheet_app.checks.Outcome`."""
    carry_state: Mapping[str, str] = field(default_factory=dict)
    """The encumbrance bar's fill and the state's words, by `Carrying.state`."""
    hp_state: Mapping[str, str] = field(default_factory=dict)
    """The hit-point state's words, by `sheet_app.hitpoints.HpState.severity`."""

    @property
    def dark(self) -> bool:
        return self.name == "dark"

    def colors(self) -> dict[str, str]:
        """Every single colour by field name (the mappings left out)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if isinstance(getattr(self, f.name), str) and f.name != "name"}


def _light() -> Theme:
    ink, red, applied, suppressed = "#1d1b19", "#b3261e", "#1b7035", "#60656d"
    faint = "#67625b"
    return Theme(
        name="light",
        window="#f6f3ee", base="#ffffff", alternate_base="#f3f1ec", button="#efebe4",
        panel_background="#fbfaf7", paper="#fffdf7", tooltip_base="#fffdf7",
        selected_row="#f1dfe1", group_background="#f1ece3", highlight="#7a1f2b",
        badge_background="#7a1f2b",
        ink=ink, highlighted_text="#ffffff", badge_text="#ffffff", muted="#6b645a",
        faint=faint, accent="#7a1f2b", blue="#1f5fa8", green="#1f5f3a", red=red,
        white="#ffffff", suppressed=suppressed, applied=applied, penalty=red,
        inactive=suppressed, computed="#6b645a", dc_note="#555555", prompt=faint,
        total_column="#5f636a", hp_warn="#9a5b00", carry_unknown_text="#333333",
        link="#1f5fa8", disabled_text="#a39d95",
        focus="#1b62c4", carry_unknown_fill="#777777", bar_outline="#9aa0a6",
        bar_track="#eceff1", bar_mark="#37474f",
        outcome=MappingProxyType({
            "critical_success": "#0b6e2e", "success": applied,
            "failure": red, "critical_failure": "#7a0f0a",
        }),
        carry_state=MappingProxyType({
            "unencumbered": "#27733a", "encumbered": "#875800",
            "heavily_encumbered": "#a8490d", "over_capacity": red,
        }),
        hp_state=MappingProxyType({
            "ok": applied, "warn": "#9a5b00", "danger": red, "dead": ink,
        }),
    )


def _dark() -> Theme:
    """Warm charcoal, off-white ink; inputs and tables a step lighter than the panels around
    them (Fusion's outlines barely show on a dark window). The brand's wine red is lifted to
    a rose for text on the dark and kept deep for fills under white text."""
    ink, red, applied, suppressed = "#ece6df", "#ff8f85", "#7fd496", "#a3a9b2"
    faint = "#aaa299"
    return Theme(
        name="dark",
        window="#1c1a18", base="#2f2b28", alternate_base="#35312d", button="#3a3632",
        panel_background="#242120", paper="#2a2623", tooltip_base="#34302c",
        selected_row="#4f2a32", group_background="#403832", highlight="#8e2c3b",
        badge_background="#8e2c3b",
        ink=ink, highlighted_text="#ffffff", badge_text="#ffffff", muted="#b5ada3",
        faint=faint, accent="#ea9aa4", blue="#8fbcf2", green="#86d39b", red=red,
        white="#ffffff", suppressed=suppressed, applied=applied, penalty=red,
        inactive=suppressed, computed="#b5ada3", dc_note="#bdb5ab", prompt=faint,
        total_column="#b0b5bc", hp_warn="#eab25a", carry_unknown_text="#cfc9c1",
        link="#8fbcf2", disabled_text="#77716a",
        focus="#7fb2f0", carry_unknown_fill="#8b867f", bar_outline="#77716a",
        bar_track="#35312d", bar_mark="#e6e0d8",
        outcome=MappingProxyType({
            "critical_success": "#5fe38d", "success": applied,
            "failure": red, "critical_failure": "#ff7468",
        }),
        carry_state=MappingProxyType({
            "unencumbered": "#7fcf8f", "encumbered": "#e6b450",
            "heavily_encumbered": "#f2965a", "over_capacity": red,
        }),
        hp_state=MappingProxyType({
            "ok": applied, "warn": "#eab25a", "danger": red, "dead": ink,
        }),
    )


LIGHT: Final = _light()
DARK: Final = _dark()
THEMES: Final[Mapping[ThemeName, Theme]] = MappingProxyType({"light": LIGHT, "dark": DARK})


@dataclass(slots=True)
class _State:
    theme: Theme = LIGHT
    scheme: Scheme = "system"
    following: bool = False


_state = _State()


def current() -> Theme:
    """The active theme (`LIGHT` until `apply` picks another)."""
    return _state.theme


def current_scheme() -> Scheme:
    """The scheme `apply` was last given ("system" until then)."""
    return _state.scheme


# --- the colour names, following the active theme --------------------------------------------


class Color(str):
    """A colour of the theme by name: formats (f-string, ``str()``, ``format``) as the active
    theme's value, and `qcolor` resolves it. As a plain ``str`` (concatenation, ``==``,
    ``QColor(...)``) it is the light theme's value: go through `qcolor` or formatting."""

    field: str

    def __new__(cls, name: str) -> Color:
        self = super().__new__(cls, cast(str, getattr(LIGHT, name)))
        self.field = name
        return self

    def value(self, theme: Theme | None = None) -> str:
        """The colour in ``theme`` (the active one by default)."""
        return cast(str, getattr(theme or _state.theme, self.field))

    def __str__(self) -> str:
        return self.value()

    def __format__(self, spec: str) -> str:
        return format(self.value(), spec)

    def __repr__(self) -> str:
        return f"Color({self.field!r})"


class ColorMap(Mapping[str, str]):
    """One of a theme's colour mappings (``outcome`` …), looked up in the active theme."""

    def __init__(self, name: str) -> None:
        self.field = name

    def of(self, theme: Theme | None = None) -> Mapping[str, str]:
        return cast(Mapping[str, str], getattr(theme or _state.theme, self.field))

    def __getitem__(self, key: str) -> str:
        return self.of()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.of())

    def __len__(self) -> int:
        return len(self.of())

    def __repr__(self) -> str:
        return f"ColorMap({self.field!r})"


ACCENT: Final = Color("accent")
"""Titles, the big numbers."""
INK: Final = Color("ink")
MUTED: Final = Color("muted")
FAINT: Final = Color("faint")
BLUE: Final = Color("blue")
GREEN: Final = Color("green")
RED: Final = Color("red")
WHITE: Final = Color("white")
SELECTED_ROW: Final = Color("selected_row")
PAPER: Final = Color("paper")
PANEL_BACKGROUND: Final = Color("panel_background")
WINDOW: Final = Color("window")
BASE: Final = Color("base")
HIGHLIGHT: Final = Color("highlight")
FOCUS_COLOR: Final = Color("focus")
LINK_COLOR: Final = Color("link")

SUPPRESSED_COLOR: Final = Color("suppressed")
"""A modifier that lost to another, an inactive effect."""
APPLIED_COLOR: Final = Color("applied")
"""A modifier that applies; a success."""
PENALTY_COLOR: Final = Color("penalty")
"""The ✘ of a suppressed modifier; a failure."""
INACTIVE_COLOR: Final = Color("inactive")
"""The text of an effect that is switched off."""
COMPUTED_COLOR: Final = Color("computed")
"""A value the rules computed (a condition's modifiers), shown but not editable."""
GROUP_BACKGROUND: Final = Color("group_background")
"""A type's header row in the roll panel's breakdown."""
DC_NOTE_COLOR: Final = Color("dc_note")
"""The "vs DC 20" after a roll's outcome."""
PROMPT_COLOR: Final = Color("prompt")

OUTCOME_COLORS: Final[Mapping[str, str]] = ColorMap("outcome")
"""Each outcome of a check, by `sheet_app.checks.Outcome`."""
CARRY_STATE_COLORS: Final[Mapping[str, str]] = ColorMap("carry_state")
"""The encumbrance bar's fill and the state's words, by `Carrying.state`."""
CARRY_UNKNOWN_FILL: Final = Color("carry_unknown_fill")
CARRY_UNKNOWN_TEXT: Final = Color("carry_unknown_text")
TOTAL_COLUMN_COLOR: Final = Color("total_column")
"""A computed column of a table (an item row's total weight)."""
BAR_OUTLINE: Final = Color("bar_outline")
BAR_TRACK: Final = Color("bar_track")
BAR_MARK: Final = Color("bar_mark")

# --- hit points in play (the Hit points box) ---
HP_WARN_COLOR: Final = Color("hp_warn")
"""A state to take care of (bloodied, unconscious, stable): amber, readable on the panel."""
HP_STATE_COLORS: Final[Mapping[str, str]] = ColorMap("hp_state")
"""The hit-point state's words, by `sheet_app.hitpoints.HpState.severity`."""


def qcolor(color: str) -> QColor:
    """The shared `QColor` of a colour named here (item models return it on every paint); a
    `Color` resolves in the active theme."""
    return _qcolor(str(color))


@cache
def _qcolor(color: str) -> QColor:
    return QColor(color)


# --- the application palette -----------------------------------------------------------------


def palette_roles(theme: Theme) -> dict[QPalette.ColorRole, str]:
    """The application palette's colours in ``theme``, role → colour. Every role is set, so
    nothing shows through from the system's palette (a dark desktop under the light theme)."""
    role = QPalette.ColorRole
    button = QColor(theme.button)
    mid = button.darker(130)
    dark = button.darker(150)
    return {
        role.Window: theme.window,
        role.Base: theme.base,
        role.AlternateBase: theme.alternate_base,
        role.Button: theme.button,
        role.Highlight: theme.highlight,
        role.HighlightedText: theme.highlighted_text,
        role.Text: theme.ink,
        role.WindowText: theme.ink,
        role.ButtonText: theme.ink,
        role.BrightText: theme.white,
        role.ToolTipBase: theme.tooltip_base,
        role.ToolTipText: theme.ink,
        role.PlaceholderText: theme.faint,
        role.Link: theme.link,
        role.LinkVisited: theme.link,
        role.Accent: theme.highlight,
        role.Light: button.lighter(150).name(),
        role.Midlight: mid.lighter(110).name(),
        role.Mid: mid.name(),
        role.Dark: dark.name(),
        role.Shadow: dark.darker(135).name(),
    }


DISABLED_ROLES: Final = (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText,
                         QPalette.ColorRole.ButtonText, QPalette.ColorRole.HighlightedText)
"""Roles whose disabled colour is the theme's ``disabled_text``."""


def light_palette() -> dict[QPalette.ColorRole, str]:
    """The light theme's palette colours, role → colour."""
    return palette_roles(LIGHT)


def dark_palette() -> dict[QPalette.ColorRole, str]:
    """The dark theme's palette colours, role → colour."""
    return palette_roles(DARK)


def application_palette(theme: Theme | None = None) -> QPalette:
    """A `QPalette` of ``theme`` (the active one), ready for ``QApplication.setPalette``."""
    theme = theme or _state.theme
    palette = QPalette()
    for role, color in palette_roles(theme).items():
        palette.setColor(role, qcolor(color))
    for role in DISABLED_ROLES:
        palette.setColor(QPalette.ColorGroup.Disabled, role, qcolor(theme.disabled_text))
    return palette


# --- choosing and applying a theme -----------------------------------------------------------


class ThemeSignals(QObject):
    changed = Signal(str)
    """The active theme changed; its name ("light" or "dark")."""


@cache
def signals() -> ThemeSignals:
    """Where `apply` announces a new theme: connect a widget that keeps a colour it was given
    (rich text, a palette of its own) to build it again."""
    return ThemeSignals()


def system_theme() -> ThemeName:
    """The system's colour scheme (``QStyleHints.colorScheme``): "dark" or else "light"."""
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


def as_scheme(value: object) -> Scheme:
    """``value`` if it names a scheme, else "system" (an old or hand-edited settings file)."""
    return value if value in SCHEMES else "system"


def resolve(scheme: str) -> ThemeName:
    """The theme a scheme means: "system" asks the system; anything unknown is "system"."""
    if scheme == "light":
        return "light"
    if scheme == "dark":
        return "dark"
    return system_theme()


def apply(app: QApplication, scheme: str = "system") -> Theme:
    """Make ``scheme``'s theme the application's: the Fusion style, the theme's palette, the
    looks of every widget re-coloured, the focus ring; ``signals().changed`` is emitted when
    the theme changed. "system" follows ``QStyleHints.colorScheme`` (see `follow_system`).
    An unknown scheme (an old settings file) counts as "system". Returns the theme."""
    _state.scheme = as_scheme(scheme)
    theme = THEMES[resolve(_state.scheme)]
    style = app.style()
    if style is None or style.name().lower() != "fusion":
        app.setStyle("Fusion")
    changed = theme is not _state.theme
    _state.theme = theme
    palette = application_palette(theme)
    if changed or app.palette() != palette:
        app.setPalette(palette)
        QToolTip.setPalette(palette)  # tooltips keep the palette they first saw otherwise
    if changed:
        _recolour(app)
    _follow_focus(app)
    if changed:
        signals().changed.emit(theme.name)
    return theme


def follow_system(app: QApplication) -> None:
    """Re-apply the theme when the system's colour scheme changes, while the chosen scheme is
    "system" (connected once, however often it is called)."""
    if _state.following:
        return
    _state.following = True
    app.styleHints().colorSchemeChanged.connect(_system_scheme_changed)


def _system_scheme_changed(_scheme: Qt.ColorScheme) -> None:
    app = QApplication.instance()
    if isinstance(app, QApplication) and _state.scheme == "system":
        apply(app, "system")


def saved_scheme(settings: QSettings) -> Scheme:
    """The View ▸ Theme choice saved in ``settings`` ("system" when none or unknown)."""
    return as_scheme(settings.value(SETTINGS_KEY, "system"))


def save_scheme(settings: QSettings, scheme: Scheme) -> None:
    settings.setValue(SETTINGS_KEY, scheme)


def theme_menu(settings: QSettings, parent: QWidget | None = None,
               on_change: Callable[[Scheme], None] | None = None) -> QMenu:
    """View ▸ Theme: System, Light, Dark, one checked (the scheme saved in ``settings``);
    choosing one applies it, saves it and calls ``on_change``."""
    menu = QMenu("&Theme", parent)
    menu.setObjectName("themeMenu")
    group = QActionGroup(menu)
    group.setExclusive(True)
    chosen = saved_scheme(settings)
    for scheme in SCHEMES:
        action = QAction(SCHEME_LABELS[scheme], menu)
        action.setCheckable(True)
        action.setChecked(scheme == chosen)
        action.setData(scheme)
        group.addAction(action)
        menu.addAction(action)

    def choose(action: QAction) -> None:
        scheme = cast(Scheme, action.data())
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply(app, scheme)
        save_scheme(settings, scheme)
        if on_change is not None:
            on_change(scheme)

    group.triggered.connect(choose)
    return menu


def _recolour(app: QApplication) -> None:
    """Give every widget with a look, or a background from `set_background`, the active
    theme's colours (fonts are left alone)."""
    for widget in app.allWidgets():
        spec = LOOKS.get(widget.objectName())
        if spec is not None and (spec.color or spec.background):
            widget.setPalette(_palette(widget, widget.objectName(), spec))
        background = widget.property(_BACKGROUND)
        if isinstance(background, str) and background:
            set_background(widget, Color(background))
        if isinstance(widget, FocusRing):
            widget.update()


# --- the focus ring --------------------------------------------------------------------------

FOCUS_WIDTH: Final = 2
"""The ring's line, in pixels; it sits one pixel outside the focused widget."""


class _RingStyle(QProxyStyle):
    """The focus ring's own style (no other widget uses it): drawn above the focused widget,
    3 px outside it."""

    def pixelMetric(self, metric: QStyle.PixelMetric, option: QStyleOption | None = None,
                    widget: QWidget | None = None) -> int:
        if metric in (QStyle.PixelMetric.PM_FocusFrameHMargin,
                      QStyle.PixelMetric.PM_FocusFrameVMargin):
            return FOCUS_WIDTH + 1
        return super().pixelMetric(metric, option, widget)

    def styleHint(self, hint: QStyle.StyleHint, option: QStyleOption | None = None,
                  widget: QWidget | None = None,
                  returnData: QStyleHintReturn | None = None) -> int:
        if hint == QStyle.StyleHint.SH_FocusFrame_AboveWidget:
            return 1
        return super().styleHint(hint, option, widget, returnData)


@cache
def _ring_style() -> _RingStyle:
    return _RingStyle("Fusion")


class FocusRing(QFocusFrame):
    """A ring in the theme's ``focus`` colour around the widget with the keyboard focus: the
    flat totals, labels and tables alike (Fusion's own focus hints are faint or missing)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("focusRing")
        self.setStyle(_ring_style())
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(qcolor(FOCUS_COLOR), FOCUS_WIDTH)
        painter.setPen(pen)
        half = FOCUS_WIDTH / 2
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(half, half, -half, -half), 3, 3)
        painter.end()


@dataclass(slots=True)
class _Focus:
    ring: FocusRing | None = None
    connected: bool = False


_focus = _Focus()


def focus_ring() -> FocusRing | None:
    """The ring following the focus (None before `apply` or while no window has focus)."""
    ring = _focus.ring
    return ring if ring is not None and Shiboken.isValid(ring) else None


def _follow_focus(app: QApplication) -> None:
    if not _focus.connected:
        _focus.connected = True
        app.focusChanged.connect(_focus_changed)
    _focus_changed(None, app.focusWidget())


def _focus_changed(_old: QWidget | None, new: QWidget | None) -> None:
    ring = focus_ring()
    if (new is None or not Shiboken.isValid(new) or new.isWindow() or isinstance(new, FocusRing)
            or new.window().windowType() == Qt.WindowType.Popup):
        if ring is not None:
            ring.setWidget(None)  # type: ignore[arg-type]  # Qt takes nullptr: stop following
        return
    if ring is None:
        ring = FocusRing(new.window())  # owned by the window; remade if it goes
        _focus.ring = ring
    ring.setWidget(new)


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
    "systemBadge": Look(bold=True, color=Color("badge_text"),
                        background=Color("badge_background")),
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
_PALETTES: dict[tuple[ThemeName, str, bool], QPalette] = {}
_BACKGROUND: Final = "themeBackground"
"""The dynamic property naming the `Color` a `set_background` filled a widget with."""


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
    """The palette of a look in the active theme: only the look's own roles are set, so the
    rest follows the widget's parents (and the next theme); one per look, theme and kind of
    widget, shared by every widget with that look."""
    button = isinstance(widget, QAbstractButton)
    key = (_state.theme.name, name, button)
    cached = _PALETTES.get(key)
    if cached is not None:
        return cached
    palette = QPalette()
    palette.setResolveMask(0)
    if spec.color:
        role = QPalette.ColorRole.ButtonText if button else QPalette.ColorRole.WindowText
        palette.setColor(role, qcolor(spec.color))
    if spec.background:
        palette.setColor(QPalette.ColorRole.Window, qcolor(spec.background))
    _PALETTES[key] = palette
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
    """Fill ``widget`` with ``color`` (a selected row), or stop filling it (``None``). A
    `Color` is filled again in the new theme when the theme changes."""
    if color is None:
        widget.setAutoFillBackground(False)
        if widget.property(_BACKGROUND):
            widget.setProperty(_BACKGROUND, "")
        return
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.Window, qcolor(color))
    widget.setPalette(palette)
    widget.setAutoFillBackground(True)
    if isinstance(color, Color):
        widget.setProperty(_BACKGROUND, color.field)
