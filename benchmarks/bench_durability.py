"""What durability costs on SQLite: an event recorded through the API with
``PRAGMA synchronous=FULL`` (what the app runs: an acknowledged event survives a power cut)
next to ``NORMAL`` (what it ran before), on the same machine, in the same run."""
from __future__ import annotations

from .harness import percentiles


def sqlite_synchronous(tmp: str, repeat: int) -> dict:
    from companion import store

    from .__main__ import PLAYERS, make_app, sheet_event, timed

    medians = {}
    out = {}
    saved = store.SQLITE_SYNCHRONOUS
    try:
        for mode in ("NORMAL", "FULL"):
            store.SQLITE_SYNCHRONOUS = mode
            app = make_app(f"sqlite:///{tmp}/sync-{mode.lower()}.db")
            client = app.test_client()
            body = client.post("/api/v1/plays", json={"game": "knarr", "players": PLAYERS,
                                                      "seed": 1}).get_json()
            auth = {"Authorization": f"Bearer {body['edit_token']}"}

            def event(i, pid=body["id"], auth=auth, client=client):
                reply = client.post(f"/api/v1/plays/{pid}/events", json=sheet_event(i),
                                    headers=auth)
                assert reply.status_code == 200, reply.data

            out[f"api_post_event_{mode.lower()}_ms"] = percentiles(timed(event, repeat))
            medians[mode] = out[f"api_post_event_{mode.lower()}_ms"]["median"]
            app.extensions["companion"].store.engine.dispose()
    finally:
        store.SQLITE_SYNCHRONOUS = saved
    out["full_over_normal"] = round(medians["FULL"] / medians["NORMAL"], 2)
    return out
