"""The "send to BG Stats" link of a finished play of each game, decoded back to its fields."""
from __future__ import annotations

import datetime as dt
import json
from urllib.parse import unquote

import pytest

from companion.exports import BGSTATS_MAX_LINK, BGSTATS_PREFIX

T0 = dt.datetime(2025, 6, 7, 19, 30, tzinfo=dt.UTC)

# One sheet field per game that scores (so the winner is known) and the game's options.
GAMES = {
    "explorers": ({"rocks_of_ruin": True}, "outposts", 176371),
    "shipwrights": ({}, "gold", None),
    "knarr": ({}, "vp", 379629),
    "reavers": ({}, "glory", 242684),
    "seafarers": ({"scenario": "new_shores"}, "settlements", 325),
}


def finished_play(app, client, game, names=("Ann", "Bo", "Cy"), minutes=83):
    options, field, _ = GAMES[game]
    service = app.extensions["companion"]
    service.now = lambda: T0
    body = {"game": game, "players": list(names), "options": options, "seed": 11}
    play = client.post("/api/v1/plays", json=body).get_json()
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    for i, name in enumerate(names):
        response = client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
            "type": "sheet", "data": {"player": name, "fields": {field: i + 1},
                                      "done": True}})       # nothing more to enter
        assert response.status_code == 200, response.get_json()
    service.now = lambda: T0 + dt.timedelta(minutes=minutes)
    response = client.post(f"/api/v1/plays/{play['id']}/events", headers=auth,
                           json={"type": "finish"})
    assert response.get_json()["state"]["finished"] is True
    return play


def bgstats_data(client, play) -> tuple[str, dict]:
    html = client.get(f"/plays/{play['id']}/{play['view_token']}/history").get_data(as_text=True)
    start = html.index('href="bgstats://') + 6
    link = html[start:html.index('"', start)].replace("&amp;", "&")
    assert link.startswith(BGSTATS_PREFIX)
    return link, json.loads(unquote(link[len(BGSTATS_PREFIX):]))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_link_decodes_to_everything_the_app_knows(app, client, game):
    play = finished_play(app, client, game)
    link, data = bgstats_data(client, play)
    export = client.get(f"/plays/{play['id']}/{play['view_token']}/export.json").get_json()
    assert len(link) <= BGSTATS_MAX_LINK
    assert data["sourceName"] == "North Sea Companion"
    assert data["sourcePlayId"] == play["id"]
    assert data["playDate"] == "2025-06-07 19:30:00"
    assert data["durationMin"] == 83
    assert data["game"]["name"] == export["game_name"]
    assert data["game"]["sourceGameId"] == game
    assert data["game"].get("bggId") == GAMES[game][2]
    result = {p["name"]: p for p in export["result"]["players"]}
    assert {p["name"]: p["score"] for p in data["players"]} == \
        {name: p["total"] for name, p in result.items()}
    assert [p["name"] for p in data["players"] if p["winner"]] == export["result"]["winners"]
    assert [p["name"] for p in data["players"] if p["startPlayer"]] == [export["start_player"]]
    assert export["start_player"] in ("Ann", "Bo", "Cy")
    expansions = [e["name"] for e in data["expansions"]]
    assert expansions == (["Rocks of Ruin"] if game == "explorers" else [])
    for name, p in result.items():   # the per-row breakdown, row by row
        rows = ", ".join(f"{c.replace('_', ' ')} {vp}" for c, vp in p["categories"].items())
        assert f"{name} {p['total']}: {rows}" in data["comments"]
    if game == "explorers":
        assert "Expansions: Rocks of Ruin" in data["comments"]


def test_the_same_play_sent_twice_keeps_one_source_play_id(app, client):
    play = finished_play(app, client, "knarr")
    _, first = bgstats_data(client, play)
    _, again = bgstats_data(client, play)
    assert first["sourcePlayId"] == again["sourcePlayId"] == play["id"]
    other = finished_play(app, client, "knarr")
    assert bgstats_data(client, other)[1]["sourcePlayId"] != first["sourcePlayId"]
