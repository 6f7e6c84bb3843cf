"""Abilities: runarcana and d20srd enter scores and show modifiers; pf2e enters modifiers."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from sheet_app.derived import AbilityValue
from sheet_app.systems import ABILITIES, ABILITY_NAMES
from ui.context import SheetContext
from ui.format import ability_html, signed
from ui.theme import look
from ui.widgets import BoundSpinBox, ClickableLabel, DerivedLabel, RollButton, Section

SCORE_RANGE = {"runarcana": (1, 30), "d20srd": (0, 99), "pf2e": (-5, 10)}


class AbilityBlock:
    """One ability on one grid row: name, the entered value, the derived modifier, a die.

    ``score`` shows the effective score when effects change it ("19 (15)")."""

    def __init__(self, ctx: SheetContext, abbr: str, grid: QGridLayout, row: int) -> None:
        self.ctx = ctx
        self.abbr = abbr
        name = ABILITY_NAMES[abbr]
        system = ctx.system
        lo, hi = SCORE_RANGE[system]
        check = f"ability:{abbr}" if f"ability:{abbr}" in ctx.document.derived.statistics else ""
        self.name = ClickableLabel(abbr.upper(), ctx, check)
        look(self.name, "abilityName")
        self.name.setToolTip(name)
        word = "modifier" if system == "pf2e" else "score"
        self.input = BoundSpinBox(
            ctx, ("abilities", abbr), lo, hi, f"{name} {word}",
            none_text="—" if system == "d20srd" else None,
            tip=f"{name} {word}" + (" (— for a creature without it)" if system == "d20srd" else ""),
        )
        self.name.setBuddy(self.input)
        self.effective = DerivedLabel(f"{name} effective {word}")
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
        system = self.ctx.system
        explain = lambda: ability_html(ability, system)  # noqa: E731
        changed = ability.score is not None and ability.score != ability.base
        effective = ""
        if changed:
            effective = signed(ability.score or 0) if system == "pf2e" else f"→ {ability.score}"
        self.effective.show_value(effective, explain)
        self.modifier.show_value("—" if ability.score is None else signed(ability.modifier),
                                 explain)


class AbilitiesSection(Section):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        title = "Attributes" if ctx.system == "pf2e" else "Abilities"
        super().__init__(title, parent)
        grid = QGridLayout(self.body)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(3)
        grid.setColumnStretch(2, 1)
        self.blocks = {
            abbr: AbilityBlock(ctx, abbr, grid, row) for row, abbr in enumerate(ABILITIES)
        }
        if ctx.system == "runarcana":
            row = len(ABILITIES)
            caption = QLabel("Proficiency")
            look(caption, "caption")
            self.proficiency = BoundSpinBox(
                ctx, ("proficiency_bonus",), 0, 20, "Proficiency bonus override",
                none_text="auto",
                tip="auto: from level (+2 at 1-4 … +6 at 17-20); set a number for creatures",
            )
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
