"""What the tests of the two process pools (companion/process_pool.py: the PDFs' and the
imports') do to a pool: take every slot, as if each process were busy; kill every process."""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def every_process_busy(pool) -> Iterator[None]:
    """Every slot of ``pool`` taken (a request finds them all busy), given back after."""
    for _ in range(pool.size):
        assert pool.slots.acquire(timeout=30)
    try:
        yield
    finally:
        for _ in range(pool.size):
            pool.slots.release()


def kill_every_process(pool) -> None:
    """SIGKILL every process of ``pool`` (it has one at least), then wait until the pool sees
    none alive (10 s at most)."""
    alive = pool.processes()
    assert alive, "no process to kill: the test's first call made none"
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while pool.processes() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pool.processes()
