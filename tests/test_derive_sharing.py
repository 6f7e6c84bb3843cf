"""derive() stacks a set of effects once and shares the result among the statistics that the
same effects reach; that sharing must never change a single line of the snapshot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from sheet_app.derived import ModifierLine
from sheet_app.io import character_from_data
from sheet_app.rules import builder, derive
from sheet_app.rules.common import Contribution
from tests.helpers import character_docs


def _unshared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        builder.StatisticBuilder, "_stack_effects", lambda self, stack, found: stack(found)
    )


@settings(max_examples=150, deadline=None)
@given(doc=character_docs())
def test_sharing_stacked_effects_changes_nothing(doc: dict[str, object]) -> None:
    character = character_from_data(doc)
    shared = derive(character)
    with pytest.MonkeyPatch.context() as mp:
        _unshared(mp)
        fresh = derive(character)
    assert shared == fresh


def test_sharing_is_used_for_group_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = builder.StatisticBuilder._stack_effects

    def counting(self: builder.StatisticBuilder, stack: builder.Stacker,
                 found: list[Contribution]) -> tuple[ModifierLine, ...]:
        calls.append(len(self._stacked))
        return original(self, stack, found)

    monkeypatch.setattr(builder.StatisticBuilder, "_stack_effects", counting)
    character = character_from_data({
        "format": "sheet-app/character", "version": 1, "system": "runarcana",
        "effects": [{"name": "Bless", "modifiers": [
            {"type": "status", "value": 1, "targets": ["check"]}]}]})
    derive(character)
    # Every check sees the same single effect: it is stacked once, then reused.
    assert len(calls) > 20
    assert calls[-1] <= 3
