"""The armor worn: entered values only; the sheet's AC shows what they add up to."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui.context import SheetContext
from ui.sections.skills import rank_choices
from ui.theme import look
from ui.widgets import BoundComboBox, BoundLineEdit, BoundSpinBox


class ArmorPanel(QWidget):
    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QHBoxLayout(self)
        form = QFormLayout()
        form.setHorizontalSpacing(12)
        outer.addLayout(form, 2)
        side = QVBoxLayout()
        hint = QLabel("The Defense box above updates as you edit: hover AC for every "
                      "modifier, or click it to see the breakdown in the roll panel.")
        hint.setWordWrap(True)
        look(hint, "hint")
        side.addWidget(hint)
        side.addStretch(1)
        outer.addLayout(side, 1)

        def spin(field: str, lo: int, hi: int, name: str, **kw: object) -> BoundSpinBox:
            return BoundSpinBox(ctx, ("armor", field), lo, hi, name, **kw)  # type: ignore[arg-type]

        form.addRow("Armor", BoundLineEdit(ctx, ("armor", "name"), "Armor name",
                                           placeholder="none"))
        system = ctx.system
        if system == "runarcana":
            form.addRow("Base AC", spin("base", 0, 40, "Armor base AC",
                                        tip="10 unarmoured; the armor's AC otherwise"))
            form.addRow("Dex cap", spin("dex_cap", 0, 20, "Armor Dexterity cap",
                                        none_text="none"))
            form.addRow("Shield", spin("shield", 0, 20, "Shield bonus"))
        elif system == "pf2e":
            form.addRow("Item bonus", spin("item_bonus", 0, 20, "Armor item bonus"))
            form.addRow("Dex cap", spin("dex_cap", 0, 20, "Armor Dexterity cap",
                                        none_text="none"))
            form.addRow("Proficiency", BoundComboBox(ctx, ("armor", "rank"),
                                                     rank_choices("pf2e"), "Armor proficiency"))
            form.addRow("Check penalty", spin("check_penalty", -10, 0, "Armor check penalty"))
            form.addRow("Speed penalty", spin("speed_penalty", 0, 30, "Armor speed penalty",
                                              suffix=" ft"))
        else:
            form.addRow("Armor bonus", spin("armor_bonus", 0, 30, "Armor bonus"))
            form.addRow("Shield bonus", spin("shield_bonus", 0, 30, "Shield bonus"))
            form.addRow("Natural armor", spin("natural_armor", 0, 50, "Natural armor bonus"))
            form.addRow("Max Dex", spin("max_dex", 0, 20, "Armor maximum Dexterity bonus",
                                        none_text="none"))
            form.addRow("Check penalty", spin("check_penalty", -20, 0, "Armor check penalty"))
