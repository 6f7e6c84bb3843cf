"""Check rules: roll modes per system, outcomes and degrees of success, contests, groups, odds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from sheet_app.checks import (
    ModeError,
    check_odds,
    check_outcome,
    contest,
    degree_of_success,
    format_chance,
    group_check,
    is_success,
    modes_for,
    natural_distribution,
    outcomes_for,
    pass_fail,
    resolve_mode,
)
from sheet_app.derived import ModeSource, RollMode

ADV = ModeSource("advantage", "Help")
ADV2 = ModeSource("advantage", "Inspiration")
DIS = ModeSource("disadvantage", "Heavily encumbered")
DIS2 = ModeSource("disadvantage", "Poisoned")
FORTUNE = ModeSource("fortune", "Sure Strike")
FORTUNE2 = ModeSource("fortune", "Halfling Luck")
MISFORTUNE = ModeSource("misfortune", "Misfortune curse")

# --- roll modes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sources", "requested", "expected"),
    [
        ((), "normal", "normal"),
        ((), "advantage", "advantage"),
        ((), "disadvantage", "disadvantage"),
        ((ADV,), "normal", "advantage"),  # "normal" asks for nothing: the sheet's mode stands
        ((DIS,), "normal", "disadvantage"),
        ((ADV, ADV2), "advantage", "advantage"),
        ((DIS,), "advantage", "normal"),  # heavy encumbrance cancels the player's advantage
        ((ADV,), "disadvantage", "normal"),
        ((ADV, DIS, DIS2), "normal", "normal"),  # one advantage cancels any number of these
        ((DIS, DIS2), "advantage", "normal"),
        ((ADV, ADV2), "disadvantage", "normal"),
        ((DIS, DIS2), "normal", "disadvantage"),
    ],
)
def test_runarcana_advantage_and_disadvantage(
    sources: tuple[ModeSource, ...], requested: RollMode, expected: RollMode
) -> None:
    resolved = resolve_mode("runarcana", sources, requested)
    assert resolved.mode == expected
    assert resolved.cancelled == (expected == "normal" and (bool(sources) or requested != "normal"))


@pytest.mark.parametrize(
    ("sources", "requested", "expected"),
    [
        ((), "fortune", "fortune"),
        ((), "misfortune", "misfortune"),
        ((FORTUNE,), "normal", "fortune"),
        ((FORTUNE, FORTUNE2), "normal", "fortune"),  # at most one fortune acts
        ((FORTUNE,), "fortune", "fortune"),
        ((FORTUNE,), "misfortune", "normal"),  # one of each cancels
        ((MISFORTUNE,), "fortune", "normal"),
        ((FORTUNE, FORTUNE2, MISFORTUNE), "normal", "normal"),
    ],
)
def test_pf2e_fortune_and_misfortune(
    sources: tuple[ModeSource, ...], requested: RollMode, expected: RollMode
) -> None:
    assert resolve_mode("pf2e", sources, requested).mode == expected


def test_the_players_request_is_listed_among_the_sources() -> None:
    resolved = resolve_mode("runarcana", (DIS,), "advantage")
    assert resolved.sources == (DIS, ModeSource("advantage", "your request"))
    assert resolved.explain() == (
        "disadvantage from Heavily encumbered and advantage from your request cancel: normal roll"
    )
    assert resolve_mode("runarcana", (ADV, ADV2)).explain() == "advantage from Help, Inspiration"
    assert resolve_mode("runarcana").explain() == ""


@pytest.mark.parametrize(
    ("system", "requested", "message"),
    [
        ("pf2e", "advantage", "pf2e has no advantage; its modes are fortune"),
        ("pf2e", "disadvantage", "pf2e has no disadvantage"),
        ("runarcana", "fortune", "runarcana has no fortune; its modes are advantage"),
        ("runarcana", "misfortune", "runarcana has no misfortune"),
        ("d20srd", "advantage", "d20srd has no roll modes"),
        ("d20srd", "disadvantage", "d20srd has no roll modes"),
        ("d20srd", "fortune", "d20srd has no roll modes"),
        ("d20srd", "misfortune", "d20srd has no roll modes"),
        ("runarcana", "lucky", "unknown roll mode 'lucky'"),
    ],
)
def test_a_mode_the_system_lacks_is_a_clear_error(
    system: str, requested: RollMode, message: str
) -> None:
    with pytest.raises(ModeError) as caught:
        resolve_mode(system, (), requested)
    assert message in str(caught.value)


def test_a_foreign_mode_from_the_sheet_names_its_source() -> None:
    with pytest.raises(ModeError, match=r"d20srd has no roll modes: advantage \(asked by Help\)"):
        resolve_mode("d20srd", (ADV,))
    with pytest.raises(ModeError, match=r"asked by Help"):
        resolve_mode("pf2e", (ADV,), "fortune")


def test_normal_is_always_allowed() -> None:
    for system in ("pf2e", "runarcana", "d20srd"):
        assert resolve_mode(system).mode == "normal"


def test_modes_for_each_system() -> None:
    assert modes_for("runarcana") == ("normal", "advantage", "disadvantage")
    assert modes_for("pf2e") == ("normal", "fortune", "misfortune")
    assert modes_for("d20srd") == ("normal",)


def test_unknown_system_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown system 'gurps'"):
        resolve_mode("gurps")
    with pytest.raises(ValueError, match="unknown system"):
        check_outcome("gurps", 10, 10, 10)


# --- outcomes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "dc", "expected"),
    [(15, 15, "success"), (14, 15, "failure"), (16, 15, "success"), (-3, -3, "success")],
)
def test_total_meeting_the_dc_succeeds(total: int, dc: int, expected: str) -> None:
    assert pass_fail(total, dc) == expected
    assert check_outcome("runarcana", total, dc, 10) == expected
    assert check_outcome("d20srd", total, dc, 10) == expected


@pytest.mark.parametrize("system", ["runarcana", "d20srd"])
def test_naturals_do_not_change_pass_fail_systems(system: str) -> None:
    """RULES.md: total >= DC succeeds, with no natural 20/1 rule outside pf2e."""
    assert check_outcome(system, 20 + 0, 25, 20) == "failure"
    assert check_outcome(system, 1 + 30, 25, 1) == "success"


# (total, natural) against DC 20; the degree before the natural's step is in the comment.
@pytest.mark.parametrize(
    ("total", "natural", "expected"),
    [
        (30, 10, "critical_success"),  # exactly DC + 10
        (29, 10, "success"),
        (20, 10, "success"),  # exactly DC
        (19, 10, "failure"),
        (11, 10, "failure"),
        (10, 10, "critical_failure"),  # exactly DC - 10
        # natural 20: one step up, capped at critical success
        (30, 20, "critical_success"),  # critical success stays
        (29, 20, "critical_success"),  # success -> critical success
        (20, 20, "critical_success"),
        (19, 20, "success"),  # failure -> success
        (11, 20, "success"),
        (10, 20, "failure"),  # critical failure -> failure
        (0, 20, "failure"),
        # natural 1: one step down, capped at critical failure
        (40, 1, "success"),  # critical success -> success
        (30, 1, "success"),
        (29, 1, "failure"),  # success -> failure
        (20, 1, "failure"),
        (19, 1, "critical_failure"),  # failure -> critical failure
        (11, 1, "critical_failure"),
        (10, 1, "critical_failure"),  # critical failure stays
    ],
)
def test_pf2e_degrees_of_success(total: int, natural: int, expected: str) -> None:
    assert degree_of_success(total, 20, natural) == expected
    assert check_outcome("pf2e", total, 20, natural) == expected


def test_every_pf2e_degree_is_reachable_from_a_plain_roll() -> None:
    """Modifier +5 against DC 20: faces 1..20 give totals 6..25."""
    degrees = {degree_of_success(face + 5, 20, face) for face in range(1, 21)}
    assert degrees == {"critical_failure", "failure", "success", "critical_success"}
    assert degree_of_success(20 + 5, 20, 20) == "critical_success"  # 25 is a success, +1 step
    assert degree_of_success(1 + 5, 20, 1) == "critical_failure"


@pytest.mark.parametrize("natural", [0, 21, -1])
def test_a_natural_must_be_a_d20_face(natural: int) -> None:
    with pytest.raises(ValueError, match="a natural d20 is 1 to 20"):
        check_outcome("pf2e", 10, 10, natural)
    with pytest.raises(ValueError, match="a natural d20 is 1 to 20"):
        check_outcome("runarcana", 10, 10, natural)


def test_success_includes_critical_success() -> None:
    assert is_success("critical_success") and is_success("success")
    assert not is_success("failure") and not is_success("critical_failure")


def test_contest_higher_total_wins() -> None:
    first = contest(18, 12)
    assert (first.winner, first.margin, first.tie) == ("first", 6, False)
    second = contest(9, 11)
    assert (second.winner, second.margin) == ("second", 2)


def test_contest_tie_changes_nothing() -> None:
    result = contest(14, 14)
    assert result.winner is None
    assert result.tie
    assert result.margin == 0


@pytest.mark.parametrize(
    ("outcomes", "succeeded", "successes"),
    [
        (["success", "success", "failure", "failure"], True, 2),  # exactly half is enough
        (["success", "failure", "failure"], False, 1),
        (["success", "success", "failure"], True, 2),
        (["failure"], False, 0),
        (["success"], True, 1),
        (["critical_success", "critical_failure"], True, 1),
        (["critical_failure", "failure", "critical_success"], False, 1),
        ([True, False, False, False], False, 1),
        ([True, True, False, False, False], False, 2),
        ([True, True, True, False, False, False], True, 3),
    ],
)
def test_group_check_needs_at_least_half(
    outcomes: list[str | bool], succeeded: bool, successes: int
) -> None:
    result = group_check(outcomes)  # type: ignore[arg-type]
    assert result.succeeded is succeeded
    assert result.successes == successes
    assert result.members == len(outcomes)


def test_an_empty_group_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one member"):
        group_check([])


# --- exact odds ----------------------------------------------------------------------------


def test_natural_distributions() -> None:
    assert natural_distribution("normal") == {f: Fraction(1, 20) for f in range(1, 21)}
    assert natural_distribution("advantage") == {f: Fraction(2 * f - 1, 400) for f in range(1, 21)}
    assert natural_distribution("fortune") == natural_distribution("advantage")
    assert natural_distribution("disadvantage") == {
        f: Fraction(41 - 2 * f, 400) for f in range(1, 21)
    }
    assert natural_distribution("misfortune") == natural_distribution("disadvantage")


def _reference_outcome(system: str, total: int, dc: int, natural: int) -> str:
    """An independent statement of the rules, to check the enumeration against."""
    if system != "pf2e":
        return "success" if total >= dc else "failure"
    order = ["critical_failure", "failure", "success", "critical_success"]
    if total >= dc + 10:
        step = 3
    elif total >= dc:
        step = 2
    elif total > dc - 10:
        step = 1
    else:
        step = 0
    step += {20: 1, 1: -1}.get(natural, 0)
    return order[min(max(step, 0), 3)]


def _brute_force(system: str, modifier: int, dc: int, mode: str) -> dict[str, Fraction]:
    dice = 1 if mode == "normal" else 2
    pick = max if mode in ("advantage", "fortune") else min
    counts: dict[str, int] = {}
    rolls = list(itertools.product(range(1, 21), repeat=dice))
    for faces in rolls:
        natural = pick(faces)
        outcome = _reference_outcome(system, natural + modifier, dc, natural)
        counts[outcome] = counts.get(outcome, 0) + 1
    return {o: Fraction(n, len(rolls)) for o, n in counts.items()}


@pytest.mark.parametrize("system", ["pf2e", "runarcana", "d20srd"])
@pytest.mark.parametrize("modifier", [-5, 0, 4, 11, 25])
@pytest.mark.parametrize("dc", [-5, 5, 10, 15, 20, 25, 35])
def test_odds_equal_brute_force_enumeration(system: str, modifier: int, dc: int) -> None:
    for mode in modes_for(system):
        odds = check_odds(system, modifier, dc, mode)
        expected = _brute_force(system, modifier, dc, mode)
        assert {o: p for o, p in odds.probabilities.items() if p} == expected
        assert sum(odds.probabilities.values()) == 1
        assert tuple(odds.probabilities) == outcomes_for(system)  # every outcome, best first


def test_known_odds() -> None:
    assert check_odds("runarcana", 4, 15).success == Fraction(1, 2)
    assert check_odds("runarcana", 4, 15, "advantage").success == Fraction(3, 4)
    assert check_odds("runarcana", 4, 15, "disadvantage").success == Fraction(1, 4)
    pf2e = check_odds("pf2e", 0, 20)  # only a natural 20 reaches the DC, and it is raised
    assert dict(pf2e.probabilities) == {
        "critical_success": Fraction(1, 20),
        "success": Fraction(0),
        "failure": Fraction(9, 20),
        "critical_failure": Fraction(10, 20),
    }
    assert pf2e.success == Fraction(1, 20)


def test_odds_as_json_are_floats_per_outcome() -> None:
    assert check_odds("runarcana", 4, 15, "advantage").to_json() == {
        "success": 0.75,
        "failure": 0.25,
    }


@pytest.mark.parametrize(
    ("chance", "text"),
    [
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(3, 4), "75%"),
        (Fraction(5, 8), "62%"),  # 62.5 rounds half to even
        (Fraction(1, 400), "<1%"),
        (Fraction(399, 400), ">99%"),
        (Fraction(1, 20), "5%"),
    ],
)
def test_format_chance(chance: Fraction, text: str) -> None:
    assert format_chance(chance) == text


def test_format_chance_rejects_non_probabilities() -> None:
    with pytest.raises(ValueError):
        format_chance(Fraction(5, 4))


@pytest.mark.parametrize(
    ("total", "dc", "natural", "step"),
    [(25, 20, 20, 1), (25, 20, 1, -1), (35, 20, 20, 0), (5, 20, 1, 0), (20, 20, 10, 0)],
)
def test_natural_step_says_how_far_a_natural_moved_the_degree(
        total: int, dc: int, natural: int, step: int) -> None:
    from sheet_app.checks import natural_step

    assert natural_step("pf2e", total, dc, natural) == step
    assert natural_step("runarcana", total, dc, natural) == 0
