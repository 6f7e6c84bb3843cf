"""The main window: the sheet, the roll panel dock, menus, files and the title."""

from __future__ import annotations

import html
import random
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from sheet_app import registry
from sheet_app.checks import modes_for
from sheet_app.io import (
    LoadError,
    character_json,
    dumps,
    format_problem,
    load_character,
    save_character,
    write_text_atomic,
)
from sheet_app.model import CharacterBase
from sheet_app.rolls import CheckRoll
from ui.autosave import Autosaver, default_recovery_dir, find_recovery
from ui.binding import Binder
from ui.context import SheetContext, StatSelection
from ui.document import Change, CharacterDocument
from ui.roll_panel import RollPanel
from ui.sections.sheet import SheetWidget
from ui.widgets import icon

FILE_FILTER = "Character files (*.json);;All files (*)"
MAX_RECENT = 8
MAX_PROBLEMS_SHOWN = 25
DEFAULT_SIZE = (1280, 800)


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

        self.document.replaced.connect(self._on_replaced)
        self.document.rejected.connect(self._show_message)
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

    def _on_clean_changed(self, _clean: bool) -> None:
        self._update_title()

    def _on_edited(self, change: Change) -> None:
        if change.kind == "reset" or change.path[:1] in ((), ("name",)):
            self._update_title()

    # --- title and recent files ----------------------------------------------------------
    def _update_title(self) -> None:
        path = self.document.path
        shown = path.name if path else "Untitled"
        name = self.document.character.name
        parts = [f"{shown}[*]"]
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

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current sheet (saved, discarded, or unchanged)."""
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
        if answer == QMessageBox.StandardButton.Discard:
            self.autosaver.discard()
            return True
        return False

    def offer_recovery(self) -> bool:
        """If unsaved changes to this sheet survived a crash, offer them back (undoable)."""
        found = find_recovery(self.autosaver.directory, self.document.path)
        if found is None:
            return False
        shown = self.document.path.name if self.document.path else "an unsaved sheet"
        when = found.saved_at.strftime("%Y-%m-%d %H:%M")
        answer = QMessageBox.question(
            self, "Recover unsaved changes",
            f"sheet-app closed with unsaved changes to {shown} (last kept {when}).\n\n"
            "Recover them? You can still undo the recovery, or not save it.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        if answer != QMessageBox.StandardButton.Yes:
            found.file.unlink(missing_ok=True)
            return False
        self.document.replace(found.character, "Recover unsaved changes")
        self.statusBar().showMessage("Recovered unsaved changes (Ctrl+Z undoes it)", 6000)
        return True

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
        self.document.load(rules.new_character(), None)
        self.statusBar().showMessage(f"New {rules.name} character", 5000)
        return True

    def open_file(self, path: str | Path | None = None) -> bool:
        if not self.maybe_save():
            return False
        loaded = self._choose_and_load(path, "Open character", "Could not open")
        if loaded is None:
            return False
        file, character = loaded
        self.document.load(character, file)
        self._remember(file)
        self.settings.setValue("lastDir", str(file.parent))
        self.statusBar().showMessage(f"Opened {file.name}", 5000)
        self.offer_recovery()
        return True

    def _choose_and_load(
        self, path: str | Path | None, title: str, verb: str
    ) -> tuple[Path, CharacterBase] | None:
        """Ask for a file unless given one, then read it; problems are shown, not raised."""
        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(self, title, self._start_dir(), FILE_FILTER)
            if not chosen:
                return None
            path = chosen
        character = self._load(Path(path), verb)
        return None if character is None else (Path(path), character)

    def _load(self, path: Path, verb: str) -> CharacterBase | None:
        try:
            return load_character(path)
        except LoadError as exc:
            self.show_problems(f"{verb} {path.name}", exc.problems)
            return None

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
        return self._write(path)

    def save_as(self) -> bool:
        suggested = self.document.path or Path(self._start_dir()) / (
            (self.document.character.name or "character").replace("/", "-") + ".json"
        )
        chosen, _ = QFileDialog.getSaveFileName(self, "Save character as", str(suggested),
                                                FILE_FILTER)
        if not chosen:
            return False
        path = Path(chosen)
        if not path.suffix:
            path = path.with_suffix(".json")
        if not self._write(path):
            return False
        self.document.set_path(path)
        return True

    def _write(self, path: Path) -> bool:
        try:
            save_character(self.document.character, path)
        except OSError as exc:
            QMessageBox.critical(self, "Could not save",
                                 f"Could not save {path}:\n{exc.strerror or exc}")
            return False
        self.document.mark_saved()
        self._remember(path)
        self.settings.setValue("lastDir", str(path.parent))
        self.statusBar().showMessage(f"Saved {path.name}", 5000)
        return True

    def export_json(self) -> bool:
        stem = self.document.path.stem if self.document.path else (
            self.document.character.name or "character")
        suggested = Path(self._start_dir()) / f"{stem}-export.json"
        chosen, _ = QFileDialog.getSaveFileName(self, "Export JSON with derived values",
                                                str(suggested), FILE_FILTER)
        if not chosen:
            return False
        try:
            write_text_atomic(Path(chosen),
                              dumps(character_json(self.document.character, derived=True)))
        except OSError as exc:
            QMessageBox.critical(self, "Could not export",
                                 f"Could not write {chosen}:\n{exc.strerror or exc}")
            return False
        self.statusBar().showMessage(f"Exported {Path(chosen).name} (with derived values)", 5000)
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
        if self.maybe_save():
            self.settings.setValue("window/geometry", self.saveGeometry())
            self.settings.setValue("window/state", self.saveState())
            event.accept()
        else:
            event.ignore()

    def _about(self) -> None:
        QMessageBox.about(
            self, "About sheet-app",
            "<b>sheet-app</b> 0.1.0<br>A d20 character sheet that explains every number.<br>"
            + html.escape(", ".join(s.name for s in registry.all_systems())) + ".",
        )
