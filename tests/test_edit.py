"""The Qt-free edit pipeline: paths, edits made on a copy, whole-sheet checks on every edit,
and the words and changes the window shows for them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheet_app import edit, registry
from sheet_app.edit import (
    MISSING,
    Change,
    EditRejected,
    Insert,
    Remove,
    Set,
    apply,
    change_of,
    describe,
    get_path,
    inverse_change,
    normalized,
    same,
)
from sheet_app.io import LoadError, character_from_data
from sheet_app.model import CharacterBase, Effect, Modifier
from sheet_app.systems.d20srd.model import D20Character
from sheet_app.systems.pf2e.model import Pf2eCharacter
from sheet_app.systems.runarcana.model import RunarcanaCharacter
from tests.helpers import SYSTEM_IDS, character_docs


def sample(system: str) -> CharacterBase:
    return registry.get(system).sample()


def pf2e() -> Pf2eCharacter:
    character = sample("pf2e")
    assert isinstance(character, Pf2eCharacter)
    return character


def d20() -> D20Character:
    character = sample("d20srd")
    assert isinstance(character, D20Character)
    return character


def runarcana() -> RunarcanaCharacter:
    character = sample("runarcana")
    assert isinstance(character, RunarcanaCharacter)
    return character


def rejected(character: CharacterBase, change: edit.Edit) -> str:
    """The message of the refusal; the character must be untouched by it."""
    before = character.dump()
    with pytest.raises(EditRejected) as info:
        apply(character, change)
    assert character.dump() == before
    return str(info.value)


# --- reading ---------------------------------------------------------------------------------


def test_get_path_reads_fields_dict_entries_list_items_and_nested_models() -> None:
    character = pf2e()
    assert get_path(character, ("name",)) == "Valeros"
    assert get_path(character, ("abilities", "str")) == 4
    assert get_path(character, ("skills", "athletics")) == "expert"
    assert get_path(character, ("effects", 0, "name")) == "Heroism"
    assert get_path(character, ("effects", 0, "modifiers", 0)) is character.effects[0].modifiers[0]
    assert get_path(character, ("hit_points", "class_")) == character.hit_points.class_
    assert get_path(character, ()) is character


def test_get_path_gives_missing_where_there_is_nothing() -> None:
    character = pf2e()
    assert get_path(character, ("skills", "stealth")) is MISSING  # never ranked: absent
    assert get_path(character, ("no_such_field",)) is MISSING
    assert get_path(character, ("dump",)) is MISSING  # a method is not a field
    assert get_path(character, ("effects", 99, "name")) is MISSING
    assert get_path(character, ("effects", -1, "name")) is MISSING  # no counting from the end
    assert get_path(character, ("name", "first")) is MISSING  # a string has no parts
    assert get_path(character, ("skills", "stealth", "rank")) is MISSING


def test_missing_is_not_none() -> None:
    character = d20()
    construct = apply(character, Set(("abilities", "int"), None))
    assert get_path(construct, ("abilities", "int")) is None
    assert MISSING is not None and not same(MISSING, None)


def test_unknown_keys_kept_from_a_newer_file_can_be_read_changed_and_removed() -> None:
    data = pf2e().dump()
    data["x_future"] = {"keep": True}
    data["abilities"]["x_note"] = "rolled"
    character = character_from_data(data)
    assert get_path(character, ("x_future", "keep")) is True
    assert get_path(character, ("abilities", "x_note")) == "rolled"

    changed = apply(character, Set(("x_future", "keep"), False))
    assert changed.dump()["x_future"] == {"keep": False}
    removed = apply(character, Set(("abilities", "x_note"), MISSING))
    assert "x_note" not in removed.dump()["abilities"]
    assert character.dump()["abilities"]["x_note"] == "rolled"


# --- setting on a copy -------------------------------------------------------------------------


def test_set_returns_a_new_character_and_leaves_the_original_alone() -> None:
    character = pf2e()
    before = character.dump()
    new = apply(character, Set(("abilities", "dex"), 4))
    assert new is not character and type(new) is type(character)
    assert new.abilities.dex == 4
    assert character.dump() == before
    # untouched parts are shared, not copied
    assert new.hit_points is character.hit_points
    assert new.effects[0] is character.effects[0]


def test_set_reaches_dict_keys_list_items_and_nested_models() -> None:
    character = pf2e()
    ranked = apply(character, Set(("skills", "stealth"), "master"))
    assert ranked.skills["stealth"] == "master"
    assert "stealth" not in character.skills

    unranked = apply(character, Set(("skills", "athletics"), MISSING))
    assert "athletics" not in unranked.skills
    assert character.skills["athletics"] == "expert"

    renamed = apply(character, Set(("effects", 1, "name"), "Sickened 1"))
    assert renamed.effects[1].name == "Sickened 1"
    assert renamed.effects[0] is character.effects[0]
    assert character.effects[1].name == "Sickened 2"

    retyped = apply(character, Set(("effects", 0, "modifiers", 0, "type"), "item"))
    assert retyped.effects[0].modifiers[0].type == "item"
    assert character.effects[0].modifiers[0].type == "status"

    classed = apply(character, Set(("hit_points", "class_"), 12))
    assert classed.hit_points.class_ == 12
    assert classed.dump()["hit_points"]["class"] == 12


def test_setting_an_absent_key_to_missing_changes_nothing() -> None:
    character = pf2e()
    assert apply(character, Set(("skills", "stealth"), MISSING)) == character


def test_a_model_value_is_validated_into_the_field() -> None:
    character = pf2e()
    new = apply(character, Set(("effects", 0), {"name": "Bless-ish",
                                                "modifiers": [{"value": 1, "targets": ["check"]}]}))
    assert isinstance(new.effects[0], Effect)
    assert new.effects[0].modifiers[0].type == "untyped"


def test_the_value_is_copied_in() -> None:
    data = pf2e().dump()
    data["x_future"] = []
    character = character_from_data(data)
    item = {"name": "Rope", "quantity": 1, "bulk": "L"}
    new = apply(character, Insert(("inventory",), 0, item))
    item["name"] = "Changed afterwards"
    assert new.inventory[0].name == "Rope"
    kept: list[Any] = ["a"]
    changed = apply(character, Set(("x_future",), kept))  # an unknown key takes any value
    kept.append("changed afterwards")
    assert changed.dump()["x_future"] == ["a"]


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("no_such_field",), 1, "the sheet has no field 'no_such_field'"),
        (("abilities", "luck"), 1, "abilities has no field 'luck'"),
        (("name", "first"), "x", "name has no parts"),
        (("skills", "stealth", "rank"), "x", "skills has no 'stealth'"),
        (("effects", 9, "name"), "x", "effects has no item 9 (it has 5)"),
        (("effects", -1, "name"), "x", "effects has no item -1 (it has 5)"),
        (("effects", "first", "name"), "x", "'first' is not an index"),
        (("name",), MISSING, "'name' can't be removed"),
        (("effects", 0), MISSING, "removed with Remove"),
    ],
)
def test_paths_that_lead_nowhere_are_refused(path: edit.Path, value: Any, expected: str) -> None:
    message = rejected(pf2e(), Set(path, value))
    assert message.startswith(edit.dotted(path) + ": ")
    assert expected in message


def test_an_empty_path_is_refused() -> None:
    assert "needs a path" in rejected(pf2e(), Set((), None))


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("level",), 0, "level: Input should be greater than or equal to 1"),
        (("name",), "x" * 201, "name: String should have at most 200 characters"),
        (("abilities", "str"), -6, "abilities.str: Input should be greater than or equal to -5"),
        (("skills", "stealth"), "godlike", "skills.stealth: Input should be"),
        (("skills", "flying"), "trained", "unknown skill 'flying'"),
        (("effects", 0, "modifiers", 0, "value"), 500,
         "effects.0.modifiers.0.value: a modifier's value must be between -100 and 100"),
    ],
)
def test_field_checks_name_the_edited_field(path: edit.Path, value: Any, expected: str) -> None:
    assert expected in rejected(pf2e(), Set(path, value))


def test_a_bad_part_of_a_replaced_value_is_named_by_its_own_path() -> None:
    message = rejected(pf2e(), Set(("effects", 0), {
        "name": "x", "modifiers": [{"value": 1, "targets": ["skill:flying"]}]}))
    assert message.startswith("effects.0.modifiers.0.targets.0: ")
    assert "no skill 'flying'" in message


# --- whole-sheet checks run for every path ---------------------------------------------------


def test_a_level_roll_above_the_hit_die_is_refused() -> None:
    character = d20()  # d10, rolls 7, 4, 9
    assert rejected(character, Set(("hit_points", "level_rolls", 0), 11)) == (
        "hit_points.level_rolls.0: level 2 roll 11 is higher than the hit die (d10)")
    assert rejected(character, Set(("hit_points", "level_rolls"), [7, 4, 12])) == (
        "hit_points.level_rolls: level 4 roll 12 is higher than the hit die (d10)")
    assert "level 2 roll 7 is higher than the hit die (d6)" in rejected(
        character, Set(("hit_points", "hit_die"), 6))
    assert "higher than the hit die" in rejected(
        character, Insert(("hit_points", "level_rolls"), 3, 20))
    assert apply(character, Set(("hit_points", "level_rolls", 0), 10)).hit_points.level_rolls \
        == [10, 4, 9]


def test_a_modifier_type_the_system_lacks_is_refused_wherever_it_comes_from() -> None:
    character = pf2e()
    path = ("effects", 0, "modifiers", 0, "type")
    assert rejected(character, Set(path, "morale")) == (
        f"{edit.dotted(path)}: 'morale' is not a pf2e modifier type "
        "(expected one of circumstance, item, status, untyped)")
    morale = Effect(name="Rage", modifiers=[Modifier(type="morale", value=2, targets=["check"])])
    message = rejected(character, Insert(("effects",), 0, morale))
    assert message.startswith("effects.0.modifiers.0.type: 'morale' is not a pf2e modifier type")
    assert apply(d20(), Insert(("effects",), 0, morale)).effects[0].name == "Rage"


def test_a_roll_mode_the_system_lacks_is_refused() -> None:
    path = ("effects", 0, "modifiers")
    message = rejected(pf2e(), Set(path, [{"mode": "advantage", "targets": ["check"]}]))
    assert message.startswith("effects.0.modifiers.0.mode: pf2e has no 'advantage' roll mode")


def test_an_unknown_condition_gets_a_suggestion() -> None:
    message = rejected(runarcana(), Insert(("effects",), 0, {"condition": "frightend", "value": 1}))
    assert message.startswith("effects.0.condition: ")
    assert "did you mean 'frightened'?" in message


def test_a_pf2e_score_gets_its_modifier_suggested() -> None:
    assert rejected(pf2e(), Set(("abilities", "str"), 16)) == (
        "abilities.str: 16 is a score, but Pathfinder 2e stores attribute modifiers "
        "(a score of 16 is +3); enter -5 to +10")


def test_of_several_problems_the_one_at_the_edited_path_is_reported() -> None:
    character = pf2e()
    morale = Effect(name="Rage", modifiers=[Modifier(type="morale", value=2, targets=["check"])])
    broken = Pf2eCharacter.model_construct(  # an old problem the checks never saw
        **{**dict(character), "effects": [morale, *character.effects]})
    path = ("effects", 1, "modifiers", 0, "type")
    message = rejected(broken, Set(path, "luck"))
    assert message.startswith(f"{edit.dotted(path)}: 'luck' is not a pf2e modifier type")


# --- lists ---------------------------------------------------------------------------------------


def test_insert_puts_the_item_before_the_index_and_clamps_it() -> None:
    character = runarcana()
    names = [e.name for e in character.effects]
    new = apply(character, Insert(("effects",), 1, {"name": "Bless"}))
    assert [e.name for e in new.effects] == [names[0], "Bless", *names[1:]]
    first = apply(character, Insert(("effects",), -5, {"name": "First"}))
    assert first.effects[0].name == "First"
    last = apply(character, Insert(("effects",), 99, {"name": "Last"}))
    assert last.effects[-1].name == "Last"
    assert [e.name for e in character.effects] == names


def test_normalized_gives_the_row_an_insert_really_lands_on() -> None:
    character = runarcana()
    count = len(character.effects)
    assert normalized(character, Insert(("effects",), 99, {})) == Insert(("effects",), count, {})
    assert normalized(character, Insert(("effects",), -3, {})) == Insert(("effects",), 0, {})
    same_edit = Remove(("effects",), 1)
    assert normalized(character, same_edit) is same_edit


def test_remove_takes_one_item_out() -> None:
    character = runarcana()
    names = [e.name for e in character.effects]
    new = apply(character, Remove(("effects",), 0))
    assert [e.name for e in new.effects] == names[1:]
    assert [e.name for e in character.effects] == names


@pytest.mark.parametrize("index", [-1, 6, 100])
def test_remove_outside_the_list_is_refused(index: int) -> None:
    assert rejected(runarcana(), Remove(("effects",), index)) == (
        f"effects: nothing to remove at {index}")


def test_list_edits_need_a_list() -> None:
    assert rejected(pf2e(), Insert(("name",), 0, "x")) == "name is not a list"
    assert rejected(pf2e(), Remove(("skills",), 0)) == "skills is not a list"
    assert rejected(pf2e(), Remove(("nothing",), 0)) == "nothing is not a list"


def test_a_full_list_takes_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    character = runarcana()
    monkeypatch.setattr(edit, "MAX_LIST", len(character.effects))
    assert rejected(character, Insert(("effects",), 0, {})) == "effects: the list is full"


def test_an_inserted_item_is_validated() -> None:
    message = rejected(runarcana(), Insert(("inventory",), 0, {"name": "Anvil", "weight": -1}))
    assert message.startswith("inventory.0.weight: ")


def test_the_model_s_own_length_limit_applies() -> None:
    character = runarcana()
    full = apply(character, Set(("resources",), [{"name": f"R{i}"} for i in range(200)]))
    assert "at most 200" in rejected(full, Insert(("resources",), 0, {"name": "One more"}))


# --- describing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (Set(("skill_ranks", "hide"), 4), "Edit skill ranks hide"),
        (Set(("abilities", "str"), 10), "Edit abilities str"),
        (Set(("effects", 0, "modifiers", 1, "value"), 2), "Edit modifiers value"),
        (Set(("class_",), "Fighter"), "Edit class"),
        (Set(("notes",), ""), "Edit notes"),
        (Set((0,), 1), "Edit"),
        (Insert(("effects",), 0, {}), "Add to effects"),
        (Insert(("effects", 2, "modifiers"), 0, {}), "Add to modifiers"),
        (Remove(("inventory",), 3), "Remove from inventory"),
        (Insert((0,), 0, {}), "Add"),
        (Remove((0,), 0), "Remove"),
    ],
)
def test_describe(change: edit.Edit, text: str) -> None:
    assert describe(change) == text


def test_dotted_drops_the_trailing_underscore_of_a_keyword_field() -> None:
    assert edit.dotted(("hit_points", "class_")) == "hit_points.class"
    assert edit.dotted(("effects", 0, "name")) == "effects.0.name"


def test_each_edit_has_its_change_and_the_change_undoing_it() -> None:
    path = ("effects",)
    assert change_of(Set(("name",), "x")) == Change("set", ("name",))
    assert inverse_change(Set(("name",), "x")) == Change("set", ("name",))
    assert change_of(Insert(path, 2, {})) == Change("insert", path, 2)
    assert inverse_change(Insert(path, 2, {})) == Change("remove", path, 2)
    assert change_of(Remove(path, 1)) == Change("remove", path, 1)
    assert inverse_change(Remove(path, 1)) == Change("insert", path, 1)


@pytest.mark.parametrize(
    ("change", "path", "touches"),
    [
        (Change("set", ("abilities", "str")), ("abilities", "str"), True),
        (Change("set", ("abilities", "str")), ("abilities", "dex"), False),
        (Change("set", ("abilities", "str")), ("abilities",), True),  # a widget of the whole
        (Change("set", ("abilities",)), ("abilities", "str"), True),  # the whole replaced
        (Change("set", ("effects", 0, "name")), ("effects",), True),
        (Change("set", ("effects", 0, "name")), ("effects", 1, "name"), False),
        (Change("insert", ("effects",), 0), ("effects", 3, "active"), True),
        (Change("remove", ("inventory",), 0), ("effects",), False),
        (Change("reset"), ("anything", "at", "all"), True),
        (Change("set", ()), ("name",), True),
        (Change("set", ("name",)), (), True),
    ],
)
def test_change_touches(change: Change, path: edit.Path, touches: bool) -> None:
    assert change.touches(path) is touches


def test_same_tells_types_apart() -> None:
    assert same(2, 2) and same("a", "a") and same(MISSING, MISSING)
    assert not same(1, True)
    assert not same(2, 2.0)
    assert not same(None, MISSING)


# --- properties --------------------------------------------------------------------------------

_SETTINGS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
_SCALARS = st.one_of(st.integers(-30, 300), st.text(max_size=8), st.none(), st.booleans())


def _edits(character: CharacterBase) -> st.SearchStrategy[edit.Edit]:
    """Edits of many kinds, some valid and some not, at paths that exist on this sheet."""
    abilities = [("abilities", a) for a in ("str", "dex", "con", "int", "wis", "cha")]
    paths: list[edit.Path] = [("name",), ("level",), ("speed",), ("notes",), *abilities]
    for i, effect in enumerate(character.effects):
        paths += [("effects", i, "active"), ("effects", i, "name")]
        for j in range(len(effect.modifiers)):
            paths += [("effects", i, "modifiers", j, "value"),
                      ("effects", i, "modifiers", j, "type")]
    facts = registry.get(character.system).facts
    sets = st.builds(Set, st.sampled_from(paths),
                     st.one_of(_SCALARS, st.sampled_from(facts.modifier_types)))
    ranks = st.builds(Set, st.sampled_from([("skills", s) for s in facts.skills]
                                           or [("skill_ranks", s) for s in facts.skills]),
                      st.one_of(st.sampled_from(facts.ranks or (0, 4, 60)), st.just(MISSING)))
    lists = st.sampled_from([("effects",), ("inventory",), ("resources",), ("weapons",)])
    inserts = st.builds(Insert, lists, st.integers(-2, 12),
                        st.one_of(st.just({}), st.just({"name": "New"}), _SCALARS))
    removes = st.builds(Remove, lists, st.integers(-2, 12))
    return st.one_of(sets, sets, ranks, inserts, removes)


@st.composite
def _character_and_edits(draw: st.DrawFn) -> tuple[CharacterBase, list[edit.Edit]]:
    character = character_from_data(draw(character_docs()))
    return character, draw(st.lists(_edits(character), min_size=1, max_size=6))


@_SETTINGS
@given(_character_and_edits())
def test_no_edit_ever_changes_the_character_it_is_given(
    case: tuple[CharacterBase, list[edit.Edit]],
) -> None:
    character, edits = case
    for change in edits:
        before = character.dump()
        try:
            new = apply(character, change)
        except EditRejected as exc:
            assert str(exc)
            assert character.dump() == before
            continue
        assert character.dump() == before
        # what was accepted is what loading its file gives: nothing skipped a check
        assert character_from_data(new.dump()).dump() == new.dump()
        character = new


@_SETTINGS
@given(_character_and_edits())
def test_setting_the_old_value_back_restores_the_character(
    case: tuple[CharacterBase, list[edit.Edit]],
) -> None:
    character, edits = case
    for change in edits:
        if not isinstance(change, Set):
            continue
        try:
            new = apply(character, change)
        except EditRejected:
            continue
        assert apply(new, Set(change.path, get_path(character, change.path))) == character


@pytest.mark.parametrize("system", SYSTEM_IDS)
@_SETTINGS
@given(data=st.data())
def test_an_edit_refuses_nothing_a_file_accepts_and_accepts_nothing_unsaveable(
    system: str, data: st.DataObject
) -> None:
    """Edits are as strict as loading or laxer (a widget's ``3.0`` is 3), never stricter,
    and whatever they accept saves as a file that loads back equal."""
    doc = data.draw(character_docs(system))
    character = character_from_data(doc)
    key = data.draw(st.sampled_from(["level", "speed", "name", "str", "dex", "int"]))
    value = data.draw(st.one_of(st.integers(-12, 120), st.text(max_size=3), st.none()))
    file = character.dump()
    if key in ("level", "speed", "name"):
        path: edit.Path = (key,)
        file[key] = value
    else:
        path = ("abilities", key)
        file["abilities"][key] = value
    try:
        expected: CharacterBase | None = character_from_data(file)
    except LoadError:
        expected = None
    try:
        got: CharacterBase | None = apply(character, Set(path, value))
    except EditRejected:
        got = None
    if expected is not None:
        assert got is not None and got.dump() == expected.dump()
    if got is not None:
        assert character_from_data(got.dump()).dump() == got.dump()


def test_text_that_could_not_be_saved_is_refused() -> None:
    assert "not valid Unicode" in rejected(pf2e(), Set(("name",), "bad \udc80"))
    assert "not valid Unicode" in rejected(pf2e(), Insert(("effects",), 0, {"name": "\ud800"}))
