"""The table and tree models keep Qt's model contract (pytest-qt's qtmodeltester), declare
their columns as data, and every colour lives in the theme."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from sheet_app.model import Effect, Item, Modifier
from tests.ui.helpers import MakeWindow, blank, check_model, sheet_of
from ui import theme
from ui.roll_panel import BreakdownModel, RollLogModel
from ui.sections.effects import EffectsModel, ModifiersModel
from ui.sections.tables import Column, ColumnTableModel

UI = Path(__file__).resolve().parents[2] / "ui"



def test_inventory_model(qtmodeltester: ModelTester, make_window: MakeWindow) -> None:
    items = [Item(name=f"Thing {i}", quantity=i, weight=0.5) for i in range(5)]
    window = make_window(blank("runarcana", inventory=items))
    model = sheet_of(window).inventory.model
    check_model(qtmodeltester, model)
    model.add_item(2)
    model.remove_item(0)
    model.setData(model.index(1, 0), "Renamed")
    check_model(qtmodeltester, model)
    assert model.rowCount() == 5


def test_bulk_inventory_model(qtmodeltester: ModelTester, make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    model = sheet_of(window).inventory.model
    check_model(qtmodeltester, model)
    assert model.setData(model.index(0, 2), "L")
    assert model.index(0, 2).data() == "L"
    assert model.setData(model.index(0, 2), "-")
    assert model.index(0, 2).data() == "—"
    assert not model.setData(model.index(0, 2), "heavy")


def test_effects_and_modifiers_models(qtmodeltester: ModelTester, make_window: MakeWindow) -> None:
    effects = [
        Effect(name=f"E{i}", modifiers=[Modifier(type="luck", value=1, targets=["skill"])])
        for i in range(3)
    ]
    effects.append(Effect(name="Shaken", condition="shaken"))
    window = make_window(blank("d20srd", effects=effects))
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet._effects)
    panel = sheet.effects
    check_model(qtmodeltester, panel.model)
    check_model(qtmodeltester, panel.modifiers)
    panel.modifiers.add(mode=False)
    panel.view.selectRow(1)
    assert panel.modifiers.effect_row == 1
    window.document.remove(("effects",), 0, "remove")
    check_model(qtmodeltester, panel.model)
    check_model(qtmodeltester, panel.modifiers)
    assert panel.modifiers.effect_row == panel.view.currentIndex().row()
    panel.view.selectRow(2)  # the condition: its computed modifiers, read-only
    assert panel.modifiers.rowCount() >= 1
    check_model(qtmodeltester, panel.modifiers)


def test_a_condition_value_edit_keeps_the_contract(
    qtmodeltester: ModelTester, make_window: MakeWindow
) -> None:
    window = make_window(blank("pf2e", effects=[
        Effect(name="Frightened 1", condition="frightened", value=1,
               modifiers=[Modifier(type="circumstance", value=-1, targets=["ac"])])]))
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet._effects)
    panel = sheet.effects
    check_model(qtmodeltester, panel.model)
    check_model(qtmodeltester, panel.modifiers)
    assert panel.model.setData(panel.model.index(0, EffectsModel.VALUE), 2)
    panel.modifiers.add(mode=True)
    panel.modifiers.remove(0)
    check_model(qtmodeltester, panel.model)
    check_model(qtmodeltester, panel.modifiers)


def test_breakdown_and_log_models(qtmodeltester: ModelTester, make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    breakdown = BreakdownModel()
    breakdown.set_statistic(window.document.derived.statistics["skill:athletics"])
    assert [r.kind for r in breakdown.rows()][:2] == ["group", "line"]
    check_model(qtmodeltester, breakdown)
    panel = window.roll_panel
    for _ in range(3):
        panel.roll()
    check_model(qtmodeltester, panel.log_model)
    assert panel.log_model.rowCount() == 3


@pytest.mark.parametrize(
    "model", [BreakdownModel, RollLogModel, EffectsModel, ModifiersModel],
    ids=lambda m: m.__name__,
)
def test_columns_are_declared_as_data(model: type[ColumnTableModel]) -> None:
    columns = model.columns
    assert columns and all(isinstance(c, Column) for c in columns)
    assert sum(c.resize == "stretch" for c in columns) == 1
    for column in columns:
        assert column.show is not None or column.checked is not None, column.header
        assert (column.editor is None) == (column.write is None), column.header


def test_column_headers_and_sizes_reach_the_views(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    sheet = sheet_of(window)
    sheet.tabs.setCurrentWidget(sheet._effects)
    for view in (sheet.effects.view, sheet.effects.mod_view, window.roll_panel.log):
        model = view.model()
        assert isinstance(model, ColumnTableModel)
        header = view.horizontalHeader()
        for section, column in enumerate(model.columns):
            assert model.headerData(section, header.orientation()) == column.header
            if column.resize != "stretch":
                assert header.sectionSize(section) == column.width


# --- the theme -----------------------------------------------------------------------------


def test_look_refuses_an_unknown_name(qtbot: QtBot) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    theme.look(label, "hint")
    assert label.objectName() == "hint"
    with pytest.raises(KeyError, match="noSuchLook"):
        theme.look(label, "noSuchLook")
    assert label.objectName() == "hint"


COLOUR = re.compile(
    r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?\b"  # "#8a8f98", "#555"
    r"|QColor\(\s*(?:['\"\d]|Qt\.)"  # QColor("red"), QColor(12, 3, 4), QColor(Qt.red)
    r"|Qt\.GlobalColor|\bQt\.(?:black|white|red|green|blue|gray|darkGray|lightGray)\b"
    r"|\brgba?\(\s*\d"  # rgb(1, 2, 3) in rich text
    r"|color\s*:\s*[a-zA-Z]+\s*[;'\"]"  # color:red in rich text
)


def test_no_colour_outside_the_theme() -> None:
    found = []
    for path in sorted(UI.rglob("*.py")):
        if path.name == "theme.py" and path.parent == UI:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("  # ")[0] if not line.lstrip().startswith("#") else ""
            if COLOUR.search(code):
                found.append(f"{path.relative_to(UI.parent)}:{number}: {line.strip()}")
    assert found == []


def test_the_colour_check_catches_literals() -> None:
    for literal in ('x = "#8a8f98"', "QColor('red')", "QColor(1, 2, 3)",
                    "f\"<span style='color:#555'>\"", "<b style='color:red'>",
                    "Qt.GlobalColor.red"):
        assert COLOUR.search(literal), literal
    for fine in ("look(w, 'hint')", "qcolor(APPLIED_COLOR)", "f\"color:{SUPPRESSED_COLOR}\"",
                 "# a comment", "x = 12  # noqa"):
        assert not COLOUR.search(fine), fine


def test_light_palette_is_complete() -> None:
    roles = theme.light_palette()
    assert len(roles) >= 10
    palette = theme.application_palette()
    for role, colour in roles.items():
        assert palette.color(role).name() == colour
