"""Limits, deleting a play, and privacy of the lists.

- Per client and minute: plays created and changes (events, undo, redo); a table of five
  phones tapping fast never meets the limit, a flood does and gets a plain 429.
- Documents (PDFs, pads, imports) are made one at a time per process: while one is being made,
  another is refused with a 429 at once and the tables' taps still go through.
- A play is deleted with its edit token (page with a confirmation, API DELETE); a view token
  cannot.
- `/` and `/history` list only the plays this device has opened.
"""
from __future__ import annotations

import threading

import pytest

from tests.conftest import make_app


def limited_app(tmp_path, **config):
    return make_app(tmp_path, RATELIMIT_ENABLED=True, **config)


def new_play(client, players=("Ann", "Bo", "Cy", "Di", "Ed"), game="reavers"):
    reply = client.post("/api/v1/plays", json={"game": game, "players": list(players[:4]),
                                               "seed": 1})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def tap(client, play, i):
    return client.post(f"/api/v1/plays/{play['id']}/events",
                       headers={"Authorization": f"Bearer {play['edit_token']}"},
                       json={"type": "sheet", "data": {"player": "Ann",
                                                       "fields": {"glory": i}}})


# ---------------------------------------------------------------- per-client limits
def test_a_table_of_five_tapping_fast_never_meets_the_limit(tmp_path):
    """Five phones behind one address (the worst case: one Wi-Fi NAT), each tapping as fast
    as the server answers, through the API and the page forms. The default allowance is also
    far above what people can tap: 5 phones x 4 taps a second for a whole minute."""
    from limits import parse

    from companion.web.limits import DEFAULTS

    assert parse(DEFAULTS["RATELIMIT_EVENTS"]).amount >= 5 * 4 * 60
    app = limited_app(tmp_path)
    play = new_play(app.test_client())
    statuses = []

    def phone(n):
        client = app.test_client()
        for i in range(30):
            if i % 3:
                reply = client.post(f"/plays/{play['id']}/{play['edit_token']}/events",
                                    data={"type": "sheet", "player": "Bo",
                                          "bump": "glory:+1"}, headers={"HX-Request": "true"})
            else:
                reply = client.post(f"/api/v1/plays/{play['id']}/events",
                                    headers={"Authorization": f"Bearer {play['edit_token']}"},
                                    json={"type": "sheet", "data": {
                                        "player": "Ann", "fields": {"glory": i}}})
            statuses.append(reply.status_code)

    phones = [threading.Thread(target=phone, args=(n,)) for n in range(5)]
    for t in phones:
        t.start()
    for t in phones:
        t.join()
    assert len(statuses) == 150 and 429 not in statuses
    assert set(statuses) <= {200, 409}


def test_a_flood_of_events_gets_a_plain_429(tmp_path):
    app = limited_app(tmp_path, RATELIMIT_EVENTS="10 per minute")
    client = app.test_client()
    play = new_play(client)
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    codes = [client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
        "type": "sheet", "data": {"player": "Ann", "fields": {"glory": i}}}).status_code
        for i in range(12)]
    assert codes[:10] == [200] * 10 and codes[10:] == [429, 429]
    reply = client.post(f"/api/v1/plays/{play['id']}/undo", headers=auth)
    assert reply.status_code == 429
    assert reply.get_json()["error"]["code"] == "rate_limited"
    assert int(reply.headers["Retry-After"]) > 0
    page = client.post(f"/plays/{play['id']}/{play['edit_token']}/events",
                       data={"type": "sheet", "player": "Ann", "f:glory": "3"})
    assert page.status_code == 429
    assert "too many requests in a minute" in page.get_data(as_text=True)
    # another client (another address) is not held back
    other = app.test_client()
    reply = other.post(f"/api/v1/plays/{play['id']}/events", headers=auth,
                       environ_base={"REMOTE_ADDR": "192.168.1.77"},
                       json={"type": "sheet", "data": {"player": "Bo", "fields": {"glory": 1}}})
    assert reply.status_code == 200


def test_a_change_is_counted_by_the_changes_limit_alone(tmp_path):
    """The reads' allowance counts every other request; a change counted by the changes' limit
    is not counted by it as well (it was: one client's events met the reads' limit first)."""
    app = limited_app(tmp_path, RATELIMIT_READS="4 per minute", RATELIMIT_EVENTS="50 per minute")
    client = app.test_client()
    play = new_play(client)
    assert [tap(client, play, i).status_code for i in range(10)] == [200] * 10
    page = f"/plays/{play['id']}/{play['edit_token']}"
    reads = [client.get(page).status_code for _ in range(6)]
    assert reads[:4] == [200] * 4 and reads[4:] == [429, 429]   # the reads keep their own


def test_each_request_is_evaluated_once_and_answers_the_same_headers(tmp_path):
    """Flask-Limiter resolves and evaluates a request's limits once: a change, a page form's
    change, a form a decorated route shows (GET: the reads' allowance), a page read, an
    address the app does not route, /healthz. (Before, every change was evaluated twice:
    in the before-request hook, with nothing to count, and in its view's wrapper.) The
    counts and headers stay the changes' and the reads' own."""
    app = limited_app(tmp_path, RATELIMIT_READS="7 per minute", RATELIMIT_EVENTS="9 per minute")
    client = app.test_client()
    play = new_play(client)
    limiter = app.extensions["companion_limiter"]
    resolved = []
    resolve = limiter.limit_manager.resolve_limits
    limiter.limit_manager.resolve_limits = lambda *a, **k: resolved.append(a) or resolve(*a,
                                                                                       **k)
    page = f"/plays/{play['id']}/{play['edit_token']}"
    requests = [lambda: tap(client, play, 1),
                lambda: client.post(f"{page}/events", data={"type": "sheet", "player": "Bo",
                                                            "bump": "glory:+1"},
                                    headers={"HX-Request": "true"}),
                lambda: client.get("/new"), lambda: client.get(page),
                lambda: client.get("/no/such/address"), lambda: client.get("/healthz")]
    replies = []
    for request in requests:
        resolved.clear()
        replies.append(request())
        assert len(resolved) == 1, (replies[-1].request.path, resolved)
    assert [r.status_code for r in replies] == [200, 200, 200, 200, 404, 200]
    limits = [r.headers.get("X-RateLimit-Limit") for r in replies]
    remaining = [r.headers.get("X-RateLimit-Remaining") for r in replies]
    assert limits == ["9", "9", "7", "7", "7", None]
    assert remaining[:2] == ["8", "7"] and remaining[2:5] == ["6", "6", "6"]


def test_a_route_s_limits_are_worked_out_once_and_a_changed_setting_counts(tmp_path,
                                                                             monkeypatch):
    """Which limits apply to a route is worked out by Flask-Limiter once (per route and
    settings), not on every request; the counting stays per request, and a setting changed
    on a running app is read again from the next request on, as it was read every time."""
    from flask_limiter._manager import LimitManager

    worked_out = []
    resolve = LimitManager.resolve_limits
    monkeypatch.setattr(LimitManager, "resolve_limits", lambda self, app, endpoint=None, *a:
                        worked_out.append(endpoint) or resolve(self, app, endpoint, *a))
    app = limited_app(tmp_path, RATELIMIT_EVENTS="9 per minute")
    client = app.test_client()
    play = new_play(client)
    taps = [tap(client, play, i) for i in range(3)]
    assert [r.status_code for r in taps] == [200] * 3
    assert [r.headers["X-RateLimit-Remaining"] for r in taps] == ["8", "7", "6"]
    assert worked_out.count("api.post_event") == 1
    app.config["RATELIMIT_EVENTS"] = "2 per minute"
    taps = [tap(client, play, i) for i in range(3)]
    assert [r.status_code for r in taps] == [200, 200, 429]
    assert [r.headers["X-RateLimit-Limit"] for r in taps] == ["2"] * 3
    assert worked_out.count("api.post_event") == 2


def test_the_limits_come_from_the_environment_too(tmp_path, monkeypatch):
    """A club behind a reverse proxy (every phone arrives from one address) raises them."""
    monkeypatch.setenv("RATELIMIT_EVENTS", "2 per minute")
    monkeypatch.setenv("HEAVY_SLOTS", "3")
    app = limited_app(tmp_path)
    assert app.config["HEAVY_SLOTS"] == "3"
    client = app.test_client()
    play = new_play(client)
    assert [tap(client, play, i).status_code for i in range(3)] == [200, 200, 429]


def test_plays_created_per_minute_are_limited_across_api_form_and_import(tmp_path):
    app = limited_app(tmp_path, RATELIMIT_PLAYS="3 per minute")
    client = app.test_client()
    exported = None
    for _ in range(3):
        exported = new_play(client, game="knarr", players=("Ann", "Bo"))
    assert client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]}
                       ).status_code == 429
    assert client.post("/new", data={"game": "knarr", "name0": "Ann", "name1": "Bo"}
                       ).status_code == 429
    doc = client.get(f"/api/v1/plays/{exported['id']}/export", headers={
        "Authorization": f"Bearer {exported['view_token']}"}).get_json()
    assert client.post("/api/v1/plays/import", json=doc).status_code == 429


def test_imports_are_made_one_at_a_time_and_the_taps_go_on(tmp_path, monkeypatch):
    """An import is replayed in the request: HEAVY_SLOTS of them at once per process; another
    finds none free and is told to come back (503 with Retry-After), the tables' taps go on.
    (PDFs have their own pool of processes: tests/web/test_documents.py.)"""
    from companion.web import table

    app = limited_app(tmp_path, HEAVY_WAIT=0)
    client = app.test_client()
    play = new_play(client)
    doc = client.get(f"/api/v1/plays/{play['id']}/export", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()
    started, release = threading.Event(), threading.Event()
    real_import = table.import_play

    def slow_import(body):
        started.set()
        assert release.wait(30)
        return real_import(body)

    monkeypatch.setattr(table, "import_play", slow_import)
    first = {}
    worker = threading.Thread(target=lambda: first.update(
        reply=app.test_client().post("/api/v1/plays/import", json=doc)))
    worker.start()
    try:
        assert started.wait(30)
        busy = client.post("/api/v1/plays/import", json=doc)
        assert busy.status_code == 503
        assert busy.get_json()["error"]["code"] == "busy"
        assert int(busy.headers["Retry-After"]) > 0
        page = client.post("/import", data={})
        assert page.status_code == 503 and "try again" in page.get_data(as_text=True)
        assert tap(client, play, 1).status_code == 200        # the table is not held up
    finally:
        release.set()
        worker.join()
    assert first["reply"].status_code == 201


# ---------------------------------------------------------------- what computes
def computing_requests(client):
    """One request to each endpoint that computes and is not a document or a change (issue
    22, F4: 15,505 Seafarers setups in 30 s slowed a table's events 27-fold)."""
    play = new_play(client, game="knarr", players=("Ann", "Bo"))
    view = {"Authorization": f"Bearer {play['view_token']}"}
    page = f"/plays/{play['id']}/{play['view_token']}"
    return [
        ("post", "/api/v1/games/seafarers/setup",
         {"json": {"players": ["Ann", "Bo", "Cy", "Di"], "seed": 1,
                   "options": {"scenario": "greater_catan"}}}),
        ("post", "/api/v1/games/knarr/score",
         {"json": {"players": [{"name": "Ann", "sheet": {"vp": 3}},
                               {"name": "Bo", "sheet": {"vp": 4}}]}}),
        ("post", "/api/v1/games/shipwrights/heroes",
         {"json": {"tracks": {"Ann": {"military": 3, "trade": 1, "renown": 0},
                              "Bo": {"military": 1, "trade": 2, "renown": 2}},
                   "neutral": {"military": 2, "trade": 2, "renown": 2}}}),
        ("get", f"/api/v1/plays/{play['id']}/join.svg", {"headers": view}),
        ("get", f"{page}/join.svg", {}),
        ("get", f"{page}/chart.svg", {}),
        ("get", "/boards/seafarers?scenario=four_islands&players=3&seed=1", {}),
        ("get", f"{page}/export.csv", {}),
        ("get", f"/api/v1/plays/{play['id']}/export", {"headers": view}),
    ]


def test_every_endpoint_that_computes_shares_one_limit(tmp_path):
    app = limited_app(tmp_path, RATELIMIT_COMPUTE="3 per minute")
    client = app.test_client()
    requests = computing_requests(client)
    limiter = app.extensions["companion_limiter"]
    for method, path, kwargs in requests:
        limiter.reset()
        answers = [getattr(client, method)(path, **kwargs) for _ in range(4)]
        assert [a.status_code for a in answers[:3]] == [200] * 3, (path, answers[0].data[:200])
        refused = answers[3]
        assert refused.status_code == 429, path
        assert int(refused.headers["Retry-After"]) > 0
        if path.startswith("/api/"):
            assert refused.get_json()["error"]["code"] == "rate_limited"
        # another address is not held back
        assert getattr(client, method)(path, environ_base={"REMOTE_ADDR": "10.0.0.9"},
                                       **kwargs).status_code == 200, path
    # one allowance for all of them together
    limiter.reset()
    answers = [getattr(client, m)(p, **k).status_code for m, p, k in requests[:4]]
    assert answers == [200, 200, 200, 429]


def test_the_computing_limit_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("RATELIMIT_COMPUTE", "2 per minute")
    client = limited_app(tmp_path).test_client()
    setup = {"players": ["Ann", "Bo"], "seed": 1}
    assert [client.post("/api/v1/games/knarr/setup", json=setup).status_code
            for _ in range(3)] == [200, 200, 429]


def urls_for_every_get_route(client) -> dict:
    play = new_play(client, game="knarr", players=("Ann", "Bo"))
    pid, view, edit = play["id"], play["view_token"], play["edit_token"]
    page = f"/plays/{pid}/{view}"
    return {
        "api.catalogue_versions": "/api/v1/catalogue/knarr/versions",
        "api.games": "/api/v1/games", "api.get_catalogue": "/api/v1/catalogue/knarr",
        "api.get_play": f"/api/v1/plays/{pid}", "api.join_svg": f"/api/v1/plays/{pid}/join.svg",
        "api.openapi": "/api/v1/openapi.json",
        "api.scoresheet": f"/api/v1/plays/{pid}/scoresheet.pdf",
        "boards.seafarers": "/boards/seafarers?scenario=four_islands&players=3&seed=1",
        "boards.seafarers_pdf": "/boards/seafarers.pdf?scenario=four_islands&players=3&seed=1",
        "book_layouts.edit": "/catalogue/seafarers/layouts/four_islands/3",
        "book_layouts.index": "/catalogue/seafarers/layouts",
        "display.display": f"{page}/display", "i18n.choose": "/language/de",
        "pages.catalogue": "/catalogue/knarr", "pages.catalogue_export":
        "/catalogue/knarr/export.json", "pages.catalogues": "/catalogue",
        "pages.delete_play": f"/plays/{pid}/{edit}/delete", "pages.index": "/",
        "pages.join_svg": f"{page}/join.svg", "pages.manifest": "/manifest.webmanifest",
        "pages.new_play": "/new", "pages.owner_delete_play": f"/owner/plays/{pid}/delete",
        "pages.owner_link": "/owner/not-the-key", "pages.play": page,
        "pages.poll": f"{page}/poll?version=0", "pages.scoresheet": f"{page}/scoresheet.pdf",
        "stream.api_live": f"/api/v1/plays/{pid}/live", "stream.page_live": f"{page}/live",
        "table.api_export": f"/api/v1/plays/{pid}/export", "table.chart_svg": f"{page}/chart.svg",
        "table.export": f"{page}/export.json", "table.history": "/history",
        "table.import_page": "/import", "table.join": f"{page}/join",
        "table.seat_svg": f"/plays/{pid}/{edit}/seat/0.svg",
        "table.take_seat": f"/plays/{pid}/{edit}/seat/0", "table.pad":
        "/pads/knarr.pdf", "table.pads": "/pads", "table.play_history": f"{page}/history",
    }


def test_every_route_has_a_limit_but_healthz_and_static_files(tmp_path):
    """With every allowance at 2 a minute, the third request to any GET route is refused
    (whatever it answered before: a page, a 401, a 403); a route added later without a limit
    of its own falls under the reads allowance, and this list must name it. Every route that
    writes is in one of the named allowances (companion/web/limits.py)."""
    from companion.web import limits

    config = {name: "2 per minute" for name in (
        "RATELIMIT_PLAYS", "RATELIMIT_EVENTS", "RATELIMIT_HEAVY", "RATELIMIT_COMPUTE",
        "RATELIMIT_READS")}
    app = limited_app(tmp_path, **config)
    client = app.test_client()
    urls = urls_for_every_get_route(client)
    routes = {rule.endpoint: rule.methods for rule in app.url_map.iter_rules()}
    free = {"static", *limits.FREE}
    assert set(urls) == {e for e, m in routes.items() if "GET" in m} - free
    limiter = app.extensions["companion_limiter"]
    for endpoint, url in urls.items():
        limiter.reset()
        answers = [client.get(url, buffered=False) for _ in range(3)]
        for reply in answers:
            reply.close()
        assert answers[2].status_code == 429, (endpoint, [a.status_code for a in answers])
    for _ in range(5):
        assert client.get("/healthz").status_code == 200
    named = {*limits.PLAY_CREATION, *limits.PLAY_CHANGES, *limits.HEAVY, *limits.COMPUTE}
    writing = {e for e, m in routes.items() if m & {"POST", "PUT", "DELETE"}}
    assert writing <= named, writing - named


# ---------------------------------------------------------------- deleting a play
def test_the_api_deletes_a_play_with_its_edit_token_only(client, app):
    play = new_play(client)
    tap(client, play, 1)
    path = f"/api/v1/plays/{play['id']}"
    assert client.delete(path).status_code == 401
    assert client.delete(path, headers={"Authorization": f"Bearer {play['view_token']}"}
                         ).status_code == 403
    assert client.delete(path, headers={"Authorization": "Bearer nonsense"}).status_code == 403
    edit = {"Authorization": f"Bearer {play['edit_token']}"}
    assert client.delete(path, headers=edit).status_code == 204
    assert client.get(path, headers=edit).status_code in (403, 404)
    assert client.get(f"/plays/{play['id']}/{play['edit_token']}").status_code == 404
    store = app.extensions["companion"].store
    assert store.load_play(play["id"]) is None
    assert store.active_events(play["id"]) == []
    assert client.delete(path, headers=edit).status_code in (403, 404)


def test_the_page_asks_before_deleting(csrf_app):
    client = csrf_app.test_client()
    play = new_play(client)
    base = f"/plays/{play['id']}"
    assert client.get(f"{base}/{play['view_token']}/delete").status_code == 403
    history = client.get(f"{base}/{play['edit_token']}/history").get_data(as_text=True)
    assert 'id="delete-play"' in history
    page = client.get(f"{base}/{play['edit_token']}/delete")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "Delete this play?" in text
    assert "cannot be undone" in text
    assert client.get(f"{base}/{play['edit_token']}").status_code == 200   # not yet deleted
    # without the form's CSRF token (another site's form) nothing happens
    assert client.post(f"{base}/{play['edit_token']}/delete").status_code == 400
    assert client.get(f"{base}/{play['edit_token']}").status_code == 200
    import re

    token = re.search(r'name="csrf_token" value="([^"]+)"', text).group(1)
    done = client.post(f"{base}/{play['edit_token']}/delete", data={"csrf_token": token})
    assert done.status_code == 200 and "Play deleted" in done.get_data(as_text=True)
    assert client.get(f"{base}/{play['edit_token']}").status_code == 404


# ---------------------------------------------------------------- privacy of the lists
def finished_play_through_pages(client, names):
    reply = client.post("/new", data={"game": "knarr", "name0": names[0], "name1": names[1]})
    assert reply.status_code == 302
    link = reply.headers["Location"]
    client.get(link)
    _, _, play_id, token = link.rstrip("/").rsplit("/", 3)
    client.post(f"/api/v1/plays/{play_id}/events", headers={
        "Authorization": f"Bearer {token}"}, json={"type": "finish"})
    return play_id, token


@pytest.mark.parametrize("page", ["/", "/history"])
def test_lists_show_only_the_plays_this_device_opened(app, page):
    ann = app.test_client()
    cy = app.test_client()
    finished_play_through_pages(ann, ["Annabel", "Bosco"])
    finished_play_through_pages(cy, ["Cyrano", "Dido"])
    api_only = new_play(app.test_client(), game="knarr", players=("Zebedee", "Xanthe"))
    app.test_client().post(f"/api/v1/plays/{api_only['id']}/events", headers={
        "Authorization": f"Bearer {api_only['edit_token']}"}, json={"type": "finish"})
    mine = ann.get(page).get_data(as_text=True)
    theirs = cy.get(page).get_data(as_text=True)
    stranger = app.test_client().get(page).get_data(as_text=True)
    assert "Annabel" in mine and "Cyrano" not in mine and "Zebedee" not in mine
    assert "Cyrano" in theirs and "Annabel" not in theirs
    for name in ("Annabel", "Bosco", "Cyrano", "Dido", "Zebedee", "Xanthe"):
        assert name not in stranger
    # the device that opens a play by its link sees it from then on
    stranger_client = app.test_client()
    stranger_client.get(f"/plays/{api_only['id']}/{api_only['view_token']}")
    assert "Zebedee" in stranger_client.get(page).get_data(as_text=True)
