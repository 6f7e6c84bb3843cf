"""``sheet-app roll FILE STAT [--dc N] [--mode MODE] [--seed N] [--json]`` (CONTRACT.md).

Kept apart from ``sheet_app.cli`` so the main command line only wires it in with `add_parser`
and `run`. Every failure a user can cause (a bad file, an unknown statistic, a mode the system
lacks) prints one message to stderr and returns 2; none shows a traceback.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from sheet_app.checks import ROLL_MODES, ModeError, format_chance
from sheet_app.derived import Derived, ModifierLine, Statistic
from sheet_app.dice import DiceError
from sheet_app.rolls import (
    BonusDie,
    CheckRoll,
    NotRollableError,
    roll_statistic,
    statistic_odds,
)

__all__ = ["add_parser", "run"]

EXIT_USAGE = 2
PROG = "sheet-app roll"


class _Failure(Exception):
    """A user-caused problem; its message is printed as is."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``roll`` on the main command line's subparsers."""
    parser = subparsers.add_parser(
        "roll",
        help="roll a statistic of a character",
        description="Roll d20 + a statistic's total modifier, with the sheet's own roll modes "
        "combined with --mode, and show the breakdown.",
    )
    parser.add_argument("file", metavar="FILE", help="a character file")
    parser.add_argument("stat", metavar="STAT", help="a statistic id, e.g. skill:stealth")
    parser.add_argument("--dc", type=int, help="judge the roll against this DC and show the odds")
    parser.add_argument(
        "--mode",
        choices=ROLL_MODES,
        default="normal",
        help="ask for a roll mode (the system's own words); the sheet's modes still apply",
    )
    parser.add_argument("--seed", type=int, help="seed the dice so the roll can be repeated")
    parser.add_argument("--critical", action="store_true",
                        help="with damage:<weapon>, roll a critical hit by the system's rule")
    parser.add_argument("--json", action="store_true", help="print the roll as JSON")


def run(args: argparse.Namespace) -> int:
    """Roll ``args.stat`` of the character in ``args.file``; 0 on success, 2 on a user error."""
    try:
        derived = _load_derived(Path(args.file), args.stat)
        if args.stat.strip().lower().startswith("damage:"):
            return _roll_damage(derived, args)
        if args.critical:
            raise _Failure("--critical goes with a damage roll (damage:<weapon>)")
        stat = _find_statistic(derived, args.stat, args.file)
        result = roll_statistic(
            stat, derived.system, random.Random(args.seed), mode=args.mode, dc=args.dc
        )
        odds = None if args.dc is None else statistic_odds(stat, derived.system, args.dc, args.mode)
    except (_Failure, ModeError, NotRollableError, DiceError) as exc:
        _emit(f"{PROG}: {exc}", sys.stderr)
        return EXIT_USAGE
    if args.json:
        payload: dict[str, Any] = result.to_json()
        if odds is not None:
            payload["odds"] = odds.to_json()
        _emit(json.dumps(payload, indent=2), sys.stdout)
    else:
        lines = [result.summary(), *_breakdown(result)]
        if odds is not None:
            chances = (
                f"{format_chance(p)} {o.replace('_', ' ')}" for o, p in odds.probabilities.items()
            )
            lines.append(f"  odds: {', '.join(chances)}")
        _emit("\n".join(lines), sys.stdout)
    return 0


def _load_derived(path: Path, wanted: str = "") -> Derived:
    # Imported here, not at the top: `sheet-app roll --help` should not load the rules engine.
    from sheet_app.io import LoadError, format_problem, load_character
    from sheet_app.rules import derive

    try:
        character = load_character(path)
    except LoadError as exc:
        lines = [format_problem(problem) for problem in exc.problems] or [str(exc)]
        if len(exc.problems) == 1 and not exc.problems[0][0]:
            raise _Failure(lines[0]) from None  # a file-level problem names the file already
        raise _Failure("\n".join([f"cannot load {path}:", *(f"  {x}" for x in lines)])) from None
    except OSError as exc:
        raise _Failure(f"cannot read {path}: {exc.strerror or exc}") from None
    return derive(character, variants=(wanted.strip().lower(),))


def _roll_damage(derived: Derived, args: argparse.Namespace) -> int:
    from sheet_app.damage import roll_damage

    key = args.stat.strip().lower()
    damage = derived.damage.get(key)
    if damage is None:
        known = ", ".join(sorted(derived.damage)) or "none (the sheet has no weapons)"
        close = difflib.get_close_matches(key, list(derived.damage), n=2)
        hint = f"; did you mean {' or '.join(close)}?" if close else f"; weapons: {known}"
        raise _Failure(f"{args.file} has no {_quoted(key)}{hint}")
    if args.dc is not None or args.mode != "normal":
        raise _Failure("--dc and --mode go with checks, not damage rolls")
    result = roll_damage(damage, random.Random(args.seed), critical=args.critical)
    if args.json:
        _emit(json.dumps(result.to_json(), indent=2), sys.stdout)
    else:
        width = max((len(line.label) for line in result.modifiers), default=0)
        column = max([3, *(len(line.dice) for line in result.modifiers if line.dice)])
        lines = [result.summary(),
                 *(_check_line(line, width, column, None) for line in result.modifiers)]
        _emit("\n".join(lines), sys.stdout)
    return 0


def _find_statistic(derived: Derived, wanted: str, file: str) -> Statistic:
    if wanted in derived.statistics:
        return derived.statistics[wanted]
    ids = sorted(derived.statistics)
    key = wanted.strip().lower()
    if key in derived.statistics:  # "Skill:Stealth"
        return derived.statistics[key]
    # "stealth" means skill:stealth; a typo means its nearest spellings.
    suggestions = [i for i in ids if i.rsplit(":", 1)[-1] == key]
    suggestions += [i for i in difflib.get_close_matches(key, ids, n=3) if i not in suggestions]
    message = f"{file} has no statistic {_quoted(wanted)}"
    from sheet_app import registry

    rules = registry.get(derived.system)
    hint = rules.suggest(key) or rules.suggest(f"skill:{key}")
    if hint:
        raise _Failure(f"{message}: {hint}")
    if suggestions:
        raise _Failure(f"{message}; did you mean {' or '.join(suggestions)}?")
    rollable = [i for i in ids if derived.statistics[i].rollable]
    raise _Failure(f"{message}; valid ids: {', '.join(rollable)}")


def _quoted(text: str) -> str:
    """A statistic id as typed, quoted, and cut short if it is long (a message stays one
    readable line whatever was typed)."""
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _breakdown(result: CheckRoll) -> list[str]:
    """Indented lines under the summary: each modifier (a dice-valued one with its dice and
    what they rolled), then why the roll had its mode."""
    width = max((len(line.label) for line in result.modifiers), default=0)
    column = max([3, *(len(line.dice) for line in result.modifiers if line.dice)])
    rolled = iter(result.bonus)  # the applied dice lines, rolled in breakdown order
    lines = []
    for line in result.modifiers:
        bonus = next(rolled, None) if line.dice and line.applied else None
        lines.append(_check_line(line, width, column, bonus))
    if explanation := result.resolved.explain():
        lines.append(f"  mode: {explanation}")
    return lines


def _check_line(line: ModifierLine, width: int, column: int, bonus: BonusDie | None) -> str:
    """A check's breakdown line: a dice-valued bonus shows its dice (``+1d4``) and, when
    applied, what it rolled; the value column widens to fit them."""
    if not line.dice:
        return _modifier_line(line, width, column)
    text = f"  {line.dice:>{column}}  {line.label:<{width}}  {line.type}"
    if bonus is not None:
        faces = ", ".join(map(str, bonus.faces))
        text += f" — rolled {bonus.value:+d}" + (f" ({faces})" if len(bonus.faces) > 1 else "")
    if not line.applied:
        text += f" — not applied: {line.reason}" if line.reason else " — not applied"
    return text


def _modifier_line(line: ModifierLine, width: int, column: int = 3) -> str:
    text = f"  {line.value:+{column}d}  {line.label:<{width}}  {line.type}"
    if not line.applied:
        text += f" — not applied: {line.reason}" if line.reason else " — not applied"
    return text


_ASCII = str.maketrans({"→": "->", "—": "--"})


def _emit(text: str, stream: TextIO) -> None:
    """Print without ever failing on a console that cannot show → or — (a Windows pipe)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.translate(_ASCII).encode("ascii", "replace").decode("ascii")
    print(text, file=stream)
