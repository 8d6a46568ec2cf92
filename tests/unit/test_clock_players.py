"""A clock for every player (issue 24, api.md ``clock.players``), pure: the clock runs for the
player whose turn it is, ending a turn passes it, pause stops all; each player's total, turns
and longest turn; the players' times add up to the game clock."""
from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import clock
from companion.games.errors import RuleError
from companion.plays import apply_event, new_state, replay

T0 = dt.datetime(2025, 5, 1, 18, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def event(kind, second, **data):
    return {"type": kind, "data": data, "at": at(second)}


def knarr(players=("Ann", "Bo", "Cy")):
    return new_state("knarr", list(players), {}, 3, {}, started_at=T0)


def test_the_clock_runs_for_the_player_whose_turn_it_is():
    state = knarr()
    order = state["table"]["order"]
    first, second = order[0], order[1]
    read = clock.read(state["clock"], at(30))
    assert read["players"][first] == {"elapsed_s": 30, "turns": 0, "longest_s": 30}
    assert read["players"][second] == {"elapsed_s": 0, "turns": 0, "longest_s": 0}
    assert read["turn"] == {"player": first, "elapsed_s": 30}
    # ending the turn passes the clock on
    state = replay(state, [event("turn", 40)])
    read = clock.read(state["clock"], at(100))
    assert read["players"][first] == {"elapsed_s": 40, "turns": 1, "longest_s": 40}
    assert read["players"][second]["elapsed_s"] == 60
    assert read["turn"] == {"player": second, "elapsed_s": 60}


def test_pause_stops_every_clock_and_a_turn_spans_the_pause():
    state = knarr()
    first = state["table"]["order"][0]
    state = replay(state, [event("pause", 10), event("resume", 500), event("turn", 520)])
    read = clock.read(state["clock"], at(520))
    assert read["players"][first] == {"elapsed_s": 30, "turns": 1, "longest_s": 30}
    assert read["elapsed_s"] == 30
    paused = replay(state, [event("pause", 530)])
    later = clock.read(paused["clock"], at(5000))
    assert later["elapsed_s"] == 40 and sum(
        p["elapsed_s"] for p in later["players"].values()) == 40


def test_the_clock_changes_are_never_turns_and_a_finished_play_stops_them():
    state = replay(knarr(("Ann", "Bo")), [event("turn", 10), event("finish", 25)])
    read = clock.read(state["clock"], at(400))
    assert read["elapsed_s"] == 25
    assert sum(p["elapsed_s"] for p in read["players"].values()) == 25
    assert sum(p["turns"] for p in read["players"].values()) == 2
    assert read["turn"] is None


def test_a_phase_with_nobodys_turn_runs_on_nobodys_clock():
    """Shipwrights' reveal is the whole table's: its time is nobody's turn."""
    state = new_state("shipwrights", ["Ann", "Bo"], {}, 1, {}, started_at=T0)
    read = clock.read(state["clock"], at(10))
    assert read["turn"] is None and read["off_turns_s"] == 10
    assert all(p == {"elapsed_s": 0, "turns": 0, "longest_s": 0}
               for p in read["players"].values())


def test_a_phase_played_at_once_shares_the_clock_among_those_still_at_it():
    """Shipwrights' draft: every player's turn at once; each second of the table's time is
    split among the players it is waiting for, and a player's "done" ends their turn."""
    state = new_state("shipwrights", ["Ann", "Bo", "Cy"], {}, 7, {}, started_at=T0)
    state = replay(state, [event("reveal", 5, draft="clockwise"), event("advance", 10),
                           event("done", 40, player="Bo"), event("done", 70, player="Ann"),
                           event("done", 100, player="Cy")])
    assert state["phase"] == "actions"
    read = clock.read(state["clock"], at(130))
    # draft 10-40 shared by 3 (10 each), 40-70 by Ann and Cy (15 each), 70-100 Cy alone;
    # the actions from 100: 30 s shared by all three so far
    assert read["players"] == {"Ann": {"elapsed_s": 35, "turns": 1, "longest_s": 25},
                               "Bo": {"elapsed_s": 20, "turns": 1, "longest_s": 10},
                               "Cy": {"elapsed_s": 65, "turns": 1, "longest_s": 55}}
    assert read["turn"] is None and read["off_turns_s"] == 10 and read["elapsed_s"] == 130
    paused = clock.read(replay(state, [event("pause", 131)])["clock"], at(900))
    assert sum(p["elapsed_s"] for p in paused["players"].values()) + 10 == 131


def test_reavers_pawn_placement_passes_the_clock_and_cleanup_is_nobodys_turn():
    state = new_state("reavers", ["Ann", "Bo"], {}, 1, {}, started_at=T0)
    order = list(state["table"]["turn_order"])
    locations = ["recruit_reavers", "raid_villages", "raid_keeps", "conquer_territories",
                 "battle_at_sea", "trade_with_villages"]
    second, expected = 0, {"Ann": 0, "Bo": 0}
    for i, player in enumerate(order):
        wait = 10 * (i + 1)
        second += wait
        expected[player] += wait
        state = apply_event(state, {"type": "place", "data": {"location": locations[i]},
                                    "at": at(second)})
    read = clock.read(state["clock"], at(second + 100))
    assert {n: p["elapsed_s"] for n, p in read["players"].items()} == expected
    assert read["turn"] is None and read["off_turns_s"] == 100     # every pawn placed


# the table's actions: end a turn, pause, resume, change a sheet, each after a wait
ACTIONS = st.lists(st.tuples(st.sampled_from(["turn", "pause", "resume", "sheet", "advance"]),
                             st.integers(0, 400)), max_size=40)


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(["knarr", "explorers"]), players=st.integers(2, 4),
       actions=ACTIONS, read_after=st.integers(0, 3000))
def test_the_players_times_add_up_to_the_game_clock(game, players, actions, read_after):
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    state = new_state(game, names, {}, 7, {}, started_at=T0)
    second = 0
    for kind, wait in actions:
        second += wait
        data = {"player": names[0], "add": {"vp" if game == "knarr" else "enemy_ships": 1}} \
            if kind == "sheet" else {}
        try:
            state = apply_event(state, {"type": kind, "data": data, "at": at(second)})
        except RuleError:
            continue              # a pause of a paused clock, a turn after the game's end
    read = clock.read(state["clock"], at(second + read_after))
    times = sum(p["elapsed_s"] for p in read["players"].values())
    assert abs(times + read["off_turns_s"] - read["elapsed_s"]) <= 1
    if not state["finished"] and state["table"].get("current_player"):
        # while somebody has the turn, the players' times are the game clock's, within 1 s
        assert read["off_turns_s"] == 0
        assert abs(times - read["elapsed_s"]) <= 1
    for p in read["players"].values():
        assert 0 <= p["longest_s"] <= p["elapsed_s"]
    assert sum(p["turns"] for p in read["players"].values()) <= len(
        [a for a in actions if a[0] in ("turn", "advance")]) + 1
