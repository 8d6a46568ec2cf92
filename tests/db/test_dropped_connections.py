"""PostgreSQL connections the server dropped (companion/store/drops.py): a connection in use
moments ago is trusted, not pinged; one the server dropped anyway is met by a read or a write's
first statement, which runs once more on a verified connection; a drop during a commit is
never repeated (the phone's Idempotency-Key makes its own repeat harmless). Through the
loopback proxy of tests/web/test_faults.py, which takes the server away and brings it back."""
from __future__ import annotations

from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy import event as sa_event

from companion.store import drops, events, plays
from tests.web.test_faults import bearer, behind_a_proxy, new_play, sheet  # noqa: F401


def engine_of(app) -> sa.Engine:
    return app.extensions["companion"].store.engine


@contextmanager
def restart_after_next_checkout(app, proxy):
    """The server restarts right after the next connection is taken from the pool (every
    connection dropped, the server back at once): after any check made at checkout, before
    the first statement. Yields the number of restarts made (a list of one int)."""
    made = [0]

    def checkout(*_args):
        if not made[0]:
            made[0] += 1
            proxy.stop()
            proxy.start()

    sa_event.listen(engine_of(app), "checkout", checkout)
    try:
        yield made
    finally:
        sa_event.remove(engine_of(app), "checkout", checkout)


@contextmanager
def counted_pings(app):
    """The pings the pool sends, each "alive" or "dead" (a list)."""
    dialect = engine_of(app).dialect
    real, pings = dialect.do_ping, []

    def ping(dbapi_connection):
        try:
            answer = real(dbapi_connection)
        except Exception:
            pings.append("dead")
            raise
        pings.append("alive")
        return answer

    dialect.do_ping = ping
    try:
        yield pings
    finally:
        del dialect.do_ping


@contextmanager
def counted_locks(app):
    """How many times a write takes a play's lock, its transaction's first statement (a list
    of one int)."""
    statement = app.extensions["companion"].store.prepared.lock_play
    real, count = statement.first, [0]

    def first(raw, values):
        count[0] += 1
        return real(raw, values)

    statement.first = first
    try:
        yield count
    finally:
        del statement.first


def stored_events(app, play_id: str) -> list:
    with engine_of(app).connect() as conn:
        return conn.execute(sa.select(events.c.position, events.c.data)
                            .where(events.c.play_id == play_id)
                            .order_by(events.c.position)).all()


def test_a_connection_dropped_after_its_check_costs_no_tap(behind_a_proxy):  # noqa: F811
    """The server goes away and comes back between a connection's checkout and its first
    statement, where no check made at checkout (pool_pre_ping's included) can see it: the
    tap, the phone's poll, the API's read and the page are answered as usual, the tap's
    event stored once."""
    app, proxy = behind_a_proxy
    client = app.test_client()
    play_id, token = new_play(client)
    assert client.post(f"/api/v1/plays/{play_id}/events", json=sheet(1),
                       headers=bearer(token)).status_code == 200
    tap = {"type": "sheet", "player": "Ann", "f:vp": "3", "expected_version": "2"}
    requests = [    # (method, path, JSON body, form body, the answer's status)
        ("post", f"/api/v1/plays/{play_id}/events", sheet(2, expected=1), None, 200),
        ("get", f"/plays/{play_id}/{token}/poll?version=2", None, None, 204),
        ("get", f"/api/v1/plays/{play_id}", None, None, 200),
        ("get", f"/plays/{play_id}/{token}", None, None, 200),
        ("post", f"/plays/{play_id}/{token}/events", None, tap, 200),
    ]
    for method, path, body, form, status in requests:
        with restart_after_next_checkout(app, proxy) as made:
            reply = getattr(client, method)(path, json=body, data=form, headers={
                **bearer(token), **({"HX-Request": "true"} if form else {})})
        assert made == [1], path
        assert reply.status_code == status, (path, reply.data[:300])
    assert [(p, d["fields"]["vp"]) for p, d in stored_events(app, play_id)] == \
        [(1, 1), (2, 2), (3, 3)]


def test_only_a_connection_idle_for_a_while_is_pinged(behind_a_proxy, monkeypatch):  # noqa: F811
    """Taps in a row ping nothing; a connection that sat idle longer than IDLE_PING_SECONDS
    is pinged before use, and a dead one is replaced there: the tap's first statement runs
    once, on the new connection."""
    app, proxy = behind_a_proxy
    client = app.test_client()
    play_id, token = new_play(client)
    with counted_pings(app) as pings:
        for vp in range(1, 6):
            assert client.post(f"/api/v1/plays/{play_id}/events", json=sheet(vp),
                               headers=bearer(token)).status_code == 200
        assert pings == []
        monkeypatch.setattr(drops, "IDLE_PING_SECONDS", 0.0)
        proxy.stop()
        proxy.start()
        with counted_locks(app) as locks:
            reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(6, expected=5),
                                headers=bearer(token))
        assert reply.status_code == 200, reply.data
        assert pings == ["dead"] and locks == [1]
    assert len(stored_events(app, play_id)) == 6


@contextmanager
def dropped_after_next_commit(app, proxy):
    """The next commit reaches the server and is done there, then the connection drops before
    its answer is read: the writer cannot tell whether it committed."""
    dialect = engine_of(app).dialect
    real, made = dialect.do_commit, [0]

    def commit(dbapi_connection):
        real(dbapi_connection)
        if made[0]:
            return
        made[0] += 1
        proxy.stop()
        proxy.start()
        dbapi_connection.cursor().execute("SELECT 1")    # the dropped connection's own error

    dialect.do_commit = commit
    try:
        yield made
    finally:
        del dialect.do_commit


def test_a_drop_during_a_commit_is_never_repeated(behind_a_proxy):  # noqa: F811
    """A write whose connection dropped while its commit was under way may have committed:
    the phone is told the database could not be reached (nothing is repeated behind its
    back), and its own repeat with the same Idempotency-Key is answered from the first
    change: the event is stored once. A new play likewise: one play, not two."""
    app, proxy = behind_a_proxy
    client = app.test_client()
    play_id, token = new_play(client)
    headers = {**bearer(token), "Idempotency-Key": "tap-1"}
    with dropped_after_next_commit(app, proxy) as made:
        reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(4),
                            headers=headers)
    assert made == [1]
    assert reply.status_code == 503, reply.data
    assert reply.get_json()["error"]["code"] == "database_unavailable"
    again = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(4), headers=headers)
    assert again.status_code == 200, again.data
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json()["state"]["version"] == 1
    assert [(p, d["fields"]["vp"]) for p, d in stored_events(app, play_id)] == [(1, 4)]

    with engine_of(app).connect() as conn:
        before = conn.execute(sa.select(sa.func.count()).select_from(plays)).scalar()
    with dropped_after_next_commit(app, proxy) as made:
        reply = client.post("/api/v1/plays", json={"game": "knarr",
                                                   "players": ["Ann", "Bo", "Cy"]})
    assert made == [1] and reply.status_code == 503, reply.data
    with engine_of(app).connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(plays)).scalar() == before + 1


def test_a_write_dropped_before_its_commit_is_written_once(behind_a_proxy):  # noqa: F811
    """The server drops the connection in the middle of a write's transaction (after the
    play's lock, at the event's insert), before its commit: nothing of it was written, the
    phone is told the database could not be reached, and its repeat with the same
    Idempotency-Key is recorded, once."""
    app, proxy = behind_a_proxy
    client = app.test_client()
    play_id, token = new_play(client)
    headers = {**bearer(token), "Idempotency-Key": "tap-2"}
    statement = app.extensions["companion"].store.prepared.bump_play_append
    real = statement.run

    def run(raw, values):
        proxy.stop()
        proxy.start()
        return real(raw, values)

    statement.run = run
    try:
        reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(5), headers=headers)
    finally:
        del statement.run
    assert reply.status_code == 503, reply.data
    assert stored_events(app, play_id) == []
    reply = client.post(f"/api/v1/plays/{play_id}/events", json=sheet(5), headers=headers)
    assert reply.status_code == 200 and "Idempotent-Replayed" not in reply.headers
    assert [(p, d["fields"]["vp"]) for p, d in stored_events(app, play_id)] == [(1, 5)]
