"""The box-data forms of Knarr, Reavers and Explorers: saved by the owner in plain fields,
per-row errors that keep everything typed, no schema words on the pages."""
from __future__ import annotations

import re

import pytest

from companion.games import GAMES

JARGON = ("reputation_track", "keep_spoils_schedule", "wall_majority", "track_vp", "round_cards",
          "captains[", "/api/v1", "JSON object", "catalogue")


@pytest.fixture
def client(owner_client):
    return owner_client


def text(response) -> str:
    return response.get_data(as_text=True)


def saved(client, game):
    return client.get(f"/api/v1/catalogue/{game}").json["catalogue"]


def visible(page: str) -> str:
    """The page's words a person reads (tags, attributes and the backup text box removed)."""
    page = re.sub(r"<textarea id=\"json\".*?</textarea>", "", page, flags=re.S)
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_schema_words_on_any_box_data_page(client, game):
    page = visible(text(client.get(f"/catalogue/{game}")))
    for word in JARGON:
        assert word not in page, (game, word)
    index = visible(text(client.get("/catalogue")))
    assert not any(word in index for word in JARGON[:-1])


def test_knarr_form_saves_the_track_and_names_a_gap(client):
    reply = client.post("/catalogue/knarr/form", data={"rep-0": "0", "rep-1": "1", "rep-2": "3",
                                                       "rep-3": "", "rep-4": ""})
    assert reply.status_code == 200 and "Saved." in text(reply)
    assert saved(client, "knarr") == {"reputation_track": [0, 1, 3]}
    gap = client.post("/catalogue/knarr/form", data={"rep-0": "0", "rep-1": "", "rep-2": "5"})
    page = text(gap)
    assert gap.status_code == 400 and "Space 1 is empty" in page
    assert re.search(r'id="rep-1"[^>]*aria-invalid="true"', page)
    assert re.search(r'id="rep-2"[^>]*value="5"', page)             # kept as typed
    assert saved(client, "knarr") == {"reputation_track": [0, 1, 3]}
    more = text(client.post("/catalogue/knarr/form", data={"rep-0": "2", "add_rows": "1"}))
    assert 'id="rep-3"' in more and re.search(r'id="rep-0"[^>]*value="2"', more)


def test_reavers_form_saves_schedules_and_walls_with_a_per_row_error(client):
    page = text(client.get("/catalogue/reavers"))
    for kind in ("Treasure", "Art", "Armor"):
        assert f"<legend>{kind}</legend>" in page
    form = {"spoils-0-name": "Treasure", "spoils-0-1": "1", "spoils-0-2": "3", "spoils-0-3": "6",
            "spoils-1-name": "Art", "spoils-2-name": "Armor", "spoils-3-name": "",
            "wall-most": "5", "wall-second": ""}
    assert client.post("/catalogue/reavers/form", data=form).status_code == 200
    assert saved(client, "reavers") == {"keep_spoils_schedule": {"Treasure": [1, 3, 6]},
                                        "wall_majority": [5, None]}
    bad = client.post("/catalogue/reavers/form", data={**form, "spoils-1-1": "2",
                                                        "spoils-1-2": "lots", "wall-second": "4"})
    page = text(bad)
    assert bad.status_code == 400 and "The glory must be a whole number" in page
    assert re.search(r'id="spoils-1-2"[^>]*aria-invalid="true"', page)
    assert re.search(r'id="row-spoils-1".*?class="error row-error"', page, re.S)
    assert re.search(r'id="wall-second"[^>]*value="4"', page)
    assert saved(client, "reavers")["wall_majority"] == [5, None]
    walls = client.post("/catalogue/reavers/form", data={**form, "wall-second": "7"})
    assert walls.status_code == 422 and "Second place cannot be worth more" in text(walls)


def test_reavers_printed_types_keep_the_pages_words_once_their_glory_is_saved(client):
    """A printed type's row is named in the page's language whether or not the box data has
    its schedule yet (the saved key is the English name: it showed through on the legend)."""
    form = {"spoils-0-name": "Treasure", "spoils-0-1": "1", "spoils-1-name": "Art",
            "spoils-2-name": "Armor", "spoils-2-1": "2", "spoils-3-name": "Gems",
            "spoils-3-1": "1", "wall-most": "", "wall-second": ""}
    assert client.post("/catalogue/reavers/form", data=form).status_code == 200
    for lang, words in (("de", ("Schatz", "Kunst", "Rüstung")),
                        ("fr", ("Trésor", "Art", "Armure"))):
        page = text(client.get("/catalogue/reavers", headers={"Accept-Language": lang}))
        legends = re.findall(r"<legend>([^<]*)</legend>", page)
        assert legends[:4] == [*words, "Gems"], (lang, legends)   # the owner's type as typed


def test_explorers_form_adds_and_removes_captains(client):
    form = {"captain-0-name": "Navigator", "captain-0-bonus": "+1 VP per island",
            "captain-1-name": "", "captain-1-bonus": ""}
    assert client.post("/catalogue/explorers/form", data=form).status_code == 200
    assert saved(client, "explorers") == {"captains": [{"name": "Navigator",
                                                        "bonus": "+1 VP per island"}]}
    clash = client.post("/catalogue/explorers/form", data={
        **form, "captain-1-name": "Archer", "captain-1-bonus": "again"})
    page = text(clash)
    assert clash.status_code == 422 and "already a captain called Archer" in page
    assert re.search(r'id="captain-1-name"[^>]*aria-invalid="true"[^>]*|'
                     r'id="captain-1-name"[^>]*value="Archer"', page)
    removed = client.post("/catalogue/explorers/form", data={**form, "captain-0-remove": "1"})
    assert removed.status_code == 200 and saved(client, "explorers") == {"captains": []}


def test_the_forms_refuse_without_the_owner_key(app):
    stranger = app.test_client()
    for game, data in (("knarr", {"rep-0": "1"}), ("reavers", {"wall-most": "3"}),
                       ("explorers", {"captain-0-name": "X", "captain-0-bonus": "y"})):
        reply = stranger.post(f"/catalogue/{game}/form", data=data)
        assert reply.status_code == 401 and 'id="read-only"' in text(reply)
    assert stranger.post("/catalogue/seafarers/form", data={}).status_code == 404


@pytest.mark.parametrize("lang, words", [
    ("de", ["Feld 1 ist leer", "Der Ruhm für einen Satz aus 2 Schatz-Karten ist leer"]),
    ("fr", ["Case 1 est vide", "La gloire pour une série de 2 cartes Trésor est vide"]),
])
def test_a_gap_in_a_box_form_is_named_in_the_phones_language(client, lang, words):
    """The gap the owner left in Knarr's track and in a Reavers keep spoils row, named in the
    owner's language (the printed type name 'Treasure' too)."""
    headers = {"Accept-Language": lang}
    knarr = client.post("/catalogue/knarr/form", headers=headers,
                        data={"rep-0": "0", "rep-1": "", "rep-2": "5"})
    reavers = client.post("/catalogue/reavers/form", headers=headers,
                          data={"spoils-0-name": "Treasure", "spoils-0-1": "1",
                                "spoils-0-2": "", "spoils-0-3": "6"})
    assert (knarr.status_code, reavers.status_code) == (400, 400)
    for reply, word in zip((knarr, reavers), words, strict=True):
        assert word in text(reply).replace("&#39;", "'"), text(reply)[:2000]
