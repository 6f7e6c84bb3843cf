"""What every system's weapons share: their statistic ids, their ability, their keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sheet_app.derived import AbilityValue
from sheet_app.facts import snake
from sheet_app.model import Weapon


def weapon_ids(weapons: Iterable[Weapon]) -> list[tuple[str, Weapon]]:
    """Each weapon with its id part: its name in snake_case (``attack:longsword``), a
    second weapon of the same name gets ``_2`` (``attack:dagger_2``)."""
    seen: dict[str, int] = {}
    out = []
    for weapon in weapons:
        key = snake(weapon.name) or "weapon"
        seen[key] = seen.get(key, 0) + 1
        out.append((key if seen[key] == 1 else f"{key}_{seen[key]}", weapon))
    return out


def attack_ability(weapon: Weapon, abilities: Mapping[str, AbilityValue],
                   thrown_uses_str: bool = False) -> str:
    """The ability of the attack roll: the weapon's own choice; ``finesse`` takes the better
    of Str and Dex; otherwise Str for melee and Dex for ranged (``thrown_uses_str``: 5e
    throws with Str)."""
    if weapon.ability == "finesse":
        return "dex" if abilities["dex"].modifier > abilities["str"].modifier else "str"
    if weapon.ability is not None:
        return weapon.ability
    if weapon.attack == "melee" or (weapon.thrown and thrown_uses_str):
        return "str"
    return "dex"


def attack_keys(weapon: Weapon, key: str, abbr: str) -> tuple[str, ...]:
    return ("check", "attack", f"attack:{weapon.attack}", f"attack:{key}", f"uses:{abbr}")


def damage_keys(weapon: Weapon, key: str) -> tuple[str, ...]:
    return ("damage", f"damage:{weapon.attack}", f"damage:{key}")


def weapon_dice(weapon: Weapon, extra_dice: int = 0) -> str:
    """The weapon's damage dice, with ``extra_dice`` more of its die (pf2e striking runes)."""
    text = weapon.damage.replace(" ", "")
    count, d, rest = text.partition("d")
    if not d:
        return text
    return f"{int(count or 1) + extra_dice}d{rest}"
