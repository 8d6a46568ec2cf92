"""A clock for every player (issue 24): in games with turns the play's clock runs for the
player whose turn it is; an event that ends a turn passes it on; pause stops it; the end of
the play stops it. Pure, and never the wall clock: the times come from the events.

The game clock (companion.clock) keeps, besides its own keys, in a game with turns:
``players`` {name: {"elapsed_s", "turns", "longest_s"}} (closed time, turns ended, the
longest ended turn), ``turn_of`` (whose clock runs, None between turns), ``turn_s`` (the
current turn's time before ``turn_since``), ``turn_since`` (when the running stretch of the
current turn began, None while paused), ``off_turns_s`` (time running with nobody's turn:
entering the final scores) and ``turn_mark`` (what tells one turn from the next).

Never changes a clock in place: a state's clock may be shared with the state before it.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from .seats import whose_turn


def turn_mark(state: dict) -> list:
    """What changes when a turn ends: whose it is and the game's own turn counters."""
    table = state.get("table") or {}
    placed = table.get("placements")
    return [whose_turn(state), table.get("turn"), table.get("turns_done"), state.get("round"),
            len(placed) if isinstance(placed, list) else None]


def ready(state: dict, clock: dict) -> dict:
    """``clock`` with the players' clocks, when the game has turns (a play stored before
    them starts them now; what it ran before counts as nobody's turn)."""
    if "players" in clock or whose_turn(state) is None:
        return clock
    running = clock["running"] and bool(clock.get("since"))
    return dict(clock, players={p["name"]: {"elapsed_s": 0, "turns": 0, "longest_s": 0}
                                for p in state["players"]},
                turn_of=whose_turn(state), turn_s=0,
                turn_since=clock.get("since") if running else None,
                off_turns_s=clock["elapsed_s"], turn_mark=turn_mark(state))


def follow(before: dict, after: dict, clock: dict, at: str | None) -> dict:
    """After an event that is not the clock's: a turn that ended passes the clock on."""
    if "players" not in clock:
        return clock
    mark = turn_mark(after)
    if mark == clock["turn_mark"] and not (after["finished"] and not before["finished"]):
        return clock
    clock = _end_turn(_charge(clock, at))
    running = clock["running"] and not after["finished"]
    return dict(clock, turn_of=whose_turn(after), turn_mark=mark,
                turn_since=at if running else None)


def pause(clock: dict, at: str | None) -> dict:
    if "players" not in clock:
        return clock
    return dict(_charge(clock, at), turn_since=None)


def resume(clock: dict, at: str | None) -> dict:
    return dict(clock, turn_since=at) if "players" in clock else clock


def read(clock: dict, now: str | None, shown: dict) -> dict:
    """``shown`` (the game clock as read at ``now``) with ``players`` {name: {"elapsed_s",
    "turns", "longest_s"}}, ``turn`` {"player", "elapsed_s"} (the turn running now, or None)
    and ``off_turns_s``: the running stretch counted for the player whose turn it is."""
    if "players" not in clock:
        return shown
    extra = seconds(clock.get("turn_since"), now) if clock["running"] else 0
    holder = clock.get("turn_of")
    current = clock["turn_s"] + extra
    out = {}
    for name, kept in clock["players"].items():
        mine = name == holder
        out[name] = {"elapsed_s": kept["elapsed_s"] + (extra if mine else 0),
                     "turns": kept["turns"],
                     "longest_s": max(kept["longest_s"], current if mine else 0)}
    return dict(shown, players=out,
                turn={"player": holder, "elapsed_s": current} if holder else None,
                off_turns_s=clock["off_turns_s"] + (0 if holder else extra))


def _charge(clock: dict, at: str | None) -> dict:
    """The running stretch up to ``at`` counted for whoever's turn it is (or nobody's)."""
    if not clock["running"] or not clock.get("turn_since"):
        return clock
    gained = seconds(clock["turn_since"], at)
    holder = clock.get("turn_of")
    if holder is None or holder not in clock["players"]:
        return dict(clock, turn_since=at, off_turns_s=clock["off_turns_s"] + gained)
    kept = clock["players"][holder]
    return dict(clock, turn_since=at, turn_s=clock["turn_s"] + gained,
                players={**clock["players"],
                         holder: dict(kept, elapsed_s=kept["elapsed_s"] + gained)})


def _end_turn(clock: dict) -> dict:
    """The current turn is over: counted, and the longest kept."""
    holder = clock.get("turn_of")
    if holder is None or holder not in clock["players"]:
        return dict(clock, turn_s=0)
    kept = clock["players"][holder]
    return dict(clock, turn_s=0, players={**clock["players"], holder: dict(
        kept, turns=kept["turns"] + 1, longest_s=max(kept["longest_s"], clock["turn_s"]))})


def seconds(start_at: Any, end_at: Any) -> int:
    """Whole seconds from one ISO time to a later one; 0 when either is unknown."""
    try:
        a = dt.datetime.fromisoformat(start_at) if isinstance(start_at, str) else None
        b = dt.datetime.fromisoformat(end_at) if isinstance(end_at, str) else None
    except ValueError:
        return 0
    if a is None or b is None or b < a:
        return 0
    return int((b - a).total_seconds())
