"""Finding and typing into the sheet's widgets the way a user would."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QToolTip, QWidget
from pytestqt.qtbot import QtBot


def find(root: QWidget, cls: type[QWidget], accessible_name: str) -> QWidget:
    """The one widget of ``cls`` under ``root`` with that accessible name."""
    found = [w for w in root.findChildren(cls) if w.accessibleName() == accessible_name]
    assert len(found) == 1, f"{len(found)} {cls.__name__} named {accessible_name!r}"
    return found[0]


def type_into(qtbot: QtBot, widget: QAbstractSpinBox, text: str) -> None:
    """Select the field's text and type ``text``, then press Enter."""
    widget.setFocus()
    widget.selectAll()
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key.Key_Return)


def hover_tooltip(widget: QWidget) -> str:
    """The tooltip a user sees resting the mouse on ``widget`` (built on demand)."""
    QToolTip.hideText()
    centre = widget.rect().center()
    event = QHelpEvent(QEvent.Type.ToolTip, centre, widget.mapToGlobal(centre))
    QApplication.sendEvent(widget, event)
    return QToolTip.text()
