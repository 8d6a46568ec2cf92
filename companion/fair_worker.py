"""gunicorn's gevent worker, fair between client addresses when one of them floods it.

gunicorn's gevent worker serves connections first come, first served: the kernel queues them
in order, the worker accepts one per turn of its loop (gunicorn sets ``max_accept = 1`` when
it runs several workers) and handles each in a greenlet of its own, in the order accepted.
When one address opens thousands of connections at once (issue 22, F1: a burst of 2,500
live-stream requests), another table's tap, on a new connection, is queued behind all of
them and is answered after the last one (4-9 s on the loaded test machine), however cheap
each refusal is. Three things together put it first (docs/benchmarks.md measures each):

- each wake-up accepts every waiting connection, up to ``ACCEPT_BATCH`` (gevent's own
  default), so the tap leaves the kernel's queue at once instead of one turn at a time;
- the worker holds ``--connections`` 4096 (companion/cli.py), the listen backlog, so a burst
  that fits the kernel's queue also fits the worker: the tap is not left waiting in the
  queue for the flood's connections to end (the live streams' ceiling stays apart, 750:
  companion/web/stream_caps.py);
- the worker counts each address's open connections. An address holding more than one
  play's phones may hold live streams (LIVE_STREAMS_PER_PLAY, 12: a table behind one Wi-Fi
  router) is crowded: each further connection of it waits, one at a time, until the worker
  has nothing else to do, then is read and answered as usual (a stream refused with its 429
  by stream_caps). Everyone else's requests go first; nobody's request is dropped.
"""
from __future__ import annotations

import resource

import gevent
from gevent.lock import Semaphore
from gevent.server import StreamServer
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker

ACCEPT_BATCH = 100
SPARE_FILES = 256   # the database, logs, the PDF processes' pipes, the app's own files


class BatchAcceptingServer(StreamServer):
    """gevent's StreamServer accepting up to ``ACCEPT_BATCH`` connections a wake-up whatever
    gunicorn sets (it sets 1 to spread connections over its workers evenly: a gevent worker
    holds thousands, and a burst is better drained at once than turn by turn)."""

    max_accept = property(lambda self: ACCEPT_BATCH, lambda self, value: None)


def open_files_for(connections: int) -> None:
    """The soft limit of open files raised, within the hard one, to what ``connections``
    sockets need (many systems start services at 1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))


class FairGeventWorker(GeventWorker):
    def init_process(self):
        from .web.stream_caps import crowd_size

        self.crowd = crowd_size()
        self.open_by_address: dict[str, int] = {}
        self.lanes: dict[str, Semaphore] = {}
        open_files_for(self.worker_connections)
        ggevent.StreamServer = BatchAcceptingServer   # this worker process only (after fork)
        super().init_process()

    def handle(self, listener, client, addr):
        address = addr[0] if isinstance(addr, tuple) else str(addr)
        count = self.open_by_address[address] = self.open_by_address.get(address, 0) + 1
        try:
            if count > self.crowd:
                lane = self.lanes.setdefault(address, Semaphore(1))
                with lane:            # one crowded connection at a time, once the loop is idle
                    gevent.idle()
            super().handle(listener, client, addr)
        finally:
            left = self.open_by_address[address] - 1
            if left:
                self.open_by_address[address] = left
            else:
                del self.open_by_address[address]
                self.lanes.pop(address, None)
