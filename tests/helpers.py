"""Helpers shared by the core's tests (Qt-free): subprocess runs, file snapshots, and
hypothesis strategies for valid characters of every registered system."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from sheet_app import registry
from sheet_app.facts import ABILITIES
from sheet_app.systems import BUILT_IN

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_IDS = registry.known_ids()


def sample_path(system: str) -> Path:
    """The sample character shipped in a built-in system's package."""
    return ROOT.joinpath(*BUILT_IN[system].split("."), "sample.json")


SAMPLES = {system: sample_path(system) for system in SYSTEM_IDS}


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


def with_unknown_keys(data: dict[str, object]) -> dict[str, object]:
    """The document plus unknown keys at the top and at every nested object level."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    out["x_future"] = {"nested": [1, {"deeper": None}], "flag": True, "text": "ünïcödé ✓"}
    for key in ("abilities", "hit_points", "options", "armor"):
        out.setdefault(key, {})
        out[key][f"x_{key}"] = [key, 1.5]
    out["effects"] = [*out.get("effects", []),
                      {"name": "Future", "x_icon": "star",
                       "modifiers": [{"value": 1, "targets": ["check"], "x_note": {"a": 1}}]}]
    out["inventory"] = [*out.get("inventory", []), {"name": "Relic", "x_rarity": "rare"}]
    return out


def snapshot(path: Path) -> tuple[bytes, int]:
    """A file's bytes and mtime (ns), to prove a command left it alone."""
    return path.read_bytes(), path.stat().st_mtime_ns


# --- generated characters (hypothesis) ----------------------------------------------------

_COMMON_TARGETS = (
    "check", "skill", "save", "attack", "ac", "initiative", "attack:melee", "attack:ranged",
    *(f"uses:{a}" for a in ABILITIES), *(f"score:{a}" for a in ABILITIES),
)


def _targets(system: str) -> tuple[str, ...]:
    facts = registry.get(system).facts
    out = [*_COMMON_TARGETS, *(f"skill:{s}" for s in facts.skills),
           *(f"save:{s}" for s in facts.saves), *facts.extra_targets]
    if facts.has_ability_checks:
        out += ["ability", *(f"ability:{a}" for a in ABILITIES)]
    if "perception" in facts.groups:
        out.append("perception")
    return tuple(out)


TARGETS: dict[str, tuple[str, ...]] = {system: _targets(system) for system in SYSTEM_IDS}
"""Every target a modifier of that system may name (all pass ``validate``)."""

EFFECT_NAMES = ("Bless", "Haste", "Ring", "Cloak", "Aura", "Curse", "Shield of Faith", "Rage")
"""A small pool, so generated sheets often hold two effects from one source."""


def modifiers(system: str) -> st.SearchStrategy[dict[str, object]]:
    facts = registry.get(system).facts
    targets = st.lists(st.sampled_from(TARGETS[system]), min_size=1, max_size=3, unique=True)
    valued = st.fixed_dictionaries(
        {"type": st.sampled_from(facts.modifier_types), "value": st.integers(-6, 6),
         "targets": targets}
    )
    if not facts.roll_modes:
        return valued
    moded = st.fixed_dictionaries(
        {"mode": st.sampled_from(facts.roll_modes), "targets": targets}
    )
    return st.one_of(valued, valued, valued, moded)


def effects(system: str, max_size: int = 8) -> st.SearchStrategy[list[dict[str, object]]]:
    effect = st.fixed_dictionaries(
        {"name": st.sampled_from(EFFECT_NAMES), "active": st.booleans(),
         "modifiers": st.lists(modifiers(system), min_size=1, max_size=4)}
    )
    return st.lists(effect, max_size=max_size)


def _header(system: str) -> dict[str, object]:
    return {"format": "sheet-app/character", "version": 2, "system": system}


@st.composite
def character_docs(draw: st.DrawFn, system: str | None = None) -> dict[str, Any]:
    """A valid character document (a dict, as ``json.loads`` would give) of ``system``."""
    system = system or draw(st.sampled_from(SYSTEM_IDS))
    facts = registry.get(system).facts
    doc: dict[str, Any] = {
        **_header(system),
        "name": draw(st.text(max_size=12)),
        "level": draw(st.integers(1, 20)),
        "size": draw(st.sampled_from(("small", "medium", "large"))),
        "effects": draw(effects(system)),
    }
    if facts.ability_kind == "modifier":  # pf2e
        doc["abilities"] = {a: draw(st.integers(-5, 7)) for a in ABILITIES}
        doc["skills"] = draw(st.dictionaries(st.sampled_from(tuple(facts.skills)),
                                             st.sampled_from(facts.ranks), max_size=4))
        doc["perception"] = draw(st.sampled_from(facts.ranks))
        doc["inventory"] = draw(st.lists(st.fixed_dictionaries(
            {"name": st.just("Thing"), "quantity": st.integers(0, 12),
             "bulk": st.one_of(st.just("L"), st.integers(0, 4))}), max_size=5))
        doc["armor"] = {"item_bonus": draw(st.integers(0, 3)),
                        "dex_cap": draw(st.one_of(st.none(), st.integers(0, 5))),
                        "check_penalty": draw(st.integers(-3, 0))}
        return doc
    scores: dict[str, int | None] = {a: draw(st.integers(3, 20)) for a in ABILITIES}
    bought_ranks = not facts.ranks  # d20srd
    if bought_ranks and draw(st.booleans()):
        scores["int"] = draw(st.sampled_from((None, 0)))  # a construct, or Int 0
    doc["abilities"] = scores
    doc["inventory"] = draw(st.lists(st.fixed_dictionaries(
        {"name": st.just("Thing"), "quantity": st.integers(0, 5),
         "weight": st.floats(0, 60, allow_nan=False).map(lambda w: round(w, 1))}),
        max_size=5))
    doc["hit_points"] = {"hit_die": draw(st.sampled_from((6, 8, 10, 12)))}
    if not bought_ranks:  # 5e-style
        doc["skills"] = draw(st.dictionaries(st.sampled_from(tuple(facts.skills)),
                                             st.sampled_from(facts.ranks), max_size=4))
        doc["options"] = {"variant_encumbrance": draw(st.booleans())}
    else:
        doc["skill_ranks"] = draw(st.dictionaries(st.sampled_from(tuple(facts.skills)),
                                                  st.integers(0, 10), max_size=4))
        doc["base_attack_bonus"] = draw(st.integers(0, 10))
        doc["options"] = {"sacred_profane": draw(st.sampled_from((None, "sacred", "profane")))}
        doc["armor"] = {"bonus": draw(st.integers(0, 5)),
                        "max_dex": draw(st.one_of(st.none(), st.integers(0, 5))),
                        "check_penalty": draw(st.integers(-4, 0))}
        doc["shield"] = {"bonus": draw(st.integers(0, 2)),
                         "check_penalty": draw(st.integers(-2, 0))}
        doc["natural_armor"] = draw(st.integers(0, 2))
    return doc
