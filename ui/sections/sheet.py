"""A whole character sheet for one system, assembled from the sections."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ui.binding import qt_signals_blocked
from ui.context import SheetContext
from ui.sections.abilities import AbilitiesSection
from ui.sections.combat import CombatSection, DefenseSection, HitPointsSection
from ui.sections.header import HeaderSection
from ui.sections.inventory import InventoryPanel
from ui.sections.skills import SavesSection, SkillsSection
from ui.sections.weapons import WeaponsPanel
from ui.widgets import Explainer, slot

if TYPE_CHECKING:
    from ui.sections.armor import ArmorPanel
    from ui.sections.effects import EffectsPanel


def _effects_panel(ctx: SheetContext) -> QWidget:
    from ui.sections.effects import EffectsPanel  # imported with its tab, on first show

    return EffectsPanel(ctx)


def _armor_panel(ctx: SheetContext) -> QWidget:
    from ui.sections.armor import ArmorPanel

    return ArmorPanel(ctx)


class NotesEdit(QPlainTextEdit):
    """Free notes, bound to ``notes``; typing merges into one undo step per pause."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setAccessibleName("Notes")
        self.setPlaceholderText("Notes: background, spells, allies, loot to sell…")
        self.textChanged.connect(slot(self._edited))
        ctx.binder.bind_input(("notes",), self.refresh)

    def _edited(self) -> None:
        self.ctx.document.set(("notes",), self.toPlainText(), "Edit notes")

    def refresh(self, value: Any) -> None:
        if value != self.toPlainText():
            with qt_signals_blocked(self):
                self.setPlainText(str(value or ""))


class LazyTab(QWidget):
    """A tab whose content is built the first time it is shown (or asked for), so opening
    a sheet pays only for what is on screen."""

    def __init__(self, build: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._content: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    @property
    def built(self) -> bool:
        return self._content is not None

    def content(self) -> QWidget:
        if self._content is None:
            self._content = self._build()
            layout = self.layout()
            assert layout is not None
            layout.addWidget(self._content)
        return self._content

    def showEvent(self, event: QShowEvent) -> None:
        self.content()
        super().showEvent(event)


class SheetWidget(QWidget):
    """Header on top; abilities and saves, skills, and combat in three columns; weapons
    (the tab open at first: what a fight needs), inventory, effects, armor and notes in tabs
    below. Only what the system has is built."""

    def __init__(self, ctx: SheetContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("sheet")
        self.setProperty("system", ctx.system)
        self.explainer = Explainer(self)
        self.installEventFilter(self.explainer)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 4)
        outer.setSpacing(4)
        self.header = HeaderSection(ctx)
        outer.addWidget(self.header)

        columns = QWidget()
        row = QHBoxLayout(columns)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        left = QVBoxLayout()
        left.setSpacing(6)
        self.abilities = AbilitiesSection(ctx)
        self.saves = SavesSection(ctx)
        left.addWidget(self.abilities)
        left.addWidget(self.saves)
        left.addStretch(1)
        self.skills = SkillsSection(ctx)
        right = QVBoxLayout()
        right.setSpacing(6)
        self.hit_points = HitPointsSection(ctx)
        self.defense = DefenseSection(ctx)
        self.combat = CombatSection(ctx)
        right.addWidget(self.hit_points)
        right.addWidget(self.defense)
        right.addWidget(self.combat)
        right.addStretch(1)
        row.addLayout(left, 4)
        row.addWidget(self.skills, 7)
        row.addLayout(right, 5)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("sheetTabs")
        self.weapons = WeaponsPanel(ctx)
        self.inventory = InventoryPanel(ctx)
        self._effects = LazyTab(lambda: _effects_panel(ctx))
        self._armor = LazyTab(lambda: _armor_panel(ctx))
        self._notes = LazyTab(lambda: NotesEdit(ctx))
        self.tabs.addTab(self.weapons, "Weapons")
        self.tabs.addTab(self.inventory, "Inventory")
        self.tabs.addTab(self._effects, "Effects")
        self.tabs.addTab(self._armor, "Armor")
        self.tabs.addTab(self._notes, "Notes")

        split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("sheetSplit")
        split.addWidget(columns)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        outer.addWidget(split, 1)

    @property
    def effects(self) -> EffectsPanel:
        from ui.sections.effects import EffectsPanel

        panel = self._effects.content()
        assert isinstance(panel, EffectsPanel)
        return panel

    @property
    def armor(self) -> ArmorPanel:
        from ui.sections.armor import ArmorPanel

        panel = self._armor.content()
        assert isinstance(panel, ArmorPanel)
        return panel

    @property
    def notes(self) -> NotesEdit:
        edit = self._notes.content()
        assert isinstance(edit, NotesEdit)
        return edit

    def detach(self) -> None:
        """Let go of the document before this sheet is dropped: its tables forget their rows
        (the document may already hold another system's character)."""
        self.inventory.model.detach()
        if self._effects.built:
            self.effects.model.detach()
            self.effects.modifiers.detach()

    def default_statistic(self) -> str:
        """The statistic the roll panel shows first: the check behind the first passive
        value (Perception, mostly), else the first one the system has."""
        stats = self.ctx.document.derived.statistics
        for passive in self.ctx.sheet.passives:
            if passive.stat_id in stats:
                return passive.stat_id
        return next(iter(stats), "")
