"""Run a test once per database backend: SQLite (a file in tmp_path) and a real PostgreSQL
(a fresh database of its own on the server `make test` starts, dropped afterwards, so tests
running in parallel under -n 2 never see each other's rows).

Import the fixtures into a test module: ``from tests.db.backends import db_url, backend_app``.
"""
from __future__ import annotations

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
def postgres_database(test_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server; yields its URL, drops it after."""
    name = f"nsc_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(_admin_url(test_url), isolation_level="AUTOCOMMIT",
                             poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield sa.engine.make_url(test_url).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def database_url(kind: str, folder: Path, request) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'backend.db'}"
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield url


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path) -> Iterator[str]:
    """A fresh, empty database URL: once on SQLite, once on PostgreSQL."""
    with database_url(request.param, tmp_path, request) as url:
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
