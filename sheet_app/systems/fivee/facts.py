"""Facts the 5e-style systems share: the SRD's skills, the rank words, sizes, DCs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from sheet_app.facts import ABILITIES
from sheet_app.registry import Facts
from sheet_app.systems.fivee.conditions import CONDITIONS

SRD_SKILLS: Final[dict[str, str]] = {
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
"""The SRD 5.1's 18 skills, each with its ability, in the sheet's order."""


def with_skill(skills: Mapping[str, str], skill: str, ability: str,
               after: str) -> dict[str, str]:
    """``skills`` with one more, placed after ``after`` (Runarcana's Technology)."""
    out: dict[str, str] = {}
    for key, abbr in skills.items():
        out[key] = abbr
        if key == after:
            out[skill] = ability
    return out


def five_e_facts(
    skills: Mapping[str, str], weight_unit: Literal["kg", "lb"], **extra: Any
) -> Facts:
    """The facts of a 5e-style system with these skills and this weight unit."""
    return Facts(
        skills=skills,
        saves={abbr: abbr for abbr in ABILITIES},
        ranks=("untrained", "proficient", "expertise", "expertise_twice"),
        sizes=("tiny", "small", "medium", "large", "huge", "gargantuan"),
        modifier_types=("untyped", "status", "item", "circumstance"),
        open_types=True,
        favourable="advantage",
        unfavourable="disadvantage",
        # The Runarcana seed's and the SRD's "Typical Difficulty Classes".
        typical_dcs=(("Very easy", 5), ("Easy", 10), ("Medium", 15), ("Hard", 20),
                     ("Very hard", 25), ("Nearly impossible", 30)),
        conditions=CONDITIONS,
        death_rule="death_saves",
        weight_unit=weight_unit,
        skill_variants=True,
        **extra,
    )
