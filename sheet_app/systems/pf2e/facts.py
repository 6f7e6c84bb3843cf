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


def _all(*builds: Callable[[int], list[Modifier]]) -> Callable[[int], list[Modifier]]:
    """Several conditions' modifiers at once (unconscious is also blinded and off-guard)."""

    def build(value: int) -> list[Modifier]:
        return [m for part in builds for m in part(value)]

    return build


_OFF_GUARD = _fixed("circumstance", -2, "ac")
_BLIND = _fixed("status", -4, "perception")


def _prone(_: int) -> list[Modifier]:
    return [Modifier(type="circumstance", value=-2, targets=["ac"]),
            Modifier(type="circumstance", value=-2, targets=["attack"])]


CONDITIONS: Final[dict[str, Condition]] = {c.key: c for c in (
    Condition("blinded", "Blinded", "You can't see: all normal terrain is difficult terrain, "
              "you automatically critically fail Perception checks that need sight, and if "
              "vision is your only precise sense, −4 status penalty to Perception checks. "
              "Overrides dazzled.", None, _BLIND),
    Condition("clumsy", "Clumsy", "Status penalty equal to the value to Dexterity-based "
              "checks and DCs, including AC, Reflex saves, ranged attacks, Acrobatics, "
              "Stealth and Thievery.", 4, _status("uses:dex", "ac")),
    Condition("concealed", "Concealed", "You are hard to see: a creature targeting you must "
              "succeed at a DC 5 flat check or its attack or effect misses.", None),
    Condition("confused", "Confused", "Off-guard (−2 circumstance to AC); you treat no one as "
              "an ally, can't Delay, Ready or use reactions, and attack at random; a DC 11 "
              "flat check ends it each time you take damage from an attack or spell.", None,
              _OFF_GUARD),
    Condition("controlled", "Controlled", "Another creature decides your actions.", None),
    Condition("dazzled", "Dazzled", "If vision is your only precise sense, every creature "
              "and object is concealed from you (DC 5 flat check to target).", None),
    Condition("deafened", "Deafened", "You can't hear: automatic critical failure on checks "
              "that need hearing, −2 status penalty to Perception for initiative and to checks "
              "that involve sound; auditory actions need a DC 5 flat check.", None,
              _fixed("status", -2, "initiative")),
    Condition("doomed", "Doomed", "You die at dying 4 minus the doomed value (doomed 4 kills "
              "outright); drops by 1 after each full night's rest.", 4),
    Condition("drained", "Drained", "Status penalty equal to the value to Constitution-based "
              "checks (Fortitude); lose level × value hit points from your maximum.", 4,
              _status("uses:con")),
    Condition("encumbered", "Encumbered", "Clumsy 1 (−1 status to Dexterity-based checks and "
              "AC) and a 10-foot penalty to all Speeds. The sheet applies this itself when "
              "carried Bulk is over the limit.", None,
              _all(_fixed("status", -1, "uses:dex", "ac"), _fixed("untyped", -10, "speed"))),
    Condition("enfeebled", "Enfeebled", "Status penalty equal to the value to Strength-based "
              "rolls and DCs: melee attacks, melee damage, Athletics.", 4,
              _status("uses:str", "damage:melee")),
    Condition("fascinated", "Fascinated", "−2 status penalty to Perception and skill checks; "
              "you can't use concentrate actions unless they relate to the subject of your "
              "fascination.", None, _fixed("status", -2, "perception", "skill")),
    Condition("fatigued", "Fatigued", "−1 status penalty to AC and saving throws; no "
              "exploration activities while travelling.", None,
              _fixed("status", -1, "ac", "save")),
    Condition("fleeing", "Fleeing", "You must spend each action trying to escape the source "
              "of the condition; you can't Delay or Ready.", None),
    Condition("frightened", "Frightened", "Status penalty equal to the value to all checks "
              "and DCs; drops by 1 at the end of each of your turns.", 4,
              _status(*EVERY_CHECK_AND_DC), ends_turn_decrement=True),
    Condition("grabbed", "Grabbed", "Off-guard (−2 circumstance to AC) and immobilized; a "
              "manipulate action needs a DC 5 flat check.", None, _OFF_GUARD),
    Condition("hidden", "Hidden", "A creature knows your space but not where exactly you "
              "are: it is off-guard to you and must succeed at a DC 11 flat check to target "
              "you.", None),
    Condition("immobilized", "Immobilized", "You can't use actions with the move trait.",
              None),
    Condition("invisible", "Invisible", "You can't be seen: you are undetected to everyone "
              "(hidden to a creature that Seeks you successfully).", None),
    Condition("observed", "Observed", "A creature sees you clearly (the usual state).", None),
    Condition("off_guard", "Off-guard", "−2 circumstance penalty to AC.", None, _OFF_GUARD),
    Condition("paralyzed", "Paralyzed", "Off-guard (−2 circumstance to AC); you can't act "
              "except to Recall Knowledge and use purely mental actions.", None, _OFF_GUARD),
    Condition("petrified", "Petrified", "Turned to stone: you can't act or sense anything, "
              "and you are an object with AC 9 and Hardness 8.", None),
    Condition("prone", "Prone", "Off-guard (−2 circumstance to AC) and −2 circumstance to "
              "attack rolls; the only move actions you can use are Crawl and Stand.", None,
              _prone),
    Condition("quickened", "Quickened", "You gain 1 extra action at the start of each turn, "
              "for the uses the effect allows.", None),
    Condition("restrained", "Restrained", "Off-guard (−2 circumstance to AC) and immobilized; "
              "no attack or manipulate actions except to Escape or Force Open. Overrides "
              "grabbed.", None, _OFF_GUARD),
    Condition("sickened", "Sickened", "Status penalty equal to the value to all checks and "
              "DCs; you can't willingly ingest anything.", 4, _status(*EVERY_CHECK_AND_DC)),
    Condition("slowed", "Slowed", "You regain that many fewer actions at the start of each "
              "turn.", 3),
    Condition("stunned", "Stunned", "You can't act; you lose that many actions in all as you "
              "regain them, and the value drops by the actions lost. Overrides slowed.", 10),
    Condition("stupefied", "Stupefied", "Status penalty equal to the value to Intelligence-, "
              "Wisdom- and Charisma-based checks and DCs, including Perception, Will, spell "
              "attacks and spell DCs; casting a spell needs a DC 5 + value flat check.", 4,
              _status("uses:int", "uses:wis", "uses:cha", "spell_attack", "spell_dc")),
    Condition("unconscious", "Unconscious", "You can't act; −4 status penalty to AC, "
              "Perception and Reflex saves, and you are blinded and off-guard.", None,
              _all(_fixed("status", -4, "ac", "perception", "save:reflex"), _OFF_GUARD)),
    Condition("undetected", "Undetected", "A creature doesn't know where you are: it is "
              "off-guard to you and must guess your space, with a DC 11 flat check, to target "
              "you.", None),
    Condition("unnoticed", "Unnoticed", "A creature has no idea you are present.", None),
)}
"""Player Core's conditions, persistent damage left out. Dying and wounded are values of
``hit_points`` (see `sheet_app.hitpoints`), not effects."""

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
    death_rule="dying",
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
