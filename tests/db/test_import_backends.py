"""An export imported back on SQLite and on PostgreSQL (issue 22, F11, with the import checked
in a process of its own): the log's rows come made from the import process, for SQLite's
DB-API already converted and for PostgreSQL as Core takes them (companion/store/raw.py,
imported_rows); either way the new play replays to the original's state, exports the same
events at the same times, and a refused import stores nothing."""
from __future__ import annotations

import json

from tests.db.backends import backend_app, db_url  # noqa: F401 (fixtures)
from tests.web.test_import_large import long_play, view

COUNT = 2_500     # five batches of rows and two snapshots


def test_an_export_is_imported_back_whole(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = long_play(backend_app, COUNT)
    body = client.get(f"/api/v1/plays/{play['id']}/export", headers=view(play)).get_data()
    reply = client.post("/api/v1/plays/import", data=body,
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 201, reply.get_json()
    new = reply.get_json()
    original = client.get(f"/api/v1/plays/{play['id']}", headers=view(play)).get_json()["state"]
    assert new["state"]["version"] == COUNT
    assert new["state"]["sheets"] == original["sheets"]
    again = client.get(f"/api/v1/plays/{new['id']}/export",
                       headers={"Authorization": f"Bearer {new['view_token']}"}).get_json()
    assert again["events"] == json.loads(body)["events"]       # types, data and times
    service = backend_app.extensions["companion"]
    service.cache = type(service.cache)()                      # a cold read: from a snapshot
    assert service.state(service.load(new["id"]))["sheets"] == original["sheets"]
    undone = client.post(f"/api/v1/plays/{new['id']}/undo",
                         headers={"Authorization": f"Bearer {new['edit_token']}"})
    assert undone.status_code == 200 and undone.get_json()["state"]["version"] == COUNT + 1


def test_a_refused_import_stores_nothing(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = long_play(backend_app, 600)
    doc = client.get(f"/api/v1/plays/{play['id']}/export", headers=view(play)).get_json()
    doc["events"][555]["data"]["player"] = "Nobody"
    store = backend_app.extensions["companion"].store
    before = len(store.recent_plays(limit=100))
    reply = client.post("/api/v1/plays/import", json=doc)
    assert reply.status_code == 422
    assert reply.get_json()["error"]["field"].startswith("events[555]")
    assert len(store.recent_plays(limit=100)) == before
