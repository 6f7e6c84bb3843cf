"""The roll panel keeps its controls in place, shows only rolls still in the log, turns off
what does nothing, and says why a roll was not made with the mode asked for."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QWidget

from sheet_app import registry
from sheet_app.model import CharacterBase, Effect, Modifier
from tests.ui.helpers import MakeWindow, blank
from ui.roll_panel import RollPanel, prompt_html


def plain(rich: str) -> str:
    """What a rich-text label shows, as plain text."""
    document = QTextDocument()
    document.setHtml(rich)
    return document.toPlainText().replace("\u00a0", " ")


def settled(panel: RollPanel) -> None:
    """Let the panel's layouts run, as they would before the next click."""
    QApplication.processEvents()
    layout = panel.layout()
    assert layout is not None
    layout.activate()
    QApplication.processEvents()


def place(widget: QWidget, panel: RollPanel) -> QRect:
    """``widget``'s rectangle in the panel's coordinates."""
    return QRect(widget.mapTo(panel, QPoint(0, 0)), widget.size())


def mode_effect(name: str, mode: str, target: str = "skill:stealth") -> Effect:
    return Effect(name=name, modifiers=[Modifier(mode=mode, targets=[target])])


def lucky_pf2e() -> CharacterBase:
    """pf2e's sample, its Stealth rolled with fortune (a mode note under the buttons)."""
    character = registry.get("pf2e").sample()
    character.effects = [*character.effects, mode_effect("Lucky charm", "fortune")]
    return character


def test_controls_keep_their_place_whatever_is_selected_or_rolled(
    make_window: MakeWindow,
) -> None:
    window = make_window(lucky_pf2e())
    panel = window.roll_panel
    controls = {"DC": panel.dc, "Roll": panel.buttons["normal"],
                "Fortune": panel.buttons["fortune"], "Typical": panel.dc_presets,
                "Copy": panel.copy, "Clear": panel.clear}
    window.selection.select("skill:athletics")
    settled(panel)
    first = {name: place(widget, panel) for name, widget in controls.items()}
    assert not panel.mode_note.isVisible()

    def check(what: str) -> None:
        settled(panel)
        now = {name: place(widget, panel) for name, widget in controls.items()}
        assert now == first, what

    window.selection.select("ac")  # not rolled: a note line
    assert panel.notes.isVisible() and "not rolled" in panel.notes.text()
    check("AC")
    window.selection.select("skill:stealth")  # a mode from an effect: a mode note
    assert panel.mode_note.isVisible() and "Lucky charm" in panel.mode_note.text()
    check("a statistic with a mode note")
    window.selection.select("attack:longsword")
    check("a weapon's attack")
    panel.dc.setValue(0)  # no odds at all
    check("no DC")
    panel.dc.setValue(15)
    panel.roll()  # the attack's verdict and damage buttons appear
    assert panel.attack_actions.isVisible()
    check("after an attack")
    panel.roll_damage()
    check("after its damage")
    window.selection.select("skill:stealth")
    panel.roll()
    check("after a roll with a mode")
    window.selection.select("perception")
    check("perception")


def test_a_long_name_is_cut_not_wrapped(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    panel = window.roll_panel
    window.selection.select("skill:athletics")
    settled(panel)
    height = panel.header.height()
    long_name = "Longsword of the Everlasting Dawn and the Seven Sleepless Kings, 3rd Strike"
    panel.title.setText(long_name)
    panel.title.refresh_tip()
    settled(panel)
    assert panel.header.height() == height
    assert panel.title.text() == long_name  # read whole by screen readers
    assert panel.title.shown_text().endswith("…")
    assert panel.title.toolTip() == long_name
    assert panel.minimumSizeHint().width() < 400


def test_the_result_goes_when_its_roll_leaves_the_log(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    panel = window.roll_panel
    document = window.document
    window.selection.select("skill:athletics")

    panel.roll()
    assert panel.result.text() != prompt_html()
    window.act_undo.trigger()  # every roll undone
    assert panel.result.text() == prompt_html() and panel.last is None

    panel.roll()
    panel.roll()
    window.act_undo.trigger()  # the roll shown is undone; an older one stays in the log
    assert panel.result.text() == prompt_html()
    window.act_redo.trigger()
    panel.roll()
    panel.clear.click()  # the log emptied
    assert panel.result.text() == prompt_html()

    panel.roll()
    kept = panel.result.text()
    document.set(("name",), "Someone else")  # other edits leave it
    assert panel.result.text() == kept

    document.load(registry.get("pf2e").new_character(), None)  # New
    assert panel.result.text() == prompt_html() and panel.last is None

    window.selection.select("skill:athletics")
    panel.roll()
    document.load(registry.get("runarcana").sample(), None)  # Open, another system
    assert panel.result.text() == prompt_html()

    window.selection.select("skill:athletics")
    panel.roll()
    document.replace(registry.get("pf2e").sample(), "Import")  # Import
    assert panel.result.text() == prompt_html()


def test_an_undone_damage_roll_shows_its_attack_again(make_window: MakeWindow) -> None:
    window = make_window("pf2e", seed=4)
    panel = window.roll_panel
    window.selection.select("attack:longsword")
    attack = panel.roll()
    assert attack is not None
    attack_text = panel.result.text()
    panel.roll_damage()
    damage = panel.last_damage
    assert panel.result.text() != attack_text and damage is not None
    window.act_undo.trigger()  # the damage undone: the attack is shown again
    assert panel.result.text() == attack_text
    assert panel.attack_actions.isVisible()
    assert panel.last is attack
    assert panel.last_damage is None
    window.act_undo.trigger()  # the attack undone too
    assert panel.result.text() == prompt_html()
    assert not panel.attack_actions.isVisible()


def test_modes_are_off_for_what_is_not_rolled(make_window: MakeWindow) -> None:
    window = make_window("pf2e")
    panel = window.roll_panel
    window.selection.select("ac")
    for mode, button in panel.buttons.items():
        assert not button.isEnabled(), mode
        assert "not rolled" in button.toolTip(), mode
    assert "Fortune does nothing here" in panel.buttons["fortune"].toolTip()
    window.selection.select("skill:athletics")
    for mode, button in panel.buttons.items():
        assert button.isEnabled(), mode
        assert "not rolled" not in button.toolTip(), mode


def test_a_cancelled_mode_is_explained_in_the_result(make_window: MakeWindow) -> None:
    character = blank("pf2e", effects=[mode_effect("Lucky charm", "fortune"),
                                       mode_effect("Cursed", "misfortune")])
    window = make_window(character)
    panel = window.roll_panel
    window.selection.select("skill:stealth")
    result = panel.roll()
    assert result is not None and result.mode == "normal" and len(result.dice) == 1
    shown = plain(panel.result.text())
    assert "Fortune from Lucky charm and misfortune from Cursed cancel: normal roll" in shown

    # the player's own request cancels against the sheet's
    window.document.set(("effects",), [mode_effect("Cursed", "misfortune")])
    result = panel.roll("fortune")
    assert result is not None and result.mode == "normal"
    assert "Misfortune from Cursed and fortune from your request cancel" in plain(
        panel.result.text())

    # a mode from the sheet names its source; one asked for alone does not need to
    window.document.set(("effects",), [mode_effect("Lucky charm", "fortune")])
    panel.roll()
    assert "(fortune from Lucky charm)" in plain(panel.result.text())
    window.document.set(("effects",), [])
    panel.roll("fortune")
    shown = plain(panel.result.text())
    assert "(fortune)" in shown and "cancel" not in shown
