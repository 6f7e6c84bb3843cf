"""The d20 SRD 3.5 character file: scores (which a creature may lack), ranks, base bonuses,
armor and shield as two rows."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from sheet_app.model import CharacterBase, DieHitPoints, Item, Open, keys_known
from sheet_app.systems.d20srd.facts import SAVES, SKILLS

_Score = Annotated[int, Field(ge=0, le=99)] | None
Size = Literal[
    "fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"
]


class D20Abilities(Open):
    """Scores; ``null`` means the creature lacks the ability (a construct's Intelligence)."""

    str: _Score = 10
    """Strength score."""
    dex: _Score = 10
    """Dexterity score."""
    con: _Score = 10
    """Constitution score (``null`` for undead and constructs)."""
    int: _Score = 10
    """Intelligence score (``null`` for mindless creatures)."""
    wis: _Score = 10
    """Wisdom score."""
    cha: _Score = 10
    """Charisma score."""


class D20Armor(Open):
    """The armor worn."""

    name: str = Field(default="", max_length=200)
    """The armor's name."""
    bonus: int = Field(default=0, ge=0, le=30)
    """Its armor bonus to AC."""
    max_dex: int | None = Field(default=None, ge=0, le=20)
    """The most Dexterity bonus it allows; ``null`` for none."""
    check_penalty: int = Field(default=0, ge=-20, le=0)
    """Its armor check penalty."""
    speed_20: int | None = Field(default=None, ge=0, le=300)
    """Speed in it for a creature of base speed 20 ft (``null``: unchanged)."""
    speed_30: int | None = Field(default=None, ge=0, le=300)
    """Speed in it for a creature of base speed 30 ft (``null``: unchanged)."""


class D20Shield(Open):
    """The shield carried."""

    name: str = Field(default="", max_length=200)
    """The shield's name."""
    bonus: int = Field(default=0, ge=0, le=30)
    """Its shield bonus to AC."""
    check_penalty: int = Field(default=0, ge=-20, le=0)
    """Its armor check penalty (adds to the armor's)."""


class D20Character(CharacterBase):
    """A d20 SRD 3.5 character; weights in lb."""

    system: Literal["d20srd"] = "d20srd"
    """``d20srd``."""
    size: Size = "medium"
    """Size category."""
    abilities: D20Abilities = Field(default_factory=D20Abilities)
    """The six ability scores."""
    skill_ranks: dict[str, Annotated[int, Field(ge=0, le=50)]] = Field(default_factory=dict)
    """Skill → ranks bought."""
    base_saves: dict[str, Annotated[int, Field(ge=0, le=30)]] = Field(
        default_factory=lambda: {"fortitude": 0, "reflex": 0, "will": 0}
    )
    """Base Fortitude, Reflex and Will save bonuses (from class)."""
    base_attack_bonus: int = Field(default=0, ge=0, le=40)
    """Base attack bonus (from class and level)."""
    hit_points: DieHitPoints = Field(default_factory=DieHitPoints)
    """Hit points."""
    inventory: list[Item] = Field(default_factory=list, max_length=10_000)
    """What is carried (weight per item in lb)."""
    armor: D20Armor = Field(default_factory=D20Armor)
    """The armor worn."""
    shield: D20Shield = Field(default_factory=D20Shield)
    """The shield carried."""
    natural_armor: int = Field(default=0, ge=0, le=50)
    """Natural armor bonus."""

    _skills_known = field_validator("skill_ranks")(keys_known(tuple(sorted(SKILLS)), "skill"))
    _saves_known = field_validator("base_saves")(keys_known(tuple(SAVES), "save"))


def migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept armor, shield and natural armor in one ``armor`` object with one check
    penalty; version 2 has an ``armor`` row and a ``shield`` row, each with its own penalty.
    The shield's share of the old single penalty can't be known, so all of it stays on the
    armor. Unknown keys of the old object stay on the armor."""
    old = data.get("armor")
    if not isinstance(old, dict) or "shield" in data:
        return data
    armor = {k: v for k, v in old.items()
             if k not in ("armor_bonus", "shield_bonus", "natural_armor")}
    if "armor_bonus" in old:
        armor["bonus"] = old["armor_bonus"]
    out = {**data, "armor": armor}
    shield_bonus = old.get("shield_bonus", 0)
    out["shield"] = {"name": "Shield" if shield_bonus else "", "bonus": shield_bonus,
                     "check_penalty": 0}
    if "natural_armor" in old and "natural_armor" not in data:
        out["natural_armor"] = old["natural_armor"]
    return out
