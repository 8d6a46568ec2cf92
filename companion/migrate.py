"""Schema upgrades that cannot lose data.

Alembic's batch mode rebuilds a SQLite table by copying it, dropping the original and renaming
the copy. With ``PRAGMA foreign_keys=ON`` (which the store turns on for every connection) the
drop of ``plays`` deletes every event through ``ON DELETE CASCADE``. So migrations run here on a
connection of their own: foreign keys off, the whole upgrade in one real transaction (SQLite
DDL included), then ``PRAGMA foreign_key_check`` before the commit; any dangling row rolls the
upgrade back. And before any upgrade of a database that holds data, the caller's ``before``
takes a backup (companion.backup.backup_before_upgrade). This module imports nothing of the
backup and the backup nothing of it: restore.py uses both, without a cycle.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event as sa_event

MIGRATIONS = Path(__file__).parent / "migrations"


class MigrationError(Exception):
    """An upgrade that would leave the database inconsistent; nothing was changed."""


def alembic_config(version_locations: list[Path] | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if version_locations:
        cfg.set_main_option("version_locations",
                            " ".join(str(p) for p in version_locations))
        cfg.set_main_option("path_separator", "space")
    return cfg


def head_revision(cfg) -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(cfg).get_current_head()


def current_revision(engine: sa.Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def holds_data(engine: sa.Engine) -> bool:
    names = set(sa.inspect(engine).get_table_names())
    if "plays" not in names:
        return False
    with engine.connect() as conn:
        return conn.execute(sa.text("SELECT 1 FROM plays LIMIT 1")).first() is not None


def migration_engine(url: str) -> sa.Engine:
    """An engine for migrations only. On SQLite: foreign keys off and a real transaction
    around DDL too (pysqlite would otherwise commit before each CREATE/DROP)."""
    if not url.startswith("sqlite"):
        return sa.create_engine(url, poolclass=sa.pool.NullPool)
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool,
                              connect_args={"timeout": 30, "check_same_thread": False})

    @sa_event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None     # we emit BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=OFF")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @sa_event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def upgrade(url: str, target: str = "head", *,
            before: Callable[[str | None], Path] | None = None,
            version_locations: list[Path] | None = None) -> tuple[str | None, Path | None]:
    """Upgrade the database at ``url`` to ``target``. A database that holds plays and is not
    at the target yet is first handed to ``before(current revision)``, which backs it up and
    returns the backup's path. Returns (revision, backup)."""
    from alembic import command

    cfg = alembic_config(version_locations)
    wanted = head_revision(cfg) if target == "head" else target
    engine = migration_engine(url)
    try:
        current = current_revision(engine)
        backup = None
        if current != wanted and before is not None and holds_data(engine):
            backup = before(current)
        if current != wanted:
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, target)
                check_foreign_keys(conn)
        return current_revision(engine), backup
    finally:
        engine.dispose()


def check_foreign_keys(conn) -> None:
    if conn.dialect.name != "sqlite":
        return   # PostgreSQL checks every constraint as the migration runs
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        tables = sorted({row[0] for row in broken})
        raise MigrationError(
            f"The upgrade would leave {len(broken)} rows pointing at nothing (in "
            f"{', '.join(tables)}); it was rolled back and nothing was changed.")
