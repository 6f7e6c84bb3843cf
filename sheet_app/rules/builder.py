"""Assembles a Statistic from built-in contributions, matching effects and roll modes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sheet_app import registry
from sheet_app.derived import ModeSource, ModifierLine, Speed, Statistic
from sheet_app.rules.common import Contribution, EffectIndex, sheet_mode, total_of
from sheet_app.rules.stacking import BUILT_IN_TYPES

Stacker = Callable[[Sequence[Contribution]], tuple[ModifierLine, ...]]


class StatisticBuilder:
    """Binds the pieces every statistic of one sheet shares: the system, its effects and its
    stacking policy, plus roll modes the sheet imposes by rule (heavy encumbrance)."""

    def __init__(
        self,
        system: str,
        effects: EffectIndex,
        stacker: Stacker,
        rule_modes: Callable[[frozenset[str]], list[ModeSource]] | None = None,
        *,
        competing_types: frozenset[str] = frozenset(),
    ) -> None:
        """``competing_types``: effect types that compete with the sheet's own lines (a 5e
        ``proficiency`` effect against the skill's proficiency), so never stacked apart."""
        self.system = system
        self.competing_types = competing_types
        self._allowed_modes = registry.get(system).facts.roll_modes
        self.effects = effects
        self.stacker = stacker
        self.rule_modes = rule_modes
        self._stacked: dict[tuple[Stacker, tuple[int, ...]], tuple[ModifierLine, ...]] = {}

    def build(
        self,
        stat_id: str,
        label: str,
        keys: Iterable[str],
        built_ins: Sequence[Contribution],
        *,
        ability: str | None = None,
        base: int = 0,
        rollable: bool = True,
        stacker: Stacker | None = None,
        notes: tuple[str, ...] = (),
    ) -> Statistic:
        keyset = frozenset(keys)
        stack = stacker or self.stacker
        found = self.effects.contributions(keyset)
        if all(c.source is None and c.type in BUILT_IN_TYPES for c in built_ins) and not (
            self.competing_types and any(c.type in self.competing_types for c in found)
        ):
            lines = tuple(c.applied_line for c in built_ins) + self._stack_effects(stack, found)
        else:
            lines = stack([*built_ins, *found])
        modes: list[ModeSource] = []
        if rollable:
            modes = self.effects.modes(keyset)
            if self.rule_modes is not None:
                modes.extend(self.rule_modes(keyset))
        return Statistic(
            id=stat_id,
            label=label,
            total=base + total_of(lines),
            modifiers=lines,
            roll_mode=sheet_mode(self.system, modes, self._allowed_modes) if modes else "normal",
            mode_sources=tuple(modes),
            base=base,
            ability=ability,
            rollable=rollable,
            notes=notes,
        )


    def _stack_effects(
        self, stack: Stacker, found: list[Contribution]
    ) -> tuple[ModifierLine, ...]:
        """Stacking of effects alone, shared by every statistic that the same effects reach.

        Valid only beside built-ins that never compete (the ability line, proficiency,
        ranks); a group target like ``check`` reaches dozens of statistics, and this makes
        its cost paid once rather than once per statistic.
        """
        key = (stack, tuple(c.order for c in found))  # the key holds the stacker alive
        lines = self._stacked.get(key)
        if lines is None:
            lines = self._stacked[key] = stack(found)
        return lines


def build_speed(
    base: int,
    rule_penalties: Sequence[Contribution],
    effects: EffectIndex,
    stacker: Stacker,
    *,
    cap: int | None = None,
    cap_label: str = "",
) -> Speed:
    """Speed in feet: the entered speed, the rules' penalties (encumbrance, armor) and effects
    that target ``speed``, never below 0. ``cap`` is a hard limit (over capacity: 5 ft), shown
    as one more line so the breakdown still adds up."""
    lines = stacker([*rule_penalties, *effects.contributions(("speed",))])
    total = base + total_of(lines)
    if cap is not None and total > cap:
        lines = (*lines, Contribution(cap_label, "encumbrance", cap - total).line())
        total = cap
    return Speed(base, max(0, total), lines)


def cut_speed(speed: Speed, label: str, to: int) -> Speed:
    """``speed`` brought down to ``to`` ft by a rule (a condition halving it, or stopping it),
    shown as one more line so the breakdown still adds up. Never raises a speed."""
    if to >= speed.total:
        return speed
    line = Contribution(label, "condition", to - speed.total).line()
    return Speed(speed.base, to, (*speed.breakdown, line))
