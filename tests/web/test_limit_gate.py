"""A client that ignores Retry-After (issue 22, F2: a PDF loop's ~600 refusals a second, each a
whole Flask request, raised other tables' tap p95 8-28x).

Flask-Limiter refuses the first request over an allowance, in the app, as before; each repeat
to that route from that address is answered in front of the app (companion/web/limit_gate.py):
the same 429, Retry-After and body, without entering Flask, for as long as Flask-Limiter's own
storage says the allowance is used up. Under gevent it is held first (REFUSAL_HOLD seconds) and
served by the app if its allowance came back meanwhile. (The hold on the production server, and
the order it gives: tests/db/test_refusal_hold.py.)
"""
from __future__ import annotations

from tests.conftest import make_app
from tests.web.test_limits import new_play

LOOPER = {"REMOTE_ADDR": "10.0.0.2"}
TABLE = {"REMOTE_ADDR": "10.0.0.1"}


def counted_app(tmp_path, **config):
    """A limited app that counts the requests Flask itself handles."""
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, RATELIMIT_HEAVY="2 per minute", **config)
    app.entered = []

    @app.before_request
    def count():
        from flask import request

        app.entered.append(request.path)

    return app


def sheet_paths(client):
    play = new_play(client, game="knarr", players=("Ann", "Bo"))
    return play, (f"/plays/{play['id']}/{play['view_token']}/scoresheet.pdf",
                  f"/api/v1/plays/{play['id']}/scoresheet.pdf")


def test_a_repeat_refusal_is_answered_without_entering_the_app(tmp_path):
    app = counted_app(tmp_path)
    client = app.test_client()
    play, (page, api) = sheet_paths(client)
    view = {"Authorization": f"Bearer {play['view_token']}"}
    answers = [client.get(api, headers=view, environ_base=LOOPER) for _ in range(6)]
    assert [a.status_code for a in answers] == [200, 200, 429, 429, 429, 429]
    assert app.entered.count(api) == 3          # two sheets and Flask-Limiter's refusal
    first, repeats = answers[2], answers[3:]
    for repeat in repeats:                      # the same answer as the app's
        assert repeat.get_json() == first.get_json()
        assert repeat.get_json()["error"]["code"] == "rate_limited"
        assert repeat.headers["Content-Type"] == "application/json"
        for header in ("X-RateLimit-Limit", "X-RateLimit-Remaining"):
            assert repeat.headers[header] == first.headers[header], header
        assert 0 < int(repeat.headers["Retry-After"]) <= int(first.headers["Retry-After"])
        assert abs(int(repeat.headers["X-RateLimit-Reset"])
                   - int(first.headers["X-RateLimit-Reset"])) <= 1
    # the app's own Retry-After is the allowance's reset too, not a fixed minute
    assert abs(int(first.headers["Retry-After"]) - int(repeats[0].headers["Retry-After"])) <= 1


def test_a_page_repeat_is_the_sentence_in_the_pages_language(tmp_path):
    app = counted_app(tmp_path)
    client = app.test_client()
    _, (page, _) = sheet_paths(client)
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    answers = [client.get(page, headers=german, environ_base=LOOPER) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 429, 429]
    assert app.entered.count(page) == 3
    repeat = answers[3]
    text = repeat.get_data(as_text=True)
    assert "zu viele Anfragen" in text and "zu viele Anfragen" in answers[2].get_data(
        as_text=True)
    assert int(repeat.headers["Retry-After"]) > 0
    # the language chosen on the page (its cookie) wins over the browser's, as in the app
    client.set_cookie("lang", "fr")
    french = client.get(page, headers=german, environ_base=LOOPER)
    assert french.status_code == 429 and app.entered.count(page) == 3
    assert "trop de requêtes" in french.get_data(as_text=True)


def test_only_the_refused_route_of_the_refused_address_is_answered_in_front(tmp_path):
    """Behind a router or a proxy every phone of a table has one address: one phone's loop
    over the documents' allowance leaves that address's taps, pages and other allowances to
    the app; another address is served on the same route."""
    app = counted_app(tmp_path)
    client = app.test_client()
    play, (page, api) = sheet_paths(client)
    for _ in range(4):
        client.get(page, environ_base=LOOPER)
    entered = len(app.entered)
    edit = {"Authorization": f"Bearer {play['edit_token']}"}
    tap = client.post(f"/api/v1/plays/{play['id']}/events", headers=edit, environ_base=LOOPER,
                      json={"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 3}}})
    assert tap.status_code == 200
    assert client.get(f"/plays/{play['id']}/{play['view_token']}",
                      environ_base=LOOPER).status_code == 200
    assert client.get(page, environ_base=TABLE).status_code == 200
    assert len(app.entered) == entered + 3
    # the documents' allowance is shared: the API's sheet is refused by Flask-Limiter once,
    # in the app, then in front of it
    view = {"Authorization": f"Bearer {play['view_token']}"}
    assert [client.get(api, headers=view, environ_base=LOOPER).status_code
            for _ in range(3)] == [429, 429, 429]
    assert len(app.entered) == entered + 4


def test_the_gate_asks_flask_limiter_whether_the_allowance_is_back(tmp_path):
    """No second limiter: when Flask-Limiter's storage has room again (its window passed, or
    here its reset), the next request goes to the app and is served."""
    app = counted_app(tmp_path)
    client = app.test_client()
    _, (page, _) = sheet_paths(client)
    assert [client.get(page, environ_base=LOOPER).status_code for _ in range(4)] == [
        200, 200, 429, 429]
    app.extensions["companion_limiter"].reset()
    entered = len(app.entered)
    assert client.get(page, environ_base=LOOPER).status_code == 200
    assert len(app.entered) == entered + 1
    assert app.extensions["limit_gate"].breaches == {}     # forgotten


def test_a_held_repeat_is_served_when_its_allowance_comes_back(tmp_path, monkeypatch):
    """Under gevent a repeat is held (a greenlet's sleep) up to REFUSAL_HOLD seconds, or until
    the allowance's reset if sooner, then asked of Flask-Limiter again."""
    from companion.web import limit_gate

    app = counted_app(tmp_path, REFUSAL_HOLD=3)
    client = app.test_client()
    _, (page, _) = sheet_paths(client)
    assert [client.get(page, environ_base=LOOPER).status_code for _ in range(3)] == [
        200, 200, 429]
    slept = []
    monkeypatch.setattr(limit_gate, "cooperative_sleep", lambda: True)
    monkeypatch.setattr(limit_gate.time, "sleep", slept.append)
    held = client.get(page, environ_base=LOOPER)
    assert held.status_code == 429 and slept == [3]        # held, still over: refused
    entered = len(app.entered)

    def allowance_back(seconds):
        slept.append(seconds)
        app.extensions["companion_limiter"].reset()

    monkeypatch.setattr(limit_gate.time, "sleep", allowance_back)
    assert client.get(page, environ_base=LOOPER).status_code == 200
    assert slept == [3, 3] and len(app.entered) == entered + 1


def test_without_gevent_a_repeat_is_answered_at_once(tmp_path, monkeypatch):
    """A thread (gthread, the tests' client) is never held: a sleeping thread is one fewer for
    the tables."""
    from companion.web import limit_gate

    app = counted_app(tmp_path, REFUSAL_HOLD=3)
    client = app.test_client()
    _, (page, _) = sheet_paths(client)
    monkeypatch.setattr(limit_gate.time, "sleep", lambda s: (_ for _ in ()).throw(
        AssertionError("a thread was held")))
    assert [client.get(page, environ_base=LOOPER).status_code for _ in range(4)] == [
        200, 200, 429, 429]


def test_a_loop_of_addresses_the_app_does_not_know_is_counted_and_then_gated(tmp_path):
    """A 404 has no endpoint, and Flask-Limiter counts by endpoint: a loop of unknown
    addresses (or wrong methods) went uncounted. Now they share one reads allowance per
    client, and its repeats are answered in front of the app like any other route's."""
    app = counted_app(tmp_path, RATELIMIT_READS="3 per minute")
    gate, flask_entered = app.extensions["limit_gate"], []
    inner = gate.wsgi_app

    def flask_app(environ, start_response):
        flask_entered.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    gate.wsgi_app = flask_app
    client = app.test_client()
    paths = ["/no/such/page", "/plays/nothing", "/api/v1/nope", "/static-not", "/x"]
    answers = [client.get(p, environ_base=LOOPER) for p in paths]
    assert [a.status_code for a in answers] == [404, 404, 404, 429, 429]
    assert app.entered == paths[:3]             # the fourth refused by Flask-Limiter
    assert flask_entered == paths[:4]           # and the fifth in front of Flask
    assert "too many requests" in answers[4].get_data(as_text=True)
    api = client.get("/api/v1/still-nothing", environ_base=LOOPER)
    assert api.status_code == 429 and api.get_json()["error"]["code"] == "rate_limited"
    # a wrong method on a known address is unrouted too (405), on the same allowance
    assert client.delete("/healthz", environ_base=LOOPER).status_code == 429
    # the health check stays free, another address is not touched, and the client's
    # allowance for a real page is its own
    assert client.get("/healthz", environ_base=LOOPER).status_code == 200
    assert client.get("/no/such/page", environ_base=TABLE).status_code == 404
    assert client.get("/", environ_base=LOOPER).status_code == 200
