"""The 5e conditions (SRD 5.1 Appendix A), with exhaustion's six levels; Runarcana uses the
same list. Only what changes a number or a roll mode becomes a modifier; the rest (can't take
actions, automatically fails Str and Dex saves) is in the summary for the player to apply."""

from __future__ import annotations

from collections.abc import Callable

from sheet_app.model import Modifier
from sheet_app.registry import Condition


def _modes(*pairs: tuple[str, tuple[str, ...]]) -> Callable[[int], list[Modifier]]:
    def build(value: int) -> list[Modifier]:
        return [Modifier(mode=mode, targets=list(targets)) for mode, targets in pairs]

    return build


def _exhaustion(level: int) -> list[Modifier]:
    mods = [Modifier(mode="disadvantage", targets=["ability"])]
    if level >= 3:
        mods.append(Modifier(mode="disadvantage", targets=["attack", "save"]))
    return mods


DIS = "disadvantage"
CONDITIONS: dict[str, Condition] = {c.key: c for c in (
    Condition("blinded", "Blinded", "Can't see; attack rolls have disadvantage, attacks "
              "against it have advantage.", None, _modes((DIS, ("attack",)))),
    Condition("charmed", "Charmed", "Can't attack the charmer or target it with harmful "
              "effects; the charmer has advantage on social checks against it."),
    Condition("deafened", "Deafened", "Can't hear; fails checks that need hearing."),
    Condition("exhaustion", "Exhaustion", "1: disadvantage on ability checks; 2: speed "
              "halved; 3: disadvantage on attack rolls and saving throws; 4: hit point "
              "maximum halved; 5: speed 0; 6: death.", 6, _exhaustion),
    Condition("frightened", "Frightened", "Disadvantage on ability checks and attack rolls "
              "while the source is in sight.", None, _modes((DIS, ("ability", "attack")))),
    Condition("grappled", "Grappled", "Speed 0 (ends if the grappler is incapacitated or "
              "moved away)."),
    Condition("incapacitated", "Incapacitated", "Can't take actions or reactions."),
    Condition("invisible", "Invisible", "Attack rolls have advantage; attacks against it "
              "have disadvantage.", None, _modes(("advantage", ("attack",)))),
    Condition("paralyzed", "Paralyzed", "Incapacitated, speed 0, can't speak; automatically "
              "fails Str and Dex saves; attacks against it have advantage, and hits from within "
              "5 ft are critical."),
    Condition("petrified", "Petrified", "Turned to stone: incapacitated, speed 0, unaware; "
              "automatically fails Str and Dex saves; attacks against it have advantage; "
              "resistance to all damage, immune to poison and disease."),
    Condition("poisoned", "Poisoned", "Disadvantage on attack rolls and ability checks.", None,
              _modes((DIS, ("attack", "ability")))),
    Condition("prone", "Prone", "Disadvantage on attack rolls; attacks against it have "
              "advantage from within 5 ft, disadvantage from farther away.", None,
              _modes((DIS, ("attack",)))),
    Condition("restrained", "Restrained", "Speed 0; disadvantage on attack rolls and Dex "
              "saves; attacks against it have advantage.", None,
              _modes((DIS, ("attack", "save:dex")))),
    Condition("stunned", "Stunned", "Incapacitated, speed 0, speaks only falteringly; "
              "automatically fails Str and Dex saves; attacks against it have advantage."),
    Condition("unconscious", "Unconscious", "Incapacitated, speed 0, prone, unaware; drops what "
              "it holds; automatically fails Str and Dex saves; attacks against it have "
              "advantage, and hits from within 5 ft are critical."),
)}
