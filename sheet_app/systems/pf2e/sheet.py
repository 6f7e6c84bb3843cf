"""The Pathfinder 2e sheet, described for the window."""

from __future__ import annotations

from sheet_app.facts import skill_label
from sheet_app.model import Weapon
from sheet_app.sheetspec import (
    AbilitiesSpec,
    Choice,
    Number,
    PassiveSpec,
    SheetSpec,
    StatRowSpec,
    Text,
    Toggle,
    bounds,
)
from sheet_app.systems import common_sheet
from sheet_app.systems.pf2e.facts import FACTS, RANKS, SAVES, SKILLS
from sheet_app.systems.pf2e.model import Pf2eCharacter

RANK_CHOICES = common_sheet.rank_choices(RANKS, {"untrained": "—"})


def _rank(path: tuple[str, ...], label: str) -> Choice:
    return Choice(path, f"{label} proficiency", RANK_CHOICES, missing="untrained", role="rank")


def sheet() -> SheetSpec:
    model = Pf2eCharacter

    def number(label: str, *path: str, tip: str = "", suffix: str = "",
               none_text: str | None = None) -> Number:
        return Number(path, label, *bounds(model, *path), tip, none_text, suffix=suffix)

    return SheetSpec(
        system_name="Pathfinder 2e",
        header=common_sheet.header(model, FACTS.sizes, "Ancestry"),
        abilities=AbilitiesSpec("Attributes", "modifier",
                                common_sheet.ability_inputs(model, "modifier")),
        saves=tuple(
            StatRowSpec(f"save:{save}", save.capitalize(), _rank(("saves", save),
                                                                  save.capitalize()),
                        spoken=f"{save.capitalize()} save")
            for save in SAVES
        ),
        skills=tuple(
            StatRowSpec(f"skill:{skill}", skill_label(skill),
                        _rank(("skills", skill), skill_label(skill)), ability=abbr)
            for skill, abbr in SKILLS.items()
        ),
        combat=(
            StatRowSpec("perception", "Perception", _rank(("perception",), "Perception")),
            StatRowSpec("initiative", "Initiative"),
            Choice(("weapon_proficiency",), "Weapon proficiency", RANK_CHOICES, role="rank"),
            StatRowSpec("attack:melee", "Melee attack"),
            StatRowSpec("attack:ranged", "Ranged attack"),
        ),
        combat_split=2,
        passives=(PassiveSpec("perception", "Perception DC", "perception"),),
        passive_prefix="",
        hit_points=(
            *common_sheet.current_hp(model),
            number("Ancestry HP", "hit_points", "ancestry",
                   tip="Hit points your ancestry gives at level 1"),
            number("Class HP / level", "hit_points", "class_",
                   tip="Hit points your class gives each level"),
        ),
        armor=(("Armor", (
            Text(("armor", "name"), "Armor", "none"),
            number("Item bonus", "armor", "item_bonus"),
            number("Dex cap", "armor", "dex_cap", none_text="none"),
            Choice(("armor", "rank"), "Armor proficiency", RANK_CHOICES, role="rank"),
            number("Check penalty", "armor", "check_penalty"),
            number("Speed penalty", "armor", "speed_penalty", suffix=" ft"),
        )),),
        inventory_load="bulk",
        load_unit="Bulk",
        load_options=(),
        weapon_fields=common_sheet.weapon_fields(
            Choice(("rank",), "Proficiency", ((None, "Weapon proficiency"), *RANK_CHOICES),
                   role="rank"),
            Number(("potency",), "Potency rune", *bounds(Weapon, "potency"),
                   "Item bonus to the attack"),
            Number(("striking",), "Striking rune", *bounds(Weapon, "striking"),
                   "Extra weapon damage dice"),
            Toggle(("agile",), "Agile", tip="Multiple attack penalty −4/−8 instead of −5/−10"),
        ),
        modifier_types=FACTS.modifier_types,
        open_types=False,
        roll_modes=FACTS.roll_modes,
        presets=common_sheet.presets("sheet_app.systems.pf2e"),
        typical_dcs=FACTS.typical_dcs,
        degrees=True,
    )
