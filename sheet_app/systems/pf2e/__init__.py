"""Pathfinder 2e (Player Core, seed 000)."""

from __future__ import annotations

from sheet_app.systems.base import BasicSystem
from sheet_app.systems.pf2e.facts import FACTS
from sheet_app.systems.pf2e.model import Pf2eCharacter
from sheet_app.systems.pf2e.rules import derive
from sheet_app.systems.pf2e.sheet import sheet

SYSTEM = BasicSystem(
    id="pf2e",
    name="Pathfinder 2e",
    facts=FACTS,
    model_type=Pf2eCharacter,
    derive_fn=derive,
    sheet_fn=sheet,
    package=__name__,
)
