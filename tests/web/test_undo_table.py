"""At a table of phones, through the pages and the API on SQLite and PostgreSQL: a box typed
for one kind of a row (pig of livestock) is that kind's change alone; each phone's Undo takes
back its own last change and names it, its Redo puts its own last undo back and says so,
another phone's change is taken back only deliberately; the clock's pause and resume are never
changes to undo; a tap that ends a turn or round is named for what it ended."""
from __future__ import annotations

import re

from tests.db.backends import backend_app, db_url  # noqa: F401 (fixtures)

HX = {"HX-Request": "true"}
A, B, C = ({**HX, "X-Device-Id": f"phone-{x}"} for x in "abc")


def new_play(client, game="explorers", players=("Ann", "Bo"), options=None):
    reply = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                               "seed": 5, "options": options or {}})
    assert reply.status_code == 201
    return reply.json


def auth(play):
    return {"Authorization": f"Bearer {play['edit_token']}"}


def state(client, play):
    return client.get(f"/api/v1/plays/{play['id']}", headers=auth(play)).json["state"]


def page(play):
    return f"/plays/{play['id']}/{play['edit_token']}"


def post(client, play, phone, **form):
    reply = client.post(page(play) + "/events", headers=phone, data=form)
    return reply.status_code, reply.get_data(as_text=True)


def move(client, play, phone, which="undo", **form):
    reply = client.post(page(play) + f"/{which}", headers=phone, data=form or {"mine": "1"})
    return reply.status_code, reply.get_data(as_text=True)


def events_of(app, play):
    return app.extensions["companion"].store.active_events(play["id"])


def undo_button(html):
    found = re.search(r"<button[^>]*data-undo-mine[^>]*>(.*?)</button>", html, re.S)
    text = re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else None
    return text.replace("&#39;", "'") if found else None


def redo_button(html):
    found = re.search(r"<button[^>]*data-redo[^>]*>(.*?)</button>", html, re.S)
    text = re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else ""
    return text.replace("&#39;", "'")


# --------------------------------------------------------------------------- a box per kind
def test_each_livestock_box_typed_on_the_page_keeps_the_others(backend_app):  # noqa: F811
    """Type 2 in pig, leave, 3 in chicken, leave (each box posted alone, as the page does):
    both are kept, and so is a goat another phone tapped meanwhile."""
    client = backend_app.test_client()
    play = new_play(client)
    assert post(client, play, A, type="sheet", player="Ann", **{"f:livestock.pig": "2"})[0] == 200
    assert post(client, play, B, type="sheet", player="Ann",
                **{"add:livestock.goat": "1"})[0] == 200
    assert post(client, play, A, type="sheet", player="Ann",
                **{"f:livestock.chicken": "3"})[0] == 200
    assert state(client, play)["sheets"]["Ann"]["livestock"] == {"pig": 2, "goat": 1,
                                                                 "chicken": 3}
    assert events_of(backend_app, play)[-1]["data"] == {
        "player": "Ann", "fields": {}, "set": {"livestock": {"chicken": 3}}}
    # A's undo takes back chicken alone (to what it was before: none)
    code, html = move(client, play, A)
    assert code == 200
    assert state(client, play)["sheets"]["Ann"]["livestock"] == {"pig": 2, "goat": 1,
                                                                 "chicken": 0}
    assert undo_button(html) == "↶ Undo: Ann's sheet: 2 pigs delivered"
    assert redo_button(html) == "↷ Redo: Ann's sheet: 3 chickens delivered"


def test_each_longship_bonus_box_keeps_the_others(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "shipwrights", ("Ann", "Bo", "Cy"))
    for kind, n in (("raid_cards", "2"), ("upgrades", "1"), ("raid_cards", "1")):
        code, html = post(client, play, A, type="sheet", player="Bo",
                          **{f"f:longship_bonuses.{kind}": n})
        assert code == 200, html
    assert state(client, play)["sheets"]["Bo"]["longship_bonuses"] == ["raid_cards", "upgrades"]
    code, _ = move(client, play, A)
    assert state(client, play)["sheets"]["Bo"]["longship_bonuses"] == [
        "raid_cards", "raid_cards", "upgrades"]


def test_the_api_takes_set_and_refuses_it_where_it_makes_no_sense(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    url = f"/api/v1/plays/{play['id']}/events"

    def send(data):
        return client.post(url, headers=auth(play), json={"type": "sheet", "data": data})

    assert send({"player": "Ann", "set": {"livestock": {"pig": 4}}}).status_code == 200
    assert send({"player": "Ann", "set": {"livestock": {"horse": 1}}}).status_code == 200
    assert state(client, play)["sheets"]["Ann"]["livestock"] == {"pig": 4, "horse": 1}
    for bad, field in (({"outposts": {"x": 1}}, "data.set.outposts"),
                       ({"livestock": {"dragon": 1}}, "data.set.livestock.dragon"),
                       ({"livestock": {"pig": -1}}, "data.set.livestock.pig"),
                       ({"livestock": {}}, "data.set.livestock"),
                       ({"livestock": 3}, "data.set.livestock")):
        reply = send({"player": "Ann", "set": bad})
        assert reply.status_code == 400 and reply.json["error"]["field"] == field, reply.json
    reply = send({"player": "Ann", "set": {"livestock": {"pig": 1}},
                  "add": {"livestock": {"goat": 1}}})
    assert reply.status_code == 400 and reply.json["error"]["field"] == "data.add.livestock"
    reply = send({"player": "Ann", "set": {"gold": {"x": 1}}})     # (not a row of kinds)
    assert reply.status_code == 400 and reply.json["error"]["field"] == "data.set.gold"


# --------------------------------------------------------------------------- whose undo
def test_three_phones_each_undo_their_own_and_take_back_anothers_deliberately(
        backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo", "Cy"))
    for phone, who in ((A, "Ann"), (B, "Bo"), (C, "Cy")):
        assert post(client, play, phone, type="territories", **{"d:player": who,
                                                                "d:add": "1"})[0] == 200
    for phone, who in ((A, "Ann"), (B, "Bo"), (C, "Cy")):
        html = client.get(page(play), headers=phone).get_data(as_text=True)
        assert undo_button(html) == f"↶ Undo: {who} +1 territory"
        assert ("data-undo-other" in html) == (phone is not C)
    # A takes back Cy's change (the table's last): it names it and asks first
    html = client.get(page(play), headers=A).get_data(as_text=True)
    assert "↶ Undo another phone&#39;s change: Cy +1 territory" in html
    assert "hx-confirm=\"Take back the change another phone made: Cy +1 territory?\"" in html
    last = events_of(backend_app, play)[-1]["position"]
    assert move(client, play, A, other=str(last - 1))[0] == 409     # not the one seen: no
    code, html = move(client, play, A, other=str(last))
    assert code == 200
    assert state(client, play)["table"]["territories"] == {"Ann": 1, "Bo": 1, "Cy": 0}
    assert redo_button(html) == "↷ Redo: Cy +1 territory"
    assert undo_button(html) == "↶ Undo: Ann +1 territory"        # A's own is still A's
    # B undoes its own, out of order; C has nothing of its own left standing
    assert move(client, play, B)[0] == 200
    assert move(client, play, C)[0] == 409
    assert state(client, play)["table"]["territories"] == {"Ann": 1, "Bo": 0, "Cy": 0}
    assert move(client, play, A)[0] == 200
    assert state(client, play)["table"]["territories"] == {"Ann": 0, "Bo": 0, "Cy": 0}
    # A's redos, newest undo first: its own change, then Cy's it took back
    code, html = move(client, play, A, "redo")
    assert state(client, play)["table"]["territories"] == {"Ann": 1, "Bo": 0, "Cy": 0}
    assert redo_button(html) == "↷ Redo: Cy +1 territory"
    move(client, play, A, "redo")
    assert state(client, play)["table"]["territories"] == {"Ann": 1, "Bo": 0, "Cy": 1}
    assert move(client, play, A, "redo")[0] == 409
    # a new change of A's ends its redo, as in any editor
    move(client, play, A)
    post(client, play, A, type="territories", **{"d:player": "Ann", "d:add": "1"})
    html = client.get(page(play), headers=A).get_data(as_text=True)
    assert redo_button(html) == "↷ Redo"


def test_the_clock_is_never_a_change_to_undo(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo"))
    post(client, play, A, type="territories", **{"d:player": "Ann", "d:add": "1"})
    post(client, play, B, type="pause")
    html = client.get(page(play), headers=B).get_data(as_text=True)
    # B paused the clock: nothing of B's to undo; the table's last change is still Ann's
    assert undo_button(html) == "↶ Undo" and re.search(r"data-undo-mine disabled", html)
    assert redo_button(html) == "↷ Redo"
    assert re.findall(r"data-undo-other>(.*?)</button>", html) == [
        "↶ Undo another phone&#39;s change: Ann +1 territory"]
    code, html = move(client, play, A)
    assert code == 200
    now = state(client, play)
    assert now["table"]["territories"]["Ann"] == 0 and now["clock"]["running"] is False
    assert [e["type"] for e in events_of(backend_app, play)] == ["territories", "pause",
                                                                 "territories"]
    post(client, play, B, type="resume")
    assert move(client, play, B)[0] == 409


def test_a_turn_end_behind_the_clock_is_undone_and_the_clock_kept(backend_app):  # noqa: F811
    """A turn's end cannot be inverted by an event: the head moves back over it, and a pause
    that came after it is recorded again, so the clock stays paused."""
    client = backend_app.test_client()
    play = new_play(client)
    first = state(client, play)["table"]["current_player"]
    assert post(client, play, A, type="turn", expected_version="0")[0] == 200
    html = client.get(page(play), headers=A).get_data(as_text=True)
    assert undo_button(html) == f"↶ Undo: End of {first}'s turn"
    post(client, play, B, type="pause")
    code, html = move(client, play, A)
    assert code == 200
    now = state(client, play)
    assert now["table"]["current_player"] == first and now["clock"]["running"] is False
    assert [e["type"] for e in events_of(backend_app, play)] == ["pause"]
    # the clock kept its own device: B's undo still has nothing of B's to take back
    assert move(client, play, B)[0] == 409


def test_a_turn_end_at_the_head_is_redone_by_its_phone_alone(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    first = state(client, play)["table"]["current_player"]
    post(client, play, A, type="turn", expected_version="0")
    code, html = move(client, play, A)
    assert code == 200 and state(client, play)["table"]["current_player"] == first
    assert redo_button(html) == f"↷ Redo: End of {first}'s turn"
    assert redo_button(client.get(page(play), headers=B).get_data(as_text=True)) == "↷ Redo"
    assert move(client, play, B, "redo")[0] == 409
    assert move(client, play, A, "redo")[0] == 200
    assert state(client, play)["table"]["current_player"] != first


def test_the_api_redoes_a_devices_own_undo(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "reavers", ("Ann", "Bo"))
    url = f"/api/v1/plays/{play['id']}"
    for device, who in (("A", "Ann"), ("B", "Bo")):
        client.post(url + "/events", headers=auth(play), json={
            "type": "territories", "data": {"player": who, "add": 2}, "device": device})
    assert client.post(url + "/undo", headers=auth(play), json={"device": "A"}).status_code == 200
    reply = client.post(url + "/redo", headers=auth(play), json={"device": "B"})
    assert reply.status_code == 409 and reply.json["error"]["code"] == "nothing_to_redo"
    reply = client.post(url + "/redo", headers=auth(play), json={"device": "A"})
    assert reply.status_code == 200
    assert reply.json["state"]["table"]["territories"] == {"Ann": 2, "Bo": 2}
    reply = client.post(url + "/redo", headers=auth(play), json={"device": "A",
                                                                 "expected_version": 3})
    assert reply.status_code == 400 and reply.json["error"]["field"] == "device"


# --------------------------------------------------------------------------- one tap ends
def test_knarr_pass_at_version_0_asks_and_is_named_for_whose_turn_it_passed(
        backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "knarr", ("Ann", "Bo"))
    first = state(client, play)["table"]["current_player"]
    html = client.get(page(play), headers=A).get_data(as_text=True)
    confirm = re.search(r'<form[^>]*hx-confirm="([^"]*)"[^>]*>\s*<input type="hidden" '
                        r'name="type" value="advance">', html)
    assert confirm and confirm.group(1).replace("&#39;", "'") == (
        f"Nothing has been entered yet. Pass {first}'s turn anyway?")
    code, html = post(client, play, A, type="advance", expected_version="0")
    assert code == 200
    assert undo_button(html) == f"↶ Undo: {first} passed (reputation step only)"
    assert not re.search(r'hx-confirm="[^"]*"[^>]*>\s*<input type="hidden" name="type" '
                         r'value="advance">', html)      # only the very first step asks
    code, html = move(client, play, A)
    assert redo_button(html) == f"↷ Redo: {first} passed (reputation step only)"


def test_a_round_or_phase_end_is_named_for_what_it_ended(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client, "seafarers", ("Ann", "Bo", "Cy"), {"scenario": "four_islands"})
    first = play["state"]["table"]["current_player"]     # Seafarers' advance ends a turn
    code, html = post(client, play, A, type="advance", expected_version="0")
    assert code == 200 and undo_button(html) == f"↶ Undo: End of {first}'s turn"
    code, html = move(client, play, A)
    assert redo_button(html) == f"↷ Redo: End of {first}'s turn"
    sw = new_play(client, "shipwrights", ("Ann", "Bo", "Cy"))
    post(client, sw, A, type="reveal", **{"d:draft": "clockwise"}, expected_version="0")
    code, html = post(client, sw, A, type="advance", expected_version="1")
    assert code == 200, html
    assert undo_button(html) == "↶ Undo: End of the reveal phase"
