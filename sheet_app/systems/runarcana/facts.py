"""Runarcana RPG 0.92 (seed 001): the SRD's skills plus Technology (Int), weights in kg."""

from __future__ import annotations

from typing import Final

from sheet_app.systems.fivee.facts import SRD_SKILLS, five_e_facts, with_skill

SKILLS: Final = with_skill(SRD_SKILLS, "technology", "int", after="religion")
"""The seed's 19 skills, each with its ability."""

FACTS: Final = five_e_facts(
    SKILLS, "kg", hints={"perception": "use 'skill:perception' on Runarcana sheets"})
