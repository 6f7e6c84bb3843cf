"""How numbers and breakdowns read on screen. Presentation only: every value comes computed."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import overload

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


NUMBER_PLACES = 4
"""Decimals a shown number keeps (a 0.004 lb weight still reads 0.004)."""


def number(value: float | int | None) -> str:
    """56, 62.5, 0.125, 0.004: up to `NUMBER_PLACES` decimals, no trailing zeros; a value
    too small for that in two significant digits (``4e-05``); ``—`` for a missing value."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    text = f"{value:.{NUMBER_PLACES}f}".rstrip("0").rstrip(".")
    if text in ("0", "-0"):
        return f"{value:.2g}"
    return text


def exact_number(value: float | int) -> str:
    """``value`` in full, as a field to edit shows it (0.125, 0.00001, 40): nothing
    rounded, no exponent, no trailing ``.0``."""
    if float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")


MAX_DIGITS = 9
"""The longest whole number (in digits) a field reads; longer is refused with a message
rather than handed to ``int`` (which refuses over 4,300 digits with a message about
``sys.set_int_max_str_digits``)."""

_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_DECIMAL = re.compile(rf"\+?([0-9]{{0,{MAX_DIGITS}}})(?:[.,]([0-9]{{0,30}}))?")


def parse_whole(text: object) -> int | None:
    """A whole number written with ASCII digits (and a sign, a real minus too), at most
    `MAX_DIGITS` of them; ``None`` for anything else (``²``, ``4.5``, 10,000 digits)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text
    raw = str(text).strip().replace(MINUS, "-")
    return int(raw) if _WHOLE.fullmatch(raw) else None


def parse_decimal(text: object) -> float | None:
    """A number of zero or more (``0.125``, ``0,5``, ``12``) with ASCII digits; ``None``
    for anything else (a sign, an exponent, ``nan``, too many digits)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        return float(text)
    found = _DECIMAL.fullmatch(str(text).strip())
    if found is None or not (found.group(1) or found.group(2)):
        return None
    return float(f"{found.group(1) or 0}.{found.group(2) or 0}")


def brief(text: object, limit: int = 24) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters (a pasted page of digits
    is not echoed back whole)."""
    shown = str(text)
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return f"“{shown}”"


@overload
def plain_tip(text: str) -> str: ...


@overload
def plain_tip(text: str | None) -> str | None: ...


def plain_tip(text: str | None) -> str | None:
    """A tooltip that shows ``text`` as written. Qt renders a tooltip as HTML when it looks
    like HTML, so text holding a name from a file (``<img src=…>``) is escaped into a
    paragraph that keeps its line breaks; other text is left as it is."""
    if text is None or "<" not in text:
        return text
    return f"<p style='white-space:pre'>{html.escape(text)}</p>"


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
    value = html.escape(line_value(line))
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
