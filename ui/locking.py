"""One owner per sheet file, and knowing when the file changed behind the window's back.

- `SheetLock`: a `QLockFile` per open sheet, in the app's own folder (so a read-only folder
  or a synced one gets no litter), named by a hash of the file's real path (so a symlink and
  its target are one file, and any file name, even bytes that are not UTF-8, works). A lock
  left by a crashed instance is stale (its process is gone) and taken over. A second window
  or instance on a locked file gets the owner instead of the lock, and opens read-only.
- `FileStamp`: the file's size, modification time and content hash, recorded when the
  window reads or writes it. Saving compares it with the file on disk first, so a change made
  by another program (or another instance on another machine) is never overwritten silently.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile

HASH_CHUNK = 1 << 20


def real_path(path: Path) -> Path:
    """``path`` with symlinks resolved and made absolute (whether or not it exists)."""
    return Path(os.path.realpath(path))


def path_key(path: Path) -> str:
    """A file name safe in any file system for the file at ``path``: a hash of its real path's
    bytes (a name that is not valid UTF-8 hashes as well as any other)."""
    return hashlib.sha256(os.fsencode(real_path(path))).hexdigest()[:24]


def same_file(a: Path | None, b: Path | None) -> bool:
    return a is not None and b is not None and real_path(a) == real_path(b)


@dataclass(frozen=True)
class LockOwner:
    """Who holds a sheet's lock (as its lock file says)."""

    pid: int
    host: str
    app: str

    def describe(self) -> str:
        if self.pid <= 0:
            return "another sheet-app window"
        if self.pid == os.getpid():
            return "another window of this sheet-app"
        where = f" on {self.host}" if self.host else ""
        return f"another sheet-app window (process {self.pid}{where})"


class SheetLock:
    """The lock of one sheet file, held while a window has it open (not read-only)."""

    def __init__(self, directory: Path, path: Path) -> None:
        self.path = path
        self.file = directory / f"{path_key(path)}.lock"
        self._lock: QLockFile | None = None

    @property
    def held(self) -> bool:
        return self._lock is not None

    def acquire(self) -> LockOwner | None:
        """Take the lock: None when this window now owns the file (or locks can't be made
        here at all: then only the on-disk check protects it), else the owner."""
        if self._lock is not None:
            return None
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        lock = QLockFile(str(self.file))
        lock.setStaleLockTime(0)  # held for hours: stale only when its process is gone
        if lock.tryLock(0):
            self._lock = lock
            return None
        if lock.error() != QLockFile.LockError.LockFailedError:
            return None  # a folder we can't write: no lock to take, nor one held
        pid, host, app = lock.getLockInfo()
        return LockOwner(int(pid), str(host), str(app))

    def release(self) -> None:
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


def instance_alive(lock_file: Path) -> bool:
    """Whether a live process holds ``lock_file`` (a stale one, of a process that is gone, is
    removed on the way)."""
    if not lock_file.exists():
        return False
    probe = QLockFile(str(lock_file))
    probe.setStaleLockTime(0)
    if probe.tryLock(0):
        probe.unlock()  # removes the stale file
        return False
    return probe.error() == QLockFile.LockError.LockFailedError


@dataclass(frozen=True)
class FileStamp:
    """A file as the window last read or wrote it."""

    size: int
    mtime_ns: int
    digest: str

    @classmethod
    def of(cls, path: Path) -> FileStamp | None:
        """The stamp of the regular file at ``path`` now; None if there is none (missing,
        unreadable, or not a regular file, which is never opened here: a pipe would hang)."""
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode):
                return None
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                while chunk := handle.read(HASH_CHUNK):
                    digest.update(chunk)
        except OSError:
            return None
        return cls(info.st_size, info.st_mtime_ns, digest.hexdigest())

    def changed(self, path: Path) -> bool:
        """Whether the file at ``path`` holds something else than when stamped. Touching it
        (a new time, the same bytes) is no change; a file removed since is no change to keep
        (saving recreates it)."""
        try:
            info = os.stat(path)
        except OSError:
            return False
        if (info.st_size, info.st_mtime_ns) == (self.size, self.mtime_ns):
            return False
        now = FileStamp.of(path)
        return now is None or now.digest != self.digest
