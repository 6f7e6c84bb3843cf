"""The d20 SRD 3.5 / d20 Modern core mechanic and its 24 modifier types (seed 003)."""

from __future__ import annotations

from sheet_app.systems.base import BasicSystem
from sheet_app.systems.d20srd.facts import FACTS
from sheet_app.systems.d20srd.model import D20Character, migrate_v1
from sheet_app.systems.d20srd.rules import derive
from sheet_app.systems.d20srd.sheet import sheet

SYSTEM = BasicSystem(
    id="d20srd",
    name="d20 SRD 3.5",
    facts=FACTS,
    model_type=D20Character,
    derive_fn=derive,
    sheet_fn=sheet,
    package=__name__,
    migrations={1: migrate_v1},
)
