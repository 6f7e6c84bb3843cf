"""Effects: toggling one changes the totals and which modifier wins in the roll panel."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from sheet_app.model import Effect, Modifier, new_character
from tests.ui.helpers import find
from ui.roll_panel import BreakdownModel


def item_bonus(name: str, value: int, target: str = "skill:stealth") -> Effect:
    return Effect(name=name, modifiers=[Modifier(type="item", value=value, targets=[target])])


def lines(model: BreakdownModel) -> dict[str, tuple[str, str, str | None]]:
    """label → (value, status, reason) for every modifier line the panel shows."""
    out: dict[str, tuple[str, str, str | None]] = {}
    rows = model.rows()
    for i, row in enumerate(rows):
        if row.kind != "line":
            continue
        parts = []
        for later in rows[i + 1:]:
            if later.kind != "reason":
                break
            parts.append(later.text.strip())
        out[row.text] = (row.value, row.status, " ".join(parts) or None)
    return out


def test_toggling_an_effect_changes_totals_and_winners(qtbot: QtBot, make_window: object) -> None:
    character = new_character("pf2e")
    character.skills = {"stealth": "trained"}
    character.effects = [item_bonus("Cloak", 2), item_bonus("Ring", 1)]
    window = make_window(character)  # type: ignore[operator]
    total = find(window, QPushButton, "Stealth total")
    assert total.text() == "+5"  # trained 1+2, Cloak +2
    window.selection.select("skill:stealth")  # type: ignore[attr-defined]
    panel = window.roll_panel  # type: ignore[attr-defined]
    shown = lines(panel.breakdown)
    assert shown["Cloak"][1].startswith("✔")
    assert shown["Ring"][1] == "✘"
    assert "higher item bonus" in (shown["Ring"][2] or "")

    effects = window.sheet.effects  # type: ignore[attr-defined]
    cloak_on = effects.model.index(0, 0)
    assert effects.model.data(cloak_on, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    # the user clicks the checkbox of the first effect
    window.sheet.tabs.setCurrentWidget(effects)  # type: ignore[attr-defined]
    view = effects.view
    rect = view.visualRect(cloak_on)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    assert window.document.character.effects[0].active is False  # type: ignore[attr-defined]
    assert total.text() == "+4"
    shown = lines(panel.breakdown)
    assert "Cloak" not in shown
    assert shown["Ring"][1].startswith("✔")
    assert panel.total.text() == "+4"

    window.act_undo.trigger()  # type: ignore[attr-defined]
    assert total.text() == "+5"
    assert lines(panel.breakdown)["Ring"][1] == "✘"


def test_quick_add_condition(make_window: object) -> None:
    window = make_window(new_character("pf2e"))  # type: ignore[operator]
    before = find(window, QPushButton, "Fortitude save total").text()
    effects = window.sheet.effects  # type: ignore[attr-defined]
    names = [a.text() for a in effects.conditions.menu().actions()]
    assert {"Frightened 1", "Sickened 1", "Heroism"} <= set(names)
    action = next(a for a in effects.conditions.menu().actions() if a.text() == "Frightened 1")
    action.trigger()
    assert window.document.character.effects[-1].name == "Frightened 1"  # type: ignore[attr-defined]
    after = find(window, QPushButton, "Fortitude save total").text()
    assert int(after.replace("−", "-")) == int(before.replace("−", "-")) - 1
    assert effects.modifiers.rowCount() == 1
    assert "status" in effects.modifiers.index(0, 0).data()


def test_conditions_exist_for_each_system(make_window: object) -> None:
    from ui.sections.effects import conditions

    expected = {"runarcana": {"Bless", "Blinded"}, "pf2e": {"Frightened 1", "Sickened 1",
                                                          "Heroism"},
                "d20srd": {"Haste", "Shield of Faith"}}
    for system, names in expected.items():
        assert names <= {effect.name for effect, _ in conditions(system)}
        window = make_window(system)  # type: ignore[operator]
        for effect, _ in conditions(system):  # every preset is valid on its own sheet
            assert window.document.insert(("effects",), 0, effect, "add")  # type: ignore[attr-defined]


def test_edit_modifier_value_type_and_targets(make_window: object) -> None:
    character = new_character("pf2e")
    character.effects = [item_bonus("Cloak", 2)]
    window = make_window(character)  # type: ignore[operator]
    mods = window.sheet.effects.modifiers  # type: ignore[attr-defined]
    assert mods.rowCount() == 1
    assert mods.setData(mods.index(0, 1), 3)
    assert window.document.character.effects[0].modifiers[0].value == 3  # type: ignore[attr-defined]
    assert find(window, QPushButton, "Stealth total").text() == "+3"
    assert mods.setData(mods.index(0, 2), "skill:stealth, skill:thievery")
    assert find(window, QPushButton, "Thievery total").text() == "+3"
    assert not mods.setData(mods.index(0, 2), "skill:flying")  # not a pf2e skill
    assert "flying" in window.statusBar().currentMessage()  # type: ignore[attr-defined]
    assert mods.setData(mods.index(0, 0), "fortune")
    assert window.document.character.effects[0].modifiers[0].mode == "fortune"  # type: ignore[attr-defined]
    assert mods.index(0, 1).data() == "—"
    assert not (mods.flags(mods.index(0, 1)) & Qt.ItemFlag.ItemIsEditable)
    assert mods.setData(mods.index(0, 0), "status")
    assert window.document.character.effects[0].modifiers[0].type == "status"  # type: ignore[attr-defined]


def test_inventory_edit_add_remove(make_window: object) -> None:
    window = make_window(new_character("runarcana"))  # type: ignore[operator]
    inv = window.sheet.inventory  # type: ignore[attr-defined]
    model = inv.model
    inv._add()
    inv.view.closePersistentEditor(model.index(0, 0))
    assert model.rowCount() == 1
    assert model.setData(model.index(0, 2), "12.5")
    assert model.setData(model.index(0, 1), 2)
    assert model.index(0, 3).data() == "25"
    assert inv.total.text() == "25 / 70 kg"
    assert not model.setData(model.index(0, 2), "heavy")
    inv.view.setCurrentIndex(model.index(0, 0))
    inv._remove()
    assert model.rowCount() == 0
    assert inv.total.text() == "0 / 70 kg"
    window.act_undo.trigger()  # type: ignore[attr-defined]
    assert model.rowCount() == 1
    assert model.index(0, 3).data() == "25"
