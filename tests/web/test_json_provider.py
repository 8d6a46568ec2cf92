"""The app's JSON answers are written by orjson (companion/web/json_provider.py): the same
JSON values the standard library wrote, and what orjson cannot write is written as before."""
from __future__ import annotations

import datetime as dt
import json

from flask import jsonify

from companion.web.json_provider import OrjsonProvider


def test_an_event_answer_is_the_same_json_value_with_names_as_utf8(app, client):
    reply = client.post("/api/v1/plays", json={"game": "knarr", "seed": 1,
                                               "players": ["Bärbel", "Zoë", "Ann", "Bo"]})
    assert reply.status_code == 201
    play = reply.get_json()
    event = client.post(f"/api/v1/plays/{play['id']}/events",
                        headers={"Authorization": f"Bearer {play['edit_token']}"},
                        json={"type": "sheet", "data": {"player": "Zoë", "fields": {"vp": 3}}})
    assert event.status_code == 200 and event.mimetype == "application/json"
    assert "Zoë".encode() in event.data and b"\\u00eb" not in event.data
    state = json.loads(event.data)["state"]
    assert [p["name"] for p in state["players"]] == ["Bärbel", "Zoë", "Ann", "Bo"]
    assert state["version"] == play["state"]["version"] + 1
    assert state["score"] == event.get_json()["state"]["score"]


def test_what_orjson_cannot_write_is_written_as_before(app):
    provider = app.json
    assert isinstance(provider, OrjsonProvider) and provider.sort_keys is False
    when = dt.datetime(2026, 11, 26, 17, 30, tzinfo=dt.UTC)
    cases = [{"b": 1, "a": [1.5, None, True]},               # key order kept
             {"at": when, "day": when.date()},                # Flask's HTTP dates
             {"big": 2 ** 70},                                # past 64 bits
             {"lone": "\udaa9"},                              # a lone surrogate
             {1: "a non-text key"}]
    for value in cases:
        ours = provider.dumps(value)
        theirs = json.dumps(value, default=provider.default, sort_keys=False)
        assert json.loads(ours) == json.loads(theirs), value
    assert provider.dumps({"at": when}) == '{"at":"Thu, 26 Nov 2026 17:30:00 GMT"}'
    assert provider.dumps({"big": 2 ** 70}) == '{"big": 1180591620717411303424}'   # stdlib's
    assert provider.dumps({"k": "é"}) == '{"k":"é"}'
    with app.test_request_context():
        assert jsonify(a="é").get_data() == '{"a":"é"}\n'.encode()
        app.debug = True          # Flask's readable form in debug mode: the standard library's
        try:
            assert jsonify(a=1).get_data() == b'{\n  "a": 1\n}\n'
        finally:
            app.debug = False
