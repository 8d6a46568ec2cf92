"""Access: view tokens never write, one play's token never opens another, CSRF on forms,
hostile names shown as text, security headers. On SQLite and on PostgreSQL."""
from __future__ import annotations

import re

import pytest

from tests.conftest import make_app
from tests.db.backends import backend_app, db_url  # noqa: F401 (fixtures)

HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "O'Brien & \"Bo\""]


def start(client, players=("Ann", "Bo", "Cy"), game="knarr"):
    reply = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                               "seed": 5})
    assert reply.status_code == 201, reply.data
    return reply.get_json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def version_of(client, play):
    return client.get(f"/api/v1/plays/{play['id']}",
                      headers=bearer(play["edit_token"])).get_json()["state"]["version"]


SHEET = {"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 3}}}


def test_a_view_token_never_writes(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client)
    pid, view = play["id"], play["view_token"]
    assert client.post(f"/api/v1/plays/{pid}/events", json=SHEET,
                       headers=bearer(play["edit_token"])).status_code == 200
    for path, body in ((f"/api/v1/plays/{pid}/events", SHEET),
                       (f"/api/v1/plays/{pid}/events", {"type": "advance"}),
                       (f"/api/v1/plays/{pid}/undo", {}), (f"/api/v1/plays/{pid}/redo", {})):
        reply = client.post(path, json=body, headers=bearer(view))
        assert reply.status_code == 403, path
        assert reply.get_json()["error"]["code"] == "forbidden"
    for path, form in ((f"/plays/{pid}/{view}/events", {"type": "sheet", "player": "Ann",
                                                         "f:vp": "9"}),
                       (f"/plays/{pid}/{view}/events", {"type": "advance"}),
                       (f"/plays/{pid}/{view}/undo", {}), (f"/plays/{pid}/{view}/redo", {})):
        assert client.post(path, data=form).status_code == 403, path
    assert version_of(client, play) == 1
    page = client.get(f"/plays/{pid}/{view}")
    assert page.status_code == 200
    assert b"view only" in page.data
    assert b"/events" not in page.data and b"/undo" not in page.data
    assert play["edit_token"].encode() not in page.data


def test_one_plays_token_never_opens_another(backend_app):  # noqa: F811
    client = backend_app.test_client()
    one, two = start(client), start(client)
    for token in (one["edit_token"], one["view_token"]):
        reply = client.get(f"/api/v1/plays/{two['id']}", headers=bearer(token))
        assert reply.status_code == 403
        body = reply.get_data(as_text=True)
        assert two["id"] not in body and "Ann" not in body
        assert client.post(f"/api/v1/plays/{two['id']}/events", json=SHEET,
                           headers=bearer(token)).status_code == 403
        for path in (f"/plays/{two['id']}/{token}", f"/plays/{two['id']}/{token}/poll",
                     f"/plays/{two['id']}/{token}/scoresheet.pdf",
                     f"/plays/{two['id']}/{token}/join.svg"):
            assert client.get(path).status_code == 404, path
        assert client.post(f"/plays/{two['id']}/{token}/events",
                           data={"type": "advance"}).status_code == 404
    assert version_of(client, two) == 0
    for path in (f"/api/v1/plays/{two['id']}", f"/api/v1/plays/{two['id']}/scoresheet.pdf",
                 f"/api/v1/plays/{two['id']}/join.svg"):
        assert client.get(path).status_code == 401
        assert client.get(path, headers={"Authorization": "Bearer nope"}).status_code == 403
        assert client.get(path, headers={"Authorization": "Basic abc"}).status_code == 401
    assert client.get(f"/api/v1/plays/{'x' * 40}", headers=bearer("t")).status_code == 403
    assert client.get("/plays/nope/nope").status_code == 404


def test_tokens_are_long_and_random(backend_app):  # noqa: F811
    client = backend_app.test_client()
    plays = [start(client) for _ in range(3)]
    tokens = [p[k] for p in plays for k in ("edit_token", "view_token")]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 22 for t in tokens)   # >= 128 bits in URL-safe base64


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


def csrf_token_from(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html) or \
        re.search(r'"X-CSRFToken": "([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def test_forms_need_the_csrf_token(csrf_client):
    new = {"game": "knarr", "name0": "Ann", "name1": "Bo"}
    refused = csrf_client.post("/new", data=new)
    assert refused.status_code == 400
    assert b"reload the page" in refused.data
    token = csrf_token_from(csrf_client.get("/new?game=knarr").get_data(as_text=True))
    made = csrf_client.post("/new", data={**new, "csrf_token": token})
    assert made.status_code == 302
    play_url = made.headers["Location"]

    event = {"type": "sheet", "player": "Ann", "f:vp": "4", "expected_version": "0"}
    path = f"{play_url}/events"
    assert csrf_client.post(path, data=event).status_code == 400
    assert csrf_client.post(path, data={**event, "csrf_token": "forged"}).status_code == 400
    page = csrf_client.get(play_url).get_data(as_text=True)
    assert 'data-version="0"' in page
    token = csrf_token_from(page)
    ok = csrf_client.post(path, data=event, headers={"X-CSRFToken": token, "HX-Request": "true"})
    assert ok.status_code == 200 and b'data-version="1"' in ok.data
    assert csrf_client.post(f"{play_url}/undo", data={}).status_code == 400
    assert csrf_client.post("/catalogue/knarr", data={"json": "{}"}).status_code == 400


def test_another_browser_session_cannot_reuse_a_csrf_token(csrf_app):
    first, second = csrf_app.test_client(), csrf_app.test_client()
    token = csrf_token_from(first.get("/new?game=knarr").get_data(as_text=True))
    reply = second.post("/new", data={"game": "knarr", "name0": "Ann", "name1": "Bo",
                                      "csrf_token": token})
    assert reply.status_code == 400


def test_the_api_needs_no_csrf_token_but_a_bearer_token(csrf_client):
    play = start(csrf_client)
    assert csrf_client.post(f"/api/v1/plays/{play['id']}/events", json=SHEET,
                            headers=bearer(play["edit_token"])).status_code == 200


def test_hostile_player_names_are_shown_as_text(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client, players=HOSTILE)
    pid, token = play["id"], play["edit_token"]
    reply = client.post(f"/api/v1/plays/{pid}/events", headers=bearer(token), json={
        "type": "sheet", "data": {"player": HOSTILE[0], "fields": {"vp": 7}}})
    assert reply.status_code == 200
    pages = [client.get(f"/plays/{pid}/{token}"), client.get(f"/plays/{pid}/{token}/poll"),
             client.get("/"), client.get(f"/plays/{pid}/{play['view_token']}")]
    for page in pages:
        html = page.get_data(as_text=True)
        assert page.status_code == 200
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "onerror=alert(2)>" not in html.replace("&gt;", "")
    play_html = pages[0].get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in play_html
    assert "O&#39;Brien &amp; &#34;Bo&#34;" in play_html
    state = client.get(f"/api/v1/plays/{pid}", headers=bearer(token)).get_json()["state"]
    assert [p["name"] for p in state["players"]] == HOSTILE
    assert state["sheets"][HOSTILE[0]]["vp"] == 7


def test_a_hostile_name_on_the_new_play_form_is_echoed_as_text(tmp_path):
    client = make_app(tmp_path).test_client()
    reply = client.post("/new", data={"game": "knarr", "name0": HOSTILE[1]})
    assert reply.status_code in (400, 422)
    html = reply.get_data(as_text=True)
    assert "<img src=x" not in html and "&#34;&gt;&lt;img" in html


@pytest.mark.parametrize("path", ["/", "/healthz", "/new", "/catalogue", "/api/v1/games",
                                  "/api/v1/openapi.json", "/nowhere"])
def test_security_headers_on_every_answer(client, path):
    reply = client.get(path)
    csp = reply.headers["Content-Security-Policy"]
    for part in ("default-src 'self'", "script-src 'self'", "object-src 'none'",
                 "frame-ancestors 'none'", "base-uri 'self'", "form-action 'self'"):
        assert part in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["Referrer-Policy"] == "no-referrer"


def test_pages_carry_no_inline_script_or_style(client):
    play = start(client)
    for path in ("/", "/new", f"/plays/{play['id']}/{play['edit_token']}"):
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert " style=" not in html and " onclick=" not in html and "hx-on" not in html, path


def test_a_token_is_never_leaked_through_the_referrer(client):
    play = start(client)
    reply = client.get(f"/plays/{play['id']}/{play['edit_token']}")
    assert reply.headers["Referrer-Policy"] == "no-referrer"
