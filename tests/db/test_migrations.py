"""Upgrades that cannot lose data: a populated database goes through a migration that rebuilds
`plays` (Alembic batch mode on SQLite copies, drops and renames the table) and every play and
event is still there, field for field; a migration that would leave dangling rows is rolled
back; a database holding plays is backed up before it is upgraded. SQLite and PostgreSQL."""
from __future__ import annotations

import sqlite3
import stat
import textwrap

import pytest
import sqlalchemy as sa

from companion import migrate
from companion.backup import backup_before_upgrade
from companion.migrate import MIGRATIONS, MigrationError, alembic_config, head_revision
from companion.restore import restore_backup
from tests.conftest import make_app
from tests.db.backends import backend_app, backend_of, db_url  # noqa: F401 (fixtures)

GAMES = [("explorers", ["Ann", "Bo", "Cy"]), ("knarr", ["Ann", "Bo"]),
         ("reavers", ["Ann", "Bo", "Cy"]), ("shipwrights", ["Ann", "Bo"]),
         ("seafarers", ["Ann", "Bo", "Cy"])]


def populate(app, plays: int = 25, events: int = 40) -> None:
    """Plays of every game, each with a log of sheet edits (written in bulk, as the store
    writes them), some undone and overwritten (discarded rows), some undone and not yet
    redone, some finished; and box data. Each play replays to a valid state."""
    from companion.service import summary_of
    from companion.store import events as events_table
    from companion.store import now
    from companion.store import plays as plays_table

    service = app.extensions["companion"]
    store = service.store
    for i in range(plays):
        game, players = GAMES[i % len(GAMES)]
        row, _, _ = service.create({"game": game, "players": players, "seed": i})
        rows = [{"play_id": row.id, "position": j + 1, "type": "sheet", "discarded": False,
                 "created_at": now(), "data": {"player": players[j % len(players)],
                                               "fields": {_number_field(game): j % 5}}}
                for j in range(events)]
        if i % 3 == 0:     # two undone, then overwritten: the old two stay, discarded
            rows[-2:] = [dict(r, discarded=True) for r in rows[-2:]]
            rows += [dict(r, discarded=False) for r in rows[-2:]]
        head = length = events
        if i % 3 == 1:     # one undone, waiting for a redo
            head = events - 1
        elif i % 4 == 0:   # finished
            rows.append({"play_id": row.id, "position": events + 1, "type": "finish",
                         "discarded": False, "created_at": now(), "data": {}})
            head = length = events + 1
        with store.engine.begin() as conn:
            conn.execute(events_table.insert(), rows)
            conn.execute(plays_table.update().where(plays_table.c.id == row.id).values(
                version=len(rows) + (length - head), head=head, length=length,
                updated_at=now()))
        # the finished flag and the history's summary, as a write derives them
        state = service.state(service.load(row.id))
        with store.engine.begin() as conn:
            conn.execute(plays_table.update().where(plays_table.c.id == row.id).values(
                finished=state["finished"], summary=summary_of(state)))
    service.put_catalogue("knarr", service.catalogue("knarr"))


KEY = b"a test installation's backup key"


def backing_up(url: str, tmp_path):
    """What `companion init-db` hands migrate.upgrade: a backup into tmp_path/backups."""
    return lambda revision: backup_before_upgrade(url, tmp_path / "backups", revision, KEY)


def _number_field(game: str) -> str:
    return {"explorers": "outposts", "knarr": "vp", "reavers": "glory",
            "shipwrights": "gold", "seafarers": "settlements"}[game]


def everything(url: str) -> dict:
    """Every row of every table (the alembic stamp aside), in a stable order."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        meta = sa.MetaData()
        meta.reflect(bind=engine)
        out = {}
        with engine.connect() as conn:
            for table in meta.sorted_tables:
                if table.name == "alembic_version":
                    continue
                rows = conn.execute(sa.select(table).order_by(*table.primary_key.columns))
                out[table.name] = [_plain(r._asdict()) for r in rows]
        return out
    finally:
        engine.dispose()


def _plain(row: dict) -> dict:
    """Datetimes compared as UTC instants (SQLite hands them back without a zone)."""
    import datetime as dt

    for key, value in row.items():
        if isinstance(value, dt.datetime):
            row[key] = (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).astimezone(
                dt.UTC)
    return row


REBUILD = '''
"""Test only: widen plays.game, which SQLite can only do by rebuilding the table."""
import sqlalchemy as sa
from alembic import op

revision = "ffff_rebuild_plays"
down_revision = {down!r}
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("plays", recreate="{recreate}") as batch:
        batch.alter_column("game", type_=sa.String(64), existing_type=sa.String(32),
                           existing_nullable=False)


def downgrade():
    pass
'''

DANGLING = '''
"""Test only: a broken migration that deletes plays but leaves their events behind."""
from alembic import op

revision = "ffff_dangling"
down_revision = {down!r}
branch_labels = None
depends_on = None


def upgrade():
    op.execute("DELETE FROM plays WHERE id IN (SELECT id FROM plays LIMIT 2)")


def downgrade():
    pass
'''


def migration_dir(tmp_path, text: str, recreate: str = "auto"):
    folder = tmp_path / "test_versions"
    folder.mkdir()
    down = head_revision(alembic_config())
    (folder / "ffff_test.py").write_text(textwrap.dedent(
        text.format(down=down, recreate=recreate)))
    return [MIGRATIONS / "versions", folder]


def test_rebuilding_plays_keeps_every_play_and_event(backend_app, db_url, tmp_path):  # noqa: F811
    populate(backend_app)
    before = everything(db_url)
    assert len(before["plays"]) == 25 and len(before["events"]) > 1000
    assert any(e["discarded"] for e in before["events"])
    locations = migration_dir(tmp_path, REBUILD)
    backend_app.extensions["companion"].store.engine.dispose()

    revision, backup = migrate.upgrade(db_url, before=backing_up(db_url, tmp_path),
                                       version_locations=locations)

    assert revision == "ffff_rebuild_plays"
    after = everything(db_url)
    assert after == before
    engine = sa.create_engine(db_url, poolclass=sa.pool.NullPool)
    game = {c["name"]: c for c in sa.inspect(engine).get_columns("plays")}["game"]
    engine.dispose()
    assert game["type"].length == 64          # the migration really ran
    # the backup taken before the upgrade holds the database as it was
    assert backup is not None and backup.exists()
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    state = backend_app.extensions["companion"]
    state.cache = type(state.cache)()
    for play in before["plays"]:
        state.state(state.load(play["id"]))   # every play still replays


def test_the_old_way_lost_every_event(tmp_path):
    """Why migrations run with foreign keys off: the same rebuild on a connection with
    foreign keys on (as the store opens them) cascades the drop of plays into events."""
    app = make_app(tmp_path)
    populate(app, plays=5, events=5)
    url = app.config["DATABASE_URL"]
    locations = migration_dir(tmp_path, REBUILD)
    from alembic import command

    cfg = alembic_config(locations)
    with app.extensions["companion"].store.engine.begin() as conn:   # foreign keys ON
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    assert everything(url)["events"] == []


def test_a_migration_leaving_dangling_rows_is_rolled_back(tmp_path):
    app = make_app(tmp_path)
    populate(app, plays=4, events=3)
    url = app.config["DATABASE_URL"]
    before = everything(url)
    old = migrate.current_revision(sa.create_engine(url))
    with pytest.raises(MigrationError, match="rolled back"):
        migrate.upgrade(url, version_locations=migration_dir(tmp_path, DANGLING))
    assert everything(url) == before
    assert migrate.current_revision(sa.create_engine(url)) == old


def test_rebuild_backup_restores_into_the_other_engine(backend_app, db_url, tmp_path,  # noqa: F811
                                                       postgres_url):
    """The backup taken before an upgrade is a full one: restored into an empty database
    it upgrades to the same rows."""
    from tests.db.backends import postgres_database

    populate(backend_app, plays=6, events=10)
    locations = migration_dir(tmp_path, REBUILD)
    _, backup = migrate.upgrade(db_url, before=backing_up(db_url, tmp_path),
                                version_locations=locations)
    after = everything(db_url)
    if backend_of(db_url) == "sqlite":
        with postgres_database(postgres_url) as other:
            restore_backup(other, backup, key=KEY, version_locations=locations)
            assert everything(other) == after
    else:
        other = f"sqlite:///{tmp_path / 'other.db'}"
        restore_backup(other, backup, key=KEY, version_locations=locations)
        assert everything(other) == after


def test_init_db_on_a_current_database_takes_no_backup(tmp_path):
    app = make_app(tmp_path)
    populate(app, plays=1, events=3)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "Backed up" not in result.output
    assert app.extensions["companion"].store.last_backup is None


def test_database_and_secret_files_are_private(tmp_path, monkeypatch):
    from companion import _instance_secret

    db = tmp_path / "old.db"
    sqlite3.connect(db).close()
    db.chmod(0o644)                                  # an older install's file
    app = make_app(tmp_path, f"sqlite:///{db}")
    app.extensions["companion"].store.create_play("p1", "knarr", {"finished": False}, "a", "b")
    for path in (db, tmp_path / "old.db-wal"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    fresh = tmp_path / "fresh.db"
    make_app(tmp_path, f"sqlite:///{fresh}")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    secret = tmp_path / "secret_key"
    secret.write_text("k" * 64)
    secret.chmod(0o644)
    assert _instance_secret(tmp_path) == "k" * 64
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    (tmp_path / "new").mkdir()
    _instance_secret(tmp_path / "new")
    assert stat.S_IMODE((tmp_path / "new" / "secret_key").stat().st_mode) == 0o600


def test_sqlite_commits_survive_power_loss(app):
    with app.extensions["companion"].store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2   # FULL


def test_backup_and_migrate_do_not_import_each_other():
    """The cycle backup.py <-> migrate.py (each imported the other inside a function) is
    gone: migrate takes the backup as its ``before`` argument, restore.py uses both."""
    import ast
    from pathlib import Path

    import companion

    def imported(module: str) -> set[str]:
        tree = ast.parse((Path(companion.__file__).parent / f"{module}.py").read_text())
        return {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}

    assert not imported("backup") & {"migrate", "restore", "restore_checks"}
    assert not imported("migrate") & {"backup", "restore", "restore_checks"}
    assert imported("restore") >= {"backup", "migrate"}
