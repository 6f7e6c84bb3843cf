"""Reading, checking, migrating and writing character files.

Reading never executes anything: the file is bytes → strict JSON → pydantic. Every problem is
reported as ``(path, message)`` so a player (or ``sheet-app validate``) sees all of them at
once, and nothing on disk changes unless a save succeeds completely (atomic replace).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sheet_app import registry
from sheet_app.model import FORMAT, FORMAT_VERSION, CharacterBase, Problems

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 64

Problem = tuple[str, str]



def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 only adds keys (weapons, spellcasting, resources, conditions, dice values);
    what a system changed (d20srd's armor and shield rows) is its own step."""
    return {**registry.get(data["system"]).migrate(data, 1), "version": 2}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}
"""``MIGRATIONS[n]`` turns a version-n document into version n+1."""


class LoadError(Exception):
    """A file could not be read as a character; ``problems`` lists each ``(path, message)``."""

    def __init__(self, problems: list[Problem], source: str = "") -> None:
        self.problems = problems
        self.source = source
        super().__init__("\n".join(format_problem(p) for p in problems))


def format_problem(problem: Problem) -> str:
    path, message = problem
    return f"{path}: {message}" if path else message


def load_character(path: str | os.PathLike[str]) -> CharacterBase:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            too_big = f"{p}: file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}"
            raise LoadError([("", too_big)], str(p))
        with p.open("rb") as handle:  # bounded: a device or pipe reports no size (/dev/zero)
            raw = handle.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            too_big = f"{p}: more than {MAX_FILE_BYTES:,} bytes; not a character file"
            raise LoadError([("", too_big)], str(p))
    except FileNotFoundError:
        raise LoadError([("", f"{p}: no such file")], str(p)) from None
    except IsADirectoryError:
        raise LoadError([("", f"{p}: is a folder, not a character file")], str(p)) from None
    except PermissionError:
        raise LoadError([("", f"{p}: permission denied")], str(p)) from None
    except OSError as exc:
        raise LoadError([("", f"{p}: cannot read ({exc.strerror or exc})")], str(p)) from None
    return parse_character(raw, str(p))


def parse_character(raw: bytes | str, source: str = "") -> CharacterBase:
    return character_from_data(parse_json(raw, source), source)


def parse_json(raw: bytes | str, source: str = "") -> Any:
    where = f"{source}: " if source else ""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LoadError(
                [("", f"{where}not UTF-8 text (bad byte at offset {exc.start})")], source
            ) from None
    else:
        text = raw
    if not text.strip():
        raise LoadError([("", f"{where}the file is empty")], source)
    depth_problem = _nesting_problem(text)
    if depth_problem:
        raise LoadError([("", where + depth_problem)], source)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise LoadError(
            [("", f"{where}not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")],
            source,
        ) from None
    except ValueError as exc:
        raise LoadError([("", f"{where}{exc}")], source) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not valid JSON: {name} is not a number JSON allows")


def _nesting_problem(text: str) -> str | None:
    """Refuse absurd nesting before parsing, so a hostile file can't exhaust the stack."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} levels deep; not a character file"
        elif ch in "]}":
            depth -= 1
    return None


def character_from_data(data: Any, source: str = "") -> CharacterBase:
    if not isinstance(data, dict):
        where = f"{source}: " if source else ""
        raise LoadError([("", f"{where}expected a JSON object, got {_json_kind(data)}")], source)
    problems = _header_problems(data) + _text_problems(data)
    if problems:
        raise LoadError(problems, source)
    data = migrate({k: v for k, v in data.items() if k != "derived"})  # exports carry it
    model = registry.get(data["system"]).model
    try:
        # strict: JSON types must match (no true → 1, "3" → 3, "no" → False); a file names
        # fields only by their keys ("class"), so a "class_" key is an unknown key, kept as is
        return model.model_validate(data, strict=True, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise LoadError(pydantic_problems(exc), source) from None


def _text_problems(data: dict[str, Any]) -> list[Problem]:
    """Strings (and keys) that can't be written back as UTF-8: JSON's ``\\udc80`` escapes
    decode to lone surrogates, which would load fine and then fail on every save or export."""
    problems: list[Problem] = []
    # Iterative (data handed in by a caller has no depth limit), and each path is a link to
    # its parent, spelled out only for a problem: copying paths would be quadratic in depth.
    stack: list[tuple[_Link | None, Any]] = [(None, data)]
    while stack:
        link, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                child = (link, str(key))
                if isinstance(key, str) and not _encodable(key):
                    problems.append((_dotted(_spell(child)), "key is not valid Unicode text "
                                                             "(an unpaired surrogate escape)"))
                stack.append((child, item))
        elif isinstance(value, list):
            stack.extend(((link, str(i)), item) for i, item in enumerate(value))
        elif isinstance(value, str) and not _encodable(value):
            problems.append(
                (_dotted(_spell(link)), "not valid Unicode text (an unpaired surrogate escape)")
            )
    return sorted(problems)


_Link = tuple[Any, str]
"""(parent link or None, key): a path built in constant time per step."""


def _spell(link: _Link | None) -> list[str]:
    parts: list[str] = []
    while link is not None:
        link, key = link
        parts.append(key)
    parts.reverse()
    return parts


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _dotted(parts: Sequence[object]) -> str:
    """A problem's path, one printable line even when a hostile key holds a newline or an
    escape sequence (such parts are shown JSON-quoted)."""
    return ".".join(
        str(part) if str(part).isprintable() and _encodable(str(part))
        else json.dumps(str(part)) for part in parts
    )


def _header_problems(data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    fmt = data.get("format")
    if fmt != FORMAT:
        problems.append(("format", f"expected {FORMAT!r}, got {_short(fmt)}"))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        problems.append(("version", f"expected a whole number, got {_short(version)}"))
    elif version > FORMAT_VERSION:
        problems.append(
            ("version", f"format version {version} is newer than this app reads "
                        f"({FORMAT_VERSION}); update sheet-app to open it")
        )
    elif version < 1:
        problems.append(("version", f"unknown format version {version}"))
    system = data.get("system")
    if not registry.is_known(system):
        known = ", ".join(registry.known_ids())
        problems.append(("system", f"unknown system {_short(system)} (expected one of {known})"))
    return problems


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = data["version"]
    while version < FORMAT_VERSION:
        data = MIGRATIONS[version](data)
        version = data["version"]
    return data


def pydantic_problems(exc: ValidationError) -> list[Problem]:
    """Each error as ``(path, message)``; a system's whole-sheet checks (`Problems`) come
    out as the separate problems they are, each with its own path."""
    problems: list[Problem] = []
    for err in exc.errors(include_url=False):
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, Problems):
            problems.extend(cause.problems)
            continue
        loc = [str(part) for part in err["loc"]]
        message = err["msg"]
        if message.startswith("Value error, "):
            message = message[len("Value error, "):]
        if err["type"] == "extra_forbidden":
            message = "unknown key"
        if err["type"] == "literal_error" or "Input should be" in message:
            message = f"{message} (got {_short(err.get('input'))})"
        problems.append((_dotted(loc), message))
    return problems


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else type(value).__name__


def character_json(character: CharacterBase, *, derived: bool = False) -> dict[str, Any]:
    """The normalised document; with ``derived`` the ``derived`` block of CONTRACT.md."""
    data = character.dump()
    if derived:
        data["derived"] = registry.get(character.system).derive(character).to_json()
    return data


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def save_character(character: CharacterBase, path: str | os.PathLike[str]) -> None:
    write_text_atomic(Path(path), dumps(character_json(character)))


def write_text_atomic(path: Path, text: str) -> None:
    """Write beside the target and rename over it: a failed save leaves the old file whole."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
