"""Facts every rule family shares: the six abilities, how a key reads as a label, how a
modifier is written. Each system's own facts live in its package under ``sheet_app.systems``."""

from __future__ import annotations

from typing import Final

ABILITIES: Final[tuple[str, ...]] = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_NAMES: Final[dict[str, str]] = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}

MINUS: Final = "\u2212"
"""The typographic minus the window shows (it lines up with + in proportional fonts)."""


def skill_label(key: str) -> str:
    """``sleight_of_hand`` → ``Sleight of Hand``."""
    small = {"of", "and"}
    words = key.split("_")
    return " ".join(w if (i and w in small) else w.capitalize() for i, w in enumerate(words))


def signed(value: int | float, minus: str = "-") -> str:
    """+2, -1, +0: how a sheet writes a modifier. Exports and the engine's labels keep the
    ASCII minus; the window passes `MINUS`."""
    if isinstance(value, float) and not value.is_integer():
        text = f"{value:+.1f}"
    else:
        text = f"{int(value):+d}"
    return text if minus == "-" else text.replace("-", minus)


def snake(name: str) -> str:
    """A weapon's or caster's name as an id part: ``Long Sword +1`` → ``long_sword_1``."""
    out = []
    for ch in name.lower():
        out.append(ch if ch.isalnum() else "_")
    return "_".join(part for part in "".join(out).split("_") if part)
