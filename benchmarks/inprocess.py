"""What the in-process benchmarks share: an app on a database of their own, a sheet event, and
a timer. (Here, not in __main__.py, which imports the benchmark modules: a module importing
__main__ back made an import cycle.)"""
from __future__ import annotations

import time

from .harness import PLAYERS

__all__ = ["PLAYERS", "make_app", "sheet_event", "timed"]


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
