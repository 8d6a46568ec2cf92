"""Catan: Seafarers in German and French through the Flask client: the board's SVG (terrain,
resource and harbour words; hex labels and numbers as they are), the board page and its PDF,
a play's setup, its discoveries and the Greater Catan chip moves. The API keeps the English."""
from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from pypdf import PdfReader

from companion.games.seafarers.scenarios import SCENARIOS

HX = {"HX-Request": "true"}
LABEL = re.compile(r"[A-Z]{1,2}\d{1,2}")


def svg_words(html: str) -> list[str]:
    """Every word drawn or titled on the page's board SVG, in document order, with the hex
    labels, numbers, ratios and "?" left out (they are the same in every language)."""
    svg = re.search(r'<div class="g-seafarers-board"[^>]*>(<svg.*?</svg>)', html, re.S).group(1)
    found = []
    for text in re.findall(r"<(?:text|title)[^>]*>([^<]*)</", svg):
        for part in unescape(text).split(": "):
            part = " ".join(w for w in part.split() if not LABEL.fullmatch(w)
                            and not re.fullmatch(r"[\d:?]+", w))
            if part:
                found.append(part)
    return found


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("scenario, players", [("new_shores", 4), ("oceans", 4),
                                               ("wasteland", 3), ("greater_catan", 4)])
def test_every_word_on_the_board_is_in_the_language(client, lang, scenario, players):
    query = f"/boards/seafarers?scenario={scenario}&players={players}&seed=w&layout=variable"
    english = svg_words(client.get(query).get_data(as_text=True))
    said = svg_words(client.get(query, headers={"Accept-Language": lang}).get_data(
        as_text=True))
    assert len(said) == len(english) > 40
    # no drawn word is left as the English one
    changed = {e for e, s in zip(english, said, strict=True) if e != s}
    assert changed == set(english), set(english) - changed
    if lang == "de":
        assert {"Getreide", "Holz", "Meer", "Ackerland"} <= set(said)
    else:
        assert {"blé", "bois", "mer", "champs"} <= set(said)
    assert not {"sea", "harbour", "grain", "lumber", "wool", "fields"} & set(" ".join(
        said).split())


@pytest.mark.parametrize("lang, words", [
    ("de", ["Spielplan Ozeane", "Legende", "Den Tisch aufbauen", "Ausgewogenheit",
            "Punkte je Rohstoff", "Ozeane für 4 Personen: gespielt wird bis 12 Siegpunkte.",
            "Das Piratenschiff beginnt auf einem beliebigen Meerfeld"]),
    ("fr", ["Plateau Océans", "Légende", "Mise en place de la table", "Équilibre",
            "Points par ressource", "Océans à 4 joueurs : on joue jusqu’à 12 points de "
            "victoire.", "Le bateau pirate commence sur n’importe quel hexagone de mer"]),
])
def test_the_board_page_speaks_the_language(client, lang, words):
    response = client.get("/boards/seafarers?scenario=oceans&players=4&seed=w&layout=variable",
                          headers={"Accept-Language": lang})
    html = unescape(response.get_data(as_text=True))
    for word in words:
        assert word in html, word
    for english in ("Setting up the table", "Share this board", "Busiest corner",
                    "Choose a board", "Draw this board", "Rulebook:", "Drawn:"):
        assert english not in html, english


def test_the_board_pdf_in_german(client):
    response = client.get("/boards/seafarers.pdf?scenario=greater_catan&players=4&seed=w",
                          headers={"Accept-Language": "de"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = " ".join("".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages
                            ).split())
    for word in ("Groß-Catan", "4 Spieler", "gespielt wird bis 18 Siegpunkte", "Legende",
                 "Ausgewogenheit", "Startwert", "Getreide", "Chipbeutel", "Wüste"):
        assert word in text, word
    for english in ("players", "Legend", "Balance", "Seed", "grain", "victory points"):
        assert not re.search(rf"(?<![&\w]){english}\b", text), english


def create(client, scenario, players):
    response = client.post("/api/v1/plays", json={
        "game": "seafarers", "players": players, "seed": 3,
        "options": {"scenario": scenario, "layout": "variable"}})
    body = response.get_json()
    return body["id"], body["edit_token"]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_plays_setup_says_every_sentence_in_the_language(app, client, lang):
    from companion.web.words import core

    play_id, token = create(client, "wasteland", ["Ann", "Bo", "Cy"])
    service = app.extensions["companion"]
    setup = service.state(service.load(play_id))["setup"]     # the core's messages
    html = unescape(client.get(f"/plays/{play_id}/{token}", headers={
        "Accept-Language": lang}).get_data(as_text=True))
    sentences = [*setup["checklist"], setup["notes"], setup["pirate_note"],
                 setup["robber_note"], setup["layout_label"]]
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        for sentence in sentences:
            said = core(sentence)
            assert said != sentence and said in html, sentence
            assert sentence not in html, sentence
    assert ("Durch die Wüste" if lang == "de" else "À travers le désert") in html


def test_discoveries_and_chip_moves_are_noticed_in_german_and_kept_english_in_the_api(client):
    play_id, token = create(client, "oceans", ["Ann", "Bo", "Cy", "Di"])
    auth = {"Authorization": f"Bearer {token}"}
    state = client.get(f"/api/v1/plays/{play_id}", headers=auth).get_json()["state"]
    for version, h in enumerate([h for h in state["table"]["hexes"] if h["hidden"]][:6]):
        client.post(f"/api/v1/plays/{play_id}/events", headers=auth, json={
            "type": "discover", "data": {"q": h["q"], "r": h["r"]}, "expected_version": version})
    notices = client.get(f"/api/v1/plays/{play_id}", headers=auth).get_json()["state"][
        "table"]["notices"]
    assert len(notices) == 6 and all(n.startswith("Discovered ") for n in notices)
    html = unescape(client.get(f"/plays/{play_id}/{token}", headers={
        "Accept-Language": "de"}).get_data(as_text=True))
    listed = re.search(r'<ul class="notices"[^>]*>(.*?)</ul>', html, re.S).group(1)
    assert listed.count("<li>Entdeckt: ") == 6 and "Discovered" not in listed
    assert "Tippe ein umrandetes ?" in html

    play_id, token = create(client, "greater_catan", ["Ann", "Bo", "Cy", "Di"])
    auth = {"Authorization": f"Bearer {token}"}
    state = client.get(f"/api/v1/plays/{play_id}", headers=auth).get_json()["state"]
    bag = len(state["table"]["stacks"]["numbers"])
    for version in range(bag):
        html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
        q, r = re.search(r'name="d:q" value="(-?\d+)"><input type="hidden" name="d:r" '
                         r'value="(-?\d+)"', html).groups()
        client.post(f"/api/v1/plays/{play_id}/events", headers=auth, json={
            "type": "discover", "data": {"q": int(q), "r": int(r)}, "expected_version": version})
    html = unescape(client.get(f"/plays/{play_id}/{token}", headers={
        "Accept-Language": "fr"}).get_data(as_text=True))
    assert html.count(" pioché dans le sac pour ") == bag and "Drew a" not in html
    option = re.search(r"<option value='([^']+)'>([^<]+)</option>", html)
    move = json.loads(option.group(1))
    assert re.fullmatch(r"\d+ de .+ en [A-Z]+\d+ vers .+ en [A-Z]+\d+", option.group(2)), \
        option.group(2)
    response = client.post(f"/plays/{play_id}/{token}/events", headers={
        **HX, "Accept-Language": "fr"}, data={"type": "move_chip", "expected_version": str(bag),
                                             "data": json.dumps(move)})
    assert response.status_code == 200
    assert " déplacé depuis " in unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("lang, words", [
    ("de", "Die große Überfahrt ist für 4 Personen, nicht 3."),
    ("fr", "La grande traversée se joue à 4 joueurs, pas 3."),
])
def test_a_refusal_naming_a_scenario_is_in_the_language(client, lang, words):
    response = client.get("/boards/seafarers?scenario=great_crossing&players=3&seed=x",
                          headers={"Accept-Language": lang})
    assert response.status_code == 422
    assert words in unescape(response.get_data(as_text=True))
    assert SCENARIOS["great_crossing"].name == "The Great Crossing"
