"""An import is read, checked and replayed in a process of its own (issue 22: one client
cannot stall a club evening).

An import of 10,000 events is 0.6-0.7 s of CPU. Made in the request it held its gevent worker
(one client looping imports raised the other tables' tap p95 about 90x; taking turns in the
request, 15.5x: docs/benchmarks.md). Now the request only sends the body to an import process
(companion/import_worker.py, in a pool like the PDFs': companion/process_pool.py) and writes
the rows that come back:

- none of the heavy steps (the JSON text rule, the declarations' check of each event, the
  replay) runs in the server's own process: each is replaced there by a function that fails;
  the pool answered from a process that is not this one, and that process, not this one, spent
  the CPU;
- the write left in the request takes turns with the worker's other requests between batches
  of rows (counted, not timed);
- a full pool answers 503 with Retry-After and the sentence, as the PDF pool does, storing
  nothing; an import process that died is replaced on the next import.
"""
from __future__ import annotations

import json
import os
import time

import pytest

from companion import exports, importing, turns
from companion.store import raw
from companion.web import api, jsoncheck
from tests.conftest import make_app
from tests.web.pools import every_process_busy, kill_every_process
from tests.web.test_import_large import exported, long_play, send_import

COUNT = 2_000


def the_import_pool(app):
    from companion.web.documents import import_pool

    with app.app_context():
        return import_pool()


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_the_import_is_read_checked_and_replayed_in_another_process(app, monkeypatch):
    client = app.test_client()
    body = exported(client, long_play(app, COUNT))
    small = exported(client, long_play(app, 1))
    assert send_import(client, small).status_code == 201   # the import process started
    pool = the_import_pool(app)
    [worker] = pool.processes()
    assert worker != os.getpid()

    def not_here(*args, **kwargs):
        raise AssertionError("an import's heavy step ran in the server's own process")

    for module, name in ((api, "check_json"), (jsoncheck, "check_json"), (exports, "check"),
                         (exports, "apply_event"), (importing, "parse_import"),
                         (importing, "replay_import")):
        monkeypatch.setattr(module, name, not_here)
    calls, its_cpu, own_cpu = pool.calls, cpu_seconds(worker), time.process_time()
    reply = send_import(client, body)
    own_cpu, its_cpu = time.process_time() - own_cpu, cpu_seconds(worker) - its_cpu
    assert reply.status_code == 201, reply.get_json()
    assert reply.get_json()["state"]["version"] == COUNT
    assert pool.calls == calls + 1 and pool.processes() == [worker]
    # the import process did the work (0.1-0.3 s here); this one wrote the rows
    assert its_cpu > 2 * own_cpu, (its_cpu, own_cpu)


def test_the_rows_are_written_in_batches_with_turns_between(app, monkeypatch):
    client = app.test_client()
    body = exported(client, long_play(app, COUNT))
    written = {"rows": 0}
    since: list[int] = []           # rows written between one turn and the next
    run_many = raw.Prepared.run_many

    def counted(self, connection, rows, many=True):
        written["rows"] += len(rows) if many else 0
        return run_many(self, connection, rows, many)

    def turn(seconds):
        assert seconds == 0
        since.append(written["rows"] - sum(since))

    monkeypatch.setattr(raw.Prepared, "run_many", counted)
    monkeypatch.setattr(turns.time, "sleep", turn)
    assert send_import(client, body).status_code == 201
    assert written["rows"] == COUNT
    assert len(since) >= COUNT // raw.RAW_BATCH
    assert max(since) <= raw.RAW_BATCH


def test_a_full_import_pool_answers_503_and_stores_nothing(tmp_path):
    app = make_app(tmp_path, HEAVY_WAIT=0)
    client = app.test_client()
    play = long_play(app, 10)
    body = exported(client, play)
    store = app.extensions["companion"].store
    before = len(store.recent_plays(limit=100))
    with every_process_busy(the_import_pool(app)):
        busy = send_import(client, body, **{"Accept-Language": "de"})
        assert busy.status_code == 503
        assert int(busy.headers["Retry-After"]) > 0
        assert busy.get_json()["error"] == {
            "code": "busy", "message": "The server is busy making other documents right "
                                       "now; try again in a moment."}
        page = client.post("/import", data={"json": body.decode()},
                           headers={"Accept-Language": "de"})
        assert page.status_code == 503 and "Retry-After" in page.headers
        assert "Der Server erstellt gerade andere Dokumente" in page.get_data(as_text=True)
        tap = client.post(f"/api/v1/plays/{play['id']}/events",
                          headers={"Authorization": f"Bearer {play['edit_token']}"},
                          json={"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 3}}})
        assert tap.status_code == 200          # the table's taps go on
        assert len(store.recent_plays(limit=100)) == before
    assert send_import(client, body).status_code == 201


@pytest.mark.parametrize("refused", [
    (b"{", 400, "invalid_json", None),
    (json.dumps({"format": "north-sea-companion/play", "format_version": 1,
                 "game": "nope"}).encode(), 404, "unknown_game", "game"),
])
def test_a_refusal_made_in_the_import_process_is_answered_as_before(app, refused):
    body, status, code, field = refused
    reply = send_import(app.test_client(), body)
    assert reply.status_code == status
    error = reply.get_json()["error"]
    assert error["code"] == code and error.get("field") == field


def test_an_import_process_that_died_is_replaced(app):
    client = app.test_client()
    body = exported(client, long_play(app, 5))
    assert send_import(client, body).status_code == 201
    pool = the_import_pool(app)
    kill_every_process(pool)
    assert send_import(client, body).status_code == 201
    assert pool.processes()
