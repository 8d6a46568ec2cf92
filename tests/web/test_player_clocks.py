"""A clock for every player through the API and the exports (issue 24): ``clock.players``
in the state, passed on by each turn's end, kept through an undo of the turn's end; the
JSON and CSV exports and the BG Stats link carry each player's time, and BG Stats' date is
the play's start in the table's own time zone (the starting phone's offset)."""
from __future__ import annotations

import csv
import datetime as dt
import io

from tests.web.test_bgstats import bgstats_data

T0 = dt.datetime(2025, 6, 7, 22, 30, tzinfo=dt.UTC)


def play_three_turns(app, client, offset=120):
    """A Knarr play started at 22:30 UTC from a phone two hours east (00:30 the next day
    there): three turns of 60, 90 and 30 seconds, then finished 15 seconds later."""
    service = app.extensions["companion"]
    service.now = lambda: T0
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo", "Cy"],
                                               "seed": 4, "utc_offset_min": offset}).get_json()
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    url = f"/api/v1/plays/{play['id']}"
    order = client.get(url, headers=auth).get_json()["state"]["table"]["order"]
    second = 0
    for wait in (60, 90, 30):
        second += wait
        service.now = lambda s=second: T0 + dt.timedelta(seconds=s)
        assert client.post(f"{url}/events", headers=auth,
                           json={"type": "turn", "data": {"vp_gained": 1}}).status_code == 200
    service.now = lambda: T0 + dt.timedelta(seconds=second + 15)
    return play, auth, order


def test_the_state_carries_each_players_clock(app, client):
    play, auth, order = play_three_turns(app, client)
    state = client.get(f"/api/v1/plays/{play['id']}", headers=auth).get_json()["state"]
    players = state["clock"]["players"]
    # order[0] plays again: 15 s of the running turn counted up to now
    assert players == {order[0]: {"elapsed_s": 75, "turns": 1, "longest_s": 60},
                       order[1]: {"elapsed_s": 90, "turns": 1, "longest_s": 90},
                       order[2]: {"elapsed_s": 30, "turns": 1, "longest_s": 30}}
    assert sum(p["elapsed_s"] for p in players.values()) == state["clock"]["elapsed_s"] == 195
    assert state["clock"]["turn"] == {"player": order[0], "elapsed_s": 15}
    # undoing the last turn's end gives its time back to that turn, still running
    assert client.post(f"/api/v1/plays/{play['id']}/undo", headers=auth,
                       json={}).status_code == 200
    clock = client.get(f"/api/v1/plays/{play['id']}", headers=auth).get_json()["state"]["clock"]
    assert clock["turn"] == {"player": order[2], "elapsed_s": 45}
    assert clock["players"][order[2]] == {"elapsed_s": 45, "turns": 0, "longest_s": 45}
    assert sum(p["elapsed_s"] for p in clock["players"].values()) == clock["elapsed_s"]


def test_exports_and_bgstats_carry_the_local_date_and_each_players_time(app, client):
    play, auth, order = play_three_turns(app, client)
    assert client.post(f"/api/v1/plays/{play['id']}/events", headers=auth,
                       json={"type": "finish"}).status_code == 200
    _, data = bgstats_data(client, play)
    assert data["playDate"] == "2025-06-08 00:30:00"       # the table's time, not UTC
    assert data["durationMin"] == 3                          # 195 s from the clock
    assert (f"Time per player: {order[0]} 1:15 (2 turns, longest 1:00); "
            f"{order[1]} 1:30 (1 turn, longest 1:30); "
            f"{order[2]} 0:30 (1 turn, longest 0:30)") in data["comments"]
    view = f"/plays/{play['id']}/{play['view_token']}"
    doc = client.get(f"{view}/export.json").get_json()
    assert doc["utc_offset_min"] == 120
    assert doc["player_times"][order[1]] == {"elapsed_s": 90, "turns": 1, "longest_s": 90}
    rows = list(csv.DictReader(io.StringIO(client.get(f"{view}/export.csv").get_data(
        as_text=True))))
    by_name = {r["player"]: r for r in rows}
    assert by_name[order[0]]["time_s"] == "75" and by_name[order[0]]["turns"] == "2"
    assert by_name[order[0]]["longest_turn_s"] == "60"
    assert {r["date"] for r in rows} == {"2025-06-08"}
    # an import of the export keeps the offset and the clocks
    imported = client.post("/api/v1/plays/import", json=doc)
    assert imported.status_code == 201, imported.data
    state = imported.get_json()["state"]
    assert state["utc_offset_min"] == 120
    assert state["clock"]["players"] == doc["player_times"]


def test_without_an_offset_the_date_stays_utc(app, client):
    play, auth, _ = play_three_turns(app, client, offset=None)
    assert client.post(f"/api/v1/plays/{play['id']}/events", headers=auth,
                       json={"type": "finish"}).status_code == 200
    _, data = bgstats_data(client, play)
    assert data["playDate"] == "2025-06-07 22:30:00"
    bad = client.post("/api/v1/plays", json={"game": "knarr", "players": ["A", "B"],
                                             "utc_offset_min": 100000})
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "utc_offset_min"


def test_the_score_sheet_and_the_final_screen_show_each_players_time(app, client):
    """The PDF's sentence of times under the table (each player's total, turns and longest
    turn, in the score's order) and the final screen's list, to the second (a turn is often
    under a minute)."""
    from pypdf import PdfReader

    play, auth, order = play_three_turns(app, client)
    assert client.post(f"/api/v1/plays/{play['id']}/events", headers=auth,
                       json={"type": "finish"}).status_code == 200
    view = f"/plays/{play['id']}/{play['view_token']}"
    pdf = client.get(f"{view}/scoresheet.pdf")
    assert pdf.status_code == 200
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    # columns in the score's order: the times follow it, whoever leads
    names = [p["name"] for p in client.get(f"/api/v1/plays/{play['id']}", headers=auth)
             .get_json()["state"]["score"]["players"]]
    times = {order[0]: ("1 min 15 s", "2 turns", "1 min 00 s"),
             order[1]: ("1 min 30 s", "1 turn", "1 min 30 s"),
             order[2]: ("30 s", "1 turn", "30 s")}
    said = " · ".join(f"{n}: {times[n][0]}, {times[n][1]}, longest turn {times[n][2]}"
                      for n in names)
    assert f"Time per player – {said}" in " ".join(text.split())   # the row name, a dash
    page = client.get(view).get_data(as_text=True)
    assert f"{order[0]}: 1 min 15 s, longest turn 1 min 00 s" in page
    assert f"{order[2]}: 30 s, longest turn 30 s" in page
    # in German too
    client.get("/language/de")
    german = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(
        client.get(f"{view}/scoresheet.pdf").data)).pages).split())
    assert "Zeit pro Person" in german and "2 Züge" in german and "1 min 15 s" in german
