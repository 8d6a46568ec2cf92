"""SQLite under the real server (`companion serve`, gevent workers): a write that waits for the
database, on the disk or on another program's lock, waits on a real thread, so the same worker
goes on answering everything else meanwhile, and the write lands once the lock is free."""
from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time

from benchmarks.harness import HX, Client, Server, create_table, fragment_path, record


def queued(lock_file: str) -> bool:
    """True while a server process holds the writers' file lock (its write is under way)."""
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)      # closing drops a lock this test may have taken
    return False


def test_a_gevent_worker_answers_while_its_write_waits_for_sqlite(tmp_path):
    path = tmp_path / "queue.db"
    with Server(f"sqlite:///{path}", workers=1, log_dir=str(tmp_path)) as server:
        client = Client(server.url)
        table = create_table(client)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")          # another program holds the write lock
        answers: dict = {}
        writer = threading.Thread(target=lambda: answers.update(
            event=record(Client(server.url), table, 1)))
        try:
            writer.start()
            deadline = time.monotonic() + 10
            while not queued(f"{path}-writers") and time.monotonic() < deadline:
                time.sleep(0.01)
            assert queued(f"{path}-writers"), "the write never reached the database"
            # the only worker is waiting for the lock, and still answers
            assert client.get("/healthz").status == 200
            assert client.get(fragment_path(table, 0), HX).status in (200, 204)
            assert writer.is_alive() and "event" not in answers
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        writer.join(10)
        assert answers["event"].status == 200
        assert table.version == 1
        client.close()


def test_a_gevent_worker_answers_while_its_write_waits_for_another_process_writer(tmp_path):
    """The writers' file lock is taken at once when free; held by another server process's
    writer, the wait for it goes off the worker's loop like the database's own lock."""
    path = tmp_path / "queue.db"
    with Server(f"sqlite:///{path}", workers=1, log_dir=str(tmp_path)) as server:
        client = Client(server.url)
        table = create_table(client)
        holder = os.open(f"{path}-writers", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(holder, fcntl.LOCK_EX)         # another process's writer is under way
        answers: dict = {}
        writer = threading.Thread(target=lambda: answers.update(
            event=record(Client(server.url), table, 1)))
        try:
            writer.start()
            time.sleep(0.5)
            # the only worker is waiting for the file lock, and still answers
            assert client.get("/healthz").status == 200
            assert client.get(fragment_path(table, 0), HX).status in (200, 204)
            assert writer.is_alive() and "event" not in answers
        finally:
            os.close(holder)                       # closing drops the lock
        writer.join(10)
        assert answers["event"].status == 200
        assert table.version == 1
        client.close()
