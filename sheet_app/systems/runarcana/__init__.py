"""Runarcana RPG 0.92, a 5e-style system (seed 001)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from sheet_app.derived import Derived
from sheet_app.systems import common_sheet
from sheet_app.systems.base import BasicSystem
from sheet_app.systems.fivee import rules, sheet
from sheet_app.systems.runarcana.facts import FACTS, SKILLS
from sheet_app.systems.runarcana.model import RunarcanaCharacter

RULES = rules.FiveE("runarcana", SKILLS, "kg", 7, FACTS.conditions)


def derive(character: RunarcanaCharacter, variants: Iterable[str] = ()) -> Derived:
    return rules.derive(RULES, character, variants)


SYSTEM = BasicSystem(
    id="runarcana",
    name="Runarcana",
    facts=FACTS,
    model_type=RunarcanaCharacter,
    derive_fn=derive,
    sheet_fn=partial(sheet.sheet, "Runarcana", RunarcanaCharacter, FACTS,
                     common_sheet.presets(__name__)),
    package=__name__,
)
