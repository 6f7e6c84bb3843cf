"""The headless ``sheet-app`` subcommands: new, validate, export, roll, schema, conditions.

Imports no Qt, so these start fast; ``ui.main`` hands them here before touching Qt. Errors are
one clear message each and exit status 2, never a traceback, and no file is changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from sheet_app import cli_roll, registry
from sheet_app.io import (
    LoadError,
    character_json,
    dumps,
    format_problem,
    load_character,
    write_text_atomic,
)
from sheet_app.schema import json_schema
from sheet_app.validation import key_warnings

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """argparse prints usage then exits 2; keep the exit code, say it in one line."""
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")


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
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "new":
            return _new(args)
        if args.command == "validate":
            character = load_character(args.file)
            for path, message in key_warnings(character):
                print(f"warning: {path}: {message}", file=sys.stderr)
            print(f"{args.file}: valid")
            return 0
        if args.command == "export":
            data = character_json(load_character(args.file), derived=args.derived)
            return _emit(dumps(data), args.output)
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
            print(format_problem(problem), file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"sheet-app: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    print("sheet-app: no command given (try --help)", file=sys.stderr)
    return EXIT_USAGE


def _new(args: argparse.Namespace) -> int:
    text = dumps(registry.get(args.system).new_character(args.name).dump())
    if args.output and Path(args.output).exists() and not args.force:
        print(f"sheet-app: {args.output} exists; use --force to overwrite", file=sys.stderr)
        return EXIT_USAGE
    return _emit(text, args.output)


def _emit(text: str, output: str | None) -> int:
    if output:
        try:
            write_text_atomic(Path(output), text)
        except OSError as exc:  # name the file asked for, not the temporary beside it
            print(f"sheet-app: {output}: cannot write ({exc.strerror or exc})", file=sys.stderr)
            return EXIT_USAGE
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
