"""Checks that need the whole character (the system decides what a modifier may say).

Pydantic checks each field's shape; these check meaning across fields, and report every
problem with its path, so ``validate`` can list them all at once.
"""

from __future__ import annotations

import re

from sheet_app.model import AnyCharacter
from sheet_app.systems import (
    ABILITIES,
    MODIFIER_TYPES,
    PF2E_SAVES,
    ROLL_MODES,
    SKILLS,
)

Problem = tuple[str, str]


def semantic_problems(character: AnyCharacter) -> list[Problem]:
    system = character.system
    problems: list[Problem] = []
    for ei, effect in enumerate(character.effects):
        for mi, mod in enumerate(effect.modifiers):
            where = f"effects.{ei}.modifiers.{mi}"
            if mod.mode is not None and mod.mode not in ROLL_MODES[system]:
                allowed = ", ".join(ROLL_MODES[system]) or "none"
                message = f"{system} has no {mod.mode!r} roll mode (allowed: {allowed})"
                problems.append((f"{where}.mode", message))
            if mod.type is not None and not type_allowed(system, mod.type):
                problems.append(
                    (
                        f"{where}.type",
                        f"{mod.type!r} is not a {system} modifier type "
                        f"(expected one of {', '.join(_types_hint(system))})",
                    )
                )
            for ti, target in enumerate(mod.targets):
                target_problem = _target_problem(system, target)
                if target_problem:
                    problems.append((f"{where}.targets.{ti}", target_problem))
    return problems


def type_allowed(system: str, type_: str) -> bool:
    """pf2e and d20srd have closed lists of types; runarcana (5e-style) has none, so any word."""
    if system == "runarcana":
        return bool(re.fullmatch(r"[a-z][a-z_]{0,39}", type_))
    return type_ in MODIFIER_TYPES[system]


def _types_hint(system: str) -> tuple[str, ...]:
    if system == "runarcana":
        return ("untyped", "status", "item", "circumstance", "or any snake_case word")
    return MODIFIER_TYPES[system]


def _target_problem(system: str, target: str) -> str | None:
    if target.startswith("skill:") and target[6:] not in SKILLS[system]:
        return f"{system} has no skill {target[6:]!r}"
    if target.startswith("save:"):
        valid = ABILITIES if system == "runarcana" else tuple(PF2E_SAVES)
        if target[5:] not in valid:
            return f"{system} has no save {target[5:]!r} (expected one of {', '.join(valid)})"
    if target.startswith("ac:") and system != "d20srd":
        return f"{target!r} exists only on d20srd sheets"
    if target.startswith("ability") and system == "pf2e":
        return "pf2e has no ability checks (use 'skill', 'check' or 'uses:<abbr>')"
    if target == "perception" and system != "pf2e":
        return f"use 'skill:perception' on {system} sheets"
    return None
