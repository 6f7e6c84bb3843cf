"""Abilities: scores entered and modifiers derived, or modifiers entered, as the system says."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from sheet_app.derived import AbilityValue
from sheet_app.facts import ABILITY_NAMES
from sheet_app.sheetspec import Number
from ui.context import SheetContext
from ui.controls import control_for
from ui.format import ability_html, signed
from ui.theme import look
from ui.widgets import ClickableLabel, DerivedLabel, RollButton, Section

PROFICIENCY_CAPTION = "Proficiency"


class AbilityBlock:
    """One ability on one grid row: name, the entered value, the derived modifier, a die.

    ``effective`` shows the score after effects when they change it ("→ 19")."""

    def __init__(
        self, ctx: SheetContext, abbr: str, spec: Number, grid: QGridLayout, row: int
    ) -> None:
        self.ctx = ctx
        self.abbr = abbr
        self.kind = ctx.sheet.abilities.kind
        name = ABILITY_NAMES.get(abbr, spec.label)
        check = f"ability:{abbr}" if f"ability:{abbr}" in ctx.document.derived.statistics else ""
        self.name = ClickableLabel(abbr.upper(), ctx, check)
        look(self.name, "abilityName")
        self.name.setToolTip(name)
        self.input = control_for(ctx, spec)
        self.name.setBuddy(self.input)
        self.effective = DerivedLabel(f"{name} effective {self.kind}")
        look(self.effective, "effectiveScore")
        self.modifier = DerivedLabel(f"{name} modifier")
        look(self.modifier, "abilityModifier")
        grid.addWidget(self.name, row, 0)
        grid.addWidget(self.input, row, 1)
        grid.addWidget(self.effective, row, 2)
        grid.addWidget(self.modifier, row, 3)
        if check:
            grid.addWidget(RollButton(ctx, check, f"{name} check"), row, 4)
        ctx.binder.bind_derived(("ability", abbr), self.show_ability)

    def show_ability(self, ability: AbilityValue | None) -> None:
        if ability is None:
            return
        kind = self.kind
        explain = lambda: ability_html(ability, kind)  # noqa: E731
        changed = ability.score is not None and ability.score != ability.base
        effective = ""
        if changed:
            effective = signed(ability.score or 0) if kind == "modifier" else f"→ {ability.score}"
        self.effective.show_value(effective, explain)
        self.modifier.show_value("—" if ability.score is None else signed(ability.modifier),
                                 explain)


class AbilitiesSection(Section):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        spec = ctx.sheet.abilities
        super().__init__(spec.title, parent)
        grid = QGridLayout(self.body)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(3)
        grid.setColumnStretch(2, 1)
        self.blocks = {
            abbr: AbilityBlock(ctx, abbr, number, grid, row)
            for row, (abbr, number) in enumerate(spec.inputs.items())
        }
        if spec.proficiency is not None:
            row = len(spec.inputs)
            caption = QLabel(PROFICIENCY_CAPTION)
            look(caption, "caption")
            self.proficiency = control_for(ctx, spec.proficiency)
            caption.setBuddy(self.proficiency)
            self.pb = DerivedLabel("Proficiency bonus")
            look(self.pb, "abilityModifier")
            grid.addWidget(caption, row, 0)
            grid.addWidget(self.proficiency, row, 1)
            grid.addWidget(self.pb, row, 3)
            ctx.binder.bind_derived(("pb",), self._show_pb)

    def _show_pb(self, pb: int | None) -> None:
        self.pb.show_value(
            "—" if pb is None else signed(pb),
            lambda: f"<b>Proficiency bonus {signed(pb or 0)}</b><br>"
            "Added once to proficient checks; doubled by expertise.",
        )
