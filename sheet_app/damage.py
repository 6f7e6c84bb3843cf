"""Rolling a weapon's damage, normal or critical, by its system's rule.

`roll_damage` is what the roll panel and ``sheet-app roll FILE damage:<weapon>`` share. Each
system's critical rule comes with the `Damage` that ``derive`` made:

* ``double_total`` (pf2e): roll once, then double the whole result (always even);
* ``double_dice`` (5e-style): roll every die twice, dice-valued bonuses too, add the flat
  modifiers once;
* ``multiply`` (d20srd): roll the weapon's dice and flat modifiers ``multiplier`` times and add
  the results; dice-valued extra damage (sneak attack) is rolled once.

The minimum (1 in pf2e and d20srd, 0 in the 5e-style systems) holds for each roll before a
critical multiplies it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sheet_app import dice
from sheet_app.derived import Damage, ModifierLine

__all__ = ["DamageRoll", "critical_expression", "damage_range", "roll_damage"]


@dataclass(frozen=True, slots=True)
class DamageRoll:
    statistic: str
    label: str
    critical: bool
    expression: str
    """What was rolled, in the system's words: ``2d8+3``, ``2×(2d8+4)``, ``3d12+12``."""
    dice: tuple[int, ...]
    """Every die rolled (a critical that rolls dice twice lists both sets)."""
    modifiers: tuple[ModifierLine, ...]
    total: int
    """What the target loses, after the critical rule and the minimum."""
    damage_type: str = ""

    def to_json(self) -> dict[str, Any]:
        """The fields CONTRACT.md fixes for a damage roll's ``--json``."""
        return {
            "statistic": self.statistic,
            "label": self.label,
            "critical": self.critical,
            "expression": self.expression,
            "dice": list(self.dice),
            "modifiers": [line.to_json() for line in self.modifiers],
            "total": self.total,
        }

    def summary(self) -> str:
        kind = "critical damage" if self.critical else "damage"
        faces = ", ".join(map(str, self.dice))
        typed = f" {self.damage_type}" if self.damage_type else ""
        return f"{self.label} {kind}: {self.expression} ({faces}) = {self.total}{typed}"


def _times(expression: str, factor: int) -> str:
    """``2d8`` → ``4d8``: the same dice, ``factor`` times as many."""
    parsed = dice.parse(expression)
    parts = []
    for term in parsed.terms:
        sign = "-" if term.negative else "+"
        if isinstance(term, dice.Dice):
            parts.append(f"{sign}{term.count * factor}d{term.sides}")
        else:
            parts.append(f"{term.value:+d}")
    text = "".join(parts)
    return text[1:] if text.startswith("+") else text


def _flat(value: int) -> str:
    return f"{value:+d}" if value else ""


def critical_expression(damage: Damage) -> str:
    """What a critical hit rolls, written as a player would: ``2d8+3`` (5e-style),
    ``2×(2d8+4)`` (pf2e), ``2d8+6`` (d20srd, ×2)."""
    bonus = "".join(damage.bonus_dice)
    if damage.critical == "double_total":
        return f"2×({damage.expression})"
    if damage.critical == "double_dice":
        doubled = "".join(f"{d[0]}{_times(d[1:], 2)}" for d in damage.bonus_dice)
        return _times(damage.dice, 2) + doubled + _flat(damage.flat)
    m = damage.multiplier
    return _times(damage.dice, m) + bonus + _flat(damage.flat * m)


def roll_damage(damage: Damage, rng: random.Random, *, critical: bool = False) -> DamageRoll:
    """Roll ``damage`` drawing every die from ``rng``."""
    flat = damage.flat
    rolled: list[int] = []

    def roll(expression: str) -> int:
        result = dice.roll(expression, rng)
        rolled.extend(result.rolls)
        return result.total

    def bonus(times: int = 1) -> int:
        return sum(roll(d) for d in damage.bonus_dice for _ in range(times))

    if not critical:
        total = max(damage.minimum, roll(damage.dice) + bonus() + flat)
        expression = damage.expression
    elif damage.critical == "double_total":
        total = 2 * max(damage.minimum, roll(damage.dice) + bonus() + flat)
        expression = critical_expression(damage)
    elif damage.critical == "double_dice":
        total = max(damage.minimum, roll(damage.dice) + roll(damage.dice) + bonus(2) + flat)
        expression = critical_expression(damage)
    else:
        once = bonus()
        total = sum(max(damage.minimum, roll(damage.dice) + flat)
                    for _ in range(damage.multiplier)) + once
        expression = critical_expression(damage)
    return DamageRoll(damage.id, damage.label, critical, expression, tuple(rolled),
                      damage.modifiers, total, damage.damage_type)


def damage_range(damage: Damage, *, critical: bool = False) -> tuple[int, int]:
    """The least and most ``roll_damage`` can give (for the sheet's "4–11")."""
    low_dice = dice.parse(damage.dice).minimum
    high_dice = dice.parse(damage.dice).maximum
    low_bonus = sum(dice.parse(d).minimum for d in damage.bonus_dice)
    high_bonus = sum(dice.parse(d).maximum for d in damage.bonus_dice)
    flat, floor = damage.flat, damage.minimum
    if not critical:
        return (max(floor, low_dice + low_bonus + flat), max(floor, high_dice + high_bonus + flat))
    if damage.critical == "double_total":
        return (2 * max(floor, low_dice + low_bonus + flat),
                2 * max(floor, high_dice + high_bonus + flat))
    if damage.critical == "double_dice":
        return (max(floor, 2 * (low_dice + low_bonus) + flat),
                max(floor, 2 * (high_dice + high_bonus) + flat))
    m = damage.multiplier
    return (m * max(floor, low_dice + flat) + low_bonus,
            m * max(floor, high_dice + flat) + high_bonus)
