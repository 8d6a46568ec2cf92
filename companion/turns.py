"""Long work in a request takes turns with the worker's other requests.

A gevent worker runs one greenlet until it yields: an import of 10,000 events made in the
request (0.7 s of CPU: reading the file, replaying every event, writing the log) held every
other request of its worker until it was done, so one client looping imports raised the other
tables' tap p95 about 90x (docs/benchmarks.md). The reading and replaying now happen in a
process of their own (companion/importing.py); what is left in the request, writing the log's
rows, goes through ``in_turns``, which lets the others run every ``every`` items: under gevent
``time.sleep(0)`` is gevent's own yield to the hub (its loop polls the sockets, so a tap that
arrived meanwhile is answered); in a threaded or plain process it only offers the GIL.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
EVERY = 10   # items between turns


def in_turns(items: Iterable[T], every: int = EVERY) -> Iterator[T]:
    """``items``, letting the worker's other requests run after every ``every`` of them."""
    for i, item in enumerate(items, 1):
        yield item
        if i % every == 0:
            time.sleep(0)   # looked up at call time: gevent's when it patched the worker
