"""The whole database in one portable file, and back: `companion backup` / `companion restore`.

The file is gzip-compressed JSON lines: a header (format, schema revision), then for every table
its columns and its rows exactly as stored (play ids, token hashes, events, box data: every
link and QR code keeps working), then a closing line with the row counts, so a cut-off file is
refused instead of half restored. The same file restores into an empty SQLite or PostgreSQL
database, which is how a club moves from one to the other.

Consistent while serving: SQLite is first copied with its online backup API and the copy is
read; PostgreSQL is read in one REPEATABLE READ transaction.
"""
from __future__ import annotations

import base64
import datetime as dt
import decimal
import gzip
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

FORMAT = "north-sea-companion-backup"
FORMAT_VERSION = 1
SKIP_TABLES = {"alembic_version"}
CHUNK = 1000


class BackupError(Exception):
    """A backup or restore that cannot go ahead; the message says why (nothing was changed)."""


# --------------------------------------------------------------------------- values
def _encode(value, is_json: bool):
    if is_json or value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return {"$datetime": value.astimezone(dt.UTC).isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, decimal.Decimal):
        return {"$decimal": str(value)}
    raise BackupError(f"Cannot write a value of type {type(value).__name__} to a backup.")


def _decode(value, is_json: bool):
    if is_json or not isinstance(value, dict) or len(value) != 1:
        return value
    (tag, text), = value.items()
    if tag == "$datetime":
        return dt.datetime.fromisoformat(text)
    if tag == "$date":
        return dt.date.fromisoformat(text)
    if tag == "$bytes":
        return base64.b64decode(text)
    if tag == "$decimal":
        return decimal.Decimal(text)
    return value


def _is_json(column) -> bool:
    return isinstance(column.type, sa.JSON)


# --------------------------------------------------------------------------- backup
def _sqlite_path(url: str) -> str | None:
    parsed = sa.engine.make_url(url)
    return parsed.database if parsed.database not in (None, "", ":memory:") else None


@contextmanager
def _snapshot(url: str) -> Iterator[sa.Connection]:
    """A connection that sees one consistent moment of the database."""
    if url.startswith("sqlite"):
        path = _sqlite_path(url)
        if path is None:
            raise BackupError("An in-memory database cannot be backed up.")
        if not Path(path).exists():
            raise BackupError(f"There is no database at {path}.")
        folder = Path(path).parent
        fd, copy = tempfile.mkstemp(prefix=".backup-", suffix=".db", dir=folder)
        os.close(fd)
        try:
            source = sqlite3.connect(path, timeout=30)
            target = sqlite3.connect(copy)
            try:
                source.backup(target)     # the online backup API: safe while serving
            finally:
                target.close()
                source.close()
            engine = sa.create_engine(f"sqlite:///{copy}", poolclass=sa.pool.NullPool)
            try:
                with engine.connect() as conn:
                    yield conn
            finally:
                engine.dispose()
        finally:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(copy + suffix).unlink(missing_ok=True)
        return
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool,
                              isolation_level="REPEATABLE READ")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            yield conn
    finally:
        engine.dispose()


def _tables(conn) -> list[sa.Table]:
    meta = sa.MetaData()
    meta.reflect(bind=conn)
    return [t for t in meta.sorted_tables if t.name not in SKIP_TABLES]


def _revision(conn) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def dump_lines(conn) -> Iterator[dict]:
    revision = _revision(conn)
    if revision is None:
        raise BackupError("The database has no schema yet (run `companion init-db`).")
    yield {"format": FORMAT, "format_version": FORMAT_VERSION, "revision": revision,
           "engine": conn.dialect.name,
           "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
    counts = {}
    for table in _tables(conn):
        columns = list(table.columns)
        json_cols = [_is_json(c) for c in columns]
        yield {"table": table.name, "columns": [c.name for c in columns]}
        order = list(table.primary_key.columns) or columns
        count = 0
        for row in conn.execute(sa.select(table).order_by(*order)):
            yield {"row": [_encode(v, j) for v, j in zip(row, json_cols, strict=True)]}
            count += 1
        counts[table.name] = count
    yield {"end": True, "counts": counts}


def write_backup(url: str, path: Path) -> dict:
    """Write the whole database to ``path`` (atomically, mode 0600); returns the row counts."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.partial")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    counts = {}
    try:
        with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as out, \
                _snapshot(url) as conn:
            for line in dump_lines(conn):
                out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":"))
                          .encode() + b"\n")
                if line.get("end"):
                    counts = line["counts"]
            out.flush()
        with open(tmp, "rb") as synced:
            os.fsync(synced.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return counts


# --------------------------------------------------------------------------- restore
def read_lines(path: Path) -> Iterator[dict]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for number, text in enumerate(handle, 1):
                try:
                    yield json.loads(text)
                except ValueError as err:
                    raise BackupError(f"Line {number} of the backup is damaged.") from err
    except (OSError, EOFError) as err:
        raise BackupError(f"The file is not a readable backup: {err}") from err


def read_header(path: Path) -> dict:
    header = next(iter(read_lines(path)), None)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError("This file is not a North Sea Companion backup.")
    if header.get("format_version") != FORMAT_VERSION:
        raise BackupError(f"Only backup format version {FORMAT_VERSION} can be read.")
    return header


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


def restore_backup(url: str, path: Path, *, version_locations=None) -> dict:
    """Restore ``path`` into the empty database at ``url``; returns the row counts. The schema
    is built at the backup's revision, filled, then upgraded to the newest one."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from .migrate import alembic_config, upgrade

    header = read_header(Path(path))
    check_empty(url)
    cfg = alembic_config(version_locations)
    try:
        ScriptDirectory.from_config(cfg).get_revision(header["revision"])
    except (CommandError, KeyError) as err:
        raise BackupError(f"The backup comes from a newer version of the app (schema "
                          f"{header['revision']}); update the app first.") from err
    upgrade(url, header["revision"], version_locations=version_locations)
    counts = _load_rows(url, Path(path))
    upgrade(url, "head", version_locations=version_locations)
    return counts


def _load_rows(url: str, path: Path) -> dict:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    counts: dict[str, int] = {}
    try:
        with engine.begin() as conn:
            meta = sa.MetaData()
            meta.reflect(bind=conn)
            table, names, json_cols, batch, ended = None, [], [], [], None
            lines = read_lines(path)
            next(lines)   # the header, checked before
            for line in lines:
                if "table" in line:
                    _flush(conn, table, batch, counts)
                    table = meta.tables.get(line["table"])
                    if table is None:
                        raise BackupError(f"The backup has a table this schema lacks: "
                                          f"{line['table']}.")
                    names = line["columns"]
                    json_cols = [_is_json(table.c[n]) for n in names]
                    counts[table.name] = 0
                elif "row" in line:
                    batch.append({n: _decode(v, j) for n, v, j
                                  in zip(names, line["row"], json_cols, strict=True)})
                    if len(batch) >= CHUNK:
                        _flush(conn, table, batch, counts)
                elif line.get("end"):
                    _flush(conn, table, batch, counts)
                    ended = line["counts"]
            if ended != counts:
                raise BackupError("The backup file is incomplete (cut off while it was "
                                  "written); nothing was restored.")
            if conn.dialect.name == "postgresql":
                _advance_sequences(conn, meta)
    finally:
        engine.dispose()
    return counts


def _flush(conn, table, batch: list, counts: dict) -> None:
    if table is not None and batch:
        conn.execute(table.insert(), batch)
        counts[table.name] += len(batch)
    batch.clear()


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
