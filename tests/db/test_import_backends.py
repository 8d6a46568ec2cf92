"""An export imported back on SQLite and on PostgreSQL (issue 22, F11, with the import checked
in a process of its own): the log's rows come made from the import process, for SQLite's
DB-API already converted and for PostgreSQL as Core takes them (companion/store/raw.py,
imported_rows); either way the new play replays to the original's state, exports the same
events at the same times, and a refused import stores nothing."""
from __future__ import annotations

from tests.db.backends import backend_app, db_url  # noqa: F401 (fixtures)
from tests.web.test_import_large import (
    check_a_refused_import_stores_nothing,
    check_imported_back,
    exported,
    long_play,
    send_import,
)

COUNT = 2_500     # five batches of rows and two snapshots


def test_an_export_is_imported_back_whole(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = long_play(backend_app, COUNT)
    body = exported(client, play)
    check_imported_back(backend_app, play, body, send_import(client, body), COUNT)


def test_a_refused_import_stores_nothing(backend_app):  # noqa: F811
    check_a_refused_import_stores_nothing(backend_app, 600, bad=555)
