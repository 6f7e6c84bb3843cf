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
    return _penalty(value, "score:str", "score:dex")


def _all(*builds: Callable[[int], list[Modifier]]) -> Callable[[int], list[Modifier]]:
    def build(value: int) -> list[Modifier]:
        return [m for part in builds for m in part(value)]

    return build


BLIND_SKILLS: Final = ("skill:search", *(f"skill:{k}" for k, a in SKILLS.items()
                                         if a in ("str", "dex")))
"""Search and the Strength- and Dexterity-based skills: blinded's −4 (the SRD says "most"
of the latter; the sheet applies it to all of them)."""

NO_DEX = " Loses the Dexterity bonus to AC: use the flat-footed AC."

CONDITIONS: Final[dict[str, Condition]] = {c.key: c for c in (
    Condition("blinded", "Blinded", "Can't see: −2 to AC, half speed, −4 on Search and on "
              "most Strength- and Dexterity-based skill checks; checks that rely on vision "
              "fail; every opponent has total concealment (50% miss chance)." + NO_DEX, None,
              _all(_penalty(-2, "ac"), _penalty(-4, *BLIND_SKILLS))),
    Condition("confused", "Confused", "Acts at random (d% each turn: attack the caster, act "
              "normally, babble, flee, or attack the nearest creature); can't make attacks of "
              "opportunity except against a creature already attacking it.", None),
    Condition("cowering", "Cowering", "Frozen in fear: can take no actions; −2 to AC." + NO_DEX,
              None, _penalty(-2, "ac")),
    Condition("dazed", "Dazed", "Can take no actions, but has no penalty to AC.", None),
    Condition("dazzled", "Dazzled", "−1 on attack rolls, Search and Spot checks.", None,
              _penalty(-1, "attack", "skill:search", "skill:spot")),
    Condition("deafened", "Deafened", "Can't hear: −4 on initiative checks, automatically "
              "fails Listen checks, 20% spell failure with verbal components.", None,
              _penalty(-4, "initiative")),
    Condition("entangled", "Entangled", "−2 on attack rolls, −4 to Dexterity, half speed; "
              "can't run or charge; casting needs a Concentration check (DC 15 + spell "
              "level).", None, _all(_penalty(-2, "attack"), _penalty(-4, "score:dex"))),
    Condition("exhausted", "Exhausted", "−6 to Strength and Dexterity; half speed. An hour of "
              "complete rest makes it fatigued.", None, _scores(-6)),
    Condition("fascinated", "Fascinated", "Stands or sits quietly, taking no actions but "
              "paying attention to the effect; −4 on skill checks made as reactions, such as "
              "Listen and Spot checks.", None, _penalty(-4, "skill:listen", "skill:spot")),
    Condition("fatigued", "Fatigued", "−2 to Strength and Dexterity; can't run or charge.",
              None, _scores(-2)),
    Condition("flat_footed", "Flat-footed", "Hasn't reacted yet (before its first turn in a "
              "combat): no attacks of opportunity." + NO_DEX, None),
    Condition("frightened", "Frightened", "−2 on attack rolls, saves, skill and ability "
              "checks; flees from the source.", None, _penalty(-2, *SHAKEN_TARGETS)),
    Condition("grappling", "Grappling", "Wrestling hand to hand: limited actions, threatens "
              "no squares, and loses the Dexterity bonus to AC against opponents it isn't "
              "grappling.", None),
    Condition("helpless", "Helpless", "Paralyzed, held, bound, asleep or unconscious: "
              "Dexterity counts as 0 (−5); melee attacks against it get +4; open to a coup de "
              "grâce and to sneak attacks.", None),
    Condition("invisible", "Invisible", "Can't be seen: +2 on attack rolls against sighted "
              "opponents, and ignores their Dexterity bonus to AC.", None,
              _penalty(2, "attack")),
    Condition("nauseated", "Nauseated", "Can't attack, cast spells, concentrate on spells or "
              "do anything needing attention; only a single move action each turn.", None),
    Condition("panicked", "Panicked", "−2 on saves, skill and ability checks; drops what it "
              "holds and flees.", None, _penalty(-2, "save", "skill", "ability")),
    Condition("paralyzed", "Paralyzed", "Frozen in place: Strength and Dexterity count as 0; "
              "helpless; purely mental actions only.", None),
    Condition("petrified", "Petrified", "Turned to stone: unconscious.", None),
    Condition("pinned", "Pinned", "Held immobile (but not helpless) in a grapple.", None),
    Condition("prone", "Prone", "On the ground: −4 on melee attack rolls; no ranged weapon "
              "but a crossbow; melee attacks against it get +4, ranged attacks −4.", None,
              _penalty(-4, "attack:melee")),
    Condition("shaken", "Shaken", "−2 on attack rolls, saves, skill and ability checks.",
              None, _penalty(-2, *SHAKEN_TARGETS)),
    Condition("sickened", "Sickened", "−2 on attack rolls, weapon damage, saves, skill and "
              "ability checks.", None, _penalty(-2, *SHAKEN_TARGETS, "damage")),
    Condition("stable", "Stable", "Was dying and has stopped losing hit points, but is still "
              "unconscious at negative hit points.", None),
    Condition("staggered", "Staggered", "Only a single move or standard action each turn.",
              None),
    Condition("stunned", "Stunned", "Drops what it holds, can't act, −2 to AC." + NO_DEX, None,
              _penalty(-2, "ac")),
    Condition("turned", "Turned", "Affected by turn undead: flees for 10 rounds, cowers if "
              "it can't.", None),
    Condition("unconscious", "Unconscious", "Knocked out and helpless.", None),
)}
"""The d20 SRD's conditions (energy drained and incorporeal left out); disabled, dying and
dead follow from ``hit_points.current`` (see `sheet_app.hitpoints`)."""

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
    death_rule="negative_hp",
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
