"""How numbers and breakdowns read on screen. Presentation only: every value comes computed."""

from __future__ import annotations

import html
from collections.abc import Iterable

from sheet_app import facts
from sheet_app.damage import critical_expression, damage_range
from sheet_app.derived import AbilityValue, Damage, ModifierLine, Statistic
from sheet_app.facts import MINUS as MINUS
from ui.theme import APPLIED_COLOR as APPLIED_COLOR
from ui.theme import PENALTY_COLOR as PENALTY_COLOR
from ui.theme import SUPPRESSED_COLOR as SUPPRESSED_COLOR


def signed(value: int | float) -> str:
    """+2, −1, +0 with a real minus sign (`sheet_app.facts.signed` with `MINUS`)."""
    return facts.signed(value, MINUS)


def number(value: float | int | None) -> str:
    """56, 62.5, 0.1: no trailing ``.0``; ``—`` for a missing value."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def words(identifier: str) -> str:
    """``natural_armor`` → ``natural armor``; ``heavily_encumbered`` → ``heavily encumbered``."""
    return identifier.replace("_", " ")


def sentence(text: str) -> str:
    """First letter up, the rest untouched (``str.capitalize`` would lower "Hex" to "hex")."""
    return text[:1].upper() + text[1:]


def stat_text(stat: Statistic | None) -> str:
    """What a statistic shows on the sheet: the modifier of a check, the total of AC."""
    if stat is None:
        return "—"
    return signed(stat.modifier) if stat.rollable else str(stat.total)


def line_value(line: ModifierLine) -> str:
    """A modifier's value as shown: ``+2``, ``−1``, or its dice (``+1d4``)."""
    if line.dice:
        return line.dice.replace("-", MINUS)
    return signed(line.value)


def line_html(line: ModifierLine) -> str:
    label = html.escape(line.label)
    kind = html.escape(words(line.type))
    value = line_value(line)
    if line.applied:
        return (f"<tr><td>{label}</td><td><i>{kind}</i></td>"
                f"<td align='right'><b>{value}</b></td></tr>")
    reason = html.escape(line.reason or "suppressed")
    return (
        f"<tr style='color:{SUPPRESSED_COLOR}'><td><s>{label}</s></td><td><i>{kind}</i></td>"
        f"<td align='right'><s>{value}</s></td></tr>"
        f"<tr style='color:{SUPPRESSED_COLOR}'><td colspan='3'>&nbsp;&nbsp;↳ {reason}</td></tr>"
    )


MAX_TIP_LINES = 24
"""A tooltip lists at most this many modifiers; the roll panel lists them all."""


def breakdown_html(
    title: str,
    total: str,
    lines: Iterable[ModifierLine],
    *,
    base: int = 0,
    footer: Iterable[str] = (),
) -> str:
    """A tooltip: the number, then every modifier, suppressed ones struck with their reason."""
    rows = []
    if base:
        rows.append(f"<tr><td>Base</td><td></td><td align='right'><b>{base}</b></td></tr>")
    shown = 0
    hidden = 0
    for line in lines:
        if shown < MAX_TIP_LINES:
            rows.append(line_html(line))
            shown += 1
        else:
            hidden += 1
    if hidden:
        rows.append(f"<tr><td colspan='3'><i>… and {hidden} more: click for the roll panel"
                    "</i></td></tr>")
    notes = "".join(f"<div><i>{html.escape(n)}</i></div>" for n in footer if n)
    body = "".join(rows) or "<tr><td><i>no modifiers</i></td></tr>"
    return (
        f"<div style='white-space:pre'><b>{html.escape(title)}</b>&nbsp;&nbsp;"
        f"<span style='font-size:large'><b>{html.escape(total)}</b></span></div>"
        f"<table cellspacing='0' cellpadding='2'>{body}</table>{notes}"
    )


def statistic_html(stat: Statistic) -> str:
    footer = list(stat.notes)
    if stat.roll_mode != "normal":
        sources = ", ".join(s.label for s in stat.mode_sources if s.mode == stat.roll_mode)
        footer.append(f"Rolled with {stat.roll_mode}" + (f" ({sources})" if sources else ""))
    if stat.rollable:
        footer.append(f"DC against it: {stat.dc}. Click to inspect, the die to roll.")
    return breakdown_html(stat.label, stat_text(stat), stat.modifiers, base=stat.base,
                          footer=footer)


def ability_html(ability: AbilityValue, kind: str) -> str:
    """An ability's breakdown; ``kind`` is the system's `Facts.ability_kind` (``score`` when
    scores are entered and modifiers derived, ``modifier`` when modifiers are entered)."""
    if ability.score is None:
        return breakdown_html(ability.label, "—", (), footer=("This creature lacks the ability.",))
    if kind == "modifier":
        return breakdown_html(f"{ability.label} modifier", signed(ability.modifier),
                              ability.breakdown)
    footer = [f"Modifier {signed(ability.modifier)} = floor(({ability.score} − 10) / 2)"]
    return breakdown_html(f"{ability.label} score", str(ability.score), ability.breakdown,
                          footer=footer)


# --- weapons --------------------------------------------------------------------------------


def span(low: int, high: int) -> str:
    """``4–11``; a single number when both ends meet."""
    return str(low) if low == high else f"{low}–{high}"


def damage_text(damage: Damage) -> str:
    """A weapon's damage on the sheet: ``1d8+3 (4–11) slashing``."""
    typed = f" {damage.damage_type}" if damage.damage_type else ""
    return f"{damage.expression} ({span(*damage_range(damage))}){typed}"


def critical_text(stat: Statistic | None, damage: Damage | None) -> str:
    """The critical range and multiplier where they are not the plain 20 and the system's
    one rule: ``19–20/×2``, ``×3``; empty otherwise."""
    parts = []
    if stat is not None and stat.threat is not None and stat.threat < 20:
        parts.append(f"{stat.threat}–20")
    if damage is not None and damage.critical == "multiply" and (parts or damage.multiplier != 2):
        parts.append(f"×{damage.multiplier}")
    return "/".join(parts)


def damage_html(damage: Damage) -> str:
    """A weapon damage's tooltip: its dice and modifiers, its range and its critical."""
    low, high = damage_range(damage, critical=True)
    footer = [f"Range {span(*damage_range(damage))}",
              f"Critical: {critical_expression(damage)} ({span(low, high)})"]
    if damage.minimum:
        footer.append(f"At least {damage.minimum} per hit.")
    footer.append("Click to roll damage; right-click for critical damage.")
    return breakdown_html(f"{damage.label} damage", damage.expression,
                          (ModifierLine("Weapon dice", "dice", 0, dice=damage.dice),
                           *damage.modifiers), footer=footer)


def follow_up_text(stat: Statistic, penalty: int) -> str:
    """A later attack's total on the sheet: the attack's modifier with the penalty."""
    return signed(stat.modifier + penalty)
