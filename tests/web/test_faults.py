"""Faults: a server killed mid-stream, a locked or vanished database, two phones at once.
Each runs on SQLite and on a real PostgreSQL (tests.db.backends)."""
from __future__ import annotations

import http.client
import socket
import sqlite3
import threading
import time

import pytest
import sqlalchemy as sa
from sqlalchemy import event as sa_event

from benchmarks.harness import Client, Server, check_tables, create_table, record
from tests.conftest import make_app
from tests.db.backends import backend_app, db_url, postgres_database  # noqa: F401 (fixtures)

PLAYERS = ["Ann", "Bo", "Cy"]


def new_play(client, game="knarr"):
    body = client.post("/api/v1/plays", json={"game": game, "players": PLAYERS,
                                              "seed": 3}).get_json()
    return body["id"], body["edit_token"]


def sheet(vp, expected=None, player="Ann"):
    return {"type": "sheet", "data": {"player": player, "fields": {"vp": vp}},
            "expected_version": expected}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


# ---- kill -9 in the middle of a stream of events

def stream(base_url, tables, stop, acked_enough, target):
    """Record events on every table round-robin until the server dies or ``stop`` is set."""
    client = Client(base_url, timeout=10)
    i = 0
    try:
        while not stop.is_set() and i < 2000:
            table = tables[i % len(tables)]
            record(client, table, i // len(tables))
            if sum(len(t.acked) for t in tables) >= target:
                acked_enough.set()
            i += 1
    except (OSError, http.client.HTTPException):
        pass  # the server was killed under us: what was not acknowledged may be lost
    finally:
        acked_enough.set()
        client.close()


def test_kill_9_mid_stream_loses_nothing_acknowledged(db_url, tmp_path):  # noqa: F811
    server = Server(db_url, workers=2, log_dir=str(tmp_path)).start()
    try:
        client = Client(server.url)
        tables = [create_table(client) for _ in range(3)]
        client.close()
        stop, acked_enough = threading.Event(), threading.Event()
        writers = [threading.Thread(target=stream, args=(server.url, tables[n::2], stop,
                                                         acked_enough, 24))
                   for n in range(2)]
        for w in writers:
            w.start()
        assert acked_enough.wait(30)
        server.kill()
    finally:
        stop.set()
        server.stop()      # killed as above, if not yet, and its control socket's place gone
    for w in writers:
        w.join(15)
    assert sum(len(t.acked) for t in tables) >= 24

    with Server(db_url, workers=1, log_dir=str(tmp_path)) as again:
        assert check_tables(again.url, db_url, tables, exact=False) == []
        client = Client(again.url)
        for table in tables:   # the play goes on where the log says it is
            table.version = client.get(f"/api/v1/plays/{table.play_id}",
                                       table.auth()).json()["state"]["version"]
            assert record(client, table, 999).status == 200
        client.close()


# ---- a locked SQLite database

def test_a_locked_sqlite_database_is_a_clear_503_and_recovers(tmp_path):
    path = tmp_path / "locked.db"
    app = make_app(tmp_path, f"sqlite:///{path}")
    engine = app.extensions["companion"].store.engine
    sa_event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA busy_timeout=200"))
    engine.dispose()
    client = app.test_client()
    play_id, token = new_play(client)
    assert client.post(f"/api/v1/plays/{play_id}/events", json=sheet(1),
                       headers=bearer(token)).status_code == 200

    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(2),
                            headers=bearer(token))
        assert reply.status_code == 503
        error = reply.get_json()["error"]
        assert error["code"] == "database_locked"
        assert "locked" in error["message"] and "nothing was changed" in error["message"]
        assert reply.headers["Retry-After"]
        page = client.post(f"/plays/{play_id}/{token}/events",
                           data={"type": "sheet", "player": "Ann", "f:vp": "5"})
        assert page.status_code == 503
        assert b"locked" in page.data
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(3, expected=1),
                        headers=bearer(token))
    assert reply.status_code == 200
    state = reply.get_json()["state"]
    assert state["version"] == 2 and state["sheets"]["Ann"]["vp"] == 3


# ---- a PostgreSQL server that goes away and comes back

class Proxy:
    """A loopback TCP port that forwards to PostgreSQL's Unix socket; closing it is the
    database server going away (every open connection dropped), opening it brings it back."""

    def __init__(self, socket_path: str):
        self.socket_path = socket_path
        self.port = None
        self.listener = None
        self.open_sockets: list[socket.socket] = []
        self.lock = threading.Lock()

    def start(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port or 0))
        self.port = self.listener.getsockname()[1]
        self.listener.listen(16)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener):
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return
            far = socket.socket(socket.AF_UNIX)
            far.connect(self.socket_path)
            with self.lock:
                self.open_sockets += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src, dst):
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)   # wakes the accept() blocked on it
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            for s in self.open_sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.open_sockets.clear()


@pytest.fixture
def behind_a_proxy(postgres_url, tmp_path):
    """The app on a fresh PostgreSQL database reached only through a started Proxy (the test
    stops and starts ``proxy`` to take the database server away and bring it back); the
    proxy stopped and the app's connections closed after."""
    with postgres_database(postgres_url) as url:
        parsed = sa.engine.make_url(url)
        proxy = Proxy(f"{parsed.query['host']}/.s.PGSQL.{parsed.query['port']}")
        proxy.start()
        via_proxy = parsed.set(host="127.0.0.1", port=proxy.port, query={}).render_as_string(
            hide_password=False)
        app = make_app(tmp_path, via_proxy)
        try:
            yield app, proxy
        finally:
            proxy.stop()
            app.extensions["companion"].store.engine.dispose()


def test_postgres_gone_is_a_clear_503_and_recovers(behind_a_proxy):
    app, proxy = behind_a_proxy
    client = app.test_client()
    play_id, token = new_play(client)
    assert client.post(f"/api/v1/plays/{play_id}/events", json=sheet(1),
                       headers=bearer(token)).status_code == 200
    proxy.stop()
    for method, path, body in (("post", f"/api/v1/plays/{play_id}/events", sheet(2)),
                               ("get", f"/api/v1/plays/{play_id}", None)):
        reply = getattr(client, method)(path, json=body, headers=bearer(token))
        assert reply.status_code == 503, reply.data
        error = reply.get_json()["error"]
        assert error["code"] == "database_unavailable"
        assert "cannot be reached" in error["message"]
    page = client.get(f"/plays/{play_id}/{token}")
    assert page.status_code == 503 and b"cannot be reached" in page.data
    assert client.get("/healthz").status_code == 200

    proxy.start()
    reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(3, expected=1),
                        headers=bearer(token))
    assert reply.status_code == 200, reply.data
    assert reply.get_json()["state"]["version"] == 2


def test_a_postgres_restart_between_two_taps_costs_no_tap(behind_a_proxy):
    """PostgreSQL restarts while nobody asks anything: every connection the app's pool holds
    dies while idle. The next change, the next read and the next page after it are answered
    as usual, not with a 503 (the pool finds out before using a dead connection: a check
    made cheaper, e.g. only after a connection sat idle, must keep this)."""
    app, proxy = behind_a_proxy
    client = app.test_client()
    play_id, token = new_play(client)
    for vp in (1, 2):
        assert client.post(f"/api/v1/plays/{play_id}/events", json=sheet(vp),
                           headers=bearer(token)).status_code == 200
    assert client.get(f"/api/v1/plays/{play_id}", headers=bearer(token)).status_code == 200
    pool = app.extensions["companion"].store.engine.pool
    assert pool.checkedin() >= 1           # idle connections, about to die
    proxy.stop()
    proxy.start()                          # back, on the same port
    reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(3, expected=2),
                        headers=bearer(token))
    assert reply.status_code == 200, reply.data
    assert reply.get_json()["state"]["version"] == 3
    read = client.get(f"/api/v1/plays/{play_id}", headers=bearer(token))
    assert read.status_code == 200 and read.get_json()["state"]["sheets"]["Ann"]["vp"] == 3
    assert client.get(f"/plays/{play_id}/{token}").status_code == 200


def test_a_dead_database_address_is_a_503_never_a_500(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = sock.getsockname()[1]   # nothing listens once the socket is closed
    from companion import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"postgresql+psycopg://nobody@127.0.0.1:{dead}/none"})
    client = app.test_client()
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": PLAYERS})
    assert reply.status_code == 503
    assert reply.get_json()["error"]["code"] == "database_unavailable"
    assert client.get("/").status_code == 503


# ---- two phones editing at once

def test_a_stale_expected_version_is_a_409_and_changes_nothing(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play_id, token = new_play(client)
    first = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(4, expected=0),
                        headers=bearer(token))
    assert first.status_code == 200
    second = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(9, expected=0),
                         headers=bearer(token))
    assert second.status_code == 409
    assert second.get_json()["error"]["field"] == "expected_version"
    state = client.get(f"/api/v1/plays/{play_id}", headers=bearer(token)).get_json()["state"]
    assert state["version"] == 1 and state["sheets"]["Ann"]["vp"] == 4

    page = client.post(f"/plays/{play_id}/{token}/events", headers={"HX-Request": "true"},
                       data={"type": "sheet", "player": "Ann", "f:vp": "7",
                             "expected_version": "0"})
    assert page.status_code == 409
    assert b"Someone else changed the play" in page.data and b'data-version="1"' in page.data
    undo = client.post(f"/api/v1/plays/{play_id}/undo", json={"expected_version": 0},
                       headers=bearer(token))
    assert undo.status_code == 409


def test_phones_racing_on_one_version_exactly_one_wins(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play_id, token = new_play(client)
    gate = threading.Barrier(6)
    statuses = []

    def phone(n):
        own = backend_app.test_client()
        gate.wait(5)
        reply = own.post(f"/api/v1/plays/{play_id}/events", json=sheet(n + 1, expected=0),
                         headers=bearer(token))
        statuses.append((reply.status_code, n + 1))

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(s for s, _ in statuses) == [200] + [409] * 5
    winner = next(vp for s, vp in statuses if s == 200)
    state = client.get(f"/api/v1/plays/{play_id}", headers=bearer(token)).get_json()["state"]
    assert state["version"] == 1 and state["sheets"]["Ann"]["vp"] == winner


def test_writers_without_a_version_check_all_land(backend_app):  # noqa: F811
    """No expected_version: each write is retried on a race, and none is lost or doubled."""
    client = backend_app.test_client()
    play_id, token = new_play(client)
    results = []

    def phone(n):
        own = backend_app.test_client()
        for i in range(5):
            reply = own.post(f"/api/v1/plays/{play_id}/events",
                             json=sheet(100 * n + i, player=PLAYERS[n % 3]),
                             headers=bearer(token))
            results.append(reply.status_code)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(4)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert time.monotonic() - started < 60
    assert results.count(200) == len(results) == 20, results
    events = backend_app.extensions["companion"].store.active_events(play_id)
    values = sorted(e["data"]["fields"]["vp"] for e in events)
    assert values == sorted(100 * n + i for n in range(4) for i in range(5))
