"""New, Open, Save, Save As, Import, Export, recent files, the title and closing."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import create_model
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.io import load_character, save_character
from sheet_app.model import CharacterBase
from sheet_app.registry import RuleSystem
from sheet_app.systems.base import BasicSystem
from tests.ui.helpers import MakeWindow, find, sheet_of, type_into, type_text


def choose_file(monkeypatch: pytest.MonkeyPatch, path: Path | str) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))


def test_save_then_open_round_trips(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pf2e = registry.get("pf2e")
    data = pf2e.sample().dump()
    data["from_the_future"] = {"keep": True}
    window = make_window(pf2e.model.model_validate(data))
    assert window.windowTitle().startswith("Untitled[*]")
    type_into(qtbot, find(window, QSpinBox, "Dexterity modifier"), "4")
    window.roll_panel.roll()
    assert window.isWindowModified()

    target = tmp_path / "valeros"
    choose_file(monkeypatch, target)
    window.act_save.trigger()  # no path yet: Save As
    saved = tmp_path / "valeros.json"
    assert saved.exists()
    assert not window.isWindowModified()
    assert window.windowTitle() == "valeros.json[*] — Valeros — sheet-app"
    data = json.loads(saved.read_text())
    assert data["abilities"]["dex"] == 4
    assert data["from_the_future"] == {"keep": True}
    assert len(data["roll_log"]) == 1

    assert window.close()  # one window per file: the next one owns it (not read-only)
    other = make_window("runarcana")
    choose_file(monkeypatch, saved)
    other.act_open.trigger()
    assert other.document.system == "pf2e"
    assert other.document.character.dump() == window.document.character.dump()
    assert find(other, QSpinBox, "Dexterity modifier").value() == 4
    assert other.roll_panel.log_model.rowCount() == 1
    assert other.windowTitle().startswith("valeros.json[*]")
    assert not other.isWindowModified()
    assert other.recent_files()[0] == str(saved.resolve())

    type_into(qtbot, find(other, QSpinBox, "Dexterity modifier"), "5")
    other.act_save.trigger()  # has a path: saves in place
    assert load_character(saved).dump()["abilities"]["dex"] == 5


def test_broken_import_shows_every_problem_and_keeps_sheet(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    before = window.document.character.dump()
    broken = tmp_path / "broken.json"
    data = json.loads(json.dumps(before))
    data["abilities"]["str"] = 99
    data["skills"]["flying"] = "proficient"
    broken.write_text(json.dumps(data))
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *a: shown.append((title, text)))
    choose_file(monkeypatch, broken)

    window.act_import.trigger()

    assert len(shown) == 1
    title, text = shown[0]
    assert title == "Could not import broken.json"
    assert "abilities.str: Input should be less than or equal to 30" in text
    assert "skills: unknown skill 'flying'" in text
    assert "not changed" in text
    assert window.document.character.dump() == before
    assert window.document.undo_stack.count() == 0
    assert not window.isWindowModified()

    not_json = tmp_path / "notes.json"
    not_json.write_text("{ nope")
    choose_file(monkeypatch, not_json)
    window.act_open.trigger()
    assert "not valid JSON" in shown[-1][1]
    assert window.document.path is None
    assert window.document.character.dump() == before


def test_import_is_one_undoable_edit(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    source = tmp_path / "d20srd.json"
    save_character(registry.get("d20srd").sample(), source)
    choose_file(monkeypatch, source)
    window.act_import.trigger()
    assert window.document.system == "d20srd"
    assert sheet_of(window).property("system") == "d20srd"
    assert window.isWindowModified()
    window.act_undo.trigger()
    assert window.document.system == "runarcana"
    assert sheet_of(window).property("system") == "runarcana"
    assert find(window, QSpinBox, "Strength score").value() == 8


def test_export_has_derived_values(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    out = tmp_path / "export.json"
    choose_file(monkeypatch, out)
    window.act_export.trigger()
    data = json.loads(out.read_text())
    assert data["derived"]["passive"]["perception"] == 19
    assert data["derived"]["statistics"]["skill:stealth"]["total"] == 7
    assert not window.isWindowModified()


def test_new_asks_for_system(make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window("runarcana")
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("d20 SRD 3.5", True))
    window.act_new.trigger()
    assert window.document.system == "d20srd"
    assert window.document.path is None
    assert window.windowTitle() == "Untitled[*] — sheet-app"
    assert "ac:touch" in sheet_of(window).defense.buttons


def test_unsaved_changes_ask_before_closing(
    qtbot: QtBot, make_window: MakeWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "9")
    asked: list[str] = []

    def answer(button: QMessageBox.StandardButton) -> None:
        def question(_parent: object, _title: str, text: str,
                     *_args: object) -> QMessageBox.StandardButton:
            asked.append(text)
            return button

        monkeypatch.setattr(QMessageBox, "question", question)

    answer(QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert window.isVisible()
    assert asked == ["Save changes to this character first?"]
    answer(QMessageBox.StandardButton.Cancel)
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Pathfinder 2e", True))
    assert not window.new_file()
    assert window.document.system == "runarcana"
    answer(QMessageBox.StandardButton.Discard)
    assert window.close()


def test_standard_shortcuts(make_window: MakeWindow) -> None:
    window = make_window("runarcana")
    keys = {a.shortcut().toString() for a in window.findChildren(type(window.act_new))}
    assert {"Ctrl+N", "Ctrl+O", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+Q", "Ctrl+Z", "Ctrl+R"} <= keys


def test_title_follows_name_and_recent_menu_opens(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window("runarcana")
    name = sheet_of(window).header.name
    assert isinstance(name, QLineEdit)
    name.selectAll()
    type_text(name, "Luxanna")
    assert window.windowTitle() == "Untitled[*] — Luxanna — sheet-app"
    saved = tmp_path / "lux.json"
    choose_file(monkeypatch, saved)
    window.act_save_as.trigger()
    assert window.close()  # one window per file
    fresh = make_window("pf2e")
    fresh._fill_recent()
    actions = fresh.recent_menu.actions()
    assert actions[0].text() == "&1 lux.json"
    actions[0].trigger()
    assert fresh.document.character.name == "Luxanna"
    assert fresh.document.system == "runarcana"


@pytest.fixture(params=registry.known_ids())
def homebrew(request: pytest.FixtureRequest) -> Iterator[RuleSystem]:
    """A copy of a built-in system under another id and name, registered at run time (as a
    plug-in would be): the window must show it from its description alone."""
    original = registry.get(request.param)
    assert isinstance(original, BasicSystem)
    new_id = f"homebrew_{request.param}"
    system_type: Any = Literal[new_id]  # built at run time, so not a static type
    base: type[CharacterBase] = original.model  # (a name: pydantic's mypy plugin sees its type)
    model = create_model(f"Homebrew{request.param.capitalize()}", __base__=base,
                         system=(system_type, new_id))
    name = f"Homebrew & Co ({original.name})"
    copy = dataclasses.replace(
        original, id=new_id, name=name, model_type=model,
        sheet_fn=lambda: dataclasses.replace(original.sheet(), system_name=name),
    )
    registry.register(copy)
    try:
        yield copy
    finally:
        registry.unregister(new_id)


def test_a_system_registered_at_run_time_opens_with_no_ui_change(
    homebrew: RuleSystem, make_window: MakeWindow, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = registry.get(homebrew.id.removeprefix("homebrew_")).sample().dump()
    data["system"] = homebrew.id
    character = homebrew.model.model_validate(data)
    window = make_window(character)
    sheet = sheet_of(window)
    spec = homebrew.sheet()
    assert sheet.property("system") == homebrew.id
    assert sheet.header.system_badge.text() == spec.system_name
    assert set(sheet.skills.rows) == {row.stat_id for row in spec.skills}
    assert set(sheet.saves.rows) == {row.stat_id for row in spec.saves}
    assert list(sheet.defense.buttons) == [
        stat for stat, _ in spec.defenses if stat in window.document.derived.statistics]
    assert sheet.abilities.title.text() == spec.abilities.title.upper()
    assert sheet.armor.controls.keys() == {c.path for _, group in spec.armor for c in group}
    stealthy = next(iter(sheet.skills.rows.values()))
    stealthy.total.click()
    assert window.roll_panel.title.text() == stealthy.name.text()
    window.roll_panel.roll()
    assert window.document.character.roll_log

    # saved and opened again like any other sheet
    path = tmp_path / "homebrew.json"
    choose_file(monkeypatch, path)
    window.act_save_as.trigger()
    assert json.loads(path.read_text())["system"] == homebrew.id
    assert window.close()  # one window per file
    other = make_window("runarcana")
    choose_file(monkeypatch, path)
    other.act_open.trigger()
    assert other.document.system == homebrew.id
    assert sheet_of(other).header.system_badge.text() == spec.system_name

    # and offered by File ▸ New
    other._fill_new_menu()
    assert homebrew.name in [a.text().replace("&&", "&") for a in other.new_menu.actions()]
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: (homebrew.name, True))
    assert other.new_file()
    assert other.document.system == homebrew.id
    assert other.document.character.name == ""
