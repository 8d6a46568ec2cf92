"""A client that ignores Retry-After is answered before Flask, and held (issue 22, F2).

Flask-Limiter refuses a request over its client's allowance with a 429 and Retry-After. A
client that ignores it and asks again at once (a script looping ``scoresheet.pdf``) was
refused again and again, about 600 times a second, each refusal a whole Flask request: the
session, the limits, an error page. That stream of refusals, not the PDFs, raised the other
tables' tap p95 8-28x on a quiet machine (docs/benchmarks.md).

The gate, a WSGI middleware in front of the app, remembers what Flask-Limiter refused: from
its ``on_breach`` hook, per client address, the route (endpoint and method) and the limit
that refused it (Flask-Limiter's own limit item and storage key). A further request from
that address to that route is answered here, without Flask, for as long as Flask-Limiter's
own storage says that limit is still used up (``get_window_stats``, the numbers its
Retry-After comes from): the same 429 with the same Retry-After and limit headers, the API's
JSON body, a page's sentence in the page's language. The limits are still declared once, in
companion/web/limits.py; the gate only asks Flask-Limiter again.

Under gevent (``companion serve``) such a repeat is also held first, up to ``REFUSAL_HOLD``
seconds (a sleeping greenlet: no thread, no CPU), and served by the app if its allowance came
back meanwhile: the server, not the client, sets how fast a client over its limit is
answered. At most ``held_per_address`` repeats of one address are held at once (one play's
phones, as for the live streams); one more is answered at once and its connection closed, so
a client cannot hold the worker's connections this way.

The address is the one the limits count (``client_address``): behind a reverse proxy every
phone shares the proxy's address, as they share its allowances; only the route that is over
its limit is answered here, the others go to the app as usual.
"""
from __future__ import annotations

import threading
import time
from collections import Counter

from flask import Flask, request
from flask_babel import force_locale
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Request

from .errors import api_path
from .i18n import LANGUAGES, locale_of
from .limits import (
    RATE_LIMITED,
    UNROUTED,
    TooMany,
    answer_refusal,
    client_address,
    route_of_request,
)
from .stream_caps import crowd_size

KEEP = 4096   # addresses remembered at most; the oldest refusals are forgotten first


def cooperative_sleep() -> bool:
    """Whether a sleep here is a greenlet's (gevent patched the worker) and holds no thread."""
    try:
        from gevent import monkey
    except ImportError:   # pragma: no cover - gevent is a dependency
        return False
    return monkey.is_module_patched("time")


class Breach:
    """The limit that refused a route for an address: Flask-Limiter's limit item and the
    arguments it keys its storage with."""
    __slots__ = ("limit", "args")

    def __init__(self, limit, args):
        self.limit, self.args = limit, args


class LimitGate:
    def __init__(self, app: Flask, wsgi_app, held_per_address: int):
        self.app, self.wsgi_app = app, wsgi_app
        self.held_per_address = held_per_address
        self.breaches: dict[str, dict[tuple[str, str], Breach]] = {}
        self.held: Counter = Counter()
        self.sentences: dict[str, str] = {}
        self._lock = threading.Lock()

    # ---- fed by Flask-Limiter
    def remember(self, request_limit) -> None:
        """Flask-Limiter's ``on_breach``: this request is refused by the app as usual; the
        next ones to the same route from the same address are refused here."""
        if not self.sentences:
            for code in LANGUAGES:
                with force_locale(code):
                    self.sentences[code] = str(RATE_LIMITED)
        address = client_address(request.environ)
        route = (route_of_request(), request.method)
        with self._lock:
            if address not in self.breaches and len(self.breaches) >= KEEP:
                del self.breaches[next(iter(self.breaches))]
            self.breaches.setdefault(address, {})[route] = Breach(
                request_limit.limit, list(request_limit.request_args))

    def forget(self, address: str, route) -> None:
        with self._lock:
            routes = self.breaches.get(address)
            if routes is not None:
                routes.pop(route, None)
                if not routes:
                    del self.breaches[address]

    # ---- in front of the app
    def __call__(self, environ, start_response):
        address = client_address(environ)
        routes = self.breaches.get(address)
        if not routes:
            return self.wsgi_app(environ, start_response)
        route = self.route(environ)
        breach = routes.get(route)
        if breach is None:
            return self.wsgi_app(environ, start_response)
        wait = self.refused_for(breach)
        close = False
        hold = float(self.app.config["REFUSAL_HOLD"])
        if wait and hold > 0 and cooperative_sleep():
            if self.held[address] < self.held_per_address:
                self.held[address] += 1
                try:
                    time.sleep(min(hold, wait))
                finally:
                    self.held[address] -= 1
                    if not self.held[address]:
                        del self.held[address]
                wait = self.refused_for(breach)
            else:
                close = True
        if not wait:
            self.forget(address, route)
            return self.wsgi_app(environ, start_response)
        return self.refuse(environ, start_response, breach, wait, close)

    def route(self, environ):
        """The route and method Flask-Limiter will count: the endpoint, or UNROUTED for a URL
        the app answers without a view (404, 405, a redirect)."""
        method = environ.get("REQUEST_METHOD")
        try:
            endpoint, _ = self.app.url_map.bind_to_environ(environ).match(method=method)
        except (HTTPException, RequestRedirect):
            return UNROUTED, method
        except ValueError:   # not a URL at all: the app answers it
            return None
        return endpoint, method

    def refused_for(self, breach: Breach) -> int:
        """Seconds until Flask-Limiter lets this route through again (0: it does now),
        counted as Flask-Limiter counts its Retry-After."""
        limiter = self.app.extensions["companion_limiter"].limiter
        try:
            reset_time, remaining = limiter.get_window_stats(breach.limit, *breach.args)
        except Exception:   # its storage unreachable: the app and Flask-Limiter decide
            return 0
        if remaining > 0:
            return 0
        return max(1, int(int(reset_time + 1) - time.time()))

    def refuse(self, environ, start_response, breach: Breach, wait: int, close: bool):
        path = environ.get("PATH_INFO") or ""
        api = api_path(path)
        language = "en" if api else locale_of(Request(environ))
        sentence = self.sentences.get(language) or str(RATE_LIMITED)
        refusal = TooMany(sentence, wait, "rate_limited")
        headers = [("X-RateLimit-Limit", str(breach.limit.amount)),
                   ("X-RateLimit-Remaining", "0"),
                   ("X-RateLimit-Reset", str(int(time.time()) + wait))]
        return answer_refusal(refusal, api, start_response, close=close, headers=headers)


def init_limit_gate(app: Flask) -> LimitGate:
    """Call before init_limits: Flask-Limiter takes its ``on_breach`` from the config."""
    gate = LimitGate(app, app.wsgi_app, crowd_size(app.config))
    app.config["RATELIMIT_ON_BREACH_CALLBACK"] = gate.remember
    app.wsgi_app = app.extensions["limit_gate"] = gate
    return gate
