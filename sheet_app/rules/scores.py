"""Ability scores after ``score:`` modifiers, and hit points from a hit die (shared by the
systems that have scores and hit dice)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sheet_app.derived import AbilityValue, ModifierLine
from sheet_app.facts import ABILITIES, ABILITY_NAMES, signed
from sheet_app.model import DieHitPoints
from sheet_app.rules.common import Contribution, EffectIndex, ability_modifier, total_of

INHERENT_CAP = 5


def scored_abilities(
    scores: dict[str, int | None],
    effects: EffectIndex,
    stacker: Callable[[Sequence[Contribution]], tuple[ModifierLine, ...]],
    *,
    cap_inherent: bool = False,
    max_score: int | None = None,
) -> dict[str, AbilityValue]:
    """Each ability's score = entered score + stacked ``score:<abbr>`` modifiers, never
    below 0 nor above ``max_score`` (5e-style: 30); a line shows any part lost to the limit.

    With ``cap_inherent`` (d20srd) an inherent bonus above +5 counts as +5 and says so.
    A missing score (``None``: a creature without that ability) stays missing, modifier 0.
    """
    out: dict[str, AbilityValue] = {}
    for abbr in ABILITIES:
        base = scores[abbr]
        label = ABILITY_NAMES[abbr]
        if base is None:
            out[abbr] = AbilityValue(abbr, label, None, None, 0)
            continue
        found = effects.contributions((f"score:{abbr}",))
        if cap_inherent:
            found = [cap_inherent_bonus(c) for c in found]
        lines = stacker([Contribution("Entered score", "base", base), *found])
        raw = total_of(lines)
        score = max(0, raw if max_score is None else min(max_score, raw))
        if score != raw:
            limit = f"at most {max_score}" if raw > score else "at least 0"
            lines = (*lines, Contribution(f"A score is {limit}", "cap", score - raw).line())
        out[abbr] = AbilityValue(abbr, label, base, score, ability_modifier(score), lines)
    return out


def entered_scores(abilities: object) -> dict[str, int | None]:
    """The six scores only: a file's unknown keys under ``abilities`` are kept, not rolled."""
    return {abbr: getattr(abilities, abbr) for abbr in ABILITIES}


def cap_inherent_bonus(c: Contribution) -> Contribution:
    """An inherent bonus counts at most +5 "for a single ability score or other value"."""
    if c.type != "inherent" or c.value <= INHERENT_CAP:
        return c
    label = f"{c.label} ({signed(c.value)}, capped at +{INHERENT_CAP})"
    return Contribution(label, c.type, INHERENT_CAP, c.source, c.order)


def die_hit_points(
    hp: DieHitPoints, level: int, con_mod: int, con_label: str = "Constitution"
) -> tuple[int, tuple[ModifierLine, ...]]:
    """Hit die maximum at level 1, then each later level's roll (or the average ``die/2 + 1``
    where none was entered), each level plus the Con modifier and at least 1.

    The Con modifier applies to every level as if it had always been the current one, so a
    change of modifier moves max HP by (change × level), unless a level sits at the minimum.
    """
    die = hp.hit_die
    average = die // 2 + 1
    per_level = [die] + [
        hp.level_rolls[i] if i < len(hp.level_rolls) else average for i in range(level - 1)
    ]
    lines = [Contribution(f"Level 1: hit die maximum (d{die})", "base", die).line()]
    rolled = per_level[1:len(hp.level_rolls) + 1]
    averaged = per_level[len(hp.level_rolls) + 1:]
    if rolled:
        lines.append(
            Contribution(
                f"Levels 2-{len(rolled) + 1}: rolled {', '.join(map(str, rolled))}",
                "base",
                sum(rolled),
            ).line()
        )
    if averaged:
        first = len(rolled) + 2
        span = f"Level {first}" if len(averaged) == 1 else f"Levels {first}-{level}"
        lines.append(
            Contribution(
                f"{span}: average {average} × {len(averaged)}", "base", sum(averaged)
            ).line()
        )
    lines.append(
        Contribution(f"{con_label} {con_mod:+d} × {level}", "ability", con_mod * level).line()
    )
    floor_gain = sum(max(0, 1 - (roll + con_mod)) for roll in per_level)
    if floor_gain:
        lines.append(
            Contribution("Minimum 1 hit point per level", "base", floor_gain).line()
        )
    total = total_of(lines)
    return total, tuple(lines)
