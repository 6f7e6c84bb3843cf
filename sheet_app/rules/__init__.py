"""The rules engine: ``derive(character)`` computes every number of a sheet, with reasons.

What every system shares lives here (contributions, the effect index, stacking machinery,
scores and hit dice); each system's own rules live in its package under `sheet_app.systems`.
"""

from __future__ import annotations

from collections.abc import Iterable

from sheet_app.derived import Derived
from sheet_app.model import CharacterBase


def derive(character: CharacterBase, variants: Iterable[str] = ()) -> Derived:
    """A pure function of the character: the same input always gives an equal snapshot.

    ``variants`` asks for statistics beyond the sheet's own, where the system has them
    (a 5e-style skill rolled with another ability, ``skill:athletics@con``).
    """
    from sheet_app import registry

    return registry.get(character.system).derive(character, variants)


__all__ = ["derive"]
