"""Where the limits count: this process's memory, as the ``limits`` library's MemoryStorage
keeps it, without a timer started by every count.

MemoryStorage ("memory://") drops a count whose window has passed when it is next read, and
besides sweeps every such count 10 ms after a count: each count (every change, every read the
limits count) starts a new ``threading.Timer`` when the last one has run out, so one client
tapping at a human pace starts one for each tap. Under gevent (``companion serve``) such a
timer is a greenlet started and switched to, a timer on the loop and a sweep: about 0.2 ms of
the 2.7 ms of server CPU a recorded event costs with one client (docs/benchmarks.md), for
counts that are read correctly without it. Here the sweep runs in the request that counts, at
most once every ``SWEEP_EVERY`` seconds: a count is still dropped the moment it is read after
its window (the library's own ``get``), and memory is still freed of every count left behind
(an address seen once) within ``SWEEP_EVERY`` of the next count. ``swept-memory://`` is the
default ``RATELIMIT_STORAGE_URI`` (companion/web/limits.py); any other storage the library
knows can still be set.
"""
from __future__ import annotations

import time

from limits.storage import MemoryStorage

SWEEP_EVERY = 1.0      # seconds


class SweptMemoryStorage(MemoryStorage):
    STORAGE_SCHEME = ["swept-memory"]     # registered with the library by this name

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()               # the one the library starts; no other is started
        self._swept = time.monotonic()

    # MemoryStorage calls its private __schedule_expiry on every count (the library's version
    # is pinned by constraints.txt; tests/web/test_limit_counts.py fails if a timer starts)
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            self._MemoryStorage__expire_events()
