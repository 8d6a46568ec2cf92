"""A clock for every player (issue 24): in games with turns the play's clock runs for the
player whose turn it is; an event that ends a turn passes it on; pause stops it; the end of
the play stops it. Pure, and never the wall clock: the times come from the events.

The play may set a limit on one turn (``turn_limit_s``, issue 24: when starting the play, and
later from the host's phone with a ``turn_limit`` event): the phone whose turn it is gives a
gentle signal when its turn passes it (the page does; the state only keeps the number).

The game clock (companion.clock) keeps, besides its own keys, in a game with turns:
``players`` {name: {"elapsed_s", "turns", "longest_s"}} (closed time, turns ended, the
longest ended turn), ``turn_of`` (whose clock runs, None between turns), ``turn_s`` (the
current turn's time before ``turn_since``), ``turn_since`` (when the running stretch of the
current turn began, None while paused), ``off_turns_s`` (time running with nobody's turn:
entering the final scores) and ``turn_mark`` (what tells one turn from the next).

A phase the whole table plays at once (Shipwrights' draft and actions: no single player's
turn) is every player's turn until they say they are done: the clock is shared by those still
at it (``sharing``; ``shares_s`` each one's share of this phase), so a running second is one
second of the table's time split among the players it is waiting for, and the players' times
with ``off_turns_s`` still add up to ``elapsed_s`` exactly. Saying "done" ends that player's
turn (counted, its share their turn's length).

Never changes a clock in place: a state's clock may be shared with the state before it.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from .games.bodies import Body
from .games.requests import TurnLimit
from .seats import acting, has_turns, whose_turn


class TurnLimitChange(Body):
    """The host changes the optional limit on one turn (a seat token may not send this)."""
    seconds: TurnLimit = None


def turn_limit(state: dict) -> int | None:
    """The play's limit on one turn in seconds (``turn_limit_s``), None when it has none."""
    limit = state.get("turn_limit_s")
    return limit if isinstance(limit, int) and limit > 0 else None


def apply_turn_limit(state: dict, data: Any) -> dict:
    """The ``turn_limit`` event: a new limit (0 or null: none), from the next moment on."""
    state["turn_limit_s"] = data.seconds or None
    return state


def turn_mark(state: dict) -> list:
    """What changes when a turn ends: whose it is and the game's own turn counters (in a
    phase the table plays at once: the phase and who is still at it)."""
    table = state.get("table") or {}
    placed = table.get("placements")
    mark = [whose_turn(state), table.get("turn"), table.get("turns_done"), state.get("round"),
            len(placed) if isinstance(placed, list) else None]
    return mark + [state.get("phase"), together(state)] if "acting" in table else mark


def together(state: dict) -> list[str]:
    """The players sharing the clock: those still at a phase the table plays at once."""
    return acting(state) if whose_turn(state) is None else []


def ready(state: dict, clock: dict) -> dict:
    """``clock`` with the players' clocks, when the game has turns (a play stored before
    them starts them now; what it ran before counts as nobody's turn)."""
    if "players" in clock or not has_turns(state):
        return clock
    running = clock["running"] and bool(clock.get("since"))
    sharing = together(state)
    return dict(clock, players={p["name"]: {"elapsed_s": 0, "turns": 0, "longest_s": 0}
                                for p in state["players"]},
                turn_of=whose_turn(state), turn_s=0, sharing=sharing,
                shares_s=dict.fromkeys(sharing, 0),
                turn_since=clock.get("since") if running else None,
                off_turns_s=clock["elapsed_s"], turn_mark=turn_mark(state))


def follow(before: dict, after: dict, clock: dict, at: str | None) -> dict:
    """After an event that is not the clock's: a turn that ended passes the clock on; in a
    phase the table plays at once, a player who is done stops sharing it."""
    if "players" not in clock:
        return clock
    mark = turn_mark(after)
    if mark == clock["turn_mark"] and not (after["finished"] and not before["finished"]):
        return clock
    same_phase = (before.get("round"), before.get("phase")) == (
        after.get("round"), after.get("phase")) and not after["finished"]
    sharing = together(after)
    clock = _end_turn(_charge(clock, at), sharing if same_phase else [])
    running = clock["running"] and not after["finished"]
    shares = (clock.get("shares_s") or {}) if same_phase else {}
    return dict(clock, turn_of=whose_turn(after), turn_mark=mark, sharing=sharing,
                shares_s={name: shares.get(name, 0) for name in sharing},
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
    and ``off_turns_s``: the running stretch counted for the player whose turn it is, or
    shared by the players still at a phase the table plays at once."""
    if "players" not in clock:
        return shown
    extra = seconds(clock.get("turn_since"), now) if clock["running"] else 0
    holder = clock.get("turn_of")
    current = clock["turn_s"] + extra
    split = {} if holder else share(extra, _sharing(clock))
    shares = clock.get("shares_s") or {}
    out = {}
    for name, kept in clock["players"].items():
        mine = name == holder
        now_s = current if mine else shares.get(name, 0) + split.get(name, 0)
        out[name] = {"elapsed_s": kept["elapsed_s"] + (extra if mine else split.get(name, 0)),
                     "turns": kept["turns"],
                     "longest_s": max(kept["longest_s"],
                                      now_s if mine or name in split else 0)}
    nobody = not holder and not split
    return dict(shown, players=out,
                turn={"player": holder, "elapsed_s": current} if holder else None,
                off_turns_s=clock["off_turns_s"] + (extra if nobody else 0))


def share(gained: int, names: list[str]) -> dict[str, int]:
    """Whole seconds shared out among ``names``, adding up to ``gained`` exactly (the odd
    seconds to the first of them in seat order)."""
    if not names:
        return {}
    each, odd = divmod(gained, len(names))
    return {name: each + (1 if i < odd else 0) for i, name in enumerate(names)}


def _sharing(clock: dict) -> list[str]:
    return [name for name in clock.get("sharing") or [] if name in clock["players"]]


def _charge(clock: dict, at: str | None) -> dict:
    """The running stretch up to ``at`` counted for whoever's turn it is, shared by those
    still at a phase the table plays at once, or nobody's."""
    if not clock["running"] or not clock.get("turn_since"):
        return clock
    gained = seconds(clock["turn_since"], at)
    holder = clock.get("turn_of")
    players = clock["players"]
    if holder in players:
        kept = players[holder]
        return dict(clock, turn_since=at, turn_s=clock["turn_s"] + gained,
                    players={**players, holder: dict(kept, elapsed_s=kept["elapsed_s"] + gained)})
    split = share(gained, _sharing(clock))
    if not split:
        return dict(clock, turn_since=at, off_turns_s=clock["off_turns_s"] + gained)
    shares = clock.get("shares_s") or {}
    return dict(clock, turn_since=at,
                players={**players, **{name: dict(players[name], elapsed_s=players[name][
                    "elapsed_s"] + s) for name, s in split.items()}},
                shares_s={**shares, **{name: shares.get(name, 0) + s
                                       for name, s in split.items()}})


def _end_turn(clock: dict, still: list[str]) -> dict:
    """The current turn is over (counted, and the longest kept); at a phase the table plays
    at once, the turn of each player no longer at it (those in ``still`` go on)."""
    players = dict(clock["players"])
    ended = [(clock.get("turn_of"), clock["turn_s"])]
    shares = clock.get("shares_s") or {}
    ended += [(name, shares.get(name, 0)) for name in _sharing(clock) if name not in still]
    for name, took in ended:
        if name in players:
            kept = players[name]
            players[name] = dict(kept, turns=kept["turns"] + 1,
                                 longest_s=max(kept["longest_s"], took))
    return dict(clock, turn_s=0, players=players)


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
