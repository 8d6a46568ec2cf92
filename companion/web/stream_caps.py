"""How many live streams a server process holds open, and for whom (issue 22, F1).

A live stream is one open connection for as long as a phone shows a play. gunicorn's gevent
worker holds at most ``worker_connections`` connections (4096) and stops accepting new ones
when they are all taken; a gthread worker answers only as many requests at once as it has
threads. One address that opened 2,100 streams therefore left no connection for anyone else.
Each server process now counts its open streams and refuses, before any work is done:

- LIVE_STREAMS_PER_PLAY streams from one client address on one play (a phone needs one
  stream per play it shows; a table behind one Wi-Fi router is a handful of phones and its
  display): 429 with Retry-After;
- LIVE_STREAMS_PER_ADDRESS streams from one client address in all: 429 with Retry-After;
- LIVE_STREAMS_PER_WORKER streams in all, the ceiling that keeps room for ordinary requests:
  by default 750 (gevent; at most three quarters of its connections) or three quarters of
  the worker's threads (gthread), so the rest always answers taps, pages and polls: 503
  with Retry-After.

A refused phone's page keeps working: htmx's SSE extension retries with back-off and the page
polls every 2 s meanwhile. Counts are per server process, like the rate limits.
"""
from __future__ import annotations

import os
import re
import threading
from collections import Counter

from flask import Flask
from werkzeug.wsgi import ClosingIterator

from .limits import Busy, TooMany, answer_refusal, client_address

DEFAULTS = {"LIVE_STREAMS_PER_PLAY": 12, "LIVE_STREAMS_PER_ADDRESS": 100}
# a gevent worker's ceiling: what one process of a Raspberry Pi holds comfortably (its
# connections, 4096, are sized for bursts of connections, not for streams held open)
GEVENT_STREAMS = 750
RETRY_AFTER = 30   # seconds: streams end when phones leave; the page polls meanwhile


def crowd_size(config=None) -> int:
    """One play's phones from one address: LIVE_STREAMS_PER_PLAY (the app's config, the
    environment or its default). The fair worker serves an address with more connections
    than this last (companion/fair_worker.py); the limit gate holds at most this many of an
    address's refused requests (companion/web/limit_gate.py)."""
    key = "LIVE_STREAMS_PER_PLAY"
    return int((config or {}).get(key) or os.environ.get(key) or DEFAULTS[key])


def worker_ceiling(config) -> int:
    """LIVE_STREAMS_PER_WORKER, else three quarters of the server's threads per worker
    (gthread), or of its connections per worker (gevent) up to GEVENT_STREAMS (`companion
    serve` tells the app; outside gunicorn: GEVENT_STREAMS)."""
    if config.get("LIVE_STREAMS_PER_WORKER"):
        return int(config["LIVE_STREAMS_PER_WORKER"])
    if config.get("SERVER_WORKER_CLASS") == "gthread":
        threads = int(config.get("SERVER_THREADS") or 8)
        return max(1, threads - max(2, threads // 4))
    if not config.get("SERVER_CONNECTIONS"):
        return GEVENT_STREAMS
    connections = int(config["SERVER_CONNECTIONS"])
    return max(1, min(GEVENT_STREAMS, connections - connections // 4))


class StreamCaps:
    def __init__(self, per_play: int, per_address: int, per_worker: int):
        self.per_play, self.per_address, self.per_worker = per_play, per_address, per_worker
        self._lock = threading.Lock()
        self._by_pair: Counter = Counter()
        self._by_address: Counter = Counter()
        self.open = 0

    def admit(self, address: str, play_id: str) -> Ticket:
        """A ticket for one more stream, or the refusal (raised)."""
        with self._lock:
            if self.open >= self.per_worker:
                raise Busy(FULL, RETRY_AFTER, "live_streams_full")
            if self._by_address[address] >= self.per_address:
                raise TooMany(TOO_MANY, RETRY_AFTER, "too_many_streams")
            if self._by_pair[address, play_id] >= self.per_play:
                raise TooMany(TOO_MANY_ON_PLAY, RETRY_AFTER, "too_many_streams")
            self._by_pair[address, play_id] += 1
            self._by_address[address] += 1
            self.open += 1
        return Ticket(self, address, play_id)

    def _leave(self, address: str, play_id: str) -> None:
        with self._lock:
            self.open -= 1
            for counter, key in ((self._by_pair, (address, play_id)),
                                 (self._by_address, address)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]


class Ticket:
    """One admitted stream; ``close`` (idempotent) when it ends."""

    def __init__(self, caps: StreamCaps, address: str, play_id: str):
        self.caps, self.address, self.play_id = caps, address, play_id
        self.closed = False

    def close(self) -> None:
        with self.caps._lock:
            if self.closed:
                return
            self.closed = True
        self.caps._leave(self.address, self.play_id)


# not on any page (a phone's EventSource never shows them): the API's English only
TOO_MANY_ON_PLAY = ("This device already follows this play live on too many screens; close "
                    "some of them and try again.")
TOO_MANY = "This device already follows too many plays live; close some pages and try again."
FULL = ("The server follows as many screens live as it can; the page checks for changes every "
        "few seconds instead.")

# the live stream's two routes (companion/web/stream.py); the play id is the first group
STREAM_PATH = re.compile(r"^/(?:api/v1/plays/([^/]+)|plays/([^/]+)/[^/]+)/live$")


def init_stream_caps(app: Flask) -> None:
    """The caps from the app's config or the environment. With the per-client limits off
    (RATELIMIT_ENABLED=0) only the worker's ceiling stays."""
    config = app.config
    for key in (*DEFAULTS, "LIVE_STREAMS_PER_WORKER"):
        config.setdefault(key, os.environ.get(key, DEFAULTS.get(key)))
    per_client = config.get("RATELIMIT_ENABLED", True)
    unlimited = 1 << 30
    caps = app.extensions["stream_caps"] = StreamCaps(
        int(config["LIVE_STREAMS_PER_PLAY"]) if per_client else unlimited,
        int(config["LIVE_STREAMS_PER_ADDRESS"]) if per_client else unlimited,
        worker_ceiling(config))
    app.wsgi_app = StreamGate(app.wsgi_app, caps)


class StreamGate:
    """WSGI middleware in front of the app: a stream request is admitted or refused here,
    before Flask, the session, the limits or the database see it, so refusing thousands costs
    next to nothing (about 0.05 ms each, against 0.8-2 ms through the app with an error page).
    A refusal is a short answer (JSON in the API, one sentence otherwise) whose connection the
    server closes: gunicorn keeps a connection open for the next request (keep-alive) and
    ignores an app's own ``Connection: close``, so a refused client could otherwise go on
    asking on thousands of connections and hold every one of the worker's connections.
    gunicorn's ``start_response`` belongs to its response object, whose ``force_close`` does
    it. An admitted stream's place is freed when its response is closed (the stream ended,
    the phone left, or the app answered something else: a wrong token's 404)."""

    def __init__(self, app, caps: StreamCaps):
        self.app, self.caps = app, caps

    def __call__(self, environ, start_response):
        found = STREAM_PATH.match(environ.get("PATH_INFO") or "")
        if found is None or environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        play_id = found.group(1) or found.group(2)
        try:
            ticket = self.caps.admit(client_address(environ), play_id)
        except (Busy, TooMany) as refusal:
            return answer_refusal(refusal, found.group(1) is not None, start_response)
        try:
            body = self.app(environ, start_response)
        except BaseException:
            ticket.close()
            raise
        return ClosingIterator(body, ticket.close)

