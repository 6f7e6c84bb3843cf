"""Unsaved changes survive a crash: a recovery copy follows the edits and is offered back.

A "crash" here is a window that stops without cleaning up: its copy stays on disk and its
instance lock and file lock are let go, as the operating system does for a killed process
(tests/ui/test_xvfb.py kills a real one)."""

from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app import io, registry
from sheet_app.edit import MISSING, Change
from sheet_app.io import save_character
from sheet_app.model import CharacterBase
from tests.ui.helpers import MakeWindow, answer, find, type_into
from ui import autosave as autosave_module
from ui import document as document_module
from ui.autosave import (
    IDLE_MS,
    MAX_WAIT_MS,
    RECOVERY_FORMAT,
    Autosaver,
    find_recoveries,
    recovery_key,
)
from ui.document import CharacterDocument
from ui.main_window import MainWindow


def sample(system: str) -> CharacterBase:
    return registry.get(system).sample()


def crash(window: MainWindow) -> Path:
    """Stop ``window`` the way a killed process stops: its last copy stays; its locks go."""
    window.autosaver.write_now()
    copy = window.autosaver.file
    assert copy.exists()
    window.release_file()
    window.detach()
    return copy


def copies(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json"))


@pytest.fixture(autouse=True)
def no_unexpected_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's own choice dialogs fail the test unless a test answers them."""

    def unexpected(self: MainWindow, title: str, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"unexpected dialog: {title}")

    monkeypatch.setattr(MainWindow, "_ask", unexpected)


def test_an_edit_is_kept_in_a_recovery_copy_until_saved(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path
) -> None:
    path = tmp_path / "lux.json"
    save_character(sample("runarcana"), path)
    window = make_window(sample("runarcana"), path)
    copy = window.autosaver.file
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")
    qtbot.waitUntil(copy.exists, timeout=5000)
    kept = json.loads(copy.read_text())
    assert kept["character"]["abilities"]["str"] == 17
    assert json.loads(path.read_text())["abilities"]["str"] == 8  # the file itself untouched

    window.save()
    assert not copy.exists()


def test_the_copy_is_written_promptly_and_never_later_than_the_max_wait(
    qtbot: QtBot, tmp_path: Path
) -> None:
    assert IDLE_MS <= 1000 and MAX_WAIT_MS <= 5000
    document = CharacterDocument(sample("pf2e"))
    saver = Autosaver(document, tmp_path, idle_ms=300, max_wait_ms=900)
    # steady typing, a letter every 150 ms: the pause the idle timer waits for never comes
    start = time.monotonic()
    first_write = None
    for i in range(16):
        document.set(("name",), f"Valeros {'x' * (i + 1)}")
        qtbot.wait(150)
        if first_write is None and saver.file.exists():
            first_write = time.monotonic() - start
            kept = json.loads(saver.file.read_text())["character"]["name"]
            assert kept.startswith("Valeros x")
    assert first_write is not None, "steady typing was never kept"
    assert first_write < 2.0  # ~0.9 s: the max-wait, not the end of the typing (2.4 s)

    # and one edit alone is kept after the short pause
    document.mark_saved()
    assert not saver.file.exists()
    document.set(("name",), "Valeros once")
    qtbot.waitUntil(saver.file.exists, timeout=2000)
    assert json.loads(saver.file.read_text())["character"]["name"] == "Valeros once"


def test_undoing_every_edit_drops_the_copy(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    type_into(qtbot, find(window, QSpinBox, "Dexterity modifier"), "4")
    window.autosaver.write_now()
    assert window.autosaver.file.exists()
    window.document.undo_stack.undo()
    assert not window.autosaver.file.exists()


def test_a_recovery_is_offered_and_restores_the_edits(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tordek.json"
    save_character(sample("d20srd"), path)
    crashed = make_window(sample("d20srd"), path)
    type_into(qtbot, find(crashed, QSpinBox, "Constitution score"), "18")
    copy = crash(crashed)
    os.utime(path, (1, 1))  # the file is older than the copy

    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window(sample("d20srd"), path)
    assert not window.read_only  # the crashed window's lock went with it
    assert window.offer_recovery()
    assert asked == ["Recover unsaved changes"]
    assert window.document.value(("abilities", "con")) == 18
    assert window.isWindowModified()
    assert copy.exists()  # until the recovered changes are saved (or the sheet replaced)
    window.document.undo_stack.undo()  # recovering is one undoable step
    assert window.document.value(("abilities", "con")) == 16
    window.document.undo_stack.redo()
    assert window.save()
    assert not copy.exists() and not window.autosaver.file.exists()
    assert json.loads(path.read_text())["abilities"]["con"] == 18


def test_declining_a_recovery_deletes_it_and_cancel_keeps_it(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "recovery"
    directory.mkdir()
    copy = directory / f"{recovery_key(None)}.4242-deadbeef.json"
    data = {"saved_at": "2026-11-29T18:00:00+00:00",
            "character": json.loads(json.dumps(sample("pf2e").dump()))}
    data["character"]["name"] = "Recovered"
    copy.write_text(json.dumps(data))
    window = make_window("pf2e")

    asked = answer(monkeypatch, QMessageBox.StandardButton.Cancel)  # decide later
    assert not window.offer_recovery()
    assert asked and copy.exists()

    answer(monkeypatch, QMessageBox.StandardButton.No)
    assert not window.offer_recovery()
    assert window.document.character.name != "Recovered"
    assert not copy.exists()


def test_a_broken_copy_is_not_offered_and_not_deleted(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    save_character(sample("runarcana"), path)
    copy = tmp_path / f"{recovery_key(path)}.4242-deadbeef.json"
    copy.write_text("{not json")
    assert find_recoveries(tmp_path, path) == []
    assert copy.exists()  # never deleted unseen


def test_a_copy_older_than_the_file_is_offered_anyway_with_both_times(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "lux.json"
    save_character(sample("runarcana"), path)
    crashed = make_window(sample("runarcana"), path)
    type_into(qtbot, find(crashed, QSpinBox, "Strength score"), "17")
    copy = crash(crashed)
    later = time.time() + 300  # `touch`, a sync tool, or a clock five minutes ahead
    os.utime(path, (later, later))

    texts: list[str] = []

    def question(_parent: object, title: str, text: str, *args: object) -> object:
        texts.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    window = make_window(sample("runarcana"), path)
    assert window.offer_recovery()
    [text] = texts
    found = json.loads(copy.read_text())
    kept_at = found["saved_at"][:19].replace("T", " ")
    file_at = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(later))
    assert kept_at in text and file_at in text
    assert "changed later" in text
    assert window.document.value(("abilities", "str")) == 17


def test_discard_then_cancel_keeps_the_copy(
    qtbot: QtBot, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")
    window.autosaver.write_now()
    copy = window.autosaver.file
    answer(monkeypatch, QMessageBox.StandardButton.Discard)

    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("", False))
    assert not window.new_file()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    assert not window.open_file()
    assert copy.exists()
    assert window.document.value(("abilities", "str")) == 17 and window.isWindowModified()

    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Pathfinder 2e", True))
    assert window.new_file()  # now the sheet is really replaced
    assert not copy.exists()


def test_closing_without_saving_drops_the_copy(
    qtbot: QtBot, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")
    window.autosaver.write_now()
    answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert window.autosaver.file.exists()
    answer(monkeypatch, QMessageBox.StandardButton.Discard)
    assert window.close()
    assert not window.autosaver.file.exists()


def test_a_file_name_that_is_not_utf8_gets_a_copy(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / os.fsdecode(b"caf\xe9.json")  # "café" written in Latin-1
    save_character(sample("runarcana"), path)
    assert os.fsencode(path).endswith(b"caf\xe9.json")
    crashed = make_window(sample("runarcana"), path)
    type_into(qtbot, find(crashed, QSpinBox, "Strength score"), "17")
    crashed.autosaver.write_now()
    assert not crashed.autosaver.failing
    assert crashed.autosaver.file.name.isascii()
    crash(crashed)

    answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window(sample("runarcana"), path)
    assert window.offer_recovery()
    assert window.document.value(("abilities", "str")) == 17
    assert window.save()
    assert json.loads(path.read_bytes())["abilities"]["str"] == 17


def test_a_failed_autosave_is_shown_until_one_succeeds(
    qtbot: QtBot, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    warning = window.autosave_warning
    assert warning.isHidden()

    real_write = io.write_text_atomic
    disk_full = True

    def write(path: Path, text: str) -> None:
        if disk_full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real_write(path, text)

    monkeypatch.setattr(autosave_module, "write_text_atomic", write)
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")
    window.autosaver.write_now()
    assert warning.isVisible()
    assert "Autosave failed: No space left on device" in warning.text.text()
    assert warning.icon.pixmap() is not None and not warning.icon.pixmap().isNull()
    type_into(qtbot, find(window, QSpinBox, "Dexterity score"), "15")
    window.autosaver.write_now()
    assert warning.isVisible()  # still failing: still said

    disk_full = False
    window.autosaver.write_now()
    assert warning.isHidden()
    assert window.autosaver.file.exists()


def test_an_unwritable_recovery_folder_is_shown(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path
) -> None:
    (tmp_path / "recovery").write_text("a file where the folder should be")
    window = make_window("runarcana")
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")
    qtbot.waitUntil(window.autosave_warning.isVisible, timeout=5000)
    assert window.autosave_warning.text.text().startswith("Autosave failed")
    (tmp_path / "recovery").unlink()
    window.autosaver.write_now()
    assert window.autosave_warning.isHidden()


def test_opening_a_file_from_the_menu_offers_its_recovery(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "valeros.json"
    save_character(sample("pf2e"), path)
    first = make_window(sample("pf2e"), path)
    type_into(qtbot, find(first, QSpinBox, "Dexterity modifier"), "5")
    crash(first)
    os.utime(path, (1, 1))

    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window("runarcana")
    assert window.open_file(path)
    assert asked == ["Recover unsaved changes"]
    assert window.document.value(("abilities", "dex")) == 5


# --- the undo stack the copy follows (a document alone, no window) ---------------------------


class Recorder:
    """What a document announced: its `edited` changes, rejections and snapshot swaps."""

    def __init__(self, document: CharacterDocument) -> None:
        self.changes: list[Change] = []
        self.rejections: list[str] = []
        self.derived = 0
        self.replaced = 0
        document.edited.connect(self.changes.append)
        document.rejected.connect(self.rejections.append)
        document.derivedChanged.connect(self._on_derived)
        document.replaced.connect(self._on_replaced)

    def _on_derived(self, old: object, new: object) -> None:
        assert old is not new
        self.derived += 1

    def _on_replaced(self) -> None:
        self.replaced += 1


@pytest.fixture
def document(qtbot: QtBot) -> CharacterDocument:
    """A d20srd sample (d10 hit die, level rolls 7, 4, 9) in a document of its own."""
    return CharacterDocument(sample("d20srd"))


def test_a_bare_document_s_edits_reach_the_copy_and_saving_drops_it(
    qtbot: QtBot, document: CharacterDocument, tmp_path: Path
) -> None:
    saver = Autosaver(document, tmp_path, idle_ms=10)
    assert document.set(("name",), "Tordek the Bold")
    qtbot.waitUntil(saver.file.exists, timeout=5000)
    kept = json.loads(saver.file.read_text())
    assert kept["format"] == RECOVERY_FORMAT
    assert kept["character"]["name"] == "Tordek the Bold"
    document.mark_saved()
    assert not saver.file.exists()


def test_an_edit_swaps_in_a_new_character_and_undo_swaps_the_old_one_back(
    document: CharacterDocument,
) -> None:
    seen = Recorder(document)
    old = document.character
    assert document.set(("abilities", "str"), 18)
    new = document.character
    assert new is not old
    assert old.dump()["abilities"]["str"] == 16  # the old character was never written to
    assert document.value(("abilities", "str")) == 18
    assert document.derived.abilities["str"] != CharacterDocument(old).derived.abilities["str"]
    assert seen.changes == [Change("set", ("abilities", "str"))]
    assert seen.derived == 1

    document.undo_stack.undo()
    assert document.character is old
    document.undo_stack.redo()
    assert document.character is new
    assert seen.changes[1:] == [Change("set", ("abilities", "str"))] * 2
    assert seen.derived == 3 and seen.replaced == 0


def test_a_refused_edit_changes_nothing_and_puts_the_widget_back(
    document: CharacterDocument, tmp_path: Path
) -> None:
    saver = Autosaver(document, tmp_path, idle_ms=10)
    seen = Recorder(document)
    before = document.character
    path = ("hit_points", "level_rolls", 0)
    assert not document.set(path, 12)
    assert seen.rejections == [
        "hit_points.level_rolls.0: level 2 roll 12 is higher than the hit die (d10)"]
    assert seen.changes == [Change("set", path)]  # the spin box shows 7 again
    assert seen.derived == 0
    assert document.character is before
    assert document.undo_stack.count() == 0 and not document.is_modified()
    saver.write_now()
    assert not saver.file.exists()


def test_setting_the_value_a_field_has_is_no_step(document: CharacterDocument) -> None:
    assert document.set(("abilities", "str"), 16)
    assert document.set(("skill_ranks", "hide"), MISSING)  # absent already
    assert document.undo_stack.count() == 0


def test_quick_edits_of_one_field_are_one_step_keeping_the_first_old_value(
    document: CharacterDocument,
) -> None:
    first = document.character
    for value in (1, 18):  # typing "18"
        assert document.set(("abilities", "str"), value)
    assert document.undo_stack.count() == 1
    assert document.value(("abilities", "str")) == 18
    document.undo_stack.undo()
    assert document.character is first


def test_quick_edits_back_to_where_they_started_leave_no_step(
    document: CharacterDocument, tmp_path: Path
) -> None:
    saver = Autosaver(document, tmp_path, idle_ms=10)
    assert document.set(("abilities", "str"), 1)
    assert document.set(("abilities", "str"), 16)
    assert document.undo_stack.count() == 0
    assert not document.is_modified()
    saver.write_now()
    assert not saver.file.exists()


def test_edits_merge_only_within_the_window_and_field_and_when_asked(
    document: CharacterDocument, monkeypatch: pytest.MonkeyPatch
) -> None:
    document.set(("abilities", "str"), 17)
    document.set(("abilities", "dex"), 14)  # another field
    document.set(("abilities", "dex"), 15, merge=False)  # a roll: its own step
    monkeypatch.setattr(document_module, "MERGE_WINDOW_S", -1.0)  # too slow
    document.set(("abilities", "str"), 18)
    assert document.undo_stack.count() == 4
    assert [document.undo_stack.text(i) for i in range(2)] == ["Edit abilities str",
                                                               "Edit abilities dex"]


def test_list_edits_announce_rows_both_ways(document: CharacterDocument) -> None:
    seen = Recorder(document)
    count = len(document.value(("effects",)))
    assert document.insert(("effects",), 99, {"name": "Bless"}, "Add effect")
    assert document.value(("effects", count, "name")) == "Bless"
    assert document.remove(("effects",), 0, "Remove effect")
    assert [document.undo_stack.text(i) for i in range(2)] == ["Add effect", "Remove effect"]
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert len(document.value(("effects",))) == count
    assert seen.changes == [
        Change("insert", ("effects",), count),  # the clamped row
        Change("remove", ("effects",), 0),
        Change("insert", ("effects",), 0),
        Change("remove", ("effects",), count),
    ]


def test_a_refused_list_edit_is_reported(document: CharacterDocument) -> None:
    seen = Recorder(document)
    assert not document.remove(("effects",), 40)
    assert seen.rejections == ["effects: nothing to remove at 40"]
    assert not document.insert(("effects",), 0, {"name": "Rage", "modifiers": [
        {"type": "furious", "value": 2, "targets": ["check"]}]})
    assert "'furious' is not a d20srd modifier type" in seen.rejections[1]
    assert document.undo_stack.count() == 0


def test_importing_is_one_undoable_step_that_rebinds_everything(
    document: CharacterDocument,
) -> None:
    seen = Recorder(document)
    before = document.character
    imported = sample("pf2e")
    assert document.replace(imported, "Import valeros.json")
    assert document.character is imported and document.system == "pf2e"
    assert seen.replaced == 1 and seen.changes == [Change("reset")]
    document.undo_stack.undo()
    assert document.character is before and document.system == "d20srd"
    assert seen.replaced == 2


def test_loading_starts_a_clean_history(document: CharacterDocument, tmp_path: Path) -> None:
    document.set(("name",), "Changed")
    paths: list[Path | None] = []
    document.pathChanged.connect(lambda: paths.append(document.path))
    document.load(sample("runarcana"), tmp_path / "lux.json")
    assert document.undo_stack.count() == 0 and not document.is_modified()
    assert document.system == "runarcana"
    assert paths == [tmp_path / "lux.json"]
