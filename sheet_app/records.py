"""The roll log's entries as the character file keeps them.

Apart from `sheet_app.rolls` so the model can hold a log without importing dice and odds.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, field_validator

from sheet_app.derived import Outcome, RollMode


class ModifierRecord(BaseModel):
    """One breakdown line as it stood when the roll was made (the sheet may have changed since)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    label: str
    type: str
    value: int
    applied: bool = True
    reason: str | None = None


class RollRecord(BaseModel):
    """A past roll as kept in the character file; unknown keys survive a load and save."""

    model_config = ConfigDict(extra="allow", frozen=True)

    time: str
    """ISO-8601 with the roller's UTC offset, so the log shows the wall clock of the session."""
    statistic: str
    label: str
    mode: RollMode = "normal"
    dice: list[int]
    natural: int
    modifiers: list[ModifierRecord] = []
    total_modifier: int
    total: int
    dc: int | None = None
    outcome: Outcome | None = None

    @field_validator("time")
    @classmethod
    def _iso_8601(cls, value: str) -> str:
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"not an ISO-8601 time: {value!r}") from None
        return value
