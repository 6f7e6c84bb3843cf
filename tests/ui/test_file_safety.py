"""One owner per file, no silent overwrite: Save As's extension, locks and read-only windows,
a file changed on disk, a read-only file, and quitting cleanly (issue 10).

Two windows in one process share the lock folder exactly as two instances do (the lock file
names the process; a second window of the same process is refused like another process);
tests/ui/test_xvfb.py does the same across real processes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile, QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from sheet_app import registry
from sheet_app.io import save_character
from sheet_app.model import CharacterBase
from tests.ui.helpers import MakeWindow, answer, find, type_into
from ui.locking import FileStamp, SheetLock, path_key
from ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


def sample(system: str = "runarcana") -> CharacterBase:
    return registry.get(system).sample()


def saved_sample(path: Path, system: str = "runarcana") -> Path:
    save_character(sample(system), path)
    return path


def read_only(window: MainWindow) -> bool:
    """(A function, so a check after a save isn't narrowed away by one before it.)"""
    return window.read_only


class Asked:
    """Answers the window's own choice dialogs (`MainWindow._ask`) in turn; records them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *answers: str | None) -> None:
        self.titles: list[str] = []
        self.texts: list[str] = []
        self._answers = list(answers)

        def ask(window: MainWindow, title: str, text: str, choices: list[str],
                default: int = 0) -> int | None:
            self.titles.append(title)
            self.texts.append(text)
            assert self._answers, f"unexpected dialog: {title}"
            choice = self._answers.pop(0)
            return None if choice is None else choices.index(choice)

        monkeypatch.setattr(MainWindow, "_ask", ask)


@pytest.fixture(autouse=True)
def no_unexpected_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    Asked(monkeypatch)


def save_dialog(monkeypatch: pytest.MonkeyPatch, *names: str | Path) -> list[dict[str, object]]:
    """The save dialog returns ``names`` in turn; the keyword arguments it got are kept."""
    queue = [str(n) for n in names]
    calls: list[dict[str, object]] = []

    def get(*args: object, **kwargs: object) -> tuple[str, str]:
        calls.append(kwargs)
        return (queue.pop(0) if queue else "", "Character files (*.json)")

    monkeypatch.setattr(QFileDialog, "getSaveFileName", get)
    return calls


# --- Save As -------------------------------------------------------------------------------


def test_save_as_adds_json_before_asking_to_replace(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    existing = saved_sample(tmp_path / "Lux.json", "pf2e")
    before = existing.read_bytes()
    window = make_window("runarcana")
    calls = save_dialog(monkeypatch, tmp_path / "Lux")
    asked = answer(monkeypatch, QMessageBox.StandardButton.No)
    assert not window.save_as()
    assert asked == ["Replace file"]
    assert existing.read_bytes() == before  # not replaced silently
    assert calls[0]["options"] == QFileDialog.Option.DontConfirmOverwrite  # we ask instead

    save_dialog(monkeypatch, tmp_path / "Lux")
    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    assert window.save_as()
    assert asked == ["Replace file"]
    assert json.loads(existing.read_text())["system"] == window.document.system
    assert window.document.path == existing
    assert not (tmp_path / "Lux").exists()


# --- two windows on one file ---------------------------------------------------------------


def test_a_second_window_on_a_file_is_read_only_and_saves_elsewhere(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_sample(tmp_path / "lux.json")
    first = make_window(sample(), path)
    second = make_window(sample(), path)
    assert not first.read_only
    assert second.read_only and second.locked_by is not None
    assert second.locked_by.pid == os.getpid()
    assert "(read-only)" in second.windowTitle()

    # both edit; each keeps its own recovery copy
    type_into(qtbot, find(first, QSpinBox, "Strength score"), "17")
    type_into(qtbot, find(second, QSpinBox, "Strength score"), "12")
    first.autosaver.write_now()
    second.autosaver.write_now()
    assert first.autosaver.file != second.autosaver.file
    assert first.autosaver.file.exists() and second.autosaver.file.exists()

    # the read-only one can't save over the file: Save goes to Save As...
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: QMessageBox.StandardButton.Ok)
    save_dialog(monkeypatch, path)  # ...where the locked file itself is refused
    assert not second.save()
    assert json.loads(path.read_text())["abilities"]["str"] == 8

    other = tmp_path / "lux-copy.json"
    save_dialog(monkeypatch, other)
    assert second.save()
    assert json.loads(other.read_text())["abilities"]["str"] == 12
    assert not read_only(second)  # it owns the new file
    assert second.document.path == other
    assert "(read-only)" not in second.windowTitle()
    assert first.autosaver.file.exists()  # a save elsewhere leaves the first one's copy

    assert first.save()  # the owner saves in place, no question
    assert json.loads(path.read_text())["abilities"]["str"] == 17


def test_opening_a_file_another_window_has_asks_read_only_or_cancel(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_sample(tmp_path / "valeros.json", "pf2e")
    owner = make_window(sample("pf2e"), path)
    window = make_window("runarcana")
    asked = Asked(monkeypatch, None)
    assert not window.open_file(path)
    assert not owner.read_only
    assert asked.titles == ["File already open"]
    assert "another window of this sheet-app" in asked.texts[0]
    assert window.document.system == "runarcana" and window.document.path is None


def test_open_read_only_then_the_owner_closes(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_sample(tmp_path / "valeros.json", "pf2e")
    owner = make_window(sample("pf2e"), path)
    window = make_window("runarcana")
    Asked(monkeypatch, "Open read-only")
    assert window.open_file(path)
    assert window.read_only and window.document.path == path
    assert owner.close()
    window.document.set(("name",), "Valeros the Read-only")
    Asked(monkeypatch)
    assert window.save()  # the owner let go: this window takes the file, saves in place
    assert not read_only(window)
    assert json.loads(path.read_text())["name"] == "Valeros the Read-only"
    assert window.open_file(path)  # and opening it again is no conflict with itself
    assert not read_only(window)


def test_two_windows_that_crash_both_leave_copies_and_both_are_offered(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_sample(tmp_path / "lux.json")
    a = make_window(sample(), path)
    b = make_window(sample(), path)
    type_into(qtbot, find(a, QSpinBox, "Strength score"), "17")
    type_into(qtbot, find(b, QSpinBox, "Dexterity score"), "16")
    for crashed in (a, b):
        crashed.autosaver.write_now()
        crashed.release_file()
        crashed.detach()
    os.utime(path, (1, 1))

    texts: list[str] = []

    def question(_parent: object, title: str, text: str, *args: object) -> object:
        texts.append(text)
        return QMessageBox.StandardButton.No if len(texts) == 1 else \
            QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    window = make_window(sample(), path)
    assert window.offer_recovery()
    assert len(texts) == 2 and "2 windows left changes behind" in texts[0]
    # the newest (b's) was declined and deleted; a's taken
    assert window.document.value(("abilities", "str")) == 17
    assert not b.autosaver.file.exists() and a.autosaver.file.exists()


def test_a_stale_lock_of_a_crashed_process_is_taken_over(tmp_path: Path) -> None:
    path = saved_sample(tmp_path / "lux.json")
    lock_file = tmp_path / "locks" / f"{path_key(path)}.lock"
    lock_file.parent.mkdir()
    code = ("import os, sys\nfrom PySide6.QtCore import QLockFile\n"
            "lock = QLockFile(sys.argv[1]); lock.setStaleLockTime(0)\n"
            "assert lock.tryLock(0)\nos._exit(0)  # no unlock: as if killed\n")
    subprocess.run([sys.executable, "-c", code, str(lock_file)], check=True, timeout=60)
    assert lock_file.exists()
    lock = SheetLock(tmp_path / "locks", path)
    assert lock.acquire() is None and lock.held
    assert SheetLock(tmp_path / "locks", path).acquire() is not None  # and now it is ours
    lock.release()
    assert not lock_file.exists()


def test_a_symlink_and_its_target_are_one_file(tmp_path: Path) -> None:
    real = saved_sample(tmp_path / "real.json")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    lock = SheetLock(tmp_path, real)
    assert lock.acquire() is None
    assert SheetLock(tmp_path, link).acquire() is not None
    lock.release()
    probe = QLockFile(str(lock.file))
    assert probe.tryLock(0)
    probe.unlock()


# --- the file on disk ----------------------------------------------------------------------


def test_a_file_changed_on_disk_asks_before_it_is_overwritten(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_sample(tmp_path / "lux.json")
    window = make_window(sample(), path)
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")

    stamp = os.stat(path)
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 5_000_000_000))  # `touch`
    Asked(monkeypatch)
    assert window.save()  # the same bytes: nothing to ask

    # another program (or another machine's sheet-app) writes the file
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "18")
    theirs = json.loads(path.read_text())
    theirs["name"] = "Lux (theirs)"
    path.write_text(json.dumps(theirs))
    qtbot.waitUntil(window.disk_warning.isVisible, timeout=5000)
    assert "changed on disk" in window.disk_warning.text.text()

    asked = Asked(monkeypatch, None)  # Cancel
    assert not window.save()
    assert asked.titles == ["File changed on disk"]
    assert "since you opened it or last saved it" in asked.texts[0]
    assert json.loads(path.read_text())["name"] == "Lux (theirs)"

    Asked(monkeypatch, "Save As…")
    save_dialog(monkeypatch, tmp_path / "mine")
    assert window.save()
    assert json.loads((tmp_path / "mine.json").read_text())["abilities"]["str"] == 18
    assert json.loads(path.read_text())["name"] == "Lux (theirs)"
    assert window.document.path == tmp_path / "mine.json"

    assert window.open_file(path)
    theirs["name"] = "Lux (theirs again)"
    path.write_text(json.dumps(theirs))
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "11")
    Asked(monkeypatch, "Overwrite")
    assert window.save()
    assert json.loads(path.read_text())["abilities"]["str"] == 11
    assert window.disk_warning.isHidden()
    Asked(monkeypatch)
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "12")
    assert window.save()  # our own save is no change on disk


def test_a_read_only_file_asks_before_it_is_overwritten(
    qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_sample(tmp_path / "lux.json")
    path.chmod(0o444)
    window = make_window(sample(), path)
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "17")

    asked = Asked(monkeypatch, None)
    assert not window.save()
    assert asked.titles == ["Read-only file"]
    assert json.loads(path.read_text())["abilities"]["str"] == 8

    Asked(monkeypatch, "Save As…")
    save_dialog(monkeypatch, tmp_path / "lux-2.json")
    assert window.save()
    assert json.loads((tmp_path / "lux-2.json").read_text())["abilities"]["str"] == 17

    assert window.open_file(path)
    type_into(qtbot, find(window, QSpinBox, "Strength score"), "18")
    Asked(monkeypatch, "Overwrite")
    assert window.save()
    assert json.loads(path.read_text())["abilities"]["str"] == 18
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # still read-only


def test_a_file_stamp_sees_content_not_times(tmp_path: Path) -> None:
    path = saved_sample(tmp_path / "lux.json")
    stamp = FileStamp.of(path)
    assert stamp is not None and not stamp.changed(path)
    os.utime(path, (1, 1))
    assert not stamp.changed(path)
    path.write_text(path.read_text().replace("Lux", "Xul"))
    assert stamp.changed(path)
    path.unlink()
    assert not stamp.changed(path)  # gone: saving recreates it, nothing to lose
    os.mkfifo(tmp_path / "pipe.json")
    assert FileStamp.of(tmp_path / "pipe.json") is None  # never opened: it would hang


# --- quitting ------------------------------------------------------------------------------


def test_closing_lets_go_of_the_file_and_the_undo_stack(
    qtbot: QtBot, tmp_path: Path, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The undo stack announces its clearing (cleanChanged, indexChanged) while it is being
    destroyed; anything of the window's still listening then would ask a deleted stack
    ("Internal C++ object (QUndoStack) already deleted")."""
    import shiboken6

    path = saved_sample(tmp_path / "lux.json")
    window = MainWindow(sample(), path, settings=settings, recovery_dir=tmp_path / "recovery")
    window.show()
    window.document.set(("name",), "Lux the Bold")
    answer(monkeypatch, QMessageBox.StandardButton.Discard)
    assert window.close()
    assert SheetLock(tmp_path / "recovery" / "locks", path).acquire() is None
    stack = window.document.undo_stack
    assert stack.receivers("2cleanChanged(bool)") == 0
    assert stack.receivers("2indexChanged(int)") == 0
    shiboken6.delete(window)  # pytest-qt fails the test on an exception in a slot


QUIT_SCRIPT = r"""
import sys
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QSpinBox
import ui.main_window as main_window

shown = main_window.MainWindow.show

def click(button):
    box = QApplication.activeModalWidget()
    if isinstance(box, QMessageBox):
        print("asked:", box.text(), flush=True)
        box.button(button).click()
    else:
        QTimer.singleShot(50, lambda: click(button))

def show(window):
    shown(window)
    def edit():
        QTest.keyClicks(window.sheet.header.name, "x")  # an edit...
        spin = [w for w in window.findChildren(QSpinBox)
                if w.accessibleName() == "Strength score"][0]
        spin.setFocus()
        spin.selectAll()
        QTest.keyClicks(spin, "12")  # ...and one still being typed
        QTimer.singleShot(100, lambda: click(QMessageBox.StandardButton.Discard))
        QTest.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    QTimer.singleShot(200, edit)

main_window.MainWindow.show = show
from ui.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_quitting_after_an_edit_prints_no_traceback(tmp_path: Path) -> None:
    path = saved_sample(tmp_path / "lux.json")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(tmp_path / "d"),
           "XDG_CONFIG_HOME": str(tmp_path / "c")}
    result = subprocess.run([sys.executable, "-c", QUIT_SCRIPT, str(path)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "Error" not in result.stderr, result.stderr
    assert "asked: Save changes to lux.json first?" in result.stdout
    assert json.loads(path.read_text())["name"] == "Lux"  # discarded
    locks = list((tmp_path / "d").rglob("*.lock"))
    assert locks == [], locks  # the file's lock went with the window
    assert list((tmp_path / "d").rglob("*.json")) == []  # and the discarded copy


def test_starting_on_a_file_open_elsewhere_asks_and_cancel_opens_nothing(
    make_window: MakeWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import ui.main
    import ui.main_window

    path = saved_sample(tmp_path / "lux.json")
    owner = make_window(sample(), path)
    monkeypatch.setattr(ui.main_window, "default_recovery_dir", lambda: tmp_path / "recovery")
    asked = Asked(monkeypatch, None)
    assert ui.main.run_window([str(path)]) == 0  # returns before the event loop
    assert asked.titles == ["File already open"]
    assert "open in another window" in capsys.readouterr().err
    assert not owner.read_only
