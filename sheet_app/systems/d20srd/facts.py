"""The d20 SRD 3.5 (seed 003): skills, sizes, the 24 modifier types, conditions, DCs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from sheet_app.model import Modifier
from sheet_app.registry import Condition, Facts

SKILLS: Final[dict[str, str]] = {
    "appraise": "int",
    "balance": "dex",
    "bluff": "cha",
    "climb": "str",
    "concentration": "con",
    "craft": "int",
    "decipher_script": "int",
    "diplomacy": "cha",
    "disable_device": "int",
    "disguise": "cha",
    "escape_artist": "dex",
    "forgery": "int",
    "gather_information": "cha",
    "handle_animal": "cha",
    "heal": "wis",
    "hide": "dex",
    "intimidate": "cha",
    "jump": "str",
    "knowledge": "int",
    "listen": "wis",
    "move_silently": "dex",
    "open_lock": "dex",
    "perform": "cha",
    "profession": "wis",
    "ride": "dex",
    "search": "int",
    "sense_motive": "wis",
    "sleight_of_hand": "dex",
    "spellcraft": "int",
    "spot": "wis",
    "survival": "wis",
    "swim": "str",
    "tumble": "dex",
    "use_magic_device": "cha",
    "use_rope": "dex",
}
ARMOR_CHECK_SKILLS: Final = frozenset(
    {"balance", "climb", "escape_artist", "hide", "jump", "move_silently", "sleight_of_hand",
     "tumble", "swim"}
)
SAVES: Final[dict[str, str]] = {"fortitude": "con", "reflex": "dex", "will": "wis"}
TYPES: Final = (
    "ability", "alchemical", "arcane", "armor", "circumstance", "competence", "deflection",
    "dodge", "enhancement", "equipment", "flanking", "inherent", "insight", "luck", "morale",
    "mutation", "natural_armor", "psionic", "profane", "racial", "resistance", "sacred",
    "shield", "size", "untyped",
)
SIZES: Final = (
    "fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal",
)
SIZE_MODIFIER: Final[dict[str, int]] = {
    "fine": 8, "diminutive": 4, "tiny": 2, "small": 1, "medium": 0,
    "large": -1, "huge": -2, "gargantuan": -4, "colossal": -8,
}
HIDE_SIZE_MODIFIER: Final[dict[str, int]] = {
    "fine": 16, "diminutive": 12, "tiny": 8, "small": 4, "medium": 0,
    "large": -4, "huge": -8, "gargantuan": -12, "colossal": -16,
}

SHAKEN_TARGETS = ("attack", "save", "skill", "ability")


def _penalty(value: int, *targets: str) -> Callable[[int], list[Modifier]]:
    def build(_: int) -> list[Modifier]:
        return [Modifier(type="untyped", value=value, targets=list(targets))]

    return build


def _scores(value: int) -> Callable[[int], list[Modifier]]:
    def build(_: int) -> list[Modifier]:
        return [Modifier(type="untyped", value=value, targets=["score:str", "score:dex"])]

    return build


CONDITIONS: Final[dict[str, Condition]] = {c.key: c for c in (
    Condition("blinded", "Blinded", "−2 to AC, loses Dex bonus to AC, −4 on most Str- and "
              "Dex-based skill checks; everything has total concealment.", None),
    Condition("dazzled", "Dazzled", "−1 on attack rolls, Search and Spot checks.", None,
              _penalty(-1, "attack", "skill:search", "skill:spot")),
    Condition("entangled", "Entangled", "−2 on attack rolls, −4 to Dexterity, half speed.",
              None, lambda _: [Modifier(type="untyped", value=-2, targets=["attack"]),
                               Modifier(type="untyped", value=-4, targets=["score:dex"])]),
    Condition("exhausted", "Exhausted", "−6 to Strength and Dexterity; half speed.", None,
              _scores(-6)),
    Condition("fatigued", "Fatigued", "−2 to Strength and Dexterity; can't run or charge.",
              None, _scores(-2)),
    Condition("frightened", "Frightened", "−2 on attack rolls, saves, skill and ability "
              "checks; flees from the source.", None, _penalty(-2, *SHAKEN_TARGETS)),
    Condition("panicked", "Panicked", "−2 on saves, skill and ability checks; drops what it "
              "holds and flees.", None, _penalty(-2, "save", "skill", "ability")),
    Condition("shaken", "Shaken", "−2 on attack rolls, saves, skill and ability checks.",
              None, _penalty(-2, *SHAKEN_TARGETS)),
    Condition("sickened", "Sickened", "−2 on attack rolls, weapon damage, saves, skill and "
              "ability checks.", None, _penalty(-2, *SHAKEN_TARGETS, "damage")),
    Condition("stunned", "Stunned", "Drops what it holds, can't act, −2 to AC, loses Dex "
              "bonus to AC.", None, _penalty(-2, "ac")),
)}

FACTS: Final = Facts(
    skills=SKILLS,
    saves=SAVES,
    ranks=(),
    sizes=SIZES,
    modifier_types=TYPES,
    # d20 SRD difficulty class examples (not in the seed); its "very easy (0)" is left out,
    # as a DC of 0 means "no DC" on the roll panel.
    typical_dcs=(("Easy", 5), ("Average", 10), ("Tough", 15), ("Challenging", 20),
                 ("Formidable", 25), ("Heroic", 30), ("Nearly impossible", 40)),
    conditions=CONDITIONS,
    weight_unit="lb",
    extra_targets=("ac:touch", "ac:flat_footed", "ac:armor", "ac:shield", "ac:natural_armor"),
    hints={
        "skill:stealth": "the d20 SRD has no Stealth skill: use 'skill:hide' or "
                         "'skill:move_silently'",
        "skill:perception": "the d20 SRD has no Perception skill: use 'skill:spot' or "
                            "'skill:listen'",
        "skill:athletics": "the d20 SRD has no Athletics skill: use 'skill:climb', "
                           "'skill:jump' or 'skill:swim'",
        "skill:acrobatics": "the d20 SRD has no Acrobatics skill: use 'skill:tumble' or "
                            "'skill:balance'",
        "perception": "the d20 SRD has no Perception: use 'skill:spot' or 'skill:listen'",
    },
)
