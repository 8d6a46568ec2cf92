"""Taps from several phones, retries and "undo mine" through the pages and the API, on SQLite
and PostgreSQL: `add:` form keys, Idempotency-Key (a repeat records nothing), X-Device-Id and
the device's own undo."""
from __future__ import annotations

import re

import pytest

from tests.db.backends import backend_app, db_url  # noqa: F401 (fixtures)

HX = {"HX-Request": "true"}


def new_play(client, game="explorers", players=("Ann", "Bo")):
    reply = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                               "seed": 5})
    assert reply.status_code == 201
    return reply.json


def auth(play, **headers):
    return {"Authorization": f"Bearer {play['edit_token']}", **headers}


def state(client, play):
    return client.get(f"/api/v1/plays/{play['id']}", headers=auth(play)).json["state"]


def page(play):
    return f"/plays/{play['id']}/{play['edit_token']}"


def events_of(app, play):
    return app.extensions["companion"].store.active_events(play["id"])


# --------------------------------------------------------------------------- form keys
def test_form_add_keys_become_an_add_without_a_version(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    for _ in range(2):
        reply = client.post(page(play) + "/events", headers=HX, data={
            "type": "sheet", "player": "Ann", "add:outposts": "1",
            "add:livestock.pig": "2"})
        assert reply.status_code == 200
    reply = client.post(page(play) + "/events", headers=HX, data={
        "type": "sheet", "player": "Ann", "add:livestock.pig": "-1"})
    assert reply.status_code == 200
    assert state(client, play)["sheets"]["Ann"] == {"outposts": 2, "livestock": {"pig": 3}}
    recorded = events_of(backend_app, play)[-1]["data"]
    assert recorded == {"player": "Ann", "fields": {}, "add": {"livestock": {"pig": -1}}}


def test_a_stepper_tap_adds_to_the_stored_value_not_the_forms(backend_app):  # noqa: F811
    """Another phone added 2 since this form was drawn: the tap (with the whole stale form,
    as a phone without the outbox sends it) still counts on from what is stored, while the
    typed box of another field is saved as typed."""
    client = backend_app.test_client()
    play = new_play(client)
    client.post(f"/api/v1/plays/{play['id']}/events", headers=auth(play), json={
        "type": "sheet", "data": {"player": "Ann", "add": {"enemy_ships": 2}}})
    reply = client.post(page(play) + "/events", headers=HX, data={
        "type": "sheet", "player": "Ann", "f:enemy_ships": "0", "f:viking_deaths": "3",
        "add:enemy_ships": "1"})
    assert reply.status_code == 200
    assert state(client, play)["sheets"]["Ann"] == {"enemy_ships": 3, "viking_deaths": 3}
    # the change holds what changed, not the untouched boxes the form also carried
    reply = client.post(page(play) + "/events", headers={**HX, "X-Device-Id": "phone-a"}, data={
        "type": "sheet", "player": "Ann", "f:enemy_ships": "3", "f:viking_deaths": "3",
        "f:outposts": "", "f:livestock.pig": "0", "f:livestock.goat": "", "add:outposts": "1"})
    assert reply.status_code == 200
    assert events_of(backend_app, play)[-1]["data"] == {
        "player": "Ann", "fields": {}, "add": {"outposts": 1}}
    assert "↶ Undo: Ann: Outposts built +1" in reply.get_data(as_text=True)


def test_the_older_bump_button_is_an_add_too(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    for bump in ("outposts:+1", "outposts:+1", "livestock.goat:+1", "outposts:-1"):
        assert client.post(page(play) + "/events", headers=HX, data={
            "type": "sheet", "player": "Bo", "bump": bump}).status_code == 200
    assert state(client, play)["sheets"]["Bo"] == {"outposts": 1, "livestock": {"goat": 1}}


def test_a_tap_past_the_end_says_so_next_to_nothing_lost(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    reply = client.post(page(play) + "/events", headers=HX, data={
        "type": "sheet", "player": "Ann", "add:outposts": "-1"})
    assert reply.status_code == 422
    html = reply.get_data(as_text=True)
    assert "Ann&#39;s Outposts built cannot go below 0." in html
    assert 'data-field="data.add.outposts"' in html
    assert state(client, play)["version"] == 0


def test_the_page_steppers_post_adds(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo", "Cecilie"))
    html = client.get(page(play)).get_data(as_text=True)
    assert 'name="add:glory" value="1"' in html and 'name="add:glory" value="-1"' in html
    territories = re.search(r'<form class="stepper".*?</form>', html, re.S).group(0)
    assert 'name="d:add" value="1"' in territories and "expected_version" not in territories
    for _ in range(3):
        assert client.post(page(play) + "/events", headers=HX, data={
            "type": "territories", "d:player": "Cecilie", "d:add": "1"}).status_code == 200
    assert state(client, play)["table"]["territories"]["Cecilie"] == 3


def test_shipwrights_track_moves_and_explorers_pieces_need_no_version(backend_app):  # noqa: F811
    client = backend_app.test_client()
    sw = new_play(client, "shipwrights", ("Ann", "Bo"))
    html = client.get(page(sw)).get_data(as_text=True)
    move = re.search(r'<form class="g-sw-move".*?</form>', html, re.S).group(0)
    assert "expected_version" not in move
    ex = new_play(client)
    client.post(page(ex) + "/events", headers=HX, data={"type": "add_island", "d:tiles": "3"})
    html = client.get(page(ex)).get_data(as_text=True)
    assert 'name="add:tiles" value="1"' in html and 'name="add:vikings" value="1"' in html
    for _ in range(2):
        assert client.post(page(ex) + "/events", headers=HX, data={
            "type": "set_influence", "d:island": "0", "s:player": "Bo",
            "add:vikings": "1"}).status_code == 200
    assert client.post(page(ex) + "/events", headers=HX, data={
        "type": "update_island", "d:island": "0", "add:tiles": "1", "d:complete": "false",
        "s:name": ""}).status_code == 200
    island = state(client, ex)["table"]["islands"][0]
    assert island["influence"]["Bo"]["vikings"] == 2 and island["tiles"] == 4


# --------------------------------------------------------------------------- Idempotency-Key
def test_api_repeat_records_once_and_answers_the_first_answer(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    url = f"/api/v1/plays/{play['id']}"
    body = {"type": "sheet", "data": {"player": "Ann", "add": {"outposts": 1}}}
    first = client.post(url + "/events", json=body, headers=auth(play, **{
        "Idempotency-Key": "tap-1"}))
    client.post(url + "/events", json={"type": "sheet", "data": {
        "player": "Bo", "add": {"outposts": 1}}}, headers=auth(play))
    again = client.post(url + "/events", json=body, headers=auth(play, **{
        "Idempotency-Key": "tap-1"}))
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert again.json == first.json and again.json["state"]["version"] == 1
    now = state(client, play)
    assert now["version"] == 2 and now["sheets"]["Ann"] == {"outposts": 1}
    # the key belongs to this play: the same key on another play is a new change
    other = new_play(client)
    assert "Idempotent-Replayed" not in client.post(
        f"/api/v1/plays/{other['id']}/events", json=body,
        headers=auth(other, **{"Idempotency-Key": "tap-1"})).headers


def test_a_key_reused_with_another_change_is_a_422_and_records_nothing(backend_app):  # noqa: F811
    """F12: a key sent again with another body (or to undo, or from another device) is not a
    repeat: 422 idempotency_key_reused, nothing recorded, the first change untouched. The same
    body again, however its JSON is spelled, still answers the first answer."""
    client = backend_app.test_client()
    play = new_play(client)
    url = f"/api/v1/plays/{play['id']}"
    key = auth(play, **{"Idempotency-Key": "tap-7"})
    body = {"type": "sheet", "data": {"player": "Ann", "add": {"outposts": 1}}}
    first = client.post(url + "/events", json=body, headers=key)
    assert first.status_code == 200
    others = [("/events", {"type": "sheet", "data": {"player": "Bo", "add": {"outposts": 1}}}),
              ("/events", {"type": "sheet", "data": {"player": "Ann", "add": {"outposts": 2}}}),
              ("/events", {**body, "expected_version": 1}),
              ("/undo", {}), ("/redo", {})]
    for path, other in others:
        reply = client.post(url + path, json=other, headers=key)
        assert reply.status_code == 422, (path, other, reply.json)
        assert reply.json["error"]["code"] == "idempotency_key_reused"
        assert reply.json["error"]["field"] == "Idempotency-Key"
    assert client.post(url + "/events", json=body, headers={
        **key, "X-Device-Id": "another-phone"}).status_code == 422
    now = state(client, play)
    assert now["version"] == 1 and now["sheets"]["Ann"] == {"outposts": 1} \
        and now["sheets"]["Bo"] == {}
    # the same change, its JSON spelled otherwise: still the first answer
    again = client.post(url + "/events", headers={**key, "Content-Type": "application/json"},
                        data='{ "data": {"add": {"outposts": 1}, "player": "Ann"},\n'
                             '  "type": "sheet" }')
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json and state(client, play)["version"] == 1


def test_a_page_key_reused_with_another_change_is_refused_on_the_page(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo", "Cecilie"))
    headers = {**HX, "Idempotency-Key": "page-key-1", "X-Device-Id": "phone-a"}
    tap = {"type": "territories", "d:player": "Cecilie", "d:add": "1"}
    assert client.post(page(play) + "/events", headers=headers, data=tap).status_code == 200
    # a queued retry after a reload carries a fresh CSRF token: still the same change
    retry = client.post(page(play) + "/events", headers=headers, data={**tap,
                                                                       "csrf_token": "fresh"})
    assert retry.status_code == 200 and retry.headers["Idempotent-Replayed"] == "true"
    reused = client.post(page(play) + "/events", headers=headers,
                         data={**tap, "d:player": "Bo"})
    assert reused.status_code == 422
    assert "already sent with another change" in reused.get_data(as_text=True)
    assert client.post(page(play) + "/undo", headers=headers, data={"mine": "1"}
                       ).status_code == 422
    territories = state(client, play)["table"]["territories"]
    assert territories["Cecilie"] == 1 and territories["Bo"] == 0


def test_api_undo_and_redo_take_a_key_too(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    url = f"/api/v1/plays/{play['id']}"
    for n in (1, 2):
        client.post(url + "/events", headers=auth(play), json={
            "type": "sheet", "data": {"player": "Ann", "fields": {"outposts": n}}})
    for path, key in (("/undo", "u1"), ("/undo", "u1"), ("/redo", "r1"), ("/redo", "r1")):
        reply = client.post(url + path, headers=auth(play, **{"Idempotency-Key": key}))
        assert reply.status_code == 200
    assert state(client, play)["sheets"]["Ann"] == {"outposts": 2}
    assert state(client, play)["version"] == 4
    # a failed first try records nothing, so its repeat is tried afresh
    for _ in range(2):
        assert client.post(url + "/redo", headers=auth(play, **{
            "Idempotency-Key": "r2"})).status_code == 409


def test_page_repeat_records_once(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo", "Cecilie"))
    headers = {**HX, "Idempotency-Key": "9b1d7c1e-4f59-4d0e-9d8e-5d7c1c2b3a4f",
               "X-Device-Id": "phone-a"}
    replies = [client.post(page(play) + "/events", headers=headers, data={
        "type": "territories", "d:player": "Cecilie", "d:add": "1"}) for _ in range(3)]
    assert [r.status_code for r in replies] == [200, 200, 200]
    assert [r.headers.get("Idempotent-Replayed") for r in replies] == [None, "true", "true"]
    assert 'data-version="1"' in replies[2].get_data(as_text=True)
    assert state(client, play)["table"]["territories"]["Cecilie"] == 1
    undo = {**HX, "Idempotency-Key": "undo-1", "X-Device-Id": "phone-a"}
    for _ in range(2):
        assert client.post(page(play) + "/undo", headers=undo,
                           data={"mine": "1"}).status_code == 200
    assert state(client, play)["table"]["territories"]["Cecilie"] == 0
    assert state(client, play)["version"] == 2


@pytest.mark.parametrize("header, value", [
    ("Idempotency-Key", ""), ("Idempotency-Key", "k" * 101), ("Idempotency-Key", "ключ"),
    ("X-Device-Id", ""), ("X-Device-Id", "d" * 65), ("X-Device-Id", "my phone"),
])
def test_bad_keys_and_devices_are_400s_naming_the_header(backend_app, header, value):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    reply = client.post(page(play) + "/events", headers={**HX, header: value}, data={
        "type": "sheet", "player": "Ann", "add:outposts": "1"})
    assert reply.status_code == 400
    assert f'data-field="{header}"' in reply.get_data(as_text=True)
    if header == "Idempotency-Key":
        for path in ("/events", "/undo", "/redo"):
            api = client.post(f"/api/v1/plays/{play['id']}{path}", headers=auth(play, **{
                header: value}), json={"type": "advance"} if path == "/events" else {})
            assert api.status_code == 400 and api.json["error"]["field"] == header
    assert state(client, play)["version"] == 0


def test_api_device_must_be_short_printable_text(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    url = f"/api/v1/plays/{play['id']}"
    for bad in ("", "x" * 65, 3, "a b"):
        reply = client.post(url + "/events", headers=auth(play), json={
            "type": "advance", "device": bad})
        assert reply.status_code == 400 and reply.json["error"]["field"] == "device"
        reply = client.post(url + "/undo", headers=auth(play), json={"device": bad})
        assert reply.status_code == 400 and reply.json["error"]["field"] == "device"
    reply = client.post(url + "/undo", headers=auth(play), json={"device": "a",
                                                                 "expected_version": 0})
    assert reply.status_code == 400 and reply.json["error"]["field"] == "device"
    assert state(client, play)["version"] == 0


# --------------------------------------------------------------------------- undo mine
def test_phone_a_undoes_its_own_change_and_leaves_phone_bs(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo", "Cecilie"))
    a, b = {**HX, "X-Device-Id": "phone-a"}, {**HX, "X-Device-Id": "phone-b"}
    client.post(page(play) + "/events", headers=a, data={
        "type": "territories", "d:player": "Cecilie", "d:add": "1"})
    html = client.post(page(play) + "/events", headers=b, data={
        "type": "sheet", "player": "Bo", "add:glory": "2"}).get_data(as_text=True)
    assert "↶ Undo: Bo: Glory during play +2" in html
    assert "data-undo-other" not in html         # the table's last change is B's own
    html = client.get(page(play), headers=a).get_data(as_text=True)
    assert "↶ Undo: Cecilie +1 territory" in html
    # taking back B's change from A is a separate action that names it (and asks first)
    assert "↶ Undo another phone&#39;s change: Bo: Glory during play +2" in html
    # a full page load carries no header: the phone's cookie names it, for showing only
    client.set_cookie("nsc_device", "phone-a")
    assert "↶ Undo: Cecilie +1 territory" in client.get(page(play)).get_data(as_text=True)
    client.set_cookie("nsc_device", "phone-b")
    assert "↶ Undo: Bo: Glory during play +2" in client.get(page(play)).get_data(as_text=True)
    client.delete_cookie("nsc_device")
    reply = client.post(page(play) + "/undo", headers=a, data={"mine": "1"})
    assert reply.status_code == 200
    now = state(client, play)
    assert now["table"]["territories"]["Cecilie"] == 0 and now["sheets"]["Bo"] == {"glory": 2}
    last = events_of(backend_app, play)[-1]
    assert last["device"] == "phone-a" and last["undoes"] == 1
    html = reply.get_data(as_text=True)
    # A's own undo is offered back as a redo, never as "the undo of"
    assert "↷ Redo: Cecilie +1 territory" in html and "the undo of" not in html
    assert re.search(r"data-undo-mine disabled", html)   # nothing of A's own left
    # phone B's change is no longer the latest either: it is taken back by its negation
    assert client.post(page(play) + "/undo", headers=b, data={"mine": "1"}).status_code == 200
    now = state(client, play)
    assert now["sheets"]["Bo"] == {"glory": 0} and now["table"]["territories"]["Cecilie"] == 0
    assert now["version"] == 4
    reply = client.post(page(play) + "/undo", headers=b, data={"mine": "1"})
    assert reply.status_code == 409
    assert "This phone has no change of its own left to undo." in reply.get_data(as_text=True)
    # A's redo still stands after B's undo: it puts Cecilie's territory back
    html = client.post(page(play) + "/redo", headers=a, data={"mine": "1"}).get_data(as_text=True)
    now = state(client, play)
    assert now["table"]["territories"]["Cecilie"] == 1 and now["sheets"]["Bo"] == {"glory": 0}
    assert "↶ Undo: Cecilie +1 territory" in html and "↷ Redo:" not in html


def test_undo_mine_refuses_a_turn_end_further_back(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    url = f"/api/v1/plays/{play['id']}"
    client.post(url + "/events", headers=auth(play), json={"type": "turn", "device": "A"})
    client.post(url + "/events", headers=auth(play), json={
        "type": "sheet", "data": {"player": "Bo", "add": {"outposts": 1}}, "device": "B"})
    reply = client.post(url + "/undo", headers=auth(play), json={"device": "A"})
    assert reply.status_code == 409
    assert reply.json["error"]["code"] == "cannot_undo_out_of_order"
    assert reply.json["error"]["message"].startswith("This change (End of turn) cannot be")
    assert state(client, play)["version"] == 2
    reply = client.post(url + "/undo", headers=auth(play), json={"device": "B"})
    assert reply.status_code == 200 and reply.json["state"]["sheets"]["Bo"] == {"outposts": 0}


def test_undo_mine_on_the_page_needs_the_device(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    reply = client.post(page(play) + "/undo", headers=HX, data={"mine": "1"})
    assert reply.status_code == 400
    assert 'data-field="X-Device-Id"' in reply.get_data(as_text=True)


def test_openapi_names_the_key_header_and_the_device(client):
    doc = client.get("/api/v1/openapi.json").json
    for path in ("events", "undo", "redo"):
        op = doc["paths"][f"/api/v1/plays/{{play_id}}/{path}"]["post"]
        key = [p for p in op["parameters"] if p["name"] == "Idempotency-Key"]
        assert key and key[0]["in"] == "header" and key[0]["schema"]["maxLength"] == 100
        assert "Idempotent-Replayed" in op["responses"]["200"]["headers"]
        assert "first answer's status and body" in key[0]["description"]
    schemas = doc["components"]["schemas"]
    device = schemas["EventKnarrSheet"]["properties"]["device"]["anyOf"][0]
    assert device["maxLength"] == 64 and "device" in device["description"]
    assert "add" in schemas["SheetAddKnarr"]["description"]
    assert "409" in schemas["EventKnarrSheet"]["properties"]["expected_version"]["description"]
    assert "device" in schemas["UndoRequest"]["properties"]
