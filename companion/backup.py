"""The whole database in one portable file: `companion backup` (reading it back is restore.py).

The file is gzip-compressed JSON lines: a header (format, schema revision, which key signed
it), then for every table its columns and its rows exactly as stored (play ids, token hashes,
events, box data: every link and QR code keeps working), a line with the row counts, and last
a keyed digest (HMAC-SHA256) of every byte before it. Whoever changes a byte of the file
without the installation's backup key gets it refused; so does a file cut off anywhere.

The backup key is made once in the instance folder (``backup_key``, mode 0600) and never
written into a backup: to restore on another machine, bring the key along separately
(README: "Backups").

Consistent while serving: SQLite is first copied with its online backup API and the copy is
read; PostgreSQL is read in one REPEATABLE READ transaction.

Imports nothing of the app but the secret file: migrate.py (before an upgrade) and restore.py
call in here, never the other way round.
"""
from __future__ import annotations

import base64
import datetime as dt
import decimal
import gzip
import hashlib
import hmac
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from .secretfile import read_or_make

FORMAT = "north-sea-companion-backup"
FORMAT_VERSION = 2            # 2: the keyed digest as the last line (1 had none)
SKIP_TABLES = {"alembic_version"}
KEY_FILE = "backup_key"
DIGEST = "hmac_sha256"


class BackupError(Exception):
    """A backup or restore that cannot go ahead; the message says why (nothing was changed)."""


# --------------------------------------------------------------------------- the key
def read_key(path: Path, *, create: bool = True) -> bytes:
    """The backup key kept in ``path`` (made there on first use when ``create``)."""
    path = Path(path)
    if not create and not path.is_file():
        raise BackupError(
            f"There is no backup key at {path}. A backup is checked with the key of the "
            "installation that wrote it: copy that installation's instance/backup_key here "
            "(or name it with --key-file) and try again; nothing was restored.")
    return read_or_make(path).encode()


def key_id(key: bytes) -> str:
    """A name for the key that gives nothing of it away: which key signed a backup."""
    return hmac.new(key, b"north-sea-companion backup key id", hashlib.sha256).hexdigest()[:16]


def new_mac(key: bytes):
    return hmac.new(key, digestmod=hashlib.sha256)


# --------------------------------------------------------------------------- values
def encode(value, is_json: bool):
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


def decode(value, is_json: bool):
    if is_json or not isinstance(value, dict) or len(value) != 1:
        return value
    (tag, text), = value.items()
    try:
        if tag == "$datetime":
            return dt.datetime.fromisoformat(text)
        if tag == "$date":
            return dt.date.fromisoformat(text)
        if tag == "$bytes":
            return base64.b64decode(text, validate=True)
        if tag == "$decimal":
            return decimal.Decimal(text)
    except (TypeError, ValueError, decimal.InvalidOperation) as err:
        raise BackupError(f"A value of the backup is damaged ({tag} {text!r}).") from err
    return value


def is_json(column) -> bool:
    return isinstance(column.type, sa.JSON)


def line_bytes(line: dict) -> bytes:
    return json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


# --------------------------------------------------------------------------- reading a database
def _sqlite_path(url: str) -> str | None:
    parsed = sa.engine.make_url(url)
    return parsed.database if parsed.database not in (None, "", ":memory:") else None


@contextmanager
def snapshot(url: str) -> Iterator[sa.Connection]:
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


def tables_of(conn) -> list[sa.Table]:
    meta = sa.MetaData()
    meta.reflect(bind=conn)
    return [t for t in meta.sorted_tables if t.name not in SKIP_TABLES]


def revision_of(conn) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def dump_lines(conn, key: bytes | None = None) -> Iterator[dict]:
    """The backup's lines up to the row counts (the digest is the writer's)."""
    revision = revision_of(conn)
    if revision is None:
        raise BackupError("The database has no schema yet (run `companion init-db`).")
    header = {"format": FORMAT, "format_version": FORMAT_VERSION, "revision": revision,
              "engine": conn.dialect.name,
              "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
    if key is not None:
        header["key_id"] = key_id(key)
    yield header
    counts = {}
    for table in tables_of(conn):
        columns = list(table.columns)
        json_cols = [is_json(c) for c in columns]
        yield {"table": table.name, "columns": [c.name for c in columns]}
        order = list(table.primary_key.columns) or columns
        count = 0
        for row in conn.execute(sa.select(table).order_by(*order)):
            yield {"row": [encode(v, j) for v, j in zip(row, json_cols, strict=True)]}
            count += 1
        counts[table.name] = count
    yield {"end": True, "counts": counts}


def write_backup(url: str, path: Path, *, key: bytes) -> dict:
    """Write the whole database to ``path`` (atomically, mode 0600), signed with ``key``;
    returns the row counts."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.partial")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    counts: dict = {}
    mac = new_mac(key)
    try:
        with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as out, \
                snapshot(url) as conn:
            for line in dump_lines(conn, key):
                data = line_bytes(line)
                mac.update(data)
                out.write(data)
                if line.get("end"):
                    counts = line["counts"]
            out.write(line_bytes({DIGEST: mac.hexdigest()}))
            out.flush()
        with open(tmp, "rb") as synced:
            os.fsync(synced.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return counts


def backup_before_upgrade(url: str, folder: Path, revision: str | None, key: bytes) -> Path:
    """The backup `companion init-db` and `serve` take before upgrading a database that holds
    plays (companion.migrate.upgrade calls it through its ``before`` argument)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = folder / f"before-upgrade-{revision or 'none'}-{stamp}.nscbackup"
    write_backup(url, path, key=key)
    return path
