"""The owner enters the book's layout of an "as shown" scenario once; setups then lay it."""
from __future__ import annotations

from companion.games.protocol import make_rng
from companion.games.seafarers import GAME
from companion.web.book_layouts import grid, rows_from
from tests.conftest import as_owner, owner_headers

PLAYERS = ["Ann", "Bo", "Cy"]


def variable_board():
    """Test data in the shape of a layout (the app's own shuffle, not the book's diagram)."""
    options = GAME.parse_options({"scenario": "four_islands", "layout": "variable"})
    return GAME.setup(PLAYERS, options, make_rng(11), {})


def form_for(board) -> dict:
    form = {}
    for h in board["hexes"]:
        form[f"t:{h['q']}:{h['r']}"] = h["terrain"]
        if h["number"]:
            form[f"n:{h['q']}:{h['r']}"] = str(h["number"])
    for h in board["harbours"]:
        form[f"h:{h['q']}:{h['r']}"] = str(h["facing"])
    return form


def test_the_editor_saves_a_layout_that_every_later_setup_lays(owner_client):
    client = owner_client
    page = client.get("/catalogue/seafarers/layouts/four_islands/3")
    assert page.status_code == 200 and b"the book's layout" in page.data
    assert b"Not entered yet" in client.get("/catalogue/seafarers/layouts").data
    before = client.post("/api/v1/games/seafarers/setup", json={
        "players": PLAYERS, "options": {"scenario": "four_islands"}, "seed": 1}).get_json()
    assert before["setup"]["layout_entered"] is False
    board = variable_board()
    saved = client.post("/catalogue/seafarers/layouts/four_islands/3", data=form_for(board))
    assert saved.status_code == 200 and b"layout-saved" in saved.data
    wanted = {(h["q"], h["r"]): (h["terrain"], h["number"]) for h in board["hexes"]}
    for seed in (1, 2):
        after = client.post("/api/v1/games/seafarers/setup", json={
            "players": PLAYERS, "options": {"scenario": "four_islands"}, "seed": seed})
        laid = after.get_json()["setup"]
        assert laid["layout_entered"] is True
        assert {(h["q"], h["r"]): (h["terrain"], h["number"]) for h in laid["hexes"]} == wanted
    exported = client.get("/catalogue/seafarers/export.json").get_json()
    assert "four_islands/3" in exported["layouts"]
    assert GAME.validate_catalogue(exported) == exported   # exported as it is imported


def test_a_layout_off_the_books_material_is_refused_naming_the_count(owner_client):
    client = owner_client
    form = form_for(variable_board())
    sea = next(k for k, v in form.items() if k.startswith("t:") and v == "sea")
    del form[sea]
    refused = client.post("/catalogue/seafarers/layouts/four_islands/3", data=form)
    assert refused.status_code == 422 and b"lists 17 sea tiles" in refused.data
    assert client.get("/catalogue/seafarers/layouts/new_world/3").status_code == 404


def test_only_the_owner_key_saves_a_layout(app, client):
    """Box data is the owner's (companion/owner.py): without the key a save is refused with 401,
    with a wrong key 403, and nothing is written; the owner's cookie or bearer key saves."""
    form = form_for(variable_board())
    url = "/catalogue/seafarers/layouts/four_islands/3"
    page = client.get(url)
    assert page.status_code == 200 and b'id="read-only"' in page.data
    assert b"Save the book's layout" not in page.data
    refused = client.post(url, data=form)
    assert refused.status_code == 401 and b'id="layout-error"' in refused.data
    assert b"layout-saved" not in refused.data
    wrong = client.post(url, data=form, headers={"Authorization": "Bearer not-the-key"})
    assert wrong.status_code == 403
    assert not client.get("/catalogue/seafarers/export.json").get_json().get("layouts")
    saved = client.post(url, data=form, headers=owner_headers(app))
    assert saved.status_code == 200 and b"layout-saved" in saved.data
    assert "four_islands/3" in client.get("/catalogue/seafarers/export.json").get_json()["layouts"]
    assert b"Entered" in as_owner(app.test_client()).get("/catalogue/seafarers/layouts").data


def test_the_editor_offers_the_frame_and_a_ring_around_it():
    layout = GAME.scenario({"scenario": "oceans"}).layout(4)
    positions = grid(layout)
    assert set(layout.cells) < set(positions)


def test_a_refusal_names_the_hex_by_its_label_in_plain_words(owner_client):
    """A producing tile needs its number chip (the book's material lists one per land tile):
    the editor says which hex, by the label on its drawing, and marks that row."""
    board = variable_board()
    form = form_for(board)
    land = next(h for h in board["hexes"] if h["number"])
    del form[f"n:{land['q']}:{land['r']}"]
    refused = owner_client.post("/catalogue/seafarers/layouts/four_islands/3", data=form)
    html = refused.get_data(as_text=True)
    label = next(x["label"] for x in rows_from(None, grid(GAME.scenario(
        {"scenario": "four_islands"}).layout(3))) if (x["q"], x["r"]) == (land["q"], land["r"]))
    assert refused.status_code == 400
    assert f"Hex {label}: A producing tile needs a number chip" in html
    assert f'<tr id="hex-{label}" class="at-fault">' in html
    empty = owner_client.post("/catalogue/seafarers/layouts/four_islands/3", data={})
    assert "Nothing is entered yet" in empty.get_data(as_text=True)
    assert "{q, r" not in empty.get_data(as_text=True)


def test_the_layout_pages_speak_the_phones_language(client):
    """The owner's layout editor and its list in German and French, terrain names and
    compass points included (they were English on every phone)."""
    for lang, words, english in (
            ("de", ["Die Aufbauten des Hefts", "Die vier Inseln, 3 Personen", "Landschaft",
                    "Ackerland (Getreide)", "nicht auf dem Spielplan", "Nordosten",
                    "Das Heft nennt"], ["off board", "Harbour faces", "The book lists"]),
            ("fr", ["Les dispositions du livret", "Terrain", "champs (blé)", "hors du plateau",
                    "nord-est", "Le livret indique"], ["off board", "Harbour faces"])):
        headers = {"Accept-Language": lang}
        listing = client.get("/catalogue/seafarers/layouts", headers=headers)
        editor = client.get("/catalogue/seafarers/layouts/four_islands/3", headers=headers)
        assert listing.status_code == editor.status_code == 200
        html = listing.get_data(as_text=True) + editor.get_data(as_text=True)
        for word in words:
            assert word in html, (lang, word)
        for word in english:
            assert word not in html, (lang, word)
