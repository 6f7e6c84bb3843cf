"""D&D 5th edition, System Reference Document 5.1: its skills, ranks, sizes and DCs."""

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
"""The SRD's 18 skills, each with its ability."""

FACTS: Final = Facts(
    skills=SKILLS,
    saves={abbr: abbr for abbr in ("str", "dex", "con", "int", "wis", "cha")},
    ranks=("untrained", "proficient", "expertise", "expertise_twice"),
    sizes=("tiny", "small", "medium", "large", "huge", "gargantuan"),
    modifier_types=("untyped", "status", "item", "circumstance"),
    open_types=True,
    favourable="advantage",
    unfavourable="disadvantage",
    # SRD 5.1, "Typical Difficulty Classes".
    typical_dcs=(("Very easy", 5), ("Easy", 10), ("Medium", 15), ("Hard", 20),
                 ("Very hard", 25), ("Nearly impossible", 30)),
    conditions=CONDITIONS,
    weight_unit="lb",
    skill_variants=True,
    hints={
        "perception": "use 'skill:perception' on D&D 5e sheets",
        "skill:technology": "D&D 5e has no Technology skill (it is Runarcana's)",
    },
)
