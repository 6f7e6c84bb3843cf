"""D&D 5th edition, System Reference Document 5.1 (beyond the seeds).

Everything of the 5e-style rules Runarcana uses (scores, proficiency by level, expertise,
advantage, passives, saves, hit dice), with the SRD's 18 skills, weights in lb, carrying
capacity Str × 15 lb (push, drag, lift × 30), variant encumbrance above Str × 5 and × 10 lb,
and exhaustion's six levels.
"""

from __future__ import annotations

from collections.abc import Iterable

from sheet_app.derived import Derived
from sheet_app.sheetspec import SheetSpec
from sheet_app.systems import common_sheet
from sheet_app.systems.base import BasicSystem
from sheet_app.systems.dnd5e.facts import FACTS, SKILLS
from sheet_app.systems.dnd5e.model import Dnd5eCharacter
from sheet_app.systems.fivee import rules, sheet

NAME = "D&D 5e (SRD 5.1)"
RULES = rules.FiveE("dnd5e", SKILLS, "lb", 15, FACTS.conditions)


def derive(character: Dnd5eCharacter, variants: Iterable[str] = ()) -> Derived:
    return rules.derive(RULES, character, variants)


def describe_sheet() -> SheetSpec:
    return sheet.sheet(NAME, Dnd5eCharacter, FACTS, common_sheet.presets(__name__))


SYSTEM = BasicSystem(
    id="dnd5e",
    name=NAME,
    facts=FACTS,
    model_type=Dnd5eCharacter,
    derive_fn=derive,
    sheet_fn=describe_sheet,
    package=__name__,
)
