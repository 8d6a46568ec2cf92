"""The table display: a read-only screen for a tablet or TV in the middle of the table.

The display: `/plays/<id>/<token>/display`, the view token is enough. It follows the play like
the phones do: the push stream (`/plays/<id>/<token>/live`) says "version N" and the page asks
for its own block with ?version=N (204 while nothing changed); a slow poll is the fallback.

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

bp = Blueprint("display", __name__)


@bp.get("/plays/<play_id>/<token>/display")
def display(play_id, token):
    seen = request.args.get("version", type=int)
    if seen is not None and unchanged_since(play_id, token, seen):
        return Response(status=204)
    row, role = open_play(play_id, token)
    state = service().state(row)
    context = {"row": row, "role": role, "token": token, "state": state,
               "game": get_game(row.game), "score": score_of(state),
               "clock": service().clock_of(state)}
    if seen is not None:
        return render_block("table/display.html", "board", **context)
    return render_template("table/display.html", **context)

