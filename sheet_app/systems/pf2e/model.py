"""The Pathfinder 2e character file: attribute modifiers, ranks, ancestry and class HP, Bulk."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from sheet_app.model import CharacterBase, Open, keys_known
from sheet_app.systems.pf2e.facts import SAVES, SKILLS

Rank = Literal["untrained", "trained", "expert", "master", "legendary"]
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
_Attribute = Annotated[int, Field(ge=-5, le=10)]


class Attributes(Open):
    """Attribute modifiers (Pathfinder stores +3, not a score of 16), −5 to +10."""

    str: _Attribute = 0
    """Strength modifier."""
    dex: _Attribute = 0
    """Dexterity modifier."""
    con: _Attribute = 0
    """Constitution modifier."""
    int: _Attribute = 0
    """Intelligence modifier."""
    wis: _Attribute = 0
    """Wisdom modifier."""
    cha: _Attribute = 0
    """Charisma modifier."""

    @field_validator("str", "dex", "con", "int", "wis", "cha", mode="before")
    @classmethod
    def _modifiers_not_scores(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value > 10:
            raise ValueError(
                f"{value} is a score, but Pathfinder 2e stores attribute modifiers (a score "
                f"of {value} is {(value - 10) // 2:+d}); enter -5 to +10")
        return value


class Pf2eItem(Open):
    """Something carried, with its Bulk."""

    name: str = Field(default="", max_length=200)
    """What it is."""
    quantity: int = Field(default=1, ge=0, le=1_000_000)
    """How many."""
    bulk: Literal["L", "-"] | Annotated[int, Field(ge=0, le=1000)] = 0
    """Bulk of one: a number, ``L`` (light; ten make 1 Bulk) or ``-`` (negligible)."""


class Pf2eHitPoints(Open):
    """Hit points: ancestry HP + (class HP + Con) × level."""

    ancestry: int = Field(default=8, ge=0, le=100)
    """Hit points the ancestry gives at level 1."""
    class_: int = Field(default=8, ge=0, le=100, alias="class")
    """Hit points the class gives each level."""
    current: int = Field(default=0, ge=-10_000, le=10_000)
    """Current hit points."""
    temporary: int = Field(default=0, ge=0, le=10_000)
    """Temporary hit points, lost first."""
    dying: int = Field(default=0, ge=0, le=4)
    """The dying condition's value (4 is death)."""
    wounded: int = Field(default=0, ge=0, le=3)
    """The wounded condition's value (added to dying when you go down)."""


class Pf2eArmor(Open):
    """The armor worn."""

    name: str = Field(default="", max_length=200)
    """The armor's name."""
    item_bonus: int = Field(default=0, ge=0, le=20)
    """Its item bonus to AC."""
    dex_cap: int | None = Field(default=None, ge=0, le=20)
    """The most Dexterity modifier it allows; ``null`` for none."""
    rank: Rank = "trained"
    """Proficiency with this armor."""
    check_penalty: int = Field(default=0, ge=-10, le=0)
    """Penalty to Str- and Dex-based skill checks."""
    speed_penalty: int = Field(default=0, ge=0, le=30)
    """Feet of speed lost."""


def _all_trained() -> dict[str, Rank]:
    return dict.fromkeys(SAVES, "trained")


class Pf2eCharacter(CharacterBase):
    """A Pathfinder 2e character."""

    system: Literal["pf2e"] = "pf2e"
    """``pf2e``."""
    size: Size = "medium"
    """Size category."""
    speed: int = Field(default=25, ge=0, le=300)
    """Base land speed in feet."""
    abilities: Attributes = Field(default_factory=Attributes)
    """The six attribute modifiers."""
    perception: Rank = "trained"
    """Perception proficiency."""
    skills: dict[str, Rank] = Field(default_factory=dict)
    """Skill → proficiency rank; absent skills are untrained."""
    saves: dict[str, Rank] = Field(default_factory=_all_trained)
    """Fortitude, Reflex and Will proficiency."""
    weapon_proficiency: Rank = "trained"
    """Proficiency with the weapons the generic attacks use."""
    hit_points: Pf2eHitPoints = Field(default_factory=Pf2eHitPoints)
    """Hit points."""
    inventory: list[Pf2eItem] = Field(default_factory=list, max_length=10_000)
    """What is carried, in Bulk."""
    armor: Pf2eArmor = Field(default_factory=Pf2eArmor)
    """The armor worn."""

    _skills_known = field_validator("skills")(keys_known(tuple(sorted(SKILLS)), "skill"))
    _saves_known = field_validator("saves")(keys_known(tuple(SAVES), "save"))
