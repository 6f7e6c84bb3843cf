"""The rules engine: ``derive(character)`` computes every number of a sheet, with reasons."""

from __future__ import annotations

from collections.abc import Iterable

from sheet_app.derived import Derived
from sheet_app.model import AnyCharacter, D20Character, Pf2eCharacter, RunarcanaCharacter


def derive(character: AnyCharacter, variants: Iterable[str] = ()) -> Derived:
    """A pure function of the character: the same input always gives an equal snapshot.

    ``variants`` asks for statistics beyond the sheet's own, where the system has them:
    runarcana's skill rolled with another ability, ``skill:athletics@con``.
    """
    if isinstance(character, RunarcanaCharacter):
        from sheet_app.rules import runarcana

        return runarcana.derive(character, variants)
    if isinstance(character, Pf2eCharacter):
        from sheet_app.rules import pf2e

        return pf2e.derive(character)
    if isinstance(character, D20Character):
        from sheet_app.rules import d20srd

        return d20srd.derive(character)
    raise TypeError(f"not a character: {type(character).__name__}")


__all__ = ["derive"]
