"""An event's write on SQLite runs its statements on the DB-API connection
(companion/store/raw.py): the rows it leaves are byte for byte those Core's own execution
leaves (JSON, dates, booleans, a NULL summary), it reads a play as Core reads it, and a
driver error is still SQLAlchemy's (the app's 503)."""
from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from companion.store import events, plays
from companion.store.raw import dbapi
from companion.store.tables import LOAD_PLAY
from tests.conftest import make_app

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
    """The rows as SQLite holds them (no type conversion), times left out."""
    raw = sqlite3.connect(store.engine.url.database)
    try:
        play = raw.execute("SELECT version, head, length, finished, summary, typeof(summary), "
                           "length(updated_at) FROM plays WHERE id = ?", (play_id,)).fetchone()
        rows = raw.execute("SELECT position, type, data, discarded, device, undoes, "
                           "length(created_at) FROM events WHERE play_id = ? ORDER BY position",
                           (play_id,)).fetchall()
    finally:
        raw.close()
    return play, rows


def test_the_raw_write_leaves_the_rows_cores_execution_leaves(tmp_path):
    app = make_app(tmp_path)
    store = app.extensions["companion"].store
    client = app.test_client()
    made = [client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bø"]}).json
            for _ in range(2)]
    assert store.prepared is not None          # SQLite: the raw statements are in use
    read_raw = write_three(store, made[0]["id"])
    prepared, store.prepared = store.prepared, None      # Core's own execution, as on PostgreSQL
    try:
        read_core = write_three(store, made[1]["id"])
    finally:
        store.prepared = prepared
    assert stored(store, made[0]["id"]) == stored(store, made[1]["id"])
    assert read_raw.summary == read_core.summary == FINISHED_SUMMARY
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


def test_a_driver_error_of_the_raw_write_is_sqlalchemys(tmp_path):
    app = make_app(tmp_path)
    store = app.extensions["companion"].store
    play = app.test_client().post("/api/v1/plays",
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
