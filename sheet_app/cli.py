"""The headless ``sheet-app`` subcommands: new, validate, export, roll, schema, conditions.

Imports no Qt, so these start fast; ``ui.main`` hands them here before touching Qt. Errors are
one clear message each and exit status 2, never a traceback, and no file is changed; Ctrl-C
exits 130 with one line. Only regular files are read (a named pipe is refused at once), and
``-o`` writes through `sheet_app.io.write_text_atomic`, which refuses to replace a device.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from sheet_app import cli_roll, registry
from sheet_app.io import (
    SHORT,
    LoadError,
    Problem,
    SaveRefused,
    character_json,
    dumps,
    format_problem,
    load_character,
    shorten,
    write_text_atomic,
)
from sheet_app.schema import json_schema
from sheet_app.validation import key_warnings

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """argparse prints usage then exits 2; keep the exit code, say it in one line (a
        long value it quotes cut short)."""
        message = _QUOTED.sub(lambda m: repr(shorten(m.group(1))), message)
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """As argparse's, without swallowing a failed write (``--help > /dev/full``)."""
        if message:
            (file or sys.stderr).write(message)


_QUOTED = re.compile(rf"'([^']{{{SHORT + 1},}})'")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sheet-app",
        description="A d20 character sheet. With no command (or a FILE), opens the window.",
    )
    parser.add_argument("--version", action="version", version="sheet-app 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p_new = sub.add_parser("new", help="write a blank valid character")
    p_new.add_argument("--system", required=True, choices=registry.known_ids())
    p_new.add_argument("--name", default="")
    p_new.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p_new.add_argument("--force", action="store_true", help="overwrite an existing FILE")

    p_val = sub.add_parser("validate", help="check a file: exit 0 if valid, else 2")
    p_val.add_argument("file")

    p_exp = sub.add_parser("export", help="print the normalised character")
    p_exp.add_argument("file")
    p_exp.add_argument("--derived", action="store_true", help="add every computed value")
    p_exp.add_argument("-o", "--output", metavar="OUT")

    sub.add_parser("schema", help="print the JSON Schema of the file format")

    p_cond = sub.add_parser("conditions", help="print a system's conditions as JSON")
    p_cond.add_argument("--system", required=True, choices=registry.known_ids())

    cli_roll.add_parser(sub)  # type: ignore[arg-type]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; 0 on success, 2 on any error (one line each, never a traceback),
    130 when interrupted (Ctrl-C)."""
    try:
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # a full disk is reported here, not ignored at exit
    except KeyboardInterrupt:
        _say("sheet-app: interrupted")
        return EXIT_INTERRUPTED
    except OSError as exc:  # only writing the output gets here (files are handled in _run)
        _quiet_stdout()
        if isinstance(exc, BrokenPipeError):  # the reader left (| head): nothing to say
            return EXIT_USAGE
        _say(f"sheet-app: cannot write to standard output: {exc.strerror or exc}")
        return EXIT_USAGE


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "new":
            return _new(args)
        if args.command == "validate":
            notes: list[Problem] = []
            character = load_character(args.file, notes=notes)
            for problem in [*notes, *_typo_warnings(character)]:
                _say(f"warning: {format_problem(problem)}")
            print(f"{args.file}: valid")
            return 0
        if args.command == "export":
            notes = []
            character = load_character(args.file, notes=notes)
            for problem in notes:
                _say(f"warning: {format_problem(problem)}")
            return _emit(dumps(character_json(character, derived=args.derived)), args.output)
        if args.command == "schema":
            print(json.dumps(json_schema(), indent=2))
            return 0
        if args.command == "conditions":
            facts = registry.get(args.system).facts
            print(json.dumps([c.to_json() for c in facts.conditions.values()], indent=2,
                             ensure_ascii=False))
            return 0
        if args.command == "roll":
            return cli_roll.run(args)
    except LoadError as exc:
        for problem in exc.problems:
            _say(format_problem(problem))
        return EXIT_USAGE
    except OSError as exc:
        if exc.filename is None:
            raise  # standard output: see main
        _say(f"sheet-app: {exc.filename}: {exc.strerror or exc}")
        return EXIT_USAGE
    _say("sheet-app: no command given (try --help)")
    return EXIT_USAGE


TYPO_CHECK_UP_TO = 1_000
"""Unknown keys looked at for misspellings; a file with more gets one line instead (the
look-up costs tens of microseconds a key: a million keys would take half a minute)."""


def _typo_warnings(character: BaseModel) -> list[Problem]:
    unknown = 0
    stack: list[Any] = [character]
    while stack:
        value = stack.pop()
        if isinstance(value, BaseModel):
            unknown += len(value.model_extra or {})
            stack.extend(getattr(value, name) for name in type(value).model_fields)
        elif isinstance(value, list):
            stack.extend(item for item in value if isinstance(item, BaseModel | list))
    if unknown > TYPO_CHECK_UP_TO:
        return [("", f"{unknown:,} unknown keys, kept as is (too many to check for "
                     "misspellings)")]
    return key_warnings(character)


def _new(args: argparse.Namespace) -> int:
    text = dumps(registry.get(args.system).new_character(args.name).dump())
    if args.output and os.path.lexists(args.output) and not args.force:
        _say(f"sheet-app: {args.output} exists; use --force to overwrite")
        return EXIT_USAGE
    return _emit(text, args.output)


def _emit(text: str, output: str | None) -> int:
    if output:
        try:
            write_text_atomic(output, text)
        except SaveRefused as exc:
            _say(f"sheet-app: {output}: {exc.strerror}")
            return EXIT_USAGE
        except OSError as exc:  # name the file asked for, not the temporary beside it
            _say(f"sheet-app: {output}: cannot write ({exc.strerror or exc})")
            return EXIT_USAGE
    else:
        sys.stdout.write(text)
    return 0


def _say(line: str) -> None:
    """One line on stderr; a stderr that can't be written to loses it, quietly."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr)


def _quiet_stdout() -> None:
    """Point standard output at the null device, so the text still buffered for a stdout
    that failed is not written (and failed) once more at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


if __name__ == "__main__":
    raise SystemExit(main())
