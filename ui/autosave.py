"""A recovery copy of unsaved changes, so a crash or a power cut costs seconds, not a session.

It hangs off the document's undo stack like the modified mark: a change schedules a write a
moment later (typing "18" writes once); becoming clean (saved, or every edit undone) deletes
the copy. The copy never touches the character's own file: it sits in the app's data folder,
named after the file it belongs to, and is offered back the next time that file is opened.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from sheet_app.io import LoadError, character_from_data, character_json, write_text_atomic
from sheet_app.model import CharacterBase
from ui.document import CharacterDocument

DELAY_MS = 2000
RECOVERY_FORMAT = "sheet-app/recovery"


def default_recovery_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "recovery"


def recovery_file(directory: Path, path: Path | None) -> Path:
    """One recovery file per character file; an unsaved (untitled) sheet has its own."""
    if path is None:
        return directory / "untitled.json"
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    return directory / f"{path.stem[:40]}-{digest[:16]}.json"


@dataclass(frozen=True)
class Recovery:
    character: CharacterBase
    saved_at: datetime
    file: Path


def find_recovery(directory: Path, path: Path | None) -> Recovery | None:
    """The recovery copy for ``path`` if there is a usable one newer than the file itself.

    A copy that is older than the file (saved since, by this app or another) or that can't be
    read is stale: it is removed rather than offered.
    """
    file = recovery_file(directory, path)
    if not file.exists():
        return None
    try:
        wrapper: Any = json.loads(file.read_text(encoding="utf-8"))
        character = character_from_data(wrapper["character"])
        saved_at = datetime.fromisoformat(wrapper["saved_at"])
    except (OSError, ValueError, KeyError, TypeError, LoadError):
        file.unlink(missing_ok=True)
        return None
    if path is not None and path.exists() and path.stat().st_mtime > file.stat().st_mtime:
        file.unlink(missing_ok=True)
        return None
    return Recovery(character, saved_at, file)


class Autosaver(QObject):
    """Writes the document to its recovery file shortly after each change while unsaved."""

    def __init__(
        self, document: CharacterDocument, directory: Path, delay_ms: int = DELAY_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.directory = directory
        self._current = recovery_file(directory, document.path)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.write_now)
        document.undo_stack.indexChanged.connect(self._schedule)
        document.undo_stack.cleanChanged.connect(self._on_clean_changed)
        document.pathChanged.connect(self._on_path_changed)

    @property
    def file(self) -> Path:
        return self._current

    def _schedule(self, _index: int = 0) -> None:
        if self.document.is_modified():
            self._timer.start()

    def write_now(self) -> None:
        """Write the recovery copy now (also used when the app is about to quit)."""
        self._timer.stop()
        if not self.document.is_modified():
            return
        wrapper = {
            "format": RECOVERY_FORMAT,
            "recovery_of": str(self.document.path) if self.document.path else None,
            "saved_at": datetime.now().astimezone().isoformat(timespec="seconds"),
            "character": character_json(self.document.character),
        }
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self._current, json.dumps(wrapper, ensure_ascii=False))
        except OSError:
            pass  # a recovery copy is a courtesy: never interrupt the player over it

    def discard(self) -> None:
        """The player chose to drop the changes (or they were saved): forget the copy."""
        self._timer.stop()
        self._current.unlink(missing_ok=True)

    def _on_clean_changed(self, clean: bool) -> None:
        if clean:
            self.discard()

    def _on_path_changed(self) -> None:
        new = recovery_file(self.directory, self.document.path)
        if new == self._current:
            return
        if not self.document.is_modified():
            self._current.unlink(missing_ok=True)
        self._current = new
        self._schedule()
