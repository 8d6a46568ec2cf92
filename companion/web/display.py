"""The table display: a read-only screen for a tablet or TV in the middle of the table.

The display: `/plays/<id>/<token>/display`, the view token is enough. It follows the play like
the phones do: the push stream (`/plays/<id>/<token>/live`) says "version N" and the page asks
for its own block with ?version=N (204 while nothing changed); a slow poll is the fallback.

Opened from the host's phone ("Table display" there is a form, POST), it also shows one QR
code per seat (issue 24): the host's edit token travels in the request's body, never in an
address, and the display keeps only the view link it was opened at, so a reload or a view
link shows the table's code alone (web/seating.py, display_seat_codes).

The clock's numbers come from the core (companion.clock); the service reads them at this moment
and companion.web.i18n puts them into words (the `duration` filter, in the page's language).
"""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request
from jinja2_fragments.flask import render_block

from ..games import get_game
from ..plays import score_of
from . import service
from .pages import open_play, unchanged_since
from .seating import display_seat_codes

bp = Blueprint("display", __name__)


@bp.get("/plays/<play_id>/<token>/display")
def display(play_id, token):
    seen = request.args.get("version", type=int)
    if seen is not None and unchanged_since(play_id, token, seen):
        return Response(status=204)
    row, role = open_play(play_id, token)
    context = display_context(row, role, token)
    if seen is not None:
        return render_block("table/display.html", "board", **context)
    return render_template("table/display.html", **context)


@bp.post("/plays/<play_id>/<token>/display")
def display_with_seats(play_id, token):
    """The display with every seat's QR code, opened from the host's phone (its edit token in
    the form's ``host`` field). Kept out of every cache: the page holds the seats' links."""
    row, role = open_play(play_id, token)
    context = display_context(row, role, token)
    context["seat_codes"] = display_seat_codes(row, request.form.get("host"), context["state"])
    return render_template("table/display.html", **context), \
        {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def display_context(row, role: str, token: str) -> dict:
    state = service().state(row)
    return {"row": row, "role": role, "token": token, "state": state,
            "game": get_game(row.game), "score": score_of(state),
            "clock": service().clock_of(state), "seat_codes": []}

