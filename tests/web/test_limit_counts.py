"""The limits' counts (companion/web/limit_counts.py): kept in memory as the ``limits`` library
keeps them, read and expired the same, but no timer is started by a count, and what expired is
still swept from memory."""
from __future__ import annotations

import threading
import time

import pytest
from limits import parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from companion.web import limit_counts
from companion.web.limit_counts import SweptMemoryStorage
from tests.conftest import make_app


@pytest.fixture
def timers_started(monkeypatch):
    """Every threading.Timer made from now on (the library makes them through the module)."""
    made = []

    class Counted(threading.Timer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(threading, "Timer", Counted)
    return made


@pytest.mark.parametrize("kind, timers", [(MemoryStorage, True), (SweptMemoryStorage, False)])
def test_a_count_starts_no_timer(kind, timers, timers_started):
    """The library's memory storage starts a timer on a count once the last one has run out
    (so this test can tell); ours never does, and counts the same."""
    storage = kind()
    del timers_started[:]               # (the library's constructor starts one; ours stops it)
    limiter, limit = FixedWindowRateLimiter(storage), parse("3 per minute")
    answers = []
    for _ in range(4):
        answers.append(limiter.hit(limit, "10.0.0.7", "changes"))
        time.sleep(0.03)                # past the library's 10 ms timer
    assert answers == [True, True, True, False]
    assert limiter.get_window_stats(limit, "10.0.0.7", "changes").remaining == 0
    assert bool(timers_started) is timers
    for timer in timers_started:
        timer.cancel()


def test_expired_counts_are_read_as_gone_and_swept_from_memory(monkeypatch):
    storage = SweptMemoryStorage()
    monkeypatch.setattr(limit_counts, "SWEEP_EVERY", 3600.0)    # no sweep: read lazily
    storage.incr("old", 0.01)
    time.sleep(0.02)
    storage.incr("new", 60)
    assert "old" in storage.storage                             # still held ...
    assert storage.get("old") == 0 and "old" not in storage.storage   # ... gone when read
    storage.incr("left", 0.01)                                  # an address seen once
    time.sleep(0.02)
    monkeypatch.setattr(limit_counts, "SWEEP_EVERY", 0.0)       # the sweep is due
    storage.incr("new", 60)
    assert "left" not in storage.storage and "left" not in storage.expirations
    assert storage.get("new") == 2


def test_the_app_counts_there_by_default(tmp_path, timers_started):
    assert isinstance(storage_from_string("swept-memory://"), SweptMemoryStorage)
    app = make_app(tmp_path, RATELIMIT_ENABLED=True)
    assert isinstance(app.extensions["companion_limiter"].storage, SweptMemoryStorage)
    client = app.test_client()
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"],
                                              "seed": 1}).get_json()
    del timers_started[:]
    for vp in range(3):
        reply = client.post(f"/api/v1/plays/{play['id']}/events",
                            headers={"Authorization": f"Bearer {play['edit_token']}"},
                            json={"type": "sheet", "data": {"player": "Ann",
                                                            "fields": {"vp": vp}}})
        assert reply.status_code == 200 and "X-RateLimit-Remaining" in reply.headers
        time.sleep(0.03)
    assert timers_started == []
