"""The store's tables, the row shapes read from them and the statements built once.

The schema itself (companion/migrations makes the database match it), a play's row as the
store answers it (PlayRow), and the statements every request runs, built at import.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa

from ..games.messages import from_data, to_data

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
# A play's row with its initial state as the JSON text stored: the store decodes that once per
# play (Store._play_row), not on every read and write of the play (a write needs the version;
# the state comes from the service's cache). CAST, so PostgreSQL's driver answers text too.
PLAY_COLUMNS = tuple(sa.cast(c, sa.Text).label("initial") if c.name == "initial" else c
                     for c in plays.c)
LOAD_PLAY = sa.select(*PLAY_COLUMNS).where(plays.c.id == sa.bindparam("play_id"))
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
APPENDED_COLUMNS = ("play_id", "position", "type", "data", "discarded", "created_at",
                    "device", "undoes")
# PostgreSQL: the new event's row goes in with the bump, one statement and one round trip
# (a data-modifying WITH runs exactly once; if the bump found no row the write raises
# Conflict and the transaction, insert included, is rolled back).
BUMP_PLAY_APPEND_NOTIFY = BUMP_PLAY_NOTIFY.add_cte(
    events.insert().values({name: sa.bindparam(f"e_{name}", type_=events.c[name].type)
                            for name in APPENDED_COLUMNS}).cte("appended"))
LATEST_SNAPSHOT = (sa.select(play_snapshots.c.position, play_snapshots.c.state)
                   .where(play_snapshots.c.play_id == sa.bindparam("play_id"),
                          play_snapshots.c.position <= sa.bindparam("upto"),
                          play_snapshots.c.rules == sa.bindparam("rules"))
                   .order_by(play_snapshots.c.position.desc()).limit(1))
# What the undo buttons and a redo read of an event (Store.undo_candidates, event_after_head).
EVENT_COLUMNS = sa.select(events.c.type, events.c.data, events.c.position, events.c.created_at,
                          events.c.device, events.c.undoes)


def event_of(row) -> dict:
    return {"type": row.type, "data": row.data, "position": row.position, "at": row.created_at,
            "device": row.device, "undoes": row.undoes}


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
