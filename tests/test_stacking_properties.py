"""Properties of the stacking policies, alone and through ``derive`` on generated characters.

For every policy: the order of the modifiers never changes a total; a same-type bonus no
higher than the applied one changes nothing (pf2e typed bonuses, d20srd non-stacking types);
an untyped penalty from a new source lowers the total by exactly its value; every suppressed
line says why and no applied line does. Through ``derive``: the same, plus total == base + the
applied values for every statistic, and a d20srd character never benefits from both sacred and
profane bonuses.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheet_app import registry
from sheet_app.derived import Derived, ModifierLine
from sheet_app.io import character_from_data
from sheet_app.rules import derive
from sheet_app.rules.common import Contribution, total_of
from sheet_app.rules.stacking import BUILT_IN_TYPES
from sheet_app.systems.d20srd.facts import TYPES as D20_TYPES
from sheet_app.systems.d20srd.stacking import (
    SELF_STACKING,
    SELF_STACKING_BONUSES,
    D20Context,
    stack_d20,
)
from sheet_app.systems.fivee.rules import stack_fivee as stack_runarcana
from sheet_app.systems.pf2e.rules import TYPED as PF2E_TYPED
from sheet_app.systems.pf2e.rules import stack_pf2e
from tests.helpers import EFFECT_NAMES, SYSTEM_IDS, TARGETS, character_docs

PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DERIVE_PROPS = settings(max_examples=60, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow,
                                               HealthCheck.data_too_large])

Policy = Callable[[Sequence[Contribution]], tuple[ModifierLine, ...]]


def _policy(system: str) -> Policy:
    """Each family's policy, chosen by its facts so a new system of a family is covered."""
    facts = registry.get(system).facts
    if facts.open_types:
        return stack_runarcana
    return stack_pf2e if facts.four_degrees else stack_d20


POLICIES: dict[str, Policy] = {system: _policy(system) for system in SYSTEM_IDS}
D20_NON_STACKING = tuple(t for t in D20_TYPES if t not in SELF_STACKING | SELF_STACKING_BONUSES
                         and t != "ability")
"""``ability`` is left out: it is also the built-in type of the ability-modifier line, so
effect bonuses of that type currently stack (see test_d20_ability_typed_bonuses_dont_stack)."""
SAME_TYPE_LIMITED = {"pf2e": tuple(sorted(PF2E_TYPED)), "d20srd": D20_NON_STACKING}
"""Types whose bonuses don't add up: only the highest applies."""


# --- policies on their own ---------------------------------------------------------------
@st.composite
def contributions(draw: st.DrawFn, system: str) -> list[Contribution]:
    """Built-ins (order 0, no source) and effect modifiers (distinct orders, pooled sources)."""
    builtin = st.builds(
        Contribution, label=st.sampled_from(("Dexterity", "Proficiency", "Ranks")),
        type=st.sampled_from(sorted(BUILT_IN_TYPES)), value=st.integers(-5, 8),
    )
    built_ins = draw(st.lists(builtin, max_size=3))
    count = draw(st.integers(0, 10))
    effects = [
        Contribution(source, draw(st.sampled_from(registry.get(system).facts.modifier_types)),
                     draw(st.integers(-6, 6)), source, 1001 + i)
        for i, source in enumerate(draw(st.lists(st.sampled_from(EFFECT_NAMES),
                                                  min_size=count, max_size=count)))
    ]
    return [*built_ins, *effects]


def _fresh(items: Sequence[Contribution], label: str, type_: str, value: int) -> Contribution:
    """A modifier from a source no other line shares, with an order no other line has."""
    order = max((c.order for c in items), default=1000) + 1
    return Contribution(label, type_, value, f"{label} (new source)", order)


def _check_reasons(lines: Sequence[ModifierLine]) -> None:
    for line in lines:
        if line.applied:
            assert line.reason is None, line
        else:
            assert isinstance(line.reason, str) and line.reason.strip(), line


@pytest.mark.parametrize("system", SYSTEM_IDS)
@PROPS
@given(data=st.data())
def test_policy_order_never_changes_the_total(system: str, data: st.DataObject) -> None:
    policy = POLICIES[system]
    items = data.draw(contributions(system))
    shuffled = data.draw(st.permutations(items))
    lines = policy(items)
    # one line per input, in input order (a d20 inherent bonus above +5 counts as +5)
    assert [(line.label.split(" (")[0], line.type) for line in lines] == [
        (c.label.split(" (")[0], c.type) for c in items]
    assert all(line.value == c.value or (c.type == "inherent" and line.value == 5 < c.value)
               for line, c in zip(lines, items, strict=True))
    assert total_of(policy(shuffled)) == total_of(lines)


@pytest.mark.parametrize("system", SYSTEM_IDS)
@PROPS
@given(data=st.data())
def test_policy_lines_explain_themselves(system: str, data: st.DataObject) -> None:
    policy = POLICIES[system]
    items = data.draw(contributions(system))
    lines = policy(items)
    _check_reasons(lines)
    # The winners alone are a consistent set: stacked again, every one of them applies and
    # the total is unchanged (a loser never carried part of the result).
    winners = [c for c, line in zip(items, lines, strict=True) if line.applied]
    again = policy(winners)
    assert all(line.applied for line in again)
    assert total_of(again) == total_of(lines)


@pytest.mark.parametrize("system", ["pf2e", "d20srd"])
@PROPS
@given(data=st.data())
def test_policy_lower_same_type_bonus_changes_nothing(system: str, data: st.DataObject) -> None:
    policy = POLICIES[system]
    type_ = data.draw(st.sampled_from(SAME_TYPE_LIMITED[system]))
    items = data.draw(contributions(system))
    best = data.draw(st.integers(1, 6))
    items.insert(data.draw(st.integers(0, len(items))), _fresh(items, "Best", type_, best))
    before = total_of(policy(items))
    applied = [line.value for line in policy(items) if line.applied and line.type == type_
               and line.value > 0]
    assert len(applied) == 1  # only one bonus of a non-stacking type applies
    lower = _fresh(items, "Lower", type_, data.draw(st.integers(1, applied[0])))
    position = data.draw(st.integers(0, len(items)))
    more = [*items[:position], lower, *items[position:]]
    lines = policy(more)
    assert total_of(lines) == before
    _check_reasons(lines)


@pytest.mark.parametrize("system", SYSTEM_IDS)
@PROPS
@given(data=st.data())
def test_policy_untyped_penalty_lowers_by_its_value(system: str, data: st.DataObject) -> None:
    policy = POLICIES[system]
    items = data.draw(contributions(system))
    penalty = data.draw(st.integers(1, 10))
    position = data.draw(st.integers(0, len(items)))
    more = [*items[:position], _fresh(items, "Penalty", "untyped", -penalty), *items[position:]]
    lines = policy(more)
    assert total_of(lines) == total_of(policy(items)) - penalty
    assert lines[position].applied and lines[position].value == -penalty


@PROPS
@given(data=st.data())
def test_d20_losing_side_never_applies_a_bonus(data: st.DataObject) -> None:
    loser = data.draw(st.sampled_from(("sacred", "profane")))
    items = data.draw(contributions("d20srd"))
    items.append(_fresh(items, "Blessing", loser, data.draw(st.integers(1, 6))))
    context = D20Context(losing_side=loser, losing_reason="can't benefit from both")
    lines = stack_d20(items, context)
    assert not any(line.applied and line.type == loser and line.value > 0 for line in lines)
    assert lines[-1].reason == "can't benefit from both"
    _check_reasons(lines)


# --- through derive ----------------------------------------------------------------------
def _load(doc: dict[str, Any]) -> Derived:
    return derive(character_from_data(json.loads(json.dumps(doc))))


def _all_lines(derived: Derived) -> Iterator[tuple[str, ModifierLine]]:
    for stat_id, stat in derived.statistics.items():
        for line in stat.modifiers:
            yield stat_id, line
    for abbr, ability in derived.abilities.items():
        for line in ability.breakdown:
            yield f"score:{abbr}", line
    for line in (*derived.hit_points.breakdown, *derived.speed.breakdown):
        yield "other", line


def _numbers(derived: Derived) -> dict[str, Any]:
    """Every number a player sees, for comparing two snapshots."""
    return {
        "statistics": {k: (s.total, s.roll_mode) for k, s in derived.statistics.items()},
        "abilities": {k: (a.score, a.modifier) for k, a in derived.abilities.items()},
        "passive": dict(derived.passive),
        "hp": derived.hit_points.max,
        "carrying": derived.carrying.to_json(),
        "speed": derived.speed.total,
        "pb": derived.proficiency_bonus,
    }


@pytest.mark.parametrize("system", SYSTEM_IDS)
@DERIVE_PROPS
@given(data=st.data())
def test_derive_order_of_effects_and_modifiers_never_matters(system: str,
                                                             data: st.DataObject) -> None:
    doc = data.draw(character_docs(system))
    shuffled = json.loads(json.dumps(doc))
    shuffled["effects"] = data.draw(st.permutations(shuffled["effects"]))
    for effect in shuffled["effects"]:
        effect["modifiers"] = data.draw(st.permutations(effect["modifiers"]))
    assert _numbers(_load(shuffled)) == _numbers(_load(doc))


@pytest.mark.parametrize("system", SYSTEM_IDS)
@DERIVE_PROPS
@given(doc=st.data())
def test_derive_totals_and_reasons(system: str, doc: st.DataObject) -> None:
    derived = _load(doc.draw(character_docs(system)))
    for stat in derived.statistics.values():
        assert stat.total == stat.base + sum(m.value for m in stat.modifiers if m.applied), stat
        assert stat.base in (0, 10)
    for _where, line in _all_lines(derived):
        assert (line.reason is None) == line.applied
        if not line.applied:
            assert isinstance(line.reason, str) and line.reason.strip()


def _single_target_stats(derived: Derived) -> list[str]:
    """Statistic ids that, used as a target, reach only that statistic (pf2e's perception
    also reaches initiative; d20srd's ac also reaches touch and flat-footed AC; in 5e-style
    systems an ability check target also reaches that ability's skills and initiative)."""
    checks_are_skills = registry.get(derived.system).facts.open_types
    return sorted(s for s in derived.statistics if s not in ("perception", "ac")
                  and not (checks_are_skills and s.startswith("ability:")))


@pytest.mark.parametrize("system", SYSTEM_IDS)
@DERIVE_PROPS
@given(data=st.data())
def test_derive_untyped_penalty_lowers_exactly_one_statistic(system: str,
                                                             data: st.DataObject) -> None:
    doc = data.draw(character_docs(system))
    before = _load(doc)
    stat_id = data.draw(st.sampled_from(_single_target_stats(before)))
    assert stat_id in TARGETS[system]
    penalty = data.draw(st.integers(1, 10))
    doc["effects"].insert(data.draw(st.integers(0, len(doc["effects"]))), {
        "name": "Fresh penalty source", "active": True,
        "modifiers": [{"type": "untyped", "value": -penalty, "targets": [stat_id]}]})
    after = _load(doc)
    expected = {k: s.total for k, s in before.statistics.items()}
    expected[stat_id] -= penalty
    assert {k: s.total for k, s in after.statistics.items()} == expected


@pytest.mark.parametrize("system", ["pf2e", "d20srd"])
@DERIVE_PROPS
@given(data=st.data())
def test_derive_lower_same_type_bonus_changes_nothing(system: str, data: st.DataObject) -> None:
    doc = data.draw(character_docs(system))
    type_ = data.draw(st.sampled_from(SAME_TYPE_LIMITED[system]))
    stat_id = data.draw(st.sampled_from(_single_target_stats(_load(doc))))
    doc["effects"].append({"name": "Existing bonus", "active": True, "modifiers": [
        {"type": type_, "value": data.draw(st.integers(1, 6)), "targets": [stat_id]}]})
    before = _load(doc)
    applied = [m.value for m in before.statistics[stat_id].modifiers
               if m.applied and m.type == type_ and m.value > 0]
    assume(applied)  # e.g. morale on a creature with no Intelligence, or the losing side
    assert len(applied) == 1
    doc["effects"].append({"name": "Another source", "active": True, "modifiers": [
        {"type": type_, "value": data.draw(st.integers(1, applied[0])), "targets": [stat_id]}]})
    assert _numbers(_load(doc)) == _numbers(before)


@st.composite
def d20_with_sacred_and_profane(draw: st.DrawFn) -> dict[str, Any]:
    doc = draw(character_docs("d20srd"))
    blessing = st.fixed_dictionaries({
        "type": st.sampled_from(("sacred", "profane")), "value": st.integers(-4, 6),
        "targets": st.lists(st.sampled_from(TARGETS["d20srd"]), min_size=1, max_size=3,
                            unique=True)})
    for _ in range(draw(st.integers(1, 4))):
        doc["effects"].insert(draw(st.integers(0, len(doc["effects"]))), {
            "name": draw(st.sampled_from(("Consecrate", "Desecrate", "Unholy aura", "Prayer"))),
            "active": draw(st.booleans()),
            "modifiers": draw(st.lists(blessing, min_size=1, max_size=3))})
    return doc


@DERIVE_PROPS
@given(d20_with_sacred_and_profane())
def test_d20_sacred_and_profane_bonuses_never_both_apply(doc: dict[str, Any]) -> None:
    derived = _load(doc)
    sides = {line.type for _where, line in _all_lines(derived)
             if line.applied and line.value > 0 and line.type in ("sacred", "profane")}
    assert len(sides) <= 1, sides
    active = [m for e in doc["effects"] if e["active"] for m in e["modifiers"]]
    best = {side: max([m["value"] for m in active if m["type"] == side] + [0])
            for side in ("sacred", "profane")}
    if best["sacred"] > 0 and best["profane"] > 0:
        chosen = doc["options"]["sacred_profane"]
        kept = chosen or ("sacred" if best["sacred"] >= best["profane"] else "profane")
        loser = "profane" if kept == "sacred" else "sacred"
        assert sides <= {kept}
        lost = [line for _where, line in _all_lines(derived)
                if line.type == loser and line.value > 0]
        assert all(not line.applied and "sacred and profane" in (line.reason or "")
                   for line in lost)
        assert any(kept in note for note in derived.notes)


def test_d20_sacred_and_profane_penalties_both_apply() -> None:
    doc = {"format": "sheet-app/character", "version": 1, "system": "d20srd", "effects": [
        {"name": "Bane of the gods", "modifiers": [
            {"type": "sacred", "value": -1, "targets": ["save:will"]}]},
        {"name": "Unholy blight", "modifiers": [
            {"type": "profane", "value": -2, "targets": ["save:will"]}]},
        {"name": "Blessing", "modifiers": [
            {"type": "sacred", "value": 2, "targets": ["save:will"]}]},
        {"name": "Dark gift", "modifiers": [
            {"type": "profane", "value": 1, "targets": ["save:will"]}]},
    ]}
    will = _load(doc).statistics["save:will"]
    by_label = {line.label: line for line in will.modifiers}
    assert by_label["Bane of the gods"].applied and by_label["Unholy blight"].applied
    assert by_label["Blessing"].applied and not by_label["Dark gift"].applied
    assert will.total == 0 + 0 - 1 - 2 + 2  # base save 0, Wis 10


def test_d20_ability_typed_bonuses_dont_stack() -> None:
    """RULES.md: same-type modifiers don't stack except dodge, circumstance, flanking and
    mutation; 'ability' is one of the 24 types and not an exception."""
    lines = stack_d20([
        Contribution("Charisma", "ability", 0),
        Contribution("Eagle's Splendor", "ability", 2, "Eagle's Splendor", 1001),
        Contribution("Circlet", "ability", 1, "Circlet", 1002),
    ])
    assert total_of(lines) == 2
