"""The game clock: when a play started and finished, and how long it was played; in games
with turns, a clock for every player (Shared Game Timer's idea, issue 24).

Pure: no Flask, no SQL, and never the wall clock. Every time comes from the event that carries it
(``event["at"]``, the time its row was written) or, for "now", from the caller. The state keeps
``clock`` = {"started_at", "finished_at", "running", "elapsed_s", "since"}: ``elapsed_s`` counts
the closed stretches of play; ``since`` is when the running stretch began. ``read`` adds the
running stretch for a given moment: that is the ``elapsed_s`` the API and the pages show.

Per player (companion.clock_players): the clock runs for the player whose turn it is; an event
that ends a turn passes it on, pause stops it. The times are whole seconds between the events'
times (which are whole seconds), so the players' times and the time nobody had a turn
(``off_turns_s``) add up to ``elapsed_s`` exactly.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from . import clock_players as players
from .games.errors import RuleError

EVENTS = ("pause", "resume")


def start(at: Any) -> dict:
    """The clock of a new play, running from ``at`` (None when the time is not known)."""
    when = iso(at)
    return {"started_at": when, "finished_at": None, "running": True, "elapsed_s": 0,
            "since": when}


def apply(state: dict, event: dict) -> dict:
    """A pause or resume event on a copy of the state."""
    if state["finished"]:
        raise RuleError("This play has finished; its clock has stopped.", "type",
                        "play_finished", 422)
    clock = players.ready(state, of(state))
    at = iso(event.get("at"))
    if event["type"] == "pause":
        if not clock["running"]:
            raise RuleError("The clock is already paused.", "type", "clock_paused", 409)
        clock = _stop(players.pause(clock, at), at)
    else:
        if clock["running"]:
            raise RuleError("The clock is already running.", "type", "clock_running", 409)
        clock = players.resume(dict(clock, running=True, since=at), at)
    return dict(state, clock=clock)


def follow(before: dict, after: dict, at: Any) -> dict:
    """After any other event: a turn that ended passes the players' clock on; a play that has
    just finished stops its clock at that event."""
    clock = players.follow(before, after, players.ready(before, of(after)), iso(at))
    if after["finished"] and not before["finished"]:
        clock = dict(_stop(clock, iso(at)), finished_at=iso(at))
    elif before["finished"] and not after["finished"]:     # the change that ended it undone
        clock = dict(clock, finished_at=None, running=True, since=iso(at))
    after["clock"] = clock
    return after


def of(state: dict) -> dict:
    """The state's clock; a play stored before the clock existed gets one that knows nothing."""
    return state.get("clock") or start(None)


def read(clock: dict | None, now: Any) -> dict:
    """The clock as people and the API see it at ``now``: the running stretch counted."""
    clock = clock or start(None)
    elapsed = clock["elapsed_s"]
    if clock["running"] and clock.get("since"):
        elapsed += seconds_between(clock["since"], iso(now))
    shown = {"started_at": clock["started_at"], "finished_at": clock["finished_at"],
             "running": clock["running"], "elapsed_s": elapsed}
    return players.read(clock, iso(now), shown)


def _stop(clock: dict, at: str | None) -> dict:
    if not clock["running"]:
        return clock
    gained = seconds_between(clock.get("since"), at)
    return dict(clock, running=False, since=None, elapsed_s=clock["elapsed_s"] + gained)


def seconds_between(start_at: str | None, end_at: str | None) -> int:
    """Whole seconds from one ISO time to a later one; 0 when either is unknown."""
    a, b = parse(start_at), parse(end_at)
    if a is None or b is None or b < a:
        return 0
    return int((b - a).total_seconds())


def iso(value: Any) -> str | None:
    """A datetime (naive ones are UTC, as the store writes them) or ISO text, as ISO text."""
    if isinstance(value, str):
        value = parse(value)
    if not isinstance(value, dt.datetime):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC).isoformat(timespec="seconds")


def parse(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=dt.UTC)
