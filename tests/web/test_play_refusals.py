"""F9: a refusal that depends on the play is a 422 with its code, never a 400. An event type of
another game (Seafarers' move_chip sent to a Knarr play) has the documented shape of an event
and is refused because of which game the play is: 422 unknown_event, nothing recorded. A type
no game takes is not an event's shape (the API document lists every type), a 400 like a type
that is not text."""
from __future__ import annotations

import pytest

from companion.games import GAMES

SEATS = {"explorers": ["Ann", "Bo"], "knarr": ["Ann", "Bo"], "reavers": ["Ann", "Bo"],
         "shipwrights": ["Ann", "Bo"], "seafarers": ["Ann", "Bo", "Cy"]}


def new_play(client, game_id):
    reply = client.post("/api/v1/plays", json={"game": game_id, "players": SEATS[game_id],
                                               "seed": 5})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_another_games_event_type_is_a_422_and_records_nothing(client, game_id):
    play = new_play(client, game_id)
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    url = f"/api/v1/plays/{play['id']}/events"
    own = set(GAMES[game_id].event_types)
    foreign = sorted({t for g in GAMES.values() for t in g.event_types} - own)
    assert foreign
    for kind in foreign:
        reply = client.post(url, headers=auth, json={"type": kind, "data": {}})
        assert reply.status_code == 422, (kind, reply.get_json())
        error = reply.get_json()["error"]
        assert (error["code"], error["field"]) == ("unknown_event", "type")
        assert f"'{kind}': that is an event of" in error["message"]
    for shapeless in ("no_such_event", 7):     # not an event's shape at all
        reply = client.post(url, headers=auth, json={"type": shapeless, "data": {}})
        assert reply.status_code == 400, shapeless
    state = client.get(f"/api/v1/plays/{play['id']}", headers=auth).get_json()["state"]
    assert state["version"] == 0


def test_move_chip_to_a_knarr_play_on_the_page_too(client):
    play = new_play(client, "knarr")
    url = f"/plays/{play['id']}/{play['edit_token']}/events"
    reply = client.post(url, data={"type": "move_chip", "data": "{}"},
                        headers={"HX-Request": "true"})
    assert reply.status_code == 422
    assert "has no event &#39;move_chip&#39;: that is an event of" in reply.get_data(as_text=True)
    german = client.post(url, data={"type": "move_chip", "data": "{}"},
                         headers={"HX-Request": "true", "Accept-Language": "de"})
    assert "kennt kein Ereignis" in german.get_data(as_text=True)
