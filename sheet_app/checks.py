"""The rules of a d20 check once the modifier is known: roll modes, outcomes, contests, odds.

Pure functions over plain numbers, so the roll panel, the command line and the tests share one
implementation. What differs per system comes from its `Facts` (in the registry):

* a favourable and an unfavourable mode (advantage/disadvantage, fortune/misfortune) or none;
  any favourable together with any unfavourable cancel to a normal roll, whatever the counts,
  and several of one kind still add one die;
* pass/fail (``total >= dc``) or the four degrees of success with the natural 20/1 step.
  Pass/fail systems read "total >= DC succeeds" without exception, so their natural 20s and 1s
  change nothing here: the automatic hit/miss of attack rolls is left to the GM.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Literal, get_args

from sheet_app import dice, registry
from sheet_app.derived import ModeSource, Outcome, RollMode
from sheet_app.registry import Facts

__all__ = [
    "D20_FACES",
    "DEGREES",
    "ROLL_MODES",
    "CheckOdds",
    "ContestResult",
    "GroupCheckResult",
    "ModeError",
    "Outcome",
    "ResolvedMode",
    "check_odds",
    "check_outcome",
    "contest",
    "degree_of_success",
    "format_chance",
    "group_check",
    "is_success",
    "modes_for",
    "natural_distribution",
    "natural_step",
    "outcomes_for",
    "pass_fail",
    "resolve_mode",
]

ROLL_MODES: tuple[RollMode, ...] = get_args(RollMode)
D20_FACES = range(1, 21)

DEGREES: tuple[Outcome, ...] = ("critical_failure", "failure", "success", "critical_success")
"""Four degrees of success, worst first, so a natural 20/1 is one step along this tuple."""
PASS_FAIL: tuple[Outcome, ...] = ("success", "failure")
FOUR_DEGREES: tuple[Outcome, ...] = DEGREES[::-1]


def _facts(system: str) -> Facts:
    """The roll facts of ``system`` (favourable/unfavourable modes, degrees), from the
    registry; an unknown id is a `ValueError` naming the known ones."""
    try:
        return registry.get(system).facts
    except registry.UnknownSystem as exc:
        raise ValueError(str(exc)) from None


class ModeError(ValueError):
    """A roll mode the system does not have (advantage in pf2e, anything in d20srd)."""


def modes_for(system: str) -> tuple[RollMode, ...]:
    """The modes a player may ask for in ``system``, ``normal`` first (for the roll buttons)."""
    return ("normal", *_facts(system).roll_modes)


# --- roll modes ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResolvedMode:
    """The mode a check is rolled with, and every source that asked for a mode.

    Kept together so the roll panel can say why a roll is normal ("advantage from Help and
    disadvantage from heavy encumbrance cancel") instead of only that it is.
    """

    mode: RollMode
    sources: tuple[ModeSource, ...] = ()

    @property
    def cancelled(self) -> bool:
        """True when favourable and unfavourable sources met and cancelled to a normal roll."""
        return self.mode == "normal" and bool(self.sources)

    def explain(self) -> str:
        """One line for the roll panel; empty when nothing asked for a mode."""
        if not self.sources:
            return ""
        by_mode: dict[str, list[str]] = {}
        for source in self.sources:
            by_mode.setdefault(source.mode, []).append(source.label)
        parts = [f"{mode} from {', '.join(labels)}" for mode, labels in by_mode.items()]
        if self.cancelled:
            return f"{' and '.join(parts)} cancel: normal roll"
        return "; ".join(parts)


REQUESTED = "your request"
"""The label of the player's own request among a `ResolvedMode`'s sources."""


def resolve_mode(
    system: str, sources: Iterable[ModeSource] = (), requested: RollMode = "normal"
) -> ResolvedMode:
    """Combine the sheet's mode sources with the player's request under ``system``'s rules.

    ``sources`` must be every source, cancelled or not: in runarcana one advantage against two
    disadvantages still cancels, which an already-combined mode cannot tell. ``normal`` means
    the player asks for nothing, so the sheet's own modes still apply. Raises `ModeError` for a
    mode the system does not have, from the player or from the sheet.
    """
    facts = _facts(system)
    _check_mode(requested)
    everything = list(sources)
    if requested != "normal":
        everything.append(ModeSource(requested, REQUESTED))
    asked = tuple(s for s in everything if s.mode != "normal")
    for source in asked:
        if source.mode not in facts.roll_modes:
            raise ModeError(_foreign_mode_message(system, facts, source))
    favourable = any(s.mode == facts.favourable for s in asked)
    unfavourable = any(s.mode == facts.unfavourable for s in asked)
    mode: RollMode
    if favourable and not unfavourable and facts.favourable is not None:
        mode = facts.favourable
    elif unfavourable and not favourable and facts.unfavourable is not None:
        mode = facts.unfavourable
    else:
        mode = "normal"
    return ResolvedMode(mode, asked)


def _foreign_mode_message(system: str, facts: Facts, source: ModeSource) -> str:
    who = "" if source.label == REQUESTED else f" (asked by {source.label})"
    if not facts.roll_modes:
        return f"{system} has no roll modes: {source.mode}{who} cannot apply; roll normally"
    return (
        f"{system} has no {source.mode}{who}; its modes are {facts.favourable} "
        f"(roll twice, keep the higher) and {facts.unfavourable} (keep the lower)"
    )


# --- outcomes ------------------------------------------------------------------------------


def pass_fail(total: int, dc: int) -> Outcome:
    """The shared rule of every system: meeting the DC succeeds."""
    return "success" if total >= dc else "failure"


def degree_of_success(total: int, dc: int, natural: int) -> Outcome:
    """pf2e's four degrees: by 10 over or under, then one step up on a natural 20, down on a 1."""
    _check_natural(natural)
    if total >= dc + 10:
        degree = 3
    elif total >= dc:
        degree = 2
    elif total <= dc - 10:
        degree = 0
    else:
        degree = 1
    if natural == 20:
        degree = min(degree + 1, 3)
    elif natural == 1:
        degree = max(degree - 1, 0)
    return DEGREES[degree]


def natural_step(system: str, total: int, dc: int, natural: int) -> int:
    """How many degrees the natural 20 or 1 moved the outcome (+1, -1, or 0): what the
    roll panel explains ("natural 1: one step worse"). Always 0 in pass/fail systems."""
    if not _facts(system).four_degrees:
        return 0
    plain = degree_of_success(total, dc, 10)  # 10 stands for "no natural step"
    final = degree_of_success(total, dc, natural)
    return DEGREES.index(final) - DEGREES.index(plain)


def check_outcome(system: str, total: int, dc: int, natural: int) -> Outcome:
    """The outcome of a check in ``system``; ``natural`` is the kept d20."""
    if _facts(system).four_degrees:
        return degree_of_success(total, dc, natural)
    _check_natural(natural)
    return pass_fail(total, dc)


def outcomes_for(system: str) -> tuple[Outcome, ...]:
    """The outcomes ``system`` can produce, best first (the order to show odds in)."""
    return FOUR_DEGREES if _facts(system).four_degrees else PASS_FAIL


def is_success(outcome: Outcome) -> bool:
    return outcome in ("success", "critical_success")


@dataclass(frozen=True, slots=True)
class ContestResult:
    """Who won a contest, by how much; ``winner`` is ``None`` on a tie (nothing changes)."""

    winner: Literal["first", "second"] | None
    margin: int

    @property
    def tie(self) -> bool:
        return self.winner is None


def contest(first_total: int, second_total: int) -> ContestResult:
    """Compare two check totals: the higher wins; a tie leaves the situation as it was."""
    margin = abs(first_total - second_total)
    if first_total > second_total:
        return ContestResult("first", margin)
    if second_total > first_total:
        return ContestResult("second", margin)
    return ContestResult(None, 0)


@dataclass(frozen=True, slots=True)
class GroupCheckResult:
    succeeded: bool
    successes: int
    members: int


def group_check(outcomes: Iterable[Outcome | bool]) -> GroupCheckResult:
    """The group succeeds if at least half its members succeed (exactly half is enough).

    Takes outcomes (any system's) or plain booleans so a GM can enter results by hand.
    """
    results = [o if isinstance(o, bool) else is_success(o) for o in outcomes]
    if not results:
        raise ValueError("a group check needs at least one member")
    successes = sum(results)
    return GroupCheckResult(2 * successes >= len(results), successes, len(results))


# --- odds ----------------------------------------------------------------------------------


@cache
def natural_distribution(mode: RollMode) -> Mapping[int, Fraction]:
    """The exact chance of each kept d20 face under ``mode``, by counting every combination.

    Two-die modes enumerate all 400 ordered pairs, so advantage gives face f (2f - 1)/400.
    """
    _check_mode(mode)
    if mode == "normal":
        counts = {face: 1 for face in D20_FACES}
        total = 20
    else:
        keep = max if mode in ("advantage", "fortune") else min
        counts = dict.fromkeys(D20_FACES, 0)
        for pair in itertools.product(D20_FACES, repeat=2):
            counts[keep(pair)] += 1
        total = 400
    return MappingProxyType({face: Fraction(n, total) for face, n in counts.items()})


@cache
def _natural_weights(mode: RollMode) -> tuple[tuple[tuple[int, int], ...], int]:
    """`natural_distribution` as whole numbers: (face, ways) pairs and the number of rolls."""
    chances = natural_distribution(mode)
    total = 20 if mode == "normal" else 400
    return tuple((face, int(p * total)) for face, p in chances.items()), total


@dataclass(frozen=True, slots=True)
class CheckOdds:
    """The exact chance of each outcome of one check, in the system's order, best first."""

    system: str
    modifier: int
    dc: int
    mode: RollMode
    probabilities: Mapping[Outcome, Fraction]
    bonus_dice: tuple[str, ...] = ()
    """Dice-valued bonuses rolled with the d20 (``+1d4``), already counted in the odds."""

    @property
    def success(self) -> Fraction:
        """The chance to succeed at all (for pf2e, success or critical success)."""
        return sum(
            (p for o, p in self.probabilities.items() if is_success(o)),
            start=Fraction(0),
        )

    def to_json(self) -> dict[str, float]:
        return {outcome: float(p) for outcome, p in self.probabilities.items()}


def check_odds(
    system: str,
    modifier: int,
    dc: int,
    mode: RollMode = "normal",
    bonus_dice: Iterable[str] = (),
) -> CheckOdds:
    """Exact odds of every outcome of ``d20 + modifier + bonus dice`` against ``dc``.

    ``mode`` is the mode actually rolled (see `resolve_mode`); ``bonus_dice`` are dice-valued
    bonuses rolled with the check (Bless's ``+1d4``, Bane's ``-1d4``). Nothing is sampled: the
    d20's distribution under ``mode`` is combined with the exact distribution of the bonus
    dice's sum (their convolution), so "62%" is the true figure. A natural 20 or 1 is the kept
    d20's face alone; bonus dice never make one. Raises `sheet_app.dice.DiceError` for a bonus
    that is not a dice expression or has too many outcomes to count.
    """
    facts = _facts(system)
    _check_mode(mode)
    bonus = tuple(bonus_dice)
    low, tail, ways = _bonus_tail(bonus)
    size = len(tail) - 1

    def at_least(needed: int) -> int:
        """Ways the bonus dice reach ``needed`` or more."""
        index = needed - low
        return ways if index <= 0 else 0 if index >= size else tail[index]

    faces, rolls = _natural_weights(mode)
    outcomes = FOUR_DEGREES if facts.four_degrees else PASS_FAIL
    counts: dict[Outcome, int]
    if facts.four_degrees:
        by_degree = [0, 0, 0, 0]  # ways to each degree, worst first, as DEGREES
        for face, n in faces:
            base = face + modifier
            critical = at_least(dc + 10 - base)
            reached = at_least(dc - base)
            above_floor = at_least(dc - 9 - base)  # more than 10 under the DC
            split = (ways - above_floor, above_floor - reached, reached - critical, critical)
            step = 1 if face == 20 else -1 if face == 1 else 0
            for degree, m in enumerate(split):
                if m:
                    by_degree[min(max(degree + step, 0), 3)] += n * m
        counts = dict(zip(DEGREES, by_degree, strict=True))
    else:
        succeeded = sum(n * at_least(dc - face - modifier) for face, n in faces)
        counts = {"success": succeeded, "failure": rolls * ways - succeeded}
    total = rolls * ways
    probabilities = {outcome: Fraction(counts[outcome], total) for outcome in outcomes}
    return CheckOdds(system, modifier, dc, mode, MappingProxyType(probabilities), bonus)


@lru_cache(maxsize=128)
def _bonus_tail(bonus: tuple[str, ...]) -> tuple[int, tuple[int, ...], int]:
    """The bonus dice's sum as (lowest total, ways to reach each total or more, all ways):
    with the running tail, each d20 face needs only a few look-ups, whatever the dice."""
    if not bonus:
        return 0, (1, 0), 1
    weights = dice.weights(*bonus)
    tail = [*itertools.accumulate(reversed(weights.counts))][::-1]
    return weights.low, (*tail, 0), tail[0]


def format_chance(chance: Fraction) -> str:
    """A chance as a whole percentage that never claims certainty it does not have.

    Rounds to the nearest percent (half to even, as ``round`` does: 62.5% shows 62%), but a
    possible result never shows as 0% or 100% (``<1%``, ``>99%``): a player told "100%" who
    then fails has been lied to.
    """
    if not 0 <= chance <= 1:
        raise ValueError(f"not a probability: {chance}")
    if chance in (0, 1):
        return f"{int(chance) * 100}%"
    percent = round(chance * 100)
    if percent < 1:
        return "<1%"
    if percent > 99:
        return ">99%"
    return f"{percent}%"


def _check_mode(mode: str) -> None:
    if mode not in ROLL_MODES:
        raise ModeError(f"unknown roll mode {mode!r}; expected one of {', '.join(ROLL_MODES)}")


def _check_natural(natural: int) -> None:
    if natural not in D20_FACES:
        raise ValueError(f"a natural d20 is 1 to 20, not {natural}")
