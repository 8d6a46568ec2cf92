"""`companion restore FILE`: a backup into an empty database, checked whole before anything
of the target database is touched.

1. The file: readable to its end, a North Sea Companion backup, and its last line the keyed
   digest (HMAC-SHA256 with this installation's backup key) of every byte before it. A file
   changed, cut off or signed with another key is refused here.
2. Its rows go into a scratch SQLite database at the backup's schema (a temporary folder
   readable by this user alone), each value of its column's type, keys and foreign keys on: a
   repeated row or an event of no play is refused with its line number. The scratch database
   is then upgraded to the newest schema.
3. Every row is checked as the app would use it (companion.restore_checks).
4. Only then is the target database built (its schema) and filled with the checked rows in
   one transaction.

Every refusal is a BackupError with a sentence: `companion restore` exits 2 and writes nothing.
"""
from __future__ import annotations

import datetime as dt
import gzip
import hmac
import json
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError, IntegrityError

from .backup import (
    DIGEST,
    FORMAT,
    FORMAT_VERSION,
    SKIP_TABLES,
    BackupError,
    decode,
    is_json,
    key_id,
    new_mac,
    tables_of,
)
from .migrate import MigrationError, alembic_config, upgrade

CHUNK = 1000
UNSIGNED_VERSION = 1     # format 1 had no digest: restored only when asked to


# --------------------------------------------------------------------------- the file
def read_lines(path: Path, key: bytes, *, accept_unsigned: bool = False
               ) -> Iterator[tuple[int, dict]]:
    """(line number, line) for every line up to the row counts; after the last one, the
    digest is checked (a BackupError when the file was changed, cut off or signed with
    another key). Streams: the file is never held in memory whole."""
    mac = new_mac(key)
    header: dict | None = None
    pending: tuple[int, bytes] | None = None
    try:
        with gzip.open(path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                if pending is not None:
                    mac.update(pending[1])
                    yield pending[0], _parse(*pending)
                if number == 1:
                    header = check_header(_parse(number, raw), key, accept_unsigned)
                pending = (number, raw)
    except gzip.BadGzipFile as err:
        raise BackupError(f"The file is not a readable backup ({err}); nothing was "
                          "restored.") from err
    except (EOFError, zlib.error) as err:
        raise BackupError("The backup file is incomplete (cut off while it was written or "
                          "copied); nothing was restored.") from err
    except OSError as err:
        raise BackupError(f"The file is not a readable backup: {err}") from err
    if pending is None or header is None:
        raise BackupError("The file is empty: it is not a backup; nothing was restored.")
    last = _parse(*pending)
    if header["format_version"] == UNSIGNED_VERSION:
        mac.update(pending[1])
        yield pending[0], last
        return
    _check_digest(header, last, mac, key)


def _parse(number: int, raw: bytes) -> dict:
    try:
        line = json.loads(raw)
    except ValueError as err:
        raise BackupError(f"Line {number} of the backup is damaged; nothing was "
                          "restored.") from err
    if not isinstance(line, dict):
        raise BackupError(f"Line {number} of the backup is damaged; nothing was restored.")
    return line


def check_header(header: dict, key: bytes, accept_unsigned: bool) -> dict:
    if header.get("format") != FORMAT or not isinstance(header.get("revision"), str):
        raise BackupError("This file is not a North Sea Companion backup.")
    version = header.get("format_version")
    if version == UNSIGNED_VERSION and not accept_unsigned:
        raise BackupError(
            "This backup was written before backups carried a digest, so a change made to it "
            "since cannot be seen. Restore it only if it never left your hands: "
            "`companion restore --accept-unsigned FILE`. Nothing was restored.")
    if version not in (UNSIGNED_VERSION, FORMAT_VERSION):
        raise BackupError(f"Only backup format versions {UNSIGNED_VERSION} and "
                          f"{FORMAT_VERSION} can be read (this one is {version!r}).")
    return header


def _check_digest(header: dict, last: dict, mac, key: bytes) -> None:
    if set(last) != {DIGEST}:
        raise BackupError("The backup file is incomplete (it ends before its digest: cut off "
                          "while it was written or copied); nothing was restored.")
    if header.get("key_id") != key_id(key):
        raise BackupError(
            "The backup was written by an installation with another backup key. Copy that "
            "installation's instance/backup_key here (or name it with --key-file) and try "
            "again; nothing was restored.")
    if not isinstance(last[DIGEST], str) or \
            not hmac.compare_digest(last[DIGEST], mac.hexdigest()):
        raise BackupError("The backup was changed after it was written (its digest does not "
                          "match); nothing was restored.")


def read_header(path: Path, key: bytes, accept_unsigned: bool = False) -> dict:
    """The header of a backup whose every line and digest check out (one pass, nothing
    kept): a changed file is refused before any of its rows is looked at."""
    header = None
    for number, line in read_lines(path, key, accept_unsigned=accept_unsigned):
        if number == 1:
            header = line
    return header


# --------------------------------------------------------------------------- restore
def restore_backup(url: str, path: Path, *, key: bytes, version_locations=None,
                   accept_unsigned: bool = False) -> dict:
    """Restore ``path`` into the empty database at ``url``; returns the row counts. Nothing
    is written to ``url`` unless every check passed."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    path = Path(path)
    header = read_header(path, key, accept_unsigned)
    check_empty(url)
    try:
        ScriptDirectory.from_config(alembic_config(version_locations)).get_revision(
            header["revision"])
    except (CommandError, KeyError) as err:
        raise BackupError(f"The backup comes from a newer version of the app (schema "
                          f"{header['revision']}); update the app first.") from err
    with scratch_database() as scratch:
        _upgrade(scratch, header["revision"], version_locations)
        engine = scratch_engine(scratch)
        try:
            with engine.begin() as conn:
                counts = load_lines(conn, read_lines(path, key,
                                                     accept_unsigned=accept_unsigned))
        finally:
            engine.dispose()
        _upgrade(scratch, "head", version_locations)
        check_scratch(scratch)
        _upgrade(url, "head", version_locations)
        copy_rows(scratch, url)
    return counts


def _upgrade(url: str, target: str, version_locations) -> None:
    try:
        upgrade(url, target, version_locations=version_locations)
    except MigrationError as err:
        raise BackupError(f"The backup's rows do not fit together: {err}") from err


def check_scratch(url: str) -> None:
    from .restore_checks import check_database

    engine = scratch_engine(url)
    try:
        with engine.begin() as conn:
            check_database(conn)
    finally:
        engine.dispose()


def check_empty(url: str) -> None:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        names = set(sa.inspect(engine).get_table_names()) - SKIP_TABLES
        with engine.connect() as conn:
            for name in sorted(names):
                table = sa.Table(name, sa.MetaData(), autoload_with=conn)
                if conn.execute(sa.select(table).limit(1)).first() is not None:
                    raise BackupError(f"The database is not empty (table {name} has rows); "
                                      "restore only into an empty database.")
    finally:
        engine.dispose()


@contextmanager
def scratch_database() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="nsc-restore-") as folder:   # mode 0700
        yield f"sqlite:///{Path(folder) / 'scratch.db'}"


def scratch_engine(url: str) -> sa.Engine:
    """SQLite with foreign keys on and real transactions (SAVEPOINTs work); no fsync (a
    scratch copy that is thrown away)."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)

    @sa_event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None
        for pragma in ("foreign_keys=ON", "synchronous=OFF", "journal_mode=MEMORY"):
            dbapi_conn.execute(f"PRAGMA {pragma}")

    @sa_event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN")

    return engine


# --------------------------------------------------------------------------- rows
def load_lines(conn, lines: Iterator[tuple[int, dict]]) -> dict:
    """The backup's rows into the scratch database, each checked against its column; returns
    the counts (refused when they differ from the file's own)."""
    meta = sa.MetaData()
    meta.reflect(bind=conn)
    counts: dict[str, int] = {}
    table, columns, batch, ended = None, [], [], None
    for number, line in lines:
        if number == 1:
            continue
        if ended is not None:
            raise BackupError(f"Line {number} of the backup comes after its end; nothing "
                              "was restored.")
        if "table" in line:
            _flush(conn, table, batch, counts)
            table, columns = _table_of(meta, line, number, counts)
        elif "row" in line:
            if table is None:
                raise BackupError(f"Line {number} of the backup is a row of no table.")
            batch.append((number, _row(table, columns, line["row"], number)))
            if len(batch) >= CHUNK:
                _flush(conn, table, batch, counts)
        elif line.get("end"):
            _flush(conn, table, batch, counts)
            ended = line.get("counts")
        else:
            raise BackupError(f"Line {number} of the backup is damaged; nothing was restored.")
    if ended != counts:
        raise BackupError("The backup file is incomplete (its rows do not add up to the "
                          "counts at its end); nothing was restored.")
    return counts


def _table_of(meta: sa.MetaData, line: dict, number: int, counts: dict):
    table = meta.tables.get(line["table"]) if isinstance(line["table"], str) else None
    if table is None or table.name in SKIP_TABLES:
        raise BackupError(f"The backup has a table this schema lacks: {line['table']!r}.")
    if table.name in counts:
        raise BackupError(f"Line {number} of the backup starts table {table.name} a second "
                          "time; nothing was restored.")
    names = line.get("columns")
    if not isinstance(names, list) or set(names) != set(table.columns.keys()) or \
            len(names) != len(set(names)):
        raise BackupError(f"Line {number} of the backup lists other columns than table "
                          f"{table.name} has; nothing was restored.")
    counts[table.name] = 0
    return table, [table.c[n] for n in names]


def _row(table: sa.Table, columns: list, values, number: int) -> dict:
    if not isinstance(values, list) or len(values) != len(columns):
        raise BackupError(f"Line {number} of the backup (a row of {table.name}) has "
                          f"{len(values) if isinstance(values, list) else 'no'} values for "
                          f"{len(columns)} columns; nothing was restored.")
    row = {}
    for column, value in zip(columns, values, strict=True):
        value = decode(value, is_json(column))
        problem = _type_problem(column, value)
        if problem:
            raise BackupError(f"Line {number} of the backup: {table.name}.{column.name} "
                              f"{problem}; nothing was restored.")
        row[column.name] = value
    return row


def _type_problem(column, value) -> str | None:
    """What is wrong with ``value`` for ``column`` (the database's own type), or None."""
    kind = column.type
    if value is None:
        return None if column.nullable else "must have a value"
    if isinstance(kind, sa.Boolean):
        return None if isinstance(value, bool) else "must be true or false"
    if isinstance(kind, sa.Integer):
        ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63
        return None if ok else "must be a whole number"
    if isinstance(kind, sa.String):
        if not isinstance(value, str):
            return "must be text"
        return None if kind.length is None or len(value) <= kind.length else \
            f"is longer than {kind.length} characters"
    if isinstance(kind, sa.DateTime):
        return None if isinstance(value, dt.datetime) else "must be a time"
    if isinstance(kind, sa.LargeBinary):
        return None if isinstance(value, bytes) else "must be bytes"
    return None


def _flush(conn, table, batch: list, counts: dict) -> None:
    """Insert a batch; when the database refuses it, find the row and say which line."""
    if table is None or not batch:
        batch.clear()
        return
    try:
        with conn.begin_nested():
            conn.execute(table.insert(), [row for _, row in batch])
    except IntegrityError:
        for number, row in batch:
            try:
                with conn.begin_nested():
                    conn.execute(table.insert(), row)
            except IntegrityError as err:
                raise BackupError(f"Line {number} of the backup (a row of {table.name}) "
                                  f"{_why(err)}; nothing was restored.") from None
        raise
    counts[table.name] += len(batch)
    batch.clear()


def _why(err: IntegrityError) -> str:
    text = str(err.orig)
    if "UNIQUE" in text or "PRIMARY KEY" in text:
        return "repeats a row that is already in it"
    if "FOREIGN KEY" in text:
        return "belongs to a play or game that is not in it"
    return f"breaks a rule of the database ({text})"


# --------------------------------------------------------------------------- the target
def copy_rows(scratch: str, url: str) -> None:
    """The checked rows into the target (at the newest schema), in one transaction."""
    source = sa.create_engine(scratch, poolclass=sa.pool.NullPool)
    target = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with source.connect() as src, target.begin() as dst:
            meta = sa.MetaData()
            meta.reflect(bind=dst)
            for table in tables_of(src):
                into = meta.tables[table.name]
                order = list(table.primary_key.columns) or list(table.columns)
                result = src.execute(sa.select(table).order_by(*order))
                while chunk := result.fetchmany(CHUNK):
                    dst.execute(into.insert(), [
                        {k: _portable(v) for k, v in r._mapping.items()} for r in chunk])
            if dst.dialect.name == "postgresql":
                _advance_sequences(dst, meta)
    except DBAPIError as err:
        raise BackupError(f"The database could not be written ({err.orig}); nothing was "
                          "restored.") from err
    finally:
        source.dispose()
        target.dispose()


def _portable(value):
    """SQLite hands times back without their zone: they were stored as UTC."""
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        return value.replace(tzinfo=dt.UTC)
    return value


def _advance_sequences(conn, meta: sa.MetaData) -> None:
    """Rows came with their ids: move each serial counter past the largest one."""
    for table in meta.sorted_tables:
        for column in table.primary_key.columns:
            if not isinstance(column.type, sa.Integer):
                continue
            sequence = conn.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                                    {"t": table.name, "c": column.name}).scalar()
            if sequence:
                conn.execute(sa.text(
                    f'SELECT setval(:s, COALESCE((SELECT MAX("{column.name}") FROM '
                    f'"{table.name}"), 0) + 1, false)'), {"s": sequence})
