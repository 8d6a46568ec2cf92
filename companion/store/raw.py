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

    def run(self, raw, values: Mapping):
        """The cursor after running the statement on ``raw`` (the DB-API connection)."""
        given = [(values[name] if convert is None else convert(values[name]))
                 if own is _GIVEN or name in values else own
                 for name, convert, own in self._params]
        params = tuple(given) if self._positional else dict(zip(self._names, given, strict=True))
        try:
            return raw.execute(self.sql, params)
        except self._dialect.loaded_dbapi.Error as err:
            raise sa.exc.DBAPIError.instance(self.sql, params, err,
                                             self._dialect.loaded_dbapi.Error) from err

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
            self.insert_event = Prepared(INSERT_EVENT, dialect,
                                         column_keys=list(APPENDED_COLUMNS))


def write_statements(dialect) -> WriteStatements | None:
    """The prepared statements for SQLite and PostgreSQL (with psycopg); None for any other
    database, whose writes go through Core's own execution."""
    if dialect.name == "sqlite" or (dialect.name == "postgresql" and dialect.driver == "psycopg"):
        return WriteStatements(dialect)
    return None
