"""Seats on the phones (issue 24): which seat this phone is, whose turn it is, and what this
phone may change. A seat token is its seat for good (its link is the seat); a phone holding
the edit token takes a seat with "I am Ben" (a cookie scoped to this play's address, so a
reload and the next visit keep it) and may leave it again; a phone without a seat works as
before. The server enforces who may change what (companion.seats); this only draws the page
to match: with "own seat only", a seat's phone is offered no control of another seat."""
from __future__ import annotations

from flask import request, url_for

from ..seats import acting, edits_of, seat_name, whose_turn
from ..store import PlayRow
from ..tokens import seat_token_for, token_seat

SEAT_COOKIE = "nsc_seat"
COOKIE_AGE = 60 * 60 * 24 * 365


def chosen_seat(row: PlayRow, role: str, token: str) -> tuple[int | None, bool]:
    """(this phone's seat index or None, whether the token binds it)."""
    bound = token_seat(row, token)
    if bound is not None:
        return bound, True
    if role != "edit":
        return None, False
    raw = request.cookies.get(SEAT_COOKIE, "") if request else ""
    players = len(row.initial.get("players") or [])
    return (int(raw), False) if raw.isdigit() and int(raw) < players else (None, False)


def seat_context(row: PlayRow, role: str, token: str, state: dict) -> dict:
    """What the play page needs to draw this phone's seat first."""
    index, bound = chosen_seat(row, role, token)
    seat = seat_name(state, index)
    own_only = edits_of(state) == "own"
    order = list(enumerate(state["players"]))
    if index is not None:
        order = [order[index], *order[:index], *order[index + 1:]]

    def may_change(player: str | None) -> bool:
        """Whether this phone is offered controls for ``player`` (None: the table's)."""
        if role != "edit" or not (bound and own_only):
            return role == "edit"
        return player == seat if player is not None else whose_turn(state) == seat

    return {"seat": seat, "seat_bound": bound, "seat_order": order, "own_only": own_only,
            "turn": whose_turn(state), "acting": acting(state), "may_change": may_change,
            "seat_choices": seat_choices(row, role, token, state) if not bound else []}


def seat_choices(row: PlayRow, role: str, token: str, state: dict) -> list[dict]:
    """"I am Ann", "I am Bo", ...: the seats an edit-token phone may take (none for a view)."""
    if role != "edit":
        return []
    return [{"name": p["name"], "colour": p["colour"],
             "url": url_for("table.take_seat", play_id=row.id, token=token, seat=i)}
            for i, p in enumerate(state["players"])]


def seat_tokens(row: PlayRow, role: str, token: str) -> list[str]:
    """Every seat's token, for the host's phone (the edit token derives them); else none."""
    if role != "edit" or token_seat(row, token) is not None or not row.seat_hashes:
        return []
    return [seat_token_for(token, i) for i in range(len(row.seat_hashes))]
