"""Static facts of each rule family: ability names, skills and their abilities, sizes, ranks.

Data only; the rules modules compute with it and the model validates against it.
"""

from __future__ import annotations

from typing import Final, Literal

SystemId = Literal["pf2e", "runarcana", "d20srd"]
SYSTEMS: Final[tuple[SystemId, ...]] = ("pf2e", "runarcana", "d20srd")
SYSTEM_NAMES: Final[dict[str, str]] = {
    "pf2e": "Pathfinder 2e",
    "runarcana": "Runarcana",
    "d20srd": "d20 SRD 3.5",
}

ABILITIES: Final[tuple[str, ...]] = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_NAMES: Final[dict[str, str]] = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}

# --- runarcana ---------------------------------------------------------------------------
RUNARCANA_SKILLS: Final[dict[str, str]] = {
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
RUNARCANA_RANKS: Final[tuple[str, ...]] = (
    "untrained", "proficient", "expertise", "expertise_twice",
)
RUNARCANA_SIZES: Final[tuple[str, ...]] = ("tiny", "small", "medium", "large", "huge", "gargantuan")

# --- pf2e --------------------------------------------------------------------------------
PF2E_SKILLS: Final[dict[str, str]] = {
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
PF2E_SAVES: Final[dict[str, str]] = {"fortitude": "con", "reflex": "dex", "will": "wis"}
PF2E_RANKS: Final[tuple[str, ...]] = ("untrained", "trained", "expert", "master", "legendary")
PF2E_RANK_BONUS: Final[dict[str, int]] = {"trained": 2, "expert": 4, "master": 6, "legendary": 8}
PF2E_SIZES: Final[tuple[str, ...]] = RUNARCANA_SIZES
PF2E_TYPES: Final[tuple[str, ...]] = ("circumstance", "item", "status", "untyped")

# --- d20srd ------------------------------------------------------------------------------
D20_SKILLS: Final[dict[str, str]] = {
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
D20_ARMOR_CHECK_SKILLS: Final[frozenset[str]] = frozenset(
    {"balance", "climb", "escape_artist", "hide", "jump", "move_silently", "sleight_of_hand",
     "tumble", "swim"}
)
D20_SAVES: Final[dict[str, str]] = {"fortitude": "con", "reflex": "dex", "will": "wis"}
D20_TYPES: Final[tuple[str, ...]] = (
    "ability", "alchemical", "arcane", "armor", "circumstance", "competence", "deflection",
    "dodge", "enhancement", "equipment", "flanking", "inherent", "insight", "luck", "morale",
    "mutation", "natural_armor", "psionic", "profane", "racial", "resistance", "sacred",
    "shield", "size", "untyped",
)
D20_SIZES: Final[tuple[str, ...]] = (
    "fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal",
)
D20_SIZE_MODIFIER: Final[dict[str, int]] = {
    "fine": 8, "diminutive": 4, "tiny": 2, "small": 1, "medium": 0,
    "large": -1, "huge": -2, "gargantuan": -4, "colossal": -8,
}
D20_HIDE_SIZE_MODIFIER: Final[dict[str, int]] = {
    "fine": 16, "diminutive": 12, "tiny": 8, "small": 4, "medium": 0,
    "large": -4, "huge": -8, "gargantuan": -12, "colossal": -16,
}

SKILLS: Final[dict[str, dict[str, str]]] = {
    "runarcana": RUNARCANA_SKILLS,
    "pf2e": PF2E_SKILLS,
    "d20srd": D20_SKILLS,
}
SIZES: Final[dict[str, tuple[str, ...]]] = {
    "runarcana": RUNARCANA_SIZES,
    "pf2e": PF2E_SIZES,
    "d20srd": D20_SIZES,
}
RUNARCANA_TYPES: Final[tuple[str, ...]] = ("untyped", "status", "item", "circumstance")
MODIFIER_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "runarcana": RUNARCANA_TYPES,
    "pf2e": PF2E_TYPES,
    "d20srd": D20_TYPES,
}
ROLL_MODES: Final[dict[str, tuple[str, ...]]] = {
    "runarcana": ("advantage", "disadvantage"),
    "pf2e": ("fortune", "misfortune"),
    "d20srd": (),
}


def skill_label(key: str) -> str:
    """``sleight_of_hand`` → ``Sleight of Hand``."""
    small = {"of", "and"}
    words = key.split("_")
    return " ".join(w if (i and w in small) else w.capitalize() for i, w in enumerate(words))

TYPICAL_DCS: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    # Runarcana seed, "Typical Difficulty Classes".
    "runarcana": (("Very easy", 5), ("Easy", 10), ("Medium", 15), ("Hard", 20),
                  ("Very hard", 25), ("Nearly impossible", 30)),
    # PF2e simple DCs by the proficiency rank a task calls for (Player Core, not in the seed).
    "pf2e": (("Untrained", 10), ("Trained", 15), ("Expert", 20), ("Master", 30),
             ("Legendary", 40)),
    # d20 SRD difficulty class examples (not in the seed); its "very easy (0)" is left out,
    # as a DC of 0 means "no DC" on the roll panel.
    "d20srd": (("Easy", 5), ("Average", 10), ("Tough", 15),
               ("Challenging", 20), ("Formidable", 25), ("Heroic", 30),
               ("Nearly impossible", 40)),
}
"""Named DCs a GM commonly calls for, per system, for the roll panel's DC presets."""
