"""New, Open, Save, Save As, Import, Export, recent files, the title and closing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app.io import load_character
from tests.ui.helpers import find, type_into


def choose_file(monkeypatch: pytest.MonkeyPatch, path: Path | str) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))


def test_save_then_open_round_trips(
    qtbot: QtBot, make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("pf2e")  # type: ignore[operator]
    window.document.character.__pydantic_extra__["from_the_future"] = {"keep": True}  # type: ignore[attr-defined]
    assert window.windowTitle().startswith("Untitled[*]")
    type_into(qtbot, find(window, QSpinBox, "Dexterity modifier"), "4")  # type: ignore[arg-type]
    window.roll_panel.roll()  # type: ignore[attr-defined]
    assert window.isWindowModified()  # type: ignore[attr-defined]

    target = tmp_path / "valeros"
    choose_file(monkeypatch, target)
    window.act_save.trigger()  # type: ignore[attr-defined]  # no path yet: Save As
    saved = tmp_path / "valeros.json"
    assert saved.exists()
    assert not window.isWindowModified()  # type: ignore[attr-defined]
    assert window.windowTitle() == "valeros.json[*] — Valeros — sheet-app"  # type: ignore[attr-defined]
    data = json.loads(saved.read_text())
    assert data["abilities"]["dex"] == 4
    assert data["from_the_future"] == {"keep": True}
    assert len(data["roll_log"]) == 1

    other = make_window("runarcana")  # type: ignore[operator]
    choose_file(monkeypatch, saved)
    other.act_open.trigger()  # type: ignore[attr-defined]
    assert other.document.system == "pf2e"  # type: ignore[attr-defined]
    assert other.document.character.dump() == window.document.character.dump()  # type: ignore[attr-defined]
    assert find(other, QSpinBox, "Dexterity modifier").value() == 4  # type: ignore[attr-defined]
    assert other.roll_panel.log_model.rowCount() == 1  # type: ignore[attr-defined]
    assert other.windowTitle().startswith("valeros.json[*]")  # type: ignore[attr-defined]
    assert not other.isWindowModified()  # type: ignore[attr-defined]
    assert other.recent_files()[0] == str(saved.resolve())  # type: ignore[attr-defined]

    type_into(qtbot, find(other, QSpinBox, "Dexterity modifier"), "5")  # type: ignore[arg-type]
    other.act_save.trigger()  # type: ignore[attr-defined]  # has a path: saves in place
    assert load_character(saved).abilities.dex == 5


def test_broken_import_shows_every_problem_and_keeps_sheet(
    make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    before = window.document.character.dump()  # type: ignore[attr-defined]
    broken = tmp_path / "broken.json"
    data = json.loads(json.dumps(before))
    data["abilities"]["str"] = 99
    data["skills"]["flying"] = "proficient"
    broken.write_text(json.dumps(data))
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *a: shown.append((title, text)))
    choose_file(monkeypatch, broken)

    window.act_import.trigger()  # type: ignore[attr-defined]

    assert len(shown) == 1
    title, text = shown[0]
    assert title == "Could not import broken.json"
    assert "abilities.str: Input should be less than or equal to 30" in text
    assert "skills: unknown skill 'flying'" in text
    assert "not changed" in text
    assert window.document.character.dump() == before  # type: ignore[attr-defined]
    assert window.document.undo_stack.count() == 0  # type: ignore[attr-defined]
    assert not window.isWindowModified()  # type: ignore[attr-defined]

    not_json = tmp_path / "notes.json"
    not_json.write_text("{ nope")
    choose_file(monkeypatch, not_json)
    window.act_open.trigger()  # type: ignore[attr-defined]
    assert "not valid JSON" in shown[-1][1]
    assert window.document.path is None  # type: ignore[attr-defined]
    assert window.document.character.dump() == before  # type: ignore[attr-defined]


def test_import_is_one_undoable_edit(
    make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    source = Path(__file__).parents[2] / "resources" / "samples" / "d20srd.json"
    choose_file(monkeypatch, source)
    window.act_import.trigger()  # type: ignore[attr-defined]
    assert window.document.system == "d20srd"  # type: ignore[attr-defined]
    assert window.sheet.property("system") == "d20srd"  # type: ignore[attr-defined]
    assert window.isWindowModified()  # type: ignore[attr-defined]
    window.act_undo.trigger()  # type: ignore[attr-defined]
    assert window.document.system == "runarcana"  # type: ignore[attr-defined]
    assert window.sheet.property("system") == "runarcana"  # type: ignore[attr-defined]
    assert find(window, QSpinBox, "Strength score").value() == 8  # type: ignore[attr-defined]


def test_export_has_derived_values(
    make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    out = tmp_path / "export.json"
    choose_file(monkeypatch, out)
    window.act_export.trigger()  # type: ignore[attr-defined]
    data = json.loads(out.read_text())
    assert data["derived"]["passive"]["perception"] == 19
    assert data["derived"]["statistics"]["skill:stealth"]["total"] == 7
    assert not window.isWindowModified()  # type: ignore[attr-defined]


def test_new_asks_for_system(make_window: object, monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("d20 SRD 3.5", True))
    window.act_new.trigger()  # type: ignore[attr-defined]
    assert window.document.system == "d20srd"  # type: ignore[attr-defined]
    assert window.document.path is None  # type: ignore[attr-defined]
    assert window.windowTitle() == "Untitled[*] — sheet-app"  # type: ignore[attr-defined]
    assert "ac:touch" in window.sheet.defense.buttons  # type: ignore[attr-defined]


def test_unsaved_changes_ask_before_closing(
    qtbot: QtBot, make_window: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "9")  # type: ignore[arg-type]
    asked: list[str] = []

    def answer(button: QMessageBox.StandardButton) -> None:
        monkeypatch.setattr(QMessageBox, "question",
                            lambda parent, title, text, *a: asked.append(text) or button)

    answer(QMessageBox.StandardButton.Cancel)
    assert not window.close()  # type: ignore[attr-defined]
    assert window.isVisible()  # type: ignore[attr-defined]
    assert asked == ["Save changes to this character first?"]
    answer(QMessageBox.StandardButton.Cancel)
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Pathfinder 2e", True))
    assert not window.new_file()  # type: ignore[attr-defined]
    assert window.document.system == "runarcana"  # type: ignore[attr-defined]
    answer(QMessageBox.StandardButton.Discard)
    assert window.close()  # type: ignore[attr-defined]


def test_standard_shortcuts(make_window: object) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    keys = {a.shortcut().toString() for a in window.findChildren(type(window.act_new))}  # type: ignore[attr-defined]
    assert {"Ctrl+N", "Ctrl+O", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+Q", "Ctrl+Z", "Ctrl+R"} <= keys


def test_title_follows_name_and_recent_menu_opens(
    qtbot: QtBot, make_window: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")  # type: ignore[operator]
    name = window.sheet.header.name  # type: ignore[attr-defined]
    name.selectAll()
    qtbot.keyClicks(name, "Luxanna")
    assert window.windowTitle() == "Untitled[*] — Luxanna — sheet-app"  # type: ignore[attr-defined]
    saved = tmp_path / "lux.json"
    choose_file(monkeypatch, saved)
    window.act_save_as.trigger()  # type: ignore[attr-defined]
    fresh = make_window("pf2e")  # type: ignore[operator]
    fresh._fill_recent()  # type: ignore[attr-defined]
    actions = fresh.recent_menu.actions()  # type: ignore[attr-defined]
    assert actions[0].text() == "&1 lux.json"
    actions[0].trigger()
    assert fresh.document.character.name == "Luxanna"  # type: ignore[attr-defined]
    assert fresh.document.system == "runarcana"  # type: ignore[attr-defined]
