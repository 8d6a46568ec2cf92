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


def undo_figures(url: str, repeat: int = 4) -> dict:
    """Undo (then redo) on a 5,000-event play next to a 10-event play, each on a cold state
    cache (as on another server process). The issue's target: within 3x of each other."""
    from companion.service import PlayService
    from companion.store import events, now, plays

    from .__main__ import PLAYERS, make_app, sheet_event, timed

    app = make_app(url)
    service = app.extensions["companion"]
    store = service.store
    out = {}
    for size in (10, 5000):
        row = service.create({"game": "knarr", "players": PLAYERS, "seed": size})[0]
        with store.engine.begin() as conn:
            conn.execute(events.insert(), [
                {"play_id": row.id, "position": i + 1, "type": "sheet",
                 "data": sheet_event(i)["data"], "discarded": False, "created_at": now()}
                for i in range(size)])
            conn.execute(plays.update().where(plays.c.id == row.id).values(
                version=size, head=size, length=size))

        def undo_redo(i, play_id=row.id):
            PlayService(store).move(play_id, -1 if i % 2 == 0 else 1)

        out[f"undo_{size}_events_ms"] = percentiles(timed(undo_redo, repeat, warmup=1))
    out["ratio_5000_to_10"] = round(out["undo_5000_events_ms"]["median"]
                                    / out["undo_10_events_ms"]["median"], 1)
    store.engine.dispose()
    return out
