"""What the widget tests share: the `make_window` fixture's type, finding, typing into and
clicking the sheet's widgets the way a user would (typed), answering dialogs, and small
character builders.

Test modules import from here (never from each other, nor from conftest)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import pytest
from PySide6.QtCore import QAbstractItemModel, QEvent, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QMessageBox, QToolTip, QWidget
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.model import CharacterBase, Effect, Modifier

if TYPE_CHECKING:  # (pytestqt.modeltest can't be imported before pytest-qt has set up Qt)
    from pytestqt.modeltest import ModelTester

    from ui.main_window import MainWindow
    from ui.roll_panel import BreakdownModel
    from ui.sections.sheet import SheetWidget

W = TypeVar("W", bound=QWidget)

OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"
"""The offscreen platform plugin warns when a top-level window gets size hints; xcb doesn't."""


class MakeWindow(Protocol):
    """The ``make_window`` fixture: a shown main window of a character (or of a system's
    sample, given its id), closed at the end of the test."""

    def __call__(
        self, character: CharacterBase | str = ..., path: Path | None = ..., seed: int = ...
    ) -> MainWindow: ...


def sheet_of(window: MainWindow) -> SheetWidget:
    """The window's sheet (there is always one once the window is built)."""
    assert window.sheet is not None
    return window.sheet


def find(root: QWidget, cls: type[W], accessible_name: str) -> W:
    """The one widget of ``cls`` under ``root`` with that accessible name."""
    found = [w for w in root.findChildren(cls) if w.accessibleName() == accessible_name]
    assert len(found) == 1, f"{len(found)} {cls.__name__} named {accessible_name!r}"
    return found[0]


# pytest-qt's ``qtbot.keyClick`` / ``keyClicks`` / ``mouseClick`` and
# ``qtmodeltester.check`` are untyped (strict mypy refuses the calls); these are the same calls,
# typed. ``qtbot.keyClick(w, k)`` is `QTest.keyClick` underneath.


def press(widget: QWidget, key: Qt.Key,
          modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Press and release ``key`` on ``widget`` (``qtbot.keyClick``)."""
    QTest.keyClick(widget, key, modifier)


def type_text(widget: QWidget, text: str) -> None:
    """Type ``text`` into ``widget`` key by key (``qtbot.keyClicks``)."""
    QTest.keyClicks(widget, text)


def click(widget: QWidget, button: Qt.MouseButton = Qt.MouseButton.LeftButton,
          pos: QPoint | None = None) -> None:
    """Click ``widget`` at ``pos``, by default in its centre (``qtbot.mouseClick``)."""
    QTest.mouseClick(widget, button, Qt.KeyboardModifier.NoModifier,
                     QPoint() if pos is None else pos)


def check_model(tester: ModelTester, model: QAbstractItemModel) -> None:
    """Run Qt's model checks on ``model`` (``qtmodeltester.check``)."""
    check = cast("Callable[[QAbstractItemModel], None]", tester.check)
    check(model)


def type_into(qtbot: QtBot, widget: QAbstractSpinBox, text: str) -> None:
    """Select the field's text and type ``text``, then press Enter. (``qtbot`` is taken so
    that a QApplication exists.)"""
    widget.setFocus()
    widget.selectAll()
    type_text(widget, text)
    press(widget, Qt.Key.Key_Return)


def hover_tooltip(widget: QWidget) -> str:
    """The tooltip a user sees resting the mouse on ``widget`` (built on demand)."""
    QToolTip.hideText()
    centre = widget.rect().center()
    event = QHelpEvent(QEvent.Type.ToolTip, centre, widget.mapToGlobal(centre))
    QApplication.sendEvent(widget, event)
    return QToolTip.text()


def answer(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> list[str]:
    """Answer every `QMessageBox.question` with ``button``; the titles asked are collected."""
    asked: list[str] = []

    def question(_parent: object, title: str, *args: object, **kwargs: object) -> object:
        asked.append(title)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def blank(system: str, name: str = "", **changes: object) -> CharacterBase:
    """A new character of ``system`` with ``changes`` made (validated)."""
    data = registry.get(system).new_character(name).dump()
    data.update(changes)
    return registry.get(system).model.model_validate(data)


def item_bonus(name: str, value: int, target: str = "skill:stealth") -> Effect:
    """An effect giving an item bonus (pf2e's and d20srd's stacking type) to one target."""
    return Effect(name=name, modifiers=[Modifier(type="item", value=value, targets=[target])])


def lines(model: BreakdownModel) -> dict[str, tuple[str, str, str | None]]:
    """label → (value, status, reason) for every modifier line the panel shows."""
    out: dict[str, tuple[str, str, str | None]] = {}
    rows = model.rows()
    for i, row in enumerate(rows):
        if row.kind != "line":
            continue
        parts = []
        for later in rows[i + 1:]:
            if later.kind != "reason":
                break
            parts.append(later.text.strip())
        out[row.text] = (row.value, row.status, " ".join(parts) or None)
    return out
