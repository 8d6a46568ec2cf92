"""The game clock through the service, the API and the pages, with a clock the test turns."""
from __future__ import annotations

import datetime as dt

import pytest

T0 = dt.datetime(2025, 5, 1, 18, 0, tzinfo=dt.UTC)


class WallClock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now

    def advance(self, minutes):
        self.now += dt.timedelta(minutes=minutes)


@pytest.fixture
def turn(app):
    wall = WallClock()
    app.extensions["companion"].now = wall
    return wall


def create(client):
    response = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"],
                                                  "seed": 3})
    assert response.status_code == 201
    return response.get_json()


def post(client, play, body):
    return client.post(f"/api/v1/plays/{play['id']}/events", json=body,
                       headers={"Authorization": f"Bearer {play['edit_token']}"})


def read(client, play):
    response = client.get(f"/api/v1/plays/{play['id']}",
                          headers={"Authorization": f"Bearer {play['view_token']}"})
    return response.get_json()["state"]["clock"]


def test_the_state_carries_the_clock_and_a_paused_clock_does_not_run(client, turn):
    play = create(client)
    assert play["state"]["clock"].items() >= {"started_at": "2025-05-01T18:00:00+00:00",
                                              "finished_at": None, "running": True,
                                              "elapsed_s": 0}.items()
    turn.advance(25)
    assert read(client, play)["elapsed_s"] == 25 * 60
    assert post(client, play, {"type": "pause"}).get_json()["state"]["clock"]["running"] is False
    turn.advance(90)
    assert read(client, play).items() >= {"started_at": "2025-05-01T18:00:00+00:00",
                                          "finished_at": None, "running": False,
                                          "elapsed_s": 25 * 60}.items()
    post(client, play, {"type": "resume"})
    turn.advance(5)
    assert read(client, play)["elapsed_s"] == 30 * 60


def test_pausing_twice_is_a_clear_409(client, turn):
    play = create(client)
    post(client, play, {"type": "pause"})
    response = post(client, play, {"type": "pause"})
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "clock_paused"


def test_undo_of_a_pause_lets_the_clock_run_again(client, turn):
    play = create(client)
    turn.advance(10)
    post(client, play, {"type": "pause"})
    turn.advance(10)
    client.post(f"/api/v1/plays/{play['id']}/undo",
                headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert (read(client, play) | {"started_at": None}).items() >= {
        "started_at": None, "finished_at": None, "running": True, "elapsed_s": 20 * 60}.items()


def test_duration_in_history_exports_and_pdf(client, turn):
    from io import BytesIO

    from pypdf import PdfReader

    play = create(client)
    turn.advance(42)
    post(client, play, {"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 12}}})
    post(client, play, {"type": "finish"})
    turn.advance(60)  # the clock stopped at the finish
    base = f"/plays/{play['id']}/{play['view_token']}"
    export = client.get(base + "/export.json").get_json()
    assert export["duration_s"] == 42 * 60
    assert export["finished_at"] == "2025-05-01T18:42:00+00:00"
    csv_text = client.get(base + "/export.csv").get_data(as_text=True)
    assert csv_text.splitlines()[0].split(",")[5] == "duration_min"
    assert csv_text.splitlines()[1].split(",")[5] == "42"
    client.get(base)          # History lists the plays this device opened
    history = client.get("/history").get_data(as_text=True)
    assert "42 min" in history and 'id="play-lengths"' in history
    pdf = client.get(base + "/scoresheet.pdf").data
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(pdf)).pages)
    assert "Played 42 min" in text


def test_an_import_keeps_the_clock_of_the_export(client, turn):
    play = create(client)
    turn.advance(70)
    post(client, play, {"type": "finish"})
    doc = client.get(f"/plays/{play['id']}/{play['view_token']}/export.json").get_json()
    turn.advance(600)
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 201
    assert response.get_json()["state"]["clock"]["elapsed_s"] == 70 * 60


def test_average_length_per_game_and_player_count(client, turn):
    for minutes in (30, 50):
        play = create(client)
        client.get(f"/plays/{play['id']}/{play['view_token']}")   # opened on this device
        turn.advance(minutes)
        post(client, play, {"type": "finish"})
    html = client.get("/history").get_data(as_text=True)
    table = html[html.index('id="play-lengths"'):]
    table = table[:table.index("</table>")]
    assert "Knarr" in table and "<td>2</td><td>2</td><td>40 min</td>" in table


def test_the_play_page_pauses_and_resumes(client, turn):
    play = create(client)
    url = f"/plays/{play['id']}/{play['edit_token']}"
    html = client.get(url).get_data(as_text=True)
    assert "Pause clock" in html
    response = client.post(url + "/events", data={"type": "pause", "expected_version": "0"},
                           headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Resume clock" in html and "paused" in html


def test_the_openapi_document_names_the_clock_and_its_events(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    assert set(schemas["Clock"]["required"]) == {"started_at", "finished_at", "running",
                                                 "elapsed_s"}
    assert "clock" in schemas["State"]["required"]
    for game in ("Knarr", "Explorers", "Shipwrights", "Reavers", "Seafarers"):
        for kind in ("Pause", "Resume"):       # every game's event, its data not read
            assert schemas[f"Event{game}{kind}"]["properties"]["type"]["const"] == kind.lower()
            assert f"Event{game}{kind}" in str(schemas[f"Event{game}"]["oneOf"])
