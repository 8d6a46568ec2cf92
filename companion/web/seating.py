"""Seats on the phones (issue 24): which seat this phone is, whose turn it is, and what this
phone may change. A phone holding the edit token takes a seat with "I am Ben" and may leave
it; a phone holding a seat's link (its QR code) is that seat, and "Change seat" is one tap
away there too. A phone without a seat works as before. The choice is a cookie scoped to the
link's own address (/plays/<id>/<token>), so a reload and the next visit keep it and two
links of one play on one phone keep theirs apart.

What a phone may change is its token's, never the cookie's: the server enforces it
(companion.seats) and this only draws the page to match. A seat link's phone may leave its
seat (it then shows every seat, still with its own seat's rights) and, when the table lets
every phone edit every seat ("all"), sit at another seat: that gives it nothing its link
could not already do. With "own seat only" a Ben link shows Ben or no seat: Ann's seat is
Ann's code (a cookie naming another seat is ignored), so a Ben link never becomes Ann's.
"""
from __future__ import annotations

import base64

from flask import abort, request, url_for

from ..qr import qr_svg
from ..seats import acting, edits_of, seat_name, whose_turn
from ..store import PlayRow
from ..tokens import seat_token_for, token_role, token_seat
from .links import seat_link

SEAT_COOKIE = "nsc_seat"
NO_SEAT = "none"
COOKIE_AGE = 60 * 60 * 24 * 365


def cookie_path(play_id: str, token: str) -> str:
    return f"/plays/{play_id}/{token}"


def chosen_seat(row: PlayRow, role: str, token: str, state: dict) -> tuple[int | None,
                                                                             int | None]:
    """(the seat this phone shows as its own, the seat its token is bound to), as indexes in
    seat order or None."""
    bound = token_seat(row, token)
    if role != "edit":
        return None, None
    raw = request.cookies.get(SEAT_COOKIE, "") if request else ""
    if raw == NO_SEAT:
        return None, bound
    picked = int(raw) if raw.isdigit() and int(raw) < len(state["players"]) else None
    if bound is None:
        return picked, None
    if picked is not None and edits_of(state) == "all":
        return picked, bound
    return bound, bound


def seat_context(row: PlayRow, role: str, token: str, state: dict) -> dict:
    """What the play page needs to draw this phone's seat first."""
    index, bound = chosen_seat(row, role, token, state)
    seat = seat_name(state, index)
    own_seat = seat_name(state, bound)          # the seat the token may act for
    own_only = edits_of(state) == "own"
    order = list(enumerate(state["players"]))
    if index is not None:
        order = [order[index], *order[:index], *order[index + 1:]]

    def may_change(player: str | None) -> bool:
        """Whether this phone is offered controls for ``player`` (None: the table's)."""
        if role != "edit" or not (own_seat and own_only):
            return role == "edit"
        return player == own_seat if player is not None else whose_turn(state) == own_seat

    return {"seat": seat, "seat_bound": bound is not None, "own_seat": own_seat,
            "seat_order": order, "own_only": own_only, "turn": whose_turn(state),
            "acting": acting(state), "may_change": may_change,
            "seat_choices": seat_choices(row, role, token, state)}


def seat_choices(row: PlayRow, role: str, token: str, state: dict) -> list[dict]:
    """"I am Ann", "I am Bo", ...: the seats this phone may show as its own (none for a
    view link; a seat link with "own seat only": its own seat alone)."""
    if role != "edit":
        return []
    bound = token_seat(row, token)
    return [{"name": p["name"], "colour": p["colour"],
             "url": url_for("table.take_seat", play_id=row.id, token=token, seat=i)}
            for i, p in enumerate(state["players"])
            if bound is None or bound == i or edits_of(state) == "all"]


def seat_tokens(row: PlayRow, role: str, token: str) -> list[str]:
    """Every seat's token, for the host's phone (the edit token derives them); else none."""
    if role != "edit" or token_seat(row, token) is not None or not row.seat_hashes:
        return []
    return [seat_token_for(token, i) for i in range(len(row.seat_hashes))]


def display_seat_codes(row: PlayRow, host: str | None, state: dict) -> list[dict]:
    """Each seat's QR code for the table display, drawn into the page (a data: image): the
    host's phone sends its edit token in the body of the request that opens the display, the
    display itself keeps only the view link, so no address, log line or page that a view
    link opens holds a seat token. A token that is not the host's: 403."""
    if not host or token_role(row, host) != "edit" or token_seat(row, host) is not None:
        abort(403)
    codes = []
    for player, token in zip(state["players"], seat_tokens(row, "edit", host), strict=False):
        svg = base64.b64encode(qr_svg(seat_link(row.id, token)).encode()).decode()
        codes.append({"name": player["name"], "colour": player["colour"],
                      "src": f"data:image/svg+xml;base64,{svg}"})
    return codes
