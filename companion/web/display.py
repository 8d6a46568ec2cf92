"""The table display (a read-only screen in the middle of the table) and the game clock's words.

The display: `/plays/<id>/<token>/display`, the view token is enough. It follows the play like
the phones do: the push stream (`/plays/<id>/<token>/live`) says "version N" and the page asks
for its own block with ?version=N (204 while nothing changed); a slow poll is the fallback.

The clock's numbers come from the core (companion.clock); this module only reads them at this
moment (through the service) and puts them into words for people.
"""
from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request
from jinja2_fragments.flask import render_block

from ..games import get_game
from ..plays import score_of
from ..tokens import token_role
from . import service
from .pages import open_play

bp = Blueprint("display", __name__)


@bp.get("/plays/<play_id>/<token>/display")
def display(play_id, token):
    seen = request.args.get("version", type=int)
    if seen is not None:
        access = service().store.play_access(play_id) if len(play_id) <= 32 else None
        if access is None or token_role(access, token) is None:
            abort(404)
        if seen == access.version:
            return Response(status=204)
    row, role = open_play(play_id, token)
    state = service().state(row)
    context = {"row": row, "role": role, "token": token, "state": state,
               "game": get_game(row.game), "score": score_of(state),
               "clock": service().clock_of(state)}
    if seen is not None:
        return render_block("table/display.html", "board", **context)
    return render_template("table/display.html", **context)


@bp.app_template_filter("duration")
def duration(seconds) -> str:
    """'1 h 05 min', '12 min' (an unknown length: an empty string)."""
    if seconds is None:
        return ""
    minutes = int(seconds) // 60
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@bp.app_template_global()
def duration_patterns() -> dict:
    """The duration words with {h} and {m} holes, for a page's ticking clock (display.js)."""
    return {"hm": "{h} h {m} min", "m": "{m} min"}
