"""Score sheets as HTML and PDF (the same template, print CSS)."""
from __future__ import annotations

import datetime as dt

from flask import current_app, render_template

from ..games import get_game
from ..pdf import html_to_pdf
from ..plays import score_of
from ..store import PlayRow


def scoresheet_html(row: PlayRow, state: dict) -> str:
    game = get_game(row.game)
    return render_template("pdf/scoresheet.html", row=row, state=state, game=game,
                           score=score_of(state), printed=dt.date.today().isoformat())


def scoresheet_pdf(row: PlayRow, state: dict) -> bytes:
    return html_to_pdf(scoresheet_html(row, state), current_app.static_folder)
