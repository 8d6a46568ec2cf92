"""The database engine: SQLite's file, its pragmas and its writers' queue file, and running
a blocking SQLite call off a gevent worker's loop."""
from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event as sa_event

from .drops import ping_idle_connections


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000,
                                                     "check_same_thread": False})
        sa_event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # no pre-ping at every checkout: only a connection that sat idle is pinged, and a call that
    # met a dropped one runs again where that is safe (companion/store/drops.py)
    engine = sa.create_engine(url, pool_size=5, max_overflow=10)
    ping_idle_connections(engine)
    return engine


SQLITE_SYNCHRONOUS = "FULL"
BUSY_TIMEOUT_MS = 5000     # how long a write waits for another program's write lock


def private_sqlite_file(url: str) -> None:
    """The database holds every table's names and token hashes: readable by its owner only.
    Created 0600 before SQLite opens it (its -wal and -shm files take the same mode); an
    existing world-readable file from an older install is narrowed."""
    database = sa.engine.make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        for suffix in ("", "-wal", "-shm"):
            target = Path(str(path) + suffix)
            if target.exists() and target.stat().st_mode & 0o077:
                target.chmod(0o600)
    except PermissionError:
        pass


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # FULL: an acknowledged event survives a power cut (NORMAL in WAL mode may lose the last
    # commits); the cost per write is in `make bench` (sqlite_synchronous).
    cur.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.close()


def writers_queue_file(url: str) -> str | None:
    """The lock file SQLite writers of every server process queue on: beside the database
    file (None for an in-memory database)."""
    database = sa.engine.make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database)
    return str(path.with_name(path.name + "-writers")) if path.parent.is_dir() else None


def on_gevent_loop() -> bool:
    """Whether this process is a gevent worker (threading patched)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def off_the_loop(call, *args):
    """Run a call that blocks inside SQLite's C code (the fsync of a commit, the wait for the
    write lock) on a real thread when this process is a gevent worker: the worker's other
    requests (pages, polls, live streams) go on meanwhile instead of all waiting for the disk.
    sqlite3 lets go of the GIL while it waits, so the thread costs nothing else."""
    if on_gevent_loop():
        from gevent import get_hub

        return get_hub().threadpool.apply(call, args)
    return call(*args)


def begin_immediate(conn) -> None:
    """BEGIN IMMEDIATE: take SQLite's write lock. In a gevent worker it is tried at once on the
    loop, without waiting (busy_timeout 0): the writers of every server process queue on the
    writers' file lock first, so the database's lock is nearly always free, and a hand-off to
    a thread and back costs more than the statement (two wake-ups, each waiting for a CPU on a
    loaded machine). Only when another program holds the lock does the wait, with the usual
    busy timeout, go off the loop. The statement runs on the sqlite3 connection inside Core's
    transaction (which sends nothing on SQLite), as the event's own statements do
    (companion/store/raw.py): Core's execution of it cost more than SQLite's."""
    raw = conn.connection.dbapi_connection
    conn.begin()
    if not on_gevent_loop():
        _begin(raw)
        return
    raw.execute("PRAGMA busy_timeout=0")
    try:
        _begin(raw)
        return
    except sa.exc.OperationalError as err:
        if not _busy(err):
            raise
    finally:
        raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    off_the_loop(_begin, raw)


def _begin(raw) -> None:
    """BEGIN IMMEDIATE on the sqlite3 connection; an error is SQLAlchemy's, as Core raises it
    (the app answers a locked or failing database with its 503)."""
    try:
        raw.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as err:
        raise sa.exc.DBAPIError.instance("BEGIN IMMEDIATE", (), err, sqlite3.Error) from err


def _busy(err: sa.exc.OperationalError) -> bool:
    """SQLITE_BUSY: another connection holds the lock ("database is locked")."""
    return getattr(err.orig, "sqlite_errorname", "") == "SQLITE_BUSY" or \
        "database is locked" in str(err.orig)
