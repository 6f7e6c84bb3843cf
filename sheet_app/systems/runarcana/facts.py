"""Runarcana RPG 0.92 (seed 001): its skills, ranks, sizes, types and typical DCs."""

from __future__ import annotations

from typing import Final

from sheet_app.registry import Facts
from sheet_app.systems.fivee.conditions import CONDITIONS

SKILLS: Final[dict[str, str]] = {
    "athletics": "str",
    "acrobatics": "dex",
    "sleight_of_hand": "dex",
    "stealth": "dex",
    "arcana": "int",
    "history": "int",
    "investigation": "int",
    "nature": "int",
    "religion": "int",
    "technology": "int",
    "animal_handling": "wis",
    "insight": "wis",
    "medicine": "wis",
    "perception": "wis",
    "survival": "wis",
    "deception": "cha",
    "intimidation": "cha",
    "performance": "cha",
    "persuasion": "cha",
}
RANKS: Final = ("untrained", "proficient", "expertise", "expertise_twice")
SIZES: Final = ("tiny", "small", "medium", "large", "huge", "gargantuan")

FACTS: Final = Facts(
    skills=SKILLS,
    saves={abbr: abbr for abbr in ("str", "dex", "con", "int", "wis", "cha")},
    ranks=RANKS,
    sizes=SIZES,
    modifier_types=("untyped", "status", "item", "circumstance"),
    open_types=True,
    favourable="advantage",
    unfavourable="disadvantage",
    # The seed's "Typical Difficulty Classes".
    typical_dcs=(("Very easy", 5), ("Easy", 10), ("Medium", 15), ("Hard", 20),
                 ("Very hard", 25), ("Nearly impossible", 30)),
    conditions=CONDITIONS,
    weight_unit="kg",
    skill_variants=True,
    hints={"perception": "use 'skill:perception' on Runarcana sheets"},
)
