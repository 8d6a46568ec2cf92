"""Red-team findings, each pinned: unknown Host headers, share links from PUBLIC_URL or the LAN
address only, SameSite session cookie, the PDF renderer fetching only static files, tokens kept
out of the access log, malformed values as 400s naming the field, look-alike names."""
from __future__ import annotations

import http.server
import re
import socket
import threading
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.netinfo import lan_address
from tests.conftest import make_app

ROOT = Path(__file__).resolve().parents[2]


def new_play(client, game="knarr", players=("Ann", "Bo")):
    reply = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                               "seed": 3})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


# ---------------------------------------------------------------- hosts and share links
def test_unknown_host_headers_are_refused(client):
    play = new_play(client)
    for path in ("/", "/healthz", f"/plays/{play['id']}/{play['view_token']}",
                 f"/plays/{play['id']}/{play['view_token']}/join.svg"):
        reply = client.get(path, headers={"Host": "evil.example"})
        assert reply.status_code == 400, path
        assert "does not answer to that address" in reply.get_data(as_text=True)
        assert "evil.example" not in reply.get_data(as_text=True)
    reply = client.get("/api/v1/games", headers={"Host": "rebind.attacker.test:5000"})
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == "untrusted_host"
    for host in ("localhost", "127.0.0.1:5000", "192.168.1.20:5000",  # PUBLIC_URL's host
                 socket.gethostname()):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200, host


def test_trusted_hosts_adds_names(tmp_path):
    app = make_app(tmp_path, TRUSTED_HOSTS="board.club, .games.example")
    client = app.test_client()
    assert client.get("/healthz", headers={"Host": "board.club"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "pi.games.example:8000"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "other.club"}).status_code == 400


def test_share_links_never_come_from_the_request_host(tmp_path):
    """A trusted name in the Host header still never reaches a QR code or a share link."""
    app = make_app(tmp_path, PUBLIC_URL=None, TRUSTED_HOSTS="board.club", LISTEN_PORT=5000)
    client = app.test_client()
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]},
                        headers={"Host": "board.club:5000"})
    body = reply.get_json()
    expected = f"http://{lan_address() or '127.0.0.1'}:5000/plays/"
    assert body["view_url"].startswith(expected) and body["edit_url"].startswith(expected)
    page = client.get(f"/plays/{body['id']}/{body['edit_token']}/join",
                      headers={"Host": "board.club:5000"}).get_data(as_text=True)
    assert "board.club" not in page
    (tmp_path / "p").mkdir()
    with_public = make_app(tmp_path / "p", PUBLIC_URL="https://games.example.org/")
    body = new_play(with_public.test_client())
    assert body["view_url"].startswith("https://games.example.org/plays/")


def test_share_links_take_their_port_from_the_server_never_the_host_header(tmp_path):
    """F10: a Host header with another port (a trusted name) moves no share link or QR code:
    the port is the one `companion serve` listens on, else the server's own socket's."""
    from tests.web.test_seafarers_pages import decode_qr_svg

    app = make_app(tmp_path, PUBLIC_URL=None, LISTEN_PORT=5000)
    client = app.test_client()
    body = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]},
                       headers={"Host": "localhost:6666"}).get_json()
    root = f"http://{lan_address() or '127.0.0.1'}:5000/plays/"
    assert body["edit_url"].startswith(root) and body["view_url"].startswith(root)
    auth = {"Authorization": f"Bearer {body['view_token']}", "Host": "localhost:6666"}
    svg = client.get(f"/api/v1/plays/{body['id']}/join.svg", headers=auth).get_data(as_text=True)
    assert decode_qr_svg(svg) == body["view_url"]
    join = client.get(f"/plays/{body['id']}/{body['edit_token']}/join",
                      headers={"Host": "localhost:6666"}).get_data(as_text=True)
    assert ":6666" not in join and root in join
    # without `companion serve`'s port: the socket's own (SERVER_PORT), not the Host's
    (tmp_path / "bare").mkdir()
    bare = make_app(tmp_path / "bare", PUBLIC_URL=None).test_client()
    body = bare.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]},
                     headers={"Host": "localhost:6666"},
                     base_url="http://localhost:8123").get_json()
    assert ":8123/plays/" in body["view_url"] and ":6666" not in body["view_url"]


def test_session_cookie_is_samesite_lax(csrf_app):
    reply = csrf_app.test_client().get("/new")
    cookie = reply.headers.get("Set-Cookie", "")
    assert "session=" in cookie and "SameSite=Lax" in cookie


def cookies_set(tmp_path, name: str, public_url: str, headers: dict) -> dict[str, str]:
    """Every cookie the app sets on a visit that makes all of them: a new play (the session
    remembers it), the language, the owner link. {cookie name: its Set-Cookie header}."""
    from companion.owner import owner_key

    (tmp_path / name).mkdir()
    app = make_app(tmp_path / name, WTF_CSRF_ENABLED=True, PUBLIC_URL=public_url)
    client = app.test_client()
    found = {}
    play = new_play(client)
    replies = [client.get(f"/plays/{play['id']}/{play['edit_token']}", headers=headers),
               client.get("/new", headers=headers),
               client.get("/language/de?next=/", headers=headers),
               client.get(f"/owner/{owner_key(app)}", headers=headers)]
    for reply in replies:
        for header in reply.headers.getlist("Set-Cookie"):
            found[header.split("=", 1)[0]] = header
    assert set(found) == {"session", "lang", "nsc_owner"}, found
    return found


@pytest.mark.parametrize("how", ["X-Forwarded-Proto", "Forwarded", "PUBLIC_URL"])
def test_every_cookie_is_secure_behind_https(tmp_path, how):
    """F13: behind a reverse proxy that ends https (or with an https PUBLIC_URL) the session
    and language cookies carry Secure, like the owner cookie; on the LAN's plain http none
    does (a Secure cookie would not be kept there)."""
    headers = {"X-Forwarded-Proto": {"X-Forwarded-Proto": "https"},
               "Forwarded": {"Forwarded": "for=192.0.2.60;proto=https;by=203.0.113.43"},
               "PUBLIC_URL": {}}[how]
    public = "https://games.example.org" if how == "PUBLIC_URL" else "http://192.168.1.20:5000"
    for name, header in cookies_set(tmp_path, "https", public, headers).items():
        assert "; Secure" in header, (name, header)
    for name, header in cookies_set(tmp_path, "http", "http://192.168.1.20:5000", {}).items():
        assert "Secure" not in header, (name, header)


# ---------------------------------------------------------------- PDF fetches only static/
class Counting(http.server.BaseHTTPRequestHandler):
    hits: list = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        Counting.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"body { color: red }")

    def log_message(self, *args):
        pass


def test_pdf_renderer_fetches_only_static_files(tmp_path):
    from companion.pdf import html_to_pdf, static_only_fetcher

    secret = tmp_path / "secret.css"
    secret.write_text("body { color: red }")
    server = http.server.HTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        static = ROOT / "static"
        html = (f'<link rel="stylesheet" href="http://127.0.0.1:{server.server_port}/a.css">'
                f'<link rel="stylesheet" href="{secret.as_uri()}">'
                f'<img src="http://127.0.0.1:{server.server_port}/b.png">'
                '<link rel="stylesheet" href="css/print.css"><p>Ann 12</p>')
        pdf = html_to_pdf(html, str(static))
        assert pdf.startswith(b"%PDF")
        assert Counting.hits == []
    finally:
        server.shutdown()
    fetcher = static_only_fetcher(static)
    for url in (secret.as_uri(), "file:///etc/passwd", (static / ".." / "README.md").as_uri(),
                f"http://127.0.0.1:{server.server_port}/x", "ftp://example.org/x"):
        with pytest.raises(ValueError):
            fetcher(url)
    assert b"@page" in fetcher((static / "css" / "print.css").as_uri()).read()


# ---------------------------------------------------------------- malformed values: 400 + field
@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("bad", [["Ann"], {"name": "Ann"}, 7])
def test_a_list_or_object_where_a_player_is_expected_is_a_400(client, game_id, bad):
    game = GAMES[game_id]
    play = new_play(client, game_id, ["Ann", "Bo", "Cy"][:max(game.min_players, 3)
                                                        if game.max_players >= 3 else 2])
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    reply = client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
        "type": "sheet", "data": {"player": bad, "fields": {}}})
    assert reply.status_code == 400
    assert reply.get_json()["error"]["field"] == "data.player"
    # the page form, with the same value in its JSON data box
    reply = client.post(f"/plays/{play['id']}/{play['edit_token']}/events",
                        data={"type": "sheet", "player": "Ann", "data": '{"player": []}'},
                        headers={"HX-Request": "true"})
    assert reply.status_code < 500


def test_reavers_place_location_must_be_a_location(client):
    play = new_play(client, "reavers", ["Ann", "Bo", "Cy"])
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    for bad in (["raid"], {"a": 1}, 3):
        reply = client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
            "type": "place", "data": {"player": "Ann", "location": bad}})
        assert reply.status_code == 400, reply.get_json()
        assert reply.get_json()["error"]["field"] == "data.location"
    reply = client.post(f"/plays/{play['id']}/{play['edit_token']}/events",
                        data={"type": "place", "data": '{"player": "Ann", "location": []}'},
                        headers={"HX-Request": "true"})
    assert reply.status_code == 400
    assert re.search(r'data-field="data.location"', reply.get_data(as_text=True))


def test_look_alike_names_are_one_player_through_the_api(client):
    for twin in ("Ａｎｎ", "Ann\u200b", "\u202eAnn", "\u0410nn", "\u0391nn", "Ann\ufe0f",
                 "Ann\u034f", "Ann\u3164", "Ann\u115f"):
        reply = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", twin]})
        assert reply.status_code == 422, twin            # a rule across players (api.md)
        assert reply.get_json()["error"]["field"] == "players[1].name" or \
            reply.get_json()["error"]["field"].startswith("players[1]")
    body = new_play(client, "knarr", ["Ｂｏ", "C\u200by"])
    assert [p["name"] for p in body["state"]["players"]] == ["Bo", "Cy"]


@pytest.mark.parametrize("twin", ["\u0410nn", "\u0391nn", "Ann\ufe0f", "Ann\u3164"])
def test_look_alike_names_are_refused_on_the_new_play_page(client, twin):
    """F5 on the page: the message next to the second name box, in the phone's language;
    no play made. The setup endpoint and Shipwrights' heroes refuse them alike."""
    store = client.application.extensions["companion"].store
    before = len(store.recent_plays(limit=50))
    reply = client.post("/new", data={"game": "knarr", "name0": "Ann", "name1": twin})
    html = reply.get_data(as_text=True)
    assert reply.status_code == 422            # a rule across players (api.md)
    assert re.search(r'name="name1"[^>]*aria-invalid="true"', html)
    assert "looks just like Ann" in html or "Two players are called Ann" in html
    german = client.post("/new", data={"game": "knarr", "name0": "Ann", "name1": twin},
                         headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "sieht genauso aus wie Ann" in german or "Zwei Spieler heißen Ann" in german
    assert len(store.recent_plays(limit=50)) == before
    setup = client.post("/api/v1/games/knarr/setup", json={"players": ["Ann", twin]})
    assert (setup.status_code, setup.get_json()["error"]["code"]) == (422, "duplicate_name")
    heroes = client.post("/api/v1/games/shipwrights/heroes", json={"tracks": {
        "Ann": {"military": 1, "trade": 0, "renown": 0},
        twin: {"military": 0, "trade": 0, "renown": 0}}})
    assert (heroes.status_code, heroes.get_json()["error"]["code"]) == (422, "duplicate_name")


def test_undo_with_a_malformed_version_is_a_400_and_undoes_nothing(client):
    play = new_play(client)
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
        "type": "sheet", "data": {"player": "Bo", "fields": {"vp": 4}}})
    for bad in ("abc", "1.5", "true"):
        reply = client.post(f"/plays/{play['id']}/{play['edit_token']}/undo",
                            data={"expected_version": bad}, headers={"HX-Request": "true"})
        assert reply.status_code == 400, bad
        assert 'data-field="expected_version"' in reply.get_data(as_text=True)
    state = client.get(f"/api/v1/plays/{play['id']}", headers=auth).get_json()["state"]
    assert state["sheets"]["Bo"]["vp"] == 4 and state["version"] == 1
    reply = client.post(f"/plays/{play['id']}/{play['edit_token']}/undo",
                        data={"expected_version": "1"}, headers={"HX-Request": "true"})
    assert reply.status_code == 200
