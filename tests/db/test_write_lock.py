"""The write path under many phones at once, on SQLite and PostgreSQL: writes without
expected_version queue on the play's row lock and never answer 409; a stale expected_version
still does; the same Idempotency-Key sent at once from several threads records once."""
from __future__ import annotations

import threading
from collections import Counter

from tests.db.backends import backend_app, db_url  # noqa: F401 (fixtures)

WRITERS, TAPS = 6, 12


def new_play(client):
    reply = client.post("/api/v1/plays", json={"game": "explorers", "players": ["Ann", "Bo"],
                                               "seed": 1})
    return reply.json


def run_all(jobs):
    """Start every job at the same moment; their answers' statuses, counted."""
    start = threading.Barrier(len(jobs))
    statuses: Counter = Counter()
    lock = threading.Lock()

    def runner(job):
        start.wait()
        for status in job():
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=runner, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def tapper(app, play, player, field, n, **headers):
    def job():
        client = app.test_client()
        auth = {"Authorization": f"Bearer {play['edit_token']}", **headers}
        for _ in range(n):
            yield client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
                "type": "sheet", "data": {"player": player, "add": {field: 1}}}).status_code
    return lambda: list(job())


def current(app, play):
    client = app.test_client()
    return client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['edit_token']}"}).json["state"]


def test_many_writers_many_adds_all_count_and_none_conflicts(backend_app):  # noqa: F811
    play = new_play(backend_app.test_client())
    jobs = [tapper(backend_app, play, ("Ann", "Bo")[i % 2], "archer_tiles", TAPS)
            for i in range(WRITERS)]
    statuses = run_all(jobs)
    assert statuses == Counter({200: WRITERS * TAPS})
    state = current(backend_app, play)
    assert state["version"] == WRITERS * TAPS
    assert state["sheets"]["Ann"]["archer_tiles"] == state["sheets"]["Bo"]["archer_tiles"] \
        == WRITERS * TAPS // 2


def test_undo_without_a_version_racing_writes_never_conflicts(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    for _ in range(10):
        client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
            "type": "sheet", "data": {"player": "Ann", "add": {"archer_tiles": 1}}})

    def undoer():
        mine = backend_app.test_client()
        return [mine.post(f"/api/v1/plays/{play['id']}/undo", headers=auth).status_code
                for _ in range(8)]

    jobs = [tapper(backend_app, play, "Bo", "archer_tiles", TAPS) for _ in range(3)] + [undoer]
    statuses = run_all(jobs)
    assert statuses == Counter({200: 3 * TAPS + 8})
    state = current(backend_app, play)
    assert state["version"] == 10 + 3 * TAPS + 8


def test_a_stale_expected_version_is_still_a_409(backend_app):  # noqa: F811
    client = backend_app.test_client()
    play = new_play(client)
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    url = f"/api/v1/plays/{play['id']}/events"
    assert client.post(url, headers=auth, json={"type": "turn", "expected_version": 0}
                       ).status_code == 200
    stale = client.post(url, headers=auth, json={"type": "turn", "expected_version": 0})
    assert stale.status_code == 409 and current(backend_app, play)["version"] == 1


def test_two_ends_of_one_turn_at_once_record_one(backend_app):  # noqa: F811
    play = new_play(backend_app.test_client())
    auth = {"Authorization": f"Bearer {play['edit_token']}"}

    def end_turn():
        client = backend_app.test_client()
        return [client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
            "type": "turn", "expected_version": 0}).status_code]

    assert run_all([end_turn] * 4) == Counter({200: 1, 409: 3})


def test_the_same_key_sent_at_once_records_once(backend_app):  # noqa: F811
    play = new_play(backend_app.test_client())
    jobs = [tapper(backend_app, play, "Ann", "outposts", 1, **{"Idempotency-Key": "same"})
            for _ in range(6)]
    page_jobs = []
    for _ in range(4):
        def page_tap():
            client = backend_app.test_client()
            return [client.post(f"/plays/{play['id']}/{play['edit_token']}/events", headers={
                "HX-Request": "true", "Idempotency-Key": "page-key", "X-Device-Id": "p1"},
                data={"type": "sheet", "player": "Bo", "add:outposts": "1"}).status_code]
        page_jobs.append(page_tap)
    assert run_all(jobs + page_jobs) == Counter({200: 10})
    state = current(backend_app, play)
    assert state["version"] == 2
    assert state["sheets"]["Ann"]["outposts"] == state["sheets"]["Bo"]["outposts"] == 1
