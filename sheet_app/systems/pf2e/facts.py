"""Pathfinder 2e (Player Core, seed 000): skills, ranks, types, conditions and typical DCs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from sheet_app.model import Modifier
from sheet_app.registry import Condition, Facts

SKILLS: Final[dict[str, str]] = {
    "acrobatics": "dex",
    "arcana": "int",
    "athletics": "str",
    "crafting": "int",
    "deception": "cha",
    "diplomacy": "cha",
    "intimidation": "cha",
    "medicine": "wis",
    "nature": "wis",
    "occultism": "int",
    "performance": "cha",
    "religion": "wis",
    "society": "int",
    "stealth": "dex",
    "survival": "wis",
    "thievery": "dex",
}
SAVES: Final[dict[str, str]] = {"fortitude": "con", "reflex": "dex", "will": "wis"}
RANKS: Final = ("untrained", "trained", "expert", "master", "legendary")
RANK_BONUS: Final[dict[str, int]] = {"trained": 2, "expert": 4, "master": 6, "legendary": 8}
SIZES: Final = ("tiny", "small", "medium", "large", "huge", "gargantuan")
TYPES: Final = ("circumstance", "item", "status", "untyped")

EVERY_CHECK_AND_DC = ["check", "ac", "class_dc", "spell_dc"]


def _status(*targets: str, type_: str = "status") -> Callable[[int], list[Modifier]]:
    def build(value: int) -> list[Modifier]:
        return [Modifier(type=type_, value=-value, targets=list(targets))]

    return build


def _fixed(type_: str, value: int, *targets: str) -> Callable[[int], list[Modifier]]:
    def build(_: int) -> list[Modifier]:
        return [Modifier(type=type_, value=value, targets=list(targets))]

    return build


def _prone(_: int) -> list[Modifier]:
    return [Modifier(type="circumstance", value=-2, targets=["ac"]),
            Modifier(type="circumstance", value=-2, targets=["attack"])]


CONDITIONS: Final[dict[str, Condition]] = {c.key: c for c in (
    Condition("blinded", "Blinded", "Can't see; everything is hidden to you; −4 status to "
              "Perception checks that need sight.", None),
    Condition("clumsy", "Clumsy", "Status penalty equal to the value to Dexterity-based "
              "checks and DCs, including AC, Reflex saves and ranged attacks.", 4,
              _status("uses:dex", "ac")),
    Condition("dazzled", "Dazzled", "Everything is concealed to you (DC 5 flat check to "
              "target).", None),
    Condition("drained", "Drained", "Status penalty equal to the value to Constitution-based "
              "checks (Fortitude); lose level × value hit points from your maximum.", 4,
              _status("uses:con")),
    Condition("enfeebled", "Enfeebled", "Status penalty equal to the value to Strength-based "
              "rolls and DCs: melee attacks, melee damage, Athletics.", 4,
              _status("uses:str", "damage:melee")),
    Condition("fatigued", "Fatigued", "−1 status penalty to AC and saving throws.", None,
              _fixed("status", -1, "ac", "save")),
    Condition("frightened", "Frightened", "Status penalty equal to the value to all checks "
              "and DCs; drops by 1 at the end of each of your turns.", 4,
              _status(*EVERY_CHECK_AND_DC)),
    Condition("off_guard", "Off-guard", "−2 circumstance penalty to AC.", None,
              _fixed("circumstance", -2, "ac")),
    Condition("prone", "Prone", "Off-guard (−2 circumstance to AC) and −2 circumstance to "
              "attack rolls.", None, _prone),
    Condition("sickened", "Sickened", "Status penalty equal to the value to all checks and "
              "DCs; you can't willingly ingest anything.", 4, _status(*EVERY_CHECK_AND_DC)),
    Condition("stupefied", "Stupefied", "Status penalty equal to the value to Intelligence-, "
              "Wisdom- and Charisma-based checks and DCs, including spell attacks and spell "
              "DCs.", 4, _status("uses:int", "uses:wis", "uses:cha", "spell_attack",
                                 "spell_dc")),
)}

FACTS: Final = Facts(
    skills=SKILLS,
    saves=SAVES,
    ranks=RANKS,
    sizes=SIZES,
    modifier_types=TYPES,
    favourable="fortune",
    unfavourable="misfortune",
    four_degrees=True,
    # Simple DCs by the proficiency rank a task calls for (Player Core, not in the seed).
    typical_dcs=(("Untrained", 10), ("Trained", 15), ("Expert", 20), ("Master", 30),
                 ("Legendary", 40)),
    conditions=CONDITIONS,
    ability_kind="modifier",
    weight_unit="bulk",
    has_ability_checks=False,
    groups=("check", "skill", "save", "attack", "ac", "perception", "initiative", "speed",
            "damage", "spell_attack", "spell_dc", "class_dc"),
    hints={
        "skill:perception": "Perception is its own statistic on Pathfinder sheets: use "
                            "'perception'",
    },
)
