"""Tell the phones watching a play, at once, that its version changed.

One ``Notifier`` per process (per gunicorn worker), with ONE background thread, started when the
first phone watches:
- PostgreSQL: the thread holds its own connection and ``LISTEN play_changed``; every write sends
  ``pg_notify('play_changed', '<play id>:<version>')`` in its own transaction (store.py), so a
  change made by any worker process on any server reaches every process. After a (re)connect,
  and every few seconds while idle, it re-reads the watched versions: a notification lost while
  the connection was down is caught up.
- SQLite (one machine, any number of processes): the thread reads the versions of the watched
  plays only (one query by primary key) every ``poll_interval`` while anyone watches, and
  sleeps on a condition, doing nothing, while nobody does.
- A write in this process wakes its waiters at once (``Store.listeners``), without waiting for
  the thread.

A waiter (one server-sent-events stream) blocks on its play's ``threading.Condition`` with a
timeout, never spinning. Under gevent the same code runs on greenlets (psycopg detects gevent's
patched ``select``).
"""
from __future__ import annotations

import logging
import os
import threading
import time

CHANNEL = "play_changed"
POLL_INTERVAL = 0.12      # SQLite: seconds between two version reads while anyone watches
RECHECK_INTERVAL = 5.0    # PostgreSQL: seconds of quiet after which the versions are re-read
RECONNECT_PAUSE = 1.0     # PostgreSQL: seconds before listening again after a lost connection
TICK = 1.0                # PostgreSQL: the longest the thread waits before looking at stop()

log = logging.getLogger(__name__)


class _Watched:
    """One play that somebody in this process watches."""

    __slots__ = ("version", "watchers", "gone", "changed")

    def __init__(self, lock: threading.Lock):
        self.version = -1
        self.watchers = 0
        self.gone = False
        self.changed = threading.Condition(lock)


class Watch:
    """One phone's subscription to one play; ``close`` it (idempotent) when the stream ends."""

    def __init__(self, notifier: Notifier, play_id: str, entry: _Watched):
        self.notifier, self.play_id, self._entry = notifier, play_id, entry
        self.closed = False

    @property
    def gone(self) -> bool:
        return self._entry.gone

    def wait(self, seen: int, timeout: float) -> int | None:
        """The play's version once it is newer than ``seen``; None after ``timeout`` seconds
        (or when the play was deleted: see ``gone``)."""
        entry = self._entry
        with entry.changed:
            entry.changed.wait_for(lambda: entry.version > seen or entry.gone, timeout)
            return entry.version if entry.version > seen else None

    def close(self) -> None:
        self.notifier._unwatch(self)


class Notifier:
    def __init__(self, store, poll_interval: float = POLL_INTERVAL,
                 recheck_interval: float = RECHECK_INTERVAL):
        self.store = store
        self.poll_interval = poll_interval
        self.recheck_interval = recheck_interval
        self.postgres = store.engine.dialect.name == "postgresql"
        self._lock = threading.Lock()
        self._watched: dict[str, _Watched] = {}
        self._someone = threading.Condition(self._lock)   # wakes the idle thread
        self._thread: threading.Thread | None = None
        self._thread_pid: int | None = None
        self.checks = 0            # version reads done by the thread (tests look at it)
        self.listening = threading.Event()   # PostgreSQL: LISTEN is in place
        self._stopped = threading.Event()
        store.listeners.append(self.publish)

    # ---- for the streams
    def watch(self, play_id: str) -> Watch:
        """Start watching; read the play's version AFTER this, then ``seen`` it: no change
        can slip between the read and the subscription."""
        self._ensure_thread()
        with self._lock:
            entry = self._watched.get(play_id)
            if entry is None:
                entry = self._watched[play_id] = _Watched(self._lock)
            entry.watchers += 1
            self._someone.notify()
        return Watch(self, play_id, entry)

    def _unwatch(self, watch: Watch) -> None:
        with self._lock:
            if watch.closed:
                return
            watch.closed = True
            entry = self._watched.get(watch.play_id)
            if entry is not None:
                entry.watchers -= 1
                if entry.watchers <= 0:
                    del self._watched[watch.play_id]

    def watchers(self) -> int:
        with self._lock:
            return sum(e.watchers for e in self._watched.values())

    # ---- from writers and from the thread
    def publish(self, play_id: str, version: int) -> None:
        """The play is now at ``version`` (versions only grow): wake its waiters."""
        with self._lock:
            entry = self._watched.get(play_id)
            if entry is not None and version > entry.version:
                entry.version = version
                entry.changed.notify_all()

    def _vanished(self, play_id: str) -> None:
        with self._lock:
            entry = self._watched.get(play_id)
            if entry is not None and not entry.gone:
                entry.gone = True
                entry.changed.notify_all()

    # ---- the one background thread
    def _ensure_thread(self) -> None:
        pid = os.getpid()
        with self._lock:
            alive = self._thread is not None and self._thread.is_alive()
            if alive and self._thread_pid == pid:
                return
            self._thread_pid = pid    # a forked child starts its own
            self._thread = threading.Thread(target=self._run, name="play-notifier", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """End the background thread (tests, before their database is dropped)."""
        self._stopped.set()
        with self._lock:
            self._someone.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(TICK + 2)

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                self._listen() if self.postgres else self._poll()
            except Exception:   # the database went away: never let the thread die
                self.listening.clear()
                if self._stopped.is_set():
                    return
                log.warning("play notifier: database unavailable, retrying", exc_info=True)
                self._stopped.wait(RECONNECT_PAUSE)

    def _watched_ids(self, block: bool) -> list[str]:
        with self._lock:
            while block and not self._watched and not self._stopped.is_set():
                self._someone.wait()
            return list(self._watched)

    def _check(self, ids: list[str]) -> None:
        if not ids:
            return
        versions = self.store.play_versions(ids)
        self.checks += 1
        for play_id in ids:
            if play_id in versions:
                self.publish(play_id, versions[play_id])
            else:
                self._vanished(play_id)

    def _poll(self) -> None:
        while not self._stopped.is_set():
            self._check(self._watched_ids(block=True))
            self._stopped.wait(self.poll_interval)

    def _listen(self) -> None:
        import psycopg

        engine = self.store.engine
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        with psycopg.connect(*args, **kwargs, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self.listening.set()
            next_check = 0.0
            while not self._stopped.is_set():
                if time.monotonic() >= next_check:
                    self._check(self._watched_ids(block=False))   # catch up, then now and then
                    next_check = time.monotonic() + self.recheck_interval
                for note in conn.notifies(timeout=TICK):
                    play_id, _, version = note.payload.rpartition(":")
                    if version.isdigit():
                        self.publish(play_id, int(version))
