"""What every system's rules share: ability modifiers, contributions, the effect index and
roll modes. Each system's statistics and stacking policy live in its package."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sheet_app import checks
from sheet_app.derived import ModeSource, ModifierLine, RollMode
from sheet_app.facts import signed
from sheet_app.model import CharacterBase, Effect, Modifier
from sheet_app.registry import Condition

__all__ = ["signed"]


def ability_modifier(score: int) -> int:
    """``floor((score - 10) / 2)``; Python's ``//`` floors negatives too (1 → -5)."""
    return (score - 10) // 2


def dice_mean(expression: str) -> float:
    """The average of a dice bonus (``+1d4`` → 2.5, ``-1d6`` → -3.5, ``2d6+1`` → 8): what
    stacking compares it by against other bonuses of its type."""
    sign = -1 if expression.startswith("-") else 1
    count, _, rest = expression.lstrip("+-").partition("d")
    sides, plus, flat = rest.partition("+")
    if not plus:
        sides, minus, flat = rest.partition("-")
        flat = f"-{flat}" if minus else "0"
    return sign * ((int(count or 1) * (int(sides) + 1)) / 2 + int(flat))


def signed_dice(expression: str) -> str:
    return expression if expression[:1] in "+-" else f"+{expression}"


@dataclass(frozen=True, slots=True)
class Contribution:
    """A candidate modifier before stacking decides whether it applies.

    ``source`` is the effect's name (two effects with one name are the same source); built-in
    contributions (ability, proficiency, armor) have ``None`` and never compete by source.
    ``order`` numbers an effect's modifiers in file order (it identifies them when
    statistics gather and share them); the sheet's own contributions leave it at 0.
    A dice-valued bonus (``dice``, Bless's 1d4) has ``value`` 0: it is rolled with the check,
    and stacking weighs it by its average (``weight``).
    """

    label: str
    type: str
    value: int
    source: str | None = None
    order: int = 0
    dice: str | None = None
    weight: float = field(init=False, compare=False, repr=False)
    """What stacking compares: the value, or a dice bonus's average."""
    applied_line: ModifierLine = field(init=False, compare=False, repr=False)
    """This contribution's line when it applies, made once: an effect on ``check`` reaches
    dozens of statistics, and most of them show it applied."""

    def __post_init__(self) -> None:
        dice = self.dice
        if dice is None:
            object.__setattr__(self, "weight", self.value)
        else:
            dice = signed_dice(dice)
            object.__setattr__(self, "dice", dice)
            object.__setattr__(self, "weight", dice_mean(dice))
        line = ModifierLine(self.label, self.type, self.value, True, None, self.source, dice)
        object.__setattr__(self, "applied_line", line)

    def line(self, applied: bool = True, reason: str | None = None) -> ModifierLine:
        if applied and reason is None:
            return self.applied_line
        return ModifierLine(self.label, self.type, self.value, applied, reason, self.source,
                            self.dice)


@dataclass(frozen=True, slots=True)
class IndexedModifier:
    order: int
    modifier: Modifier
    contribution: Contribution


class EffectIndex:
    """Active effects' modifiers, indexed by target, so each statistic gathers its own in
    time proportional to what targets it rather than to every modifier on the sheet."""

    __slots__ = ("_by_target", "_modes_by_target")

    def __init__(
        self, character: CharacterBase, conditions: Mapping[str, Condition] | None = None
    ) -> None:
        by_target: defaultdict[str, list[IndexedModifier]] = defaultdict(list)
        modes: defaultdict[str, list[IndexedModifier]] = defaultdict(list)
        order = 1000
        for effect in character.effects:
            if not effect.active:
                continue
            mods = (effect.modifiers if effect.condition is None
                    else effect_modifiers(effect, conditions))
            for mod in mods:
                order += 1
                value = mod.value
                if type(value) is int:
                    contribution = Contribution(effect.name, mod.type or "untyped", value,
                                                effect.name, order)
                else:
                    dice = value if isinstance(value, str) else None
                    contribution = Contribution(effect.name, mod.type or "untyped", 0,
                                                effect.name, order, dice)
                entry = IndexedModifier(order, mod, contribution)
                table = modes if mod.mode is not None else by_target
                for target in dict.fromkeys(mod.targets):
                    table[target].append(entry)
        self._by_target = dict(by_target)
        self._modes_by_target = dict(modes)

    def contributions(self, keys: Iterable[str]) -> list[Contribution]:
        return [e.contribution for e in _gather(self._by_target, keys)]

    def modes(self, keys: Iterable[str]) -> list[ModeSource]:
        return [
            ModeSource(e.modifier.mode, e.contribution.label)  # type: ignore[arg-type]
            for e in _gather(self._modes_by_target, keys)
        ]


def effect_modifiers(
    effect: Effect, conditions: Mapping[str, Condition] | None = None
) -> list[Modifier]:
    """An effect's own modifiers, plus its condition's, computed from the condition's value."""
    if effect.condition is None or conditions is None:
        return list(effect.modifiers)
    condition = conditions.get(effect.condition)
    extra = condition.modifiers(effect.value) if condition is not None else []
    return [*extra, *effect.modifiers]


def active_condition(character: CharacterBase, key: str) -> int:
    """The highest value of an active condition on the sheet (0 when absent; 1 for a
    condition without a value)."""
    best = 0
    for effect in character.effects:
        if effect.active and effect.condition == key:
            best = max(best, effect.value or 1)
    return best


def _gather(table: dict[str, list[IndexedModifier]], keys: Iterable[str]) -> list[IndexedModifier]:
    hits: dict[int, IndexedModifier] = {}
    for key in keys:
        for entry in table.get(key, ()):
            hits[entry.order] = entry
    return [hits[k] for k in sorted(hits)]


def sheet_mode(
    system: str, sources: Sequence[ModeSource], allowed: Sequence[RollMode]
) -> RollMode:
    """The mode the sheet itself imposes, by the one set of rules in `sheet_app.checks`.

    A mode the system doesn't have (not in ``allowed``) can't reach a loaded file (validation
    refuses it); should one come from elsewhere it is ignored here rather than breaking every
    number on the sheet.
    """
    kept = [s for s in sources if s.mode in allowed]
    return checks.resolve_mode(system, kept).mode if kept else "normal"


def combine_multipliers(multipliers: Iterable[float]) -> float:
    """Several multipliers on an abstract value (a modifier, a die roll) combine by adding
    each extra multiple less one: ×2 and ×2 → ×3; ×2 and ×3 → ×4 (d20 SRD, Multiplying)."""
    total = 1.0
    for m in multipliers:
        total += m - 1
    return total


def multiply_real(multipliers: Iterable[float]) -> float:
    """Real-world quantities (weight, distance) multiply normally: ×2 and ×2 → ×4."""
    total = 1.0
    for m in multipliers:
        total *= m
    return total


def total_of(lines: Iterable[ModifierLine]) -> int:
    return sum(line.value for line in lines if line.applied)
