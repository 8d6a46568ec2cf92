"""Score sheets and blank score pads as HTML and PDF (ordinary templates, print CSS)."""
from __future__ import annotations

import datetime as dt

from flask import has_request_context, render_template, request

from ..games import get_game
from ..games.errors import RuleError, say
from ..games.protocol import Game
from ..plays import score_of
from ..store import PlayRow
from . import service
from .documents import make_pdf

PAPERS = {"a4": "A4", "letter": "Letter"}
MIN_PAD_ROWS = 3


def paper_of(value: str | None) -> str:
    """"a4" (the default) or "letter"; anything else is a clear 400."""
    paper = (value or "a4").lower()
    if paper not in PAPERS:
        raise RuleError("Paper must be a4 or letter.", "paper")
    return paper


def _requested_paper() -> str:
    return paper_of(request.args.get("paper")) if has_request_context() else "a4"


def row_label(category: str) -> str:
    from .i18n import category_name

    return category_name(category)


def row_notes(score: dict) -> list[tuple[str, list[tuple[list[str], str]]]]:
    """How each scoring row was counted, said once under the table instead of in every cell:
    for each row with explanations, the distinct sentences in the reader's language, each with
    the players it is about (an empty list: it is every player's). A sentence repeated in
    every cell of a row ("No wall tokens.") is printed once; in a narrow cell each explanation
    wrapped over 2-4 lines, and the line boxes were most of a sheet's render cost (issue 22)."""
    from .words import core

    players = score.get("players") or []
    notes = []
    for category in players[0]["categories"] if players else ():
        said: dict[str, list[str]] = {}
        for player in players:
            why = (player.get("explanations") or {}).get(category)
            if why:
                said.setdefault(str(core(why)), []).append(player["name"])
        if said:
            everyone = len(said) == 1 and len(next(iter(said.values()))) == len(players) > 1
            notes.append((category, [([] if everyone else names, text)
                                     for text, names in said.items()]))
    return notes


def to_enter_groups(score: dict) -> list[tuple[list[str], list[str]]]:
    """The end-game rows still to enter, each list said once with the players it is about
    (at the end of a play every player often has the same rows left: one line, not five)."""
    groups: dict[tuple, list[str]] = {}
    for entry in score.get("to_enter") or ():
        groups.setdefault(tuple(entry["rows"]), []).append(entry["player"])
    return [(names, list(rows)) for rows, names in groups.items()]


def scoresheet_html(row: PlayRow, state: dict, paper: str | None = None) -> str:
    game = get_game(row.game)
    score = score_of(state)
    return render_template("pdf/scoresheet.html", row=row, state=state, game=game,
                           score=score, notes=row_notes(score), to_enter=to_enter_groups(score),
                           printed=dt.date.today().isoformat(),
                           clock=service().clock_of(state),
                           paper=paper or _requested_paper(), row_label=row_label)


def scoresheet_pdf(row: PlayRow, state: dict, paper: str | None = None) -> bytes:
    return make_pdf(scoresheet_html(row, state, paper), row.id)


def pad_rows(game: Game) -> list[str]:
    """The rows of a blank pad: the game's scoring rows, else its sheet's labels."""
    names = [f"Player {i + 1}" for i in range(max(game.min_players, 2))]
    body = {"players": [{"name": n, "sheet": {}} for n in names], "options": {}}
    labels = [f.label for f in game.sheet_fields if f.kind != "text"]
    try:
        score = game.score(body, game.empty_catalogue())
        rows = [row_label(c) for c in score["players"][0]["categories"]]
    except (RuleError, NotImplementedError):
        rows = []
    if len(rows) < MIN_PAD_ROWS and len(labels) > len(rows):
        rows = labels  # one overall score row (Knarr): the sheet's own rows help more
    return rows or [say("Victory points")]


def pad_html(game: Game, players: int, paper: str) -> str:
    return render_template("pdf/pad.html", game=game, players=players, paper=paper,
                           rows=pad_rows(game), columns=range(players))


def pad_pdf(game: Game, players: int, paper: str) -> bytes:
    return make_pdf(pad_html(game, players, paper), "_pads")
