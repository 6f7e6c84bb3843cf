"""Pathfinder 2e (Player Core, seed 000), plus standard PF2e where the seed is silent.

Choices beyond the seed, from the published rules: AC = 10 + Dex (capped by armor) +
proficiency + the armor's item bonus; initiative is a Perception check, so Perception's
modifiers apply; encumbered (Bulk above 5 + Str) gives clumsy 1 (a -1 status penalty to
Dex-based checks and AC) and -10 ft speed; above 10 + Str Bulk the character can't carry it.
Bulk limits double per size above Medium and halve for Tiny. Hit points gain at least 1 a level.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from sheet_app.derived import (
    AbilityValue,
    Carrying,
    Damage,
    Derived,
    HitPoints,
    ModifierLine,
    Speed,
    Statistic,
    frozen_map,
)
from sheet_app.facts import ABILITIES, ABILITY_NAMES, skill_label
from sheet_app.passive import fleeting_sources, passive_total
from sheet_app.rules.builder import StatisticBuilder, build_speed
from sheet_app.rules.common import Contribution, EffectIndex, active_condition, total_of
from sheet_app.rules.stacking import keep_best, type_reason, verdict_lines
from sheet_app.rules.weapons import (
    attack_ability,
    attack_keys,
    damage_keys,
    weapon_dice,
    weapon_ids,
)
from sheet_app.systems.pf2e.facts import CONDITIONS, RANK_BONUS, SAVES, SKILLS
from sheet_app.systems.pf2e.model import Pf2eCharacter

SIZE_FACTOR = {"tiny": 0.5, "small": 1.0, "medium": 1.0, "large": 2.0, "huge": 4.0,
               "gargantuan": 8.0}
LIGHT_PER_BULK = 10
MAP = (-5, -10)
AGILE_MAP = (-4, -8)
"""The multiple attack penalty of a 2nd and 3rd Strike in a turn."""
TYPED = frozenset({"circumstance", "item", "status"})


def stack_pf2e(items: Sequence[Contribution]) -> tuple[ModifierLine, ...]:
    """Per type (circumstance, item, status) only the highest bonus and the worst penalty
    apply; a bonus and a penalty of one type both apply. Untyped modifiers all add up."""
    verdict: dict[int, str] = {}
    keep_best(items, lambda c: c.type if c.type in TYPED else None, type_reason, verdict)
    return verdict_lines(items, verdict)


def proficiency(rank: str, level: int) -> Contribution:
    """Untrained 0; otherwise level + 2/4/6/8 for trained/expert/master/legendary."""
    if rank == "untrained":
        return Contribution("Proficiency (untrained)", "proficiency", 0)
    return Contribution(f"Proficiency ({rank})", "proficiency", level + RANK_BONUS[rank])


def carried_bulk(character: Pf2eCharacter) -> float:
    """Whole Bulk plus one per ten light (L) items; fewer than ten L's add nothing."""
    whole = 0
    light = 0
    for item in character.inventory:
        if item.bulk == "L":
            light += item.quantity
        elif isinstance(item.bulk, int):
            whole += item.bulk * item.quantity
    return float(whole + light // LIGHT_PER_BULK)


def carrying(character: Pf2eCharacter, strength: int) -> Carrying:
    factor = SIZE_FACTOR[character.size]
    encumbered_above = (5 + strength) * factor
    limit = (10 + strength) * factor
    carried = carried_bulk(character)
    if carried > limit:
        return Carrying("bulk", limit, limit, carried, "over_capacity", character.speed,
                        encumbered_above, None, (f"over {limit:g} Bulk: can't carry this much",))
    if carried > encumbered_above:
        return Carrying("bulk", limit, limit, carried, "encumbered", 10, encumbered_above, None,
                        ("clumsy 1 (-1 status to Dex-based checks and AC)", "speed -10 ft"))
    return Carrying("bulk", limit, limit, carried, "unencumbered", 0, encumbered_above, None)


def derive(character: Pf2eCharacter, variants: Iterable[str] = ()) -> Derived:
    """Every statistic of the sheet (pf2e has no variant statistics)."""
    effects = EffectIndex(character, CONDITIONS)
    level = character.level
    abilities: dict[str, AbilityValue] = {}
    for abbr in ABILITIES:
        base: int = getattr(character.abilities, abbr)
        found = effects.contributions((f"score:{abbr}",))
        lines = stack_pf2e([Contribution("Entered modifier", "base", base), *found])
        value = total_of(lines)
        abilities[abbr] = AbilityValue(abbr, ABILITY_NAMES[abbr], base, value, value, lines)

    carry = carrying(character, abilities["str"].modifier)
    builder = StatisticBuilder("pf2e", effects, stack_pf2e)
    build = builder.build
    encumbered = carry.state in ("encumbered", "over_capacity")
    clumsy = Contribution("Clumsy 1 (encumbered)", "status", -1, "Encumbered")
    armor = character.armor

    def attr(abbr: str) -> Contribution:
        return Contribution(ABILITY_NAMES[abbr], "ability", abilities[abbr].modifier)

    def extras(abbr: str, skill: bool = False) -> list[Contribution]:
        out = [clumsy] if encumbered and abbr == "dex" else []
        if skill and armor.check_penalty and abbr in ("str", "dex"):
            out.append(Contribution(f"Armor check penalty ({armor.name or 'armor'})",
                                    "untyped", armor.check_penalty))
        return out

    stats: dict[str, Statistic] = {}
    perception_keys = ("check", "perception", "uses:wis")
    perception_parts = [attr("wis"), proficiency(character.perception, level)]
    stats["perception"] = build("perception", "Perception", perception_keys, perception_parts,
                                ability="wis")
    for skill, abbr in SKILLS.items():
        rank = character.skills.get(skill, "untrained")
        stats[f"skill:{skill}"] = build(
            f"skill:{skill}", skill_label(skill),
            ("check", "skill", f"skill:{skill}", f"uses:{abbr}"),
            [attr(abbr), proficiency(rank, level), *extras(abbr, skill=True)], ability=abbr,
        )
    for save, abbr in SAVES.items():
        stats[f"save:{save}"] = build(
            f"save:{save}", save.capitalize(),
            ("check", "save", f"save:{save}", f"uses:{abbr}"),
            [attr(abbr), proficiency(character.saves.get(save, "untrained"), level),
             *extras(abbr)],
            ability=abbr,
        )
    stats["initiative"] = build(
        "initiative", "Initiative (Perception)", (*perception_keys, "initiative"),
        perception_parts, ability="wis",
    )
    for kind, abbr in (("melee", "str"), ("ranged", "dex")):
        stats[f"attack:{kind}"] = build(
            f"attack:{kind}", f"{kind.capitalize()} attack",
            ("check", "attack", f"attack:{kind}", f"uses:{abbr}"),
            [attr(abbr), proficiency(character.weapon_proficiency, level), *extras(abbr)],
            ability=abbr,
        )
    stats["ac"] = _armor_class(character, abilities["dex"].modifier, builder, encumbered, clumsy)
    damage: dict[str, Damage] = {}
    for key, weapon in weapon_ids(character.weapons):
        abbr = attack_ability(weapon, abilities)
        parts = [attr(abbr), proficiency(weapon.rank or character.weapon_proficiency, level),
                 *extras(abbr)]
        if weapon.potency:
            parts.append(Contribution(f"{weapon.name} potency rune", "item", weapon.potency,
                                      weapon.name))
        steps = AGILE_MAP if weapon.agile else MAP
        stats[f"attack:{key}"] = replace(
            build(f"attack:{key}", weapon.name, attack_keys(weapon, key, abbr), parts,
                  ability=abbr),
            follow_ups=(("2nd Strike", steps[0]), ("3rd Strike", steps[1])), threat=20)
        strength = ([attr("str")] if weapon.attack == "melee" or weapon.thrown else [])
        lines = stack_pf2e([*strength, *effects.contributions(damage_keys(weapon, key))])
        damage[f"damage:{key}"] = Damage(
            f"damage:{key}", weapon.name, weapon_dice(weapon, weapon.striking), lines,
            "double_total", 2, 1, weapon.damage_type)

    con = abilities["con"].modifier
    per_level = character.hit_points.class_ + con
    hp_lines = [
        Contribution("Ancestry", "base", character.hit_points.ancestry).line(),
        Contribution(f"Class {character.hit_points.class_} × {level}", "base",
                     character.hit_points.class_ * level).line(),
        Contribution(f"Constitution {con:+d} × {level}", "ability", con * level).line(),
    ]
    if per_level < 1:
        hp_lines.append(Contribution("Minimum 1 hit point per level", "base",
                                     (1 - per_level) * level).line())
    drained = active_condition(character, "drained")
    if drained:
        hp_lines.append(Contribution(f"Drained {drained}: {level} × {drained}", "condition",
                                     -level * drained).line())
    hp = HitPoints(max(1, total_of(hp_lines)), tuple(hp_lines), character.hit_points.current,
                   character.hit_points.temporary)

    return Derived(
        system="pf2e",
        abilities=frozen_map(abilities),
        proficiency_bonus=None,
        statistics=frozen_map(stats),
        passive=frozen_map({"perception": 10 + passive_total(stats["perception"],
                                                             fleeting_sources(character))}),
        hit_points=hp,
        carrying=carry,
        speed=_speed(character, carry, effects),
        damage=frozen_map(damage),
    )


def _armor_class(
    character: Pf2eCharacter, dex: int, builder: StatisticBuilder, encumbered: bool,
    clumsy: Contribution,
) -> Statistic:
    armor = character.armor
    name = armor.name or "Armor"
    parts: list[Contribution] = []
    if armor.dex_cap is not None and dex > armor.dex_cap:
        parts.append(Contribution(f"Dexterity (capped at +{armor.dex_cap} by {name})", "ability",
                                  armor.dex_cap))
    else:
        parts.append(Contribution("Dexterity", "ability", dex))
    parts.append(proficiency(armor.rank, character.level))
    if armor.item_bonus:
        parts.append(Contribution(name, "item", armor.item_bonus, name))
    if encumbered:
        parts.append(clumsy)
    return builder.build("ac", "Armor Class", ("ac",), parts, base=10, rollable=False)


def _speed(character: Pf2eCharacter, carry: Carrying, effects: EffectIndex) -> Speed:
    penalties: list[Contribution] = []
    if character.armor.speed_penalty:
        penalties.append(Contribution(character.armor.name or "Armor", "untyped",
                                      -character.armor.speed_penalty))
    if carry.state == "over_capacity":
        return build_speed(character.speed, penalties, effects, stack_pf2e, cap=0,
                           cap_label="Over the Bulk limit (can't carry this)")
    if carry.speed_penalty:
        penalties.append(Contribution("Encumbered", "untyped", -carry.speed_penalty))
    return build_speed(character.speed, penalties, effects, stack_pf2e)
