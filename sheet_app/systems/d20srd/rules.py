"""d20 SRD 3.5 / d20 Modern core mechanic and its 24 modifier types (seed 003).

Choices from the published SRD where the seed is silent: skills are ranks + key ability +
size (Hide) + the armor check penalty (armor and shield together, or the load's, the worse)
on the skills it names; armor slows a 20 ft or 30 ft creature to the armor's listed speed;
saves are base save + ability; attacks are base attack bonus + Str/Dex + size; carrying uses
the SRD's load table in pounds (push or drag up to 5 × the heavy load); a medium load caps Dex
at +3 with a -3 check penalty, a heavy load +1 and -6, and both cut speed (30 ft → 20 ft).
Sacred and profane bonuses: the player's choice, else the side with the larger single bonus
(sacred on a tie) is kept for the whole character.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from sheet_app.derived import (
    Carrying,
    Damage,
    Derived,
    HitPoints,
    ModifierLine,
    Speed,
    Statistic,
    frozen_map,
)
from sheet_app.facts import ABILITIES, ABILITY_NAMES, signed, skill_label
from sheet_app.model import Weapon
from sheet_app.passive import fleeting_sources, passive_total
from sheet_app.rules.builder import Stacker, StatisticBuilder, build_speed, cut_speed
from sheet_app.rules.common import Contribution, EffectIndex, active_condition, total_of
from sheet_app.rules.scores import die_hit_points, entered_scores, scored_abilities
from sheet_app.rules.weapons import (
    attack_ability,
    attack_keys,
    damage_keys,
    weapon_dice,
    weapon_ids,
)
from sheet_app.systems.d20srd.facts import (
    ARMOR_CHECK_SKILLS,
    CONDITIONS,
    HIDE_SIZE_MODIFIER,
    SAVES,
    SIZE_MODIFIER,
    SKILLS,
)
from sheet_app.systems.d20srd.model import D20Character
from sheet_app.systems.d20srd.stacking import D20Context, stack_d20

ORDINALS = {1: "2nd", 2: "3rd", 3: "4th"}
HEAVY_LOAD_LB = (0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 115, 130, 150, 175, 200, 230, 260,
                 300, 350, 400, 460, 520, 600, 700, 800, 920, 1040, 1200, 1400)
"""Heavy load (lb) for Strength 0-29; each +10 Strength beyond multiplies by 4."""
SIZE_CARRY_FACTOR = {"fine": 0.125, "diminutive": 0.25, "tiny": 0.5, "small": 0.75,
                     "medium": 1.0, "large": 2.0, "huge": 4.0, "gargantuan": 8.0,
                     "colossal": 16.0}
LOAD_LIMITS = {"encumbered": (3, -3), "heavily_encumbered": (1, -6)}
"""Medium and heavy load: (max Dex bonus, check penalty)."""
TOUCH_DROPS = frozenset({"armor", "shield", "natural_armor"})
COMPONENT_TARGETS = {kind: f"ac:{kind}" for kind in TOUCH_DROPS}


def heavy_load(strength: int) -> float:
    extra_tens = 0
    while strength >= len(HEAVY_LOAD_LB):
        strength -= 10
        extra_tens += 1
    return float(HEAVY_LOAD_LB[max(0, strength)] * 4**extra_tens)


def reduced_speed(speed: int) -> int:
    """The SRD's medium/heavy load speed: 20 → 15, 30 → 20, 40 → 30 (each 30 ft → 20 ft)."""
    rest = {0: 0, 5: 5, 10: 10, 15: 10, 20: 15, 25: 20}
    return 20 * (speed // 30) + rest[speed % 30 - speed % 5]


def carrying(character: D20Character, strength: int) -> Carrying:
    factor = SIZE_CARRY_FACTOR[character.size]
    heavy = heavy_load(strength) * factor
    light = float(int(heavy / 3))
    medium = float(int(heavy * 2 / 3))
    carried = round(sum(i.weight * i.quantity for i in character.inventory), 3)
    push = heavy * 5
    slower = character.speed - reduced_speed(character.speed)
    if carried > heavy:
        return Carrying("lb", heavy, push, carried, "over_capacity", character.speed, light,
                        medium, (f"over the heavy load ({heavy:g} lb): can only push or drag",))
    if carried > medium:
        return Carrying("lb", heavy, push, carried, "heavily_encumbered", slower, light, medium,
                        ("heavy load: max Dex +1, check penalty -6", f"speed -{slower} ft"))
    if carried > light:
        return Carrying("lb", heavy, push, carried, "encumbered", slower, light, medium,
                        ("medium load: max Dex +3, check penalty -3", f"speed -{slower} ft"))
    return Carrying("lb", heavy, push, carried, "unencumbered", 0, light, medium)


def sacred_profane_side(character: D20Character) -> tuple[str | None, str]:
    """Which side loses, and why. Only matters when the character has bonuses of both."""
    best = {"sacred": 0, "profane": 0}
    for effect in character.effects:
        if not effect.active:
            continue
        for mod in effect.modifiers:
            value = mod.value if isinstance(mod.value, int) else 0
            if mod.type in best and value > best[mod.type]:
                best[mod.type] = value
    if not (best["sacred"] and best["profane"]):
        return None, ""
    choice = character.options.sacred_profane
    if choice is not None:
        why = "chosen on the sheet"
    else:
        choice = "sacred" if best["sacred"] >= best["profane"] else "profane"
        why = (f"its largest bonus, {signed(best[choice])}, is the larger"
               if best["sacred"] != best["profane"] else "sacred wins a tie")
    loser = "profane" if choice == "sacred" else "sacred"
    return loser, f"can't benefit from both sacred and profane bonuses: {choice} is kept ({why})"


def _contexts(
    loser: str | None, reason: str, has_int: bool, damage: bool = False
) -> tuple[Stacker, Stacker]:
    """The stacking of most statistics, and of those competence can't reach (ability checks
    and initiative; with ``damage``, damage rolls)."""
    base = D20Context(losing_side=loser, losing_reason=reason, has_intelligence=has_int)
    no_competence = D20Context(
        losing_side=loser, losing_reason=reason, has_intelligence=has_int,
        competence_allowed=False,
        competence_reason=("competence modifiers don't apply to damage rolls" if damage else
                           "competence modifiers don't apply to ability checks or initiative"),
    )
    return (lambda items: stack_d20(items, base)), (lambda items: stack_d20(items, no_competence))


def _strength_to_damage(weapon: Weapon, strength: int) -> list[Contribution]:
    """Str to melee and thrown damage; 1½ × a Str bonus (rounded down) two-handed; a Str
    penalty applies in full."""
    if weapon.attack == "ranged" and not weapon.thrown:
        return []
    if weapon.two_handed and strength > 0:
        return [Contribution("Strength × 1½ (two-handed)", "ability", strength * 3 // 2)]
    return [Contribution("Strength", "ability", strength)]


def derive(character: D20Character, variants: Iterable[str] = ()) -> Derived:
    """Every statistic of the sheet (d20srd has no variant statistics)."""
    effects = EffectIndex(character, CONDITIONS)
    loser, loser_reason = sacred_profane_side(character)
    # Morale needs Intelligence, judged after effects: scores are computed once on the
    # entered Int, and again if the effective Int turns out otherwise (drained to 0).
    has_int = character.abilities.int not in (None, 0)
    stack, stack_no_competence = _contexts(loser, loser_reason, has_int)
    stack_damage = _contexts(loser, loser_reason, has_int, damage=True)[1]
    abilities = scored_abilities(entered_scores(character.abilities), effects, stack)
    effective_int = abilities["int"].score not in (None, 0)
    if effective_int != has_int:
        stack, stack_no_competence = _contexts(loser, loser_reason, effective_int)
        stack_damage = _contexts(loser, loser_reason, effective_int, damage=True)[1]
        abilities = scored_abilities(entered_scores(character.abilities), effects, stack)
    base_ctx = D20Context(losing_side=loser, losing_reason=loser_reason,
                          has_intelligence=effective_int)
    carry = carrying(character, abilities["str"].score or 0)
    builder = StatisticBuilder("d20srd", effects, stack)
    build = builder.build
    size = character.size
    armor = character.armor
    load_dex, load_acp = LOAD_LIMITS.get(carry.state, (None, 0))
    if carry.state == "over_capacity":
        load_dex, load_acp = LOAD_LIMITS["heavily_encumbered"]
    worn_acp = armor.check_penalty + character.shield.check_penalty
    check_penalty = min(worn_acp, load_acp)

    def ability(abbr: str) -> Contribution:
        value = abilities[abbr]
        label = ABILITY_NAMES[abbr] + (" (none)" if value.score is None else "")
        return Contribution(label, "ability", value.modifier)

    stats: dict[str, Statistic] = {}
    for abbr in ABILITIES:
        stats[f"ability:{abbr}"] = build(
            f"ability:{abbr}", f"{ABILITY_NAMES[abbr]} check",
            ("check", "ability", f"ability:{abbr}", f"uses:{abbr}"), [ability(abbr)],
            ability=abbr, stacker=stack_no_competence,
        )
    for skill, abbr in SKILLS.items():
        ranks = character.skill_ranks.get(skill, 0)
        parts = [Contribution("Ranks", "ranks", ranks), ability(abbr)]
        if skill == "hide" and HIDE_SIZE_MODIFIER[size]:
            parts.append(Contribution(f"Size ({size})", "size", HIDE_SIZE_MODIFIER[size]))
        if skill in ARMOR_CHECK_SKILLS and check_penalty:
            times = 2 if skill == "swim" else 1
            source = _penalty_source(character) if worn_acp <= load_acp else "load"
            parts.append(Contribution(
                f"Armor check penalty ({source}{', doubled for Swim' if times == 2 else ''})",
                "armor_check", check_penalty * times))
        stats[f"skill:{skill}"] = build(
            f"skill:{skill}", skill_label(skill),
            ("check", "skill", f"skill:{skill}", f"uses:{abbr}"), parts, ability=abbr,
        )
    for save, abbr in SAVES.items():
        stats[f"save:{save}"] = build(
            f"save:{save}", save.capitalize(),
            ("check", "save", f"save:{save}", f"uses:{abbr}"),
            [Contribution("Base save", "base", character.base_saves.get(save, 0)), ability(abbr)],
            ability=abbr,
        )
    stats["initiative"] = build(
        "initiative", "Initiative", ("check", "initiative", "uses:dex"), [ability("dex")],
        ability="dex", stacker=stack_no_competence,
    )
    size_mod = SIZE_MODIFIER[size]
    for kind, abbr in (("melee", "str"), ("ranged", "dex")):
        parts = [Contribution("Base attack bonus", "base", character.base_attack_bonus),
                 ability(abbr)]
        if size_mod:
            parts.append(Contribution(f"Size ({size})", "size", size_mod))
        stats[f"attack:{kind}"] = build(
            f"attack:{kind}", f"{kind.capitalize()} attack",
            ("check", "attack", f"attack:{kind}", f"uses:{abbr}"), parts, ability=abbr,
        )

    bab = character.base_attack_bonus
    iterative = tuple((f"{ORDINALS[n]} attack", -5 * n) for n in range(1, 4) if bab > 5 * n)
    damage: dict[str, Damage] = {}
    for key, weapon in weapon_ids(character.weapons):
        abbr = attack_ability(weapon, abilities)
        parts = [Contribution("Base attack bonus", "base", bab), ability(abbr)]
        if size_mod:
            parts.append(Contribution(f"Size ({size})", "size", size_mod))
        critical = weapon.critical
        stats[f"attack:{key}"] = replace(
            build(f"attack:{key}", weapon.name, attack_keys(weapon, key, abbr), parts,
                  ability=abbr),
            follow_ups=iterative, threat=critical.range if critical else 20, confirm=True)
        damage[f"damage:{key}"] = Damage(
            f"damage:{key}", weapon.name, weapon_dice(weapon),
            stack_damage([*_strength_to_damage(weapon, abilities["str"].modifier),
                          *effects.contributions(damage_keys(weapon, key))]),
            "multiply", critical.multiplier if critical else 2, 1, weapon.damage_type)

    dex_cap = _min_cap(armor.max_dex, load_dex)
    stats.update(_armor_classes(character, abilities["dex"].modifier, dex_cap, effects, base_ctx,
                                builder))

    con = abilities["con"]
    max_hp, hp_lines = die_hit_points(character.hit_points, character.level, con.modifier)
    hp = HitPoints(max_hp, hp_lines, character.hit_points.current, character.hit_points.temporary)
    notes = (loser_reason,) if loser else ()
    fleeting = fleeting_sources(character)  # a passive leaves out what the next roll spends
    return Derived(
        system="d20srd",
        abilities=frozen_map(abilities),
        proficiency_bonus=None,
        statistics=frozen_map(stats),
        passive=frozen_map({
            key: 10 + passive_total(stats[f"skill:{key}"], fleeting) for key in ("listen", "spot")
        }),
        hit_points=hp,
        carrying=carry,
        speed=_speed(character, carry, effects, stack),
        notes=notes,
        damage=frozen_map(damage),
    )


def _min_cap(*caps: int | None) -> int | None:
    present = [c for c in caps if c is not None]
    return min(present) if present else None


def _armor_classes(
    character: D20Character, dex: int, dex_cap: int | None, effects: EffectIndex,
    ctx: D20Context, builder: StatisticBuilder,
) -> dict[str, Statistic]:
    """AC = 10 + armor + shield + Dex + size + natural armor + deflection + dodge + others.

    Armor, shield and natural armor are each one bonus that an enhancement raises (targets
    ``ac:armor``, ``ac:shield``, ``ac:natural_armor``); an effect of the same type (mage
    armor) competes with the whole enhanced bonus. Touch AC drops those three; flat-footed AC
    drops a positive Dex bonus and every dodge bonus, and nothing else: another ability's
    bonus to AC (a monk's Wisdom, an effect of type ``ability``) stays.
    """
    armor = character.armor
    components: list[Contribution] = []
    component_lines: list[ModifierLine] = []
    worn = {"armor": (armor.name or "Armor", armor.bonus),
            "shield": (character.shield.name or "Shield", character.shield.bonus),
            "natural_armor": ("Natural armor", character.natural_armor)}
    for kind, (label, value) in worn.items():
        words = kind.replace("_", " ")
        enh = stack_d20(effects.contributions((COMPONENT_TARGETS[kind],)), ctx)
        # A creature without natural armor has an effective +0 that barkskin can raise; armor
        # or a shield that isn't there has nothing to enhance.
        present = bool(value) or kind == "natural_armor"
        applied = [line for line in enh if line.applied] if present else []
        lost = [
            ModifierLine(f"{line.label} (enhancement to {words})", line.type, line.value, False,
                         line.reason or f"no {words} bonus to enhance", line.source)
            for line in enh if not line.applied or not present
        ]
        component_lines.extend(lost)
        bonus = value + total_of(applied)
        if bonus:
            detail = "".join(f", {signed(line.value)} {line.label}" for line in applied)
            components.append(Contribution(f"{label} ({value}{detail})", kind, bonus))
    dex_line = (Contribution(f"Dexterity (capped at +{dex_cap})", "ability", dex_cap)
                if dex_cap is not None and dex > dex_cap else Contribution("Dexterity", "ability",
                                                                           dex))
    size_mod = SIZE_MODIFIER[character.size]
    parts = [*components, dex_line]
    if size_mod:
        parts.append(Contribution(f"Size ({character.size})", "size", size_mod))
    normal = builder.build("ac", "Armor Class", ("ac",), parts, base=10, rollable=False)
    normal = _with_extra_lines(normal, component_lines)
    touch = _variant(builder, "ac:touch", "Touch AC", parts, component_lines,
                     lambda c: c.type in TOUCH_DROPS,
                     "doesn't apply against touch attacks")
    flat = _variant(builder, "ac:flat_footed", "Flat-footed AC", parts, component_lines,
                    lambda c: c.weight > 0 and (c is dex_line or c.type == "dodge"),
                    "lost while flat-footed (no Dex bonus, no dodge bonuses)")
    return {"ac": normal, "ac:touch": touch, "ac:flat_footed": flat}


def _variant(
    builder: StatisticBuilder, stat_id: str, label: str, parts: list[Contribution],
    component_lines: list[ModifierLine], drops: Callable[[Contribution], bool], why: str,
) -> Statistic:
    keys = ("ac", stat_id)
    candidates = [*parts, *builder.effects.contributions(keys)]
    kept = [c for c in candidates if not drops(c)]
    dropped = [c.line(applied=False, reason=why) for c in candidates if drops(c)]
    stat = builder.build(stat_id, label, (), kept, base=10, rollable=False)
    return _with_extra_lines(stat, [*dropped, *component_lines])


def _with_extra_lines(stat: Statistic, extra: Iterable[ModifierLine]) -> Statistic:
    extra = tuple(extra)
    if not extra:
        return stat
    return Statistic(stat.id, stat.label, stat.total, stat.modifiers + extra, stat.roll_mode,
                     stat.mode_sources, stat.base, stat.ability, stat.rollable, stat.notes)


def _penalty_source(character: D20Character) -> str:
    worn = [name for name, acp in ((character.armor.name or "armor",
                                    character.armor.check_penalty),
                                   (character.shield.name or "shield",
                                    character.shield.check_penalty)) if acp]
    return " and ".join(worn) or "armor"


def armor_speed(character: D20Character) -> int | None:
    """The armor's listed speed for a 20 ft or 30 ft creature; ``None`` when it lists none."""
    listed = {20: character.armor.speed_20, 30: character.armor.speed_30}
    return listed.get(character.speed)


def _speed(character: D20Character, carry: Carrying, effects: EffectIndex,
           stacker: Stacker) -> Speed:
    """The worse of the armor's speed and the load's, then effects; exhausted and
    entangled halve the result."""
    base = character.speed
    if carry.state == "over_capacity":
        return build_speed(base, (), effects, stacker, cap=0,
                           cap_label="Over the heavy load (can only push or drag)")
    penalty = []
    in_armor = armor_speed(character)
    armor_cut = base - in_armor if in_armor is not None and in_armor < base else 0
    if carry.speed_penalty and carry.speed_penalty >= armor_cut:
        label = "Medium load" if carry.state == "encumbered" else "Heavy load"
        penalty.append(Contribution(label, "encumbrance", -carry.speed_penalty))
    elif armor_cut:
        penalty.append(Contribution(character.armor.name or "Armor", "armor", -armor_cut))
    speed = build_speed(base, penalty, effects, stacker)
    for halving in ("exhausted", "entangled"):
        if active_condition(character, halving):
            return cut_speed(speed, f"{halving.capitalize()}: half speed", speed.total // 2)
    return speed
