"""A recovery copy of unsaved changes, so a crash or a power cut costs seconds, not a session.

It hangs off the document's undo stack like the modified mark. A change schedules a write
shortly after the edits pause (`IDLE_MS`), and never later than `MAX_WAIT_MS` after the first
change the copy doesn't hold yet, so steady typing is kept too. The copy never touches the
character's own file: it sits in the app's data folder, named by a hash of the file's path
(any file name works) and by this window's own instance id, so two windows or two instances on
one file each keep their own. Each instance holds a lock beside its copies while it runs: a
copy whose instance is gone (it crashed) is an orphan, and orphans are offered back the next
time their file is opened, never deleted unseen. A copy is deleted when its changes were
saved, undone, or really discarded (the sheet replaced or the window closed without saving).
A write that fails (a full disk, a folder that can't be written) is announced (`failed`) until
one succeeds (`succeeded`), and retried.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal

from sheet_app.io import LoadError, character_from_data, character_json, write_text_atomic
from sheet_app.model import CharacterBase
from ui.document import CharacterDocument
from ui.locking import instance_alive, path_key

IDLE_MS = 750
"""Write the copy this long after the last change..."""
MAX_WAIT_MS = 5000
"""...but never later than this after the first change the copy does not hold."""
RETRY_MS = 10_000
"""After a failed write, try again this often (while there is something to keep)."""
RECOVERY_FORMAT = "sheet-app/recovery"
UNTITLED = "untitled"
INSTANCES = "instances"
"""The folder (inside the recovery folder) of the running instances' locks."""


def default_recovery_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "recovery"


def recovery_key(path: Path | None) -> str:
    """What every recovery copy of ``path`` starts with (an unsaved sheet: `UNTITLED`)."""
    return UNTITLED if path is None else path_key(path)


def instance_lock(directory: Path, instance: str) -> Path:
    return directory / INSTANCES / f"{instance}.lock"


def _modified_time(path: Path) -> datetime | None:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime).astimezone()
    except (OSError, ValueError, OverflowError):
        return None


@dataclass(frozen=True)
class Recovery:
    """An orphaned recovery copy: the unsaved character, when it was kept, and (for a sheet
    with a file) when that file was last changed."""

    character: CharacterBase
    saved_at: datetime
    file: Path
    file_changed_at: datetime | None = None

    @property
    def older_than_file(self) -> bool:
        """The file changed after the copy was kept (saved since, touched, re-copied by a
        sync tool, or a clock ahead): the copy is still offered, with both times."""
        return self.file_changed_at is not None and self.file_changed_at > self.saved_at

    def discard(self) -> None:
        self.file.unlink(missing_ok=True)


def find_recoveries(directory: Path, path: Path | None, *, skip: str = "") -> list[Recovery]:
    """The orphaned recovery copies of ``path`` (None: of unsaved sheets), newest first.

    Copies of instances still running (another window, another process: ``skip`` names this
    window's own) are theirs, not orphans. A copy that can't be read is left where it is:
    nothing is deleted that the player was not offered."""
    key = recovery_key(path)
    found: list[Recovery] = []
    try:
        candidates = sorted(directory.glob(f"{key}.*.json"))
    except OSError:
        return []
    changed_at = _modified_time(path) if path is not None else None
    for file in candidates:
        instance = file.name[len(key) + 1:-len(".json")]
        if instance == skip or instance_alive(instance_lock(directory, instance)):
            continue
        try:
            wrapper: Any = json.loads(file.read_text(encoding="utf-8"))
            character = character_from_data(wrapper["character"])
            saved_at = datetime.fromisoformat(wrapper["saved_at"])
            if saved_at.tzinfo is None:
                saved_at = saved_at.astimezone()
        except (OSError, ValueError, KeyError, TypeError, LoadError):
            continue
        found.append(Recovery(character, saved_at, file, changed_at))
    found.sort(key=lambda r: r.saved_at, reverse=True)
    return found


class Autosaver(QObject):
    """Writes the document to this window's recovery copy while it has unsaved changes."""

    failed = Signal(str)
    """A write failed; the reason. Announced again on every failure until one succeeds."""
    succeeded = Signal()
    """A write succeeded (or nothing is left to keep) after a failure."""

    def __init__(
        self, document: CharacterDocument, directory: Path, idle_ms: int = IDLE_MS,
        max_wait_ms: int = MAX_WAIT_MS, parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.directory = directory
        self.instance = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.error = ""
        self._adopted: list[Path] = []
        self._instance_lock: QLockFile | None = None
        self._current = self._file_for(document.path)
        self._idle = self._timer(idle_ms)
        self._max_wait = self._timer(max_wait_ms)
        self._retry = self._timer(RETRY_MS)
        stack = document.undo_stack
        # None of these slots touches the undo stack: it announces its clearing while it is
        # being destroyed, when it can no longer be asked anything.
        stack.indexChanged.connect(self._on_index_changed)
        stack.cleanChanged.connect(self._on_clean_changed)
        document.pathChanged.connect(self._on_path_changed)
        self._attached = True

    def _timer(self, interval_ms: int) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(interval_ms)
        timer.timeout.connect(self.write_now)
        return timer

    def _file_for(self, path: Path | None) -> Path:
        return self.directory / f"{recovery_key(path)}.{self.instance}.json"

    @property
    def file(self) -> Path:
        """This window's recovery copy of its sheet (there only while changes are unsaved)."""
        return self._current

    @property
    def failing(self) -> bool:
        return bool(self.error)

    # --- writing -------------------------------------------------------------------------
    def _on_index_changed(self, _index: int = 0) -> None:
        self._idle.start()
        if not self._max_wait.isActive():
            self._max_wait.start()

    def write_now(self) -> None:
        """Write the recovery copy now, if there are unsaved changes."""
        self._idle.stop()
        self._max_wait.stop()
        self._retry.stop()
        if not self._attached or not self.document.is_modified():
            return
        path = self.document.path
        wrapper = {
            "format": RECOVERY_FORMAT,
            "recovery_of": str(path) if path else None,
            "instance": self.instance,
            "saved_at": datetime.now().astimezone().isoformat(),
            "character": character_json(self.document.character),
        }
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._hold_instance_lock()
            # ASCII: a path that is not valid UTF-8 (its bytes kept as lone surrogates)
            # is written as escapes, and read back the same.
            write_text_atomic(self._current, json.dumps(wrapper, ensure_ascii=True))
        except (OSError, ValueError) as exc:
            self._fail(exc)
            return
        self._succeed()

    def _hold_instance_lock(self) -> None:
        """Mark this instance as running, so no other offers its copies as orphans."""
        if self._instance_lock is not None:
            return
        file = instance_lock(self.directory, self.instance)
        file.parent.mkdir(parents=True, exist_ok=True)
        lock = QLockFile(str(file))
        lock.setStaleLockTime(0)
        if lock.tryLock(0):
            self._instance_lock = lock

    def _fail(self, exc: Exception) -> None:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        self.error = reason or type(exc).__name__
        self._retry.start()
        self.failed.emit(self.error)

    def _succeed(self) -> None:
        if self.error:
            self.error = ""
            self.succeeded.emit()

    # --- dropping copies -----------------------------------------------------------------
    def _drop_own(self) -> None:
        self._idle.stop()
        self._max_wait.stop()
        self._retry.stop()
        with contextlib.suppress(OSError):
            self._current.unlink(missing_ok=True)
        self._succeed()  # nothing left to keep: no warning left to show

    def adopt(self, recovery: Recovery) -> None:
        """The player took ``recovery``'s changes into this window: its copy stays until they
        are saved or the sheet is replaced (until then this window's own copy follows)."""
        if recovery.file not in self._adopted:
            self._adopted.append(recovery.file)
        self._on_index_changed()

    def saved(self) -> None:
        """The changes are in the file: no copy is needed any more, this window's or adopted."""
        self._drop_own()
        for file in self._adopted:
            file.unlink(missing_ok=True)
        self._adopted.clear()

    def discard(self) -> None:
        """The sheet is really replaced (New, Open) or closed without saving: drop its copies."""
        self.saved()

    def _on_clean_changed(self, clean: bool) -> None:
        if clean:  # saved, or every change undone: the file holds what the copy would
            self._drop_own()

    def _on_path_changed(self) -> None:
        new = self._file_for(self.document.path)
        if new == self._current:
            return
        old, self._current = self._current, new
        if self.document.is_modified():
            self.write_now()
        with contextlib.suppress(OSError):
            old.unlink(missing_ok=True)

    def shutdown(self) -> None:
        """The window is closing: stop, let go of the document, and mark this instance gone
        (a copy still on disk is then an orphan, offered next time)."""
        for timer in (self._idle, self._max_wait, self._retry):
            timer.stop()
        if self._attached:
            self._attached = False
            stack = self.document.undo_stack
            stack.indexChanged.disconnect(self._on_index_changed)
            stack.cleanChanged.disconnect(self._on_clean_changed)
            self.document.pathChanged.disconnect(self._on_path_changed)
        if self._instance_lock is not None:
            self._instance_lock.unlock()
            self._instance_lock = None
