"""F11: an export is imported back whatever its size, up to the largest play the app keeps
for an evening and more: 10,000 events (the red team's 870 KiB) and 20,000, through the API
and the import page; one transaction, the state equal to the original's. Only the import
addresses take bodies past 256 KiB: every other one still answers 413."""
from __future__ import annotations

import datetime as dt
import io
import json
import time

import pytest

from companion.service import summary_of
from companion.store import events as events_table
from companion.store import now
from companion.store import plays as plays_table


def long_play(app, count: int) -> dict:
    """A Knarr play with ``count`` sheet events, written in bulk (as populate does), each a
    change a table makes: a set score, taps on recruits and bracelets; each at its own second,
    the last one a second ago (an export writes times to the second: an import that stamped
    its events with its own time would otherwise read back the same)."""
    service = app.extensions["companion"]
    client = app.test_client()
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo", "Cy"],
                                              "seed": 11}).get_json()
    names = ("Ann", "Bo", "Cy")
    rows, started = [], now() - dt.timedelta(seconds=count)
    for i in range(count):
        data = ({"player": names[i % 3], "fields": {"vp": i % 40}} if i % 2 else
                {"player": names[i % 3], "add": {"recruits": 1 if i % 4 else -1}})
        rows.append({"play_id": play["id"], "position": i + 1, "type": "sheet", "data": data,
                     "discarded": False, "created_at": started + dt.timedelta(seconds=i),
                     "device": "phone-a"})
    store = service.store
    with store.engine.begin() as conn:
        conn.execute(events_table.insert(), rows)
        conn.execute(plays_table.update().where(plays_table.c.id == play["id"]).values(
            version=count, head=count, length=count))
    row = service.load(play["id"])
    with store.engine.begin() as conn:
        conn.execute(plays_table.update().where(plays_table.c.id == play["id"]).values(
            summary=summary_of(service.state(row))))
    return play


def view(play):
    return {"Authorization": f"Bearer {play['view_token']}"}


def exported(client, play) -> bytes:
    reply = client.get(f"/api/v1/plays/{play['id']}/export", headers=view(play))
    assert reply.status_code == 200
    return reply.get_data()


def send_import(client, body: bytes, **headers):
    return client.post("/api/v1/plays/import", data=body,
                       headers={"Content-Type": "application/json", **headers})


def check_imported_back(app, play: dict, body: bytes, reply, count: int) -> None:
    """``reply`` answers the import of ``body``, the export of ``play`` (``count`` events): a
    new play at the original's version and state, exporting the same events (types, data and
    times), the same state from its last snapshot on a cold read (another worker), and a log
    that goes on (an undo)."""
    client = app.test_client()
    assert reply.status_code == 201, reply.get_json()
    new = reply.get_json()
    original = client.get(f"/api/v1/plays/{play['id']}", headers=view(play)).get_json()["state"]
    assert new["state"]["version"] == count
    for part in ("sheets", "round", "phase", "finished", "players", "options", "score"):
        assert new["state"][part] == original[part], part
    again = client.get(f"/api/v1/plays/{new['id']}/export",
                       headers={"Authorization": f"Bearer {new['view_token']}"}).get_json()
    assert again["events"] == json.loads(body)["events"]       # types, data and times
    # a cold read of the imported play (another worker) starts from its last snapshot
    service = app.extensions["companion"]
    service.cache = type(service.cache)()
    assert service.state(service.load(new["id"]))["sheets"] == original["sheets"]
    undone = client.post(f"/api/v1/plays/{new['id']}/undo",
                         headers={"Authorization": f"Bearer {new['edit_token']}"})
    assert undone.status_code == 200 and undone.get_json()["state"]["version"] == count + 1


def check_a_refused_import_stores_nothing(app, count: int, bad: int) -> None:
    """The export of a play of ``count`` events, its event ``bad`` naming a player the play
    does not have: the import is a 422 naming that event, and no play is stored."""
    client = app.test_client()
    play = long_play(app, count)
    doc = json.loads(exported(client, play))
    doc["events"][bad]["data"]["player"] = "Nobody"
    store = app.extensions["companion"].store
    before = len(store.recent_plays(limit=100))
    reply = client.post("/api/v1/plays/import", json=doc)
    assert reply.status_code == 422
    assert reply.get_json()["error"]["field"].startswith(f"events[{bad}]")
    assert len(store.recent_plays(limit=100)) == before


@pytest.mark.parametrize("count", [10_000, 20_000])
def test_an_export_of_a_long_play_is_imported_back(app, count):
    client = app.test_client()
    play = long_play(app, count)
    body = exported(client, play)
    assert len(body) > 256 * 1024          # the old limit
    started = time.perf_counter()
    reply = send_import(client, body)
    took = time.perf_counter() - started
    check_imported_back(app, play, body, reply, count)
    print(f"\n{count} events: export {len(body) / 1024:.0f} KiB, import {took:.2f} s")


def test_the_import_page_takes_a_long_export_as_a_file(app):
    client = app.test_client()
    play = long_play(app, 20_000)
    body = exported(client, play)
    reply = client.post("/import", data={"file": (io.BytesIO(body), "long.json")},
                        content_type="multipart/form-data")
    assert reply.status_code == 302, reply.get_data(as_text=True)[:500]
    assert "/plays/" in reply.headers["Location"]


def test_a_refused_event_stores_nothing_of_the_import(app):
    check_a_refused_import_stores_nothing(app, 3000, bad=2500)


def test_only_the_import_takes_large_bodies(app):
    client = app.test_client()
    big = {"game": "knarr", "players": ["Ann", "Bo"], "options": {}, "seed": "x" * 300_000}
    for url in ("/api/v1/plays", "/api/v1/games/knarr/setup", "/api/v1/games/knarr/score"):
        reply = client.post(url, json=big)
        assert reply.status_code == 413, url
        assert reply.get_json()["error"]["message"] == \
            "The request is too large (256 KiB at most)."
    page = client.post("/new", data={"game": "knarr", "notes": "x" * 300_000})
    assert page.status_code == 413
    too_big = b'{"format": "' + b"x" * (8 * 1024 * 1024) + b'"}'
    reply = client.post("/api/v1/plays/import", data=too_big,
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 413
    assert reply.get_json()["error"]["message"] == "The request is too large (8 MiB at most)."
