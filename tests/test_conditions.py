"""Each system's published condition list (issue 8, "Conditions with a value"): what is in it,
what each condition does to the numbers, and ``sheet-app conditions --system ID``.

RULES.md's worked examples are in ``test_rule_fixes``; these cover the rest of the lists.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from sheet_app import registry
from sheet_app.derived import Derived, Statistic
from sheet_app.io import character_from_data
from tests.helpers import SYSTEM_IDS, Run

Cli = Callable[..., Run]

FIVE_E = tuple(s for s in SYSTEM_IDS if registry.get(s).facts.death_rule == "death_saves")

PF2E_KEYS = {
    "blinded", "clumsy", "concealed", "confused", "controlled", "dazzled", "deafened",
    "doomed", "drained", "encumbered", "enfeebled", "fascinated", "fatigued", "fleeing",
    "frightened", "grabbed", "hidden", "immobilized", "invisible", "observed", "off_guard",
    "paralyzed", "petrified", "prone", "quickened", "restrained", "sickened", "slowed",
    "stunned", "stupefied", "unconscious", "undetected", "unnoticed",
}
D20_KEYS = {
    "blinded", "confused", "cowering", "dazed", "dazzled", "deafened", "entangled",
    "exhausted", "fascinated", "fatigued", "flat_footed", "frightened", "grappling",
    "helpless", "invisible", "nauseated", "panicked", "paralyzed", "petrified", "pinned",
    "prone", "shaken", "sickened", "stable", "staggered", "stunned", "turned", "unconscious",
}
SRD_5E_KEYS = {
    "blinded", "charmed", "deafened", "exhaustion", "frightened", "grappled",
    "incapacitated", "invisible", "paralyzed", "petrified", "poisoned", "prone",
    "restrained", "stunned", "unconscious",
}


def derive(system: str, **fields: Any) -> Derived:
    character = character_from_data(
        {"format": "sheet-app/character", "version": 2, "system": system, **fields})
    return registry.get(system).derive(character)


def condition(key: str, value: int | None = None, name: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name or key.replace("_", " ").capitalize(),
                           "condition": key}
    if value is not None:
        out["value"] = value
    return out


def with_conditions(system: str, *conditions: dict[str, Any]) -> dict[str, Statistic]:
    return dict(derive(system, effects=list(conditions)).statistics)


def delta(system: str, stat_id: str, *conditions: dict[str, Any]) -> int:
    """How much the conditions change ``stat_id``'s total."""
    plain = derive(system).statistics[stat_id].total
    return with_conditions(system, *conditions)[stat_id].total - plain


# --- the lists -----------------------------------------------------------------------------
def test_pf2e_has_player_cores_list() -> None:
    """Dying and wounded are hit-point values, not effects; persistent damage is left out."""
    assert set(registry.get("pf2e").facts.conditions) == PF2E_KEYS


def test_d20srd_has_the_srd_list() -> None:
    assert set(registry.get("d20srd").facts.conditions) == D20_KEYS


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_style_systems_have_the_srd_list_and_exhaustion_1_to_6(system: str) -> None:
    conditions = registry.get(system).facts.conditions
    assert set(conditions) == SRD_5E_KEYS
    assert conditions["exhaustion"].max_value == 6


def test_pf2e_values() -> None:
    conditions = registry.get("pf2e").facts.conditions
    valued = {k: c.max_value for k, c in conditions.items() if c.max_value is not None}
    assert valued == {"clumsy": 4, "doomed": 4, "drained": 4, "enfeebled": 4,
                      "frightened": 4, "sickened": 4, "slowed": 3, "stunned": 10,
                      "stupefied": 4}


def test_only_pf2e_frightened_drops_at_the_end_of_a_turn() -> None:
    for system in SYSTEM_IDS:
        for key, cond in registry.get(system).facts.conditions.items():
            assert cond.ends_turn_decrement == (system == "pf2e" and key == "frightened"), \
                (system, key)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_condition_applies_at_every_value(system: str) -> None:
    """Each condition's modifiers are valid targets and types of its system, at 1 and at its
    maximum: a sheet with it derives."""
    for key, cond in registry.get(system).facts.conditions.items():
        for value in {1, cond.max_value} if cond.max_value else {None}:
            derived = derive(system, effects=[condition(key, value)])
            assert derived.statistics, (key, value)


# --- the command ---------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_conditions_command_prints_the_list_as_json(cli: Cli, system: str) -> None:
    run = cli("conditions", "--system", system)
    assert run.code == 0 and run.err == ""
    data = json.loads(run.out)
    facts = registry.get(system).facts
    assert [c["key"] for c in data] == list(facts.conditions)
    for entry in data:
        assert {"key", "label", "summary", "max_value"} <= set(entry)
        assert entry["label"] and entry["summary"], entry
        assert entry["max_value"] is None or entry["max_value"] >= 1, entry
        assert isinstance(entry["ends_turn_decrement"], bool)
        assert isinstance(entry["modifiers_at_1"], list)


def test_conditions_command_shows_computed_modifiers(cli: Cli) -> None:
    data = {c["key"]: c for c in json.loads(cli("conditions", "--system", "pf2e").out)}
    assert data["grabbed"]["modifiers_at_1"] == [
        {"type": "circumstance", "value": -2, "targets": ["ac"]}]
    assert data["frightened"]["ends_turn_decrement"] is True


# --- pf2e ----------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["off_guard", "grabbed", "restrained", "paralyzed",
                                 "confused"])
def test_pf2e_off_guard_conditions(key: str) -> None:
    """Each makes you off-guard: −2 circumstance to AC, nothing else numeric."""
    assert delta("pf2e", "ac", condition(key)) == -2
    assert delta("pf2e", "attack:melee", condition(key)) == 0


def test_pf2e_two_off_guard_sources_dont_stack() -> None:
    """Prone and grabbed: both off-guard, circumstance penalties take the worst: −2."""
    stats = with_conditions("pf2e", condition("prone"), condition("grabbed"))
    assert stats["ac"].total == derive("pf2e").statistics["ac"].total - 2
    assert delta("pf2e", "attack:melee", condition("prone"), condition("grabbed")) == -2


def test_pf2e_unconscious() -> None:
    """−4 status to AC, Perception and Reflex, and off-guard (−2 circumstance AC)."""
    assert delta("pf2e", "ac", condition("unconscious")) == -6
    assert delta("pf2e", "perception", condition("unconscious")) == -4
    assert delta("pf2e", "save:reflex", condition("unconscious")) == -4
    assert delta("pf2e", "save:fortitude", condition("unconscious")) == 0


def test_pf2e_unconscious_and_fatigued_status_penalties_dont_stack() -> None:
    assert delta("pf2e", "ac", condition("unconscious"), condition("fatigued")) == -6


def test_pf2e_blinded_and_deafened() -> None:
    assert delta("pf2e", "perception", condition("blinded")) == -4
    assert delta("pf2e", "ac", condition("blinded")) == 0
    assert delta("pf2e", "initiative", condition("deafened")) == -2
    assert delta("pf2e", "perception", condition("deafened")) == 0


def test_pf2e_fascinated() -> None:
    """−2 status to Perception and skill checks, not to saves."""
    for stat_id in ("perception", "skill:stealth", "skill:arcana"):
        assert delta("pf2e", stat_id, condition("fascinated")) == -2, stat_id
    assert delta("pf2e", "save:will", condition("fascinated")) == 0


def test_pf2e_encumbered_is_clumsy_1_and_10_ft_slower() -> None:
    plain = derive("pf2e")
    enc = derive("pf2e", effects=[condition("encumbered")])
    assert enc.statistics["ac"].total == plain.statistics["ac"].total - 1
    assert enc.statistics["skill:stealth"].total == plain.statistics["skill:stealth"].total - 1
    assert enc.speed.total == plain.speed.total - 10
    # Clumsy 2 with it: status penalties take the worst.
    both = derive("pf2e", effects=[condition("encumbered"), condition("clumsy", 2)])
    assert both.statistics["ac"].total == plain.statistics["ac"].total - 2


def test_pf2e_conditions_without_numbers_change_nothing() -> None:
    plain = derive("pf2e").statistics
    for key in ("concealed", "controlled", "dazzled", "fleeing", "hidden", "immobilized",
                "invisible", "observed", "petrified", "quickened", "undetected",
                "unnoticed"):
        stats = with_conditions("pf2e", condition(key))
        assert {k: s.total for k, s in stats.items()} == {
            k: s.total for k, s in plain.items()}, key
    for key, value in (("doomed", 2), ("slowed", 2), ("stunned", 3)):
        stats = with_conditions("pf2e", condition(key, value))
        assert stats["ac"].total == plain["ac"].total, key


def test_pf2e_stupefied_reaches_perception() -> None:
    """Perception is Wisdom-based."""
    assert delta("pf2e", "perception", condition("stupefied", 2)) == -2
    assert delta("pf2e", "save:will", condition("stupefied", 2)) == -2
    assert delta("pf2e", "save:reflex", condition("stupefied", 2)) == 0


def test_pf2e_drained_hp_still_computed() -> None:
    """Max HP changes stay the rules' job."""
    plain = derive("pf2e", level=3)
    drained = derive("pf2e", level=3, effects=[condition("drained", 1)])
    assert drained.hit_points.max == plain.hit_points.max - 3


# --- d20srd --------------------------------------------------------------------------------
def test_d20_blinded() -> None:
    """−2 AC (every AC), −4 on Search and the Str- and Dex-based skills."""
    for stat_id in ("ac", "ac:touch", "ac:flat_footed"):
        assert delta("d20srd", stat_id, condition("blinded")) == -2, stat_id
    for stat_id in ("skill:search", "skill:climb", "skill:hide", "skill:tumble",
                    "skill:swim"):
        assert delta("d20srd", stat_id, condition("blinded")) == -4, stat_id
    for stat_id in ("skill:spot", "skill:listen", "attack:melee", "save:reflex"):
        assert delta("d20srd", stat_id, condition("blinded")) == 0, stat_id


def test_d20_blinded_and_stunned_stack() -> None:
    """Untyped penalties from different sources stack: −2 and −2 to AC."""
    assert delta("d20srd", "ac", condition("blinded"), condition("stunned")) == -4


def test_d20_cowering() -> None:
    assert delta("d20srd", "ac", condition("cowering")) == -2


def test_d20_dazzled() -> None:
    for stat_id in ("attack:melee", "attack:ranged", "skill:search", "skill:spot"):
        assert delta("d20srd", stat_id, condition("dazzled")) == -1, stat_id
    assert delta("d20srd", "skill:listen", condition("dazzled")) == 0


def test_d20_deafened() -> None:
    assert delta("d20srd", "initiative", condition("deafened")) == -4
    assert delta("d20srd", "skill:listen", condition("deafened")) == 0


def test_d20_fascinated() -> None:
    assert delta("d20srd", "skill:listen", condition("fascinated")) == -4
    assert delta("d20srd", "skill:spot", condition("fascinated")) == -4
    assert delta("d20srd", "skill:climb", condition("fascinated")) == 0


def test_d20_invisible() -> None:
    assert delta("d20srd", "attack:melee", condition("invisible")) == 2
    assert delta("d20srd", "attack:ranged", condition("invisible")) == 2


def test_d20_prone_is_minus_4_to_melee_attacks_only() -> None:
    assert delta("d20srd", "attack:melee", condition("prone")) == -4
    assert delta("d20srd", "attack:ranged", condition("prone")) == 0
    weapon = {"name": "Longsword", "attack": "melee", "damage": "1d8"}
    plain = derive("d20srd", weapons=[weapon]).statistics["attack:longsword"].total
    prone = derive("d20srd", weapons=[weapon], effects=[condition("prone")])
    assert prone.statistics["attack:longsword"].total == plain - 4


def test_d20_entangled_still_halves_speed() -> None:
    d = derive("d20srd", abilities={"dex": 14}, effects=[condition("entangled")])
    assert d.speed.total == 15
    assert d.abilities["dex"].score == 10
    assert delta("d20srd", "attack:melee", condition("entangled")) == -2


def test_d20_conditions_without_numbers_change_nothing() -> None:
    plain = derive("d20srd").statistics
    for key in ("confused", "dazed", "flat_footed", "grappling", "helpless", "nauseated",
                "paralyzed", "petrified", "pinned", "stable", "staggered", "turned",
                "unconscious"):
        stats = with_conditions("d20srd", condition(key))
        assert {k: s.total for k, s in stats.items()} == {
            k: s.total for k, s in plain.items()}, key


# --- 5e-style ------------------------------------------------------------------------------
@pytest.mark.parametrize("system", FIVE_E)
def test_5e_restrained(system: str) -> None:
    stats = with_conditions(system, condition("restrained"))
    assert stats["attack:melee"].roll_mode == "disadvantage"
    assert stats["save:dex"].roll_mode == "disadvantage"
    assert stats["save:str"].roll_mode == "normal"
    assert derive(system, effects=[condition("restrained")]).speed.total == 0


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_invisible_and_blinded_cancel_on_attacks(system: str) -> None:
    stats = with_conditions(system, condition("invisible"))
    assert stats["attack:ranged"].roll_mode == "advantage"
    both = with_conditions(system, condition("invisible"), condition("blinded"))
    assert both["attack:ranged"].roll_mode == "normal"


@pytest.mark.parametrize("system", FIVE_E)
def test_5e_exhaustion_levels_still_computed(system: str) -> None:
    plain = derive(system, speed=30)
    four = derive(system, speed=30, effects=[condition("exhaustion", 4)])
    assert four.hit_points.max == plain.hit_points.max // 2
    assert four.speed.total == 15
    assert four.statistics["save:con"].roll_mode == "disadvantage"
    assert derive(system, effects=[condition("exhaustion", 5)]).speed.total == 0
