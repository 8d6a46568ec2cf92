"""SQLAlchemy Core store: plays, their append-only events, and the box catalogue.

SQLite by default (WAL, one transaction per event), any SQLAlchemy URL (PostgreSQL included).
A write happens in one transaction that holds the play's row lock (PostgreSQL ``SELECT ...
FOR UPDATE``, SQLite ``BEGIN IMMEDIATE``): read the version, apply, append, bump. So writes
of one play queue up instead of failing, and a writer that names the version it saw
(``expected_version``) is told when the play moved on, never overwriting anything unseen.
"""
from __future__ import annotations

import datetime as dt
import fcntl
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event as sa_event

# the clock's pause and resume: kept by an undo, never taken back by one (companion.undo)
from .clock import EVENTS as CLOCK_EVENTS
from .games.messages import from_data, to_data

metadata = sa.MetaData()


class SaidJSON(sa.types.TypeDecorator):
    """JSON that keeps the core's messages (companion.games.messages) as their id and
    parameters, not only their English: a play's initial state, its snapshots, its summary."""
    impl = sa.JSON
    cache_ok = True

    def process_bind_param(self, value, dialect):
        return None if value is None else to_data(value)

    def process_result_value(self, value, dialect):
        return None if value is None else from_data(value)


plays = sa.Table(
    "plays", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("initial", SaidJSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False, default=0),
    sa.Column("head", sa.Integer, nullable=False, default=0),
    sa.Column("length", sa.Integer, nullable=False, default=0),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("summary", SaidJSON, nullable=True),
    sa.Column("edit_hash", sa.String(64), nullable=False),
    sa.Column("view_hash", sa.String(64), nullable=False),
    # one token hash per seat, in seat order (companion.tokens.seat_token_for); NULL for a
    # play made before seats existed (it has none)
    sa.Column("seat_hashes", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_plays_updated_at", "updated_at"),
)

events = sa.Table(
    "events", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("play_id", sa.String(32), sa.ForeignKey("plays.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("type", sa.String(40), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("discarded", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # the phone that made the change (its X-Device-Id), for "undo my last change"
    sa.Column("device", sa.String(64), nullable=True),
    # a compensating event: the position of the event it undoes
    sa.Column("undoes", sa.Integer, nullable=True),
    sa.Index("ix_events_play_position", "play_id", "discarded", "position"),
)

# An Idempotency-Key seen with a change of a play: a repeat answers from here and records
# nothing. Written in the transaction of the change itself; kept 24 hours.
idempotency_keys = sa.Table(
    "idempotency_keys", metadata,
    sa.Column("play_id", sa.String(32), sa.ForeignKey("plays.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("key", sa.String(100), nullable=False),
    sa.Column("status", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("response", sa.LargeBinary, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # what the key was first sent with (a digest of the request): the same key with another
    # request is refused, never answered as a repeat (NULL: a key stored before migration 0005)
    sa.Column("request_digest", sa.String(64), nullable=True),
    sa.PrimaryKeyConstraint("play_id", "key", name="pk_idempotency_keys"),
)
KEY_LIFETIME = dt.timedelta(hours=24)

# The state after the first ``position`` active events, computed by the rules named by
# ``rules`` (companion/snapshots.py): a cache beside the log, rebuilt from it whenever missing.
# Snapshots above the head of a discarded branch are deleted with that branch.
play_snapshots = sa.Table(
    "play_snapshots", metadata,
    sa.Column("play_id", sa.String(32), sa.ForeignKey("plays.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("state", SaidJSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint("play_id", "position", name="pk_play_snapshots"),
)

catalogues = sa.Table(
    "catalogues", metadata,
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

catalogue_versions = sa.Table(
    "catalogue_versions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("source", sa.String(40), nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_catalogue_versions_game", "game", "id"),
)


# Built once: every request reads a play, and building a select of all its columns costs
# more than running it (a profile of recording an event on PostgreSQL showed it).
LOAD_PLAY = sa.select(plays).where(plays.c.id == sa.bindparam("play_id"))
LOCK_PLAY = LOAD_PLAY.with_for_update()
PLAY_ACCESS = (sa.select(plays.c.version, plays.c.edit_hash, plays.c.view_hash,
                          plays.c.seat_hashes)
               .where(plays.c.id == sa.bindparam("play_id")))
PLAY_VERSIONS = (sa.select(plays.c.id, plays.c.version)
                 .where(plays.c.id.in_(sa.bindparam("ids", expanding=True))))
# The write's statements, built once (building one costs more than SQLite running it).
BUMP_PLAY = (plays.update()
             .where(plays.c.id == sa.bindparam("b_id"),
                    plays.c.version == sa.bindparam("b_version"))
             .values(version=sa.bindparam("b_new_version"), head=sa.bindparam("b_head"),
                     length=sa.bindparam("b_length"), finished=sa.bindparam("b_finished"),
                     summary=sa.bindparam("b_summary", type_=plays.c.summary.type),
                     updated_at=sa.bindparam("b_stamp", type_=plays.c.updated_at.type)))
# PostgreSQL: the bump tells every listening process (companion/notify.py) in the same
# statement, so the notification goes out exactly when the change commits, never for a
# rollback, and costs no round trip of its own.
BUMP_PLAY_NOTIFY = BUMP_PLAY.returning(
    sa.func.pg_notify("play_changed", sa.bindparam("b_payload", type_=sa.String)))
INSERT_EVENT = events.insert()
EVENT_COLUMNS = ("play_id", "position", "type", "data", "discarded", "created_at", "device",
                 "undoes")
# PostgreSQL: the new event's row goes in with the bump, one statement and one round trip
# (a data-modifying WITH runs exactly once; if the bump found no row the write raises
# Conflict and the transaction, insert included, is rolled back).
BUMP_PLAY_APPEND_NOTIFY = BUMP_PLAY_NOTIFY.add_cte(
    events.insert().values({name: sa.bindparam(f"e_{name}", type_=events.c[name].type)
                            for name in EVENT_COLUMNS}).cte("appended"))
LATEST_SNAPSHOT = (sa.select(play_snapshots.c.position, play_snapshots.c.state)
                   .where(play_snapshots.c.play_id == sa.bindparam("play_id"),
                          play_snapshots.c.position <= sa.bindparam("upto"),
                          play_snapshots.c.rules == sa.bindparam("rules"))
                   .order_by(play_snapshots.c.position.desc()).limit(1))


class Conflict(Exception):
    """The play changed since the writer read it (a stale version)."""

    def __init__(self, current_version: int):
        super().__init__(f"The play is now at version {current_version}.")
        self.current_version = current_version


@dataclass(frozen=True)
class KeyRecord:
    """What a change with an Idempotency-Key answered the first time, and a digest of the
    request it came with."""
    status: int
    version: int
    response: bytes | None
    request_digest: str | None = None


@dataclass(frozen=True)
class PlayRow:
    id: str
    game: str
    initial: dict
    version: int
    head: int
    length: int
    finished: bool
    summary: dict | None
    edit_hash: str
    view_hash: str
    created_at: dt.datetime
    updated_at: dt.datetime
    seat_hashes: list | None = None

    @property
    def can_undo(self) -> bool:
        return self.head > 0

    @property
    def can_redo(self) -> bool:
        return self.head < self.length


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


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


class _Group:
    """One SQLite transaction shared by the writers that queued for it (group commit)."""

    def __init__(self, store: Store):
        self.members = 0
        self.error: BaseException | None = None
        self.committed = threading.Event()
        self._queue = store._writers_queue()
        self._queue.__enter__()
        try:
            self.conn = store.engine.connect()
            off_the_loop(self.conn.exec_driver_sql, "BEGIN IMMEDIATE")
        except BaseException:
            self._queue.__exit__(None, None, None)
            raise

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            self._queue.__exit__(None, None, None)


class Store:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
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
        # called with (play id, new version) after every committed change in this process
        self.listeners: list = []
        self.last_backup: Path | None = None

    # ---- schema
    def init_db(self, before_upgrade=None) -> str:
        """Create or upgrade the schema to the newest migration; returns the revision.
        ``before_upgrade(revision)`` backs up a database holding plays before any upgrade and
        returns the file (companion.backup.backup_before_upgrade). Migrations run with SQLite
        foreign keys off and are checked before they commit (companion.migrate)."""
        from .migrate import upgrade

        revision, self.last_backup = upgrade(self.url, before=before_upgrade)
        return revision

    # ---- plays
    def create_play(self, play_id: str, game: str, initial: dict, edit_hash: str,
                    view_hash: str, seat_hashes: list[str] | None = None) -> None:
        stamp = now()
        with self._begin() as conn:
            conn.execute(plays.insert().values(
                id=play_id, game=game, initial=initial, version=0, head=0, length=0,
                finished=bool(initial.get("finished")), summary=None, edit_hash=edit_hash,
                view_hash=view_hash, seat_hashes=seat_hashes, created_at=stamp,
                updated_at=stamp))

    def import_play(self, play_id: str, game: str, initial: dict, edit_hash: str,
                    view_hash: str, events_in_order: list[dict], *, finished: bool,
                    summary: dict | None, snapshots: dict[int, dict], rules: str,
                    seat_hashes: list[str] | None = None) -> None:
        """A new play with its whole log (each event {"type", "data", "at"}) and snapshots of
        its state ({position: state}, by the rules ``rules``), in one transaction."""
        stamp, count = now(), len(events_in_order)
        with self._begin() as conn:
            conn.execute(plays.insert().values(
                id=play_id, game=game, initial=initial, version=count, head=count,
                length=count, finished=finished, summary=summary, edit_hash=edit_hash,
                view_hash=view_hash, seat_hashes=seat_hashes, created_at=stamp,
                updated_at=stamp))
            for start in range(0, count, 1000):
                conn.execute(INSERT_EVENT, [
                    {"play_id": play_id, "position": start + i + 1, "type": e["type"],
                     "data": e["data"], "discarded": False, "created_at": e["at"],
                     "device": None, "undoes": None}
                    for i, e in enumerate(events_in_order[start:start + 1000])])
            if snapshots:
                conn.execute(play_snapshots.insert(), [
                    {"play_id": play_id, "position": position, "rules": rules, "state": state,
                     "created_at": stamp} for position, state in sorted(snapshots.items())])

    def load_play(self, play_id: str) -> PlayRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(LOAD_PLAY, {"play_id": play_id}).first()
        return PlayRow(**row._mapping) if row else None

    def play_access(self, play_id: str):
        """The cheapest read there is, for a polling phone every two seconds: the version and
        the token hashes (so nothing is answered before the token is checked), or None."""
        with self.engine.connect() as conn:
            return conn.execute(PLAY_ACCESS, {"play_id": play_id}).first()

    def play_versions(self, play_ids: list[str]) -> dict[str, int]:
        """{play id: version} of the plays that exist among ``play_ids`` (one indexed read)."""
        with self.engine.connect() as conn:
            return dict(conn.execute(PLAY_VERSIONS, {"ids": list(play_ids)}).all())

    def _changed(self, play_id: str, version: int) -> None:
        for listener in self.listeners:
            listener(play_id, version)

    def active_events(self, play_id: str, upto: int | None = None, conn=None,
                      after: int = 0) -> list[dict]:
        """The events of the current branch in order (the first ``upto`` of them; with
        ``after``, only those past that position)."""
        query = (sa.select(events.c.type, events.c.data, events.c.position,
                           events.c.created_at, events.c.device, events.c.undoes)
                 .where(events.c.play_id == play_id, events.c.discarded.is_(False))
                 .order_by(events.c.position))
        if upto is not None:
            query = query.where(events.c.position <= upto)
        if after:
            query = query.where(events.c.position > after)
        with self._reading(conn) as c:
            return [{"type": r.type, "data": r.data, "position": r.position,
                     "at": r.created_at, "device": r.device, "undoes": r.undoes}
                    for r in c.execute(query)]

    def latest_snapshot(self, play_id: str, upto: int, rules: str,
                        conn=None) -> tuple[int, dict] | None:
        """(position, state) of the play's latest snapshot at or below ``upto`` computed by
        ``rules``, or None."""
        with self._reading(conn) as c:
            found = c.execute(LATEST_SNAPSHOT, {"play_id": play_id, "upto": upto,
                                                "rules": rules}).first()
        return (found.position, found.state) if found else None

    def keep_snapshot(self, play_id: str, version: int, position: int, state: dict,
                      rules: str) -> bool:
        """Keep a snapshot computed outside a write (a cold read that replayed a long log),
        only if the play is still at ``version`` (so the branch it was computed on is the
        current one). False when the play moved on."""
        with self.writing(play_id) as write:
            if write.row is None or write.row.version != version:
                return False
            write.save_snapshot(position, state, rules)
        return True

    def undo_candidates(self, play_id: str, head: int, device: str | None, conn=None
                        ) -> list[dict]:
        """What the Undo buttons need, not the whole log (companion.undo): the head event,
        ``device``'s events, the compensating ones (with the events those undo), the clock's
        pause and resume events and the last other change, in order."""
        active = sa.and_(events.c.play_id == play_id, events.c.discarded.is_(False),
                         events.c.position <= head)
        undone = sa.select(events.c.undoes).where(active, events.c.undoes.is_not(None))
        last_change = (sa.select(sa.func.max(events.c.position))
                       .where(active, events.c.type.not_in(CLOCK_EVENTS)))
        wanted = sa.or_(events.c.position == head, events.c.undoes.is_not(None),
                        events.c.position.in_(undone.scalar_subquery()),
                        events.c.type.in_(CLOCK_EVENTS),
                        events.c.position == last_change.scalar_subquery(),
                        *([events.c.device == device] if device else []))
        query = EVENT_COLUMNS.where(active, wanted).order_by(events.c.position)
        with self._reading(conn) as c:
            return [event_of(r) for r in c.execute(query)]

    def event_after_head(self, play_id: str, head: int, conn=None) -> dict | None:
        """The first undone event past the head (what a redo of the head would put back)."""
        query = EVENT_COLUMNS.where(events.c.play_id == play_id, events.c.discarded.is_(False),
                                    events.c.position == head + 1)
        with self._reading(conn) as c:
            found = c.execute(query).first()
        return event_of(found) if found is not None else None

    @contextmanager
    def _reading(self, conn) -> Iterator:
        if conn is not None:
            yield conn
            return
        with self.engine.connect() as fresh:
            yield fresh

    @contextmanager
    def writing(self, play_id: str) -> Iterator[Write]:
        """One write transaction holding the play's row lock (None as ``row`` when there is
        no such play). Other writers of the play wait for it instead of failing."""
        with self._begin() as conn:
            found = conn.execute(LOCK_PLAY, {"play_id": play_id}).first()
            write = Write(self, conn, PlayRow(**found._mapping) if found else None)
            yield write
        if write.version is not None:
            self._changed(play_id, write.version)

    @contextmanager
    def _writers_queue(self) -> Iterator[None]:
        if self._queue_file is None:
            yield
            return
        if self._queue_fd is None:
            self._queue_fd = os.open(self._queue_file, os.O_RDWR | os.O_CREAT, 0o600)
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
            with self.engine.begin() as conn:
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
            conn.exec_driver_sql("SAVEPOINT one_writer")
        except BaseException:
            self._end_group(group, failed=True)
            raise
        try:
            yield conn
        except BaseException:
            try:
                conn.exec_driver_sql("ROLLBACK TO one_writer")
                conn.exec_driver_sql("RELEASE one_writer")
            except BaseException:
                self._end_group(group, failed=True)
                raise
            self._hand_on_or_commit(group)
            raise
        try:
            conn.exec_driver_sql("RELEASE one_writer")
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
                    group.close()
                    self._group = None
                    group.committed.set()
        finally:
            self._sqlite_writer.release()

    def append_event(self, play: PlayRow, event: dict, *, finished: bool,
                     summary: dict | None, at: dt.datetime | None = None) -> int:
        """Append after the head in a transaction of its own; returns the new version.
        Raises Conflict when the play moved on since ``play`` was read. ``at``: the event's
        time (the one the game clock counted), else now."""
        with self._begin() as conn:
            version = Write(self, conn, play).append(event, finished=finished,
                                                     summary=summary, at=at)
        self._changed(play.id, version)
        return version

    def move_head(self, play: PlayRow, head: int, *, finished: bool,
                  summary: dict | None) -> int:
        """Undo or redo: move the pointer; returns the new version."""
        with self._begin() as conn:
            version = Write(self, conn, play).move_head(head, finished=finished,
                                                        summary=summary)
        self._changed(play.id, version)
        return version

    def delete_play(self, play_id: str) -> bool:
        """Remove a play and every event of it, in one transaction; False when there was none."""
        with self._begin() as conn:
            conn.execute(play_snapshots.delete().where(play_snapshots.c.play_id == play_id))
            conn.execute(events.delete().where(events.c.play_id == play_id))
            return conn.execute(plays.delete().where(plays.c.id == play_id)).rowcount == 1

    def recent_plays(self, limit: int = 20, finished: bool | None = None,
                     game: str | None = None, ids=None) -> list[PlayRow]:
        """The most recently changed plays; ``ids``: only these (a device's own list)."""
        query = sa.select(plays).order_by(plays.c.updated_at.desc()).limit(limit)
        if ids is not None:
            query = query.where(plays.c.id.in_(list(ids)))
        if finished is not None:
            query = query.where(plays.c.finished.is_(finished))
        if game is not None:
            query = query.where(plays.c.game == game)
        with self.engine.connect() as conn:
            return [PlayRow(**r._mapping) for r in conn.execute(query)]

    # ---- box catalogue
    def get_catalogue(self, game: str) -> dict | None:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(catalogues.c.data)
                                .where(catalogues.c.game == game)).scalar()

    def put_catalogue(self, game: str, data: dict, source: str = "saved",
                      previous: dict | None = None) -> int:
        """Replace the game's box data and keep it as a new version (returns its id). The
        first save of a game also keeps ``previous`` (what was there before) as a version, so
        that first save can be undone too."""
        stamp = now()
        with self._begin() as conn:
            if previous is not None and not self._has_versions(conn, game):
                conn.execute(catalogue_versions.insert().values(
                    game=game, data=previous, source="before the first save", saved_at=stamp))
            updated = conn.execute(catalogues.update().where(catalogues.c.game == game)
                                   .values(data=data, updated_at=stamp))
            if updated.rowcount == 0:
                conn.execute(catalogues.insert().values(game=game, data=data,
                                                        updated_at=stamp))
            return conn.execute(catalogue_versions.insert().values(
                game=game, data=data, source=source[:40], saved_at=stamp)).inserted_primary_key[0]

    @staticmethod
    def _has_versions(conn, game: str) -> bool:
        return conn.execute(sa.select(catalogue_versions.c.id)
                            .where(catalogue_versions.c.game == game).limit(1)).first() is not None

    def catalogue_versions(self, game: str, limit: int = 50) -> list[dict]:
        """The kept versions of a game's box data, newest first."""
        query = (sa.select(catalogue_versions).where(catalogue_versions.c.game == game)
                 .order_by(catalogue_versions.c.id.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def catalogue_version(self, game: str, version_id: int) -> dict | None:
        if not 0 < version_id < 2**63:        # no such row (and no integer the database holds)
            return None
        query = sa.select(catalogue_versions).where(catalogue_versions.c.game == game,
                                                    catalogue_versions.c.id == version_id)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return dict(row._mapping) if row else None


EVENT_COLUMNS = sa.select(events.c.type, events.c.data, events.c.position, events.c.created_at,
                          events.c.device, events.c.undoes)


def event_of(row) -> dict:
    return {"type": row.type, "data": row.data, "position": row.position, "at": row.created_at,
            "device": row.device, "undoes": row.undoes}


class Write:
    """The steps of one write transaction on one play (see Store.writing)."""

    def __init__(self, store: Store, conn, row: PlayRow | None):
        self.store, self.conn, self.row = store, conn, row
        self.version: int | None = None     # the play's version once this write bumped it
        self.seat: int | None = None        # the seat of the phone writing (None: the host)

    def active_events(self, upto: int | None = None) -> list[dict]:
        return self.store.active_events(self.row.id, upto, conn=self.conn)

    def find_key(self, key: str) -> KeyRecord | None:
        found = self.conn.execute(
            sa.select(idempotency_keys.c.status, idempotency_keys.c.version,
                      idempotency_keys.c.response, idempotency_keys.c.request_digest)
            .where(idempotency_keys.c.play_id == self.row.id, idempotency_keys.c.key == key)
            .where(idempotency_keys.c.created_at > now() - KEY_LIFETIME)).first()
        return KeyRecord(found.status, found.version, found.response,
                         found.request_digest) if found else None

    def save_key(self, key: str, status: int, version: int, response: bytes | None,
                 request_digest: str | None = None) -> None:
        """Remember the key with this transaction's change; expired keys of the play go."""
        stamp = now()
        self.conn.execute(idempotency_keys.delete().where(
            idempotency_keys.c.play_id == self.row.id,
            idempotency_keys.c.created_at <= stamp - KEY_LIFETIME))
        self.conn.execute(idempotency_keys.insert().values(
            play_id=self.row.id, key=key, status=status, version=version, response=response,
            created_at=stamp, request_digest=request_digest))

    def append(self, event: dict, *, finished: bool, summary: dict | None,
               device: str | None = None, undoes: int | None = None,
               at: dt.datetime | None = None) -> int:
        """Append after the head (discarding an undone branch); returns the new version.
        ``at``: the event's time (the one the game clock counted), else now."""
        play, conn, stamp = self.row, self.conn, at or now()
        if play.length > play.head:
            conn.execute(events.update()
                         .where(events.c.play_id == play.id, events.c.discarded.is_(False),
                                events.c.position > play.head)
                         .values(discarded=True))
            # the snapshots of the discarded branch go with it
            conn.execute(play_snapshots.delete().where(play_snapshots.c.play_id == play.id,
                                                       play_snapshots.c.position > play.head))
        row = {"play_id": play.id, "position": play.head + 1, "type": event["type"],
               "data": event.get("data") or {}, "discarded": False, "created_at": stamp,
               "device": device, "undoes": undoes}
        self._bump(head=play.head + 1, length=play.head + 1, finished=finished,
                   summary=summary, stamp=stamp, event=row)
        return play.version + 1

    def latest_snapshot(self, upto: int, rules: str) -> tuple[int, dict] | None:
        return self.store.latest_snapshot(self.row.id, upto, rules, conn=self.conn)

    def save_snapshot(self, position: int, state: dict, rules: str) -> None:
        """Keep the state after the first ``position`` active events (replacing a snapshot
        at that position computed by other rules)."""
        self.conn.execute(play_snapshots.delete().where(
            play_snapshots.c.play_id == self.row.id, play_snapshots.c.position == position))
        self.conn.execute(play_snapshots.insert().values(
            play_id=self.row.id, position=position, rules=rules, state=state,
            created_at=now()))

    def move_head(self, head: int, *, finished: bool, summary: dict | None) -> int:
        self._bump(head=head, length=self.row.length, finished=finished, summary=summary,
                   stamp=now())
        return self.row.version + 1

    def _bump(self, *, head, length, finished, summary, stamp, event: dict | None = None) -> None:
        """Move the play to its next version (and append ``event``'s row): on PostgreSQL one
        statement that also notifies the listeners; on SQLite two (no round trips there)."""
        play = self.row
        params = {"b_id": play.id, "b_version": play.version, "b_new_version": play.version + 1,
                  "b_head": head, "b_length": length, "b_finished": finished,
                  "b_summary": summary, "b_stamp": stamp}
        if self.conn.dialect.name == "postgresql":
            params["b_payload"] = f"{play.id}:{play.version + 1}"
            if event is not None:
                params.update({f"e_{k}": v for k, v in event.items()})
            statement = BUMP_PLAY_NOTIFY if event is None else BUMP_PLAY_APPEND_NOTIFY
            bumped = len(self.conn.execute(statement, params).all())
        else:
            bumped = self.conn.execute(BUMP_PLAY, params).rowcount
            if event is not None and bumped == 1:
                self.conn.execute(INSERT_EVENT, event)
        if bumped != 1:
            current = self.conn.execute(sa.select(plays.c.version)
                                        .where(plays.c.id == play.id)).scalar()
            raise Conflict(current if current is not None else play.version)
        self.version = play.version + 1
