"""The main window: the sheet, the roll panel dock, menus, files and the title."""

from __future__ import annotations

import contextlib
import html
import random
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QFileSystemWatcher, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStyle,
    QWidget,
)

from sheet_app import registry
from sheet_app.checks import modes_for
from sheet_app.io import (
    LoadError,
    character_json,
    dumps,
    format_problem,
    is_read_only,
    load_character,
    save_character,
    write_text_atomic,
)
from sheet_app.model import CharacterBase
from sheet_app.rolls import CheckRoll
from ui import theme
from ui.autosave import Autosaver, Recovery, default_recovery_dir, find_recoveries
from ui.binding import Binder
from ui.context import SheetContext, StatSelection
from ui.document import Change, CharacterDocument
from ui.locking import FileStamp, LockOwner, SheetLock, same_file
from ui.roll_panel import RollPanel
from ui.sections.sheet import SheetWidget
from ui.widgets import icon

FILE_FILTER = "Character files (*.json);;All files (*)"
MAX_RECENT = 8
MAX_PROBLEMS_SHOWN = 25
DEFAULT_SIZE = (1280, 800)
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
LOCKS = "locks"
"""The folder (inside the recovery folder) of the open sheets' locks."""


class StatusWarning(QWidget):
    """A warning that stays in the status bar (an icon and a line) until it is resolved."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.setSpacing(4)
        self.icon = QLabel(self)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        self.icon.setPixmap(warning.pixmap(size, size))
        self.text = QLabel(self)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.icon)
        layout.addWidget(self.text)
        self.hide()

    def show_text(self, text: str, tip: str = "") -> None:
        self.text.setText(text)
        self.setToolTip(tip)
        self.setAccessibleName(text)
        self.show()


class MainWindow(QMainWindow):
    def __init__(
        self,
        character: CharacterBase,
        path: Path | None = None,
        *,
        settings: QSettings | None = None,
        rng: random.Random | None = None,
        recovery_dir: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowIcon(icon("sheet-app"))
        self.settings = settings if settings is not None else QSettings()
        self.document = CharacterDocument(character)  # parented last: see the end
        self.document.set_path(path)
        self.autosaver = Autosaver(
            self.document, recovery_dir or default_recovery_dir(), parent=self
        )
        self._lock: SheetLock | None = None
        self.locked_by: LockOwner | None = None
        """Who owns the open file when this window has it read-only (None: this window)."""
        self._stamp: FileStamp | None = None
        self._watcher: QFileSystemWatcher | None = None
        self.autosave_warning = StatusWarning("autosaveWarning", self)
        self.disk_warning = StatusWarning("diskWarning", self)
        self._claim(path)
        self.binder = Binder(self.document, self)
        self.selection = StatSelection(self)
        self.ctx = SheetContext(self.document, self.binder, self.selection)
        self.sheet: SheetWidget | None = None
        self._sheet_system = ""

        self.roll_panel = RollPanel(self.document, self.selection, rng)
        self.dock = QDockWidget("Roll", self)
        self.dock.setObjectName("rollDock")
        self.dock.setWidget(self.roll_panel)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                              | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                              | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.dock.setMinimumWidth(330)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.resizeDocks([self.dock], [350], Qt.Orientation.Horizontal)

        self._build_actions()
        self._build_menus()
        self.statusBar().showMessage(
            "Hover a bold number for its breakdown; click the die to roll."
        )
        self.statusBar().addPermanentWidget(self.disk_warning)
        self.statusBar().addPermanentWidget(self.autosave_warning)
        self.autosaver.failed.connect(self._on_autosave_failed)
        self.autosaver.succeeded.connect(self.autosave_warning.hide)

        self.document.replaced.connect(self._on_replaced)
        self.document.rejected.connect(self._show_message)
        self._attached = True
        self.document.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.document.pathChanged.connect(self._update_title)
        self.document.edited.connect(self._on_edited)
        self.roll_panel.message.connect(self._show_message)
        self.roll_panel.rolled.connect(self._on_rolled)
        self._build_sheet()
        self._update_title()
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and self.restoreGeometry(geometry):
            state = self.settings.value("window/state")
            if isinstance(state, QByteArray):
                self.restoreState(state)
        else:
            self.resize(*DEFAULT_SIZE)
        # Children are destroyed in the order they were adopted. The undo stack announces
        # its clearing as it is destroyed, so everything listening to the document (the
        # autosaver, the binder, the roll panel) must be gone by then: the document goes last.
        self.document.setParent(self)

    # --- building ------------------------------------------------------------------------
    def _build_sheet(self) -> None:
        old = self.sheet
        if old is not None:
            old.detach()
            old.hide()
            old.setParent(None)
            old.deleteLater()
        self.binder.clear()
        self.selection.forget_watchers()
        self.selection.current = ""
        self.sheet = SheetWidget(self.ctx)
        self._sheet_system = self.document.system
        self.setCentralWidget(self.sheet)
        self.selection.select(self.sheet.default_statistic())
        self._update_roll_actions()
        self.sheet.header.name.setFocus()

    def _on_replaced(self) -> None:
        if self.document.system != self._sheet_system:
            self._build_sheet()
        else:
            self.selection.selected.emit(self.selection.current)
        self._update_title()

    def _action(
        self, text: str, slot: object,
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.act_new = self._action("&New…", lambda: self.new_file(), S.New,
                                    "Start a new character (choose a system)")
        self.act_new_system: dict[str, QAction] = {}
        self._update_new_actions()
        self.act_open = self._action("&Open…", lambda: self.open_file(), S.Open)
        self.act_save = self._action("&Save", lambda: self.save(), S.Save)
        self.act_save_as = self._action("Save &As…", lambda: self.save_as(), "Ctrl+Shift+S")
        self.act_import = self._action("&Import JSON…", lambda: self.import_json(), "Ctrl+I",
                                       "Replace this sheet with a character file (undoable)")
        self.act_export = self._action("&Export JSON…", lambda: self.export_json(), "Ctrl+E",
                                       "Write the character with every derived value")
        self.act_quit = self._action("&Quit", self.close, "Ctrl+Q")
        self.act_undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence(S.Undo))
        self.act_redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence(S.Redo), QKeySequence("Ctrl+Y")])
        self.act_roll = self._action("&Roll selected", lambda: self.roll_panel.roll(), "Ctrl+R")
        self.act_roll_up = self._action("Roll with advantage", lambda: self._roll_mode(1),
                                        "Ctrl+Shift+R")
        self.act_roll_down = self._action("Roll with disadvantage", lambda: self._roll_mode(2),
                                          "Ctrl+Alt+R")
        self.act_copy_log = self._action("&Copy roll log", lambda: self.roll_panel.copy_log(),
                                         "Ctrl+Shift+C")
        self.act_about = self._action("&About sheet-app", self._about)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        file.addAction(self.act_new)
        self.new_menu = file.addMenu("New &sheet")
        self.new_menu.aboutToShow.connect(self._fill_new_menu)
        self._fill_new_menu()
        file.addAction(self.act_open)
        self.recent_menu = file.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        file.addSeparator()
        file.addAction(self.act_save)
        file.addAction(self.act_save_as)
        file.addSeparator()
        file.addAction(self.act_import)
        file.addAction(self.act_export)
        file.addSeparator()
        file.addAction(self.act_quit)
        edit = bar.addMenu("&Edit")
        edit.addAction(self.act_undo)
        edit.addAction(self.act_redo)
        view = bar.addMenu("&View")
        toggle = self.dock.toggleViewAction()
        toggle.setText("&Roll panel")
        toggle.setShortcut(QKeySequence("F9"))
        view.addAction(toggle)
        view.addMenu(theme.theme_menu(self.settings, self))
        roll = bar.addMenu("&Roll")
        for action in (self.act_roll, self.act_roll_up, self.act_roll_down):
            roll.addAction(action)
        roll.addSeparator()
        roll.addAction(self.act_copy_log)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.act_about)

    def _update_new_actions(self) -> None:
        """One New action per known system, by its name (systems registered since the
        window opened included)."""
        for system in registry.all_systems():
            if system.id not in self.act_new_system:
                self.act_new_system[system.id] = self._action(
                    system.name.replace("&", "&&"),  # "D&D" is not a shortcut to D
                    lambda _=False, s=system.id: self.new_file(s),
                    tip=f"Start a new {system.name} character")

    def _fill_new_menu(self) -> None:
        self._update_new_actions()
        self.new_menu.clear()
        for system_id in registry.known_ids():
            action = self.act_new_system.get(system_id)
            if action is not None:
                self.new_menu.addAction(action)

    def _update_roll_actions(self) -> None:
        modes = modes_for(self.document.system)
        for action, position in ((self.act_roll_up, 1), (self.act_roll_down, 2)):
            action.setVisible(len(modes) > position)
            if len(modes) > position:
                action.setText(f"Roll with {modes[position]}")

    def _roll_mode(self, position: int) -> None:
        modes = modes_for(self.document.system)
        if len(modes) > position:
            self.roll_panel.roll(modes[position])

    def _show_message(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    def _on_rolled(self, result: CheckRoll) -> None:
        self.statusBar().showMessage(result.summary(), 10000)

    def _on_clean_changed(self, clean: bool) -> None:
        # (no `_update_title`: the stack announces its clearing while it is destroyed, when it
        # can't be asked anything; the flag it gives is all the title needs)
        self.setWindowModified(not clean)

    def _on_autosave_failed(self, reason: str) -> None:
        self.autosave_warning.show_text(
            f"Autosave failed: {reason}. Save to keep your changes.",
            f"Unsaved changes could not be kept in {self.autosaver.directory}; they are kept "
            "again as soon as a write succeeds.")

    def _on_edited(self, change: Change) -> None:
        if change.kind == "reset" or change.path[:1] in ((), ("name",)):
            self._update_title()

    # --- title and recent files ----------------------------------------------------------
    def _update_title(self) -> None:
        path = self.document.path
        shown = path.name if path else "Untitled"
        name = self.document.character.name
        parts = [f"{shown}[*]" + (" (read-only)" if self.locked_by else "")]
        if name:
            parts.append(name)
        parts.append("sheet-app")
        self.setWindowTitle(" — ".join(parts))
        self.setWindowModified(self.document.is_modified())

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _remember(self, path: Path) -> None:
        entry = str(path.resolve())
        files = [entry, *(f for f in self.recent_files() if f != entry)][:MAX_RECENT]
        self.settings.setValue("recentFiles", files)

    def _fill_recent(self) -> None:
        menu: QMenu = self.recent_menu
        menu.clear()
        files = self.recent_files()
        for number, file in enumerate(files, 1):
            action = menu.addAction(f"&{number} {Path(file).name}")
            action.setToolTip(file)
            action.triggered.connect(lambda _=False, f=file: self.open_file(f))
        if not files:
            menu.addAction("(none)").setEnabled(False)

    # --- files ---------------------------------------------------------------------------
    def _start_dir(self) -> str:
        path = self.document.path
        return str(path.parent) if path else str(self.settings.value("lastDir", ""))

    @property
    def read_only(self) -> bool:
        """Another window or instance owns this window's file: Save goes to Save As."""
        return self.locked_by is not None

    def _lock_dir(self) -> Path:
        return self.autosaver.directory / LOCKS

    def _lock_for(self, path: Path) -> tuple[SheetLock | None, LockOwner | None]:
        """This window's lock on ``path`` (the one it holds, or a new one), or the owner."""
        if self._lock is not None and same_file(path, self._lock.path):
            return self._lock, None
        lock = SheetLock(self._lock_dir(), path)
        owner = lock.acquire()
        return (None, owner) if owner is not None else (lock, None)

    def _claim(self, path: Path | None) -> None:
        """Make ``path`` (already read) this window's file; read-only if another owns it."""
        lock, owner = self._lock_for(path) if path is not None else (None, None)
        self._adopt_file(path, lock, owner, FileStamp.of(path) if path is not None else None)

    def _adopt_file(self, path: Path | None, lock: SheetLock | None, owner: LockOwner | None,
                    stamp: FileStamp | None) -> None:
        if self._lock is not None and self._lock is not lock:
            self._lock.release()
        self._lock = lock
        self.locked_by = owner
        self._stamp = stamp
        self._watch(path)

    def release_file(self) -> None:
        """Let go of the open file (its lock and watch), as the window closes."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        self._watch(None)

    def _watch(self, path: Path | None) -> None:
        """Follow ``path`` on disk, to say at once when another program changes it."""
        self.disk_warning.hide()
        if self._watcher is not None:
            watched = self._watcher.files()
            if watched:
                self._watcher.removePaths(watched)
        if path is None or not path.is_file():
            return
        if self._watcher is None:
            self._watcher = QFileSystemWatcher(self)
            self._watcher.fileChanged.connect(self._on_file_changed)
        with contextlib.suppress(UnicodeError, ValueError):  # a name Qt can't spell:
            self._watcher.addPath(str(path))  # saving still compares the file first

    def _on_file_changed(self, _name: str) -> None:
        path = self.document.path
        if path is None or self._watcher is None:
            return
        if str(path) not in self._watcher.files() and path.is_file():
            self._watcher.addPath(str(path))  # replaced by a rename: follow the new file
        if self._stamp is not None and self._stamp.changed(path):
            self.disk_warning.show_text(
                f"{path.name} changed on disk",
                "Another program changed the file since this window opened or saved it; "
                "saving asks before overwriting it.")

    def _ask(self, title: str, text: str, choices: Sequence[str], default: int = 0) -> int | None:
        """Which of ``choices`` the player picked (its index); None for Cancel."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text,
                          QMessageBox.StandardButton.NoButton, self)
        buttons = [box.addButton(label, QMessageBox.ButtonRole.AcceptRole) for label in choices]
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(buttons[default] if buttons else cancel)
        box.setEscapeButton(cancel)
        box.exec()
        clicked = box.clickedButton()
        box.deleteLater()
        return next((i for i, button in enumerate(buttons) if button is clicked), None)

    def _ask_read_only(self, path: Path, owner: LockOwner) -> bool:
        """``path`` is open in another window: open it read-only (True) or not at all."""
        choice = self._ask(
            "File already open",
            f"{path.name} is open in {owner.describe()}.\n\nOpen it read-only? You can read, "
            "roll and edit it here, but saving asks for another name, so the other window's "
            "work is never overwritten.",
            ["Open read-only"])
        return choice == 0

    def confirm_read_only(self) -> bool:
        """When another window owns this window's file, ask whether to keep it open
        read-only; False: the player would rather not open it."""
        path = self.document.path
        if self.locked_by is None or path is None:
            return True
        return self._ask_read_only(path, self.locked_by)

    def _commit_pending_input(self) -> None:
        """A field being typed in commits when it loses focus: do that before asking about
        unsaved changes, so the last thing typed is among them."""
        focus = QApplication.focusWidget()
        if focus is not None and self.isAncestorOf(focus):
            focus.clearFocus()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current sheet (saved, discarded, or unchanged).

        Discarding deletes nothing yet: the recovery copy goes only once the sheet is really
        replaced (a New or Open that is then cancelled keeps both the edits and the copy)."""
        self._commit_pending_input()
        if not self.document.is_modified():
            return True
        shown = self.document.path.name if self.document.path else "this character"
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        answer = QMessageBox.question(
            self, "Unsaved changes", f"Save changes to {shown} first?", buttons,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def offer_recovery(self) -> bool:
        """If unsaved changes to this sheet survived a crash, offer them back (undoable).

        Each orphaned copy in turn, newest first, until one is taken. A copy older than the
        file is offered too, saying so with both times. No deletes the copy offered; Cancel
        (and every copy not offered yet) stays for next time."""
        path = self.document.path
        copies = find_recoveries(self.autosaver.directory, path, skip=self.autosaver.instance)
        for number, found in enumerate(copies, 1):
            answer = self._offer(found, number, len(copies))
            if answer == QMessageBox.StandardButton.Yes:
                self.document.replace(found.character, "Recover unsaved changes")
                self.autosaver.adopt(found)
                self.statusBar().showMessage(
                    "Recovered unsaved changes (Ctrl+Z undoes it)", 6000)
                return True
            if answer != QMessageBox.StandardButton.No:
                break
            found.discard()
        return False

    def _offer(self, found: Recovery, number: int, count: int) -> QMessageBox.StandardButton:
        path = self.document.path
        shown = path.name if path else "an unsaved sheet"
        first = (f"sheet-app closed with unsaved changes to {shown}; they were kept at "
                 f"{found.saved_at.strftime(TIME_FORMAT)}.")
        if count > 1:
            first += (f" ({count} windows left changes behind; these are the "
                      + ("newest" if number == 1 else f"number {number}, by age") + ".)")
        paragraphs = [first]
        if found.older_than_file and found.file_changed_at is not None:
            paragraphs.append(
                f"The file itself changed later, at "
                f"{found.file_changed_at.strftime(TIME_FORMAT)} (saved since, or touched by "
                "another program, a sync tool or a clock), so these changes may be older "
                "than what it holds.")
        paragraphs.append("Recover them? You can still undo the recovery, or not save it. "
                          "No deletes them; Cancel keeps them for next time.")
        buttons = (QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
                   | QMessageBox.StandardButton.Cancel)
        return QMessageBox.question(self, "Recover unsaved changes", "\n\n".join(paragraphs),
                                    buttons, QMessageBox.StandardButton.Yes)

    def _replace_sheet(self, character: CharacterBase, path: Path | None,
                       lock: SheetLock | None = None, owner: LockOwner | None = None,
                       stamp: FileStamp | None = None) -> None:
        """Put another sheet in this window (New, Open): the old one's copies go now."""
        self.autosaver.discard()
        self.document.load(character, path)
        self._adopt_file(path, lock, owner, stamp)
        self._update_title()

    def new_file(self, system: str | None = None) -> bool:
        if not self.maybe_save():
            return False
        if system is None:
            systems = registry.all_systems()
            names = [s.name for s in systems]
            ids = [s.id for s in systems]
            current = ids.index(self.document.system) if self.document.system in ids else 0
            choice, ok = QInputDialog.getItem(self, "New character", "Rule system:", names,
                                              current, False)
            if not ok or choice not in names:
                return False
            system = ids[names.index(choice)]
        rules = registry.get(system)
        self._replace_sheet(rules.new_character(), None)
        self.statusBar().showMessage(f"New {rules.name} character", 5000)
        return True

    def open_file(self, path: str | Path | None = None) -> bool:
        if not self.maybe_save():
            return False
        file = self._choose(path, "Open character")
        if file is None:
            return False
        stamp = FileStamp.of(file)  # before reading: a change made meanwhile shows as one
        character = self._load(file, "Could not open")
        if character is None:
            return False
        lock, owner = self._lock_for(file)
        if owner is not None and not self._ask_read_only(file, owner):
            return False
        self._replace_sheet(character, file, lock, owner, stamp)
        self._remember(file)
        self.settings.setValue("lastDir", str(file.parent))
        self.statusBar().showMessage(
            f"Opened {file.name}" + (" read-only" if owner is not None else ""), 5000)
        self.offer_recovery()
        return True

    def _choose(self, path: str | Path | None, title: str) -> Path | None:
        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(self, title, self._start_dir(), FILE_FILTER)
            if not chosen:
                return None
            path = chosen
        return Path(path)

    def _choose_and_load(
        self, path: str | Path | None, title: str, verb: str
    ) -> tuple[Path, CharacterBase] | None:
        """Ask for a file unless given one, then read it; problems are shown, not raised."""
        file = self._choose(path, title)
        if file is None:
            return None
        character = self._load(file, verb)
        return None if character is None else (file, character)

    def _load(self, path: Path, verb: str) -> CharacterBase | None:
        notes: list[tuple[str, str]] = []
        try:
            character = load_character(path, notes=notes)
        except LoadError as exc:
            self.show_problems(f"{verb} {path.name}", exc.problems)
            return None
        if notes:  # loaded differently from the file (a roll log beyond the limit): say so
            self.statusBar().showMessage("; ".join(format_problem(n) for n in notes), 15000)
        return character

    def show_problems(self, title: str, problems: list[tuple[str, str]]) -> None:
        """One line per problem, ``path: message``; the sheet stays as it was."""
        lines = [format_problem(p) for p in problems]
        if len(lines) > MAX_PROBLEMS_SHOWN:
            more = len(lines) - MAX_PROBLEMS_SHOWN
            lines = [*lines[:MAX_PROBLEMS_SHOWN], f"… and {more} more"]
        count = len(problems)
        text = (f"{title}: {count} problem{'s' if count != 1 else ''}. "
                "The open sheet was not changed.\n\n" + "\n".join(lines))
        QMessageBox.warning(self, title, text)

    def save(self) -> bool:
        path = self.document.path
        if path is None:
            return self.save_as()
        if self.locked_by is not None:  # has the owner let go of it since?
            lock, self.locked_by = self._lock_for(path)
            if self.locked_by is None:
                self._lock = lock
                self._update_title()
        if self.locked_by is not None:
            self.statusBar().showMessage(
                f"{path.name} is open in {self.locked_by.describe()}: save this sheet under "
                "another name.", 8000)
            return self.save_as()
        return self._save_to(path, chosen=False)

    def _ask_save_path(self, title: str, suggested: Path) -> Path | None:
        """A file name from the save dialog, with ".json" added when it has no extension,
        before anything is checked: typing "Lux" over an existing Lux.json asks first."""
        chosen, selected = QFileDialog.getSaveFileName(
            self, title, str(suggested), FILE_FILTER,
            options=QFileDialog.Option.DontConfirmOverwrite)
        if not chosen:
            return None
        path = Path(chosen)
        if path.suffix.lower() != ".json" and not (
                path.suffix and str(selected).startswith("All files")):
            path = path.with_name(path.name + ".json")
        return path

    def _confirm_replace(self, path: Path) -> bool:
        if not path.exists():
            return True
        answer = QMessageBox.question(
            self, "Replace file", f"{path.name} already exists in {path.parent}.\n\n"
            "Replace it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def save_as(self) -> bool:
        suggested = self.document.path or Path(self._start_dir()) / (
            (self.document.character.name or "character").replace("/", "-") + ".json"
        )
        path = self._ask_save_path("Save character as", suggested)
        if path is None:
            return False
        return self._save_to(path, chosen=True)

    def _save_to(self, path: Path, *, chosen: bool) -> bool:
        """Write the sheet to ``path``, after asking whatever must be asked first: a file
        another window owns is refused; one changed on disk since this window read or wrote
        it, or a read-only one, or (chosen in the dialog) any other existing one asks."""
        own = same_file(path, self.document.path)
        if own and self.locked_by is not None:
            owner: LockOwner | None = self.locked_by
            lock: SheetLock | None = None
        else:
            lock, owner = self._lock_for(path)
        if owner is not None:
            QMessageBox.warning(
                self, "File open elsewhere",
                f"{path.name} is open in {owner.describe()}, so it is not overwritten from "
                "here. Save under another name, or close it there first.")
            return False
        decision = self._check_target(path, own=own, chosen=chosen)
        if decision != "write":
            if lock is not None and lock is not self._lock:
                lock.release()
            return self.save_as() if decision == "save_as" else False
        try:
            save_character(self.document.character, path, backup=True)
        except OSError as exc:
            if lock is not None and lock is not self._lock:
                lock.release()
            QMessageBox.critical(self, "Could not save",
                                 f"Could not save {path}:\n{exc.strerror or exc}")
            return False
        self.document.mark_saved()
        self.autosaver.saved()
        if not own:
            self.document.set_path(path)
        self._adopt_file(self.document.path, lock, None, FileStamp.of(path))
        self._update_title()
        self._remember(path)
        self.settings.setValue("lastDir", str(path.parent))
        self.statusBar().showMessage(f"Saved {path.name}", 5000)
        return True

    def _check_target(self, path: Path, *, own: bool, chosen: bool) -> str:
        """"write", "save_as" or "cancel": what the player wants done about ``path``."""
        if own and self._stamp is not None and self._stamp.changed(path):
            choice = self._ask(
                "File changed on disk",
                f"{path.name} changed on disk since you opened it or last saved it (another "
                "program, or sheet-app elsewhere, wrote it).\n\nOverwrite it with this sheet "
                f"(what is on disk now is kept as {path.name}.bak), or save this sheet under "
                "another name?",
                ["Overwrite", "Save As…"], default=1)
            if choice is None:
                return "cancel"
            if choice == 1:
                return "save_as"
        if is_read_only(path):
            choice = self._ask(
                "Read-only file",
                f"{path.name} is read-only.\n\nOverwrite it anyway (it stays read-only), or "
                "save this sheet under another name?",
                ["Overwrite", "Save As…"], default=1)
            if choice is None:
                return "cancel"
            return "write" if choice == 0 else "save_as"
        if chosen and not own and not self._confirm_replace(path):
            return "cancel"
        return "write"

    def export_json(self) -> bool:
        stem = self.document.path.stem if self.document.path else (
            self.document.character.name or "character")
        suggested = Path(self._start_dir()) / f"{stem}-export.json"
        path = self._ask_save_path("Export JSON with derived values", suggested)
        if path is None or not self._confirm_replace(path):
            return False
        try:
            write_text_atomic(path, dumps(character_json(self.document.character, derived=True)))
        except OSError as exc:
            QMessageBox.critical(self, "Could not export",
                                 f"Could not write {path}:\n{exc.strerror or exc}")
            return False
        self.statusBar().showMessage(f"Exported {path.name} (with derived values)", 5000)
        return True

    def import_json(self, path: str | Path | None = None) -> bool:
        """Replace this sheet's character with a file's, as one undoable edit."""
        loaded = self._choose_and_load(path, "Import character JSON", "Could not import")
        if loaded is None:
            return False
        file, character = loaded
        self.document.replace(character, f"Import {file.name}")
        self.statusBar().showMessage(f"Imported {file.name} (Ctrl+Z undoes it)", 6000)
        return True

    # --- closing -------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        if self.document.is_modified():  # discarded: only now is the copy dropped
            self.autosaver.discard()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.release_file()
        self.detach()
        event.accept()

    def detach(self) -> None:
        """Stop listening to the undo stack. It announces its clearing while it is being
        destroyed (the window's children go one by one at exit), when a slot asking it
        anything raises "already deleted": nothing of the window's may still be listening."""
        self.autosaver.shutdown()
        if self._attached:
            self._attached = False
            self.document.undo_stack.cleanChanged.disconnect(self._on_clean_changed)

    def _about(self) -> None:
        QMessageBox.about(
            self, "About sheet-app",
            "<b>sheet-app</b> 0.1.0<br>A d20 character sheet that explains every number.<br>"
            + html.escape(", ".join(s.name for s in registry.all_systems())) + ".",
        )
