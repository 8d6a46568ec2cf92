"""The table display: read-only, the view token is enough, follows the play by its version."""
from __future__ import annotations

import pytest


def create(client, game="reavers", players=("Ann", "Bo", "Cy"), options=None):
    response = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                                  "options": options or {}, "seed": 5})
    assert response.status_code == 201
    return response.get_json()


def post(client, play, body):
    response = client.post(f"/api/v1/plays/{play['id']}/events", json=body,
                           headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


def test_the_view_token_opens_a_read_only_scoreboard(client):
    play = create(client)
    post(client, play, {"type": "sheet", "data": {"player": "Bo", "fields": {"glory": 17}}})
    html = client.get(f"/plays/{play['id']}/{play['view_token']}/display").get_data(
        as_text=True)
    assert 'data-player="Bo"' in html and "17" in html
    assert "<form" not in html and "hx-post" not in html   # nothing on it writes
    assert f"/plays/{play['id']}/{play['view_token']}/join.svg" in html
    assert 'class="d-rounds"' in html   # Reavers: the round timeline
    # live through the push stream; the page's own poll is only the slow fallback
    assert f'sse-connect="/plays/{play["id"]}/{play["view_token"]}/live"' in html
    assert 'hx-trigger="sse:version, every 30s' in html


def test_it_answers_204_until_the_play_changes(client):
    play = create(client)
    base = f"/plays/{play['id']}/{play['view_token']}/display"
    assert client.get(base + "?version=0").status_code == 204
    post(client, play, {"type": "sheet", "data": {"player": "Ann", "fields": {"glory": 3}}})
    response = client.get(base + "?version=0")
    assert response.status_code == 200 and 'data-version="1"' in response.get_data(as_text=True)
    assert "<html" not in response.get_data(as_text=True)   # only the block


@pytest.mark.parametrize("token", ["nope", "x" * 40])
def test_a_wrong_token_shows_nothing(client, token):
    play = create(client)
    assert client.get(f"/plays/{play['id']}/{token}/display").status_code == 404
    assert client.get(f"/plays/{play['id']}/{token}/display?version=0").status_code == 404


def test_whose_turn_heroes_islands_and_board(client):
    knarr = create(client, "knarr", ("Ann", "Bo"))
    html = client.get(f"/plays/{knarr['id']}/{knarr['view_token']}/display").get_data(
        as_text=True)
    first = knarr["state"]["table"]["current_player"]
    assert f"{first}’s turn" in html
    ship = create(client, "shipwrights", ("Ann", "Bo", "Cy"))
    html = client.get(f"/plays/{ship['id']}/{ship['view_token']}/display").get_data(
        as_text=True)
    assert 'data-hero="svend"' in html and 'data-hero="frode"' in html
    sea = create(client, "seafarers", ("Ann", "Bo", "Cy"), {"scenario": "new_shores"})
    html = client.get(f"/plays/{sea['id']}/{sea['view_token']}/display").get_data(
        as_text=True)
    assert 'class="d-sea"' in html and "<svg" in html
    ex = create(client, "explorers", ("Ann", "Bo"))
    post(client, ex, {"type": "add_island", "data": {"tiles": 3, "complete": True}})
    html = client.get(f"/plays/{ex['id']}/{ex['view_token']}/display").get_data(as_text=True)
    assert "Island control" in html and 'class="d-list d-islands"' in html



def test_the_play_page_links_the_display_with_the_view_token(client):
    play = create(client)
    edit_path = play["edit_url"].split("://", 1)[-1].split("/", 1)[1]
    html = client.get("/" + edit_path).get_data(as_text=True)
    assert f'href="/plays/{play["id"]}/{play["view_token"]}/display"' in html
    assert play["edit_token"] + "/display" not in html   # the TV never gets the edit token


def test_the_display_speaks_the_viewers_language(client):
    play = create(client, "knarr", ("Ann", "Bo"))
    html = client.get(f"/plays/{play['id']}/{play['view_token']}/display",
                      headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="de"' in html and "ist am Zug" in html and "Tischanzeige" in html
