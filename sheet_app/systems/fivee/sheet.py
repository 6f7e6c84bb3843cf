"""The sheet of a 5e-style system, described for the window."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheet_app.facts import ABILITY_NAMES, skill_label
from sheet_app.registry import Facts
from sheet_app.sheetspec import (
    ABSENT,
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
from sheet_app.systems.fivee.model import FiveECharacter

RANK_LABELS = {
    "untrained": "—",
    "proficient": "Proficient",
    "expertise": "Expertise",
    "expertise_twice": "Expertise ×2",
}
PASSIVES = ("perception", "insight", "investigation")


def sheet(
    system_name: str, model: type[FiveECharacter], facts: Facts,
    presets: tuple[Mapping[str, Any], ...],
) -> SheetSpec:
    ranks = common_sheet.rank_choices(facts.ranks, RANK_LABELS)
    skills = tuple(
        StatRowSpec(f"skill:{skill}", skill_label(skill),
                    Choice(("skills", skill), f"{skill_label(skill)} proficiency", ranks,
                           missing="untrained", role="rank"), ability=abbr)
        for skill, abbr in facts.skills.items()
    )
    saves = tuple(
        StatRowSpec(f"save:{abbr}", name,
                    Toggle(("saves", abbr), f"{name} save proficiency", "proficient", ABSENT,
                           f"Proficient in {name} saving throws"),
                    spoken=f"{name} save")
        for abbr, name in ABILITY_NAMES.items()
    )
    lo, hi = bounds(model, "proficiency_bonus")
    armor_model = model
    base = bounds(armor_model, "armor", "base")
    cap = bounds(armor_model, "armor", "dex_cap")
    shield = bounds(armor_model, "armor", "shield")
    return SheetSpec(
        system_name=system_name,
        header=common_sheet.header(model, facts.sizes, "Race / origin"),
        abilities=AbilitiesSpec(
            "Abilities", "score", common_sheet.ability_inputs(model, "score"),
            proficiency=Number(("proficiency_bonus",), "Proficiency bonus override", lo, hi,
                               "auto: from level (+2 at 1-4 … +6 at 17-20); set a number "
                               "for creatures", none_text="auto"),
        ),
        saves=saves,
        skills=skills,
        combat=(
            StatRowSpec("initiative", "Initiative"),
            StatRowSpec("attack:melee", "Melee attack"),
            StatRowSpec("attack:ranged", "Ranged attack"),
        ),
        passives=tuple(PassiveSpec(s, skill_label(s), f"skill:{s}") for s in PASSIVES),
        passive_prefix="Passive ",
        hit_points=common_sheet.hit_dice(model),
        armor=(("Armor", (
            Text(("armor", "name"), "Armor", "none"),
            Number(("armor", "base"), "Base AC", *base, "10 unarmoured; the armor's AC "
                   "otherwise"),
            Number(("armor", "dex_cap"), "Dex cap", *cap, "The most Dexterity the armor "
                   "allows", none_text="none"),
            Number(("armor", "shield"), "Shield", *shield, "The shield's bonus to AC"),
        )),),
        inventory_load="weight",
        load_unit=facts.weight_unit,
        load_options=(Toggle(("options", "variant_encumbrance"), "Variant encumbrance",
                             tip="Encumbered above ⅓ of capacity (−10 ft), heavily above ⅔ "
                                 "(−20 ft and disadvantage on Str, Dex and Con rolls)"),),
        weapon_fields=common_sheet.weapon_fields(
            Toggle(("proficient",), "Proficient", tip="Add the proficiency bonus to the attack")),
        modifier_types=facts.modifier_types,
        open_types=facts.open_types,
        roll_modes=facts.roll_modes,
        presets=presets,
        typical_dcs=facts.typical_dcs,
    )
