"""Group commit on SQLite: the writers of one process that queue for the write lock share one
transaction and one fsync (see GroupCommit._begin); the writers of every server process queue
on one file lock beside the database."""
from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy import event as sa_event

from .drops import committing_marked
from .engine import begin_immediate, off_the_loop, writers_queue_file
from .raw import write_statements


class _Group:
    """One SQLite transaction shared by the writers that queued for it (group commit), on the
    process's writer connection (GroupCommit._writer_connection)."""

    def __init__(self, store: GroupCommit):
        self.members = 0
        self.error: BaseException | None = None
        self.committed = threading.Event()
        self._store = store
        self._queue = store._writers_queue()
        self._queue.__enter__()
        try:
            self.conn = store._writer_connection()
            self.raw = self.conn.connection.dbapi_connection
            begin_immediate(self.conn)
        except BaseException:
            store._drop_writer_connection()
            self._queue.__exit__(None, None, None)
            raise

    def close(self, failed: bool) -> None:
        """Hand the writer connection back (a failed one is closed), free the file lock."""
        try:
            if failed:
                self._store._drop_writer_connection()
        finally:
            self._queue.__exit__(None, None, None)


class GroupCommit:
    """The write transactions of a store (Store inherits them)."""

    def __init__(self, url: str, engine: sa.Engine):
        self.engine = engine
        # SQLite has one writer at a time: the writers of this process queue here (a gevent
        # lock in a gevent worker), so only one of them waits on the database's own lock
        self._sqlite_writer = threading.Lock() if url.startswith("sqlite") else None
        # group commit (see _begin): how many of this process's writers wait for the lock,
        # and the transaction the current group shares
        self._waiting_lock = threading.Lock()
        self._waiting = 0
        self._group: _Group | None = None
        # ... and the writers of all server processes queue on one file lock beside the
        # database: the kernel hands it over the moment it is free, where SQLite's own busy
        # wait sleeps in growing steps (up to 100 ms) and lets one process's writers starve
        # another's
        self._queue_file = writers_queue_file(url)
        self._queue_fd: int | None = None
        # SQLite: one connection for this process's writes, kept between them (a write took
        # one from the pool and gave it back, resetting it: more than SQLite's work of an
        # event). SQLite and PostgreSQL: an event's statements run on the DB-API connection
        # without Core's execution machinery (companion/store/raw.py)
        self._writer: tuple[int, sa.Connection] | None = None
        self.prepared = write_statements(engine.dialect)
        if self._sqlite_writer is not None:
            sa_event.listen(engine, "engine_disposed", self._disposed)

    def _writer_connection(self) -> sa.Connection:
        """The process's writer connection (a new one in a forked child, or after a failure
        or the engine's dispose closed it)."""
        if self._writer is None or self._writer[0] != os.getpid():
            self._writer = (os.getpid(), self.engine.connect())
        return self._writer[1]

    def _disposed(self, _engine) -> None:
        if self._group is None:     # (a write under way keeps it until it is done)
            self._drop_writer_connection()

    def _drop_writer_connection(self) -> None:
        """Close the writer connection (the next write opens another): after a failed write,
        and when the engine is disposed (a test or restore letting go of the file)."""
        kept, self._writer = self._writer, None
        if kept is not None and kept[0] == os.getpid():
            try:
                kept[1].close()
            except Exception:  # noqa: BLE001 (already broken: nothing left to give back)
                pass

    @contextmanager
    def _writers_queue(self) -> Iterator[None]:
        if self._queue_file is None:
            yield
            return
        if self._queue_fd is None:
            self._queue_fd = os.open(self._queue_file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            # free (no other process's writer holds it): taken at once, without a hand-off to a
            # thread and back; held: the wait goes off the loop
            fcntl.flock(self._queue_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            off_the_loop(fcntl.flock, self._queue_fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._queue_fd, fcntl.LOCK_UN)

    @contextmanager
    def _begin(self) -> Iterator:
        """A write transaction. SQLite: the writers of this process queue on its writer lock
        (a gevent lock in a gevent worker), then take the database's write lock at once
        (BEGIN IMMEDIATE) and commit (the fsync) off the worker's loop: no request of a gevent
        worker ever blocks it waiting for the disk or for a lock its own process holds.

        Group commit: a writer that finishes while others of this process wait for the lock
        hands them the open transaction instead of committing, each writer's work in its own
        SAVEPOINT (a refused write takes back only its own). The last of the group commits
        once, one fsync for all of them (``synchronous=FULL`` stays), and only then is any of
        them answered: nobody hears "done" before the disk has it."""
        if self._sqlite_writer is None:
            with committing_marked(self.engine.begin()) as conn:
                yield conn
            return
        with self._waiting_lock:
            self._waiting += 1
        self._sqlite_writer.acquire()
        with self._waiting_lock:
            self._waiting -= 1
        group = self._group
        try:
            if group is None:
                group = self._group = _Group(self)
            group.members += 1
            conn = group.conn
            group.raw.execute("SAVEPOINT one_writer")
        except BaseException:
            self._end_group(group, failed=True)
            raise
        try:
            yield conn
        except BaseException:
            try:
                group.raw.execute("ROLLBACK TO one_writer")
                group.raw.execute("RELEASE one_writer")
            except BaseException:
                self._end_group(group, failed=True)
                raise
            self._hand_on_or_commit(group)
            raise
        try:
            group.raw.execute("RELEASE one_writer")
        except BaseException:
            self._end_group(group, failed=True)     # never leave the lock held
            raise
        self._hand_on_or_commit(group)
        if group.error is not None:
            raise group.error

    def _hand_on_or_commit(self, group: _Group) -> None:
        """Called holding the writer lock: commit now, or leave it to a writer waiting for the
        lock (then wait for that commit)."""
        with self._waiting_lock:
            others = self._waiting > 0
        if others:
            self._sqlite_writer.release()
            group.committed.wait()
            return
        self._end_group(group, failed=False)

    def _end_group(self, group: _Group | None, *, failed: bool) -> None:
        """Commit (or roll back) the group's transaction, wake its members, free the lock."""
        try:
            if group is not None:
                try:
                    if failed:
                        group.conn.rollback()
                        group.error = RuntimeError("the write transaction failed")
                    else:
                        off_the_loop(group.conn.commit)
                except BaseException as err:
                    group.error = err
                    try:
                        group.conn.rollback()
                    except BaseException:
                        pass
                finally:
                    group.close(failed=failed or group.error is not None)
                    self._group = None
                    group.committed.set()
        finally:
            self._sqlite_writer.release()

