"""Checks that need the whole character: what a modifier may say depends on its system.

Pydantic checks each field's shape; `problems` checks meaning across fields from the
system's `Facts`, and reports every problem with its path. It runs as a model validator of
every character (see `sheet_app.model.CharacterBase`), on load and on every edit.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from sheet_app.facts import ABILITIES

if TYPE_CHECKING:
    from sheet_app.model import CharacterBase
    from sheet_app.registry import Facts

Problem = tuple[str, str]
_OPEN_TYPE = re.compile(r"[a-z][a-z_]{0,39}")


def problems(character: CharacterBase, system_name: str, facts: Facts) -> list[Problem]:
    out: list[Problem] = []
    for ei, effect in enumerate(character.effects):
        if effect.condition is not None:
            out.extend(_condition_problems(f"effects.{ei}", effect.condition, effect.value,
                                           system_name, facts))
        for mi, mod in enumerate(effect.modifiers):
            where = f"effects.{ei}.modifiers.{mi}"
            if mod.mode is not None and mod.mode not in facts.roll_modes:
                allowed = ", ".join(facts.roll_modes) or "none"
                message = f"{system_name} has no {mod.mode!r} roll mode (allowed: {allowed})"
                out.append((f"{where}.mode", message))
            if mod.type is not None and not type_allowed(facts, mod.type):
                out.append((f"{where}.type", f"{mod.type!r} is not a {system_name} modifier type "
                            f"(expected one of {', '.join(_types_hint(facts))})"))
            for ti, target in enumerate(mod.targets):
                problem = target_problem(facts, system_name, target)
                if problem:
                    out.append((f"{where}.targets.{ti}", problem))
    return out


def _condition_problems(
    where: str, condition: str, value: int | None, system_name: str, facts: Facts
) -> list[Problem]:
    known = facts.conditions.get(condition)
    if known is None:
        close = difflib.get_close_matches(condition, list(facts.conditions), 1)
        hint = f"; did you mean {close[0]!r}?" if close else \
            f" (known: {', '.join(facts.conditions)})"
        return [(f"{where}.condition", f"{system_name} has no condition {condition!r}{hint}")]
    if known.max_value is None and value is not None:
        return [(f"{where}.value", f"{known.label} has no value")]
    if known.max_value is not None:
        if value is None:
            return [(f"{where}.value", f"{known.label} needs a value (1-{known.max_value})")]
        if not 1 <= value <= known.max_value:
            return [(f"{where}.value",
                     f"{known.label} goes from 1 to {known.max_value}, not {value}")]
    return []


def type_allowed(facts: Facts, type_: str) -> bool:
    """Systems with stacking types have a closed list; 5e-style ones take any word."""
    if facts.open_types:
        return bool(_OPEN_TYPE.fullmatch(type_))
    return type_ in facts.modifier_types


def _types_hint(facts: Facts) -> tuple[str, ...]:
    if facts.open_types:
        return (*facts.modifier_types, "or any snake_case word")
    return facts.modifier_types


def target_problem(facts: Facts, system_name: str, target: str) -> str | None:
    """Why ``target`` can't be a modifier target on this system's sheets, or ``None``."""
    if target in facts.hints:
        return facts.hints[target]
    kind, _, key = target.partition(":")
    if kind == "ability" and not facts.has_ability_checks:
        return (f"{system_name} has no ability checks "
                "(use 'skill', 'check' or 'uses:<abbr>')")
    if not key:
        if kind not in facts.groups:
            return f"{system_name} sheets have no {kind!r} statistics"
        return None
    if kind == "skill" and key not in facts.skills:
        return f"{system_name} has no skill {key!r}{_close(key, facts.skills)}"
    if kind == "save" and key not in facts.saves:
        return (f"{system_name} has no save {key!r} "
                f"(expected one of {', '.join(facts.saves)})")
    if kind == "ac" and target not in facts.extra_targets:
        return f"{target!r} doesn't exist on {system_name} sheets"
    if kind in ("ability", "uses", "score") and key not in ABILITIES:
        return f"unknown ability {key!r}"
    return None


def _close(key: str, known: object) -> str:
    close = difflib.get_close_matches(key, list(known), 2)  # type: ignore[call-overload]
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def key_warnings(character: BaseModel) -> list[Problem]:
    """Unknown keys that look like a misspelt field (``modifer`` beside ``modifiers``).

    Unknown keys are kept (a newer app's file survives a save here), so they are never
    errors; but one that is a near miss of a known field is almost always a typo, and a
    typo silently ignored is a bonus silently lost.
    """
    found: list[Problem] = []
    stack: list[tuple[str, Any]] = [("", character)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, BaseModel):
            fields = type(value).model_fields
            names = [*fields, *(f.alias for f in fields.values() if f.alias)]
            for key in value.model_extra or {}:
                close = difflib.get_close_matches(key, names, 1, 0.75)
                if close:
                    found.append((f"{where}{key}", f"unknown key, kept as is; did you mean "
                                                   f"{close[0]!r}?"))
            for name in fields:
                stack.append((f"{where}{fields[name].alias or name}.", getattr(value, name)))
        elif isinstance(value, list):
            stack.extend((f"{where}{i}.", item) for i, item in enumerate(value))
    return sorted(found)
