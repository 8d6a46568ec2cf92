"""Live streams are capped per client address and play, per address, and per server process
(issue 22, F1), in process with the Flask client; the real server under thousands of streams
from one address: tests/db/test_stream_flood.py.

- one address holds LIVE_STREAMS_PER_PLAY streams on one play and LIVE_STREAMS_PER_ADDRESS in
  all; past that a 429 with Retry-After and a sentence (JSON in the API), decided in front of
  the app: the play is not even read;
- another address is not held back by it; a closed stream frees its place;
- the process's ceiling (LIVE_STREAMS_PER_WORKER) refuses everyone with a 503 and leaves the
  ordinary requests alone; by default it keeps a quarter of a worker's connections or threads.
"""
from __future__ import annotations

import pytest

from companion.web.stream_caps import worker_ceiling
from tests.conftest import make_app

CAPS = {"RATELIMIT_ENABLED": True, "LIVE_STREAMS_PER_PLAY": 3, "LIVE_STREAMS_PER_ADDRESS": 5,
        "LIVE_STREAMS_PER_WORKER": 8, "LIVE_HEARTBEAT": 30, "LIVE_MAX_SECONDS": 30}


def new_play(client):
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]})
    assert reply.status_code == 201, reply.data
    return reply.get_json()


class Phones:
    """Open streams, each from a given address; closed at the end."""

    def __init__(self, app):
        self.client = app.test_client()
        self.open = []

    def stream(self, play, address, api=False):
        if api:
            reply = self.client.get(f"/api/v1/plays/{play['id']}/live", buffered=False,
                                    headers={"Authorization": f"Bearer {play['view_token']}"},
                                    environ_base={"REMOTE_ADDR": address})
        else:
            reply = self.client.get(f"/plays/{play['id']}/{play['view_token']}/live",
                                    buffered=False, environ_base={"REMOTE_ADDR": address})
        if reply.status_code == 200:
            assert b"event: version" in next(iter(reply.response))
            self.open.append(reply)
        return reply

    def close(self, n=None):
        for reply in self.open[:n]:
            reply.close()
        self.open = self.open[n:] if n else []


def caps(app):
    return app.extensions["stream_caps"]


@pytest.fixture
def phones(tmp_path):
    app = make_app(tmp_path, **CAPS)
    held = Phones(app)
    yield app, held
    held.close()


def test_one_address_on_one_play_then_in_all(phones):
    app, held = phones
    client = app.test_client()
    one, two, three = new_play(client), new_play(client), new_play(client)
    assert [held.stream(one, "10.0.0.5").status_code for _ in range(3)] == [200] * 3
    refused = held.stream(one, "10.0.0.5")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "too many screens" in refused.get_data(as_text=True)
    api = held.stream(one, "10.0.0.5", api=True)
    assert api.status_code == 429 and api.get_json()["error"]["code"] == "too_many_streams"
    # the same address on other plays, up to 5 in all
    assert [held.stream(two, "10.0.0.5").status_code for _ in range(2)] == [200, 200]
    refused = held.stream(three, "10.0.0.5", api=True)
    assert refused.status_code == 429
    assert "too many plays" in refused.get_json()["error"]["message"]
    # another table's phone on the same play is not held back
    assert held.stream(one, "10.0.0.9").status_code == 200
    assert caps(app).open == 6
    held.close(1)                     # a phone of 10.0.0.5 leaves: its place is free again
    assert caps(app).open == 5
    assert held.stream(one, "10.0.0.5").status_code == 200
    held.close()
    assert caps(app).open == 0 and app.extensions["notifier"].watchers() == 0


def test_a_refused_stream_reads_nothing_and_a_wrong_token_frees_its_place(phones, monkeypatch):
    app, held = phones
    play = new_play(app.test_client())
    for _ in range(3):
        assert held.stream(play, "10.0.0.5").status_code == 200
    store = app.extensions["companion"].store
    monkeypatch.setattr(store, "play_access", lambda *a: pytest.fail("read the play"))
    assert held.stream(play, "10.0.0.5").status_code == 429
    monkeypatch.undo()
    wrong = app.test_client().get(f"/plays/{play['id']}/nope/live", buffered=False,
                                  environ_base={"REMOTE_ADDR": "10.0.0.6"})
    assert wrong.status_code == 404
    wrong.close()                      # as the server closes it after the answer
    assert caps(app).open == 3


def test_the_process_ceiling_refuses_everyone_and_ordinary_requests_go_on(phones):
    app, held = phones
    client = app.test_client()
    plays = [new_play(client) for _ in range(3)]
    for n in range(8):
        assert held.stream(plays[n % 3], f"10.0.1.{n}").status_code == 200
    full = held.stream(plays[0], "10.0.2.1")
    assert full.status_code == 503 and int(full.headers["Retry-After"]) > 0
    api = held.stream(plays[0], "10.0.2.1", api=True)
    assert api.get_json()["error"]["code"] == "live_streams_full"
    page = client.get(f"/plays/{plays[0]['id']}/{plays[0]['edit_token']}")
    assert page.status_code == 200
    reply = client.post(f"/api/v1/plays/{plays[0]['id']}/events",
                        headers={"Authorization": f"Bearer {plays[0]['edit_token']}"},
                        json={"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 2}}})
    assert reply.status_code == 200


def test_with_the_per_client_limits_off_only_the_ceiling_stays(tmp_path):
    app = make_app(tmp_path, **dict(CAPS, RATELIMIT_ENABLED=False))
    held = Phones(app)
    play = new_play(app.test_client())
    try:
        assert [held.stream(play, "10.0.0.5").status_code for _ in range(9)] == [200] * 8 + [503]
    finally:
        held.close()


@pytest.mark.parametrize("config, ceiling", [
    ({}, 750),
    ({"SERVER_WORKER_CLASS": "gevent", "SERVER_CONNECTIONS": 1000}, 750),
    ({"SERVER_WORKER_CLASS": "gevent", "SERVER_CONNECTIONS": 4096}, 750),
    ({"SERVER_WORKER_CLASS": "gevent", "SERVER_CONNECTIONS": 200}, 150),
    ({"SERVER_WORKER_CLASS": "gthread", "SERVER_THREADS": 8}, 6),
    ({"SERVER_WORKER_CLASS": "gthread", "SERVER_THREADS": 132}, 99),
    ({"SERVER_WORKER_CLASS": "gthread", "SERVER_THREADS": 2}, 1),
    ({"LIVE_STREAMS_PER_WORKER": "40", "SERVER_CONNECTIONS": 1000}, 40),
])
def test_the_ceiling_keeps_a_quarter_of_a_worker_for_ordinary_requests(config, ceiling):
    assert worker_ceiling(config) == ceiling
