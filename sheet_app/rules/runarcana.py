"""Runarcana RPG 0.92, a 5e-style system (seed 001).

Choices where the seed is silent, following 5e: skill checks are ability checks (a modifier to
"Dexterity checks" reaches Stealth); initiative is a Dexterity check; attacks add the
proficiency bonus (a character is assumed proficient with the weapons it lists); AC is the
armor's base (10 unarmoured) + Dex modifier (capped by the armor) + shield.
"""

from __future__ import annotations

from collections.abc import Iterable

from sheet_app.derived import (
    AbilityValue,
    Carrying,
    Derived,
    HitPoints,
    ModeSource,
    Speed,
    Statistic,
    frozen_map,
)
from sheet_app.model import RunarcanaCharacter
from sheet_app.rules.builder import StatisticBuilder, build_speed
from sheet_app.rules.common import Contribution, EffectIndex
from sheet_app.rules.scores import die_hit_points, scored_abilities
from sheet_app.rules.stacking import stack_runarcana
from sheet_app.systems import ABILITIES, ABILITY_NAMES, RUNARCANA_SKILLS, skill_label

SIZE_FACTOR = {"tiny": 0.5, "small": 1.0, "medium": 1.0, "large": 2.0, "huge": 4.0,
               "gargantuan": 8.0}
PASSIVE_SKILLS = ("perception", "insight", "investigation")
HEAVY_DISADVANTAGE_KEYS = frozenset({"uses:str", "uses:dex", "uses:con"})


def proficiency_bonus_for_level(level: int) -> int:
    """+2 at levels 1-4, +3 at 5-8, ... +6 at 17-20."""
    return 2 + (max(1, level) - 1) // 4


def proficiency_value(rank: str, pb: int) -> tuple[int, str]:
    """Proficiency adds at most once and doubles at most once; a second expertise adds +1.
    Doubling nothing (not proficient) is still nothing."""
    if rank == "proficient":
        return pb, "Proficiency"
    if rank == "expertise":
        return 2 * pb, "Proficiency (expertise, doubled)"
    if rank == "expertise_twice":
        return 2 * pb + 1, "Proficiency (expertise twice: doubled, +1)"
    return 0, "Proficiency (not proficient)"


def carrying(character: RunarcanaCharacter, strength: int) -> Carrying:
    """Capacity Str × 7 kg, push/drag/lift Str × 14 kg, doubled per size above Medium and
    halved for Tiny. Variant encumbrance thresholds are one third and two thirds of capacity
    (the seed's "5 × / 10 × Str" are its pound-based source's numbers, see RULES.md)."""
    factor = SIZE_FACTOR[character.size]
    capacity = strength * 7 * factor
    push = strength * 14 * factor
    carried = round(sum(i.weight * i.quantity for i in character.inventory), 3)
    variant = character.options.variant_encumbrance
    enc = capacity / 3 if variant else None
    heavy = capacity * 2 / 3 if variant else None
    if carried > capacity:
        if carried > push:
            effects = (f"over {push:g} kg: too heavy to move",)
            speed_cap = 0
        else:
            effects = ("over capacity: can only push or drag, speed 5 ft",)
            speed_cap = 5
        penalty = max(0, character.speed - speed_cap)
        return Carrying("kg", capacity, push, carried, "over_capacity", penalty, enc, heavy,
                        effects)
    if heavy is not None and carried > heavy:
        return Carrying(
            "kg", capacity, push, carried, "heavily_encumbered", 20, enc, heavy,
            ("speed -20 ft", "disadvantage on ability checks, attack rolls and saving throws "
             "using Str, Dex or Con"),
        )
    if enc is not None and carried > enc:
        return Carrying("kg", capacity, push, carried, "encumbered", 10, enc, heavy,
                        ("speed -10 ft",))
    return Carrying("kg", capacity, push, carried, "unencumbered", 0, enc, heavy)


def parse_variant(stat_id: str) -> tuple[str, str] | None:
    """``skill:athletics@con`` → ("athletics", "con"): a skill rolled with another ability."""
    head, sep, abbr = stat_id.partition("@")
    if not sep or not head.startswith("skill:") or abbr not in ABILITIES:
        return None
    skill = head[len("skill:"):]
    return (skill, abbr) if skill in RUNARCANA_SKILLS else None


def derive(character: RunarcanaCharacter, variants: Iterable[str] = ()) -> Derived:
    """Every statistic of the sheet; ``variants`` adds skills rolled with another ability
    (``skill:athletics@con``, the seed's "Variant: Skills with Different Abilities"): the
    skill's proficiency with that ability's modifier, and what targets either."""
    effects = EffectIndex(character)
    abilities = scored_abilities(_scores(character), effects, stack_runarcana)
    pb = (
        character.proficiency_bonus
        if character.proficiency_bonus is not None
        else proficiency_bonus_for_level(character.level)
    )
    carry = carrying(character, abilities["str"].score or 0)

    def rule_modes(keys: frozenset[str]) -> list[ModeSource]:
        if carry.state == "heavily_encumbered" and keys & HEAVY_DISADVANTAGE_KEYS:
            return [ModeSource("disadvantage", "Heavily encumbered")]
        return []

    builder = StatisticBuilder("runarcana", effects, stack_runarcana, rule_modes)
    build = builder.build

    def ability_line(abbr: str) -> Contribution:
        return Contribution(ABILITY_NAMES[abbr], "ability", abilities[abbr].modifier)

    stats: dict[str, Statistic] = {}
    for abbr in ABILITIES:
        name = ABILITY_NAMES[abbr]
        stats[f"ability:{abbr}"] = build(
            f"ability:{abbr}", f"{name} check",
            ("check", "ability", f"ability:{abbr}", f"uses:{abbr}"),
            [ability_line(abbr)], ability=abbr,
        )
    def skill_check(stat_id: str, label: str, skill: str, abbr: str) -> Statistic:
        value, prof = proficiency_value(character.skills.get(skill, "untrained"), pb)
        return build(
            stat_id, label,
            ("check", "skill", f"skill:{skill}", "ability", f"ability:{abbr}", f"uses:{abbr}"),
            [ability_line(abbr), Contribution(prof, "proficiency", value)], ability=abbr,
        )

    for skill, abbr in RUNARCANA_SKILLS.items():
        stats[f"skill:{skill}"] = skill_check(f"skill:{skill}", skill_label(skill), skill, abbr)
    for stat_id in variants:
        parsed = parse_variant(stat_id)
        if parsed is not None:
            skill, abbr = parsed
            label = f"{ABILITY_NAMES[abbr]} ({skill_label(skill)})"
            stats[stat_id] = skill_check(stat_id, label, skill, abbr)
    for abbr in ABILITIES:
        value, label = proficiency_value(character.saves.get(abbr, "untrained"), pb)
        stats[f"save:{abbr}"] = build(
            f"save:{abbr}", f"{ABILITY_NAMES[abbr]} save",
            ("check", "save", f"save:{abbr}", f"uses:{abbr}"),
            [ability_line(abbr), Contribution(label, "proficiency", value)], ability=abbr,
        )
    stats["initiative"] = build(
        "initiative", "Initiative",
        ("check", "initiative", "ability", "ability:dex", "uses:dex"),
        [ability_line("dex")], ability="dex",
    )
    for kind, abbr in (("melee", "str"), ("ranged", "dex")):
        stats[f"attack:{kind}"] = build(
            f"attack:{kind}", f"{kind.capitalize()} attack",
            ("check", "attack", f"attack:{kind}", f"uses:{abbr}"),
            [ability_line(abbr), Contribution("Proficiency", "proficiency", pb)], ability=abbr,
        )
    stats["ac"] = _armor_class(character, abilities, builder)

    passive = {
        skill: _passive(stats[f"skill:{skill}"]) for skill in PASSIVE_SKILLS
    }
    con = abilities["con"]
    max_hp, hp_lines = die_hit_points(character.hit_points, character.level, con.modifier)
    hp = HitPoints(max_hp, hp_lines, character.hit_points.current, character.hit_points.temporary)
    return Derived(
        system="runarcana",
        abilities=frozen_map(abilities),
        proficiency_bonus=pb,
        statistics=frozen_map(stats),
        passive=frozen_map(passive),
        hit_points=hp,
        carrying=carry,
        speed=_speed(character.speed, carry, effects),
    )


def _passive(stat: Statistic) -> int:
    """10 + every modifier of the check; +5 with advantage, -5 with disadvantage."""
    shift = {"advantage": 5, "disadvantage": -5}.get(stat.roll_mode, 0)
    return 10 + stat.total + shift


def _armor_class(
    character: RunarcanaCharacter, abilities: dict[str, AbilityValue], builder: StatisticBuilder
) -> Statistic:
    armor = character.armor
    dex = abilities["dex"].modifier
    lines: list[Contribution] = []
    if armor.base != 10:
        name = armor.name or "Armor"
        lines.append(Contribution(f"{name} (base {armor.base})", "armor", armor.base - 10))
    if armor.dex_cap is not None and dex > armor.dex_cap:
        lines.append(Contribution(f"Dexterity (capped at +{armor.dex_cap} by armor)", "ability",
                                  armor.dex_cap))
    else:
        lines.append(Contribution("Dexterity", "ability", dex))
    if armor.shield:
        lines.append(Contribution("Shield", "shield", armor.shield))
    return builder.build("ac", "Armor Class", ("ac",), lines, base=10, rollable=False)


def _speed(base: int, carry: Carrying, effects: EffectIndex) -> Speed:
    if carry.state == "over_capacity":
        cap = 5 if carry.carried <= carry.push_drag_lift else 0
        return build_speed(base, (), effects, stack_runarcana, cap=cap,
                           cap_label="Over capacity (can only push or drag)")
    penalty = []
    if carry.speed_penalty:
        label = carry.state.replace("_", " ").capitalize()
        penalty.append(Contribution(label, "encumbrance", -carry.speed_penalty))
    return build_speed(base, penalty, effects, stack_runarcana)


def _scores(character: RunarcanaCharacter) -> dict[str, int | None]:
    """The six scores only: a file's unknown keys under ``abilities`` are kept, not rolled."""
    return {abbr: getattr(character.abilities, abbr) for abbr in ABILITIES}
