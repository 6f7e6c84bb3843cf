"""Reading, checking, migrating and writing character files.

Reading never executes anything: the file is bytes → strict JSON → pydantic. Every problem is
reported as ``(path, message)`` so a player (or ``sheet-app validate``) sees all of them at
once, and nothing on disk changes unless a save succeeds completely (atomic replace).

Only regular files are read: a named pipe, a device or a socket is refused at once, before it
is opened (and it is opened without blocking besides), so nothing can hang a load. Every check
is linear in the size of the file, and the work is bounded by element count as well as by
bytes: at most `MAX_FILE_BYTES` bytes, `MAX_VALUES` JSON values (keys included), `MAX_DEPTH`
levels of nesting, `MAX_STRING_CHARS` characters in a string and `MAX_NUMBER_CHARS` in a
number. What the app writes is held to the same limits, so it never writes a file it would
refuse to read.

Every save goes through `write_text_atomic`: a temporary file beside the target, fsynced and
renamed over it (the folder fsynced after), the target's permission bits kept, symlinks written
through to their target, anything but a regular file refused, an optional ``NAME.bak`` of the
previous version, and stale temporaries of earlier, interrupted saves cleaned up.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import math
import os
import random
import re
import shutil
import stat
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from annotated_types import MaxLen
from pydantic import ValidationError

from sheet_app import registry
from sheet_app.model import FORMAT, FORMAT_VERSION, CharacterBase, Problems

MAX_FILE_BYTES = 20 * 1024 * 1024
"""The largest character file read or written."""
MAX_DEPTH = 64
"""The deepest nesting of arrays and objects."""
MAX_VALUES = 2_000_000
"""The most JSON values in one file, object keys included."""
MAX_STRING_CHARS = 1_000_000
"""The longest string (or object key), in characters."""
MAX_NUMBER_CHARS = 100
"""The longest number as written, in characters (digits, sign, point and exponent)."""
MAX_PROBLEMS = 100
"""The most problems one load lists; the rest are counted in a last line."""

SHORT = 40
"""How much of a long value or name a message shows."""

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


class SaveRefused(OSError):
    """A save that was not attempted, because it would replace something that is not a
    regular file or write a file the app would then refuse to read. An `OSError`, so every
    caller that reports a failed save reports this one too; ``strerror`` is the message."""

    def __init__(self, message: str, filename: str = "") -> None:
        super().__init__(errno.EINVAL, message, filename or None)

    def __str__(self) -> str:
        return str(self.strerror)


def format_problem(problem: Problem) -> str:
    path, message = problem
    return f"{path}: {message}" if path else message


def shorten(text: str, limit: int = SHORT) -> str:
    """``text`` cut to its first ``limit`` characters and "…" when it is longer."""
    return text if len(text) <= limit else text[:limit] + "…"


# --- reading a file ------------------------------------------------------------------------

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def load_character(
    path: str | os.PathLike[str], *, notes: list[Problem] | None = None
) -> CharacterBase:
    """The character in the file at ``path``; raises `LoadError`. ``notes``, when given,
    receives what was loaded differently from the file (see `character_from_data`)."""
    p = Path(path)
    return parse_character(read_bytes(p), str(p), notes=notes)


def read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most `MAX_FILE_BYTES`; raises `LoadError`.

    Anything else (a folder, a named pipe, a device, a socket) is refused from its `os.stat`
    before it is opened, so a pipe can't hang the app; it is opened without blocking anyway,
    and checked again once open, in case it was swapped in the meantime."""
    def refuse(message: str) -> LoadError:
        return LoadError([("", f"{path}: {message}")], str(path))

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise refuse(_not_a_file(info.st_mode))
        if info.st_size > MAX_FILE_BYTES:
            raise refuse(f"file is {info.st_size:,} bytes; the limit is {MAX_FILE_BYTES:,}")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
            | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise refuse(_not_a_file(mode))
            raw = handle.read(MAX_FILE_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):
        raise refuse("no such file") from None
    except IsADirectoryError:
        raise refuse(_not_a_file(stat.S_IFDIR)) from None
    except PermissionError:
        raise refuse("permission denied") from None
    except OSError as exc:
        raise refuse(f"cannot read ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE_BYTES:  # it grew while being read
        raise refuse(f"more than {MAX_FILE_BYTES:,} bytes; not a character file")
    return raw


def _not_a_file(mode: int) -> str:
    kind = _kind(mode)
    return f"is {kind}, not a character file" if kind != "not a regular file" \
        else "not a regular file, so not a character file"


# --- parsing -------------------------------------------------------------------------------


def parse_character(
    raw: bytes | str, source: str = "", *, notes: list[Problem] | None = None
) -> CharacterBase:
    text = _text_of(raw, source)
    data = _loads(text, source)
    # A lone surrogate can only come from a \\udXXX escape (the bytes were strict UTF-8), so
    # without one in the text, no string needs encoding to find out.
    unicode = isinstance(raw, str) or _SURROGATE_ESCAPE.search(text) is not None
    return character_from_data(data, source, notes=notes, _unicode=unicode)


def parse_json(raw: bytes | str, source: str = "") -> Any:
    """Strict JSON within the limits above; raises `LoadError`."""
    return _loads(_text_of(raw, source), source)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _text_of(raw: bytes | str, source: str) -> str:
    where = f"{source}: " if source else ""
    if isinstance(raw, str):
        return raw
    if len(raw) > MAX_FILE_BYTES:
        raise LoadError([("", f"{where}{len(raw):,} bytes; the limit is {MAX_FILE_BYTES:,}")],
                        source)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(
            [("", f"{where}not UTF-8 text (bad byte at offset {exc.start})")], source
        ) from None


def _loads(text: str, source: str) -> Any:
    where = f"{source}: " if source else ""
    if not text.strip():
        raise LoadError([("", f"{where}the file is empty")], source)
    problem = structure_problem(text)
    if problem:
        end = "; not a character file" if problem.startswith(("more", "nested")) else ""
        raise LoadError([("", f"{where}{problem}{end}")], source)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise LoadError(
            [("", f"{where}not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")],
            source,
        ) from None
    except (ValueError, RecursionError) as exc:
        raise LoadError([("", f"{where}{exc}")], source) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not valid JSON: {name} is not a number JSON allows")


_IN_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_LONG_NUMBER = re.compile(rf"-?[0-9][-+0-9.eE]{{{MAX_NUMBER_CHARS},}}")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def structure_problem(text: str) -> str | None:
    """Why JSON ``text`` is beyond the limits (too many values, too deep, a number too long),
    or None. Linear, and all of it in C-speed string operations, so even a hostile file of
    the largest size is answered in well under a second, before anything is parsed."""
    # Escapes first (an escaped backslash, then an escaped quote, in reading order), so every
    # quote left opens or closes a string; then every string becomes "".
    plain = text.replace("\\\\", "__").replace('\\"', "__")
    skeleton = _IN_STRING.sub('""', plain)
    values = 1 + sum(skeleton.count(c) for c in ",:[{")
    if values > MAX_VALUES:
        return f"more than {MAX_VALUES:,} values"
    number = _LONG_NUMBER.search(skeleton)
    if number:
        line = skeleton.count("\n", 0, number.start()) + 1
        digits = sum(c.isdigit() for c in number.group())
        return (f"line {line}: a number with {digits:,} digits; numbers in a character file "
                f"have at most {MAX_NUMBER_CHARS}")
    if skeleton.count("]") + skeleton.count("}") > MAX_VALUES:
        return "not valid JSON: more closing brackets than opening ones"
    brackets = _NOT_BRACKET.sub("", skeleton)
    if brackets and max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets))) \
            > MAX_DEPTH:
        return f"nested more than {MAX_DEPTH} levels deep"
    return None


# --- checking the data ---------------------------------------------------------------------


def character_from_data(
    data: Any,
    source: str = "",
    *,
    notes: list[Problem] | None = None,
    _unicode: bool = True,
) -> CharacterBase:
    """The character of a parsed document; raises `LoadError`.

    A roll log longer than the sheet keeps is loaded as its newest entries; ``notes``, when
    given, receives a ``(path, message)`` saying so (nothing is dropped silently)."""
    where = f"{source}: " if source else ""
    if not isinstance(data, dict):
        raise LoadError([("", f"{where}expected a JSON object, got {_json_kind(data)}")], source)
    problems = _header_problems(data)
    problems += value_problems(data, unicode=_unicode, where=where)
    if problems:
        raise LoadError(_capped(problems, where), source)
    try:
        data = migrate({k: v for k, v in data.items() if k != "derived"})  # exports carry it
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise LoadError([("", f"{where}cannot update this version-{data.get('version')} file "
                              f"({shorten(str(exc), 80)})")], source) from None
    model = registry.get(data["system"]).model
    data = _keep_newest_rolls(data, model, notes)
    try:
        # strict: JSON types must match (no true → 1, "3" → 3, "no" → False); a file names
        # fields only by their keys ("class"), so a "class_" key is an unknown key, kept as is
        return model.model_validate(data, strict=True, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise LoadError(_capped(pydantic_problems(exc), where), source) from None


def roll_log_limit(model: type[CharacterBase] = CharacterBase) -> int:
    """How many rolls a sheet keeps (the roll log's ``max_length``)."""
    info = model.model_fields["roll_log"]
    return min((m.max_length for m in info.metadata if isinstance(m, MaxLen)), default=1_000)


def _keep_newest_rolls(data: dict[str, Any], model: type[CharacterBase],
                       notes: list[Problem] | None) -> dict[str, Any]:
    log = data.get("roll_log")
    limit = roll_log_limit(model)
    if not isinstance(log, list) or len(log) <= limit:
        return data
    if notes is not None:
        notes.append(("roll_log", f"the file holds {len(log):,} rolls and a sheet keeps the "
                                  f"newest {limit}: the {len(log) - limit:,} oldest are left "
                                  "out, and leave the file when it is saved"))
    return {**data, "roll_log": log[-limit:]}


def _capped(problems: list[Problem], where: str) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    more = len(problems) - MAX_PROBLEMS
    return [*problems[:MAX_PROBLEMS], ("", f"{where}and {more:,} more problems")]


_BIG = 10 ** MAX_NUMBER_CHARS

_Link = tuple[Any, str | int]
"""(parent link or None, key or index): a path built in constant time per step."""


def value_problems(data: Any, *, unicode: bool = True, where: str = "") -> list[Problem]:
    """Every value a file could not hold or this app would not write back: text that is not
    valid Unicode (JSON's ``\\udc80`` escapes decode to lone surrogates, which would load and
    then fail on every save), a string or key over `MAX_STRING_CHARS`, a number that is not
    finite or is longer than `MAX_NUMBER_CHARS`, and more than `MAX_VALUES` values in all.

    Iterative and linear (data handed in by a caller has no depth limit); each path is a link
    to its parent, spelled out only for a problem."""
    problems: list[Problem] = []
    count = 0
    isfinite = math.isfinite
    stack: list[tuple[_Link | None, Any]] = [(None, data)]
    while stack:
        link, value = stack.pop()
        pairs: Iterable[tuple[Any, Any]]
        if isinstance(value, dict):
            count += 2 * len(value)
            for key in value:
                if isinstance(key, str) and (len(key) > MAX_STRING_CHARS
                                             or (unicode and not key.isascii())):
                    message = _text_problem(key, unicode)
                    if message:
                        problems.append((_path((link, key)), f"key {message}"))
            pairs = value.items()
        elif isinstance(value, list | tuple):
            count += len(value)
            pairs = enumerate(value)
        else:
            continue
        if count > MAX_VALUES:
            return [("", f"{where}more than {MAX_VALUES:,} values; not a character file")]
        for key, item in pairs:
            kind = type(item)
            if kind is str:
                if len(item) > MAX_STRING_CHARS or (unicode and not item.isascii()):
                    message = _text_problem(item, unicode)
                    if message:
                        problems.append((_path((link, key)), message))
            elif kind is int:
                if not -_BIG < item < _BIG:
                    problems.append((_path((link, key)), _TOO_LONG))
            elif kind is float:
                if not isfinite(item):
                    problems.append((_path((link, key)), _NOT_FINITE))
            elif kind is dict or kind is list:
                stack.append(((link, key), item))
            elif kind is bool or item is None:
                continue
            elif isinstance(item, dict | list | tuple):
                stack.append(((link, key), item))
            elif isinstance(item, str | int | float):  # subclasses, looked at as plain values
                message = _scalar_problem(item, unicode)
                if message:
                    problems.append((_path((link, key)), message))
    return sorted(problems)


_TOO_LONG = f"a number with more than {MAX_NUMBER_CHARS} digits"
_NOT_FINITE = "not a finite number (too large)"


def _scalar_problem(item: str | int | float, unicode: bool) -> str | None:
    if isinstance(item, str):
        return _text_problem(item, unicode)
    if isinstance(item, float):
        return None if math.isfinite(item) else _NOT_FINITE
    return None if -_BIG < item < _BIG else _TOO_LONG


def _text_problem(text: str, unicode: bool) -> str | None:
    if len(text) > MAX_STRING_CHARS:
        return f"text of {len(text):,} characters; at most {MAX_STRING_CHARS:,}"
    if unicode and not _encodable(text):
        return "not valid Unicode text (an unpaired surrogate escape)"
    return None


def _path(link: _Link | None) -> str:
    parts: list[str] = []
    while link is not None:
        link, key = link
        parts.append(str(key))
    parts.reverse()
    return _dotted(parts)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _dotted(parts: Sequence[object]) -> str:
    """A problem's path, one printable line even when a hostile key holds a newline or an
    escape sequence (such parts are shown JSON-quoted), and short when a key is long."""
    return ".".join(_part(str(part)) for part in parts)


def _part(text: str) -> str:
    text = shorten(text)
    return text if text.isprintable() and _encodable(text) else json.dumps(text)


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
            ("version", f"format version {_short(version)} is newer than this app reads "
                        f"({FORMAT_VERSION}); update sheet-app to open it")
        )
    elif version < 1:
        problems.append(("version", f"unknown format version {_short(version)}"))
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
    """A value as JSON, cut after `SHORT` characters: only that much of it is ever encoded,
    so a huge value costs no more than a small one."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and not -_BIG < value < _BIG:
        return f"a number with more than {MAX_NUMBER_CHARS} digits"
    encoder = json.JSONEncoder(default=repr)
    text = ""
    try:
        for chunk in encoder.iterencode(value):
            text += chunk
            if len(text) > SHORT:
                break
    except (ValueError, TypeError, RecursionError):  # a caller's odd data: say what it is
        text = type(value).__name__
    return shorten(text, SHORT - 3) if len(text) > SHORT else text


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


# --- writing -------------------------------------------------------------------------------


def character_json(character: CharacterBase, *, derived: bool = False) -> dict[str, Any]:
    """The normalised document; with ``derived`` the ``derived`` block of CONTRACT.md."""
    data = character.dump()
    if derived:
        data["derived"] = registry.get(character.system).derive(character).to_json()
    return data


INDENT_UP_TO = 2 * 1024 * 1024
"""Documents up to this size (written compactly) are written indented, for people and for
version control; larger ones compactly, so a save stays quick and never grows past what the
loader takes (indenting a deep document can multiply its size)."""


def dumps(data: dict[str, Any]) -> str:
    """The document as JSON text (UTF-8, indented when it is small enough: `INDENT_UP_TO`).

    Raises `SaveRefused` for data JSON can't hold (a number that is not finite)."""
    try:
        compact = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        if len(compact) > INDENT_UP_TO:
            return compact + "\n"
        indented = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as exc:  # allow_nan: Infinity and NaN are not JSON
        raise SaveRefused(f"cannot be written as JSON ({exc})") from None
    # Deep nesting can multiply the size: never let the indentation alone make it too big.
    return indented if len(indented.encode("utf-8")) <= MAX_FILE_BYTES else compact + "\n"


def save_character(character: CharacterBase, path: str | os.PathLike[str], *,
                   backup: bool = False) -> None:
    """Write ``character`` to ``path`` with `write_text_atomic` (``backup``: keep the previous
    version as ``NAME.bak``). Raises `OSError` (`SaveRefused` among them)."""
    write_text_atomic(path, dumps(character_json(character)), backup=backup)


STALE_AFTER_S = 60.0
"""A temporary file of this writer untouched this long belongs to a save that was killed."""

_TEMP_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_TEMP_RE = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp")


def is_read_only(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` (through a symlink) exists and is marked read-only (no
    write permission bit), or this process may not write it; ask before replacing it. Its
    folder decides whether it can be replaced at all (a failed save says so)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and (
        not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        or not os.access(path, os.W_OK))


def write_text_atomic(path: str | os.PathLike[str], text: str, *, backup: bool = False) -> None:
    """Write ``text`` (a JSON document) to ``path`` so that it is always either the complete
    old or the complete new version, whatever happens during the save.

    - A symlink is written through: its target gets the text, the link stays a link.
    - Anything at ``path`` that is not a regular file (a folder, a device such as
      ``/dev/null``, a named pipe, a socket) is left alone: `SaveRefused`.
    - So is a text the loader would refuse (over `MAX_FILE_BYTES`, too many values, too deep):
      `SaveRefused`, and the old file stays as it was.
    - The text goes to a temporary ``.NAME.XXXXXXXX.tmp`` beside the target, is flushed and
      fsynced, takes the target's permission bits (and owner, where allowed) or, for a new
      file, the umask's default, is renamed over the target, and the folder is fsynced.
    - ``backup``: the previous version is kept as ``NAME.bak`` (best effort: a backup that
      can't be made does not stop the save).
    - Temporaries of this writer that an interrupted save left in the folder (older than
      `STALE_AFTER_S`) are removed.

    Raises `OSError` (with the reason in ``strerror``); the target is then unchanged."""
    given = str(path)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise SaveRefused("holds text that is not valid Unicode (an unpaired surrogate)",
                          given) from None
    if len(data) > MAX_FILE_BYTES:
        raise SaveRefused(f"the sheet would be {len(data):,} bytes, and files over "
                          f"{MAX_FILE_BYTES:,} can't be opened again; not saved", given)
    problem = structure_problem(text)
    if problem:
        raise SaveRefused(f"could not be opened again ({problem}); not saved", given)
    target = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise SaveRefused(f"is {_kind(info.st_mode)}, not a regular file; not replaced", given)
    folder = target.parent
    _remove_stale_temporaries(folder, target.name)
    fd, temp = _create_temporary(folder, target.name, private=info is not None)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if info is not None:
                _take_owner_and_mode(handle.fileno(), temp, info)
            os.fsync(handle.fileno())
        if backup and info is not None:
            _keep_backup(target)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


def _create_temporary(folder: Path, name: str, *, private: bool) -> tuple[int, Path]:
    """A new, empty ``.NAME.XXXXXXXX.tmp`` in ``folder``: mode 0600 when it will take an
    existing file's mode, else 0666 less the umask (what any new file gets)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    rng = random.SystemRandom()
    for _ in range(100):
        suffix = "".join(rng.choice(_TEMP_CHARS) for _ in range(8))
        temp = folder / f".{name}.{suffix}.tmp"
        try:
            return os.open(temp, flags, 0o600 if private else 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))


def _take_owner_and_mode(fd: int, temp: Path, info: os.stat_result) -> None:
    chown = getattr(os, "fchown", None)
    if chown is not None and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        # only root may give a file away; a group we are not in is refused too
        with contextlib.suppress(OSError):
            chown(fd, info.st_uid, info.st_gid)
    mode = stat.S_IMODE(info.st_mode)
    chmod = getattr(os, "fchmod", None)
    if chmod is not None:
        chmod(fd, mode)
    else:  # Windows before 3.13
        os.chmod(temp, mode)


def _keep_backup(target: Path) -> None:
    """The current ``target`` becomes ``NAME.bak`` (a hard link: no copy, no window without
    one); best effort."""
    backup = target.with_name(target.name + ".bak")
    try:
        fd, temp = _create_temporary(target.parent, target.name, private=True)
    except OSError:
        return
    os.close(fd)
    try:
        temp.unlink()
        try:
            os.link(target, temp)
        except OSError:  # a file system without hard links
            shutil.copy2(target, temp)
        os.replace(temp, backup)
    except OSError:
        pass
    finally:
        temp.unlink(missing_ok=True)


def _remove_stale_temporaries(folder: Path, name: str) -> None:
    """Delete what killed saves left: this writer's ``.NAME.XXXXXXXX.tmp`` files in
    ``folder``, for this file or any ``.json`` file, that are regular files of ours and have
    not been touched for `STALE_AFTER_S` (a save in progress elsewhere is younger)."""
    now = time.time()
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = _TEMP_RE.fullmatch(entry.name)
        if not match:
            continue
        stem = match["name"]
        if stem != name and not stem.lower().endswith(".json"):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < STALE_AFTER_S:
                continue
            if uid is not None and info.st_uid != uid:
                continue
            os.unlink(entry.path)
        except OSError:
            continue


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every platform can open a folder (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
