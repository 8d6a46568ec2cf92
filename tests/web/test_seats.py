"""Seats (issue 24, api.md "Seats"): a token per seat, bound to that seat, stored hashed; the
play's edit policy ("all", the default, or "own"); a seat token refused another seat's change
with 403 not_your_seat and a plain sentence, on the API and on the pages; the policy changed
later by the host only; seat tokens kept by a backup and restore into the other engine, and
redacted from the logs. On SQLite and on PostgreSQL."""
from __future__ import annotations

import pytest

from companion.redact import redact
from companion.tokens import token_hash
from tests.db.backends import backend_app, backend_of, db_url, postgres_database  # noqa: F401
from tests.db.test_backup import _bare_app, key_of
from tests.db.test_migrations import everything


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def start(client, seat_edits=None, players=("Ann", "Bo", "Cy"), game="knarr"):
    body = {"game": game, "players": list(players), "seed": 5}
    if seat_edits is not None:
        body["seat_edits"] = seat_edits
    reply = client.post("/api/v1/plays", json=body)
    assert reply.status_code == 201, reply.data
    play = reply.get_json()
    play["seat"] = {s["name"]: s["token"] for s in play["seats"]}
    return play


def post(client, play, token, body):
    return client.post(f"/api/v1/plays/{play['id']}/events", json=body, headers=bearer(token))


def state_of(client, play, token=None):
    reply = client.get(f"/api/v1/plays/{play['id']}",
                       headers=bearer(token or play["edit_token"]))
    assert reply.status_code == 200
    return reply.get_json()


def sheet(player, vp):
    return {"type": "sheet", "data": {"player": player, "fields": {"vp": vp}}}


def refused_as_not_your_seat(reply):
    assert reply.status_code == 403, reply.data
    error = reply.get_json()["error"]
    assert error["code"] == "not_your_seat"
    assert "/" not in error["message"] and "_" not in error["message"]   # a plain sentence
    return error["message"]


def test_a_new_play_answers_one_token_and_link_per_seat(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client)
    assert [s["name"] for s in play["seats"]] == ["Ann", "Bo", "Cy"]
    tokens = [s["token"] for s in play["seats"]]
    assert len({*tokens, play["edit_token"], play["view_token"]}) == 5
    assert all(len(t) >= 22 for t in tokens)                      # >= 128 bits
    for seat in play["seats"]:
        assert seat["url"].endswith(f"/plays/{play['id']}/{seat['token']}")
        answer = state_of(client, play, seat["token"])
        assert answer["seat"] == seat["name"]
    assert "seat" not in state_of(client, play)                   # the host's: no seat
    assert "seat" not in state_of(client, play, play["view_token"])
    assert state_of(client, play)["state"]["seat_edits"] == "all"
    # stored hashed: the hashes in the row, no token anywhere in the database
    row = backend_app.extensions["companion"].store.load_play(play["id"])
    assert row.seat_hashes == [token_hash(t) for t in tokens]
    stored = str(everything(backend_app.config["DATABASE_URL"]))
    assert not any(t in stored for t in tokens)
    # a seat page opens, and a seat token of one play opens no other
    assert client.get(f"/plays/{play['id']}/{tokens[1]}").status_code == 200
    other = start(client)
    assert client.get(f"/api/v1/plays/{other['id']}",
                      headers=bearer(tokens[1])).status_code == 403
    assert client.get(f"/plays/{other['id']}/{tokens[1]}").status_code == 404


def test_every_phone_edits_every_seat_by_default(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client)
    assert post(client, play, play["seat"]["Bo"], sheet("Ann", 4)).status_code == 200
    assert post(client, play, play["seat"]["Cy"], {"type": "advance"}).status_code == 200
    assert state_of(client, play)["state"]["sheets"]["Ann"]["vp"] == 4


def test_own_seat_only_refuses_another_seats_change_with_403(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client, "own")
    ann, bo = play["seat"]["Ann"], play["seat"]["Bo"]
    before = state_of(client, play)["state"]
    assert before["seat_edits"] == "own"
    message = refused_as_not_your_seat(post(client, play, bo, sheet("Ann", 9)))
    assert "Bo" in message and "Ann" in message
    add = {"type": "sheet", "data": {"player": "Ann", "add": {"vp": 1}}}
    refused_as_not_your_seat(post(client, play, bo, add))
    assert state_of(client, play)["state"]["version"] == before["version"]   # nothing written
    assert post(client, play, bo, sheet("Bo", 3)).status_code == 200
    assert post(client, play, ann, sheet("Ann", 2)).status_code == 200
    assert post(client, play, play["edit_token"], sheet("Cy", 7)).status_code == 200   # host
    sheets = state_of(client, play)["state"]["sheets"]
    assert (sheets["Ann"]["vp"], sheets["Bo"]["vp"], sheets["Cy"]["vp"]) == (2, 3, 7)
    # the page refuses it too, with the sentence on the page
    page = client.post(f"/plays/{play['id']}/{bo}/events",
                       data={"type": "sheet", "player": "Ann", "f:vp": "9"})
    assert page.status_code == 403
    assert state_of(client, play)["state"]["sheets"]["Ann"]["vp"] == 2


def test_a_change_naming_no_seat_follows_the_turn(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client, "own")
    state = state_of(client, play)["state"]
    first = state["table"]["current_player"]
    others = [n for n in ("Ann", "Bo", "Cy") if n != first]
    message = refused_as_not_your_seat(post(client, play, play["seat"][others[0]],
                                            {"type": "advance"}))
    assert first in message
    refused_as_not_your_seat(post(client, play, play["seat"][others[0]], {"type": "turn"}))
    # the clock is the whole table's
    assert post(client, play, play["seat"][others[0]], {"type": "pause"}).status_code == 200
    assert post(client, play, play["seat"][others[1]], {"type": "resume"}).status_code == 200
    assert post(client, play, play["seat"][first], {"type": "turn"}).status_code == 200
    after = state_of(client, play)["state"]["table"]["current_player"]
    assert after != first
    assert post(client, play, play["edit_token"], {"type": "advance"}).status_code == 200


def test_only_the_host_changes_who_may_edit_what(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client, "own")
    to_all = {"type": "seat_edits", "data": {"edits": "all"}}
    refused_as_not_your_seat(post(client, play, play["seat"]["Ann"], to_all))
    assert post(client, play, play["edit_token"], to_all).status_code == 200
    assert post(client, play, play["seat"]["Bo"], sheet("Ann", 5)).status_code == 200
    bad = post(client, play, play["edit_token"], {"type": "seat_edits",
                                                   "data": {"edits": "some"}})
    assert bad.status_code == 400 and bad.get_json()["error"]["field"].startswith("data")
    assert client.post("/api/v1/plays", json={"game": "knarr", "players": ["A", "B"],
                                              "seat_edits": "mine"}).status_code == 400


def test_a_seat_takes_back_only_what_it_may_change(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = start(client, "own")
    bo = play["seat"]["Bo"]
    url = f"/api/v1/plays/{play['id']}"
    # Bo's own change, from Bo's phone: Bo undoes and redoes it
    assert client.post(f"{url}/events", headers=bearer(bo), json={
        **sheet("Bo", 4), "device": "bo-phone"}).status_code == 200
    assert client.post(f"{url}/undo", headers=bearer(bo),
                       json={"device": "bo-phone"}).status_code == 200
    assert client.post(f"{url}/redo", headers=bearer(bo),
                       json={"device": "bo-phone"}).status_code == 200
    # Ann's change made on the host's phone: not Bo's to take back, however Bo asks
    assert client.post(f"{url}/events", headers=bearer(play["edit_token"]), json={
        **sheet("Ann", 6), "device": "host-phone"}).status_code == 200
    refused_as_not_your_seat(client.post(f"{url}/undo", headers=bearer(bo), json={}))
    refused_as_not_your_seat(client.post(f"{url}/undo", headers=bearer(bo),
                                         json={"device": "host-phone"}))
    page = client.post(f"/plays/{play['id']}/{bo}/undo", data={"other": "4"},
                       headers={"X-Device-Id": "bo-phone"})
    assert page.status_code == 403
    assert state_of(client, play)["state"]["sheets"]["Ann"]["vp"] == 6
    assert client.post(f"{url}/undo", headers=bearer(play["edit_token"]),
                       json={}).status_code == 200


def test_seat_tokens_are_redacted_from_log_lines(backend_app):  # noqa: F811
    play = start(backend_app.test_client())
    for seat in play["seats"]:
        line = redact(f'"GET /plays/{play["id"]}/{seat["token"]}/poll HTTP/1.1"')
        assert seat["token"] not in line and "[token]" in line


def test_backup_and_restore_keep_the_seat_tokens(backend_app, db_url,  # noqa: F811
                                                 tmp_path, postgres_url):
    client = backend_app.test_client()
    play = start(client, "own")
    assert post(client, play, play["seat"]["Bo"], sheet("Bo", 3)).status_code == 200
    file = tmp_path / "seats.nscbackup"
    result = backend_app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 0, result.output
    key_of(tmp_path)
    other = postgres_database(postgres_url) if backend_of(db_url) == "sqlite" else None
    with other if other is not None else _sqlite(tmp_path) as target:
        moved = _bare_app(tmp_path, target)
        try:
            result = moved.test_cli_runner().invoke(args=["restore", str(file)])
            assert result.exit_code == 0, result.output
            assert everything(target)["plays"] == everything(db_url)["plays"]
            new = moved.test_client()
            assert state_of(new, play, play["seat"]["Cy"])["seat"] == "Cy"
            assert post(new, play, play["seat"]["Cy"], sheet("Cy", 2)).status_code == 200
            refused_as_not_your_seat(post(new, play, play["seat"]["Cy"], sheet("Bo", 9)))
        finally:
            moved.extensions["companion"].store.engine.dispose()


class _sqlite:
    def __init__(self, tmp_path):
        self.url = f"sqlite:///{tmp_path / 'moved.db'}"

    def __enter__(self):
        return self.url

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("hashes", [["nope", "x", "y"], ["a" * 64], None])
def test_restore_checks_the_seat_hashes(hashes):
    from companion.restore_checks import Refused, _check_seat_hashes

    class Row:
        initial = {"players": [{"name": n} for n in ("Ann", "Bo", "Cy")]}
        edit_hash, view_hash = "e" * 64, "f" * 64
        seat_hashes = hashes

    if hashes is None:
        _check_seat_hashes(Row())
        return
    with pytest.raises(Refused):
        _check_seat_hashes(Row())


def test_shipwrights_draft_is_every_seats_turn_and_each_says_only_its_own_done(client):
    """Shipwrights' draft and actions are played at once (the rulebook: "Players
    simultaneously take actions"): every seat not yet done has "Your turn" and its own "done"
    button, never another seat's; a seat's "done" for another is 403, and "Next phase" stays
    the host's."""
    play = start(client, "own", game="shipwrights")
    host = play["edit_token"]
    assert post(client, play, host, {"type": "reveal", "data": {"draft": "clockwise"}}
                ).status_code == 200
    assert post(client, play, host, {"type": "advance"}).status_code == 200
    seat = play["seat"]

    def page(token):
        reply = client.get(f"/plays/{play['id']}/{token}")
        assert reply.status_code == 200
        return reply.get_data(as_text=True)

    cy = page(seat["Cy"])
    assert "Your turn, Cy" in cy and "I have my 6 cards" in cy
    assert 'name="d:player" value="Cy"' in cy and 'name="d:player" value="Ann"' not in cy
    assert "Move Cy's Military marker forward one space" in cy
    assert "Move Ann's Military marker forward one space" not in cy
    assert "I have my 6 cards" not in page(host)          # a phone without a seat: as before
    refused_as_not_your_seat(post(client, play, seat["Bo"],
                                  {"type": "done", "data": {"player": "Ann"}}))
    refused_as_not_your_seat(post(client, play, seat["Bo"], {"type": "advance"}))
    done = post(client, play, seat["Bo"], {"type": "done", "data": {"player": "Bo"}})
    assert done.status_code == 200 and done.get_json()["state"]["table"]["acting"] == [
        "Ann", "Cy"]
    bo = page(seat["Bo"])
    assert "Waiting for Ann and Cy" in bo and "I have my 6 cards" not in bo
    again = post(client, play, seat["Bo"], {"type": "done", "data": {"player": "Bo"}})
    assert again.status_code == 422 and again.get_json()["error"]["code"] == "already_done"
    for name in ("Cy", "Ann"):
        assert post(client, play, seat[name], {"type": "done", "data": {"player": name}}
                    ).status_code == 200
    state = state_of(client, play)["state"]
    assert state["phase"] == "actions" and state["table"]["acting"] == ["Ann", "Bo", "Cy"]
    assert "Done: all my cards played" in page(seat["Ann"])
