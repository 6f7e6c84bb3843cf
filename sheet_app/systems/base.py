"""`BasicSystem`: a `RuleSystem` put together from a package's parts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

from sheet_app.derived import Derived
from sheet_app.model import CharacterBase, Effect, Modifier
from sheet_app.registry import Facts, Problem
from sheet_app.rules.common import effect_modifiers
from sheet_app.sheetspec import SheetSpec
from sheet_app.validation import problems as common_problems

Migration = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class BasicSystem:
    id: str
    name: str
    facts: Facts
    model_type: type[CharacterBase]
    derive_fn: Callable[[Any, Iterable[str]], Derived]
    sheet_fn: Callable[[], SheetSpec]
    package: str
    """The package holding ``sample.json``."""
    migrations: Mapping[int, Migration] = field(default_factory=dict)
    """``migrations[n]`` turns this system's version-n document into version n+1 (after the
    shared step has run)."""
    extra_problems: Callable[[Any], list[Problem]] | None = None

    @property
    def model(self) -> type[CharacterBase]:
        return self.model_type

    def derive(self, character: CharacterBase, variants: Iterable[str] = ()) -> Derived:
        return self.derive_fn(character, variants)

    def sheet(self) -> SheetSpec:
        return self._sheet

    @cached_property
    def _sheet(self) -> SheetSpec:
        return self.sheet_fn()

    def new_character(self, name: str = "") -> CharacterBase:
        """A blank, valid character at full hit points."""
        blank = self.model_type(name=name)  # type: ignore[call-arg]
        hp = self.derive(blank).hit_points.max
        data = blank.dump()
        data["hit_points"]["current"] = hp
        return self.model_type.model_validate(data)

    def sample(self) -> CharacterBase:
        from sheet_app.io import parse_character

        raw = (resources.files(self.package) / "sample.json").read_bytes()
        return parse_character(raw, f"{self.name} sample")

    def problems(self, character: CharacterBase) -> list[Problem]:
        found = common_problems(character, self.id, self.facts)
        if self.extra_problems is not None:
            found.extend(self.extra_problems(character))
        return found

    def migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        step = self.migrations.get(version)
        return step(data) if step is not None else data

    def suggest(self, stat_id: str) -> str | None:
        return self.facts.hints.get(stat_id)

    def condition_modifiers(self, effect: Effect) -> list[Modifier]:
        return effect_modifiers(effect, self.facts.conditions)
