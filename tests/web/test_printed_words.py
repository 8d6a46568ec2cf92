"""The printed pages in German and French: every game's blank score pad and its score sheet at
the end of a play (the PDFs' HTML, as WeasyPrint gets it) show no English, by the same scan as
the phone pages (tests/browser/english.py): the rows' names, the phase, the explanations and
the result, each said by the core in the reader's language."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from companion.games import GAMES, get_game
from companion.web import service
from companion.web.sheets import pad_html, scoresheet_html
from tests.browser.english import english_in, not_words

NAMES = ("Alexandra", "Bartholomew", "Christina", "Dagfinnur", "Eleonora")
OPTIONS = {"explorers": {"rocks_of_ruin": True}}
SHEETS = {"explorers": {"outposts": 2, "viking_deaths": 1, "gold": 3},
          "knarr": {"vp": 12, "recruits": 2},
          "reavers": {"glory": 7, "favor": 2},
          "seafarers": {"settlements": 3, "cities": 1, "largest_army": True},
          "shipwrights": {"raid_cards": 2, "gold": 3}}


class Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("style", "script")

    def handle_endtag(self, tag):
        self.skip -= tag in ("style", "script")

    def handle_data(self, data):
        if data.strip() and not self.skip:
            self.texts.append(data.strip())


def english_of(html: str, lang: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """The English in a printed page; ``names``: what is the play's own, not words (players'
    names, the play's id: a random one such as "Yk_MTMiX7-Vp" read as the English "VP")."""
    parser = Texts()
    parser.feed(html)
    return [text for text in parser.texts
            if not_words(text) or english_in(text, lang, names)]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_no_english_on_a_printed_pad_or_score_sheet(app, client, lang):
    found, sheets = {}, 0
    for game_id, game in sorted(GAMES.items()):
        players = list(NAMES[:game.max_players])
        play = client.post("/api/v1/plays", json={
            "game": game_id, "players": players, "options": OPTIONS.get(game_id, {}),
            "seed": 5}).get_json()
        events = f"/api/v1/plays/{play['id']}/events"
        auth = {"Authorization": f"Bearer {play['edit_token']}"}
        answer = client.post(events, json={"type": "sheet", "data": {
            "player": players[0], "fields": SHEETS[game_id]}}, headers=auth)
        assert answer.status_code in (200, 201), answer.get_data(as_text=True)
        assert client.post(events, json={"type": "finish"}, headers=auth).status_code \
            in (200, 201)
        with app.test_request_context(headers={"Accept-Language": lang}):
            row = service().load(play["id"])
            found[f"{game_id} score sheet"] = english_of(
                scoresheet_html(row, service().state(row)), lang, (*NAMES, play["id"]))
            found[f"{game_id} pad"] = english_of(
                pad_html(get_game(game_id), len(players), "a4"), lang)
            sheets += 2
    assert sheets == 2 * len(GAMES)
    assert {where: texts for where, texts in found.items() if texts} == {}
