"""The table and tree models keep Qt's model contract (pytest-qt's qtmodeltester)."""

from __future__ import annotations

from pytestqt.modeltest import ModelTester

from sheet_app.model import Effect, Item, Modifier, new_character
from ui.roll_panel import BreakdownModel


def test_inventory_model(qtmodeltester: ModelTester, make_window: object) -> None:
    character = new_character("runarcana")
    character.inventory = [Item(name=f"Thing {i}", quantity=i, weight=0.5) for i in range(5)]
    window = make_window(character)  # type: ignore[operator]
    model = window.sheet.inventory.model  # type: ignore[attr-defined]
    qtmodeltester.check(model)
    model.add_item(2)
    model.remove_item(0)
    model.setData(model.index(1, 0), "Renamed")
    qtmodeltester.check(model)
    assert model.rowCount() == 5


def test_pf2e_inventory_model(qtmodeltester: ModelTester, make_window: object) -> None:
    window = make_window("pf2e")  # type: ignore[operator]
    model = window.sheet.inventory.model  # type: ignore[attr-defined]
    qtmodeltester.check(model)
    assert model.setData(model.index(0, 2), "L")
    assert model.index(0, 2).data() == "L"
    assert model.setData(model.index(0, 2), "-")
    assert model.index(0, 2).data() == "—"
    assert not model.setData(model.index(0, 2), "heavy")


def test_effects_and_modifiers_models(qtmodeltester: ModelTester, make_window: object) -> None:
    character = new_character("d20srd")
    character.effects = [
        Effect(name=f"E{i}", modifiers=[Modifier(type="luck", value=1, targets=["skill"])])
        for i in range(3)
    ]
    window = make_window(character)  # type: ignore[operator]
    panel = window.sheet.effects  # type: ignore[attr-defined]
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.modifiers)
    panel.modifiers.add(mode=False)
    panel.view.selectRow(1)
    assert panel.modifiers.effect_row == 1
    window.document.remove(("effects",), 0, "remove")  # type: ignore[attr-defined]
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.modifiers)
    assert panel.modifiers.effect_row == panel.view.currentIndex().row()


def test_breakdown_and_log_models(qtmodeltester: ModelTester, make_window: object) -> None:
    window = make_window("pf2e")  # type: ignore[operator]
    breakdown = BreakdownModel()
    breakdown.set_statistic(window.document.derived.statistics["skill:athletics"])  # type: ignore[attr-defined]
    assert [r.kind for r in breakdown.rows()][:2] == ["group", "line"]
    qtmodeltester.check(breakdown)
    panel = window.roll_panel  # type: ignore[attr-defined]
    for _ in range(3):
        panel.roll()
    qtmodeltester.check(panel.log_model)
    assert panel.log_model.rowCount() == 3
