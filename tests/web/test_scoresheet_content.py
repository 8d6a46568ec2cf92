"""What a printed score sheet carries (issue 22: the sheet's render cost was cut by saying each
cell's explanation once, under the table, instead of in every cell). Every game, as many players
as it takes (at most five), a play ended with a sheet for everyone, in English, German and
French, read back from the PDF itself (pdftotext):

- every row's value for every player, in the players' order, on the row's own line, and the
  totals and ranks; each player's time, turns and longest turn (a sentence under the table);
- the rows still to enter, each list once with the names of the players it is about;
- the winner (or the leader) and the tie-break sentence;
- each player's explanation of each row: printed, and said once: a sentence that several
  players share is printed once, with their names (or once for everyone), never in a cell.
"""
from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser

import pytest
from flask_babel import gettext, ngettext

from benchmarks.bench_pdf import ended_play
from companion.games import GAMES
from companion.pdf import Renderer
from companion.plays import score_of
from companion.web import service
from companion.web.i18n import and_list, rank_words, turn_time
from companion.web.sheets import row_label, row_notes, scoresheet_html, to_enter_groups
from companion.web.words import core


def pdf_text(pdf: bytes, tmp_path, layout: bool) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", *(["-layout"] if layout else []), str(path), "-"],
                          check=True, capture_output=True, text=True).stdout


def flat(text: str) -> str:
    return " ".join(text.split())


class Cells(HTMLParser):
    """The text inside the table's cells."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.texts = 0, []

    def handle_starttag(self, tag, attrs):
        self.depth += tag in ("td", "th")

    def handle_endtag(self, tag):
        self.depth -= tag in ("td", "th")

    def handle_data(self, data):
        if self.depth and data.strip():
            self.texts.append(data.strip())


def row_line(layout: str, label: str, values: list) -> bool:
    """A line of the PDF's layout text that starts with the row's label (its first word, when
    the label wraps in its narrow column) and goes on with these values, in this order (a
    no-break space inside a value, "0 s", may come back as nothing)."""
    first = re.escape(label.split()[0])
    cells = r"\s+".join(r"\s*".join(map(re.escape, str(v).split())) for v in values)
    return re.search(rf"^\s*{first}\b.*?\s{cells}\s*$", layout, re.M) is not None


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_printed_sheet_carries_every_value_and_says_each_explanation_once(
        app, client, lang, tmp_path):
    renderer = Renderer(app.static_folder)
    for game_id in sorted(GAMES):
        play_id = ended_play(client, game_id)["id"]
        with app.test_request_context(headers={"Accept-Language": lang}):
            row = service().load(play_id)
            state = service().state(row)
            html = scoresheet_html(row, state)
            score = score_of(state)
            clock = service().clock_of(state)
            notes = row_notes(score)
            players = score["players"]
            labels = {cat: str(row_label(cat)) for cat in players[0]["categories"]}
            sheet_label = {f.name: f.label for f in GAMES[game_id].sheet_fields}
            said = {cat: {str(core(p["explanations"][cat])) for p in players
                          if (p.get("explanations") or {}).get(cat)}
                    for cat in labels}
            clocks = [clock["players"][p["name"]] for p in players]
            words = {gettext("Total"): [p["total"] for p in players],
                     gettext("Rank"): [rank_words(p["rank"]) + (" ★" if p["rank"] == 1 else "")
                                       for p in players]}
            times = [gettext("%(name)s: %(time)s, %(turns)s, longest turn %(longest)s",
                             name=p["name"], time=turn_time(c["elapsed_s"]),
                             turns=ngettext("%(num)s turn", "%(num)s turns", c["turns"]),
                             longest=turn_time(c["longest_s"]))
                     for p, c in zip(players, clocks, strict=True)]
            to_enter = to_enter_groups(score)
            still = [gettext("%(names)s: %(why)s", names=and_list(names), why=", ".join(
                str(row_label(r)) if r in labels else str(core(sheet_label[r])) for r in rows))
                for names, rows in to_enter]
            decided = score["game_over"] and not score.get("provisional")
            names = and_list(score["winners"])
            result = (ngettext("Winner: %(names)s", "Winners: %(names)s",
                               len(score["winners"]), names=names)
                      if decided else gettext("Leading: %(names)s", names=names))
            tiebreak = str(core(score["tiebreak"])) if score.get("tiebreak") else None
        pdf = renderer.render(html)
        layout, text = pdf_text(pdf, tmp_path, True), flat(pdf_text(pdf, tmp_path, False))
        where = f"{game_id} ({lang})"

        for cat, label in labels.items():      # every row's value, in the players' order
            values = [p["categories"][cat] for p in players]
            assert row_line(layout, label, values), (where, label, values, layout)
        for label, values in words.items():    # totals and ranks
            assert row_line(layout, label, values), (where, label, values, layout)
        for time in times:                      # each player's clock, in a sentence
            assert flat(time) in text, (where, time)
        # the rows still to enter: every player's, each list once with the players it is about
        assert sorted(n for names, _ in to_enter for n in names) == sorted(
            e["player"] for e in score.get("to_enter") or ()), where
        assert len({tuple(rows) for _, rows in to_enter}) == len(to_enter), where
        for sentence in still:
            assert flat(sentence) in text, (where, sentence)
        assert score["winners"] and flat(result) in text, (where, result)
        if tiebreak:
            assert flat(tiebreak) in text, (where, tiebreak)

        # each explanation: printed, once, under the table and not in a cell
        parser = Cells()
        parser.feed(html)
        cells = " ".join(parser.texts)
        noted = {cat: said_ for cat, said_ in notes}
        for cat, sentences in said.items():
            for sentence in sentences:
                assert flat(sentence) in text, (where, sentence)
                assert sentence not in cells, (where, sentence)
            if sentences:
                printed = [why for _, why in noted[cat]]
                assert sorted(printed) == sorted(sentences), (where, cat)  # each once
                named = [n for names, _ in noted[cat] for n in names]
                everyone = not named
                assert everyone or sorted(named) == sorted(
                    p["name"] for p in players if (p.get("explanations") or {}).get(cat)), \
                    (where, cat)
                if everyone:
                    assert len(sentences) == 1 and len(players) > 1, (where, cat)
