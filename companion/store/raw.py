"""The statements of an event's write on SQLite's own DB-API connection.

SQLAlchemy Core compiles them once, and its own type conversions (JSON, dates, booleans) turn
the values into what SQLite stores and back, so a row is written and read exactly as Core
would; only Core's per-statement execution machinery is left out. That machinery cost about
ten times what SQLite spends running the statements of an event (docs/benchmarks.md). A
driver error is raised as SQLAlchemy's own exception, as Core raises it (the app answers a
locked or failing database with its 503)."""
from __future__ import annotations

from collections.abc import Mapping

import sqlalchemy as sa

from .tables import APPENDED_COLUMNS, BUMP_PLAY, INSERT_EVENT, LOCK_PLAY


def dbapi(conn: sa.Connection):
    """The DB-API connection under a Core connection (the transaction is the same)."""
    return conn.connection.dbapi_connection


class Prepared:
    """One statement compiled for ``dialect`` (a "qmark" one: SQLite's)."""

    def __init__(self, statement, dialect, column_keys=None):
        compiled = statement.compile(dialect=dialect, column_keys=column_keys)
        self.sql = compiled.string
        self._dialect = dialect
        self._params = [(name, _processor(compiled.binds[name].type, dialect, "bind"))
                        for name in compiled.positiontup]
        columns = statement.selected_columns if isinstance(statement, sa.Select) else ()
        self._columns = [(c.key, _processor(c.type, dialect, "result")) for c in columns]

    def run(self, raw, values: Mapping):
        """The cursor after running the statement on ``raw`` (the DB-API connection)."""
        params = tuple(values[name] if convert is None else convert(values[name])
                       for name, convert in self._params)
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
    """What every event's write runs: the play's locked read, the version bump, the insert."""

    def __init__(self, dialect):
        self.lock_play = Prepared(LOCK_PLAY, dialect)
        self.bump_play = Prepared(BUMP_PLAY, dialect)
        self.insert_event = Prepared(INSERT_EVENT, dialect, column_keys=list(APPENDED_COLUMNS))
