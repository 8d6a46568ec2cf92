"""A long import takes turns with the other requests of its worker (companion/turns.py).

An import of 10,000 events is 0.6-0.7 s of CPU: read, every event checked and replayed, the
log written. Made in one go it held its gevent worker throughout, and one client looping
imports raised the other tables' tap p95 11-48x (docs/benchmarks.md, `make bench`'s
`import_loop`). Now each of its long steps lets the worker's other requests run every few
events (``time.sleep(0)``: gevent's yield in a gevent worker). Counted, not timed: between two
turns no step does more than its share of events.
"""
from __future__ import annotations

from companion import exports, importing, turns
from tests.web.test_import_large import long_play, view

COUNT = 2_000


def test_an_import_takes_a_turn_every_few_events_in_each_of_its_steps(app, monkeypatch):
    client = app.test_client()
    play = long_play(app, COUNT)
    body = client.get(f"/api/v1/plays/{play['id']}/export", headers=view(play)).get_data()
    done = {"checked": 0, "replayed": 0, "timed": 0}
    since: list[dict] = []         # what each step did between one turn and the next

    def counted(step, function):
        def wrapper(*args, **kwargs):
            done[step] += 1
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(exports, "check", counted("checked", exports.check))
    monkeypatch.setattr(exports, "apply_event", counted("replayed", exports.apply_event))
    monkeypatch.setattr(importing.clock, "parse", counted("timed", importing.clock.parse))
    last = dict(done)

    def turn(seconds):
        assert seconds == 0
        since.append({step: done[step] - last[step] for step in done})
        last.update(done)

    monkeypatch.setattr(turns.time, "sleep", turn)
    reply = client.post("/api/v1/plays/import", data=body,
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 201
    assert done["checked"] >= COUNT and done["replayed"] == COUNT and done["timed"] >= COUNT
    assert len(since) >= COUNT // turns.EVERY
    worst = {step: max(s[step] for s in since) for step in done}
    # a check or replay of an event counts in the other step too (a replay checks its event)
    assert worst["checked"] <= 41 + turns.EVERY and worst["replayed"] <= turns.EVERY
    assert worst["timed"] <= 101
    # and the rest of the import after its last turn is short: the play answered, no more
    assert {step: done[step] - last[step] for step in done}["replayed"] == 0
