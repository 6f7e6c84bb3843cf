"""UI benchmarks, run on demand (the default test run ignores tests/benchmarks).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_ui.py
    .venv/bin/python -m pytest tests/benchmarks/bench_ui.py -o addopts="" -p no:cacheprovider

1. Start-up: building the main window for a sample sheet until it is painted (``grab()``),
   against a bare PySide6 window with the same number and kinds of widgets (target ≤ 1.5×).
2. One score edit until every widget shows the new values: ``document.set`` runs the command,
   ``derive``, the snapshot diff and the widget updates synchronously, so its wall time is
   the time to "all widgets updated" (targets: median < 4 ms typical, < 16 ms heavy). The
   time including the repaint that follows is reported too, and ``derive`` alone for scale.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMenuBar,
    QPushButton,
    QScrollBar,
    QSizeGrip,
    QSpinBox,
    QTabBar,
    QTableView,
    QToolButton,
    QTreeView,
    QWidget,
)

from sheet_app.model import CharacterBase, Effect, Item, Modifier, Weapon
from sheet_app.rules import derive
from sheet_app.systems.runarcana.facts import SKILLS as RUNARCANA_SKILLS
from ui.app import application, sample_character
from ui.main_window import MainWindow

pytestmark = pytest.mark.benchmark

STARTUP_RUNS = 15
EDIT_RUNS = 200
SETTINGS = QSettings(str(Path("/tmp") / "sheet-app-bench.ini"), QSettings.Format.IniFormat)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def heavy_character(broad: bool = False) -> CharacterBase:
    """100 effects × 5 modifiers (the format's limit) and 300 items on the runarcana sample.

    By default the targets are what real sheets carry: mostly single statistics, a fifth of
    them groups (``skill``, ``save``, ``check`` …). ``broad`` makes every modifier target a
    group, so every statistic's breakdown carries hundreds of lines: the worst case.
    """
    character = sample_character("runarcana")
    rng = random.Random(5)
    specific = [f"skill:{s}" for s in RUNARCANA_SKILLS] + [
        "save:str", "save:dex", "save:con", "save:int", "save:wis", "save:cha",
        "ac", "initiative", "attack:melee", "attack:ranged",
    ]
    groups = ["skill", "save", "check", "attack", "uses:dex", "ability"]
    effects = []
    for i in range(100):
        mods = []
        for _ in range(5):
            pool = groups if broad or rng.random() < 0.2 else specific
            mods.append(Modifier(type="untyped", value=rng.choice([-2, -1, 1, 2, 3]),
                                 targets=[rng.choice(pool)]))
        effects.append(Effect(name=f"Effect {i % 75}", active=rng.random() < 0.8,
                              modifiers=mods))
    character.effects = effects
    character.inventory = [Item(name=f"Item {i}", quantity=1 + i % 3, weight=0.1)
                           for i in range(300)]
    return character


def armed_character(system: str = "pf2e", weapons: int = 10) -> CharacterBase:
    """A sample with ``weapons`` weapons on its Weapons tab (the tab a sheet opens on)."""
    character = sample_character(system)
    kinds = [Weapon(name=f"Weapon {i}", attack="ranged" if i % 3 == 2 else "melee",
                    damage=("1d4", "1d6", "1d8", "1d10", "1d12")[i % 5],
                    ability="finesse" if i % 4 == 1 else None)
             for i in range(weapons)]
    data = character.dump()
    data["weapons"] = [w.model_dump(mode="json") for w in kinds]
    return type(character).model_validate(data)


# --- start-up ------------------------------------------------------------------------------


def build_sheet(character: CharacterBase) -> tuple[float, MainWindow]:
    start = time.perf_counter()
    window = MainWindow(character.model_copy(deep=True), settings=SETTINGS)
    window.resize(1280, 800)
    window.show()
    window.grab()
    return time.perf_counter() - start, window


INTERNAL_OWNERS = (QAbstractSpinBox, QComboBox, QAbstractItemView, QTabBar, QMenuBar)
INTERNAL_KINDS = (QScrollBar, QMenu, QHeaderView, QSizeGrip)


def is_internal(widget: QWidget) -> bool:
    """A widget Qt makes inside another (a spin box's line edit, a view's scroll bars, a
    combo box's popup): the bare window's widgets make their own, so it is not counted."""
    if widget.objectName().startswith("qt_") or isinstance(widget, INTERNAL_KINDS):
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, INTERNAL_OWNERS):
            return True
        parent = parent.parentWidget()
    return False


def widget_census(window: QWidget) -> Counter[str]:
    """How many widgets of each kind the sheet itself creates."""
    kinds = (QSpinBox, QComboBox, QLineEdit, QCheckBox, QToolButton, QPushButton, QTableView,
             QTreeView, QLabel)
    census: Counter[str] = Counter()
    for widget in window.findChildren(QWidget):
        if is_internal(widget):
            continue
        kind = next((k.__name__ for k in kinds if isinstance(widget, k)), "QWidget")
        census[kind] += 1
    return census


def build_bare(census: Counter[str]) -> tuple[float, QMainWindow]:
    """A plain QMainWindow holding the same count of each widget kind in one grid."""
    makers: dict[str, Callable[[], QWidget]] = {
        "QSpinBox": QSpinBox, "QComboBox": lambda: _combo(), "QLineEdit": QLineEdit,
        "QCheckBox": lambda: QCheckBox("x"), "QToolButton": QToolButton,
        "QPushButton": lambda: QPushButton("+2"), "QTableView": QTableView,
        "QTreeView": QTreeView,
        "QLabel": lambda: QLabel("Label"), "QWidget": QWidget,
    }
    start = time.perf_counter()
    window = QMainWindow()
    central = QWidget()
    grid = QGridLayout(central)
    n = 0
    for kind, count in census.items():
        for _ in range(count):
            grid.addWidget(makers[kind](), n // 12, n % 12)
            n += 1
    window.setCentralWidget(central)
    window.resize(1280, 800)
    window.show()
    window.grab()
    return time.perf_counter() - start, window


def _combo() -> QComboBox:
    combo = QComboBox()
    combo.addItems(["—", "Proficient", "Expertise", "Expertise ×2"])
    return combo


def startup(system: str = "runarcana") -> dict[str, float]:
    app = application()
    character = sample_character(system)
    _, warm = build_sheet(character)  # first run pays one-off costs (fonts, style, icons)
    census = widget_census(warm)
    _close(warm, app)
    sheet, bare = [], []
    for _ in range(STARTUP_RUNS):
        elapsed, window = build_sheet(character)
        sheet.append(elapsed)
        _close(window, app)
        elapsed, plain = build_bare(census)
        bare.append(elapsed)
        plain.close()
        plain.deleteLater()
        app.processEvents()
    return {
        "widgets": sum(census.values()),
        "sheet_ms": median_ms(sheet),
        "bare_ms": median_ms(bare),
        "ratio": statistics.median(sheet) / statistics.median(bare),
    }


def _close(window: MainWindow, app: QApplication) -> None:
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    app.processEvents()


# --- process start-up ---------------------------------------------------------------------

CHILD_SHEET = """
import os, sys
sys.path.insert(0, {root!r})
from ui.app import application, sample_character
from ui.main_window import MainWindow
app = application()
window = MainWindow(sample_character({system!r}))
window.resize(1280, 800)
window.show()
window.grab()
os._exit(0)
"""

CHILD_BARE = """
import os
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QGridLayout, QLabel,
    QLineEdit, QMainWindow, QPushButton, QSpinBox, QTableView, QToolButton, QTreeView, QWidget)
app = QApplication([])
def combo():
    c = QComboBox()
    c.addItems(["—", "Proficient", "Expertise", "Expertise ×2"])
    return c
makers = {{"QSpinBox": QSpinBox, "QComboBox": combo, "QLineEdit": QLineEdit,
    "QCheckBox": lambda: QCheckBox("x"), "QToolButton": QToolButton,
    "QPushButton": lambda: QPushButton("+2"), "QTableView": QTableView,
    "QTreeView": QTreeView, "QLabel": lambda: QLabel("Label"), "QWidget": QWidget}}
window = QMainWindow()
central = QWidget()
grid = QGridLayout(central)
n = 0
for kind, count in {census!r}.items():
    for _ in range(count):
        grid.addWidget(makers[kind](), n // 12, n % 12)
        n += 1
window.setCentralWidget(central)
window.resize(1280, 800)
window.show()
window.grab()
os._exit(0)
"""

PROCESS_RUNS = 7


def process_startup(system: str = "runarcana") -> dict[str, float]:
    """Launching Python until the window is painted: imports (PySide6, and for the sheet
    pydantic and the models) included, as a player waits for them."""
    import subprocess

    app = application()
    _, warm = build_sheet(sample_character(system))
    census = dict(widget_census(warm))
    _close(warm, app)
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    scripts = {"sheet": CHILD_SHEET.format(root=root, system=system),
               "bare": CHILD_BARE.format(census=census)}
    times: dict[str, list[float]] = {"sheet": [], "bare": []}
    for _ in range(PROCESS_RUNS):
        for name, code in scripts.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True,
                           capture_output=True)
            times[name].append(time.perf_counter() - start)
    return {
        "sheet_ms": median_ms(times["sheet"]),
        "bare_ms": median_ms(times["bare"]),
        "ratio": statistics.median(times["sheet"]) / statistics.median(times["bare"]),
    }


# --- one edit ------------------------------------------------------------------------------


def edit_latency(
    character: CharacterBase, scores: tuple[int, ...] = (8, 15, 20, 12)
) -> dict[str, float]:
    app = application()
    _, window = build_sheet(character)
    document = window.document
    window.selection.select("skill:athletics")  # the panel shows a statistic the edit changes
    synchronous, painted, derives = [], [], []
    for i in range(EDIT_RUNS):
        value = scores[i % len(scores)]
        start = time.perf_counter()
        document.set(("abilities", "str"), value, merge=False)
        mid = time.perf_counter()
        app.processEvents()  # layout and repaint of what changed
        end = time.perf_counter()
        synchronous.append(mid - start)
        painted.append(end - start)
        t = time.perf_counter()
        derive(document.character)
        derives.append(time.perf_counter() - t)
    updates = window.binder.updates
    _close(window, app)
    return {
        "updated_ms": median_ms(synchronous),
        "painted_ms": median_ms(painted),
        "derive_ms": median_ms(derives),
        "widgets_touched": updates,
    }


# --- pytest entry points -------------------------------------------------------------------


def test_startup_within_1_5x_of_bare_window() -> None:
    result = startup()
    print(result)
    if result["ratio"] > 1.5:
        pytest.xfail(f"start-up is {result['ratio']:.2f}× a bare window of the same widgets "
                     f"({result['sheet_ms']:.1f} ms against {result['bare_ms']:.1f} ms)")


def test_typical_edit_under_4_ms() -> None:
    result = edit_latency(sample_character("runarcana"))
    print(result)
    assert result["updated_ms"] < 4


def test_edit_with_ten_weapons_under_4_ms() -> None:
    result = edit_latency(armed_character(), (0, 2, 4, 1))
    print(result)
    assert result["updated_ms"] < 4


def test_heavy_edit_under_16_ms() -> None:
    result = edit_latency(heavy_character())
    print(result)
    assert result["updated_ms"] < 16


def test_heavy_sheet_starts_fast() -> None:
    app = application()
    times = []
    for _ in range(5):
        elapsed, window = build_sheet(heavy_character())
        times.append(elapsed)
        _close(window, app)
    print(f"heavy sheet start-up {median_ms(times):.1f} ms")
    assert median_ms(times) < 250


def main() -> None:
    application()
    for system in ("runarcana", "pf2e", "d20srd"):
        r = startup(system)
        print(f"window   {system:9}: {r['sheet_ms']:7.1f} ms for {r['widgets']:.0f} widgets; "
              f"bare window {r['bare_ms']:6.1f} ms; ratio {r['ratio']:.2f} (target ≤ 1.5)")
    for system in ("runarcana",):
        r = process_startup(system)
        print(f"process  {system:9}: {r['sheet_ms']:7.1f} ms launch to painted sheet; "
              f"bare PySide6 window {r['bare_ms']:6.1f} ms; ratio {r['ratio']:.2f}")
    scores = (8, 15, 20, 12)
    cases = [
        ("typical (runarcana sample)", sample_character("runarcana"), 4, scores),
        ("typical (pf2e sample)", sample_character("pf2e"), 4, (0, 2, 4, 1)),
        ("typical (d20srd sample)", sample_character("d20srd"), 4, scores),
        ("ten weapons (pf2e sample)", armed_character("pf2e"), 4, (0, 2, 4, 1)),
        ("ten weapons (dnd5e sample)", armed_character("dnd5e"), 4, scores),
        ("heavy (100×5 modifiers, 300 items)", heavy_character(), 16, scores),
        ("heavy, every modifier on a group", heavy_character(broad=True), 16, scores),
    ]
    app = application()
    heavy = []
    for _ in range(5):
        elapsed, window = build_sheet(heavy_character())
        heavy.append(elapsed)
        _close(window, app)
    print(f"window   heavy    : {median_ms(heavy):7.1f} ms (100×5 modifiers, 300 items)")
    for label, character, target, values in cases:
        r = edit_latency(character, values)
        print(f"Str edit, {label:36}: updated {r['updated_ms']:6.2f} ms (target < {target}); "
              f"with repaint {r['painted_ms']:6.2f} ms; derive alone {r['derive_ms']:6.2f} ms; "
              f"{r['widgets_touched']:.0f} displays touched")


if __name__ == "__main__":
    main()
