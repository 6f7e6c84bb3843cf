"""D&D 5th edition, System Reference Document 5.1: the 18 skills, weights in lb."""

from __future__ import annotations

from typing import Final

from sheet_app.systems.fivee.facts import SRD_SKILLS, five_e_facts

SKILLS: Final = SRD_SKILLS

FACTS: Final = five_e_facts(SKILLS, "lb", hints={
    "perception": "use 'skill:perception' on D&D 5e sheets",
    "skill:technology": "D&D 5e has no Technology skill (it is Runarcana's)",
})
