"""Shared helpers for the core's tests. Qt-free: nothing here imports PySide6 or ``ui``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import strategies as st

from sheet_app.systems import (
    ABILITIES,
    D20_SKILLS,
    MODIFIER_TYPES,
    PF2E_RANKS,
    PF2E_SKILLS,
    ROLL_MODES,
    RUNARCANA_RANKS,
    RUNARCANA_SKILLS,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES_DIR = ROOT / "resources" / "samples"
SYSTEM_IDS = ("pf2e", "runarcana", "d20srd")
SAMPLES = {system: SAMPLES_DIR / f"{system}.json" for system in SYSTEM_IDS}


@dataclass(frozen=True)
class Run:
    """What one ``sheet-app`` invocation did."""

    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def run_subprocess(*args: str | os.PathLike[str], cwd: Path | None = None) -> Run:
    """``python -m sheet_app ARGS`` in a fresh interpreter, as a user would run it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "sheet_app", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
        check=False,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """Run ``sheet_app.cli.main`` in-process; argparse's own exits count as a return code."""
    from sheet_app.cli import main

    def call(*args: str | os.PathLike[str]) -> Run:
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse: --help, usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return call


def with_unknown_keys(data: dict[str, object]) -> dict[str, object]:
    """The document plus unknown keys at the top and at every nested object level."""
    out = json.loads(json.dumps(data))
    out["x_future"] = {"nested": [1, {"deeper": None}], "flag": True, "text": "ünïcödé ✓"}
    for key in ("abilities", "hit_points", "options", "armor"):
        out.setdefault(key, {})
        out[key][f"x_{key}"] = [key, 1.5]  # type: ignore[index]
    out["effects"] = [*out.get("effects", []),  # type: ignore[list-item]
                      {"name": "Future", "x_icon": "star",
                       "modifiers": [{"value": 1, "targets": ["check"], "x_note": {"a": 1}}]}]
    out["inventory"] = [*out.get("inventory", []), {"name": "Relic", "x_rarity": "rare"}]  # type: ignore[list-item]
    return out


def snapshot(path: Path) -> tuple[bytes, int]:
    """A file's bytes and mtime (ns), to prove a command left it alone."""
    return path.read_bytes(), path.stat().st_mtime_ns


# --- generated characters (hypothesis) ----------------------------------------------------
# Plain functions, imported by the property tests as ``tests.conftest``.

_COMMON_TARGETS = (
    "check", "skill", "save", "attack", "ac", "initiative", "attack:melee", "attack:ranged",
    *(f"uses:{a}" for a in ABILITIES), *(f"score:{a}" for a in ABILITIES),
)
TARGETS: dict[str, tuple[str, ...]] = {
    "runarcana": (
        *_COMMON_TARGETS, "ability", *(f"ability:{a}" for a in ABILITIES),
        *(f"skill:{s}" for s in RUNARCANA_SKILLS), *(f"save:{a}" for a in ABILITIES),
    ),
    "pf2e": (
        *_COMMON_TARGETS, "perception", *(f"skill:{s}" for s in PF2E_SKILLS),
        "save:fortitude", "save:reflex", "save:will",
    ),
    "d20srd": (
        *_COMMON_TARGETS, "ability", *(f"ability:{a}" for a in ABILITIES),
        *(f"skill:{s}" for s in D20_SKILLS), "save:fortitude", "save:reflex", "save:will",
        "ac:touch", "ac:flat_footed", "ac:armor", "ac:shield", "ac:natural_armor",
    ),
}
"""Every target a modifier of that system may name (all pass ``validate``)."""

EFFECT_NAMES = ("Bless", "Haste", "Ring", "Cloak", "Aura", "Curse", "Shield of Faith", "Rage")
"""A small pool, so generated sheets often hold two effects from one source."""


def modifiers(system: str) -> st.SearchStrategy[dict[str, object]]:
    targets = st.lists(st.sampled_from(TARGETS[system]), min_size=1, max_size=3, unique=True)
    valued = st.fixed_dictionaries(
        {"type": st.sampled_from(MODIFIER_TYPES[system]), "value": st.integers(-6, 6),
         "targets": targets}
    )
    if not ROLL_MODES[system]:
        return valued
    moded = st.fixed_dictionaries(
        {"mode": st.sampled_from(ROLL_MODES[system]), "targets": targets}
    )
    return st.one_of(valued, valued, valued, moded)


def effects(system: str, max_size: int = 8) -> st.SearchStrategy[list[dict[str, object]]]:
    effect = st.fixed_dictionaries(
        {"name": st.sampled_from(EFFECT_NAMES), "active": st.booleans(),
         "modifiers": st.lists(modifiers(system), min_size=1, max_size=4)}
    )
    return st.lists(effect, max_size=max_size)


def _header(system: str) -> dict[str, object]:
    return {"format": "sheet-app/character", "version": 1, "system": system}


@st.composite
def character_docs(draw: st.DrawFn, system: str | None = None) -> dict[str, object]:
    """A valid character document (a dict, as ``json.loads`` would give) of ``system``."""
    system = system or draw(st.sampled_from(SYSTEM_IDS))
    doc: dict[str, object] = {
        **_header(system),
        "name": draw(st.text(max_size=12)),
        "level": draw(st.integers(1, 20)),
        "size": draw(st.sampled_from(("small", "medium", "large"))),
        "effects": draw(effects(system)),
    }
    if system == "pf2e":
        doc["abilities"] = {a: draw(st.integers(-5, 7)) for a in ABILITIES}
        doc["skills"] = draw(st.dictionaries(st.sampled_from(tuple(PF2E_SKILLS)),
                                             st.sampled_from(PF2E_RANKS), max_size=4))
        doc["perception"] = draw(st.sampled_from(PF2E_RANKS))
        doc["inventory"] = draw(st.lists(st.fixed_dictionaries(
            {"name": st.just("Thing"), "quantity": st.integers(0, 12),
             "bulk": st.one_of(st.just("L"), st.integers(0, 4))}), max_size=5))
        doc["armor"] = {"item_bonus": draw(st.integers(0, 3)),
                        "dex_cap": draw(st.one_of(st.none(), st.integers(0, 5))),
                        "check_penalty": draw(st.integers(-3, 0))}
        return doc
    low = 1 if system == "runarcana" else 0
    scores = {a: draw(st.integers(max(low, 3), 20)) for a in ABILITIES}
    if system == "d20srd" and draw(st.booleans()):
        scores["int"] = draw(st.sampled_from((None, 0)))  # a construct, or Int 0
    doc["abilities"] = scores
    doc["inventory"] = draw(st.lists(st.fixed_dictionaries(
        {"name": st.just("Thing"), "quantity": st.integers(0, 5),
         "weight": st.floats(0, 60, allow_nan=False).map(lambda w: round(w, 1))}),
        max_size=5))
    doc["hit_points"] = {"hit_die": draw(st.sampled_from((6, 8, 10, 12)))}
    if system == "runarcana":
        doc["skills"] = draw(st.dictionaries(st.sampled_from(tuple(RUNARCANA_SKILLS)),
                                             st.sampled_from(RUNARCANA_RANKS), max_size=4))
        doc["options"] = {"variant_encumbrance": draw(st.booleans())}
    else:
        doc["skill_ranks"] = draw(st.dictionaries(st.sampled_from(tuple(D20_SKILLS)),
                                                  st.integers(0, 10), max_size=4))
        doc["base_attack_bonus"] = draw(st.integers(0, 10))
        doc["options"] = {"sacred_profane": draw(st.sampled_from((None, "sacred", "profane")))}
        doc["armor"] = {"armor_bonus": draw(st.integers(0, 5)),
                        "shield_bonus": draw(st.integers(0, 2)),
                        "natural_armor": draw(st.integers(0, 2)),
                        "max_dex": draw(st.one_of(st.none(), st.integers(0, 5)))}
    return doc
