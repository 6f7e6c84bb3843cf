"""The roll log's entries as the character file keeps them.

Apart from `sheet_app.rolls` so the model can hold a log without importing dice and odds.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from sheet_app.derived import Outcome, RollMode


class ModifierRecord(BaseModel):
    """One breakdown line as it stood when the roll was made (the sheet may have changed since)."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True)

    label: str
    """Where it came from."""
    type: str
    """Its stacking type."""
    value: int
    """Its value."""
    applied: bool = True
    """Whether it counted."""
    reason: str | None = None
    """Why it didn't count, when it didn't."""


class RollRecord(BaseModel):
    """A past roll as kept in the character file; unknown keys survive a load and save."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True)

    time: str
    """ISO-8601 with the roller's UTC offset, so the log shows the wall clock of the session."""
    kind: Literal["check", "damage", "hit_points", "death_save", "recovery"] = "check"
    """What was logged: a check, a damage roll, a change of hit points, a death save or a
    pf2e recovery check."""
    statistic: str
    """The statistic id rolled (``damage:longsword``, ``hp`` for hit points)."""
    label: str
    """Its name on the sheet."""
    mode: RollMode = "normal"
    """The mode actually rolled."""
    dice: list[int] = []
    """Every die rolled."""
    natural: int | None = None
    """The d20 kept (checks)."""
    modifiers: list[ModifierRecord] = []
    """The breakdown as it stood when rolled."""
    total_modifier: int = 0
    """The sum of the applied modifiers."""
    total: int
    """natural + total_modifier for a check; damage dealt; hit points after a change."""
    text: str | None = None
    """For entries other than checks: what happened, in words."""
    dc: int | None = None
    """The DC rolled against, if any."""
    outcome: Outcome | None = None
    """success/failure, or a pf2e degree; null without a DC."""

    @field_validator("time")
    @classmethod
    def _iso_8601(cls, value: str) -> str:
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"not an ISO-8601 time: {value!r}") from None
        return value
