"""An event's write runs its statements on the DB-API connection, on SQLite and on
PostgreSQL (companion/store/raw.py): the rows it leaves are byte for byte those Core's own
execution leaves (JSON, dates, booleans, a NULL summary; PostgreSQL's notification too), it
reads a play as Core reads it, and a driver error is still SQLAlchemy's (the app's 503)."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from companion.store import events, plays
from companion.store.raw import dbapi
from companion.store.tables import LOAD_PLAY
from tests.conftest import make_app
from tests.db.backends import backend_app, db_url, postgres_database  # noqa: F401 (fixtures)

FINISHED_SUMMARY = {"winners": ["Ann"], "totals": {"Ann": 3, "Bo": 1}, "elapsed_s": 60}


def write_three(store, play_id):
    """A sheet event, one that finishes the play with a summary, and a head move."""
    with store.writing(play_id) as write:
        write.append({"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 3}}},
                     finished=False, summary=None, device="phone-1")
    with store.writing(play_id) as write:
        write.append({"type": "sheet", "data": {"player": "Bø", "fields": {"vp": 1}}},
                     finished=True, summary=FINISHED_SUMMARY)
    with store.writing(play_id) as write:
        write.move_head(1, finished=False, summary=None)
        return write.row


def stored(store, play_id):
    """The rows as the database holds them (JSON as its text, no type conversion), each time
    by its shape (SQLite's text and its length, PostgreSQL's aware datetime)."""
    with store.engine.connect() as conn:
        play = conn.execute(sa.text(
            "SELECT version, head, length, finished, CAST(summary AS TEXT), summary IS NULL, "
            "updated_at FROM plays WHERE id = :id"), {"id": play_id}).one()
        rows = conn.execute(sa.text(
            "SELECT position, type, CAST(data AS TEXT), discarded, device, undoes, created_at "
            "FROM events WHERE play_id = :id ORDER BY position"), {"id": play_id}).all()
    return (*play[:-1], shape(play[-1])), [(*r[:-1], shape(r[-1])) for r in rows]


def shape(stamp):
    return (type(stamp).__name__, len(stamp) if isinstance(stamp, str)
            else stamp.utcoffset() is not None)


def test_the_raw_write_leaves_the_rows_cores_execution_leaves(backend_app):  # noqa: F811
    store = backend_app.extensions["companion"].store
    client = backend_app.test_client()
    made = [client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bø"]}).json
            for _ in range(2)]
    assert store.prepared is not None          # the raw statements are in use
    heard = []
    store.listeners.append(lambda play_id, version: heard.append((play_id, version)))
    read_raw = write_three(store, made[0]["id"])
    prepared, store.prepared = store.prepared, None      # Core's own execution
    try:
        read_core = write_three(store, made[1]["id"])
    finally:
        store.prepared = prepared
    assert stored(store, made[0]["id"]) == stored(store, made[1]["id"])
    assert read_raw.summary == read_core.summary == FINISHED_SUMMARY
    assert heard == [(play["id"], version) for play in made for version in (1, 2, 3)]
    # ... and the play's locked read gives what Core's read gives, every column
    for play in made:
        with store.engine.connect() as conn:
            by_core = dict(conn.execute(LOAD_PLAY, {"play_id": play["id"]}).first()._mapping)
            by_raw = store.prepared.lock_play.first(dbapi(conn), {"play_id": play["id"]})
        assert by_raw == by_core
    with store.engine.connect() as conn:
        summaries = conn.execute(sa.select(plays.c.summary).order_by(plays.c.id)).scalars().all()
        datas = conn.execute(sa.select(events.c.data).order_by(events.c.id)).scalars().all()
    assert summaries == [None, None]
    assert datas[1] == {"player": "Bø", "fields": {"vp": 1}}


def test_postgresql_hears_the_raw_writes_notification(postgres_url, tmp_path):
    """The bump run on psycopg's connection still tells every listening process, once it
    commits (companion/notify.py listens for it)."""
    import psycopg

    with postgres_database(postgres_url) as url:
        app = make_app(tmp_path, url)
        store = app.extensions["companion"].store
        try:
            play = app.test_client().post("/api/v1/plays", json={
                "game": "knarr", "players": ["Ann", "Bo"]}).json
            listener = psycopg.connect(sa.engine.make_url(url).set(drivername="postgresql")
                                       .render_as_string(hide_password=False), autocommit=True)
            try:
                listener.execute("LISTEN play_changed")
                with store.writing(play["id"]) as write:
                    write.append({"type": "sheet", "data": {}}, finished=False, summary=None)
                heard = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
            finally:
                listener.close()
            assert heard == [f"{play['id']}:1"]
        finally:
            app.extensions["notifier"].stop()
            store.engine.dispose()


def test_a_driver_error_of_the_raw_write_is_sqlalchemys(backend_app):  # noqa: F811
    store = backend_app.extensions["companion"].store
    assert store.prepared is not None
    play = backend_app.test_client().post("/api/v1/plays",
                                          json={"game": "knarr", "players": ["Ann", "Bo"]}).json
    with pytest.raises(sa.exc.IntegrityError):
        with store.writing(play["id"]) as write:
            # a row the schema refuses (type is NOT NULL): the driver's error, wrapped as Core
            # wraps it, so the app answers it as it answers any database error
            write.append({"type": None, "data": {}}, finished=False, summary=None)
    assert store.load_play(play["id"]).version == 0
    with store.writing(play["id"]) as write:           # the next write goes through
        write.append({"type": "sheet", "data": {}}, finished=False, summary=None)
    assert store.load_play(play["id"]).version == 1
