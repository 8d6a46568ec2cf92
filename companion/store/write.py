"""One write transaction on one play: its idempotency keys, its append or head move, its
snapshots, and the version bump that refuses a stale writer (Conflict)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy as sa

from .raw import dbapi
from .tables import (
    BUMP_PLAY,
    BUMP_PLAY_APPEND_NOTIFY,
    BUMP_PLAY_NOTIFY,
    INSERT_EVENT,
    KEY_LIFETIME,
    PlayRow,
    events,
    idempotency_keys,
    now,
    play_snapshots,
    plays,
)

if TYPE_CHECKING:
    from . import Store


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
        prepared = self.store.prepared      # (companion/store/raw.py), None: Core's execution
        if self.conn.dialect.name == "postgresql":
            params["b_payload"] = f"{play.id}:{play.version + 1}"
            if event is not None:
                params.update({f"e_{k}": v for k, v in event.items()})
            if prepared is not None:
                statement = prepared.bump_play if event is None else prepared.bump_play_append
                bumped = len(statement.run(dbapi(self.conn), params).fetchall())
            else:
                statement = BUMP_PLAY_NOTIFY if event is None else BUMP_PLAY_APPEND_NOTIFY
                bumped = len(self.conn.execute(statement, params).all())
        elif prepared is not None:   # SQLite
            raw = dbapi(self.conn)
            bumped = prepared.bump_play.run(raw, params).rowcount
            if event is not None and bumped == 1:
                prepared.insert_event.run(raw, event)
        else:
            bumped = self.conn.execute(BUMP_PLAY, params).rowcount
            if event is not None and bumped == 1:
                self.conn.execute(INSERT_EVENT, event)
        if bumped != 1:
            current = self.conn.execute(sa.select(plays.c.version)
                                        .where(plays.c.id == play.id)).scalar()
            raise Conflict(current if current is not None else play.version)
        self.version = play.version + 1
