"""The 5e-style character: ability scores, proficiency by level, ranks, hit dice."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from sheet_app.facts import ABILITIES
from sheet_app.model import CharacterBase, DeathSaves, DieHitPoints, Item, Open, keys_known

Rank = Literal["untrained", "proficient", "expertise", "expertise_twice"]
SaveRank = Literal["untrained", "proficient"]
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
_Score = Annotated[int, Field(ge=1, le=30)]


class Scores(Open):
    """Ability scores, 1 to 30."""

    str: _Score = 10
    """Strength score."""
    dex: _Score = 10
    """Dexterity score."""
    con: _Score = 10
    """Constitution score."""
    int: _Score = 10
    """Intelligence score."""
    wis: _Score = 10
    """Wisdom score."""
    cha: _Score = 10
    """Charisma score."""


class FiveEHitPoints(DieHitPoints):
    """Hit die hit points, with death saving throws."""

    death_saves: DeathSaves = Field(default_factory=DeathSaves)
    """Death saving throws while dying."""


class FiveEArmor(Open):
    """The armor worn and the shield carried."""

    name: str = Field(default="", max_length=200)
    """The armor's name."""
    base: int = Field(default=10, ge=0, le=40)
    """The armor's base AC (10 unarmoured)."""
    dex_cap: int | None = Field(default=None, ge=0, le=20)
    """The most Dexterity modifier the armor allows; ``null`` for no limit."""
    shield: int = Field(default=0, ge=0, le=20)
    """The shield's bonus to AC."""


class FiveECharacter(CharacterBase):
    """A 5e-style character (a system's model narrows ``system`` and the skill list)."""

    size: Size = "medium"
    """Size category."""
    abilities: Scores = Field(default_factory=Scores)
    """The six ability scores."""
    proficiency_bonus: int | None = Field(default=None, ge=0, le=20)
    """``null``: from level (+2 at 1-4 … +6 at 17-20); a number overrides it (creatures)."""
    skills: dict[str, Rank] = Field(default_factory=dict)
    """Skill → proficiency rank; absent skills are untrained."""
    saves: dict[str, SaveRank] = Field(default_factory=dict)
    """Ability → save proficiency; absent saves are untrained."""
    hit_points: FiveEHitPoints = Field(default_factory=FiveEHitPoints)
    """Hit points."""
    inventory: list[Item] = Field(default_factory=list, max_length=10_000)
    """What is carried (weight per item in the system's unit)."""
    armor: FiveEArmor = Field(default_factory=FiveEArmor)
    """Armor and shield."""

    _saves_known = field_validator("saves")(keys_known(ABILITIES, "save"))
