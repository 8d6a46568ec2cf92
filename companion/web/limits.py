"""Limits, so one client cannot fill the disk or slow the other tables.

- Per client address and minute (Flask-Limiter, counted in each server process's memory), one
  allowance per kind of request: plays created, changes to plays, documents (PDFs, imports),
  calculations (setup, score, heroes, QR codes, charts, Seafarers boards, exports) and, for every
  other route, reads (pages, play blocks, polls, live streams opened, API reads), counted per
  route; an address the app does not route (a 404, a 405, a redirect) counts as one such route.
  The defaults are far above what a real table does. Only /healthz (a health check must never
  be refused, and it costs no more than a refusal would) and static files are free.
- Live streams held open: companion/web/stream_caps.py. PDFs are made in a small pool of
  processes beside each server process (companion/process_pool.py), HEAVY_SLOTS of them;
  imports HEAVY_SLOTS at once per process, each checked in a pool of as many import processes
  and written by the request. A request that finds no free one within HEAVY_WAIT seconds is
  told to try again (503), so the tables' taps go on.
Every refusal is a plain sentence (JSON for the API) with a Retry-After header. A client that
asks again before its Retry-After is answered in front of the app, and held under gevent
(companion/web/limit_gate.py).
"""
from __future__ import annotations

import json
import os
import threading
from functools import wraps

from flask import Flask, current_app, request
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

DEFAULTS = {
    "RATELIMIT_PLAYS": "60 per minute",       # plays created per client
    "RATELIMIT_EVENTS": "1500 per minute",    # events, undo, redo, deletes, box data per client
    "RATELIMIT_HEAVY": "40 per minute",       # PDFs, pads, board PDFs, imports per client
    "RATELIMIT_COMPUTE": "120 per minute",    # setup, score, heroes, QR codes, charts, boards
    "RATELIMIT_READS": "1200 per minute",     # every other route, each on its own
    "HEAVY_SLOTS": 1,                         # PDF processes and imports at once per process
    "HEAVY_WAIT": 0.5,                        # seconds a document waits for a free one
    "RATELIMIT_STORAGE_URI": "swept-memory://",   # memory, no timer a count (limit_counts.py)
    "RATELIMIT_HEADERS_ENABLED": True,
    "REFUSAL_HOLD": 1.0,   # seconds a repeat refusal is held under gevent (limit_gate.py)
}

# settings a club can change in the environment (e.g. behind a reverse proxy, where every phone
# arrives from the proxy's one address)
FROM_ENVIRONMENT = ("RATELIMIT_PLAYS", "RATELIMIT_EVENTS", "RATELIMIT_HEAVY",
                    "RATELIMIT_COMPUTE", "RATELIMIT_READS", "HEAVY_SLOTS", "HEAVY_WAIT",
                    "RATELIMIT_STORAGE_URI", "REFUSAL_HOLD")

PLAY_CREATION = ("api.create_play", "pages.new_play", "table.import_page", "table.api_import")
PLAY_CHANGES = ("api.post_event", "api.undo", "api.redo", "pages.post_event", "pages.move",
                "api.delete_play", "pages.delete_play", "pages.owner_delete_play",
                "pages.save_box_values", "api.put_catalogue", "api.restore_catalogue",
                "api.undo_catalogue", "pages.catalogue", "pages.catalogue_form",
                "pages.shipwrights_catalogue_form", "pages.catalogue_restore",
                "pages.catalogue_undo", "book_layouts.edit")
HEAVY = ("api.scoresheet", "pages.scoresheet", "table.pad", "boards.seafarers_pdf",
         "table.import_page", "table.api_import")
IMPORTS = ("table.import_page", "table.api_import")   # HEAVY_SLOTS at once
COMPUTE = ("api.setup", "api.score", "api.shipwrights_heroes", "api.join_svg",
           "pages.join_svg", "table.seat_svg", "table.chart_svg", "boards.seafarers",
           "table.export", "table.api_export", "display.display_with_seats")
FREE = ("pages.healthz",)   # and static files (Flask-Limiter leaves those alone by itself)
# what the limits call a request the app does not route: Flask-Limiter would leave it alone
# (it counts by endpoint, and such a request has none), so a loop of 404s went uncounted
UNROUTED = "unrouted"


RATE_LIMITED = _l("This device has sent too many requests in a minute; wait a moment and try "
                  "again.")


class Refusal:
    """A request refused for the server's sake: its status, code, sentence and how many
    seconds to wait (Retry-After). The sentence is in the page's language on pages, English
    in the API (companion/web/errors.py)."""
    error_code = "busy"
    retry_after = 5
    sentence = _l("The server is busy making other documents right now; try again in a "
                  "moment.")

    def __init__(self, sentence=None, retry_after: int | None = None, error_code=None):
        super().__init__()   # werkzeug's 429 and 503 set their own retry_after (None)
        self.sentence = self.sentence if sentence is None else sentence
        self.retry_after = type(self).retry_after if retry_after is None else retry_after
        self.error_code = self.error_code if error_code is None else error_code
        self.description = str(self.sentence)


class Busy(Refusal, ServiceUnavailable):
    """Every document slot (PDF process, import) of this server process is taken: 503."""


class TooMany(Refusal, TooManyRequests):
    """A refusal of this client for holding too much at once: 429."""


def client_address(environ) -> str:
    """The address every limit counts by (Flask-Limiter's key, the live streams' caps, the
    gate in front of the app): the connection's, as gunicorn gives it. Behind a reverse proxy
    that is the proxy's, for every phone (docs/deployment.md)."""
    return environ.get("REMOTE_ADDR") or "127.0.0.1"


def answer_refusal(refusal: Refusal, api: bool, start_response, close: bool = True,
                   headers=()):
    """A refusal answered in front of the app (WSGI), without Flask: the API's JSON error
    (as companion/web/errors.py writes it), else the sentence as plain text, with Retry-After.
    ``close``: the server closes the connection after it. gunicorn keeps a connection open
    for the next request (keep-alive) and ignores an app's own ``Connection: close``; its
    ``start_response`` belongs to its response object, whose ``force_close`` does it."""
    if api:
        body = json.dumps({"error": {"code": refusal.error_code, "message": refusal.sentence}},
                          separators=(",", ":")).encode() + b"\n"
        kind = "application/json"
    else:
        body, kind = (refusal.sentence + "\n").encode(), "text/plain; charset=utf-8"
    force = getattr(getattr(start_response, "__self__", None), "force_close", None)
    if close and force is not None:
        force()
    start_response(f"{refusal.code} {refusal.name}",
                   [("Content-Type", kind), ("Content-Length", str(len(body))),
                    ("Retry-After", str(refusal.retry_after)), ("Cache-Control", "no-store"),
                    *headers])
    return [body]


def route_of_request() -> str:
    """The route the limits count a request by: its endpoint, or UNROUTED."""
    return request.endpoint or UNROUTED


def _setting(name: str):
    def value() -> str:
        return current_app.config[name]
    return value


def init_limits(app: Flask) -> None:
    """Call after every blueprint is registered: limits are attached to their endpoints."""
    from flask_limiter import Limiter

    from . import limit_counts  # noqa: F401 (registers swept-memory:// with the library)

    for key, value in DEFAULTS.items():
        app.config.setdefault(key, os.environ.get(key, value) if key in FROM_ENVIRONMENT
                              else value)
    shared = ((PLAY_CREATION, "plays", "RATELIMIT_PLAYS", ["POST", "DELETE"]),
              (PLAY_CHANGES, "changes", "RATELIMIT_EVENTS", ["POST", "PUT", "DELETE"]),
              (COMPUTE, "compute", "RATELIMIT_COMPUTE", None))
    counted = {(endpoint, method) for names, _, _, methods in shared if methods
               for endpoint in names for method in methods}

    def counted_by_its_own_limit() -> bool:
        """A change is counted by the changes' (or plays') limit alone, not by the reads'
        allowance as well: counted twice, one client's events met the reads' 1200 a minute
        before the changes' 1500, and each paid for two checks."""
        return (request.endpoint, request.method) in counted

    # (its on_breach, RATELIMIT_ON_BREACH_CALLBACK, is the gate's: companion/web/limit_gate.py)
    limiter = Limiter(lambda: client_address(request.environ), app=app,
                      request_identifier=route_of_request,
                      default_limits=[_setting("RATELIMIT_READS")],
                      default_limits_exempt_when=counted_by_its_own_limit)
    app.extensions["companion_limiter"] = limiter
    views = app.view_functions
    for endpoint in FREE:
        views[endpoint] = limiter.exempt(views[endpoint])
    for names, scope, setting, methods in shared:
        # a route limited for some methods keeps the reads allowance for the others (a GET of
        # the new-play form, the delete confirmation)
        rule = limiter.shared_limit(_setting(setting), scope=scope, methods=methods,
                                    override_defaults=methods is None)
        for endpoint in names:   # the limiter checks in the wrapper it returns
            views[endpoint] = rule(views[endpoint])
    heavy_rule = limiter.shared_limit(_setting("RATELIMIT_HEAVY"), scope="heavy")
    slots = threading.BoundedSemaphore(int(app.config["HEAVY_SLOTS"]))
    for endpoint in dict.fromkeys(HEAVY):
        view = views[endpoint]
        views[endpoint] = heavy_rule(_one_at_a_time(view, slots) if endpoint in IMPORTS
                                     else view)
    _checked_once(app, limiter, {*PLAY_CREATION, *PLAY_CHANGES, *COMPUTE, *HEAVY})
    _resolved_once(limiter.limit_manager, app.config)


def _checked_once(app: Flask, limiter, decorated: set[str]) -> None:
    """Each request's limits are evaluated once. Flask-Limiter evaluates them in a
    before-request hook and, for a view wrapped by one of its limits, again in that wrapper
    (the view's own limits, and the reads' allowance for the methods they leave out); for
    such a view the hook finds nothing to count but resolves and evaluates an empty list,
    as much work as the count itself (about a third of the limiter's time on every change).
    The hook now skips the views whose wrapper checks them; every other request (the
    reads, /healthz, an address the app does not route) is checked by it as before."""
    hooks = app.before_request_funcs.get(None, [])
    check = limiter._check_request_limit     # the hook Flask-Limiter registered
    if check not in hooks:                   # the limits are off (RATELIMIT_ENABLED)
        return

    def check_unless_the_view_does() -> None:
        if request.endpoint not in decorated:
            check()

    hooks[hooks.index(check)] = check_unless_the_view_does


# the settings the limits' strings are read from, each time they are resolved (_setting)
LIMIT_SETTINGS = ("RATELIMIT_PLAYS", "RATELIMIT_EVENTS", "RATELIMIT_HEAVY", "RATELIMIT_COMPUTE",
                  "RATELIMIT_READS")


def _resolved_once(manager, config) -> None:
    """Flask-Limiter works out which limits apply to a request anew on every request: the
    route's declared limits, the blueprint's, the defaults and the exemptions, each limit
    string read from the config and parsed (about half of its check of an event, 0.06 ms).
    What it works out depends only on the route, how the library is asked, the limits as
    declared (fixed once init_limits has run: the endpoint hints it learns are in the key)
    and the settings' values (in the key too, so a changed setting is read as before). The
    answer is kept per such key; counting, exemptions by request (``exempt_when``, methods)
    and the headers stay the library's, per request, on the same limit objects it made."""
    resolve, exempted = manager.resolve_limits, manager.exemption_scope
    resolved: dict = {}
    scopes: dict = {}

    def settings() -> tuple:
        return tuple(config.get(name) for name in LIMIT_SETTINGS)

    def resolve_limits(app, endpoint=None, blueprint=None, callable_name=None,
                       in_middleware=False, marked_for_limiting=False):
        key = (endpoint, blueprint, callable_name, in_middleware, marked_for_limiting,
               len(manager._endpoint_hints.get(endpoint or "", ())), settings())
        found = resolved.get(key)
        if found is None:
            found = resolved[key] = resolve(app, endpoint, blueprint, callable_name,
                                            in_middleware, marked_for_limiting)
        return tuple(list(part) for part in found)   # lists of their own, as it returns

    def exemption_scope(app, endpoint, blueprint):
        key = (endpoint, blueprint)
        found = scopes.get(key)
        if found is None:
            found = scopes[key] = exempted(app, endpoint, blueprint)
        return found

    manager.resolve_limits, manager.exemption_scope = resolve_limits, exemption_scope


def _one_at_a_time(view, slots: threading.BoundedSemaphore):
    @wraps(view)
    def limited(*args, **kwargs):
        if not slots.acquire(timeout=float(current_app.config["HEAVY_WAIT"])):
            raise Busy()
        try:
            return view(*args, **kwargs)
        finally:
            slots.release()
    return limited
