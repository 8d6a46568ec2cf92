"""The optional turn limit (issue 24): ``turn_limit_s`` when a play starts (the API and the
new-play form), changed by the host's phone with a ``turn_limit`` event (a seat token is
refused), kept by the export and its import, documented in the OpenAPI document; past it, the
phone whose turn it is draws its banner in a warmer colour with a sentence, and no other
phone does."""
from __future__ import annotations

import datetime as dt
import re

import pytest

T0 = dt.datetime(2025, 6, 7, 20, 0, tzinfo=dt.UTC)


def start(app, client, **extra):
    app.extensions["companion"].now = lambda: T0
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo", "Cy"],
                                               "seed": 4, "seat_edits": "own", **extra})
    assert reply.status_code == 201, reply.data
    play = reply.get_json()
    play["seat"] = {s["name"]: s["token"] for s in play["seats"]}
    return play


def at(app, seconds):
    app.extensions["companion"].now = lambda: T0 + dt.timedelta(seconds=seconds)


def event(client, play, token, body):
    return client.post(f"/api/v1/plays/{play['id']}/events", json=body,
                       headers={"Authorization": f"Bearer {token}"})


def banner(client, play, token):
    html = client.get(f"/plays/{play['id']}/{token}").get_data(as_text=True)
    found = re.search(r'<p class="your-turn[^"]*"[^>]*>.*?</p>', html, re.S)
    return found[0] if found else None


def test_the_limit_is_set_at_the_start_changed_by_the_host_and_kept(app, client):
    play = start(app, client, turn_limit_s=90)
    assert play["state"]["turn_limit_s"] == 90
    changed = event(client, play, play["edit_token"], {"type": "turn_limit",
                                                        "data": {"seconds": 120}})
    assert changed.status_code == 200 and changed.get_json()["state"]["turn_limit_s"] == 120
    refused = event(client, play, play["seat"]["Bo"], {"type": "turn_limit",
                                                        "data": {"seconds": 30}})
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "not_your_seat"
    for bad in (-5, "soon", 10 ** 6):
        reply = event(client, play, play["edit_token"], {"type": "turn_limit",
                                                          "data": {"seconds": bad}})
        assert reply.status_code == 400 and "seconds" in reply.get_json()["error"]["field"]
    bad_start = client.post("/api/v1/plays", json={"game": "knarr", "players": ["A", "B"],
                                                   "turn_limit_s": "two minutes"})
    assert bad_start.status_code == 400
    assert bad_start.get_json()["error"]["field"] == "turn_limit_s"
    # no limit again
    cleared = event(client, play, play["edit_token"], {"type": "turn_limit",
                                                        "data": {"seconds": 0}})
    assert cleared.get_json()["state"]["turn_limit_s"] is None
    # the export keeps the start's choice and the change (an event), the import both
    event(client, play, play["edit_token"], {"type": "turn_limit", "data": {"seconds": 45}})
    doc = client.get(f"/plays/{play['id']}/{play['view_token']}/export.json").get_json()
    assert doc["turn_limit_s"] == 90
    imported = client.post("/api/v1/plays/import", json=doc)
    assert imported.status_code == 201, imported.data
    assert imported.get_json()["state"]["turn_limit_s"] == 45


def test_the_openapi_document_names_the_limit_and_its_event(client):
    doc = client.get("/api/v1/openapi.json").get_data(as_text=True)
    assert '"turn_limit_s"' in doc and '"turn_limit"' in doc


def test_the_new_play_form_takes_a_limit(app, client):
    reply = client.post("/new", data={"game": "knarr", "name0": "Ann", "name1": "Bo",
                                      "turn_limit_s": "180"})
    assert reply.status_code == 302
    page = client.get(reply.headers["Location"]).get_data(as_text=True)
    assert '<option value="180" selected>' in page        # the host's phone shows it
    # ... and changes it with its form (whole minutes; "No limit" is 0)
    form = re.search(r'<form class="turn-limit-form" id="turn-limit-form" hx-post="([^"]+)"',
                     page)[1]
    for chosen, kept in (("300", 300), ("0", None)):
        assert client.post(form, data={"type": "turn_limit", "d:seconds": chosen}
                           ).status_code in (200, 302)
        page = client.get(reply.headers["Location"]).get_data(as_text=True)
        assert f'<option value="{kept or 0}" selected>' in page
    assert client.get("/new?game=knarr").status_code == 200


@pytest.mark.parametrize("limit", [None, 60])
def test_past_the_limit_the_seat_whose_turn_it_is_sees_a_gentle_signal(app, client, limit):
    play = start(app, client, **({"turn_limit_s": limit} if limit else {}))
    state = client.get(f"/api/v1/plays/{play['id']}",
                       headers={"Authorization": f"Bearer {play['edit_token']}"}
                       ).get_json()["state"]
    first = state["table"]["current_player"]
    other = next(n for n in play["seat"] if n != first)
    at(app, 30)
    mine = banner(client, play, play["seat"][first])
    assert "Your turn" in mine and "over-limit" not in mine
    if limit is None:
        assert "data-turn-limit" not in mine and "turn-over" not in mine
        at(app, 600)
        assert "over-limit" not in banner(client, play, play["seat"][first])
        return
    assert 'data-turn-limit="60"' in mine and 'data-turn-elapsed="30"' in mine
    assert re.search(r'id="turn-over" hidden>This turn has gone past 1 min 00 s', mine)
    at(app, 75)
    mine = banner(client, play, play["seat"][first])
    assert 'class="your-turn over-limit"' in mine and 'id="turn-over">' in mine
    assert banner(client, play, play["seat"][other]) is None      # no one else's phone
    # the next turn starts under the limit again
    assert event(client, play, play["seat"][first], {"type": "turn", "data": {
        "vp_gained": 1}}).status_code == 200
    at(app, 80)
    following = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['edit_token']}"}).get_json()["state"]
    nxt = following["table"]["current_player"]
    assert "over-limit" not in banner(client, play, play["seat"][nxt])
