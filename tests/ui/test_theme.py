"""The light and dark themes: every text colour readable on every background it is shown on
(WCAG 2.x contrast), the dark theme actually dark, switching live, following the system's
scheme, the View ▸ Theme setting, and a visible focus ring on every kind of focusable control.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QToolButton,
    QToolTip,
    QWidget,
)
from pytestqt.qtbot import QtBot

from tests.ui.helpers import MakeWindow, sheet_of
from ui import theme
from ui.theme import DARK, LIGHT, THEMES, Theme

# --- WCAG 2.x contrast -----------------------------------------------------------------------


def luminance(color: str) -> float:
    """Relative luminance of an sRGB colour (WCAG 2.x)."""
    c = QColor(color)
    assert c.isValid(), color

    def linear(channel: int) -> float:
        v = channel / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue())


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two colours, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # WCAG's own example


# --- every text colour on every background it is shown on ------------------------------------

NORMAL, LARGE = 4.5, 3.0
"""WCAG 1.4.3: 4.5:1 for text, 3:1 for large text (≥ 18 pt, or ≥ 14 pt bold)."""


@dataclass(frozen=True)
class Pair:
    what: str
    fg: str
    """A `Theme` field, or ``mapping.key`` (``outcome.success``)."""
    bg: str
    large: bool = False
    """Only ever large text (≥ 18 pt, or ≥ 14 pt bold): 3:1 is enough."""


SURFACES = ("window", "base", "alternate_base", "button", "panel_background", "paper",
            "tooltip_base", "selected_row", "group_background", "highlight",
            "badge_background")
GRAPHICS = ("focus", "carry_unknown_fill", "bar_outline", "bar_track", "bar_mark")
EXEMPT = ("disabled_text",)
"""Text of disabled controls (WCAG 1.4.3 exempts "inactive user interface components")."""


def _on(what: str, fg: str, *backgrounds: str, large: bool = False) -> list[Pair]:
    return [Pair(what, fg, bg, large) for bg in backgrounds]


def _each(what: str, mapping: str, *backgrounds: str) -> list[Pair]:
    keys = getattr(LIGHT, mapping).keys() | getattr(DARK, mapping).keys()
    return [pair for key in sorted(keys) for pair in _on(what, f"{mapping}.{key}", *backgrounds)]


PAIRS: list[Pair] = [
    # the palette: every role's text on its background
    *_on("normal text", "ink", "window", "base", "alternate_base", "button",
         "panel_background", "paper", "selected_row", "group_background"),
    *_on("tooltip text", "ink", "tooltip_base"),
    *_on("table text of the selected row", "highlighted_text", "highlight"),
    *_on("bright text", "white", "highlight", "badge_background"),
    *_on("system badge", "badge_text", "badge_background"),
    *_on("placeholder", "faint", "base"),
    *_on("links", "link", "window", "base", "tooltip_base"),
    # looks
    *_on("captions and hints", "muted", "window", "panel_background", "paper"),
    *_on("ability tags", "faint", "window", "panel_background", "selected_row"),
    *_on("titles, ability names", "accent", "window", "panel_background", "paper",
         "selected_row", "base"),
    *_on("effective score, roll mode note", "blue", "window", "panel_background"),
    *_on("odds", "green", "window", "panel_background"),
    *_on("penalty notes", "red", "window", "panel_background", "selected_row"),
    # the breakdown: tooltips and the roll panel
    *_on("reasons of losing bonuses", "suppressed", "tooltip_base", "base", "alternate_base",
         "paper", "window"),
    *_on("suppressed modifier's mark, a refused target", "penalty", "base", "alternate_base",
         "tooltip_base"),
    *_on("applied modifier's mark", "applied", "base", "tooltip_base"),
    # the roll
    *_each("outcome in the roll log", "outcome", "base", "alternate_base"),
    *_each("outcome of the last roll", "outcome", "paper"),
    *_each("critical hit note", "outcome", "window"),
    *_on("vs DC note", "dc_note", "paper"),
    *_on("prompt", "prompt", "paper"),
    # tables
    *_on("inactive effect", "inactive", "base", "alternate_base"),
    *_on("computed values", "computed", "base", "alternate_base"),
    *_on("total column", "total_column", "base", "alternate_base"),
    # states
    *_each("carrying state", "carry_state", "window", "panel_background"),
    *_on("carrying state unknown", "carry_unknown_text", "window", "panel_background"),
    *_each("hit point state", "hp_state", "panel_background"),
    *_on("hit point warning", "hp_warn", "panel_background"),
    # large text only
    *_on("big numbers (1.9× bold)", "accent", "panel_background", large=True),
    *_on("roll total (22 pt bold)", "ink", "paper", large=True),
]


def colour(t: Theme, name: str) -> str:
    if "." in name:
        mapping, key = name.split(".", 1)
        value: str = getattr(t, mapping)[key]
        return value
    value = getattr(t, name)
    return value


BOTH = pytest.mark.parametrize("t", [LIGHT, DARK], ids=["light", "dark"])


@BOTH
def test_every_text_colour_is_readable_on_its_backgrounds(t: Theme) -> None:
    failing = []
    for pair in PAIRS:
        ratio = contrast(colour(t, pair.fg), colour(t, pair.bg))
        needed = LARGE if pair.large else NORMAL
        if ratio < needed:
            failing.append(f"{pair.what}: {pair.fg} {colour(t, pair.fg)} on {pair.bg} "
                           f"{colour(t, pair.bg)} is {ratio:.2f}:1 (needs {needed}:1)")
    assert failing == []


def test_the_losing_bonus_reason_is_readable() -> None:
    """It was #8a8f98 on the tooltip's paper: 3.2:1."""
    for t in THEMES.values():
        assert contrast(t.suppressed, t.tooltip_base) >= NORMAL
        assert contrast(t.suppressed, t.base) >= NORMAL


def test_every_text_colour_is_checked() -> None:
    """A new colour of a theme needs its pairs above (or is a surface or a graphic)."""
    checked = {pair.fg for pair in PAIRS} | {pair.bg for pair in PAIRS}
    names = {f.name for f in fields(Theme) if f.name != "name"}
    for t in THEMES.values():
        for mapping in ("outcome", "carry_state", "hp_state"):
            names.discard(mapping)
            names |= {f"{mapping}.{key}" for key in getattr(t, mapping)}
    unchecked = names - checked - set(GRAPHICS) - set(EXEMPT)
    assert unchecked == set()
    assert set(SURFACES) <= checked


def test_both_themes_name_the_same_keys() -> None:
    for mapping in ("outcome", "carry_state", "hp_state"):
        assert getattr(LIGHT, mapping).keys() == getattr(DARK, mapping).keys()
    assert LIGHT.colors().keys() == DARK.colors().keys()


# --- graphics: 3:1 against what they sit on (WCAG 1.4.11) -------------------------------------


@BOTH
def test_focus_ring_and_bar_stand_out(t: Theme) -> None:
    for surface in ("window", "base", "alternate_base", "button", "panel_background", "paper",
                    "selected_row"):
        assert contrast(t.focus, getattr(t, surface)) >= 3.0, surface
    fills = [*t.carry_state.values(), t.carry_unknown_fill, t.bar_mark]
    for fill in fills:
        assert contrast(fill, t.bar_track) >= 3.0, fill


def test_disabled_text_is_dimmer_than_text() -> None:
    for t in THEMES.values():
        for surface in (t.window, t.button, t.base):
            assert contrast(t.disabled_text, surface) < contrast(t.ink, surface)
            assert contrast(t.disabled_text, surface) >= 1.8  # still legible


# --- the dark theme is dark ------------------------------------------------------------------


def test_dark_theme_is_dark_and_light_is_light() -> None:
    for surface in ("window", "base", "panel_background", "paper", "button", "tooltip_base"):
        assert luminance(getattr(DARK, surface)) < 0.05, surface
        assert luminance(getattr(LIGHT, surface)) > 0.75, surface
    assert luminance(DARK.ink) > 0.6
    assert luminance(LIGHT.ink) < 0.05
    # the same brand red family: a red hue in both, lighter for text on the dark
    for t in THEMES.values():
        hue = QColor(t.accent).hslHue()
        assert hue >= 340 or hue <= 10, t.name
    assert luminance(DARK.accent) > luminance(LIGHT.accent)


@pytest.fixture
def restore_light(qapp: QApplication) -> Iterator[QApplication]:
    """Leave the application light and following nothing new, whatever the test did."""
    try:
        yield qapp
    finally:
        theme.apply(qapp, "light")


def test_apply_dark_sets_the_palette(restore_light: QApplication, qtbot: QtBot) -> None:
    app = restore_light
    caption = QLabel("caption")
    qtbot.addWidget(caption)
    theme.look(caption, "caption")
    row = QWidget()
    qtbot.addWidget(row)
    theme.set_background(row, theme.SELECTED_ROW)
    changed: list[str] = []
    theme.signals().changed.connect(changed.append)
    try:
        assert theme.apply(app, "dark") is DARK
        assert theme.current() is DARK
        assert changed == ["dark"]
        palette = app.palette()
        assert palette.color(QPalette.ColorRole.Window).name() == DARK.window
        assert palette.color(QPalette.ColorRole.Text).name() == DARK.ink
        assert luminance(palette.color(QPalette.ColorRole.Window).name()) < 0.05
        for role, value in theme.dark_palette().items():
            assert palette.color(role).name() == value, role
        disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
        assert disabled.name() == DARK.disabled_text
        assert QToolTip.palette().color(QPalette.ColorRole.ToolTipBase).name() == \
            DARK.tooltip_base
        # widgets made before the switch follow it
        assert caption.palette().color(QPalette.ColorRole.WindowText).name() == DARK.muted
        assert caption.palette().color(QPalette.ColorRole.Window).name() == DARK.window
        assert row.palette().color(QPalette.ColorRole.Window).name() == DARK.selected_row
        # the imported names follow the theme
        assert f"{theme.SUPPRESSED_COLOR}" == DARK.suppressed
        assert str(theme.APPLIED_COLOR) == DARK.applied
        assert theme.qcolor(theme.PENALTY_COLOR).name() == DARK.penalty
        assert theme.OUTCOME_COLORS["success"] == DARK.outcome["success"]
        assert theme.HP_STATE_COLORS.get("warn") == DARK.hp_state["warn"]
        assert dict(theme.CARRY_STATE_COLORS) == dict(DARK.carry_state)
        # widgets made after it too
        later = QLabel()
        qtbot.addWidget(later)
        theme.look(later, "panelTitle")
        assert later.palette().color(QPalette.ColorRole.WindowText).name() == DARK.accent
        # and back
        theme.apply(app, "light")
        assert changed == ["dark", "light"]
        assert app.palette().color(QPalette.ColorRole.Window).name() == LIGHT.window
        assert caption.palette().color(QPalette.ColorRole.WindowText).name() == LIGHT.muted
        assert row.palette().color(QPalette.ColorRole.Window).name() == LIGHT.selected_row
        assert f"{theme.SUPPRESSED_COLOR}" == LIGHT.suppressed
    finally:
        theme.signals().changed.disconnect(changed.append)


def test_the_light_palette_sets_every_role_it_needs(restore_light: QApplication) -> None:
    """Nothing shows through from a dark system palette under the light theme."""
    theme.apply(restore_light, "light")
    palette = restore_light.palette()
    for role, value in theme.light_palette().items():
        assert palette.color(role).name() == value, role
    for role in (QPalette.ColorRole.Light, QPalette.ColorRole.Mid, QPalette.ColorRole.Dark,
                 QPalette.ColorRole.Shadow, QPalette.ColorRole.Link):
        assert role in theme.light_palette()


def test_system_scheme_is_followed_live(restore_light: QApplication,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    app = restore_light
    system = {"scheme": "dark"}
    monkeypatch.setattr(theme, "system_theme", lambda: system["scheme"])
    theme.follow_system(app)
    theme.follow_system(app)  # connected once
    assert theme.apply(app, "system") is DARK
    system["scheme"] = "light"
    app.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert theme.current() is LIGHT
    # a chosen theme stays put when the system changes
    theme.apply(app, "dark")
    app.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert theme.current() is DARK
    assert theme.apply(app, "no such scheme") is LIGHT  # an unknown one means "system"
    assert theme.current_scheme() == "system"


def test_the_choice_is_saved(restore_light: QApplication, tmp_path: Path,
                             qtbot: QtBot) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert theme.saved_scheme(settings) == "system"
    settings.setValue(theme.SETTINGS_KEY, "sepia")
    assert theme.saved_scheme(settings) == "system"
    theme.save_scheme(settings, "dark")
    assert theme.saved_scheme(settings) == "dark"

    chosen: list[str] = []
    menu = theme.theme_menu(settings, on_change=chosen.append)
    qtbot.addWidget(menu)
    actions = menu.actions()
    assert [a.text().replace("&", "") for a in actions] == ["System", "Light", "Dark"]
    assert [a.isChecked() for a in actions] == [False, False, True]
    actions[1].trigger()
    assert theme.current() is LIGHT
    assert theme.saved_scheme(settings) == "light"
    assert chosen == ["light"]
    assert [a.isChecked() for a in actions] == [False, True, False]
    actions[2].trigger()
    assert theme.current() is DARK
    assert settings.value(theme.SETTINGS_KEY) == "dark"


# --- the focus ring --------------------------------------------------------------------------


def _ring_pixel(window: QWidget, widget: QWidget) -> QColor:
    """The colour in the middle of the ring's left edge, two pixels left of the widget (the
    left edge: a scroll area's viewport may clip the top of its first row's ring)."""
    ring = theme.focus_ring()
    assert ring is not None
    image = window.grab().toImage()
    return image.pixelColor(ring.mapTo(window, QPoint(1, ring.height() // 2)))


def _assert_ringed(window: QWidget, widget: QWidget, t: Theme) -> None:
    ring = theme.focus_ring()
    assert ring is not None and ring.isVisible(), type(widget).__name__
    parent = ring.parentWidget()
    assert parent is not None
    ring_rect = ring.geometry().translated(parent.mapTo(window, QPoint(0, 0)))
    widget_rect = widget.rect().translated(widget.mapTo(window, QPoint(0, 0)))
    assert ring_rect.contains(widget_rect.adjusted(-2, -2, 2, 2)), type(widget).__name__
    assert _ring_pixel(window, widget).name() == t.focus, type(widget).__name__


@BOTH
def test_every_focusable_kind_shows_the_ring(t: Theme, restore_light: QApplication,
                                             qtbot: QtBot) -> None:
    assert theme.apply(restore_light, t.name) is t
    window = QWidget()
    qtbot.addWidget(window)
    layout = QHBoxLayout(window)
    layout.setContentsMargins(10, 10, 10, 10)
    total = QPushButton("+5")
    total.setFlat(True)
    theme.look(total, "statButton")
    label = QLabel("Athletics")
    label.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    tool = QToolButton()
    tool.setAutoRaise(True)
    combo = QComboBox()
    combo.addItems(["—", "Trained"])
    edit = QLineEdit("x")
    table = QTableView()
    table.setFixedSize(60, 40)
    widgets: list[QWidget] = [total, label, tool, combo, edit, table]
    for widget in widgets:
        layout.addWidget(widget)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    for widget in widgets:
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        QApplication.processEvents()
        assert QApplication.focusWidget() is widget
        _assert_ringed(window, widget, t)


@BOTH
def test_a_bold_total_on_the_sheet_shows_the_ring(t: Theme, restore_light: QApplication,
                                                  make_window: MakeWindow,
                                                  qtbot: QtBot) -> None:
    """The middle Tab stop of a skill row (its flat total) showed nothing."""
    assert theme.apply(restore_light, t.name) is t
    window = make_window("runarcana")
    qtbot.waitExposed(window)
    window.activateWindow()
    row = next(iter(sheet_of(window).skills.rows.values()))
    for widget in (row.total, row.roll):
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        QApplication.processEvents()
        assert QApplication.focusWidget() is widget
        _assert_ringed(window, widget, t)
    row.total.clearFocus()
    QApplication.processEvents()
    ring = theme.focus_ring()
    assert ring is None or not ring.isVisible() or QApplication.focusWidget() is not None
