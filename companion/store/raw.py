"""The statements of an event's write on the DB-API connection (sqlite3's, psycopg's).

SQLAlchemy Core compiles them once, and its own type conversions (JSON, dates, booleans) turn
the values into what the database stores and back, so a row is written and read exactly as
Core would; only Core's per-statement execution machinery is left out. On SQLite that
machinery cost about ten times what SQLite spends running the statements of an event, on
PostgreSQL about as much as psycopg's own work (docs/benchmarks.md). A driver error is raised
as SQLAlchemy's own exception, as Core raises it (the app answers a locked, failing or
unreachable database with its 503); the transaction, its commit or rollback and a broken
connection's invalidation stay Core's."""
from __future__ import annotations

import pickle
from collections.abc import Mapping

import sqlalchemy as sa

from .tables import (
    APPENDED_COLUMNS,
    BUMP_PLAY,
    BUMP_PLAY_APPEND_NOTIFY,
    BUMP_PLAY_NOTIFY,
    INSERT_EVENT,
    LOCK_PLAY,
)


def dbapi(conn: sa.Connection):
    """The DB-API connection under a Core connection (the transaction is the same)."""
    return conn.connection.dbapi_connection


_GIVEN = object()    # a parameter whose value the caller gives (not the statement's own)


class Prepared:
    """One statement compiled for ``dialect``: positional parameters (SQLite's "qmark") or
    named ones (psycopg's "pyformat"). A parameter the caller does not give takes the value
    the statement carries for it (pg_notify's channel name), as Core's own execution does."""

    def __init__(self, statement, dialect, column_keys=None):
        compiled = statement.compile(dialect=dialect, column_keys=column_keys)
        self.sql = compiled.string
        self._dialect = dialect
        self._positional = compiled.positional
        names = compiled.positiontup if compiled.positional else [
            name for name in compiled.binds if f"%({name})s" in self.sql]
        self._names = list(names)
        self._params = []    # (name, its conversion, the statement's own value or _GIVEN)
        for name in self._names:
            bind = compiled.binds[name]
            convert = _processor(bind.type, dialect, "bind")
            own = _GIVEN if bind.required else (
                bind.value if convert is None else convert(bind.value))
            self._params.append((name, convert, own))
        columns = statement.selected_columns if isinstance(statement, sa.Select) else ()
        self._columns = [(c.key, _processor(c.type, dialect, "result")) for c in columns]

    def params(self, values: Mapping) -> tuple | dict:
        """``values`` as the statement's parameters (a tuple, or a dict of named ones),
        converted as Core converts them."""
        given = [(values[name] if convert is None else convert(values[name]))
                 if own is _GIVEN or name in values else own
                 for name, convert, own in self._params]
        return tuple(given) if self._positional else dict(zip(self._names, given, strict=True))

    def run(self, raw, values: Mapping):
        """The cursor after running the statement on ``raw`` (the DB-API connection)."""
        return self.run_many(raw, [self.params(values)], many=False)

    def run_many(self, raw, rows: list, many: bool = True):
        """Run the statement on ``raw`` once for each row of parameters (``params``)."""
        try:
            return raw.executemany(self.sql, rows) if many else raw.execute(self.sql, rows[0])
        except self._dialect.loaded_dbapi.Error as err:
            # a connection the server dropped is said so, as Core says it (drops.dropped)
            raise sa.exc.DBAPIError.instance(
                self.sql, rows if many else rows[0], err, self._dialect.loaded_dbapi.Error,
                connection_invalidated=self._dialect.is_disconnect(err, raw, None)) from err

    def first(self, raw, values: Mapping) -> dict | None:
        """The first row as {column: value}, converted as Core converts it, or None."""
        found = self.run(raw, values).fetchone()
        if found is None:
            return None
        return {name: value if convert is None else convert(value)
                for (name, convert), value in zip(self._columns, found, strict=True)}


def _processor(type_, dialect, kind: str):
    impl = type_.dialect_impl(dialect)
    return impl.bind_processor(dialect) if kind == "bind" else impl.result_processor(dialect,
                                                                                      None)


RAW_BATCH, CORE_BATCH = 500, 100


def event_insert(dialect, statement=INSERT_EVENT) -> Prepared:
    """An event's insert, for the columns an event's write gives."""
    return Prepared(statement, dialect, column_keys=list(APPENDED_COLUMNS))


def imported_rows(play_id: str, events: list[dict], driver: str | None) -> list[bytes]:
    """The rows of an imported log (each event {"type", "data", "at"}) for Store.import_play,
    made where the import is checked (its own process: companion/import_worker.py) and
    pickled in batches, the request's turns between them: for SQLite (``driver`` its
    SQLAlchemy name) as its DB-API takes them, converted here as Core converts them, so the
    request only hands them to SQLite (RAW_BATCH rows, about 1 ms); for any other database
    (None) as Core takes them (Core converts them in the request: CORE_BATCH rows)."""
    rows = [{"play_id": play_id, "position": i, "type": e["type"], "data": e["data"],
             "discarded": False, "created_at": e["at"], "device": None, "undoes": None}
            for i, e in enumerate(events, 1)]
    if driver is not None:
        insert = event_insert(sa.engine.make_url(f"{driver}://").get_dialect()())
        rows = [insert.params(row) for row in rows]
    per_batch = RAW_BATCH if driver is not None else CORE_BATCH
    return [pickle.dumps(rows[start:start + per_batch], pickle.HIGHEST_PROTOCOL)
            for start in range(0, len(rows), per_batch)]


class WriteStatements:
    """What every event's write runs: the play's locked read, the version bump, the insert
    (on PostgreSQL the bump notifies, and carries the insert: companion/store/tables.py)."""

    def __init__(self, dialect):
        self.lock_play = Prepared(LOCK_PLAY, dialect)
        if dialect.name == "postgresql":
            self.bump_play = Prepared(BUMP_PLAY_NOTIFY, dialect)
            self.bump_play_append = Prepared(BUMP_PLAY_APPEND_NOTIFY, dialect)
        else:
            self.bump_play = Prepared(BUMP_PLAY, dialect)
            self.insert_event = event_insert(dialect)


def write_statements(dialect) -> WriteStatements | None:
    """The prepared statements for SQLite and PostgreSQL (with psycopg); None for any other
    database, whose writes go through Core's own execution."""
    if dialect.name == "sqlite" or (dialect.name == "postgresql" and dialect.driver == "psycopg"):
        return WriteStatements(dialect)
    return None
