"""The game clock (pure): times come from the events, a paused clock does not run."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import clock
from companion.games.errors import RuleError
from companion.plays import apply_event, new_state, replay

T0 = dt.datetime(2025, 5, 1, 18, 0, tzinfo=dt.UTC)


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def knarr(start=T0):
    return new_state("knarr", ["Ann", "Bo"], {}, 3, {}, started_at=start)


def event(kind, minutes, **data):
    return {"type": kind, "data": data, "at": at(minutes)}


def test_a_new_play_runs_from_its_start():
    state = knarr()
    assert state["clock"]["started_at"] == "2025-05-01T18:00:00+00:00"
    assert clock.read(state["clock"], at(12)).items() >= {
        "started_at": "2025-05-01T18:00:00+00:00", "finished_at": None, "running": True,
        "elapsed_s": 12 * 60}.items()


def test_a_paused_clock_does_not_run():
    state = replay(knarr(), [event("pause", 10)])
    assert state["clock"]["running"] is False
    for later in (10, 11, 60, 600):
        assert clock.read(state["clock"], at(later))["elapsed_s"] == 600


def test_resume_counts_on_from_the_resume_only():
    state = replay(knarr(), [event("pause", 10), event("resume", 40)])
    assert clock.read(state["clock"], at(45))["elapsed_s"] == 15 * 60


def test_finishing_stops_the_clock_at_the_finish_event():
    state = replay(knarr(), [event("pause", 5), event("resume", 20), event("finish", 50)])
    assert state["clock"]["finished_at"] == "2025-05-01T18:50:00+00:00"
    assert state["clock"]["running"] is False
    assert clock.read(state["clock"], at(500))["elapsed_s"] == 35 * 60


def test_a_game_that_ends_itself_stops_the_clock():
    """Seafarers finishes when a sheet reaches the target: no 'finish' event needed."""
    state = new_state("seafarers", ["Ann", "Bo", "Cy"], {"scenario": "new_shores"}, 1, {},
                      started_at=T0)
    target = state["setup"]["target_vp"]
    fields = {"settlements": 3, "cities": 4, "longest_route": True, "largest_army": True,
              "vp_cards": max(0, target - 15), "special_vp": 1}
    state = apply_event(state, {"type": "sheet", "at": at(30),
                                "data": {"player": "Ann", "fields": fields}})
    if not state["finished"]:
        state = apply_event(state, {"type": "advance", "data": {}, "at": at(30)})
    assert state["finished"] is True
    assert state["clock"]["finished_at"] == "2025-05-01T18:30:00+00:00"
    assert clock.read(state["clock"], at(90))["elapsed_s"] == 30 * 60


def test_pause_twice_or_resume_while_running_is_a_clear_error():
    paused = replay(knarr(), [event("pause", 1)])
    with pytest.raises(RuleError) as err:
        apply_event(paused, event("pause", 2))
    assert err.value.code == "clock_paused" and "already paused" in err.value.message
    with pytest.raises(RuleError) as err:
        apply_event(knarr(), event("resume", 2))
    assert err.value.code == "clock_running"


def test_no_pause_after_the_finish():
    finished = replay(knarr(), [event("finish", 3)])
    with pytest.raises(RuleError) as err:
        apply_event(finished, event("pause", 4))
    assert err.value.status == 422


def test_the_clock_never_reads_the_wall_clock():
    """Events without a time (an old export) leave the count alone instead of guessing."""
    state = replay(knarr(start=None), [{"type": "pause", "data": {}},
                                       {"type": "resume", "data": {}}])
    assert clock.read(state["clock"], at(30))["elapsed_s"] == 0
    assert state["clock"]["started_at"] is None


def test_times_as_text_or_naive_datetimes_mean_utc():
    state = replay(knarr(start="2025-05-01T18:00:00"), [
        {"type": "pause", "data": {}, "at": "2025-05-01T18:20:00+00:00"}])
    assert state["clock"]["elapsed_s"] == 20 * 60
    naive = knarr(start=dt.datetime(2025, 5, 1, 18, 0))
    assert clock.read(naive["clock"], at(1))["elapsed_s"] == 60


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=600), min_size=1, max_size=12))
def test_elapsed_is_the_sum_of_the_running_stretches(gaps):
    """Pause and resume alternate at the given gaps (minutes): what is counted is exactly the
    time between each resume (or the start) and the next pause; paused time never counts."""
    state, now, running, expected = knarr(), 0, True, 0
    for gap in gaps:
        now += gap
        if running:
            expected += gap * 60
        state = apply_event(state, event("pause" if running else "resume", now))
        running = not running
    later = now + 77
    if running:
        expected += 77 * 60
    assert clock.read(state["clock"], at(later))["elapsed_s"] == expected
