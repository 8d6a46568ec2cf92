"""The live stream (server-sent events): the version at once, a message per change made by this
process or by another one on the same database (SQLite and PostgreSQL), heartbeats, the same
token check as the poll, no compression, and every watch freed when its connection ends."""
from __future__ import annotations

import socket
import threading
import time

import sqlalchemy as sa

from tests.conftest import LiveServer, make_app
from tests.db.backends import backend_app, db_url, postgres_database  # noqa: F401 (fixtures)

SHEET = {"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 3}}}
QUIET = {"LIVE_HEARTBEAT": 30, "LIVE_MAX_SECONDS": 20}


def start(client, game="knarr"):
    reply = client.post("/api/v1/plays", json={"game": game, "players": ["Ann", "Bo"],
                                               "seed": 5})
    assert reply.status_code == 201, reply.data
    return reply.get_json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def write(client, play, body=SHEET):
    reply = client.post(f"/api/v1/plays/{play['id']}/events", json=body,
                        headers=bearer(play["edit_token"]))
    assert reply.status_code == 200, reply.data
    return reply.get_json()["state"]["version"]


class Stream:
    """An open event stream read message by message (each chunk the server sends)."""

    def __init__(self, response):
        assert response.status_code == 200, response.data
        self.response = response
        self.chunks = iter(response.response)

    def next(self) -> str:
        return next(self.chunks).decode()

    def next_version(self) -> int:
        while True:
            chunk = self.next()
            if "event: version" in chunk:
                return int(chunk.split("data: ", 1)[1].split("\n", 1)[0])

    def close(self):
        self.response.close()


def open_stream(client, play, role="edit_token", **headers) -> Stream:
    return Stream(client.get(f"/plays/{play['id']}/{play[role]}/live", buffered=False,
                             headers=headers))


def test_first_message_at_once_then_one_per_change_from_this_process(tmp_path):
    # the thread's check is made far too slow to matter: only the in-process wake can deliver
    app = make_app(tmp_path, LIVE_POLL_INTERVAL=60, **QUIET)
    client = app.test_client()
    play = start(client)
    write(client, play)
    stream = open_stream(client, play)
    assert stream.response.mimetype == "text/event-stream"
    assert stream.response.headers["Cache-Control"].startswith("no-cache")
    first = stream.next()
    assert "event: version\ndata: 1\n\n" in first and first.endswith("\n\n")
    assert write(client, play) == 2
    assert stream.next() == "event: version\ndata: 2\n\n"
    undo = client.post(f"/api/v1/plays/{play['id']}/undo", json={},
                       headers=bearer(play["edit_token"]))
    assert undo.status_code == 200
    assert stream.next_version() == 3     # undo and redo are changes too
    stream.close()
    assert app.extensions["notifier"].watchers() == 0


def test_a_change_made_by_another_process_on_the_same_database(backend_app):  # noqa: F811
    """A second app instance on the same database stands for another gunicorn worker (or
    another server): SQLite reaches this one through the version check, PostgreSQL through
    LISTEN/NOTIFY."""
    backend_app.config.update(QUIET)
    other = make_app(None, backend_app.config["DATABASE_URL"])
    client, other_client = backend_app.test_client(), other.test_client()
    play = start(client)
    stream = open_stream(client, play, role="view_token")
    assert stream.next_version() == 0
    notifier = backend_app.extensions["notifier"]
    if notifier.postgres:
        assert notifier.listening.wait(10)
    for expected in (1, 2, 3):
        assert write(other_client, play) == expected
        assert stream.next_version() == expected
    stream.close()
    other.extensions["companion"].store.engine.dispose()


def test_postgres_writes_announce_themselves_in_their_transaction(postgres_url, tmp_path):
    with postgres_database(postgres_url) as url:
        _announce_in_transaction(make_app(tmp_path, url))


def _announce_in_transaction(app):
    import psycopg

    client = app.test_client()
    play = start(client)
    engine = app.extensions["companion"].store.engine
    args, kwargs = engine.dialect.create_connect_args(engine.url)
    with psycopg.connect(*args, **kwargs, autocommit=True) as listener:
        listener.execute("LISTEN play_changed")
        write(client, play)
        stale = dict(SHEET, expected_version=0)   # a refused write announces nothing
        assert client.post(f"/api/v1/plays/{play['id']}/events", json=stale,
                           headers=bearer(play["edit_token"])).status_code == 409
        client.post(f"/api/v1/plays/{play['id']}/undo", json={},
                    headers=bearer(play["edit_token"]))
        payloads = [n.payload for n in listener.notifies(timeout=10, stop_after=2)]
        payloads += [n.payload for n in listener.notifies(timeout=0.2)]
    assert payloads == [f"{play['id']}:1", f"{play['id']}:2"]
    engine.dispose()


def test_heartbeat_comments_keep_the_stream_alive(tmp_path):
    app = make_app(tmp_path, LIVE_HEARTBEAT=0.05, LIVE_MAX_SECONDS=20)
    client = app.test_client()
    play = start(client)
    stream = open_stream(client, play)
    stream.next()
    assert [stream.next() for _ in range(3)] == [": heartbeat\n\n"] * 3
    write(client, play)
    assert stream.next_version() == 1
    stream.close()


def test_the_stream_ends_after_its_lifetime_and_frees_the_watch(tmp_path):
    app = make_app(tmp_path, LIVE_HEARTBEAT=0.05, LIVE_MAX_SECONDS=0.2)
    client = app.test_client()
    play = start(client)
    stream = open_stream(client, play)
    rest = list(stream.chunks)   # ends by itself: the browser reconnects
    assert all(chunk == b": heartbeat\n\n" for chunk in rest[1:])
    assert app.extensions["notifier"].watchers() == 0


def test_tokens_are_checked_like_the_poll(backend_app):  # noqa: F811
    backend_app.config.update(QUIET)
    client = backend_app.test_client()
    play, other = start(client), start(client)
    pid = play["id"]
    for path in (f"/plays/{pid}/wrong-token/live", f"/plays/{pid}/{other['edit_token']}/live",
                 f"/plays/nosuchplay/{play['edit_token']}/live", f"/plays/{'x' * 40}/t/live"):
        reply = client.get(path)
        assert reply.status_code == 404, path
        assert reply.mimetype != "text/event-stream"
        assert pid.encode() not in reply.data and b"version" not in reply.data
    assert backend_app.extensions["notifier"].watchers() == 0
    view = open_stream(client, play, role="view_token")
    assert view.next_version() == 0
    view.close()


def test_api_twin_takes_the_bearer_token(tmp_path):
    app = make_app(tmp_path, **QUIET)
    client = app.test_client()
    play = start(client)
    pid = play["id"]
    assert client.get(f"/api/v1/plays/{pid}/live").status_code == 401
    wrong = client.get(f"/api/v1/plays/{pid}/live", headers=bearer("nope"))
    assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "forbidden"
    for version, token in enumerate((play["view_token"], play["edit_token"])):
        stream = Stream(client.get(f"/api/v1/plays/{pid}/live", headers=bearer(token),
                                   buffered=False))
        assert stream.next_version() == version
        write(client, play)
        assert stream.next_version() == version + 1
        stream.close()
    assert app.extensions["notifier"].watchers() == 0


def test_the_stream_is_never_compressed_and_comes_message_by_message(tmp_path):
    app = make_app(tmp_path, LIVE_HEARTBEAT=0.05, LIVE_MAX_SECONDS=20)
    client = app.test_client()
    play = start(client)
    stream = open_stream(client, play, **{"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert "Content-Encoding" not in stream.response.headers
    assert "Content-Length" not in stream.response.headers
    assert stream.next().startswith("retry: ")
    assert stream.next() == ": heartbeat\n\n"   # one chunk per message, as sent
    write(client, play)
    assert stream.next_version() == 1
    stream.close()


def test_a_deleted_play_ends_its_streams(tmp_path):
    from companion.store import plays

    app = make_app(tmp_path, LIVE_POLL_INTERVAL=0.02, **QUIET)
    client = app.test_client()
    play = start(client)
    stream = open_stream(client, play)
    stream.next()
    with app.extensions["companion"].store.engine.begin() as conn:
        conn.execute(sa.delete(plays).where(plays.c.id == play["id"]))
    assert list(stream.chunks) == []
    assert app.extensions["notifier"].watchers() == 0


def _wait_for(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_closed_connection_frees_its_thread_and_the_checks_stop(tmp_path):
    """Over real HTTP: a phone that goes away is noticed at the next heartbeat, its watch and
    its server thread are freed, and with nobody watching the SQLite check stops querying."""
    app = make_app(tmp_path, LIVE_HEARTBEAT=0.05, LIVE_MAX_SECONDS=20, LIVE_POLL_INTERVAL=0.02)
    server = LiveServer(app)
    try:
        play = start(app.test_client())
        notifier = app.extensions["notifier"]
        threads_before = threading.active_count()
        phones = []
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.server.server_port), 5)
            sock.sendall(f"GET /plays/{play['id']}/{play['view_token']}/live HTTP/1.1\r\n"
                         "Host: localhost\r\n\r\n".encode())
            assert b"event: version" in _read_until(sock, b"data: 0\n\n")
            phones.append(sock)
        assert notifier.watchers() == 3
        for sock in phones:
            sock.close()
        assert _wait_for(lambda: notifier.watchers() == 0)
        assert _wait_for(lambda: threading.active_count() <= threads_before + 1)
        checks = notifier.checks
        time.sleep(0.2)   # ten check intervals with nobody watching
        assert notifier.checks <= checks + 1
    finally:
        server.stop()


def _read_until(sock, marker: bytes) -> bytes:
    data = b""
    while marker not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data
