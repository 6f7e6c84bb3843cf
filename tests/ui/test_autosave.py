"""Unsaved changes survive a crash: a recovery copy follows the edits and is offered back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.edit import MISSING, Change
from sheet_app.io import save_character
from sheet_app.model import CharacterBase
from tests.ui.helpers import MakeWindow, answer, find, type_into
from ui import document as document_module
from ui.autosave import RECOVERY_FORMAT, Autosaver, find_recovery, recovery_file
from ui.document import CharacterDocument


def sample(system: str) -> CharacterBase:
    return registry.get(system).sample()


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
    crashed.autosaver.write_now()  # then the crash: nothing cleans up
    assert crashed.autosaver.file.exists()
    os.utime(path, (1, 1))  # the file is older than the copy

    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window = make_window(sample("d20srd"), path)
    assert window.offer_recovery()
    assert asked == ["Recover unsaved changes"]
    assert window.document.value(("abilities", "con")) == 18
    assert window.isWindowModified()
    window.document.undo_stack.undo()  # recovering is one undoable step
    assert window.document.value(("abilities", "con")) == 16


def test_declining_a_recovery_deletes_it(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "recovery"
    copy = recovery_file(directory, None)
    directory.mkdir()
    data = {"saved_at": "2026-11-29T18:00:00+00:00",
            "character": json.loads(json.dumps(sample("pf2e").dump()))}
    data["character"]["name"] = "Recovered"
    copy.write_text(json.dumps(data))
    answer(monkeypatch, QMessageBox.StandardButton.No)
    window = make_window("pf2e")
    assert not window.offer_recovery()
    assert window.document.character.name != "Recovered"
    assert not copy.exists()


def test_a_stale_or_broken_copy_is_never_offered(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    save_character(sample("runarcana"), path)
    copy = recovery_file(tmp_path, path)
    copy.write_text("{not json")
    assert find_recovery(tmp_path, path) is None
    assert not copy.exists()

    copy.write_text(json.dumps({"saved_at": "2026-11-29T18:00:00+00:00",
                                "character": sample("runarcana").dump()}))
    os.utime(copy, (1, 1))  # saved since the copy was made
    assert find_recovery(tmp_path, path) is None
    assert not copy.exists()


def test_opening_a_file_from_the_menu_offers_its_recovery(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "valeros.json"
    save_character(sample("pf2e"), path)
    first = make_window(sample("pf2e"), path)
    type_into(qtbot, find(first, QSpinBox, "Dexterity modifier"), "5")
    first.autosaver.write_now()
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
    saver = Autosaver(document, tmp_path, delay_ms=10)
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
    saver = Autosaver(document, tmp_path, delay_ms=10)
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
    saver = Autosaver(document, tmp_path, delay_ms=10)
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
