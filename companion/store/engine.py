"""The database engine: SQLite's file, its pragmas and its writers' queue file, and running
a blocking SQLite call off a gevent worker's loop."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event as sa_event


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        engine = sa.create_engine(url, connect_args={"timeout": 5, "check_same_thread": False})
        sa_event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)


SQLITE_SYNCHRONOUS = "FULL"


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
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def writers_queue_file(url: str) -> str | None:
    """The lock file SQLite writers of every server process queue on: beside the database
    file (None for an in-memory database)."""
    database = sa.engine.make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database)
    return str(path.with_name(path.name + "-writers")) if path.parent.is_dir() else None


def off_the_loop(call, *args):
    """Run a call that blocks inside SQLite's C code (the fsync of a commit, the wait for the
    write lock) on a real thread when this process is a gevent worker: the worker's other
    requests (pages, polls, live streams) go on meanwhile instead of all waiting for the disk.
    sqlite3 lets go of the GIL while it waits, so the thread costs nothing else."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        from gevent import get_hub

        return get_hub().threadpool.apply(call, args)
    return call(*args)
