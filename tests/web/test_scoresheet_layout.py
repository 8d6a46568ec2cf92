"""The score sheet's grid (issue 22): each row's values are one cell, a tab apart
(templates/pdf/scoresheet.html), so nothing but the tab stops puts a value under its
player's name. Read back from the PDF (pdftotext -bbox): in every game, with as many players
as it takes (at most five: the narrowest columns), in English and German, every total and
every rank starts within 0.7 mm of the left edge of its player's name (a tab-size that missed
the column by a pixel would put the fifth value more than a millimetre off)."""
from __future__ import annotations

import re
import subprocess

import pytest
from flask_babel import gettext

from benchmarks.bench_pdf import LONG_NAMES, ended_play
from companion.games import GAMES
from companion.pdf import Renderer
from companion.web import service
from companion.web.sheets import scoresheet_html

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">'
                  r'([^<]*)</word>')
SLACK_PT = 2.0     # 0.7 mm: Pango places a tab stop a few hundredths of a pixel early


def words(pdf: bytes, tmp_path) -> list[tuple[float, float, str]]:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    return [(float(x), float(y), w) for x, y, w in WORD.findall(out)]


def row_starts(found, label: str) -> list[float]:
    """The left edges of the values on the line that starts with ``label``, one per value
    (a rank's star and a value's second word are not values of their own)."""
    y = next(y for x, y, w in found if w == label)
    line = sorted((x, w) for x, y_, w in found if abs(y_ - y) < 1 and w != label)
    return [x for x, w in line if w != "★"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_value_stands_under_its_players_name(app, client, lang, tmp_path):
    renderer = Renderer(app.static_folder)
    for game_id in sorted(GAMES):
        play_id = ended_play(client, game_id)["id"]
        with app.test_request_context(headers={"Accept-Language": lang}):
            row = service().load(play_id)
            html = scoresheet_html(row, service().state(row))
            labels = (gettext("Total"), gettext("Rank"))
        found = words(renderer.render(html), tmp_path)
        players = LONG_NAMES[:min(5, GAMES[game_id].max_players)]
        head = next(y for x, y, w in found if w == players[0]        # the names' own line
                    and all(any(w_ == n and abs(y_ - y) < 1 for _, y_, w_ in found)
                            for n in players))
        names = [next(x for x, y, w in found if w == name and abs(y - head) < 1)
                 for name in players]
        for label in labels:
            starts = row_starts(found, label)
            assert len(starts) == len(names), (game_id, lang, label, starts)
            for name, x, at in zip(players, starts, names, strict=True):
                assert abs(x - at) <= SLACK_PT, (game_id, lang, label, name, x, at)
