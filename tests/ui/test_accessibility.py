"""Every input is named for screen readers, and Tab walks the sheet in reading order."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTableView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from sheet_app import registry
from tests.ui.helpers import MakeWindow, press, sheet_of

INPUTS = (QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QAbstractButton, QTableView)


def _is_internal(widget: QWidget) -> bool:
    """Line edits inside spin boxes and combo boxes, and Qt's own scroll/tab buttons."""
    parent = widget.parentWidget()
    if isinstance(parent, QAbstractSpinBox | QComboBox):
        return True
    return widget.objectName().startswith("qt_") or (type(widget).__name__ in (
        "QToolButton", "QTabBar", "QDockWidgetTitleButton",
    ) and not widget.accessibleName() and not widget.toolTip())


@pytest.mark.parametrize("system", registry.known_ids())
def test_every_input_has_an_accessible_name(system: str, make_window: MakeWindow) -> None:
    window = make_window(system)
    sheet = sheet_of(window)
    for tab in range(sheet.tabs.count()):  # the tabs build their content when first shown
        sheet.tabs.setCurrentIndex(tab)
    unnamed = []
    for cls in INPUTS:
        for widget in window.findChildren(cls):
            if _is_internal(widget):
                continue
            text = widget.text() if isinstance(widget, QAbstractButton) else ""
            if not (widget.accessibleName() or text.strip("&").strip()):
                unnamed.append(f"{type(widget).__name__} {widget.objectName()!r}")
    assert unnamed == []


def _named(widget: QWidget | None) -> str:
    while widget is not None and not widget.accessibleName():
        widget = widget.parentWidget()  # a spin box's inner line edit speaks for the box
    return widget.accessibleName() if widget is not None else ""


def test_tab_order_follows_the_sheet(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    window.activateWindow()
    sheet_of(window).header.name.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    order = [_named(QApplication.focusWidget())]
    for _ in range(14):
        focused = QApplication.focusWidget()
        assert focused is not None
        press(focused, Qt.Key.Key_Tab)
        order.append(_named(QApplication.focusWidget()))
    assert order[:6] == ["Character name", "Level", "Size", "Race / origin", "Class",
                         "Strength score"]
    assert order[6:10] == ["Roll Strength check", "Dexterity score", "Roll Dexterity check",
                           "Constitution score"]
