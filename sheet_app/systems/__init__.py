"""The built-in rule systems, one package each. Adding a system is one package and one line."""

from __future__ import annotations

from typing import Final

BUILT_IN: Final[dict[str, str]] = {
    "pf2e": "sheet_app.systems.pf2e",
    "runarcana": "sheet_app.systems.runarcana",
    "d20srd": "sheet_app.systems.d20srd",
    "dnd5e": "sheet_app.systems.dnd5e",
}
"""System id → the module whose ``SYSTEM`` implements `sheet_app.registry.RuleSystem`."""
