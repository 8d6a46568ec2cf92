"""SQLAlchemy Core store: plays, their append-only events, and the box catalogue.

SQLite by default (WAL, one transaction per event), any SQLAlchemy URL (PostgreSQL included).
A write happens in one transaction that holds the play's row lock (PostgreSQL ``SELECT ...
FOR UPDATE``, SQLite ``BEGIN IMMEDIATE``): read the version, apply, append, bump. So writes
of one play queue up instead of failing, and a writer that names the version it saw
(``expected_version``) is told when the play moved on, never overwriting anything unseen.
"""
from __future__ import annotations

import datetime as dt
import json
import pickle
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import sqlalchemy as sa

# the clock's pause and resume: kept by an undo, never taken back by one (companion.undo)
from ..clock import EVENTS as CLOCK_EVENTS
from ..games.messages import from_data
from ..state_cache import StateCache
from ..turns import in_turns
from .drops import dropped, read_again_if_dropped, verified_checkouts, write_again_if_dropped
from .engine import make_engine
from .group_commit import GroupCommit
from .raw import dbapi, event_insert
from .tables import (
    EVENT_COLUMNS,
    INSERT_EVENT,
    LATEST_SNAPSHOT,
    LOAD_PLAY,
    LOCK_PLAY,
    PLAY_ACCESS,
    PLAY_COLUMNS,
    PLAY_VERSIONS,
    PlayRow,
    catalogue_versions,
    catalogues,
    event_of,
    events,
    idempotency_keys,
    metadata,
    now,
    play_snapshots,
    plays,
)
from .write import Conflict, Write

# what many modules take from the store by its name: the play's row, a stale writer's
# Conflict, the clock and the tables (the migrations, the restore's checks, the benchmarks
# and the tests)
__all__ = ["Conflict", "PlayRow", "Store", "catalogue_versions", "catalogues", "events",
           "idempotency_keys", "metadata", "now", "play_snapshots", "plays"]


class Store(GroupCommit):
    def __init__(self, url: str):
        self.url = url
        super().__init__(url, make_engine(url))
        # called with (play id, new version) after every committed change in this process
        self.listeners: list = []
        self.last_backup: Path | None = None
        # {play id: (its initial state's stored text, that state)}: see _play_row
        self._initials = StateCache()

    # ---- schema
    def init_db(self, before_upgrade=None) -> str:
        """Create or upgrade the schema to the newest migration; returns the revision.
        ``before_upgrade(revision)`` backs up a database holding plays before any upgrade and
        returns the file (companion.backup.backup_before_upgrade). Migrations run with SQLite
        foreign keys off and are checked before they commit (companion.migrate)."""
        from ..migrate import upgrade

        revision, self.last_backup = upgrade(self.url, before=before_upgrade)
        return revision

    # ---- plays
    @write_again_if_dropped
    def create_play(self, play_id: str, game: str, initial: dict, edit_hash: str,
                    view_hash: str, seat_hashes: list[str] | None = None) -> None:
        stamp = now()
        with self._begin() as conn:
            conn.execute(plays.insert().values(
                id=play_id, game=game, initial=initial, version=0, head=0, length=0,
                finished=bool(initial.get("finished")), summary=None, edit_hash=edit_hash,
                view_hash=view_hash, seat_hashes=seat_hashes, created_at=stamp,
                updated_at=stamp))

    @write_again_if_dropped
    def import_play(self, play_id: str, game: str, initial: dict, edit_hash: str,
                    view_hash: str, batches: list[bytes], count: int, *, finished: bool,
                    summary: dict | None, snapshots: dict[int, dict], rules: str,
                    seat_hashes: list[str] | None = None) -> None:
        """A new play with its whole log of ``count`` events (``batches`` of its rows, as
        raw.imported_rows makes them for this store's ``rows_driver``) and snapshots of its
        state ({position: state}, by the rules ``rules``), in one transaction. The rows come
        made and converted: between two batches (about 1 ms each) the worker's other
        requests take their turn, and the write lock is held for little more than SQLite's
        own work."""
        stamp = now()
        with self._begin() as conn:
            conn.execute(plays.insert().values(
                id=play_id, game=game, initial=initial, version=count, head=count,
                length=count, finished=finished, summary=summary, edit_hash=edit_hash,
                view_hash=view_hash, seat_hashes=seat_hashes, created_at=stamp,
                updated_at=stamp))
            # compiled here, from the statement the rest of the store runs (a fraction of a ms)
            insert = event_insert(conn.dialect, INSERT_EVENT) if self.rows_driver else None
            for batch in in_turns(batches, 1):
                rows = pickle.loads(batch)
                if insert is not None:
                    insert.run_many(dbapi(conn), rows)
                else:
                    conn.execute(INSERT_EVENT, rows)
            if snapshots:
                conn.execute(play_snapshots.insert(), [
                    {"play_id": play_id, "position": position, "rules": rules, "state": state,
                     "created_at": stamp} for position, state in sorted(snapshots.items())])

    @property
    def rows_driver(self) -> str | None:
        """What raw.imported_rows makes an imported log's rows for: SQLite's DB-API (its
        driver's name), or Core (None: PostgreSQL's JSON goes to psycopg as its own adapter
        object, made in the request)."""
        return self.engine.url.drivername if self.engine.dialect.name == "sqlite" else None

    @read_again_if_dropped
    def load_play(self, play_id: str) -> PlayRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(LOAD_PLAY, {"play_id": play_id}).first()
        return self._play_row(row._mapping) if row else None

    def _play_row(self, values) -> PlayRow:
        """A play's row (its columns as PLAY_COLUMNS selects them), its initial state decoded
        once per play and kept: the same stored text gives the same (never changed) state.
        Decoding it on every read and write cost more than the rest of reading the row."""
        text = values["initial"]
        kept = self._initials.get(values["id"])
        if kept is None or kept[0] != text:
            kept = (text, from_data(json.loads(text)))
            self._initials.put(values["id"], kept)
        return PlayRow(**{**values, "initial": kept[1]})

    @read_again_if_dropped
    def play_access(self, play_id: str):
        """The cheapest read there is, for a polling phone every two seconds: the version and
        the token hashes (so nothing is answered before the token is checked), or None."""
        with self.engine.connect() as conn:
            return conn.execute(PLAY_ACCESS, {"play_id": play_id}).first()

    @read_again_if_dropped
    def play_versions(self, play_ids: list[str]) -> dict[str, int]:
        """{play id: version} of the plays that exist among ``play_ids`` (one indexed read)."""
        with self.engine.connect() as conn:
            return dict(conn.execute(PLAY_VERSIONS, {"ids": list(play_ids)}).all())

    def _changed(self, play_id: str, version: int) -> None:
        for listener in self.listeners:
            listener(play_id, version)

    @read_again_if_dropped
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

    @read_again_if_dropped
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

    @read_again_if_dropped
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

    @read_again_if_dropped
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
        no such play). Other writers of the play wait for it instead of failing. The lock is
        the transaction's first statement: when the server had dropped the connection it
        fails before anything was written, and is taken once more on a verified connection
        (companion/store/drops.py); a drop after it reaches the caller."""
        for last in (False, True):
            write = None
            try:
                with verified_checkouts() if last else nullcontext(), self._begin() as conn:
                    found = self._lock(conn, play_id)
                    write = Write(self, conn, self._play_row(found) if found else None)
                    yield write
                break
            except sa.exc.DBAPIError as err:
                if write is not None or last or not dropped(err):
                    raise
        if write.version is not None:
            self._changed(play_id, write.version)

    def _lock(self, conn, play_id: str):
        """The play's row, locked for this transaction (None: no such play)."""
        try:
            if self.prepared is not None:    # SQLite, PostgreSQL (companion/store/raw.py)
                return self.prepared.lock_play.first(dbapi(conn), {"play_id": play_id})
            row = conn.execute(LOCK_PLAY, {"play_id": play_id}).first()
            return row._mapping if row is not None else None
        except sa.exc.DBAPIError as err:
            if dropped(err) and not conn.invalidated and self._sqlite_writer is None:
                conn.invalidate(err)     # (Core's own execution has done so already)
            raise

    @write_again_if_dropped
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

    @write_again_if_dropped
    def move_head(self, play: PlayRow, head: int, *, finished: bool,
                  summary: dict | None) -> int:
        """Undo or redo: move the pointer; returns the new version."""
        with self._begin() as conn:
            version = Write(self, conn, play).move_head(head, finished=finished,
                                                        summary=summary)
        self._changed(play.id, version)
        return version

    @write_again_if_dropped
    def delete_play(self, play_id: str) -> bool:
        """Remove a play and every event of it, in one transaction; False when there was none."""
        with self._begin() as conn:
            conn.execute(play_snapshots.delete().where(play_snapshots.c.play_id == play_id))
            conn.execute(events.delete().where(events.c.play_id == play_id))
            return conn.execute(plays.delete().where(plays.c.id == play_id)).rowcount == 1

    @read_again_if_dropped
    def recent_plays(self, limit: int = 20, finished: bool | None = None,
                     game: str | None = None, ids=None) -> list[PlayRow]:
        """The most recently changed plays; ``ids``: only these (a device's own list)."""
        query = sa.select(*PLAY_COLUMNS).order_by(plays.c.updated_at.desc()).limit(limit)
        if ids is not None:
            query = query.where(plays.c.id.in_(list(ids)))
        if finished is not None:
            query = query.where(plays.c.finished.is_(finished))
        if game is not None:
            query = query.where(plays.c.game == game)
        with self.engine.connect() as conn:
            return [self._play_row(r._mapping) for r in conn.execute(query)]

    # ---- box catalogue
    @read_again_if_dropped
    def get_catalogue(self, game: str) -> dict | None:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(catalogues.c.data)
                                .where(catalogues.c.game == game)).scalar()

    @write_again_if_dropped
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

    @read_again_if_dropped
    def catalogue_versions(self, game: str, limit: int = 50) -> list[dict]:
        """The kept versions of a game's box data, newest first."""
        query = (sa.select(catalogue_versions).where(catalogue_versions.c.game == game)
                 .order_by(catalogue_versions.c.id.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    @read_again_if_dropped
    def catalogue_version(self, game: str, version_id: int) -> dict | None:
        if not 0 < version_id < 2**63:        # no such row (and no integer the database holds)
            return None
        query = sa.select(catalogue_versions).where(catalogue_versions.c.game == game,
                                                    catalogue_versions.c.id == version_id)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return dict(row._mapping) if row else None
