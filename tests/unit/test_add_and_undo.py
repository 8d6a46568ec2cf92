"""Taps are changes: `add` deltas commute, leave no field out of its bounds, and every change
can be named in players' words; a phone's own change can be taken back out of order."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.plays import (
    apply_event,
    describe_event,
    new_state,
    parse_event,
    replay,
)
from companion.undo import inverse_event, plan_undo_mine


def play(game="explorers", players=("Ann", "Bo"), options=None):
    return new_state(game, [{"name": n} for n in players], options or {}, 7, {})


def add(player, **numbers):
    return {"type": "sheet", "data": {"player": player, "add": numbers}}


def sheet_of(state, player):
    return state["sheets"][player]


# --------------------------------------------------------------------------- add deltas
def test_add_counts_on_from_the_stored_value():
    state = apply_event(play(), {"type": "sheet", "data": {"player": "Ann",
                                                           "fields": {"outposts": 2}}})
    state = apply_event(state, add("Ann", outposts=1))
    state = apply_event(state, add("Ann", enemy_ships=3))
    assert sheet_of(state, "Ann") == {"outposts": 3, "enemy_ships": 3}
    assert sheet_of(state, "Bo") == {}


def test_add_to_a_counts_field_adds_per_kind():
    state = apply_event(play(), add("Ann", livestock={"pig": 2}))
    state = apply_event(state, add("Ann", livestock={"pig": 1, "goat": 1}))
    assert sheet_of(state, "Ann")["livestock"] == {"pig": 3, "goat": 1}


def test_add_to_a_choices_field_appends_and_removes_that_choice():
    state = play("shipwrights", ("Ann", "Bo"))
    state = apply_event(state, add("Ann", longship_bonuses={"raid_cards": 2, "upgrades": 1}))
    assert sorted(sheet_of(state, "Ann")["longship_bonuses"]) == [
        "raid_cards", "raid_cards", "upgrades"]
    state = apply_event(state, add("Ann", longship_bonuses={"raid_cards": -1}))
    assert sorted(sheet_of(state, "Ann")["longship_bonuses"]) == ["raid_cards", "upgrades"]
    with pytest.raises(RuleError) as err:
        apply_event(state, add("Ann", longship_bonuses={"unique_longships": -1}))
    assert err.value.status == 422 and err.value.field == \
        "data.add.longship_bonuses.unique_longships"


def test_add_with_fields_in_one_change():
    state = apply_event(play(), {"type": "sheet", "data": {
        "player": "Bo", "fields": {"viking_deaths": 4}, "add": {"outposts": 2}}})
    assert sheet_of(state, "Bo") == {"viking_deaths": 4, "outposts": 2}


def test_leaving_the_bounds_is_refused_not_clamped():
    """Outposts are 0..5 on the pad: a tap past either end is a 422 naming the field, and the
    sheet is unchanged (clamping would make the tap impossible to undo exactly)."""
    state = apply_event(play(), add("Ann", outposts=5))
    for delta, words in ((1, "cannot go above 5"), (-6, "cannot go below 0")):
        with pytest.raises(RuleError) as err:
            apply_event(state, add("Ann", outposts=delta))
        assert err.value.status == 422 and err.value.code == "out_of_range"
        assert err.value.field == "data.add.outposts" and words in err.value.message
        assert "Ann's Outposts built" in err.value.message
    with pytest.raises(RuleError) as err:
        apply_event(play(), add("Ann", livestock={"pig": -1}))
    assert err.value.field == "data.add.livestock.pig" and "below 0" in err.value.message


@pytest.mark.parametrize("data, field", [
    ({"player": "Ann", "add": {"captain": 1}}, "data.add.captain"),          # not a number
    ({"player": "Ann", "add": {"nope": 1}}, "data.add.nope"),
    ({"player": "Ann", "add": {"outposts": 0}}, "data.add.outposts"),
    ({"player": "Ann", "add": {"outposts": True}}, "data.add.outposts"),
    ({"player": "Ann", "add": {"outposts": 1.5}}, "data.add.outposts"),
    ({"player": "Ann", "add": {"outposts": 10_001}}, "data.add.outposts"),
    ({"player": "Ann", "add": {"livestock": 1}}, "data.add.livestock"),
    ({"player": "Ann", "add": {"livestock": {"dragon": 1}}}, "data.add.livestock.dragon"),
    ({"player": "Ann", "add": [1]}, "data.add"),
    ({"player": "Ann", "add": {"outposts": 1}, "fields": {"outposts": 2}}, "data.add.outposts"),
    ({"player": 7, "add": {"outposts": 1}}, "data.player"),
    ({"player": "Ann"}, "data.fields"),
])
def test_bad_adds_are_400s_naming_the_field(data, field):
    with pytest.raises(RuleError) as err:
        apply_event(play(), {"type": "sheet", "data": data})
    assert err.value.status == 400 and err.value.field == field


@pytest.mark.parametrize("data, field, code", [
    ({"player": "Zed", "add": {"outposts": 1}}, "data.player", "unknown_player"),
    ({"player": "Ann", "add": {"gold": 1}}, "data.add.gold", "field_not_in_play"),
    ({"player": "Ann", "fields": {"gold": 1}}, "data.fields.gold", "field_not_in_play"),
])
def test_changes_this_play_cannot_take_are_422s(data, field, code):
    """Well-formed sheet changes that break a rule of this play (a name nobody at the table
    has, a row of an expansion the play does not use): 422, as api.md says; the OpenAPI
    document's shapes cannot know the play."""
    with pytest.raises(RuleError) as err:
        apply_event(play(), {"type": "sheet", "data": data})
    assert (err.value.status, err.value.field, err.value.code) == (422, field, code)


taps = st.lists(st.tuples(st.sampled_from(["phone A", "phone B"]),
                          st.sampled_from(["outposts", "enemy_ships", "pig", "goat"])),
                max_size=12)


def as_event(tap):
    _, what = tap
    if what in ("pig", "goat"):
        return add("Ann", livestock={what: 1})
    return add("Ann", **{what: 1})


@settings(max_examples=60, deadline=None)
@given(taps, st.randoms(use_true_random=False))
def test_any_interleaving_of_two_phones_taps_gives_the_same_totals(sequence, rng):
    """Two phones tap in any order (the server sees their taps interleaved however the network
    delivers them): the sheet ends the same."""
    events = [as_event(t) for t in sequence if t[1] != "outposts"] + \
        [as_event(t) for t in sequence if t[1] == "outposts"][:5]
    shuffled = list(events)
    rng.shuffle(shuffled)
    assert sheet_of(replay(play(), events), "Ann") == sheet_of(replay(play(), shuffled), "Ann")
    counts = {}
    for event in events:
        for key, n in event["data"]["add"].items():
            if isinstance(n, dict):
                for k, m in n.items():
                    counts[k] = counts.get(k, 0) + m
            else:
                counts[key] = counts.get(key, 0) + n
    final = sheet_of(replay(play(), shuffled), "Ann")
    flat = {**{k: v for k, v in final.items() if k != "livestock"},
            **final.get("livestock", {})}
    assert flat == counts


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([1, -1]), max_size=14))
def test_a_field_never_leaves_its_bounds_whatever_is_tapped(deltas):
    state = play()
    for delta in deltas:
        try:
            state = apply_event(state, add("Ann", outposts=delta))
        except RuleError as err:
            assert err.status == 422
    assert 0 <= state["sheets"]["Ann"].get("outposts", 0) <= 5


# --------------------------------------------------------------------------- game counters
def test_reavers_territories_take_a_delta_and_refuse_below_zero():
    state = play("reavers", ("Ann", "Bo", "Cecilie"))
    for _ in range(2):
        state = apply_event(state, {"type": "territories",
                                    "data": {"player": "Cecilie", "add": 1}})
    assert state["table"]["territories"]["Cecilie"] == 2
    with pytest.raises(RuleError) as err:
        apply_event(state, {"type": "territories", "data": {"player": "Ann", "add": -1}})
    assert err.value.status == 422 and err.value.field == "data.add"
    with pytest.raises(RuleError) as err:
        apply_event(state, {"type": "territories",
                            "data": {"player": "Ann", "add": 1, "count": 2}})
    assert err.value.status == 400


def test_explorers_island_tiles_and_pieces_take_deltas():
    state = play()
    state = apply_event(state, {"type": "add_island", "data": {"tiles": 3}})
    state = apply_event(state, {"type": "update_island",
                                "data": {"island": 0, "add": {"tiles": 2}}})
    state = apply_event(state, {"type": "set_influence",
                                "data": {"island": 0, "player": "Bo", "add": {"vikings": 1}}})
    state = apply_event(state, {"type": "set_influence",
                                "data": {"island": 0, "player": "Bo", "add": {"vikings": 1}}})
    island = state["table"]["islands"][0]
    assert island["tiles"] == 5 and island["influence"]["Bo"]["vikings"] == 2
    with pytest.raises(RuleError) as err:
        apply_event(state, {"type": "set_influence",
                            "data": {"island": 0, "player": "Ann", "add": {"outposts": -1}}})
    assert err.value.status == 422 and err.value.field == "data.add.outposts"
    with pytest.raises(RuleError) as err:
        apply_event(state, {"type": "set_influence", "data": {
            "island": 0, "player": "Ann", "vikings": 1, "add": {"vikings": 1}}})
    assert err.value.status == 400


# --------------------------------------------------------------------------- labels
@pytest.mark.parametrize("game, players, event, words", [
    ("reavers", ("Ann", "Bo", "Cecilie"),
     {"type": "territories", "data": {"player": "Cecilie", "add": 1}}, "Cecilie +1 territory"),
    ("reavers", ("Ann", "Bo", "Cecilie"),
     {"type": "territories", "data": {"player": "Bo", "add": -2}}, "Bo -2 territories"),
    ("shipwrights", ("Ann", "Bo"),
     {"type": "track", "data": {"player": "Bo", "track": "trade", "steps": 1}},
     "Bo: trade track +1"),
    ("explorers", ("Ann", "Bo"), {"type": "sheet", "data": {
        "player": "Ann", "fields": {"livestock": {"pig": 3}}}},
     "Ann's sheet: 3 pigs delivered"),
    ("explorers", ("Ann", "Bo"), add("Ann", livestock={"pig": 1}),
     "Ann: +1 pig delivered"),
    ("explorers", ("Ann", "Bo"), {"type": "set_influence", "data": {
        "island": 0, "player": "Bo", "add": {"vikings": 1}}}, "Bo +1 viking on island 1"),
    ("explorers", ("Ann", "Bo"), {"type": "update_island", "data": {
        "island": 0, "add": {"tiles": -1}}}, "Island 1: -1 tile"),
    ("explorers", ("Ann", "Bo"), {"type": "turn", "data": {}}, "End of turn"),
    ("knarr", ("Ann", "Bo"), {"type": "sheet", "data": {"player": "Bo", "add": {"vp": 2}}},
     "Bo: Score track VP +2"),
    ("knarr", ("Ann", "Bo"), {"type": "finish", "data": {}}, "End of the game"),
    # advancing is worded unlike the "Next phase →" / "Next round →" buttons beside the undo
    ("reavers", ("Ann", "Bo"), {"type": "advance", "data": {}}, "End of the phase"),
    # (Explorers' advance is the end of a turn, as its "turn" event)
    ("explorers", ("Ann", "Bo"), {"type": "advance", "data": {}}, "End of turn"),
    ("seafarers", ("Ann", "Bo", "Cy"), {"type": "advance", "data": {}}, "End of turn"),
    ("knarr", ("Ann", "Bo"), {"type": "advance", "data": {}},
     "A turn passed (reputation step only)"),
    ("knarr", ("Ann", "Bo"), {"type": "turn", "data": {"player": "Bo"}}, "End of Bo's turn"),
    ("explorers", ("Ann", "Bo"), {"type": "sheet", "data": {
        "player": "Ann", "set": {"livestock": {"goat": 2}}}},
     "Ann's sheet: 2 goats delivered"),
    ("seafarers", ("Ann", "Bo", "Cy"), {"type": "sheet", "data": {
        "player": "Cy", "fields": {"longest_route": True}}},
     "Cy's sheet: Longest trade route (2 VP) yes"),
    ("seafarers", ("Ann", "Bo", "Cy"), {"type": "discover", "data": {"q": 1, "r": 2}},
     "Discover"),
])
def test_every_change_has_words_for_players(game, players, event, words):
    assert describe_event(play(game, players), event) == words


# --------------------------------------------------------------------------- undo mine
def logged(state, *changes):
    """Events as the store keeps them (position, device) and the state after them."""
    events = []
    for i, (device, event) in enumerate(changes, start=1):
        state = apply_event(state, event)
        events.append({**event, "position": i, "device": device, "undoes": None})
    return state, events


def test_my_last_change_is_taken_back_by_an_event_that_says_who_undid_it():
    state, events = logged(play(), ("A", add("Ann", outposts=1)), ("B", add("Bo", outposts=1)))
    assert plan_undo_mine(state, events, "B")["how"] == "compensate"


def test_a_turn_end_with_only_the_clock_after_it_moves_the_head_and_keeps_the_clock():
    state, events = logged(play(), ("A", add("Ann", outposts=1)),
                           ("A", {"type": "turn", "data": {}}),
                           ("B", {"type": "pause", "data": {}, "at": "2024-05-01T10:00:00Z"}))
    plan = plan_undo_mine(state, events, "A")
    assert plan["how"] == "head" and plan["target"]["position"] == 2
    assert [e["type"] for e in plan["keep"]] == ["pause"]


def test_my_change_further_back_is_compensated_leaving_the_other_phones():
    initial = play()
    state, events = logged(initial, ("A", add("Ann", outposts=2)),
                           ("B", add("Bo", outposts=1)))
    plan = plan_undo_mine(state, events, "A")
    assert plan["how"] == "compensate" and plan["target"]["position"] == 1
    inverse = inverse_event(initial, state, plan["target"])
    after = apply_event(state, inverse)
    assert sheet_of(after, "Ann") == {"outposts": 0} and sheet_of(after, "Bo") == {"outposts": 1}


def test_a_set_value_is_put_back_as_it_was_unless_it_changed_since():
    initial = apply_event(play(), {"type": "sheet", "data": {"player": "Ann",
                                                             "fields": {"viking_deaths": 2}}})
    set_four = {"type": "sheet", "data": {"player": "Ann", "fields": {"viking_deaths": 4}}}
    state, events = logged(initial, ("A", set_four), ("B", add("Bo", outposts=1)))
    inverse = inverse_event(initial, state, events[0])
    assert inverse["data"]["fields"] == {"viking_deaths": 2}
    state, events = logged(initial, ("A", set_four), ("B", add("Ann", viking_deaths=1)))
    plan = plan_undo_mine(state, events, "A")
    assert plan["how"] == "refuse" and "changed again since" in plan["why"]


def test_a_turn_end_further_back_is_refused_in_a_sentence():
    state, events = logged(play(), ("A", {"type": "turn", "data": {}}),
                           ("B", add("Bo", outposts=1)))
    plan = plan_undo_mine(state, events, "A")
    assert plan["how"] == "refuse" and plan["code"] == "cannot_undo_out_of_order"
    assert plan["why"].startswith("This change (End of turn) cannot be taken back")


def test_undone_changes_and_other_phones_changes_are_skipped():
    state, events = logged(play(), ("A", add("Ann", outposts=1)), ("A", add("Ann", outposts=1)),
                           ("B", add("Bo", outposts=1)))
    events.append({**add("Ann", outposts=-1), "position": 4, "device": "A", "undoes": 2})
    plan = plan_undo_mine(state, events, "A")
    assert plan["target"]["position"] == 1
    assert plan_undo_mine(state, events, "C")["code"] == "nothing_to_undo"


def test_counters_are_taken_back_by_their_negation():
    state = play("reavers", ("Ann", "Bo", "Cecilie"))
    event = {"type": "territories", "data": {"player": "Cecilie", "add": 1}}
    assert inverse_event(state, state, event) == {
        "type": "territories", "data": {"player": "Cecilie", "add": -1}}
    sw = play("shipwrights", ("Ann", "Bo"))
    move = {"type": "track", "data": {"player": "Bo", "track": "trade", "steps": 2}}
    assert inverse_event(sw, sw, move)["data"]["steps"] == -2


def test_device_is_checked_in_the_event_body():
    knarr = GAMES["knarr"]
    assert parse_event(knarr, {"type": "advance", "device": "phone-1"})["device"] == "phone-1"
    for bad in ("", "x" * 65, "has space", 5, "é", "phone\n"):
        with pytest.raises(RuleError) as err:
            parse_event(knarr, {"type": "advance", "device": bad})
        assert err.value.field == "device" and err.value.status == 400
