"""Guards the PySide6 pin: 6.12.0 on Python 3.11 crashes after a few thousand Qt calls."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

CALLS = 50_000


def test_many_void_qt_calls_survive(qtbot: QtBot) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    for i in range(CALLS):
        label.setText(str(i))
    assert label.text() == str(CALLS - 1)
