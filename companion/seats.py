"""Seats: which phone may change what, and whose turn it is. Pure: no Flask, no SQL.

A play's ``seat_edits`` is the table's choice when it starts the play (api.md, "Seats"):
"all" (the default: every edit token and seat token edits every seat) or "own" (a seat token
edits only its own seat; the edit token, the host's, edits all). The host's phone may change
it later with a ``seat_edits`` event, which no seat token may send.

With "own", a change naming a player (a sheet, a Knarr turn, an island's pieces of one player)
is its player's seat's; a change naming none (advance, finish, a turn ended) follows the
game's turn: the seat whose turn it is may make it, any other seat is refused with 403
``not_your_seat`` and a plain sentence. The clock's pause and resume are the whole table's.
"""
from __future__ import annotations

from typing import Any

from .games.bodies import Body, one_of
from .games.errors import RuleError, say

EDITS = ("all", "own")       # the same words as SeatEditsChoice of a new play's body
DEFAULT_EDITS = "all"
NOT_YOUR_SEAT = "not_your_seat"
# the clock belongs to the whole table: any seat may pause it or start it again
TABLE_EVENTS = ("pause", "resume")


class SeatEdits(Body):
    """The host changes who may edit what (a seat token may not send this)."""
    edits: one_of(EDITS)


def edits_of(state: dict) -> str:
    """The play's edit policy ("all" for a play started before seats existed)."""
    edits = state.get("seat_edits")
    return edits if edits in EDITS else DEFAULT_EDITS


def names(state: dict) -> list[str]:
    return [p["name"] for p in state["players"]]


def seat_name(state: dict, seat: int | None) -> str | None:
    """The player sitting at seat index ``seat`` (None: no seat, the host or a script)."""
    if seat is None:
        return None
    players = names(state)
    return players[seat] if 0 <= seat < len(players) else None


def whose_turn(state: dict) -> str | None:
    """The player whose turn it is, in a game that keeps turns (its table's
    ``current_player``; Reavers' pawn placement: ``next_player``); None in games without
    turns, between turns (Reavers' cleanup) and once finished."""
    if state.get("finished"):
        return None
    table = state.get("table") or {}
    current = table.get("current_player", table.get("next_player"))
    return current if isinstance(current, str) and current in names(state) else None


def acting(state: dict) -> list[str]:
    """The players whose turn it is now: the one whose turn it is, or, in a phase the whole
    table plays at once (Shipwrights' draft and actions: "Players simultaneously take
    actions"), every player not yet done with it (its table's ``acting``, in seat order)."""
    turn = whose_turn(state)
    if turn is not None:
        return [turn]
    if state.get("finished"):
        return []
    together = (state.get("table") or {}).get("acting")
    return [p for p in names(state) if p in together] if isinstance(together, list) else []


def has_turns(state: dict) -> bool:
    """Whether the game keeps turns (a player's, or the table's at once) at all, even when
    nobody's is running now (Shipwrights' reveal, income and heroes)."""
    return whose_turn(state) is not None or isinstance(
        (state.get("table") or {}).get("acting"), list)


def player_of(event: dict) -> str | None:
    """The player a change names (its data's ``player``), else None."""
    data = event.get("data")
    player = data.get("player") if isinstance(data, dict) else None
    return player if isinstance(player, str) and player else None


def refusal(state: dict, seat: str | None, event: dict) -> RuleError | None:
    """Why the phone at ``seat`` may not make ``event`` now (None: it may). ``seat`` None is
    the host's edit token (or a phone without a seat): it may make every change."""
    if seat is None:
        return None
    kind = event.get("type")
    if kind == "seat_edits":
        return refused(say("Only the phone that started the play can change who may edit "
                           "which seat."))
    if kind == "turn_limit":
        return refused(say("Only the phone that started the play can change the turn limit."))
    if edits_of(state) == "all" or kind in TABLE_EVENTS:
        return None
    player = player_of(event)
    if player is not None:
        if player == seat:
            return None
        return refused(say("This phone is %(player)s's seat: only %(other_name)s's own phone or "
                           "the host's can change %(other_name)s's sheet.", player=seat,
                           other_name=player))
    turn = whose_turn(state)
    if turn == seat:
        return None
    if turn is not None:
        return refused(say("It is %(player)s's turn: only %(player)s's phone or the host's "
                           "can do that now.", player=turn))
    return refused(say("At this table only the host's phone can do that."))


def check_change(state: dict, seat: str | None, event: dict) -> None:
    why = refusal(state, seat, event)
    if why is not None:
        raise why


def check_taking_back(state: dict, seat: str | None, target: dict | None, own: bool) -> None:
    """An undo or redo by the phone at ``seat`` of the change ``target``: a change naming
    another player is refused; one naming nobody is allowed when this phone made it
    (``own``) or when a new change like it would be."""
    if seat is None or target is None or edits_of(state) == "all":
        return
    player = player_of(target)
    if player is None and own:
        return
    check_change(state, seat, {"type": target.get("type"), "data": target.get("data")})


def refused(message: str) -> RuleError:
    return RuleError(message, None, NOT_YOUR_SEAT, 403)


def apply_edits(state: dict, data: Any) -> dict:
    """The ``seat_edits`` event: the host changes who may edit what."""
    state["seat_edits"] = data.edits
    return state


def table_choices(state: dict, request) -> dict:
    """A new play's state with what the table chose besides the game: who may change what
    (companion.seats) and the starting phone's UTC offset (local dates in the exports)."""
    state["seat_edits"] = request.seat_edits or DEFAULT_EDITS
    state["utc_offset_min"] = request.utc_offset_min
    state["turn_limit_s"] = getattr(request, "turn_limit_s", None) or None
    return state
