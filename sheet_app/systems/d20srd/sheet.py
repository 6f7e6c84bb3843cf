"""The d20 SRD 3.5 sheet, described for the window."""

from __future__ import annotations

from sheet_app.facts import skill_label
from sheet_app.model import Critical
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
from sheet_app.systems.d20srd.facts import FACTS, SAVES, SKILLS
from sheet_app.systems.d20srd.model import D20Character


def sheet() -> SheetSpec:
    model = D20Character

    def number(label: str, *path: str, tip: str = "", none_text: str | None = None,
               missing: int | None = None, suffix: str = "") -> Number:
        return Number(path, label, *bounds(model, *path), tip, none_text, missing, suffix)

    ranks = bounds(model, "skill_ranks", "*")
    base_save = bounds(model, "base_saves", "*")
    return SheetSpec(
        system_name="d20 SRD 3.5",
        header=common_sheet.header(model, FACTS.sizes, "Race"),
        abilities=AbilitiesSpec("Abilities", "score",
                                common_sheet.ability_inputs(model, "score", none_text="—")),
        saves=tuple(
            StatRowSpec(f"save:{save}", save.capitalize(),
                        Number(("base_saves", save), f"{save.capitalize()} base save",
                               *base_save, f"Base {save.capitalize()} save bonus (from class)",
                               missing=0),
                        spoken=f"{save.capitalize()} save")
            for save in SAVES
        ),
        skills=tuple(
            StatRowSpec(f"skill:{skill}", skill_label(skill),
                        Number(("skill_ranks", skill), f"{skill_label(skill)} ranks", *ranks,
                               f"Ranks in {skill_label(skill)}", missing=0), ability=abbr)
            for skill, abbr in SKILLS.items()
        ),
        combat=(
            StatRowSpec("initiative", "Initiative"),
            number("Base attack bonus", "base_attack_bonus",
                   tip="Base attack bonus (from class and level)"),
            StatRowSpec("attack:melee", "Melee attack"),
            StatRowSpec("attack:ranged", "Ranged attack"),
        ),
        passives=(PassiveSpec("listen", "Listen", "skill:listen"),
                  PassiveSpec("spot", "Spot", "skill:spot")),
        passive_prefix="Take 10: ",
        hit_points=common_sheet.hit_dice(model),
        armor=(
            ("Armor", (
                Text(("armor", "name"), "Armor", "none"),
                number("Armor bonus", "armor", "bonus"),
                number("Max Dex", "armor", "max_dex", none_text="none",
                       tip="The most Dexterity bonus the armor allows"),
                number("Check penalty", "armor", "check_penalty"),
                number("Speed (20 ft base)", "armor", "speed_20", none_text="—", suffix=" ft"),
                number("Speed (30 ft base)", "armor", "speed_30", none_text="—", suffix=" ft"),
            )),
            ("Shield", (
                Text(("shield", "name"), "Shield", "none"),
                number("Shield bonus", "shield", "bonus"),
                number("Check penalty", "shield", "check_penalty"),
            )),
            ("Natural armor", (
                number("Natural armor", "natural_armor", tip="Natural armor bonus"),
            )),
        ),
        inventory_load="weight",
        load_unit="lb",
        load_options=(),
        weapon_fields=common_sheet.weapon_fields(
            Toggle(("two_handed",), "Two-handed", tip="1½ × Strength bonus to damage"),
            Number(("critical", "range"), "Threat range from", *bounds(Critical, "range"),
                   "The lowest natural roll that threatens a critical (19 for 19–20)"),
            Number(("critical", "multiplier"), "Critical ×", *bounds(Critical, "multiplier"),
                   "Damage is rolled this many times on a confirmed critical"),
        ),
        modifier_types=FACTS.modifier_types,
        open_types=False,
        roll_modes=(),
        side_choice=Choice(("options", "sacred_profane"), "Sacred or profane",
                           ((None, "Largest bonus wins"), ("sacred", "Keep sacred"),
                            ("profane", "Keep profane")),
                           "A character can't benefit from both sacred and profane bonuses"),
        defenses=(("ac", "AC"), ("ac:touch", "Touch"), ("ac:flat_footed", "Flat-footed")),
        presets=common_sheet.presets("sheet_app.systems.d20srd"),
        typical_dcs=FACTS.typical_dcs,
    )
