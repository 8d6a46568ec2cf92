"""Plays as event logs: pure replay, validation before anything is applied."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.plays import apply_event, new_state, parse_event, parse_seed, replay, score_of


def knarr_state():
    return new_state("knarr", [{"name": "Ann"}, {"name": "Bo", "colour": "blue"}], {}, 3, {})


def sheet(player, **fields):
    return {"type": "sheet", "data": {"player": player, "fields": fields}}


def test_new_state_holds_seats_setup_and_empty_sheets():
    state = knarr_state()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bo"]
    assert state["players"][1]["colour"] == "blue"
    assert state["version"] == 0 and state["finished"] is False
    assert set(state["sheets"]) == {"Ann", "Bo"}
    assert state["setup"]["first_player"] in ("Ann", "Bo")


def test_apply_never_changes_its_input():
    state = knarr_state()
    after = apply_event(state, sheet("Ann", vp=4))
    assert after["sheets"]["Ann"]["vp"] == 4
    assert state["sheets"]["Ann"].get("vp", 0) == 0


def test_a_bad_field_rejects_the_whole_event():
    with pytest.raises(RuleError) as err:
        apply_event(knarr_state(), sheet("Ann", vp=4, bracelets=9))
    assert err.value.field == "data.fields.bracelets"


def test_unknown_player_and_event_type():
    with pytest.raises(RuleError) as err:
        apply_event(knarr_state(), sheet("Zed", vp=1))
    assert err.value.field == "data.player"
    with pytest.raises(RuleError):
        apply_event(knarr_state(), {"type": "warp", "data": {}})


def test_finished_play_takes_only_sheet_corrections():
    state = apply_event(knarr_state(), {"type": "finish", "data": {}})
    assert apply_event(state, sheet("Bo", vp=2))["sheets"]["Bo"]["vp"] == 2
    with pytest.raises(RuleError) as err:
        apply_event(state, {"type": "advance", "data": {}})
    assert err.value.status == 422


def test_parse_event_checks_shape():
    knarr = GAMES["knarr"]
    event = parse_event(knarr, {"type": "advance"})
    assert {k: event[k] for k in ("type", "data", "expected_version", "device")} == {
        "type": "advance", "data": {}, "expected_version": None, "device": None}
    for bad, field in (([], None), ({"type": ""}, "type"), ({"type": "turn", "data": 3}, "data"),
                       ({"type": "advance", "expected_version": "1"}, "expected_version"),
                       ({"type": "advance", "extra": 1}, "extra")):
        with pytest.raises(RuleError) as err:
            parse_event(knarr, bad)
        assert err.value.field == field


def test_seeds_string_or_int():
    assert parse_seed("42") == 42 and parse_seed("table one") == "table one"
    for bad in (True, 1.5, "", None, "x" * 201):
        with pytest.raises(RuleError):
            parse_seed(bad)


def test_same_seed_same_play_different_seed_differs():
    a = new_state("reavers", ["Ann", "Bo", "Cy"], {}, "s1", {})
    b = new_state("reavers", ["Ann", "Bo", "Cy"], {}, "s1", {})
    assert a == b
    starts = {new_state("reavers", ["Ann", "Bo", "Cy"], {}, s, {})["setup"]["start_player"]
              for s in range(30)}
    assert len(starts) == 3


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "Bo"]), st.integers(0, 200)), max_size=25))
def test_replay_equals_stepwise_application(edits):
    initial = knarr_state()
    events = [sheet(p, vp=v) for p, v in edits]
    state = initial
    for event in events:
        state = apply_event(state, event)
    assert replay(initial, events) == state
    for name in ("Ann", "Bo"):
        last = [v for p, v in edits if p == name]
        assert state["sheets"][name].get("vp", 0) == (last[-1] if last else 0)


def test_seed_text_with_doubled_minus_stays_text():
    assert parse_seed("--5") == "--5"
    assert parse_seed("-7") == -7


def seafarers_state():
    return new_state("seafarers", ["Ann", "Bo", "Cy"], {"scenario": "oceans"}, 5, {})


def test_a_live_play_refuses_an_impossible_sheet_and_keeps_its_state():
    """Two holders of Largest Army cannot happen: the event is refused, nothing changes."""
    state = apply_event(seafarers_state(), sheet("Ann", largest_army=True))
    with pytest.raises(RuleError) as err:
        apply_event(state, sheet("Bo", largest_army=True))
    assert (err.value.status, err.value.code) == (422, "impossible_sheet")
    assert "Ann and Bo" in err.value.message
    assert state["sheets"]["Bo"] == {}
    with pytest.raises(RuleError) as err:   # Oceans: "No special VPs are awarded"
        apply_event(state, sheet("Cy", settlements=2, special_vp=1))
    assert err.value.field == "players[2].sheet.special_vp"


def test_a_recorded_log_replays_even_when_a_later_check_would_refuse_it():
    """A play recorded before a check existed still opens; its score names the problem."""
    events = [sheet("Ann", largest_army=True), sheet("Bo", largest_army=True)]
    state = replay(seafarers_state(), events)
    assert state["sheets"]["Bo"] == {"largest_army": True}
    assert score_of(state)["error"]["code"] == "impossible_sheet"


@pytest.mark.parametrize("colour", [{}, [], "", 0, False, "mauve"])
def test_a_colour_that_is_not_a_colour_is_a_400_naming_it(colour):
    """Only an absent or null colour means "give the seat one" (schemathesis found {} taken
    as no colour: the document says a colour or null)."""
    with pytest.raises(RuleError) as err:
        new_state("knarr", [{"name": "Ann", "colour": colour}, "Bo"], {}, 3, {})
    assert (err.value.status, err.value.field) == (400, "players[0].colour")


def test_a_null_colour_gives_the_seat_its_colour():
    state = new_state("knarr", [{"name": "Ann", "colour": None}, {"name": "Bo"}], {}, 3, {})
    assert [p["colour"] for p in state["players"]] == ["red", "blue"]
