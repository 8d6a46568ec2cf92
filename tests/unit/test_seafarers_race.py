"""Catan: Seafarers, the race to the target worked from the rule text.

The 1997 book: "End of the game: The game ends as soon as a player has reached 12 VPs" (13 in
New Shores, 18 in Greater Catan) and "All rules are as in the basic game with the following
additions". The basic game: a player wins during their own turn, at once, once they have the
points; a player who reaches them during another's turn wins when their own turn comes. So
the play ends the moment the player whose turn it is stands at the target, and with two
players at the target only the player whose turn it is wins.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.games.seafarers import GAME
from companion.plays import apply_event, new_state, score_of

NAMES = ["Ann", "Bo", "Cy", "Di"]
TWELVE = {"settlements": 4, "cities": 4}            # 4 + 8 = 12 VP
ELEVEN = {"settlements": 3, "cities": 4}


def start(players=3, scenario="four_islands", seed=3):
    state = new_state("seafarers", NAMES[:players], {"scenario": scenario,
                                                      "layout": "variable"}, seed, {})
    return state


def ev(state, kind, **data):
    return apply_event(state, {"type": kind, "data": data})


def sheet(state, player, **fields):
    return ev(state, "sheet", player=player, fields=fields)


def to_turn_of(state, name):
    while state["table"]["current_player"] != name:
        state = ev(state, "advance")
    return state


def test_turns_go_clockwise_from_the_start_player_and_a_round_is_every_seat():
    state = start(3)
    first = state["setup"]["start_player"]
    assert state["table"]["current_player"] == first and state["round"] == 1
    seats = NAMES[:3]
    order = seats[seats.index(first):] + seats[:seats.index(first)]
    seen = []
    for _ in range(6):
        seen.append(state["table"]["current_player"])
        state = ev(state, "advance")
    assert seen == order * 2
    assert state["round"] == 3 and state["table"]["turn"] == 7


def test_reaching_the_target_on_ones_own_turn_ends_the_game_at_once():
    """No "Next turn" tap is needed: the sheet change that brings the player whose turn it is
    to 12 finishes the play, and they win."""
    state = to_turn_of(start(3), "Bo")
    state = sheet(state, "Bo", **ELEVEN)
    assert not state["finished"]
    state = sheet(state, "Bo", settlements=4)
    assert state["finished"]
    score = score_of(state)
    assert score["winners"] == ["Bo"] and score["turn"] == "Bo"
    assert score["provisional"] is False and score["game_over"] is True
    assert "Bo wins" in state["table"]["notices"][-1]
    with pytest.raises(RuleError) as err:                # the game is over: no more turns
        ev(state, "advance")
    assert err.value.code == "play_finished"


def test_a_player_reaching_the_target_on_anothers_turn_wins_when_their_turn_begins():
    state = to_turn_of(start(3), "Ann")
    state = sheet(state, "Bo", **TWELVE)                  # Bo at 12 during Ann's turn
    assert not state["finished"]
    assert score_of(state)["reached_target"] == ["Bo"]
    state = to_turn_of(state, "Bo")                       # Bo's turn begins: he wins at once
    assert state["finished"] and score_of(state)["winners"] == ["Bo"]


def test_one_who_fell_back_below_the_target_before_their_turn_does_not_win():
    state = to_turn_of(start(3), "Ann")
    state = sheet(state, "Bo", **TWELVE, longest_route=True)
    state = sheet(state, "Bo", longest_route=False, settlements=3)   # 11 again
    state = to_turn_of(state, "Bo")
    assert not state["finished"]


def test_with_two_players_at_the_target_only_the_player_whose_turn_it_is_wins():
    """Bo stands at 13 from Ann's turn; on Cy's turn Cy reaches 12: Cy wins alone, although
    Bo has more points, and the answer says why."""
    state = start(3)
    first = state["setup"]["start_player"]
    if first != "Ann":                                    # the seats: Ann, Bo, Cy
        state = to_turn_of(state, "Ann")
    state = sheet(state, "Bo", settlements=5, cities=4)   # 13 on Ann's turn
    state = ev(state, "advance")                          # Bo's turn: he wins at once...
    assert state["finished"] and score_of(state)["winners"] == ["Bo"]
    # ...unless he is not yet at the target when his turn begins: the turn passes to Cy
    state = start(3)
    state = to_turn_of(state, "Cy")
    state = sheet(state, "Bo", settlements=5, cities=4)   # Bo 13 during Cy's turn
    state = sheet(state, "Cy", **TWELVE)                  # Cy 12 on his own turn
    assert state["finished"]
    score = score_of(state)
    assert score["winners"] == ["Cy"]
    ranks = {p["name"]: p["rank"] for p in score["players"]}
    assert ranks == {"Cy": 1, "Bo": 2, "Ann": 3}
    assert "only the player whose turn it is wins: Cy" in score["tiebreak"]
    assert score["tiebreaks"][0] == score["tiebreak"]


def test_the_stateless_score_takes_whose_turn_it_is():
    body = {"players": [{"name": "Ann", "sheet": {"settlements": 5, "cities": 4}},
                        {"name": "Bo", "sheet": TWELVE}, {"name": "Cy", "sheet": {}}],
            "options": {"scenario": "four_islands"}}
    assert GAME.score(body, {})["winners"] == ["Ann"]               # no turn: most points
    result = GAME.score({**body, "turn": "Bo"}, {})
    assert result["winners"] == ["Bo"] and result["reached_target"] == ["Ann", "Bo"]
    assert GAME.score({**body, "turn": "Cy"}, {})["winners"] == ["Ann"]   # Cy short: leader
    with pytest.raises(RuleError) as err:
        GAME.score({**body, "turn": "Zed"}, {})
    assert (err.value.status, err.value.code, err.value.field) == (422, "unknown_player", "turn")
    with pytest.raises(RuleError) as err:
        GAME.score({**body, "turn": 3}, {})
    assert (err.value.status, err.value.field) == (400, "turn")


def test_undo_of_the_winning_change_reopens_the_game():
    from companion.plays import replay
    initial = to_turn_of(start(3), "Ann")
    events = [{"type": "sheet", "data": {"player": "Ann", "fields": TWELVE}}]
    assert replay(initial, events)["finished"]
    assert not replay(initial, [])["finished"]


def test_an_undo_of_the_winning_change_opens_the_game_again_on_the_same_turn():
    """Ann's phone types 12 for Ann on her turn by mistake (she has 11): the play ends; her
    Undo is a compensating change (another phone may have typed since), and the game goes
    on: her turn, no winner, no notice of a win, the clock running again. Its redo wins
    again."""
    from companion.undo import inverse_event
    before = sheet(to_turn_of(start(3), "Ann"), "Cy", settlements=2)
    typed = {"type": "sheet", "data": {"player": "Ann", "fields": TWELVE}}
    won = apply_event(before, {**typed, "at": "2026-11-26T00:10:00+00:00"})
    assert won["finished"] and won["clock"]["running"] is False
    back = inverse_event(before, won, typed)
    undone = apply_event(won, {**back, "at": "2026-11-26T00:11:00+00:00"})
    assert not undone["finished"] and undone["table"]["current_player"] == "Ann"
    assert not any("wins" in n for n in undone["table"]["notices"])
    assert score_of(undone)["provisional"] is True
    assert undone["clock"]["running"] is True and undone["clock"]["finished_at"] is None
    assert ev(undone, "advance")["table"]["current_player"] == "Bo"       # play goes on
    redone = apply_event(undone, inverse_event(won, undone, back))
    assert redone["finished"] and score_of(redone)["winners"] == ["Ann"]


def test_a_play_the_table_finished_is_not_opened_by_a_sheet_change():
    state = ev(sheet(to_turn_of(start(3), "Ann"), "Ann", **ELEVEN), "finish")
    state = sheet(state, "Ann", settlements=0)
    assert state["finished"]


def test_a_scenario_without_a_target_is_never_won_by_reaching_one():
    state = new_state("seafarers", NAMES, {"scenario": "great_crossing",
                                           "layout": "variable"}, 1, {})
    state = sheet(state, state["table"]["current_player"], settlements=5, cities=4, vp_cards=5)
    assert not state["finished"]


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["advance", "Ann", "Bo", "Cy", "undo"]),
                                st.integers(0, 5), st.integers(0, 4)), max_size=14))
def test_the_game_ends_exactly_when_the_player_on_turn_stands_at_the_target(steps):
    """Property: after any mix of turns, sheet changes and undos of the last sheet change
    (a compensating change, as a phone's Undo), the play is over exactly when the player
    whose turn it is reached 12 (at that moment), and then they alone win."""
    from companion.undo import inverse_event
    state, last = start(3), None
    for what, settlements, cities in steps:
        if what == "undo":
            if last is not None:
                before, change = last
                state, last = apply_event(state, inverse_event(before, state, change)), None
        elif state["finished"]:
            continue
        elif what == "advance":
            state, last = ev(state, "advance"), None
        else:
            change = {"type": "sheet", "data": {"player": what, "fields": {
                "settlements": settlements, "cities": cities}}}
            state, last = apply_event(state, change), (state, change)
        score = score_of(state)
        totals = {p["name"]: p["total"] for p in score["players"]}
        on_turn = state["table"]["current_player"]
        assert state["finished"] == (totals[on_turn] >= 12)
        if state["finished"]:
            assert score["winners"] == [on_turn]
            assert [p["name"] for p in score["players"] if p["rank"] == 1] == [on_turn]
