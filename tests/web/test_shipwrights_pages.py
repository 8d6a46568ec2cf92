"""Shipwrights pages through the Flask client: the table panel (edit and view), track moves and
the typed-in Round Card as forms, the setup section, the box-data form and the score sheet's
longship-bonus steppers.

The card data is made up for these tests (no rulebook publishes it); the product ships none.
"""
from __future__ import annotations

import html as htmllib
import re

import pytest

from companion.tokens import view_token_for

HX = {"HX-Request": "true"}


@pytest.fixture
def client(owner_client):
    """Box data is written on these pages: the owner's phone (see test_owner.py for others)."""
    return owner_client


def icons(m, t, r):
    return {"military": m, "trade": t, "renown": r}


TEST_CATALOGUE = {
    "round_cards": [{"id": f"T{i}", "icons": icons(i % 2, 1, 0), "solo_vp": i,
                     "draft": "counterclockwise", "trades": ["TEST trade"]}
                    for i in range(1, 7)],
    "huts": {str(n): ("military", "trade", "renown")[n % 3] for n in range(1, 7)},
    "track_vp": {"15": 1, "16": 2, "17": 3, "18": 4},
    "nemesis": [],
}


def new_play(client, *names, seed="5"):
    data = {"game": "shipwrights", "seed": seed,
            **{f"name{i}": name for i, name in enumerate(names)}}
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"]


def text(response) -> str:
    return htmllib.unescape(response.get_data(as_text=True))


def event(client, path, version, **data):
    return client.post(path + "/events", headers=HX,
                       data={"expected_version": str(version), **data})


def position(page: str, player: str, track: str) -> int:
    """The number shown on a player's (or the neutral) track in the panel."""
    block = page.split('g-sw-player', 1)[1]          # the panel (the setup may come first)
    block = block.split(f'data-player="{player}"', 1)[1]
    block = block.split(f'data-track="{track}"', 1)[1]
    return int(re.search(r'<output class="g-sw-pos">(\d+)</output>', block).group(1))


@pytest.fixture
def filled(client):
    response = client.put("/api/v1/catalogue/shipwrights", json=TEST_CATALOGUE)
    assert response.status_code == 200
    return client


# --------------------------------------------------------------------------- the panel
def test_panel_for_edit_shows_round_phases_card_and_track_buttons(filled):
    path = new_play(filled, "Ann", "Bo")
    page = text(filled.get(path))
    assert "Round 1 of 5" in page
    assert re.search(r'<li class="now" aria-current="step">Reveal</li>', page)
    assert re.search(r"<h2 id=\"sw-card-h\">Round Card T\d</h2>", page)
    assert "Move Ann's Military marker forward one space" in page
    assert "Move Bo's Renown marker back one space" in page
    assert 'data-player="neutral"' in page and "They move by themselves" in page
    assert "Draft passing this round" in page and "Ann to Bo, Bo to Ann" in page
    assert 'data-hero="svend"' in page
    assert re.search(r"catalogue-shipwrights\.[0-9a-f]{12}\.js", page)


def test_panel_for_view_has_no_buttons_but_the_same_positions(filled):
    path = new_play(filled, "Ann", "Bo")
    play_id, token = path.rstrip("/").split("/")[-2:]
    edit_page = text(filled.get(path))
    view_page = text(filled.get(f"/plays/{play_id}/{view_token_for(token)}"))
    assert "view only" in view_page
    assert "Move Ann's" not in view_page and 'name="d:steps"' not in view_page
    for player in ("Ann", "Bo", "neutral"):
        for track in ("military", "trade", "renown"):
            assert position(view_page, player, track) == position(edit_page, player, track)


def test_neutral_markers_move_by_the_revealed_cards_icons(filled):
    path = new_play(filled, "Ann", "Bo")
    page = text(filled.get(path))
    order = re.findall(r"<li>(T\d)</li>", page.split('class="g-sw-order"', 1)[1])
    assert len(order) == 5
    expected = dict(TEST_CATALOGUE["round_cards"][int(order[0][1:]) - 1]["icons"])
    for track, value in expected.items():
        assert position(page, "neutral", track) == value
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    for step in range(5):                      # to round 2's reveal
        page = text(event(filled, path, version + step, type="advance"))
    card = TEST_CATALOGUE["round_cards"][int(order[1][1:]) - 1]
    assert f"Round Card {order[1]}" in page
    for track in expected:
        assert position(page, "neutral", track) == expected[track] + card["icons"][track]


def test_track_buttons_post_track_events_and_remind_of_rewards(filled):
    path = new_play(filled, "Ann", "Bo")
    page = text(filled.get(path))
    start, bo_renown = position(page, "Ann", "trade"), position(page, "Bo", "renown")
    for version in range(4):
        response = event(filled, path, version, type="track", **{
            "d:player": "Ann", "d:track": "trade", "d:steps": "1"})
        assert response.status_code == 200
    page = text(response)
    assert position(page, "Ann", "trade") == start + 4
    assert "Ann reached Trade 4: take the top Trade Card" in page
    assert "Reminders this round" in page
    back = event(filled, path, 4, type="track", **{
        "d:player": "Bo", "d:track": "renown", "d:steps": str(-(bo_renown + 1))})
    assert back.status_code == 422
    assert 'role="alert"' in text(back) and "below space 0" in text(back)
    assert position(text(back), "Bo", "renown") == bo_renown


def test_track_moves_are_closed_in_the_heroes_phase(filled):
    path = new_play(filled, "Ann", "Bo")
    for version in range(4):
        page = text(event(filled, path, version, type="advance"))
    assert re.search(r'aria-current="step">Heroes<', page)
    assert "Track moves are closed" in page
    assert re.search(r'aria-label="Move Ann\'s Military marker forward one space" disabled',
                     page)
    steps = page.split('<ul class="g-sw-steps">', 1)[1].split("</ul>", 1)[0]
    for hero in ("Svend", "Thyra", "Frode"):
        assert hero in steps                       # who passes what to whom
    # the heroes keep their place under the tracks in every phase (a phase step never moves
    # a section on the other phones); what the heroes phase does is in the steps on top
    assert page.index('id="sw-round-h"') < page.index('id="sw-tracks-h"') < page.index(
        'id="sw-heroes-h"')


# --------------------------------------------------------------------------- typed cards
def test_reveal_form_appears_without_catalogue_cards_and_reveals_the_typed_card(client):
    path = new_play(client, "Ann", "Bo")
    page = text(client.get(path))
    assert "Round 1: turn over the Round Card" in page
    assert 'name="d:military"' in page and 'name="d:draft"' not in page
    assert 'name="d:solo_vp"' not in page
    response = event(client, path, 0, type="reveal", **{
        "s:id": "Fjord", "d:military": "2", "d:trade": "0", "d:renown": "1",
        "s:trades": "1 Silver for 1 Oak\n1 Oak, 1 Wool, 1 Iron for 1 Gold"})
    page = text(response)
    assert response.status_code == 200
    assert "Round Card Fjord" in page and "Typed in at the table" in page
    assert "1 Oak, 1 Wool, 1 Iron for 1 Gold" in page
    assert "turn over the Round Card" not in page
    assert [position(page, "neutral", t) for t in ("military", "trade", "renown")] == [2, 0, 1]


def test_reveal_form_names_the_missing_icons(client):
    path = new_play(client, "Ann", "Bo")
    response = event(client, path, 0, type="reveal", **{"d:military": "1", "d:trade": ""})
    page = text(response)
    assert response.status_code == 400
    assert "Trade icons" in page and 'role="alert"' in page
    assert re.search(r'<fieldset class="g-sw-icons" aria-invalid="true">', page)


def test_three_players_type_the_draft_direction(client):
    path = new_play(client, "Ann", "Bo", "Cy")
    page = text(client.get(path))
    assert 'name="d:draft"' in page and 'name="d:military"' not in page
    assert 'data-player="neutral"' not in page
    page = text(event(client, path, 0, type="reveal", **{"d:draft": "counterclockwise"}))
    assert "Draft counterclockwise: pass to your right." in page
    assert "Ann to Cy" in page


# --------------------------------------------------------------------------- setup
def test_setup_lists_huts_cards_supply_and_links_missing_box_data(client, filled):
    path = new_play(filled, "Ann", "Bo")
    page = text(filled.get(path))
    setup = page.split('class="g-shipwrights g-sw-setup"', 1)[1]
    assert re.search(r"Ann</strong>: Hut \d ·\s*\+1 (Military|Trade|Renown)", setup)
    assert len(re.findall(r"<li>T\d</li>", setup)) == 5
    assert setup.count('<input type="checkbox">') == 20          # 10 items for each player
    assert "Missing from the box data" not in setup

    filled.put("/api/v1/catalogue/shipwrights", json={})
    page = text(filled.get(new_play(filled, "Ann", "Bo")))
    setup = page.split('class="g-shipwrights g-sw-setup"', 1)[1]
    assert "Missing from the box data" in setup
    assert 'href="/catalogue/shipwrights"' in setup
    assert "tap + on that track" in setup


# --------------------------------------------------------------------------- box data form
def card_fields(i, **values):
    return {f"card-{i}-{key}": str(value) for key, value in values.items()}


def test_catalogue_page_shows_the_form_and_what_is_missing(client):
    page = text(client.get("/catalogue/shipwrights"))
    assert 'action="/catalogue/shipwrights/form"' in page
    assert "Still missing" in page
    assert "Huts 1, 2, 3, 4, 5, and 6:" in page
    assert "Track VP for spaces 15, 16, 17, and 18:" in page
    assert 'id="card-4-id"' in page and 'id="sw-card-template"' in page
    assert 'id="nemesis-3-id"' in page


def test_catalogue_form_saves_cards_huts_vp_and_nemesis(client):
    form = {**card_fields(0, id="Harbour", military=1, trade=0, renown=2, solo_vp=4,
                          draft="clockwise", trades="1 Silver for 1 Oak\n2 Silver for 1 Iron"),
            **card_fields(1, id="", military="", trade=""),          # an empty row: skipped
            **card_fields(2, id="Fjord", name="The fjord", military=0, trade=3, renown=0,
                          solo_vp=0, draft="counterclockwise"),
            "hut-1": "trade", "hut-2": "", "vp-15": "3", "vp-16": "", "vp-18": "9",
            "nemesis-0-id": "N1", "nemesis-0-military": "1", "nemesis-0-trade": "0",
            "nemesis-0-renown": "0"}
    response = client.post("/catalogue/shipwrights/form", data=form)
    page = text(response)
    assert response.status_code == 200 and "Saved." in page
    saved = client.get("/api/v1/catalogue/shipwrights").get_json()["catalogue"]
    assert [c["id"] for c in saved["round_cards"]] == ["Harbour", "Fjord"]
    assert saved["round_cards"][0]["icons"] == icons(1, 0, 2)
    assert saved["round_cards"][0]["trades"] == ["1 Silver for 1 Oak", "2 Silver for 1 Iron"]
    assert saved["round_cards"][1]["trades"] is None and saved["round_cards"][1]["name"] == \
        "The fjord"
    assert saved["huts"] == {"1": "trade"}
    assert saved["track_vp"] == {"15": 3, "18": 9}
    assert saved["nemesis"] == [{"id": "N1", "name": None, "icons": icons(1, 0, 0)}]
    assert 'value="Harbour"' in page and "Huts 2, 3, 4, 5, and 6:" in page


def test_catalogue_form_names_every_missing_value_and_keeps_what_was_typed(client):
    form = {**card_fields(0, id="Harbour", military=1, trade=0),
            **card_fields(3, military=2),
            "vp-15": "4"}
    response = client.post("/catalogue/shipwrights/form", data=form)
    page = text(response)
    assert response.status_code == 400
    assert ("Round Card 1 ('Harbour') still needs its Renown icons and the draft "
            "arrows.") in page
    assert "Round Card 2 still needs its id or title, its Trade icons, its Renown icons" in page
    assert re.search(r'id="card-0-renown"[^>]*aria-invalid="true"', page)
    assert re.search(r'id="card-1-id"[^>]*aria-invalid="true"', page)
    assert not re.search(r'id="card-0-military"[^>]*aria-invalid', page)
    assert re.search(r'id="card-0-military"[^>]*value="1"', page)       # kept as typed
    assert re.search(r'id="vp-15"[^>]*value="4"', page)
    assert client.get("/api/v1/catalogue/shipwrights").get_json()["catalogue"]["track_vp"] == {}


def test_catalogue_form_names_the_entry_of_a_bad_value(client):
    complete = dict(military=1, trade=0, renown=0, solo_vp=1, draft="clockwise")
    form = {**card_fields(0, id="A", **complete), **card_fields(1, id="a", **complete)}
    page = text(client.post("/catalogue/shipwrights/form", data=form))
    assert "Round Card 2 ('a'): Two cards in round_cards are called 'a'" in page
    assert re.search(r'id="card-1-id"[^>]*aria-invalid="true"', page)
    form = {**card_fields(0, id="A", **{**complete, "solo_vp": "lots"})}
    response = client.post("/catalogue/shipwrights/form", data=form)
    assert response.status_code == 400
    assert "Round Card 1 ('A'): The solo VP must be a whole number." in text(response)


def test_catalogue_form_adds_rows_without_saving(client):
    form = {**card_fields(0, id="Harbour"), "add_rows": "1"}
    page = text(client.post("/catalogue/shipwrights/form", data=form))
    assert "3 empty Round Card rows added" in page and "Saved." not in page
    assert 'id="card-7-id"' in page                       # 1 typed + 4 blank + 3 more
    assert client.get("/api/v1/catalogue/shipwrights").get_json()["catalogue"][
        "round_cards"] == []


# --------------------------------------------------------------------------- sheet
def test_longship_bonus_steppers_record_counts_as_a_list(client):
    path = new_play(client, "Ann", "Bo")
    page = text(client.get(path))
    assert 'name="f:longship_bonuses.raid_cards"' in page
    response = client.post(path + "/events", headers=HX, data={
        "type": "sheet", "player": "Bo", "expected_version": "0",
        "f:longship_bonuses.raid_cards": "2", "f:longship_bonuses.upgrades": "0",
        "f:raid_cards": "3"})
    assert response.status_code == 200
    response = client.post(path + "/events", headers=HX, data={
        "type": "sheet", "player": "Bo", "expected_version": "1",
        "bump": "longship_bonuses.upgrades:+1"})
    page = text(response)
    assert re.search(r'name="f:longship_bonuses.raid_cards"[^>]*value="2"', page)
    assert re.search(r'name="f:longship_bonuses.upgrades"[^>]*value="1"', page)
    play_id, token = path.rstrip("/").split("/")[-2:]
    state = client.get(f"/api/v1/plays/{play_id}",
                       headers={"Authorization": f"Bearer {token}"}).get_json()
    state = state["state"]
    assert state["sheets"]["Bo"]["longship_bonuses"] == ["raid_cards", "raid_cards", "upgrades"]
    bo = next(p for p in state["score"]["players"] if p["name"] == "Bo")
    assert bo["categories"]["longships"] == 2 * 3 * 2      # two raid-card longships, 3 cards
