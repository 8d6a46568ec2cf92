"""What the in-process benchmarks share: an app on a database of their own, a sheet event, and
a timer. (Here, not in __main__.py, which imports the benchmark modules: a module importing
__main__ back made an import cycle.)"""
from __future__ import annotations

import time

from .harness import PLAYERS

__all__ = ["PLAYERS", "event_steps", "make_app", "sheet_event", "timed"]


def timed(fn, repeat: int, warmup: int = 10, clock=time.perf_counter) -> list[float]:
    """``fn(i)`` run ``warmup`` times untimed, then ``repeat`` times, each timed by ``clock``
    (wall time by default; ``time.process_time`` for CPU work on a shared machine)."""
    for i in range(warmup):
        fn(i)
    samples = []
    for i in range(repeat):
        start = clock()
        fn(warmup + i)
        samples.append(clock() - start)
    return samples


# the limits stay on (their cost is part of every request) but far above what one benchmark
# client sends in a minute
UNLIMITED = {name: "1000000 per minute" for name in (
    "RATELIMIT_PLAYS", "RATELIMIT_EVENTS", "RATELIMIT_HEAVY", "RATELIMIT_COMPUTE",
    "RATELIMIT_READS")}


def make_app(url: str, **config):
    from companion import create_app

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "PUBLIC_URL": "http://192.168.1.20:5000", "RATELIMIT_ENABLED": True,
                      **UNLIMITED, **config})
    app.extensions["companion"].store.init_db()
    return app


def sheet_event(i: int, expected=None) -> dict:
    return {"type": "sheet", "data": {"player": PLAYERS[i % 4], "fields": {"vp": i % 200}},
            "expected_version": expected}


def event_steps(app) -> tuple[str, str, dict]:
    """A Knarr play made through the API, its edit token, and the steps the in-process figures
    time by name ({name: step(i)}): the service recording an event, the API's POST .../events
    and /healthz."""
    service, client = app.extensions["companion"], app.test_client()
    body = client.post("/api/v1/plays", json={"game": "knarr", "players": PLAYERS,
                                              "seed": 1}).get_json()
    pid, token = body["id"], body["edit_token"]

    def service_record(i):
        service.record(pid, sheet_event(i))

    def api_post_event(i):
        reply = client.post(f"/api/v1/plays/{pid}/events", json=sheet_event(i),
                            headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.data

    def healthz(i):
        assert client.get("/healthz").status_code == 200

    return pid, token, {"service_record": service_record, "api_post_event": api_post_event,
                        "healthz": healthz}
