"""Dice expressions (``1d20 + 3 [status]``, ``4d6kh3``, ``2d20kl1``) and rolling them.

A small grammar of our own rather than the ``d20`` library (the Avrae engine): ``d20`` draws
from the module-level ``random``, so a seed cannot be injected without patching global state,
and it pins the unmaintained ``lark-parser`` 0.9. Our grammar is the handful of forms a
character sheet needs, every roll draws from a ``random.Random`` the caller passes in (one seed
reproduces every roll), and each limit is checked while parsing, before any die is rolled::

    expression := sign? term (sign term)*
    term       := (dice | number) label?
    dice       := number? "d" number (("kh" | "kl") number)?
    label      := "[" any text without brackets "]"
    sign       := "+" | "-"

``d``, ``kh`` and ``kl`` are case-insensitive; spaces are allowed between tokens.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

__all__ = [
    "MAX_DICE",
    "MAX_EXPRESSION_LENGTH",
    "MAX_NUMBER",
    "MAX_SIDES",
    "MAX_TERMS",
    "Constant",
    "Dice",
    "DiceError",
    "DiceExpression",
    "DiceLimitError",
    "DiceRoll",
    "DiceSyntaxError",
    "Keep",
    "Term",
    "TermRoll",
    "Weights",
    "distribution",
    "parse",
    "roll",
    "weights",
]

MAX_EXPRESSION_LENGTH = 256
"""Characters; checked before the text is even tokenised, so a 10 kB paste fails at once."""
MAX_DICE = 100
"""Dice rolled by one whole expression (all terms together): bounds time and memory per roll."""
MAX_SIDES = 1000
"""Faces of one die; d1000 is beyond any table's needs and keeps exact odds enumerable."""
MAX_TERMS = 20
MAX_NUMBER = 1_000_000
"""Largest literal (a constant, a count, a side count); rejected by digit count before ``int()``."""

_MAX_DIGITS = len(str(MAX_NUMBER))


class DiceError(ValueError):
    """A dice expression that cannot be rolled; ``str()`` is a message fit for a player."""


class DiceSyntaxError(DiceError):
    """The text is not a dice expression; the message names the position and what was expected."""

    def __init__(self, message: str, text: str, position: int) -> None:
        self.text = text
        self.position = position
        where = f" at position {position + 1} in {_quote(text)}" if text.strip() else ""
        super().__init__(message + where)


class DiceLimitError(DiceError):
    """Well-formed but too big to roll; raised before any die is rolled."""


KeepKind = Literal["kh", "kl"]


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the ``count`` highest (``kh``) or lowest (``kl``) dice of a term."""

    kind: KeepKind
    count: int

    def __str__(self) -> str:
        return f"{self.kind}{self.count}"


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` faces, optionally keeping only some of them."""

    count: int
    sides: int
    keep: Keep | None = None
    negative: bool = False
    label: str | None = None

    def __post_init__(self) -> None:
        if self.count < 1 or self.sides < 1:
            raise DiceError(
                f"{self.count}d{self.sides}: roll at least one die of at least one side"
            )
        if self.count > MAX_DICE:
            raise DiceLimitError(f"{self.count} dice in one roll; the limit is {MAX_DICE}")
        if self.sides > MAX_SIDES:
            raise DiceLimitError(f"d{self.sides} has too many sides (the limit is {MAX_SIDES})")
        if self.keep is not None and not 1 <= self.keep.count <= self.count:
            raise DiceError(f"can keep 1 to {self.count} of {self.count}d{self.sides}")

    @property
    def kept_count(self) -> int:
        return self.keep.count if self.keep else self.count

    @property
    def minimum(self) -> int:
        return -self.kept_count * self.sides if self.negative else self.kept_count

    @property
    def maximum(self) -> int:
        return -self.kept_count if self.negative else self.kept_count * self.sides

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{self.keep or ''}{_label_text(self.label)}"


@dataclass(frozen=True, slots=True)
class Constant:
    """A flat number; ``value`` is already signed."""

    value: int
    label: str | None = None

    @property
    def negative(self) -> bool:
        return self.value < 0

    @property
    def minimum(self) -> int:
        return self.value

    @property
    def maximum(self) -> int:
        return self.value

    def __str__(self) -> str:
        return f"{abs(self.value)}{_label_text(self.label)}"


Term = Dice | Constant


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """A parsed expression: immutable, so parsing is cached and a parse can be rolled many times.

    The limits are checked again on construction, so a hand-built expression is as safe to roll
    as a parsed one.
    """

    terms: tuple[Term, ...]
    dice_count: int = field(init=False, compare=False)
    _constant_rolls: tuple[TermRoll | None, ...] = field(init=False, repr=False, compare=False)
    """Constants roll the same every time: built once here, reused by every `roll`."""

    def __post_init__(self) -> None:
        if not self.terms:
            raise DiceError("empty dice expression")
        if len(self.terms) > MAX_TERMS:
            raise DiceLimitError(f"more than {MAX_TERMS} terms in one dice expression")
        count = sum(t.count for t in self.terms if isinstance(t, Dice))
        if count > MAX_DICE:
            raise DiceLimitError(f"{count} dice in one roll; the limit is {MAX_DICE}")
        fixed = tuple(
            TermRoll(t, (), (), t.value) if isinstance(t, Constant) else None for t in self.terms
        )
        object.__setattr__(self, "dice_count", count)
        object.__setattr__(self, "_constant_rolls", fixed)

    @property
    def minimum(self) -> int:
        return sum(t.minimum for t in self.terms)

    @property
    def maximum(self) -> int:
        return sum(t.maximum for t in self.terms)

    def __str__(self) -> str:
        return _join_signed((t.negative, str(t)) for t in self.terms)


@dataclass(frozen=True, slots=True)
class TermRoll:
    """One term's dice as rolled, in order; ``kept[i]`` says whether die ``i`` counted."""

    term: Term
    rolls: tuple[int, ...]
    kept: tuple[bool, ...]
    value: int
    """The term's signed contribution to the total."""

    @property
    def kept_rolls(self) -> tuple[int, ...]:
        return tuple(r for r, k in zip(self.rolls, self.kept, strict=True) if k)

    def __str__(self) -> str:
        if isinstance(self.term, Constant):
            return str(self.term)
        faces = ", ".join(
            str(r) if k else f"~~{r}~~" for r, k in zip(self.rolls, self.kept, strict=True)
        )
        term = self.term
        return f"{term.count}d{term.sides}{term.keep or ''} ({faces}){_label_text(term.label)}"


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """A rolled expression; ``str()`` shows every die, dropped ones ~~struck~~ (chat markdown)."""

    expression: DiceExpression
    terms: tuple[TermRoll, ...]
    total: int

    @property
    def rolls(self) -> tuple[int, ...]:
        """Every die rolled, in order, kept or not."""
        return tuple(r for t in self.terms for r in t.rolls)

    def __str__(self) -> str:
        return f"{_join_signed((t.term.negative, str(t)) for t in self.terms)} = {self.total}"


def parse(text: str) -> DiceExpression:
    """Parse ``text``, raising `DiceSyntaxError` or `DiceLimitError` with a player-facing message.

    The length check comes first, so hostile input costs nothing; parses are cached because the
    same few expressions are rolled over and over.
    """
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(
            f"dice expression is {len(text)} characters long; the limit is {MAX_EXPRESSION_LENGTH}"
        )
    return _parse_cached(text)


def roll(expression: str | DiceExpression, rng: random.Random) -> DiceRoll:
    """Roll ``expression`` drawing every die from ``rng`` (seed it to reproduce the roll).

    Every limit was enforced when the expression was built, so nothing here can run long.
    """
    expr = parse(expression) if isinstance(expression, str) else expression
    draw = rng.randrange
    results: list[TermRoll] = []
    total = 0
    for term, fixed in zip(expr.terms, expr._constant_rolls, strict=True):
        if fixed is not None:
            results.append(fixed)
            total += fixed.value
            continue
        assert isinstance(term, Dice)
        stop = term.sides + 1
        count = term.count
        rolls = (draw(1, stop),) if count == 1 else tuple([draw(1, stop) for _ in range(count)])
        keep = term.keep
        if keep is None or keep.count == count:
            kept = (True,) * count
            value = sum(rolls)
        else:
            kept = _keep(rolls, keep)
            value = sum([r for r, k in zip(rolls, kept, strict=True) if k])
        if term.negative:
            value = -value
        total += value
        results.append(TermRoll(term, rolls, kept, value))
    return DiceRoll(expr, tuple(results), total)


def _keep(rolls: tuple[int, ...], keep: Keep) -> tuple[bool, ...]:
    """Flags for the kept dice; among equal faces the earlier die is kept, so results are stable.

    Keeping one die (advantage) and dropping one (4d6kh3) are the common cases and skip the sort.
    """
    n = len(rolls)
    highest = keep.kind == "kh"
    if keep.count == 1:
        chosen = rolls.index(max(rolls) if highest else min(rolls))
        return tuple([i == chosen for i in range(n)])
    if keep.count == n - 1:
        worst = min(rolls) if highest else max(rolls)
        dropped = n - 1 - rolls[::-1].index(worst)
        return tuple([i != dropped for i in range(n)])
    # sorted() is stable even with reverse=True, so ties keep their original order.
    order = sorted(range(n), key=rolls.__getitem__, reverse=highest)
    kept = set(order[: keep.count])
    return tuple([i in kept for i in range(n)])


# --- parsing -------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<number>[0-9]+)|(?P<d>d)|(?P<keep>k[hl])|(?P<sign>[+-])|(?P<label>\[[^\[\]]*\])"
    r"|(?P<end>\Z)|(?P<bad>.))",
    re.ASCII | re.IGNORECASE | re.DOTALL,
)

_Token = tuple[str, str, int]  # kind, text, position


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while True:
        match = _TOKEN.match(text, pos)
        assert match is not None  # the "bad" alternative matches any character
        kind = match.lastgroup
        assert kind is not None
        start = match.start(kind)
        value = match.group(kind)
        if kind == "bad":
            raise DiceSyntaxError(_bad_char_message(value), text, start)
        tokens.append((kind, value, start))
        if kind == "end":
            return tokens
        pos = match.end()


def _bad_char_message(char: str) -> str:
    if char == "[":
        return "label '[' is not closed by ']' (labels cannot contain brackets)"
    if char == "]":
        return "']' without a matching '['"
    if char.lower() == "k":
        return "keep must be 'kh' (highest) or 'kl' (lowest), e.g. 4d6kh3"
    return f"unexpected {char!r}"


class _Parser:
    """Recursive descent over the token list; checks every limit as soon as it can be known."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.index = 0
        self.dice = 0

    def peek(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def fail(self, message: str, token: _Token) -> DiceSyntaxError:
        return DiceSyntaxError(message, self.text, token[2])

    def number(self, what: str) -> int:
        kind, value, _ = token = self.take()
        if kind != "number":
            raise self.fail(f"expected {what}, found {_describe(token)}", token)
        if len(value.lstrip("0")) > _MAX_DIGITS or int(value) > MAX_NUMBER:
            raise DiceLimitError(f"{_quote(value)} is too large (numbers go up to {MAX_NUMBER})")
        return int(value)

    def expression(self) -> DiceExpression:
        if self.peek()[0] == "end":
            raise DiceSyntaxError("empty dice expression", self.text, self.peek()[2])
        terms: list[Term] = []
        negative = False
        if self.peek()[0] == "sign":
            negative = self.take()[1] == "-"
        while True:
            terms.append(self.term(negative))
            if len(terms) > MAX_TERMS:
                raise DiceLimitError(f"more than {MAX_TERMS} terms in one dice expression")
            token = self.take()
            if token[0] == "end":
                return DiceExpression(tuple(terms))
            if token[0] != "sign":
                raise self.fail(f"expected '+' or '-', found {_describe(token)}", token)
            negative = token[1] == "-"

    def term(self, negative: bool) -> Term:
        kind, _, _ = token = self.peek()
        if kind == "d":
            count = 1
        elif kind == "number":
            count = self.number("a number")
            if self.peek()[0] != "d":
                return Constant(-count if negative else count, self.label())
        else:
            raise self.fail(
                f"expected dice (like 1d20) or a number, found {_describe(token)}", token
            )
        self.take()  # the "d"
        sides = self.number("the number of sides")
        if count < 1:
            raise self.fail("roll at least one die", token)
        if sides < 1:
            raise self.fail("a die needs at least one side", token)
        self.dice += count
        if self.dice > MAX_DICE:
            raise DiceLimitError(f"{self.dice} dice in one roll; the limit is {MAX_DICE}")
        if sides > MAX_SIDES:
            raise DiceLimitError(f"d{sides} has too many sides (the limit is {MAX_SIDES})")
        keep = None
        if self.peek()[0] == "keep":
            kind_text = self.take()[1].lower()
            keep_token = self.peek()
            kept = self.number(f"how many dice to keep after {kind_text!r}")
            if not 1 <= kept <= count:
                raise self.fail(f"can keep 1 to {count} of {count}d{sides}, not {kept}", keep_token)
            keep = Keep("kh" if kind_text == "kh" else "kl", kept)
        return Dice(count, sides, keep, negative, self.label())

    def label(self) -> str | None:
        if self.peek()[0] != "label":
            return None
        # Whitespace is collapsed so a label can never break a one-line log entry.
        return " ".join(self.take()[1][1:-1].split()) or None


@functools.lru_cache(maxsize=256)
def _parse_cached(text: str) -> DiceExpression:
    return _Parser(text).expression()


# --- formatting ----------------------------------------------------------------------------


def _describe(token: _Token) -> str:
    kind, value, _ = token
    return "the end" if kind == "end" else _quote(value)


def _quote(text: str) -> str:
    """Quote user text for a message without echoing a 10 kB paste back at the player."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _label_text(label: str | None) -> str:
    return f" [{label}]" if label else ""


def _join_signed(parts: Iterable[tuple[bool, str]]) -> str:
    out: list[str] = []
    for i, (negative, text) in enumerate(parts):
        if i == 0:
            out.append(f"-{text}" if negative else text)
        else:
            out.append(f" {'-' if negative else '+'} {text}")
    return "".join(out)


# --- exact distributions ---------------------------------------------------------------------

MAX_DISTRIBUTION_WORK = 4_000_000
"""Dice times outcomes (or combinations enumerated for kept dice) one exact distribution may
cost: Bless's 1d4 costs 4, 10d10 about 1,000, 4d6kh3 about 13,000; only absurd expressions
(99d999, 9d20kh1) are refused, before any work."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The exact distribution of a total, as whole-number weights: ``counts[i]`` ways to get
    ``low + i``, out of ``sum(counts)`` equally likely rolls. Whole numbers keep convolving
    and summing exact and fast; `probabilities` turns them into Fractions."""

    low: int
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def high(self) -> int:
        return self.low + len(self.counts) - 1

    def probabilities(self) -> Mapping[int, Fraction]:
        total = self.total
        return MappingProxyType(
            {self.low + i: Fraction(n, total) for i, n in enumerate(self.counts) if n}
        )


def weights(*expressions: str | DiceExpression) -> Weights:
    """The exact distribution of the sum of ``expressions`` (``weights("+1d4", "-1d6")``).

    Plain dice are added one die at a time with a sliding window (each die costs one pass over
    the outcomes so far); a term that keeps some of its dice (``4d6kh3``) is enumerated. Raises
    `DiceLimitError` before doing work beyond `MAX_DISTRIBUTION_WORK`. Cached.
    """
    key = tuple(e if isinstance(e, str) else str(e) for e in expressions)
    parsed = tuple(parse(e) if isinstance(e, str) else e for e in expressions)
    return _weights_cached(key, parsed)


def distribution(expression: str | DiceExpression) -> Mapping[int, Fraction]:
    """The exact chance of each total of ``expression`` (``1d4`` → 1..4, each 1/4)."""
    return weights(expression).probabilities()


@functools.lru_cache(maxsize=256)
def _weights_cached(key: tuple[str, ...], parsed: tuple[DiceExpression, ...]) -> Weights:
    terms = [t for expr in parsed for t in expr.terms]
    plain = [t for t in terms if isinstance(t, Dice) and t.keep is None]
    kept = [t for t in terms if isinstance(t, Dice) and t.keep is not None]
    low = sum(t.value for t in terms if isinstance(t, Constant))
    span = sum(t.maximum - t.minimum for t in terms) + 1
    work = sum(t.count for t in plain) * span
    work += sum(10 * t.sides**t.count for t in kept)  # enumerating is the slow kind of work
    if work > MAX_DISTRIBUTION_WORK:
        shown = " + ".join(key) if len(key) > 1 else key[0] if key else ""
        raise DiceLimitError(f"{_quote(shown)} has too many outcomes to count exactly")
    counts: list[int] = [1]
    for term in kept:
        low, counts = _convolve(low, counts, *_kept_counts(term))
    for term in plain:
        for _ in range(term.count):
            low, counts = _add_die(low, counts, term.sides, term.negative)
    return Weights(low, tuple(counts))


def _add_die(low: int, counts: list[int], sides: int, negative: bool) -> tuple[int, list[int]]:
    """``counts`` (starting at ``low``) plus one d``sides`` (or minus one): each new outcome
    sums a window of ``sides`` old ones, read off the running totals."""
    running = [0, *itertools.accumulate(counts)]
    n = len(counts)
    new = [running[min(k + 1, n)] - running[max(0, k - sides + 1)] for k in range(n + sides - 1)]
    return (low - sides if negative else low + 1), new


def _kept_counts(term: Dice) -> tuple[int, list[int]]:
    """A term that keeps some dice, by counting every combination of its faces."""
    assert term.keep is not None
    tally: dict[int, int] = {}
    highest = term.keep.kind == "kh"
    for faces in itertools.product(range(1, term.sides + 1), repeat=term.count):
        ordered = sorted(faces, reverse=highest)
        value = sum(ordered[: term.keep.count])
        tally[value] = tally.get(value, 0) + 1
    if term.negative:
        tally = {-v: n for v, n in tally.items()}
    low, high = min(tally), max(tally)
    return low, [tally.get(v, 0) for v in range(low, high + 1)]


def _convolve(
    low_a: int, a: list[int], low_b: int, b: list[int]
) -> tuple[int, list[int]]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return low_a + low_b, out


DAMAGE_MINIMUM = 1


def roll_damage(expression: str | DiceExpression, rng: random.Random) -> DiceRoll:
    """Roll damage: like `roll`, but a damage roll deals at least 1 (d20 SRD, Rounding)."""
    rolled = roll(expression, rng)
    if rolled.total >= DAMAGE_MINIMUM:
        return rolled
    return DiceRoll(rolled.expression, rolled.terms, DAMAGE_MINIMUM)
