"""Dice expressions: the grammar, its limits, keep rules, seeded repeatability, fairness."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheet_app import dice
from sheet_app.dice import (
    Constant,
    Dice,
    DiceError,
    DiceExpression,
    DiceLimitError,
    DiceSyntaxError,
    Keep,
    parse,
    roll,
)


class ScriptedRandom(random.Random):
    """Returns the given faces in order, checking each is a legal face of the die asked for."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is not None and step == 1
        face = self.faces.pop(0)
        assert start <= face < stop, f"scripted face {face} is not in [{start}, {stop})"
        return face


class ExplodingRandom(random.Random):
    """Fails the test if any die is rolled: limits must trip before rolling starts."""

    def randrange(self, *args: object, **kwargs: object) -> int:
        raise AssertionError("a die was rolled before the limit check")


# --- grammar -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("1d20+5", (Dice(1, 20), Constant(5))),
        ("2d20kh1", (Dice(2, 20, Keep("kh", 1)),)),
        ("2d20kl1", (Dice(2, 20, Keep("kl", 1)),)),
        ("4d6kh3", (Dice(4, 6, Keep("kh", 3)),)),
        ("1d20 + 3 [status]", (Dice(1, 20), Constant(3, "status"))),
        ("d8", (Dice(1, 8),)),
        ("-2 [MAP] + 1d4", (Constant(-2, "MAP"), Dice(1, 4))),
        ("1d20 - 1d4 [bane]", (Dice(1, 20), Dice(1, 4, negative=True, label="bane"))),
        ("2D20KH1", (Dice(2, 20, Keep("kh", 1)),)),
        ("  3d4+3  ", (Dice(3, 4), Constant(3))),
        ("1d20 [ two   words ]", (Dice(1, 20, label="two words"),)),
        ("7", (Constant(7),)),
    ],
)
def test_parse_builds_the_expected_terms(text: str, terms: tuple[dice.Term, ...]) -> None:
    assert parse(text).terms == terms


@pytest.mark.parametrize(
    "text",
    ["1d20 + 5", "2d20kh1 + 7", "4d6kh3", "-2 [MAP] + 1d8 - 1d4 [bane]", "1d20 + 3 [status]"],
)
def test_canonical_text_parses_back_to_the_same_expression(text: str) -> None:
    expr = parse(text)
    assert str(expr) == text
    assert parse(str(expr)) == expr


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("3d4+3", 6, 15), ("4d6kh3", 3, 18), ("2d20kl1", 1, 20), ("1d20-1d4", -3, 19), ("-2", -2, -2)],
)
def test_minimum_and_maximum(text: str, low: int, high: int) -> None:
    """RULES.md: 3d4+3 is 6-15."""
    expr = parse(text)
    assert (expr.minimum, expr.maximum) == (low, high)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty dice expression"),
        ("   ", "empty dice expression"),
        ("1d", "expected the number of sides, found the end at position 3"),
        ("1d20+", "expected dice (like 1d20) or a number, found the end"),
        ("1d20 ++ 2", "found '+' at position 7"),
        ("4d6k3", "keep must be 'kh' (highest) or 'kl' (lowest)"),
        ("4d6kh", "how many dice to keep after 'kh'"),
        ("1d20 [status", "label '[' is not closed by ']'"),
        ("1d20 [a [b] c]", "label '[' is not closed"),
        ("1d20]", "']' without a matching '['"),
        ("1d20 2", "expected '+' or '-', found '2'"),
        ("0d6", "roll at least one die"),
        ("d0", "a die needs at least one side"),
        ("2d20kh3", "can keep 1 to 2 of 2d20, not 3"),
        ("5d6kh0", "can keep 1 to 5 of 5d6, not 0"),
        ("1d20 x 2", "unexpected 'x'"),
        ("1d20 * 2", "unexpected '*'"),
        ("1d٢0", "unexpected '٢'"),  # a non-ASCII digit is not a digit here
        ("1d20 [ok] [again]", "expected '+' or '-'"),
    ],
)
def test_malformed_expressions_get_a_clear_syntax_error(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert message in str(caught.value)


def test_syntax_error_remembers_where() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse("1d20 + 3 ? 4")
    assert caught.value.position == 9
    assert caught.value.text == "1d20 + 3 ? 4"


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_a_dice_error(text: str) -> None:
    """Whatever a player types, the roll panel gets a result or a DiceError, never a crash."""
    try:
        expr = parse(text)
    except DiceError as exc:
        assert str(exc)
    else:
        assert expr.terms


@given(st.text(alphabet="0123456789dDkKhHlL+- []ab", max_size=60))
def test_dice_like_text_parses_or_raises_a_dice_error(text: str) -> None:
    try:
        expr = parse(text)
    except DiceError:
        return
    assert expr.minimum <= expr.maximum
    assert expr.dice_count <= dice.MAX_DICE


# --- limits: every one must trip before a single die is rolled -----------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1000000d1000000", "1000000 dice in one roll; the limit is 100"),
        ("101d6", "101 dice in one roll"),
        ("60d6 + 41d6", "101 dice in one roll"),
        ("1d1001", "d1001 has too many sides (the limit is 1000)"),
        ("+".join(["1"] * 21), "more than 20 terms"),
        ("12345678", "'12345678' is too large"),
        ("1d20 + " + "9" * 240, "is too large"),
        ("9999999d6", "is too large"),
        ("x" * 10_000, "10000 characters long; the limit is 256"),
        ("1d20+" * 2_000, "characters long"),
    ],
)
def test_hostile_expressions_fail_fast_with_a_message(text: str, message: str) -> None:
    with pytest.raises(DiceLimitError) as caught:
        roll(text, ExplodingRandom())
    assert message in str(caught.value)
    assert len(str(caught.value)) < 200  # a 10 kB paste is not echoed back


def test_over_long_text_is_rejected_before_tokenising(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_tokenising(text: str) -> list[object]:
        raise AssertionError("tokenised a string over the length limit")

    monkeypatch.setattr(dice, "_tokenize", no_tokenising)
    with pytest.raises(DiceLimitError):
        parse("1d20" * 1_000)


@pytest.mark.parametrize(
    "text",
    [
        "100d6",
        "50d6 + 50d4",
        "1d1000",
        "+".join(["1"] * 20),
        "1000000",
        "1d20 [" + "a" * 249 + "]",  # exactly MAX_EXPRESSION_LENGTH characters
    ],
)
def test_expressions_at_the_limits_are_allowed(text: str) -> None:
    result = roll(text, random.Random(1))
    assert result.expression.minimum <= result.total <= result.expression.maximum


def test_limit_constants_match_the_documented_values() -> None:
    assert len("1d20 [" + "a" * 249 + "]") == dice.MAX_EXPRESSION_LENGTH == 256
    assert (dice.MAX_DICE, dice.MAX_SIDES, dice.MAX_TERMS) == (100, 1000, 20)


def test_hand_built_expressions_obey_the_same_limits() -> None:
    with pytest.raises(DiceLimitError):
        Dice(101, 6)
    with pytest.raises(DiceLimitError):
        Dice(1, 1001)
    with pytest.raises(DiceLimitError):
        DiceExpression((Dice(60, 6), Dice(60, 6)))
    with pytest.raises(DiceLimitError):
        DiceExpression(tuple(Constant(1) for _ in range(21)))
    with pytest.raises(DiceError):
        Dice(2, 6, Keep("kh", 3))
    with pytest.raises(DiceError):
        DiceExpression(())


# --- rolling -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "faces", "total", "kept"),
    [
        ("2d20kh1", [5, 17], 17, (False, True)),
        ("2d20kh1", [17, 5], 17, (True, False)),
        ("2d20kl1", [5, 17], 5, (True, False)),
        ("2d20kh1", [9, 9], 9, (True, False)),  # a tie keeps the first die
        ("2d20kl1", [9, 9], 9, (True, False)),
        ("4d6kh3", [4, 6, 5, 1], 15, (True, True, True, False)),
        ("4d6kh3", [3, 6, 3, 5], 14, (True, True, False, True)),  # drops the later 3
        ("4d6kl3", [4, 6, 5, 1], 10, (True, False, True, True)),
        ("4d6kh2", [3, 6, 3, 6], 12, (False, True, False, True)),
        ("5d6kh3", [2, 5, 2, 5, 2], 12, (True, True, False, True, False)),
        ("5d6kl2", [4, 1, 4, 1, 3], 2, (False, True, False, True, False)),
        ("3d6kh3", [1, 2, 3], 6, (True, True, True)),
    ],
)
def test_keep_highest_and_lowest(
    text: str, faces: list[int], total: int, kept: tuple[bool, ...]
) -> None:
    result = roll(text, ScriptedRandom(faces))
    assert result.total == total
    assert result.terms[0].kept == kept
    assert result.rolls == tuple(faces)  # every die is kept in the result, dropped or not


def test_signs_labels_and_the_rolled_text() -> None:
    result = roll("2d20kh1 + 3 [status] - 1d4", ScriptedRandom([17, 5, 2]))
    assert result.total == 17 + 3 - 2
    assert [t.value for t in result.terms] == [17, 3, -2]
    assert str(result) == "2d20kh1 (17, ~~5~~) + 3 [status] - 1d4 (2) = 18"


def test_a_string_and_its_parse_roll_alike() -> None:
    assert roll("4d6kh3 + 2", random.Random(5)) == roll(parse("4d6kh3 + 2"), random.Random(5))


EXPRESSIONS = ["1d20+5", "2d20kh1+7", "2d20kl1", "4d6kh3", "3d4+3", "1d100 - 1d6 [x]", "8d6"]


def _roll_all(seed: int) -> list[dice.DiceRoll]:
    rng = random.Random(seed)
    return [roll(text, rng) for text in EXPRESSIONS * 20]


def test_a_seed_reproduces_every_roll() -> None:
    assert _roll_all(2026) == _roll_all(2026)


def test_different_seeds_give_different_rolls() -> None:
    assert _roll_all(1) != _roll_all(2)


def test_rolling_draws_only_from_the_given_generator() -> None:
    """Module-level random is never touched: reseeding it changes nothing."""
    random.seed(1)
    first = roll("4d6kh3", random.Random(9))
    random.seed(2)
    assert roll("4d6kh3", random.Random(9)) == first


@given(
    count=st.integers(1, 12),
    sides=st.integers(1, 30),
    keep=st.one_of(st.none(), st.tuples(st.sampled_from(["kh", "kl"]), st.integers(1, 12))),
    constant=st.integers(-50, 50),
    negative=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_roll_invariants(
    count: int,
    sides: int,
    keep: tuple[str, int] | None,
    constant: int,
    negative: bool,
    seed: int,
) -> None:
    keep_text = f"{keep[0]}{min(keep[1], count)}" if keep else ""
    text = f"{'-' if negative else ''}{count}d{sides}{keep_text} + {abs(constant)}"
    result = roll(text, random.Random(seed))
    term = result.terms[0]
    assert len(term.rolls) == count
    assert all(1 <= face <= sides for face in term.rolls)
    assert sum(term.kept) == (min(keep[1], count) if keep else count)
    kept_sum = sum(term.kept_rolls)
    dropped = [r for r, k in zip(term.rolls, term.kept, strict=True) if not k]
    if keep and dropped:
        if keep[0] == "kh":
            assert min(term.kept_rolls) >= max(dropped)
        else:
            assert max(term.kept_rolls) <= min(dropped)
    assert result.total == (-kept_sum if negative else kept_sum) + abs(constant)
    assert result.expression.minimum <= result.total <= result.expression.maximum


# --- fairness (fixed seeds, so these are deterministic) ------------------------------------

CHI_SQUARE_19_DF_P001 = 43.820  # the 0.1% critical value of chi-square with 19 degrees of freedom


def test_d20_faces_are_uniform() -> None:
    rng = random.Random(20261129)
    n = 40_000
    counts = Counter(roll("1d20", rng).total for _ in range(n))
    assert set(counts) == set(range(1, 21))
    expected = n / 20
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 21))
    assert chi_square < CHI_SQUARE_19_DF_P001


def test_a_biased_die_fails_the_same_chi_square_test() -> None:
    """The uniformity test can fail: a die that turns 20s into 1s a tenth of the time does."""
    rng = random.Random(20261129)
    n = 40_000
    faces = [roll("1d20", rng).total for _ in range(n)]
    faces = [1 if f == 20 and i % 10 == 0 else f for i, f in enumerate(faces)]
    counts = Counter(faces)
    expected = n / 20
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 21))
    assert chi_square > CHI_SQUARE_19_DF_P001


def test_advantage_keeps_the_higher_die() -> None:
    """The mean of the higher of two d20s is 13.825 (sum of f(2f-1)/400); of the lower, 7.175."""
    rng = random.Random(7)
    n = 40_000
    high = [roll("2d20kh1", rng) for _ in range(n)]
    assert all(r.total == max(r.rolls) for r in high)
    assert abs(sum(r.total for r in high) / n - 13.825) < 0.1
    low = [roll("2d20kl1", rng) for _ in range(n)]
    assert all(r.total == min(r.rolls) for r in low)
    assert abs(sum(r.total for r in low) / n - 7.175) < 0.1


def test_damage_has_a_minimum_of_one() -> None:
    from sheet_app.dice import roll_damage

    # 1d4-5 is at most -1: every damage roll of it still deals 1, the dice kept as rolled.
    for seed in range(20):
        rolled = roll_damage("1d4-5", random.Random(seed))
        assert rolled.total == 1
        assert 1 <= rolled.rolls[0] <= 4
    assert roll_damage("2d6+3", random.Random(1)).total == roll("2d6+3", random.Random(1)).total
