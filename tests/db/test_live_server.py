"""Live streams on the production server (`companion serve`: gunicorn, gevent workers) on
SQLite and PostgreSQL: phones spread over several workers, and over two servers on one
PostgreSQL, each get every change as it is made, while ordinary requests keep being answered.
(How fast is `make bench`'s business; nothing here is timed.)"""
from __future__ import annotations

from benchmarks.bench_live import Streams, live_path
from benchmarks.harness import Client, Server, create_table, record
from tests.db.backends import (
    db_url,  # noqa: F401 (fixture)
    postgres_database,
)

PHONES, CHANGES = 12, 8


def follow_changes(writer: Client, table, streams: Streams, phones: range) -> None:
    assert streams.wait_all(phones, 0, timeout=20), streams.latest
    for i in range(CHANGES):
        reply = record(writer, table, i)
        assert reply.status == 200, reply.body[:300]
        assert streams.wait_all(phones, table.version, timeout=20), (table.version,
                                                                     streams.latest)
        assert writer.get("/healthz").status == 200
    assert streams.open_count() == len(phones)


def test_every_phone_on_every_worker_gets_every_change(db_url, tmp_path):  # noqa: F811
    with Server(db_url, workers=3, log_dir=str(tmp_path)) as server:
        assert server.control_socket.is_socket()      # gunicorn's, named for its port
        writer = Client(server.url)
        table = create_table(writer)
        streams = Streams(server.port, [live_path(table)] * PHONES)
        try:
            follow_changes(writer, table, streams, range(PHONES))
        finally:
            streams.close()
            writer.close()


def test_two_servers_on_one_postgres_tell_each_others_phones(postgres_url, tmp_path):
    """...and each keeps its own gunicorn control socket, though both make it in one place
    (gunicorn's default is one path for all: the second took the first's)."""
    with postgres_database(postgres_url) as url, \
            Server(url, workers=1, log_dir=str(tmp_path / "a")) as a, \
            Server(url, workers=1, log_dir=str(tmp_path / "b"),
                   env={"XDG_RUNTIME_DIR": a.runtime_dir}) as b:
        assert b.runtime_dir == a.runtime_dir
        assert a.control_socket.is_socket() and b.control_socket.is_socket()
        assert a.control_socket != b.control_socket
        writer = Client(a.url)
        table = create_table(writer)
        streams = Streams(b.port, [live_path(table)] * 3)
        try:
            follow_changes(writer, table, streams, range(3))
        finally:
            streams.close()
            writer.close()
