"""Pydantic models of the character file, format version 1 (see shared/CONTRACT.md).

One model per system, chosen by the ``system`` key. Every model keeps unknown keys
(``extra="allow"``) so a file written by a newer app survives a load and save here.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    field_validator,
    model_validator,
)

from sheet_app.rolls import RollRecord
from sheet_app.systems import (
    ABILITIES,
    D20_SAVES,
    D20_SIZES,
    D20_SKILLS,
    PF2E_SAVES,
    PF2E_SIZES,
    PF2E_SKILLS,
    RUNARCANA_SIZES,
    RUNARCANA_SKILLS,
)

FORMAT: Final = "sheet-app/character"
FORMAT_VERSION: Final = 1

_TARGET_RE = re.compile(
    r"^(check|ability|skill|save|attack|ac|perception|initiative|speed"
    r"|(ability|save|uses|score):(str|dex|con|int|wis|cha)"
    r"|skill:[a-z_]+|save:(fortitude|reflex|will)|attack:(melee|ranged)"
    r"|ac:(touch|flat_footed|armor|shield|natural_armor))$"
)

PF2eRank = Literal["untrained", "trained", "expert", "master", "legendary"]
RunarcanaRank = Literal["untrained", "proficient", "expertise", "expertise_twice"]
RunarcanaSaveRank = Literal["untrained", "proficient"]


class _Open(BaseModel):
    """Base of every model: unknown keys are kept and written back."""

    model_config = ConfigDict(extra="allow", validate_assignment=True, populate_by_name=True)


class Modifier(_Open):
    """A bonus or penalty (``type`` + ``value``) or a roll mode (``mode``), with its targets."""

    type: str | None = None
    value: int | None = Field(default=None, ge=-100, le=100)
    mode: Literal["advantage", "disadvantage", "fortune", "misfortune"] | None = None
    targets: list[str] = Field(default_factory=list, max_length=64)

    @field_validator("targets")
    @classmethod
    def _known_targets(cls, targets: list[str]) -> list[str]:
        for t in targets:
            if not _TARGET_RE.match(t):
                raise ValueError(
                    f"unknown target {t!r} (expected a statistic id like 'skill:stealth', a group "
                    "like 'skill' or 'save', 'check', 'uses:str' or 'score:str')"
                )
        return targets

    @model_validator(mode="after")
    def _value_or_mode(self) -> Self:
        if self.mode is None:
            if self.value is None:
                raise ValueError("a modifier needs a 'value' (or a 'mode' instead)")
            if self.type is None:
                self.__dict__["type"] = "untyped"
        elif self.value is not None:
            raise ValueError("a modifier has either a 'mode' or a 'value', not both")
        return self

    @property
    def is_mode(self) -> bool:
        return self.mode is not None


class Effect(_Open):
    name: str = Field(default="Effect", max_length=200)
    active: bool = True
    modifiers: list[Modifier] = Field(default_factory=list, max_length=50)


class Item(_Open):
    name: str = Field(default="", max_length=200)
    quantity: int = Field(default=1, ge=0, le=1_000_000)
    weight: float = Field(default=0.0, ge=0, le=1_000_000, allow_inf_nan=False)


class Pf2eItem(_Open):
    name: str = Field(default="", max_length=200)
    quantity: int = Field(default=1, ge=0, le=1_000_000)
    bulk: Literal["L", "-"] | Annotated[int, Field(ge=0, le=1000)] = 0


class DieHitPoints(_Open):
    """runarcana and d20srd: hit die maximum at level 1, then a roll (or the average) per level."""

    hit_die: Literal[4, 6, 8, 10, 12, 20] = 8
    level_rolls: list[Annotated[int, Field(ge=1, le=20)]] = Field(
        default_factory=list, max_length=100
    )
    current: int = Field(default=0, ge=-10_000, le=10_000)
    temporary: int = Field(default=0, ge=0, le=10_000)

    @model_validator(mode="after")
    def _rolls_fit_die(self) -> Self:
        for i, roll in enumerate(self.level_rolls):
            if roll > self.hit_die:
                raise ValueError(
                    f"level {i + 2} roll {roll} is higher than the hit die (d{self.hit_die})"
                )
        return self


class Pf2eHitPoints(_Open):
    ancestry: int = Field(default=8, ge=0, le=100)
    class_: int = Field(default=8, ge=0, le=100, alias="class")
    current: int = Field(default=0, ge=-10_000, le=10_000)
    temporary: int = Field(default=0, ge=0, le=10_000)


class Options(_Open):
    variant_encumbrance: bool = True
    sacred_profane: Literal["sacred", "profane"] | None = None
    """d20srd: which of sacred/profane bonuses the player keeps; ``None`` lets the sheet pick."""


class RunarcanaArmor(_Open):
    name: str = Field(default="", max_length=200)
    base: int = Field(default=10, ge=0, le=40)
    dex_cap: int | None = Field(default=None, ge=0, le=20)
    shield: int = Field(default=0, ge=0, le=20)


class Pf2eArmor(_Open):
    name: str = Field(default="", max_length=200)
    item_bonus: int = Field(default=0, ge=0, le=20)
    dex_cap: int | None = Field(default=None, ge=0, le=20)
    rank: PF2eRank = "trained"
    check_penalty: int = Field(default=0, ge=-10, le=0)
    speed_penalty: int = Field(default=0, ge=0, le=30)


class D20Armor(_Open):
    name: str = Field(default="", max_length=200)
    armor_bonus: int = Field(default=0, ge=0, le=30)
    shield_bonus: int = Field(default=0, ge=0, le=30)
    natural_armor: int = Field(default=0, ge=0, le=50)
    max_dex: int | None = Field(default=None, ge=0, le=20)
    check_penalty: int = Field(default=0, ge=-20, le=0)


class _Base(_Open):
    format: Literal["sheet-app/character"] = FORMAT
    version: Literal[1] = FORMAT_VERSION
    system: str = "runarcana"
    name: str = Field(default="", max_length=200)
    level: int = Field(default=1, ge=1, le=20)
    ancestry: str = Field(default="", max_length=200)
    class_: str = Field(default="", max_length=200, alias="class")
    speed: int = Field(default=30, ge=0, le=300)
    inventory: list[Any] = Field(default_factory=list, max_length=10_000)
    effects: list[Effect] = Field(default_factory=list, max_length=1_000)
    options: Options = Field(default_factory=Options)
    notes: str = Field(default="", max_length=100_000)
    roll_log: list[RollRecord] = Field(default_factory=list, max_length=1_000)

    def dump(self) -> dict[str, Any]:
        """The JSON-ready dict of this character, unknown keys included."""
        return self.model_dump(mode="json", by_alias=True)


# --- runarcana ---------------------------------------------------------------------------
_RunarcanaScore = Annotated[int, Field(ge=1, le=30)]
_Pf2eAttribute = Annotated[int, Field(ge=-5, le=10)]


class RunarcanaAbilities(_Open):
    str: _RunarcanaScore = 10
    dex: _RunarcanaScore = 10
    con: _RunarcanaScore = 10
    int: _RunarcanaScore = 10
    wis: _RunarcanaScore = 10
    cha: _RunarcanaScore = 10


def _key_check(known: tuple[str, ...], what: str) -> Any:
    def check(value: dict[str, Any]) -> dict[str, Any]:
        for key in value:
            if key not in known:
                raise ValueError(f"unknown {what} {key!r} (known: {', '.join(known)})")
        return value

    return check


def _skill_dict(known: dict[str, str]) -> Any:
    return _key_check(tuple(sorted(known)), "skill")


class RunarcanaCharacter(_Base):
    system: Literal["runarcana"] = "runarcana"
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    abilities: RunarcanaAbilities = Field(default_factory=RunarcanaAbilities)
    proficiency_bonus: int | None = Field(default=None, ge=0, le=20)
    skills: dict[str, RunarcanaRank] = Field(default_factory=dict)
    saves: dict[str, RunarcanaSaveRank] = Field(default_factory=dict)
    hit_points: DieHitPoints = Field(default_factory=DieHitPoints)
    inventory: list[Item] = Field(default_factory=list, max_length=10_000)
    armor: RunarcanaArmor = Field(default_factory=RunarcanaArmor)

    _skills_known = field_validator("skills")(_skill_dict(RUNARCANA_SKILLS))
    _saves_known = field_validator("saves")(_key_check(ABILITIES, "save"))


# --- pf2e --------------------------------------------------------------------------------
class Pf2eAbilities(_Open):
    str: _Pf2eAttribute = 0
    dex: _Pf2eAttribute = 0
    con: _Pf2eAttribute = 0
    int: _Pf2eAttribute = 0
    wis: _Pf2eAttribute = 0
    cha: _Pf2eAttribute = 0


def _all_trained(keys: tuple[str, ...]) -> dict[str, PF2eRank]:
    return dict.fromkeys(keys, "trained")


class Pf2eCharacter(_Base):
    system: Literal["pf2e"] = "pf2e"
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    speed: int = Field(default=25, ge=0, le=300)
    abilities: Pf2eAbilities = Field(default_factory=Pf2eAbilities)
    perception: PF2eRank = "trained"
    skills: dict[str, PF2eRank] = Field(default_factory=dict)
    saves: dict[str, PF2eRank] = Field(
        default_factory=lambda: _all_trained(tuple(PF2E_SAVES))
    )
    weapon_proficiency: PF2eRank = "trained"
    hit_points: Pf2eHitPoints = Field(default_factory=Pf2eHitPoints)
    inventory: list[Pf2eItem] = Field(default_factory=list, max_length=10_000)
    armor: Pf2eArmor = Field(default_factory=Pf2eArmor)

    _skills_known = field_validator("skills")(_skill_dict(PF2E_SKILLS))
    _saves_known = field_validator("saves")(_key_check(tuple(PF2E_SAVES), "save"))


# --- d20srd ------------------------------------------------------------------------------
_Score = Annotated[int, Field(ge=0, le=99)] | None


class D20Abilities(_Open):
    """Scores; ``null`` means the creature lacks the ability (a construct's Intelligence)."""

    str: _Score = 10
    dex: _Score = 10
    con: _Score = 10
    int: _Score = 10
    wis: _Score = 10
    cha: _Score = 10


class D20Character(_Base):
    system: Literal["d20srd"] = "d20srd"
    size: Literal[
        "fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"
    ] = "medium"
    abilities: D20Abilities = Field(default_factory=D20Abilities)
    skill_ranks: dict[str, Annotated[int, Field(ge=0, le=50)]] = Field(default_factory=dict)
    base_saves: dict[str, Annotated[int, Field(ge=0, le=30)]] = Field(
        default_factory=lambda: {"fortitude": 0, "reflex": 0, "will": 0}
    )
    base_attack_bonus: int = Field(default=0, ge=0, le=40)
    hit_points: DieHitPoints = Field(default_factory=DieHitPoints)
    inventory: list[Item] = Field(default_factory=list, max_length=10_000)
    armor: D20Armor = Field(default_factory=D20Armor)

    _skills_known = field_validator("skill_ranks")(_skill_dict(D20_SKILLS))
    _saves_known = field_validator("base_saves")(_key_check(tuple(D20_SAVES), "save"))


Character = Annotated[
    RunarcanaCharacter | Pf2eCharacter | D20Character, Field(discriminator="system")
]
AnyCharacter = RunarcanaCharacter | Pf2eCharacter | D20Character
CHARACTER_ADAPTER: TypeAdapter[AnyCharacter] = TypeAdapter(Character)
MODELS: dict[str, type[AnyCharacter]] = {
    "runarcana": RunarcanaCharacter,
    "pf2e": Pf2eCharacter,
    "d20srd": D20Character,
}
assert set(RUNARCANA_SIZES) <= set(D20_SIZES) and set(PF2E_SIZES) <= set(D20_SIZES)
assert tuple(D20_SAVES) == tuple(PF2E_SAVES)


def new_character(system: str, name: str = "") -> AnyCharacter:
    """A blank, valid character of ``system`` (raises KeyError for an unknown one)."""
    model = MODELS[system]
    character = model(name=name)
    if isinstance(character, RunarcanaCharacter | D20Character):
        character.hit_points.current = 0
    return character


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the file format. ``format``, ``version`` and ``system`` are required
    (the loader refuses a file without them, so the schema says so too)."""
    schema = CHARACTER_ADAPTER.json_schema(by_alias=True)
    for model in MODELS.values():
        schema["$defs"][model.__name__]["required"] = ["format", "version", "system"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sheet-app character, format version 1",
        **schema,
    }
