"""Run a test once per database backend: SQLite (a file in tmp_path) and a real PostgreSQL
(a fresh database of its own on the server `make test` starts, dropped afterwards, so tests
running in parallel under -n 2 never see each other's rows).

Import the fixtures into a test module: ``from tests.db.backends import db_url, backend_app``.
"""
from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

BACKENDS = ("sqlite", "postgres")


def _admin_url(test_url: str) -> str:
    admin = os.environ.get("TEST_POSTGRES_ADMIN")
    if admin:
        return admin
    return sa.engine.make_url(test_url).set(database="postgres").render_as_string(
        hide_password=False)


@contextmanager
def postgres_database(test_url: str, template: str | None = None) -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server (or a copy of the database
    ``template``); yields its URL, drops it after."""
    name = f"nsc_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(_admin_url(test_url), isolation_level="AUTOCOMMIT",
                             poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'
                             + (f' TEMPLATE "{template}"' if template else "")))
    try:
        yield sa.engine.make_url(test_url).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def database_url(kind: str, folder: Path, request, migrated: bool = False) -> Iterator[str]:
    """``migrated``: the database at the newest revision already, copied from one this
    process migrated once (what the app would do to an empty one first)."""
    if kind == "sqlite":
        if migrated:
            from tests.conftest import migrated_database

            migrated_database(folder / "backend.db")
        yield f"sqlite:///{folder / 'backend.db'}"
        return
    postgres_url = request.getfixturevalue("postgres_url")
    template = migrated_postgres(postgres_url) if migrated else None
    with postgres_database(postgres_url, template) as url:
        yield url


MIGRATED_POSTGRES: list[str] = []   # this process's database at the newest revision


def migrated_postgres(postgres_url: str) -> str:
    """A PostgreSQL database this process migrated to the newest revision once (the real
    upgrade, companion.migrate), dropped when the process ends: backend_app's databases are
    copies of it (CREATE DATABASE ... TEMPLATE: 0.49 s against 1.22 s for a new database and
    every migration, each with its drop, load 14.6)."""
    if not MIGRATED_POSTGRES:
        import atexit

        from companion.migrate import upgrade

        made = postgres_database(postgres_url)
        url = made.__enter__()

        def drop():
            with contextlib.suppress(sa.exc.SQLAlchemyError):   # the server may be gone
                made.__exit__(None, None, None)

        atexit.register(drop)
        upgrade(url)
        MIGRATED_POSTGRES.append(sa.engine.make_url(url).database)
    return MIGRATED_POSTGRES[0]


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path) -> Iterator[str]:
    """A fresh, empty database URL: once on SQLite, once on PostgreSQL (for backend_app, at
    the newest revision already: the app migrates an empty one first, the same rows)."""
    with database_url(request.param, tmp_path, request,
                      migrated="backend_app" in request.fixturenames) as url:
        yield url


@pytest.fixture(params=BACKENDS, scope="module")
def module_db_url(request, tmp_path_factory) -> Iterator[str]:
    """Like db_url, shared by the tests of one module (for slow fuzzing runs)."""
    with database_url(request.param, tmp_path_factory.mktemp("db"), request) as url:
        yield url


@pytest.fixture
def backend_app(db_url, tmp_path):
    """The app (CSRF off, as the `app` fixture) on a fresh database of each backend."""
    from tests.conftest import make_app

    app = make_app(tmp_path, db_url)
    yield app
    app.extensions["notifier"].stop()
    app.extensions["companion"].store.engine.dispose()


def backend_of(url: str) -> str:
    return "sqlite" if url.startswith("sqlite") else "postgres"
