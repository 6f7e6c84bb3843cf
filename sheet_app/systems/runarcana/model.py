"""The Runarcana character file."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from sheet_app.model import keys_known
from sheet_app.systems.fivee.model import FiveECharacter
from sheet_app.systems.runarcana.facts import SKILLS


class RunarcanaCharacter(FiveECharacter):
    """A Runarcana RPG 0.92 character; weights in kg."""

    system: Literal["runarcana"] = "runarcana"
    """``runarcana``."""

    _skills_known = field_validator("skills")(keys_known(tuple(sorted(SKILLS)), "skill"))
