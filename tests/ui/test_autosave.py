"""Unsaved changes survive a crash: a recovery copy follows the edits and is offered back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app.io import save_character
from tests.ui.helpers import find, type_into
from ui.app import sample_character
from ui.autosave import find_recovery, recovery_file


def answer(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> list[str]:
    asked: list[str] = []

    def question(_parent: object, title: str, *args: object, **kwargs: object) -> object:
        asked.append(title)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_an_edit_is_kept_in_a_recovery_copy_until_saved(
    qtbot: QtBot, make_window: object, tmp_path: Path
) -> None:
    path = tmp_path / "lux.json"
    save_character(sample_character("runarcana"), path)
    window = make_window(sample_character("runarcana"), path)  # type: ignore[operator]
    copy = window.autosaver.file
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")
    qtbot.waitUntil(copy.exists, timeout=5000)
    kept = json.loads(copy.read_text())
    assert kept["character"]["abilities"]["str"] == 17
    assert json.loads(path.read_text())["abilities"]["str"] == 8  # the file itself untouched

    window.save()
    assert not copy.exists()


def test_undoing_every_edit_drops_the_copy(qtbot: QtBot, make_window: object) -> None:
    window = make_window("pf2e")  # type: ignore[operator]
    type_into(qtbot, find(window, QSpinBox, "Dexterity modifier"), "4")
    window.autosaver.write_now()
    assert window.autosaver.file.exists()
    window.document.undo_stack.undo()
    assert not window.autosaver.file.exists()


def test_a_recovery_is_offered_and_restores_the_edits(
    qtbot: QtBot, make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tordek.json"
    save_character(sample_character("d20srd"), path)
    crashed = make_window(sample_character("d20srd"), path)  # type: ignore[operator]
    type_into(qtbot, find(crashed, QSpinBox, "Constitution score"), "18")
    crashed.autosaver.write_now()  # then the crash: nothing cleans up
    assert crashed.autosaver.file.exists()
    os.utime(path, (1, 1))  # the file is older than the copy

    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window(sample_character("d20srd"), path)  # type: ignore[operator]
    assert window.offer_recovery()
    assert asked == ["Recover unsaved changes"]
    assert window.document.character.abilities.con == 18
    assert window.isWindowModified()
    window.document.undo_stack.undo()  # recovering is one undoable step
    assert window.document.character.abilities.con == 16


def test_declining_a_recovery_deletes_it(
    make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "recovery"
    copy = recovery_file(directory, None)
    directory.mkdir()
    data = {"saved_at": "2026-11-29T18:00:00+00:00",
            "character": json.loads(json.dumps(sample_character("pf2e").dump()))}
    data["character"]["name"] = "Recovered"
    copy.write_text(json.dumps(data))
    answer(monkeypatch, QMessageBox.StandardButton.No)
    window = make_window("pf2e")  # type: ignore[operator]
    assert not window.offer_recovery()
    assert window.document.character.name != "Recovered"
    assert not copy.exists()


def test_a_stale_or_broken_copy_is_never_offered(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    save_character(sample_character("runarcana"), path)
    copy = recovery_file(tmp_path, path)
    copy.write_text("{not json")
    assert find_recovery(tmp_path, path) is None
    assert not copy.exists()

    copy.write_text(json.dumps({"saved_at": "2026-11-29T18:00:00+00:00",
                                "character": sample_character("runarcana").dump()}))
    os.utime(copy, (1, 1))  # saved since the copy was made
    assert find_recovery(tmp_path, path) is None
    assert not copy.exists()


def test_opening_a_file_from_the_menu_offers_its_recovery(
    qtbot: QtBot, make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "valeros.json"
    save_character(sample_character("pf2e"), path)
    first = make_window(sample_character("pf2e"), path)  # type: ignore[operator]
    type_into(qtbot, find(first, QSpinBox, "Dexterity modifier"), "5")
    first.autosaver.write_now()
    os.utime(path, (1, 1))

    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window("runarcana")  # type: ignore[operator]
    assert window.open_file(path)
    assert asked == ["Recover unsaved changes"]
    assert window.document.character.abilities.dex == 5
