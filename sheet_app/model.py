"""The character file's shared models, format version 2 (see docs/format.md).

Every system's model (in its package under ``sheet_app.systems``) derives from
`CharacterBase`. Every model keeps unknown keys (``extra="allow"``) so a file written by a
newer app survives a load and save here. Field docstrings are the schema's descriptions.

Checks that need the whole character (a modifier type the system lacks, a skill it doesn't
have) are a model validator on `CharacterBase`, asked of the character's system, so they run
on every validation: a loaded file and every edit alike.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from sheet_app.records import RollRecord

FORMAT: Final = "sheet-app/character"
FORMAT_VERSION: Final = 2

_ABBR = r"(str|dex|con|int|wis|cha)"
_KEY = r"[a-z0-9_]+"
TARGET_RE: Final = re.compile(
    r"^(check|ability|skill|save|attack|ac|perception|initiative|speed|damage"
    r"|spell_attack|spell_dc|class_dc"
    rf"|(ability|save|uses|score):{_ABBR}"
    rf"|skill:{_KEY}|save:{_KEY}|attack:{_KEY}|damage:{_KEY}"
    rf"|spell_attack:{_KEY}|spell_dc:{_KEY}"
    r"|ac:(touch|flat_footed|armor|shield|natural_armor))$"
)
MAX_EFFECTS: Final = 100
MAX_MODIFIERS: Final = 5
MAX_WEAPONS: Final = 20
MAX_SPELLCASTING: Final = 10
MAX_ROLL_LOG: Final = 200
"""Limits that keep every edit interactive on the largest sheet they allow: with 100 active
effects × 5 modifiers × 64 targets, 20 weapons, 10 spellcasters and 10,000 items, `derive`
takes about 30 ms, an edit (``edit.apply`` + `derive`) about 40 ms and a roll onto a full
200-entry log about 55 ms (the slowest system, on a 2-core machine). ``MAX_ROLL_LOG`` is
`sheet_app.rolls.ROLL_LOG_LIMIT` too: a file holding more rolls loads its newest 200."""

DICE_RE: Final = re.compile(r"^[+-]?\d{1,2}d\d{1,3}([+-]\d{1,3})?$")
"""A dice-valued modifier: ``1d4``, ``-1d6``, ``2d6+1``."""


class Problems(ValueError):
    """Several ``(path, message)`` problems found at once (a system's whole-sheet checks)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p}: {m}" if p else m for p, m in problems))


class Open(BaseModel):
    """Base of every model: unknown keys are kept and written back."""

    model_config = ConfigDict(
        extra="allow", validate_assignment=True, populate_by_name=True,
        use_attribute_docstrings=True,
    )


class Modifier(Open):
    """A bonus or penalty (``type`` + ``value``) or a roll mode (``mode``), with its targets."""

    type: str | None = None
    """The stacking type (a type word of the system, ``untyped`` when it has none)."""
    value: int | str | None = None
    """The amount, negative for a penalty; or a dice expression such as ``1d4`` (Bless)."""
    mode: Literal["advantage", "disadvantage", "fortune", "misfortune"] | None = None
    """Instead of a value: how the targeted checks are rolled."""
    targets: list[str] = Field(default_factory=list, max_length=64)
    """Statistic ids or groups this modifier reaches (``skill:stealth``, ``save``, ``check``)."""

    @field_validator("value")
    @classmethod
    def _value_range(cls, value: int | str | None) -> int | str | None:
        if isinstance(value, int) and not -100 <= value <= 100:
            raise ValueError(f"a modifier's value must be between -100 and 100, not {value}")
        if isinstance(value, str) and not DICE_RE.match(value):
            raise ValueError(f"{value!r} is not a number or a dice expression like '1d4'")
        return value

    @field_validator("targets")
    @classmethod
    def _known_targets(cls, targets: list[str]) -> list[str]:
        for t in targets:
            if not TARGET_RE.match(t):
                raise ValueError(
                    f"unknown target {t!r} (expected a statistic id like 'skill:stealth', a group "
                    "like 'skill' or 'save', 'check', 'uses:str' or 'score:str')"
                )
        return targets

    @model_validator(mode="before")
    @classmethod
    def _untyped_by_default(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("mode") is None and data.get("type") is None \
                and data.get("value") is not None:
            return {**data, "type": "untyped"}
        return data

    @model_validator(mode="after")
    def _value_or_mode(self) -> Self:
        if self.mode is None and self.value is None:
            raise ValueError("a modifier needs a 'value' (or a 'mode' instead)")
        if self.mode is not None and self.value is not None:
            raise ValueError("a modifier has either a 'mode' or a 'value', not both")
        return self

    @property
    def is_mode(self) -> bool:
        return self.mode is not None

    @property
    def is_dice(self) -> bool:
        return isinstance(self.value, str)


class Effect(Open):
    """A spell, item, condition or situation that changes numbers while it is active."""

    name: str = Field(default="Effect", max_length=200)
    """Its source: two effects with one name are the same source and don't stack."""
    active: bool = True
    """Whether it applies now."""
    modifiers: list[Modifier] = Field(default_factory=list, max_length=MAX_MODIFIERS)
    """What it changes (at most 5 modifiers)."""
    condition: str | None = Field(default=None, max_length=40)
    """A condition of the system (``frightened``); its modifiers come from the system's rules."""
    value: int | None = Field(default=None, ge=0, le=20)
    """The condition's value (frightened 2, exhaustion 4)."""
    until: Literal["next_roll"] | None = None
    """``next_roll``: switches itself off after the first roll it changes (Guidance)."""


class Item(Open):
    """Something carried."""

    name: str = Field(default="", max_length=200)
    """What it is."""
    quantity: int = Field(default=1, ge=0, le=1_000_000)
    """How many."""
    weight: float = Field(default=0.0, ge=0, le=1_000_000, allow_inf_nan=False)
    """Weight of one, in the system's unit (kg or lb)."""


class DeathSaves(Open):
    """5e-style death saving throws."""

    successes: int = Field(default=0, ge=0, le=3)
    """Successes so far (3 stabilises)."""
    failures: int = Field(default=0, ge=0, le=3)
    """Failures so far (3 is death)."""


class DieHitPoints(Open):
    """Hit points from a hit die: its maximum at level 1, then a roll (or the average) per
    later level."""

    hit_die: Literal[4, 6, 8, 10, 12, 20] = 8
    """The class's hit die (d8 is 8)."""
    level_rolls: list[Annotated[int, Field(ge=1, le=20)]] = Field(
        default_factory=list, max_length=100
    )
    """The hit die rolled at levels 2, 3, …; missing levels use the average (die/2 + 1)."""
    current: int = Field(default=0, ge=-10_000, le=10_000)
    """Current hit points."""
    temporary: int = Field(default=0, ge=0, le=10_000)
    """Temporary hit points, lost first."""

    @model_validator(mode="after")
    def _rolls_fit_die(self) -> Self:
        for i, roll in enumerate(self.level_rolls):
            if roll > self.hit_die:
                raise ValueError(
                    f"level {i + 2} roll {roll} is higher than the hit die (d{self.hit_die})"
                )
        return self


class Options(Open):
    """Sheet-wide choices."""

    variant_encumbrance: bool = True
    """5e-style: encumbered and heavily encumbered below capacity (on for new sheets)."""
    sacred_profane: Literal["sacred", "profane"] | None = None
    """d20srd: which of sacred/profane bonuses the player keeps; ``null`` lets the sheet pick."""


class Critical(Open):
    """A weapon's critical threat range and multiplier (d20srd)."""

    range: int = Field(default=20, ge=2, le=20)
    """The lowest natural roll that threatens (19 for 19–20)."""
    multiplier: int = Field(default=2, ge=2, le=6)
    """Damage is rolled this many times on a confirmed critical."""


class Weapon(Open):
    """A weapon the character attacks with."""

    name: str = Field(default="Weapon", min_length=1, max_length=200)
    """Its name; ``attack:<name in snake_case>`` is its attack's statistic id."""
    attack: Literal["melee", "ranged"] = "melee"
    """Melee or ranged."""
    damage: str = Field(default="1d6", max_length=60)
    """The weapon's own damage dice, without the ability modifier (``1d8``)."""
    damage_type: str = Field(default="", max_length=40)
    """Slashing, piercing, bludgeoning, fire…"""
    ability: Literal["str", "dex", "finesse"] | None = None
    """The attack's ability; ``finesse`` takes the better of Str and Dex. Default: Str for
    melee, Dex for ranged."""
    thrown: bool = False
    """A thrown ranged weapon adds Str to damage."""
    two_handed: bool = False
    """d20srd: 1½ × Str to damage."""
    critical: Critical | None = None
    """d20srd: threat range and multiplier (default 20, ×2)."""
    potency: int = Field(default=0, ge=0, le=4)
    """pf2e: potency rune, an item bonus to attack."""
    striking: int = Field(default=0, ge=0, le=3)
    """pf2e: striking rune, extra weapon damage dice."""
    agile: bool = False
    """pf2e: the agile trait (multiple attack penalty −4/−8 instead of −5/−10)."""
    rank: Literal["untrained", "trained", "expert", "master", "legendary"] | None = None
    """pf2e: proficiency with this weapon (default the sheet's weapon proficiency)."""
    proficient: bool = True
    """5e-style: proficiency bonus added to the attack."""

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        if not re.fullmatch(r"\d{1,2}d\d{1,3}([+-]\d{1,3})?|\d{1,3}", value.replace(" ", "")):
            raise ValueError(f"{value!r} is not a damage expression like '1d8' or '2d6+1'")
        return value


class Spellcaster(Open):
    """One spellcasting class or tradition."""

    name: str = Field(default="Spellcasting", min_length=1, max_length=200)
    """Its name; ``spell_dc:<name in snake_case>`` is its DC."""
    ability: Literal["str", "dex", "con", "int", "wis", "cha"] = "int"
    """The key ability."""
    rank: Literal["untrained", "trained", "expert", "master", "legendary"] | None = None
    """pf2e: spellcasting proficiency."""
    slots: dict[str, Annotated[list[Annotated[int, Field(ge=0, le=99)]],
                               Field(min_length=2, max_length=2)]] = Field(default_factory=dict)
    """Spell level → ``[maximum, used]``."""
    spells: list[Any] = Field(default_factory=list, max_length=1_000)
    """Spells known or prepared (kept as written)."""

    @field_validator("slots")
    @classmethod
    def _levels(cls, slots: dict[str, list[int]]) -> dict[str, list[int]]:
        for level, (maximum, used) in slots.items():
            if level not in {str(n) for n in range(10)}:
                raise ValueError(f"spell level {level!r} is not 0-9")
            if used > maximum:
                raise ValueError(f"level {level}: {used} slots used of {maximum}")
        return slots


class Resource(Open):
    """A pool the character spends: hero points, ki, rage, uses per day."""

    name: str = Field(default="Resource", min_length=1, max_length=200)
    """What it is."""
    max: int = Field(default=1, ge=0, le=1_000)
    """The most it can hold."""
    current: int = Field(default=0, ge=0, le=1_000)
    """What is left."""

    @model_validator(mode="after")
    def _within_max(self) -> Self:
        if self.current > self.max:
            raise ValueError(f"{self.name}: {self.current} left is more than the maximum "
                             f"{self.max}")
        return self


class CharacterBase(Open):
    """What every system's character has."""

    format: Literal["sheet-app/character"] = FORMAT
    """Always ``sheet-app/character``."""
    version: Literal[2] = FORMAT_VERSION
    """The format version (older files are migrated on load)."""
    system: str
    """The rule system's id."""
    name: str = Field(default="", max_length=200)
    """The character's name."""
    level: int = Field(default=1, ge=1, le=20)
    """Character level."""
    ancestry: str = Field(default="", max_length=200)
    """Ancestry, race or origin."""
    class_: str = Field(default="", max_length=200, alias="class")
    """Class (free text)."""
    speed: int = Field(default=30, ge=0, le=300)
    """Base land speed in feet."""
    inventory: list[Any] = Field(default_factory=list, max_length=10_000)
    """What is carried."""
    effects: list[Effect] = Field(default_factory=list, max_length=MAX_EFFECTS)
    """Spells, items and conditions that change numbers (at most 100)."""
    weapons: list[Weapon] = Field(default_factory=list, max_length=MAX_WEAPONS)
    """Weapons the character attacks with (at most 20)."""
    spellcasting: list[Spellcaster] = Field(default_factory=list, max_length=MAX_SPELLCASTING)
    """Spellcasting classes or traditions (at most 10)."""
    resources: list[Resource] = Field(default_factory=list, max_length=200)
    """Pools the character spends and regains."""
    options: Options = Field(default_factory=Options)
    """Sheet-wide choices."""
    notes: str = Field(default="", max_length=100_000)
    """Free notes."""
    roll_log: list[RollRecord] = Field(default_factory=list, max_length=MAX_ROLL_LOG)
    """Past rolls, oldest first: the newest 200 (a file holding more loads its newest 200)."""

    def dump(self) -> dict[str, Any]:
        """The JSON-ready dict of this character, unknown keys included."""
        return self.model_dump(mode="json", by_alias=True)

    @model_validator(mode="after")
    def _system_checks(self) -> Self:
        from sheet_app import registry

        try:
            system = registry.get(self.system)
        except registry.UnknownSystem as exc:
            raise ValueError(str(exc)) from None
        problems = system.problems(self)
        if problems:
            raise Problems(problems)
        return self


def keys_known(known: tuple[str, ...], what: str) -> Any:
    """A field validator: every key of the dict is one of ``known``."""

    def check(value: dict[str, Any]) -> dict[str, Any]:
        for key in value:
            if key not in known:
                raise ValueError(f"unknown {what} {key!r} (known: {', '.join(known)})")
        return value

    return check
