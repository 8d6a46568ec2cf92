"""The Seafarers board page, its PDF and QR code, and the play's setup and panel, through the
Flask client: every scenario and player count, determinism, errors that name the field."""
from __future__ import annotations

import io
import json
import re
from html import unescape
from urllib.parse import urlencode

import pytest
from PIL import Image, ImageDraw
from pypdf import PdfReader

from companion.games.seafarers.scenarios import SCENARIOS

CASES = [(sid, n) for sid, s in SCENARIOS.items() for n in s.player_counts]
HX = {"HX-Request": "true"}


def board_page(client, **query):
    return client.get("/boards/seafarers?" + urlencode(query))


def board_svg(html: str) -> str:
    match = re.search(r'<div class="g-seafarers-board"[^>]*>(<svg.*?</svg>)', html, re.S)
    assert match, "no board SVG on the page"
    return match.group(1)


def decode_qr_svg(svg: str) -> str:
    """Draw the QR code's module squares (qrcode's path of M x,y H V H z) and decode them."""
    import zxingcpp

    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    draw = ImageDraw.Draw(image)
    squares = re.findall(r"M([\d.]+),([\d.]+)H([\d.]+)V([\d.]+)H[\d.]+z", svg)
    assert squares, "no modules in the QR SVG"
    for x0, y0, x1, y1 in squares:
        draw.rectangle([float(x0) * scale, float(y0) * scale, float(x1) * scale - 1,
                        float(y1) * scale - 1], fill=0)
    found = zxingcpp.read_barcodes(image)
    assert found, "the QR code does not decode"
    return found[0].text


@pytest.mark.parametrize("scenario,players", CASES)
def test_every_scenario_and_player_count_draws_a_board(client, scenario, players):
    response = board_page(client, scenario=scenario, players=players, seed="abc")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    svg = board_svg(html)
    name = SCENARIOS[scenario].name
    assert f'aria-label="{name} board"' in svg
    assert svg.count("<polygon") > 20
    if SCENARIOS[scenario].as_shown:    # the book's layout, not entered on this install
        assert 'id="layout-missing"' in html and 'class="g-seafarers-material"' in html
        assert "data-busiest" not in html and "New random board" not in html
    else:
        assert "data-busiest" in html and "data-tries" in html
    target = SCENARIOS[scenario].target_vp
    assert (f"play to {target} VP" if target else "the 1997 book gives no target") in html
    assert 'style="' not in html and "<style" not in html    # the CSP blocks both


def test_same_seed_same_board_other_seed_other_board(client):
    def drawn(seed):
        return board_svg(board_page(client, scenario="oceans", players=4, seed=seed,
                                    layout="variable").get_data(as_text=True))
    first, again, other = drawn("abc"), drawn("abc"), drawn("abd")
    assert first == again and first != other


def test_balance_report_matches_the_setup(client):
    html = board_page(client, scenario="new_shores", players=4, seed=5).get_data(as_text=True)
    setup = client.post("/api/v1/games/seafarers/setup", json={
        "players": ["Player 1", "Player 2", "Player 3", "Player 4"], "seed": 5,
        "options": {"scenario": "new_shores"}}).get_json()["setup"]
    for resource, pips in setup["balance"]["pips"].items():
        assert re.search(rf'data-resource="{resource}"><th scope="row">{resource}</th>'
                         rf"<td>{pips}</td>", html)
    assert f'data-busiest>{setup["balance"]["busiest_corner"]["pips"]} pips' in html
    assert f'data-tries>{setup["balance"]["tries"]}<' in html


def test_no_seed_redirects_to_a_fresh_seed_and_new_board_link_changes_it(client):
    response = board_page(client, scenario="new_world", players=3)
    assert response.status_code == 302
    assert re.search(r"scenario=new_world&players=3&seed=\w{6}$", response.location)
    html = client.get(response.location).get_data(as_text=True)
    seed = re.search(r"seed=(\w{6})$", response.location).group(1)
    link = unescape(re.search(r'href="([^"]+)"[^>]*>New random board', html).group(1))
    assert "scenario=new_world" in link and "players=3" in link and f"seed={seed}" not in link


@pytest.mark.parametrize("query,field,status", [
    ({"scenario": "atlantis", "seed": "x"}, "scenario", 400),
    ({"scenario": "oceans", "players": "five", "seed": "x"}, "players", 400),
    ({"scenario": "oceans", "players": "²", "seed": "x"}, "players", 400),
    ({"scenario": "oceans", "players": "-3", "seed": "x"}, "players", 400),
    ({"scenario": "oceans", "players": "9" * 30, "seed": "x"}, "players", 400),
    ({"scenario": "oceans", "seed": "x", "max_corner_pips": "²"}, "max_corner_pips", 400),
    ({"scenario": "great_crossing", "players": 3, "seed": "x"}, "players", 422),
    ({"scenario": "oceans", "seed": "x" * 201}, "seed", 400),
    ({"scenario": "oceans", "seed": "x", "max_corner_pips": "lots"}, "max_corner_pips", 400),
    ({"scenario": "oceans", "seed": "x", "max_corner_pips": 99}, "max_corner_pips", 400),
    ({"scenario": "oceans", "seed": "x", "no_equal_neighbours": "maybe"},
     "no_equal_neighbours", 400),
    ({"scenario": "oceans", "seed": "x", "max_corner_pips": 3, "layout": "variable"},
     "max_corner_pips", 422),
])
def test_bad_values_are_named_and_the_form_stays(client, query, field, status):
    response = board_page(client, **query)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert f'id="board-error" data-field="{field}"><strong>{field}</strong>:' in html
    assert '<form method="get"' in html and "<svg" not in html.split("<form")[0].split(
        "board-error")[1]
    pdf = client.get("/boards/seafarers.pdf?" + urlencode(query))
    assert pdf.status_code == status and pdf.mimetype == "text/html"
    assert field in pdf.get_data(as_text=True)


def test_fairness_settings_travel_in_the_url_and_hold(client):
    html = board_page(client, scenario="new_world", players=4, seed="s", max_corner_pips=11,
                      no_equal_neighbours="on").get_data(as_text=True)
    share = unescape(re.search(r'data-share-url>([^<]+)<', html).group(1))
    assert share.endswith("/boards/seafarers?scenario=new_world&players=4&seed=s"
                          "&no_equal_neighbours=1&max_corner_pips=11")
    assert int(re.search(r"data-busiest>(\d+) pips", html).group(1)) <= 11
    assert 'name="no_equal_neighbours" value="1" checked' in html


@pytest.mark.parametrize("scenario,players", [("greater_catan", 4), ("new_world", 3),
                                              ("oceans", 4)])
def test_the_pdf_is_one_landscape_page_with_board_and_seed(client, scenario, players):
    response = client.get("/boards/seafarers.pdf?" + urlencode(
        {"scenario": scenario, "players": players, "seed": "print-me"}))
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) > float(box.height)          # landscape
    text = reader.pages[0].extract_text()
    assert "print-me" in text and SCENARIOS[scenario].name in text and "pips" in text


def test_qr_code_encodes_this_exact_url_on_the_lan(client):
    html = board_page(client, scenario="oceans", players=4, seed="abc").get_data(as_text=True)
    qr = re.search(r'<div class="g-seafarers-qr"[^>]*>(<svg.*?</svg>)', html, re.S).group(1)
    expected = "http://192.168.1.20:5000/boards/seafarers?scenario=oceans&players=4&seed=abc"
    assert decode_qr_svg(qr) == expected
    assert expected in unescape(html)


def test_qr_code_never_points_at_localhost(tmp_path, monkeypatch):
    from companion import netinfo
    from tests.conftest import make_app

    monkeypatch.setattr(netinfo, "interface_addresses", lambda: ["10.1.2.3"])
    client = make_app(tmp_path, PUBLIC_URL=None).test_client()
    html = client.get("/boards/seafarers?scenario=oceans&players=4&seed=abc",
                      base_url="http://localhost:5000").get_data(as_text=True)
    qr = re.search(r'<div class="g-seafarers-qr"[^>]*>(<svg.*?</svg>)', html, re.S).group(1)
    assert decode_qr_svg(qr).startswith("http://10.1.2.3:5000/boards/seafarers?")


def test_home_page_links_the_board_generator(client):
    html = client.get("/").get_data(as_text=True)
    assert 'href="/boards/seafarers"' in html and "Seafarers board generator" in html


def test_the_board_page_matches_a_play_with_the_same_seed(client):
    board = board_svg(board_page(client, scenario="four_islands", players=3, seed=77,
                                 layout="variable").get_data(as_text=True))
    play_id, token, _ = create(client, "four_islands", ["Ann", "Bo", "Cy"], seed=77)
    setup_html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
    assert board in setup_html


# ---- a play
def create(client, scenario, players, seed=3):
    """A play on the app's variable layout (the book's needs the owner to enter it)."""
    response = client.post("/api/v1/plays", json={"game": "seafarers", "players": players,
                                                   "options": {"scenario": scenario,
                                                               "layout": "variable"},
                                                   "seed": seed})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["edit_token"], body["view_token"]


def state_of(client, play_id, token):
    return client.get(f"/api/v1/plays/{play_id}",
                      headers={"Authorization": f"Bearer {token}"}).get_json()["state"]


def spot_forms(html: str) -> list[tuple[int, int]]:
    return [(int(q), int(r)) for q, r in re.findall(
        r'name="d:q" value="(-?\d+)"><input type="hidden" name="d:r" value="(-?\d+)"', html)]


def test_oceans_panel_taps_discover_the_next_tile(client):
    play_id, token, view = create(client, "oceans", ["Ann", "Bo", "Cy", "Di"])
    html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
    state = state_of(client, play_id, token)
    hidden = [(h["q"], h["r"]) for h in state["table"]["hexes"] if h["hidden"]]
    assert sorted(spot_forms(html)) == sorted(hidden)
    assert f'data-stack="tiles">{len(state["table"]["stacks"]["tiles"])}<' in html
    q, r = hidden[0]
    top = state["table"]["stacks"]["tiles"][0]
    response = client.post(f"/plays/{play_id}/{token}/events", headers=HX, data={
        "type": "discover", "expected_version": str(state["version"]), "d:q": str(q),
        "d:r": str(r)})
    assert response.status_code == 200
    after = response.get_data(as_text=True)
    assert (q, r) not in spot_forms(after) and len(spot_forms(after)) == len(hidden) - 1
    assert f'data-stack="tiles">{len(state["table"]["stacks"]["tiles"]) - 1}<' in after
    assert f"Discovered {top}" in after
    assert spot_forms(client.get(f"/plays/{play_id}/{view}").get_data(as_text=True)) == []


def test_greater_catan_taps_draw_from_the_bag_then_chips_move(client):
    play_id, token, _ = create(client, "greater_catan", ["Ann", "Bo", "Cy", "Di"])
    state = state_of(client, play_id, token)
    bag = len(state["table"]["stacks"]["numbers"])
    html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
    assert f'data-stack="numbers">{bag}<' in html and "move_chip" not in html
    for _ in range(bag):
        q, r = spot_forms(html)[0]
        response = client.post(f"/plays/{play_id}/{token}/events", headers=HX, data={
            "type": "discover", "expected_version": str(state["version"]), "d:q": str(q),
            "d:r": str(r)})
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        state = state_of(client, play_id, token)
    assert 'data-stack="numbers">0<' in html and "The bag is empty" in html
    move = json.loads(unescape(re.search(r"<option value='([^']+)'", html).group(1)))
    response = client.post(f"/plays/{play_id}/{token}/events", headers=HX, data={
        "type": "move_chip", "expected_version": str(state["version"]), "data": json.dumps(move)})
    assert response.status_code == 200 and "Moved the" in response.get_data(as_text=True)


def test_vp_race_declares_the_winner_at_the_target(client):
    """The player whose turn it is wins the moment they reach the target; one who reaches it
    on another's turn is shown as waiting for their own turn."""
    play_id, token, _ = create(client, "four_islands", ["Ann", "Bo", "Cy"])
    api = f"/api/v1/plays/{play_id}"
    headers = {"Authorization": f"Bearer {token}"}
    html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
    assert 'aria-label="Ann: 0 of 12 victory points"' in html and "wins!" not in html
    on_turn = client.get(api, headers=headers).json["state"]["table"]["current_player"]
    assert f'data-turn="{on_turn}"' in html
    waiting = next(n for n in ("Ann", "Bo", "Cy") if n != on_turn)
    for name, fields in ((on_turn, {"settlements": 3, "cities": 2}),
                         (waiting, {"settlements": 4, "cities": 4})):
        response = client.post(f"{api}/events", headers=headers, json={
            "type": "sheet", "data": {"player": name, "fields": fields}})
        assert response.status_code == 200, response.json
    html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
    assert f'aria-label="{on_turn}: 7 of 12 victory points"' in html
    assert f'aria-label="{waiting}: 12 of 12 victory points"' in html
    assert "wins!" not in html and 'data-finished="false"' in html
    assert f"{waiting} wins as their own turn begins" in html
    while not response.json["state"]["finished"]:        # the turns pass to the waiting one
        response = client.post(f"{api}/events", headers=headers, json={"type": "advance"})
    assert response.json["state"]["table"]["current_player"] == waiting
    html = client.get(f"/plays/{play_id}/{token}").get_data(as_text=True)
    assert f"{waiting} wins!</strong>" in html and 'data-finished="true"' in html
    assert "End the game and show the ranking" not in html


def test_a_book_layout_not_entered_shows_its_material_and_the_way_to_enter_it(client,
                                                                          owner_client):
    """Four Islands: "Set out the board as shown"; the app has no diagram, so the page lists
    the book's material (3 players: 17 sea, 3 each of fields, hills, mountains, pasture and
    forest) instead of a balance of empty positions, and the owner gets the editor's link."""
    query = {"scenario": "four_islands", "players": 3, "seed": "x"}
    html = board_page(client, **query).get_data(as_text=True)
    material = re.search(r'class="g-seafarers-material">(.*?)</p>', html, re.S).group(1)
    assert "17 sea" in material and "3 fields" in material and "Harbours: 3 × 3:1" in material
    assert "The owner can enter it once" in html and "/catalogue/seafarers/layouts/" not in html
    assert "Drawn:" not in html         # the app's own frame is not described as the book's
    owner = board_page(owner_client, **query).get_data(as_text=True)
    assert 'href="/catalogue/seafarers/layouts/four_islands/3"' in owner
    variable = board_page(client, layout="variable", **query).get_data(as_text=True)
    assert "data-busiest" in variable and 'id="layout-missing"' not in variable
    assert "Drawn:" in variable
