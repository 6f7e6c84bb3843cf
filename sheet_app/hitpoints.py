"""Hit points in play: damage, healing, temporary hit points, and what happens at 0.

Every function here is pure: it reads a character (and its `Derived` values for the maximum)
and returns an `HpChange`, the ``hit_points`` fields to set plus one line for the roll log; the
character given is never changed. `hp_edits` turns a change into `edit.Set` steps and
`as_batch` adds the roll-log entry, so the window applies the whole action as one undo step.

What happens at 0 hit points is the system's ``facts.death_rule``:

``dying`` (pf2e)
    Current HP stop at 0. Dropping to 0 gives dying 1 (dying 2 from a critical hit) plus the
    wounded value; damage while dying adds 1 (2 on a critical). A recovery check is a flat
    check against DC 10 + dying. Losing dying (by healing or recovery) adds 1 to wounded. Dying
    4 minus the doomed value is death; damage of at least twice the maximum in one blow kills
    outright (massive damage).
``death_saves`` (5e-style)
    Current HP stop at 0. At 0, damage is a failed death save (two on a critical hit), and
    damage at least the maximum (or, when dropping to 0, what is left over after reaching 0) is
    instant death. Death saves: d20, 10 or more succeeds, a natural 20 regains 1 HP, a natural
    1 is two failures; three successes stabilise, three failures kill. Healing resets them.
    A stable creature is kept as three successes (and no failures); exhaustion 6 is death.
``negative_hp`` (d20srd)
    Current HP go below 0: 0 is disabled, −1 to −9 dying (or stable, with the ``stable``
    condition), −10 or lower dead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Final, Literal

from sheet_app import registry
from sheet_app.checks import degree_of_success
from sheet_app.derived import Derived, Outcome
from sheet_app.edit import Batch, Remove, Set, get_path, same
from sheet_app.facts import MINUS
from sheet_app.model import CharacterBase
from sheet_app.records import RollRecord
from sheet_app.rolls import append_record
from sheet_app.rules.common import active_condition

HpKind = Literal["hit_points", "death_save", "recovery"]
Severity = Literal["ok", "warn", "danger", "dead"]
"""How the window colours a state: fine, take care, in danger of dying, dead."""
StateKey = Literal["healthy", "hurt", "bloodied", "over_max", "unconscious", "stable",
                   "dying", "disabled", "dead"]

HP_MIN: Final = -10_000
HP_MAX: Final = 10_000
D20_DEAD_AT: Final = -10
"""d20srd: dead at -10 hit points."""
D20_MASSIVE: Final = 50
"""d20srd: damage of 50 or more from one attack calls for a DC 15 Fortitude save or death."""
PF2E_DEATH: Final = 4
"""pf2e: dying 4 is death (less the doomed value)."""
WOUNDED_MAX: Final = 3
"""pf2e: wounded 3 already makes the next fall dying 4, so the file keeps no more."""


@dataclass(frozen=True, slots=True)
class HpChange:
    """What an action does to hit points: the fields to set and a line for the roll log."""

    values: Mapping[str, Any]
    """The ``hit_points`` fields that change, with their new values; ``death_saves`` is a dict
    ``{"successes": n, "failures": n}``. Empty when nothing changes."""
    text: str
    """One line for the roll log: what happened, in words."""
    current: int
    """Current hit points after the action."""
    kind: HpKind = "hit_points"
    die: int | None = None
    """The d20 rolled (death save, recovery check)."""
    dc: int | None = None
    outcome: Outcome | None = None

    @property
    def changed(self) -> bool:
        return bool(self.values)


@dataclass(frozen=True, slots=True)
class HpState:
    """Hit points in words, for the sheet: ``key`` for logic, ``words`` to show, ``severity``
    for the colour."""

    key: StateKey
    words: str
    severity: Severity


@dataclass(frozen=True, slots=True)
class _Hp:
    """The hit-point fields the rules read, with defaults where a system has none."""

    current: int
    temporary: int
    dying: int = 0
    wounded: int = 0
    successes: int = 0
    failures: int = 0


# --- reading -------------------------------------------------------------------------------


def _rule(character: CharacterBase) -> str:
    return registry.get(character.system).facts.death_rule


def _fields(character: CharacterBase) -> Any:
    return getattr(character, "hit_points")  # noqa: B009 - every system's model has one


def _read(character: CharacterBase) -> _Hp:
    hp = _fields(character)
    saves = getattr(hp, "death_saves", None)
    return _Hp(
        current=int(hp.current),
        temporary=int(hp.temporary),
        dying=int(getattr(hp, "dying", 0) or 0),
        wounded=int(getattr(hp, "wounded", 0) or 0),
        successes=int(getattr(saves, "successes", 0) or 0),
        failures=int(getattr(saves, "failures", 0) or 0),
    )


def _values(character: CharacterBase, old: _Hp, new: _Hp) -> dict[str, Any]:
    """The fields of ``new`` that differ from ``old`` and that the model has."""
    known = type(_fields(character)).model_fields
    out: dict[str, Any] = {}
    for name in ("current", "temporary", "dying", "wounded"):
        if name in known and getattr(new, name) != getattr(old, name):
            out[name] = getattr(new, name)
    if "death_saves" in known and (new.successes, new.failures) != (old.successes,
                                                                     old.failures):
        out["death_saves"] = {"successes": new.successes, "failures": new.failures}
    return out


def _change(character: CharacterBase, old: _Hp, new: _Hp, text: str,
            **extra: Any) -> HpChange:
    return HpChange(_values(character, old, new), text, new.current, **extra)


def death_at(character: CharacterBase) -> int:
    """pf2e: the dying value that kills, 4 less the doomed value (0 or less: dead already)."""
    return PF2E_DEATH - active_condition(character, "doomed")


def _dead(character: CharacterBase, hp: _Hp, rule: str) -> str | None:
    """Why the character is dead, or ``None``."""
    if rule == "dying":
        doomed = active_condition(character, "doomed")
        if doomed >= PF2E_DEATH:
            return f"doomed {doomed}"
        if hp.dying >= death_at(character):
            return f"dying {hp.dying}"
    elif rule == "death_saves":
        if hp.failures >= 3:
            return "three failed death saves"
        exhaustion = active_condition(character, "exhaustion")
        if exhaustion >= 6:
            return f"exhaustion {exhaustion}"
    elif hp.current <= D20_DEAD_AT:
        return f"{_n(hp.current)} HP"
    return None


def _n(value: int) -> str:
    return str(value).replace("-", MINUS)


def _plural(count: int, word: str, many: str) -> str:
    return f"{count} {word if count == 1 else many}"


def _saves(hp: _Hp) -> str:
    return (f"{_plural(hp.successes, 'success', 'successes')}, "
            f"{_plural(hp.failures, 'failure', 'failures')}")


def _amount(amount: int, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"{what} must be a whole number, not {amount!r}")
    if amount < 0:
        raise ValueError(f"{what} must be 0 or more, not {amount}")
    return min(amount, 2 * HP_MAX)


# --- the state -----------------------------------------------------------------------------


def state(character: CharacterBase, derived: Derived) -> HpState:
    """The character's hit points in words, by the system's rule at 0."""
    rule = _rule(character)
    hp = _read(character)
    why = _dead(character, hp, rule)
    if why is not None:
        return HpState("dead", f"dead ({why})", "dead")
    suffix = f", wounded {hp.wounded}" if rule == "dying" and hp.wounded else ""
    if rule == "dying":
        if hp.dying > 0:
            doom = (f", dies at dying {death_at(character)}"
                    if death_at(character) < PF2E_DEATH else "")
            return HpState("dying", f"dying {hp.dying}{suffix}{doom}", "danger")
        if hp.current <= 0:
            return HpState("unconscious", f"unconscious at 0 HP{suffix}", "warn")
    elif rule == "death_saves":
        if hp.current <= 0:
            if hp.successes >= 3:
                return HpState("stable", "stable (unconscious at 0 HP)", "warn")
            return HpState("dying", f"unconscious ({_saves(hp)})", "danger")
    else:
        if hp.current == 0:
            return HpState("disabled", "disabled (0 HP)", "warn")
        if hp.current < 0:
            if active_condition(character, "stable"):
                return HpState("stable", f"stable ({_n(hp.current)} HP)", "warn")
            return HpState("dying", f"dying ({_n(hp.current)} HP)", "danger")
    maximum = derived.hit_points.max
    if hp.current > maximum:
        return HpState("over_max", f"over maximum ({hp.current} of {maximum}){suffix}", "warn")
    if hp.current >= maximum:
        return HpState("healthy", f"healthy{suffix}", "ok")
    if 2 * hp.current > maximum:
        return HpState("hurt", f"hurt{suffix}", "ok")
    return HpState("bloodied", f"bloodied{suffix}", "warn")


def needs_death_save(character: CharacterBase) -> bool:
    """5e-style: at 0 HP, neither stable nor dead (the Roll death save button)."""
    hp = _read(character)
    return (_rule(character) == "death_saves" and hp.current <= 0 and hp.successes < 3
            and _dead(character, hp, "death_saves") is None)


def needs_recovery_check(character: CharacterBase) -> bool:
    """pf2e: dying and not dead (the Recovery check button)."""
    hp = _read(character)
    return (_rule(character) == "dying" and hp.dying > 0
            and _dead(character, hp, "dying") is None)


# --- damage, healing, temporary hit points -------------------------------------------------


def take_damage(
    character: CharacterBase, derived: Derived, amount: int, critical: bool = False
) -> HpChange:
    """``amount`` damage: temporary HP absorb it first, then current HP drop, and the system's
    rule at 0 applies (``critical``: the damage came from a critical hit)."""
    amount = _amount(amount, "damage")
    rule = _rule(character)
    old = _read(character)
    why = _dead(character, old, rule)
    crit = " (critical)" if critical else ""
    if why is not None:
        return _change(character, old, old, f"Took {amount} damage{crit}: already dead")
    absorbed = min(old.temporary, amount)
    rest = amount - absorbed
    new = replace(old, temporary=old.temporary - absorbed)
    head = f"Took {amount} damage{crit}"
    if absorbed:
        head += f", {absorbed} to temporary HP"
    maximum = derived.hit_points.max
    notes: list[str] = []
    if rule == "negative_hp":
        new = replace(new, current=max(HP_MIN, old.current - rest))
        if new.current <= D20_DEAD_AT:
            notes.append("dead")
        elif new.current < 0:
            notes.append("dying")
        elif new.current == 0:
            notes.append("disabled")
        if amount >= D20_MASSIVE and new.current > D20_DEAD_AT:
            notes.append(f"massive damage ({D20_MASSIVE} or more): Fortitude DC 15 or die")
    elif rule == "dying":
        new, notes = _pf2e_damage(character, old, new, amount, rest, critical, maximum)
    else:
        new, notes = _saves_damage(old, new, rest, critical, maximum)
    text = (f"{head}: still {_n(new.current)} HP" if new.current == old.current
            else f"{head}: {_n(old.current)} → {_n(new.current)} HP")
    if notes:
        text += ", " + ", ".join(notes)
    return _change(character, old, new, text)


def _pf2e_damage(
    character: CharacterBase, old: _Hp, new: _Hp, amount: int, rest: int, critical: bool,
    maximum: int,
) -> tuple[_Hp, list[str]]:
    limit = death_at(character)
    new = replace(new, current=max(0, old.current - rest))
    if amount >= 2 * maximum:
        dying = max(1, min(PF2E_DEATH, limit))
        return replace(new, current=0, dying=dying), [
            f"massive damage (at least twice the maximum {maximum}): dead"]
    if rest <= 0 or new.current > 0:
        return new, []
    step = 2 if critical else 1
    if old.dying > 0:
        dying = old.dying + step
        note = f"dying {old.dying} → {min(dying, PF2E_DEATH)}"
    else:
        dying = step + old.wounded
        note = f"dying {min(dying, PF2E_DEATH)}"
        if old.wounded:
            note += f" (wounded {old.wounded})"
    dying = min(dying, PF2E_DEATH)
    if dying >= limit:
        note += ": dead"
    return replace(new, dying=dying), [note]


def _saves_damage(
    old: _Hp, new: _Hp, rest: int, critical: bool, maximum: int
) -> tuple[_Hp, list[str]]:
    if rest <= 0:
        return new, []
    if old.current > 0:
        new = replace(new, current=max(0, old.current - rest))
        if new.current > 0:
            return new, []
        over = rest - old.current
        if over >= maximum:
            return replace(new, successes=0, failures=3), [
                f"instant death ({over} left over is at least the maximum {maximum})"]
        return replace(new, successes=0, failures=0), ["unconscious"]
    new = replace(new, current=0)
    if rest >= maximum:
        return replace(new, successes=0, failures=3), [
            f"instant death (at least the maximum {maximum} at 0 HP)"]
    failed = 2 if critical else 1
    stable = old.successes >= 3
    new = replace(new, successes=0 if stable else old.successes,
                  failures=min(3, old.failures + failed))
    note = ("two death save failures" if failed == 2 else "a death save failure")
    if stable:
        note += ", no longer stable"
    note += " (dead)" if new.failures >= 3 else f" ({_saves(new)})"
    return new, [note]


def heal(character: CharacterBase, derived: Derived, amount: int) -> HpChange:
    """``amount`` healing: never above the maximum (and never lowering HP already above it).
    pf2e: healing from 0 ends dying and adds 1 to wounded; 5e-style: it resets death saves."""
    amount = _amount(amount, "healing")
    rule = _rule(character)
    old = _read(character)
    if _dead(character, old, rule) is not None:
        return _change(character, old, old, f"Healed {amount}: dead, no effect")
    maximum = derived.hit_points.max
    current = old.current
    if amount and current < maximum:
        current = min(maximum, current + amount)
    new = replace(old, current=current)
    text = f"Healed {amount}: {_n(old.current)} → {_n(current)} HP"
    if amount and current == maximum and old.current + amount > maximum:
        text += f" (maximum {maximum})"
    if rule == "dying" and old.dying > 0 and current > 0:
        wounded = min(WOUNDED_MAX, old.wounded + 1)
        new = replace(new, dying=0, wounded=wounded)
        text += f", no longer dying, wounded {wounded}"
    elif rule == "death_saves" and old.current <= 0 < current:
        new = replace(new, successes=0, failures=0)
        text += ", conscious again"
    return _change(character, old, new, text)


def set_temporary(character: CharacterBase, amount: int) -> HpChange:
    """New temporary hit points: they don't stack, the higher of the old and new stays."""
    amount = min(_amount(amount, "temporary hit points"), HP_MAX)
    old = _read(character)
    if amount > old.temporary:
        new = replace(old, temporary=amount)
        text = f"Temporary HP: {old.temporary} → {amount}"
    else:
        new = old
        text = f"Temporary HP stay {old.temporary} ({amount} doesn't stack with them)"
    return _change(character, old, new, text)


# --- rolls at 0 hit points -----------------------------------------------------------------


def _d20(rng: random.Random) -> int:
    return rng.randrange(1, 21)


def death_save(character: CharacterBase, rng: random.Random) -> HpChange:
    """5e-style death saving throw (DC 10); raises ValueError when none is called for."""
    if _rule(character) != "death_saves":
        raise ValueError(f"{registry.get(character.system).name} has no death saves")
    if not needs_death_save(character):
        raise ValueError(f"no death save needed ({state_words(character)})")
    old = _read(character)
    die = _d20(rng)
    outcome: Outcome = "success" if die >= 10 else "failure"
    if die == 20:
        new = replace(old, current=1, successes=0, failures=0)
        text = "Death save: natural 20, regains 1 HP and is conscious"
    elif die == 1:
        new = replace(old, failures=min(3, old.failures + 2))
        text = "Death save: natural 1, two failures"
    elif die >= 10:
        new = replace(old, successes=old.successes + 1)
        text = f"Death save: {die}, a success"
    else:
        new = replace(old, failures=old.failures + 1)
        text = f"Death save: {die}, a failure"
    if new.failures >= 3:
        text += ": dead"
    elif new.successes >= 3:
        new = replace(new, failures=0)
        text += ": stable"
    elif die != 20:
        text += f" ({_saves(new)})"
    return _change(character, old, new, text, kind="death_save", die=die, dc=10,
                   outcome=outcome)


def recovery_dc(character: CharacterBase) -> int:
    """The DC of a pf2e recovery check now: 10 + the dying value."""
    return 10 + max(_read(character).dying, 0)


def recovery_check(character: CharacterBase, rng: random.Random) -> HpChange:
    """pf2e recovery check: a flat check against DC 10 + dying. Critical success: dying −2;
    success: −1; failure: +1; critical failure: +2. Reaching 0 ends dying (wounded +1);
    reaching 4 less doomed is death. Raises ValueError when not dying."""
    if _rule(character) != "dying":
        raise ValueError(f"{registry.get(character.system).name} has no recovery checks")
    if not needs_recovery_check(character):
        raise ValueError(f"no recovery check needed ({state_words(character)})")
    old = _read(character)
    dc = recovery_dc(character)
    die = _d20(rng)
    outcome = degree_of_success(die, dc, die)
    step = {"critical_success": -2, "success": -1, "failure": 1, "critical_failure": 2}[outcome]
    dying = old.dying + step
    words = outcome.replace("_", " ")
    text = f"Recovery check DC {dc}: {die}, {words}"
    if dying <= 0:
        wounded = min(WOUNDED_MAX, old.wounded + 1)
        new = replace(old, dying=0, wounded=wounded)
        text += f": no longer dying (unconscious at 0 HP), wounded {wounded}"
    else:
        dying = min(dying, PF2E_DEATH)
        new = replace(old, dying=dying)
        text += f": dying {old.dying} → {dying}"
        if dying >= death_at(character):
            text += ", dead"
    return _change(character, old, new, text, kind="recovery", die=die, dc=dc,
                   outcome=outcome)


def state_words(character: CharacterBase) -> str:
    """`state` in words, deriving the character's values first."""
    derived = registry.get(character.system).derive(character)
    return state(character, derived).words


# --- edits ---------------------------------------------------------------------------------


def hp_edits(character: CharacterBase, new_values: Mapping[str, Any]) -> list[Set]:
    """`Set` steps that put ``new_values`` (an `HpChange.values`) into ``hit_points``; only the
    fields that differ."""
    out: list[Set] = []
    for key, value in new_values.items():
        if isinstance(value, Mapping):
            for sub, inner in value.items():
                path = ("hit_points", key, sub)
                if not same(get_path(character, path), inner):
                    out.append(Set(path, inner))
        elif not same(get_path(character, ("hit_points", key)), value):
            out.append(Set(("hit_points", key), value))
    return out


LABELS: Final[dict[HpKind, str]] = {
    "hit_points": "Hit points", "death_save": "Death save", "recovery": "Recovery check"}


def record(change: HpChange, when: datetime) -> RollRecord:
    """The roll-log entry of ``change`` (``when`` with its UTC offset, as for a roll)."""
    return RollRecord(
        time=when.isoformat(timespec="seconds"),
        kind=change.kind,
        statistic="hp",
        label=LABELS[change.kind],
        dice=[change.die] if change.die is not None else [],
        total=change.die if change.die is not None else change.current,
        text=change.text,
        dc=change.dc,
        outcome=change.outcome,
    )


def as_batch(character: CharacterBase, change: HpChange, when: datetime) -> Batch:
    """One undo step: the hit-point edits of ``change`` and its roll-log entry."""
    log = [r if isinstance(r, RollRecord) else RollRecord.model_validate(r)
           for r in character.roll_log]
    kept = append_record(log, record(change, when))
    return Batch((*hp_edits(character, change.values),
                  Set(("roll_log",), [r.model_dump(mode="json") for r in kept])))


def end_of_turn(character: CharacterBase) -> list[Set | Remove]:
    """The end of the character's turn: each active condition that declares
    ``ends_turn_decrement`` (pf2e frightened) drops by 1, and ends at 0.

    Value changes come first (with a name like "Frightened 2" renamed to match), then the
    removals from the last index down, so the steps apply in order as one `Batch`."""
    conditions = registry.get(character.system).facts.conditions
    sets: list[Set | Remove] = []
    removals: list[Set | Remove] = []
    for index, effect in enumerate(character.effects):
        condition = conditions.get(effect.condition or "")
        if not effect.active or condition is None or not condition.ends_turn_decrement:
            continue
        value = (effect.value or 1) - 1
        if value <= 0:
            removals.append(Remove(("effects",), index))
            continue
        sets.append(Set(("effects", index, "value"), value))
        old_suffix = f" {effect.value}"
        if effect.name.endswith(old_suffix):
            sets.append(Set(("effects", index, "name"),
                            f"{effect.name[:-len(old_suffix)]} {value}"))
    return [*sets, *reversed(removals)]


def end_of_turn_text(character: CharacterBase) -> str:
    """What `end_of_turn` does, in words for the undo stack and the roll log."""
    conditions = registry.get(character.system).facts.conditions
    parts = []
    for effect in character.effects:
        condition = conditions.get(effect.condition or "")
        if effect.active and condition is not None and condition.ends_turn_decrement:
            value = (effect.value or 1) - 1
            parts.append(f"{condition.label} {effect.value or 1} → "
                         f"{value if value > 0 else 'ends'}")
    return "End of turn: " + ("; ".join(parts) if parts else "nothing changes")
