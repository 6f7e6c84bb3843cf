"""The D&D 5e (SRD 5.1) character file."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from sheet_app.model import keys_known
from sheet_app.systems.dnd5e.facts import SKILLS
from sheet_app.systems.fivee.model import FiveECharacter


class Dnd5eCharacter(FiveECharacter):
    """A D&D 5e character (SRD 5.1); weights in lb."""

    system: Literal["dnd5e"] = "dnd5e"
    """``dnd5e``."""

    _skills_known = field_validator("skills")(keys_known(tuple(sorted(SKILLS)), "skill"))
