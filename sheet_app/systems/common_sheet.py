"""Pieces of sheet descriptions several systems share (header, hit dice, rank lists)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from pydantic import BaseModel

from sheet_app.facts import ABILITY_NAMES
from sheet_app.sheetspec import Choice, Control, Number, NumberList, Text, Toggle, bounds

HIT_DICE = (4, 6, 8, 10, 12, 20)


def header(model: type[BaseModel], sizes: tuple[str, ...], ancestry: str) -> tuple[Control, ...]:
    lo, hi = bounds(model, "level")
    return (
        Text(("name",), "Name", "Character name"),
        Number(("level",), "Level", lo, hi),
        Choice(("size",), "Size", tuple((s, s.capitalize()) for s in sizes)),
        Text(("ancestry",), ancestry, ancestry),
        Text(("class_",), "Class", "Class"),
    )


def current_hp(model: type[BaseModel]) -> tuple[Control, ...]:
    lo, hi = bounds(model, "hit_points", "current")
    tlo, thi = bounds(model, "hit_points", "temporary")
    return (
        Number(("hit_points", "current"), "Current", lo, hi, "Current hit points"),
        Number(("hit_points", "temporary"), "Temp", tlo, thi, "Temporary hit points"),
    )


def hit_dice(model: type[BaseModel]) -> tuple[Control, ...]:
    lo, hi = bounds(model, "hit_points", "level_rolls", "*")
    return (
        *current_hp(model),
        Choice(("hit_points", "hit_die"), "Hit die", tuple((d, f"d{d}") for d in HIT_DICE),
               role="hit_die"),
        NumberList(("hit_points", "level_rolls"), "Rolls, level 2+", lo, hi, "average",
                   "The hit die you rolled at levels 2, 3, …, separated by commas.\n"
                   "Levels without a roll use the average (die / 2 + 1)."),
    )


def ability_inputs(
    model: type[BaseModel], word: str, none_text: str | None = None
) -> Mapping[str, Number]:
    out: dict[str, Number] = {}
    for abbr, name in ABILITY_NAMES.items():
        lo, hi = bounds(model, "abilities", abbr)
        tip = f"{name} {word}" + (" (— for a creature without it)" if none_text else "")
        out[abbr] = Number(("abilities", abbr), f"{name} {word}", lo, hi, tip, none_text)
    return out


def rank_choices(ranks: tuple[str, ...], labels: Mapping[str, str]) -> tuple[tuple[Any, str], ...]:
    return tuple((r, labels.get(r, r.capitalize())) for r in ranks)


def presets(package: str) -> tuple[Mapping[str, Any], ...]:
    text = (resources.files(package) / "presets.json").read_text(encoding="utf-8")
    loaded: list[dict[str, Any]] = json.loads(text)
    return tuple(loaded)


def weapon_fields(*extra: Control) -> tuple[Control, ...]:
    """What every system's weapon editor has, then the system's own fields."""
    return (
        Choice(("ability",), "Ability", ((None, "Default (Str melee, Dex ranged)"),
                                          ("str", "Strength"), ("dex", "Dexterity"),
                                          ("finesse", "Finesse (the better)"))),
        Toggle(("thrown",), "Thrown", tip="A ranged weapon thrown with Str: Str to damage"),
        *extra,
    )
