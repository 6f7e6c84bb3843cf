"""The rules the 5e-style systems share (Runarcana's seed 001, and the D&D 5e SRD 5.1).

Each system passes a `FiveE` with what differs: its id, skills, carrying unit and capacity.
Choices where the seed is silent, following 5e: skill checks are ability checks (a modifier to
"Dexterity checks" reaches Stealth); initiative is a Dexterity check; attacks add the
proficiency bonus (a character is assumed proficient with the weapons it lists); AC is the
armor's base (10 unarmoured) + Dex modifier (capped by the armor) + shield. Effects keep the
effective score within 0-30. Exhaustion follows the SRD's six-level table in both systems.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from sheet_app import registry
from sheet_app.derived import (
    AbilityValue,
    Carrying,
    Damage,
    Derived,
    HitPoints,
    ModeSource,
    ModifierLine,
    Speed,
    Statistic,
    frozen_map,
)
from sheet_app.facts import ABILITIES, ABILITY_NAMES, skill_label
from sheet_app.passive import fleeting_sources, passive_mode_sources, passive_total
from sheet_app.registry import Condition
from sheet_app.rules.builder import StatisticBuilder, build_speed, cut_speed
from sheet_app.rules.common import Contribution, EffectIndex, active_condition, sheet_mode
from sheet_app.rules.scores import die_hit_points, entered_scores, scored_abilities
from sheet_app.rules.stacking import keep_best, source_reason, verdict_lines
from sheet_app.rules.weapons import (
    attack_ability,
    attack_keys,
    damage_keys,
    weapon_dice,
    weapon_ids,
)
from sheet_app.systems.fivee.model import FiveECharacter

SIZE_FACTOR = {"tiny": 0.5, "small": 1.0, "medium": 1.0, "large": 2.0, "huge": 4.0,
               "gargantuan": 8.0}
PASSIVE_SKILLS = ("perception", "insight", "investigation")
HEAVY_DISADVANTAGE_KEYS = frozenset({"uses:str", "uses:dex", "uses:con"})
MAX_SCORE = 30
SPEED_ZERO_CONDITIONS = ("grappled", "restrained", "paralyzed", "petrified", "stunned",
                         "unconscious")


@dataclass(frozen=True, slots=True)
class FiveE:
    """What one 5e-style system sets: the rest of the rules are shared."""

    system: str
    skills: Mapping[str, str]
    unit: str
    capacity_per_str: float
    """Carrying capacity per point of Strength (7 kg, 15 lb); push/drag/lift is twice it.
    Variant encumbrance starts above one third and two thirds of capacity."""
    conditions: Mapping[str, Condition]


PROFICIENCY_ONCE = "proficiency is added at most once: this check already has it"


def stack_fivee(items: Sequence[Contribution]) -> tuple[ModifierLine, ...]:
    """5e-style: bonuses don't have stacking types; different effects add up, but the same
    effect twice (two effects with one name) counts once, the most potent instance.
    Proficiency is added at most once: an effect of type ``proficiency`` adds nothing to a
    check that is already proficient, and of several such effects only the best applies."""
    verdict: dict[int, str] = {}
    granted = [i for i, c in enumerate(items) if c.source is not None and c.type == "proficiency"]
    if granted and any(c.source is None and c.type == "proficiency" and c.value > 0
                       for c in items):
        verdict.update(dict.fromkeys(granted, PROFICIENCY_ONCE))
    keep_best(items, _source, source_reason, verdict)
    if len(granted) > 1:
        keep_best(items, _granted_proficiency, _proficiency_reason, verdict)
    return verdict_lines(items, verdict)


def _source(c: Contribution) -> str | None:
    return c.source


def _granted_proficiency(c: Contribution) -> str | None:
    return "proficiency" if c.source is not None and c.type == "proficiency" else None


def _proficiency_reason(loser: Contribution, winner: Contribution) -> str:
    return PROFICIENCY_ONCE


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


def carrying(rules: FiveE, character: FiveECharacter, strength: int) -> Carrying:
    """Capacity Str × 7 kg (Runarcana) or 15 lb (5e), push/drag/lift twice that, doubled per
    size above Medium and halved for Tiny. Variant encumbrance thresholds are one third and
    two thirds of capacity: 5e's Str × 5 and × 10 lb, and the same proportions in
    Runarcana's kg (the seed's "5 × / 10 × Str" are its pound-based source's numbers)."""
    factor = SIZE_FACTOR[character.size]
    unit = rules.unit
    capacity = strength * rules.capacity_per_str * factor
    push = capacity * 2
    carried = round(sum(i.weight * i.quantity for i in character.inventory), 3)
    variant = character.options.variant_encumbrance
    enc = capacity / 3 if variant else None
    heavy = capacity * 2 / 3 if variant else None
    if carried > capacity:
        effects: tuple[str, ...]
        if carried > push:
            effects = (f"over {push:g} {unit}: too heavy to move",)
            speed_cap = 0
        else:
            effects = ("over capacity: can only push or drag, speed 5 ft",)
            speed_cap = 5
        penalty = max(0, character.speed - speed_cap)
        if variant:
            effects = (*effects, HEAVY_WORDS)
        return Carrying(unit, capacity, push, carried, "over_capacity", penalty, enc, heavy,
                        effects)
    if heavy is not None and carried > heavy:
        return Carrying(unit, capacity, push, carried, "heavily_encumbered", 20, enc, heavy,
                        ("speed -20 ft", HEAVY_WORDS))
    if enc is not None and carried > enc:
        return Carrying(unit, capacity, push, carried, "encumbered", 10, enc, heavy,
                        ("speed -10 ft",))
    return Carrying(unit, capacity, push, carried, "unencumbered", 0, enc, heavy)


HEAVY_WORDS = ("disadvantage on ability checks, attack rolls and saving throws using Str, Dex "
               "or Con")


def parse_variant(stat_id: str, skills: Mapping[str, str]) -> tuple[str, str] | None:
    """``skill:athletics@con`` → ("athletics", "con"): a skill rolled with another ability."""
    head, sep, abbr = stat_id.partition("@")
    if not sep or not head.startswith("skill:") or abbr not in ABILITIES:
        return None
    skill = head[len("skill:"):]
    return (skill, abbr) if skill in skills else None


def derive(rules: FiveE, character: FiveECharacter, variants: Iterable[str] = ()) -> Derived:
    """Every statistic of the sheet; ``variants`` adds skills rolled with another ability
    (``skill:athletics@con``, the seed's "Variant: Skills with Different Abilities"): the
    skill's proficiency with that ability's modifier, and what targets either."""
    effects = EffectIndex(character, rules.conditions)
    abilities = scored_abilities(entered_scores(character.abilities), effects, stack_fivee,
                                 max_score=MAX_SCORE)
    pb = (
        character.proficiency_bonus
        if character.proficiency_bonus is not None
        else proficiency_bonus_for_level(character.level)
    )
    carry = carrying(rules, character, abilities["str"].score or 0)
    heavy = character.options.variant_encumbrance and carry.state in (
        "heavily_encumbered", "over_capacity")
    heavy_label = ("Heavily encumbered" if carry.state == "heavily_encumbered"
                   else "Over carrying capacity")

    def rule_modes(keys: frozenset[str]) -> list[ModeSource]:
        if heavy and keys & HEAVY_DISADVANTAGE_KEYS:
            return [ModeSource("disadvantage", heavy_label)]
        return []

    builder = StatisticBuilder(rules.system, effects, stack_fivee, rule_modes,
                               competing_types=frozenset({"proficiency"}))
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

    for skill, abbr in rules.skills.items():
        stats[f"skill:{skill}"] = skill_check(f"skill:{skill}", skill_label(skill), skill, abbr)
    for stat_id in variants:
        parsed = parse_variant(stat_id, rules.skills)
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
    damage: dict[str, Damage] = {}
    for key, weapon in weapon_ids(character.weapons):
        abbr = attack_ability(weapon, abilities, thrown_uses_str=True)
        parts = [ability_line(abbr)]
        if weapon.proficient:
            parts.append(Contribution("Proficiency", "proficiency", pb))
        stats[f"attack:{key}"] = replace(
            build(f"attack:{key}", weapon.name, attack_keys(weapon, key, abbr), parts,
                  ability=abbr), threat=20)
        lines = stack_fivee([ability_line(abbr),
                             *effects.contributions(damage_keys(weapon, key))])
        damage[f"damage:{key}"] = Damage(f"damage:{key}", weapon.name, weapon_dice(weapon),
                                         lines, "double_dice", 2, 0, weapon.damage_type)

    fleeting = fleeting_sources(character)
    passive = {
        skill: _passive(stats[f"skill:{skill}"], fleeting, rules.system)
        for skill in PASSIVE_SKILLS
    }
    con = abilities["con"]
    max_hp, hp_lines = die_hit_points(character.hit_points, character.level, con.modifier)
    exhaustion = active_condition(character, "exhaustion")
    if exhaustion >= 4:
        halved = max_hp // 2 - max_hp
        hp_lines = (*hp_lines, Contribution(f"Exhaustion {exhaustion}: maximum halved",
                                            "condition", halved).line())
        max_hp += halved
    hp = HitPoints(max_hp, hp_lines, character.hit_points.current, character.hit_points.temporary)
    return Derived(
        system=rules.system,
        abilities=frozen_map(abilities),
        proficiency_bonus=pb,
        statistics=frozen_map(stats),
        passive=frozen_map(passive),
        hit_points=hp,
        carrying=carry,
        speed=_speed(character, carry, effects, exhaustion),
        damage=frozen_map(damage),
    )


def _passive(stat: Statistic, fleeting: frozenset[str], system: str) -> int:
    """10 + every modifier of the check; +5 with advantage, -5 with disadvantage.

    A passive is not a roll: dice bonuses (worth 0 on the line) stay out, and so do the
    values and roll modes of effects that last until the next roll (``fleeting``, by name)."""
    mode = stat.roll_mode
    if fleeting and any(source.label in fleeting for source in stat.mode_sources):
        kept = passive_mode_sources(stat, fleeting)
        allowed = registry.get(system).facts.roll_modes
        mode = sheet_mode(system, kept, allowed) if kept else "normal"
    shift = {"advantage": 5, "disadvantage": -5}.get(mode, 0)
    return 10 + passive_total(stat, fleeting) + shift


def _armor_class(
    character: FiveECharacter, abilities: dict[str, AbilityValue], builder: StatisticBuilder
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


def _speed(
    character: FiveECharacter, carry: Carrying, effects: EffectIndex, exhaustion: int
) -> Speed:
    """Encumbrance first, then effects; exhaustion 2 halves what is left (rounded down) and
    exhaustion 5, or a condition such as grappled, makes it 0."""
    base = character.speed
    stopped = next((c for c in SPEED_ZERO_CONDITIONS if active_condition(character, c)), None)
    if exhaustion >= 5:
        stopped = f"exhaustion {exhaustion}"
    if carry.state == "over_capacity":
        cap = 5 if carry.carried <= carry.push_drag_lift else 0
        speed = build_speed(base, (), effects, stack_fivee, cap=cap,
                            cap_label="Over capacity (can only push or drag)")
    else:
        penalty = []
        if carry.speed_penalty:
            label = carry.state.replace("_", " ").capitalize()
            penalty.append(Contribution(label, "encumbrance", -carry.speed_penalty))
        speed = build_speed(base, penalty, effects, stack_fivee)
    if stopped is not None:
        return cut_speed(speed, f"{stopped.capitalize()}: speed 0", 0)
    if exhaustion >= 2:
        return cut_speed(speed, f"Exhaustion {exhaustion}: speed halved", speed.total // 2)
    return speed
