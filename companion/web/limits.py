"""Limits, so one client cannot fill the disk or slow the other tables.

- Per client address and minute (Flask-Limiter, counted in each server process's memory):
  plays created (the API, the new-play form, imports) and changes to plays (events, undo,
  redo; pages and API together). The defaults are far above what a real table does: five
  phones tapping as fast as people can tap stay an order of magnitude below the event limit.
- At most HEAVY_SLOTS documents (score-sheet PDFs, score pads, Seafarers board PDFs, imports) are
  made at once per server process; a request that finds no free slot within HEAVY_WAIT
  seconds is told to try again, so the threads that answer the tables' taps stay free.
Both answer 429 with a plain sentence (JSON for the API) and a Retry-After header.
"""
from __future__ import annotations

import os
import threading
from functools import wraps

from flask import Flask, current_app
from werkzeug.exceptions import TooManyRequests

DEFAULTS = {
    "RATELIMIT_PLAYS": "60 per minute",       # plays created per client
    "RATELIMIT_EVENTS": "1500 per minute",    # events, undo and redo per client
    "RATELIMIT_HEAVY": "40 per minute",       # PDFs, boards, imports per client
    "HEAVY_SLOTS": 1,                         # documents made at once per process
    "HEAVY_WAIT": 0.5,                        # seconds a document waits for a slot
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
}

# settings a club can change in the environment (e.g. behind a reverse proxy, where every phone
# arrives from the proxy's one address)
FROM_ENVIRONMENT = ("RATELIMIT_PLAYS", "RATELIMIT_EVENTS", "RATELIMIT_HEAVY", "HEAVY_SLOTS",
                    "HEAVY_WAIT", "RATELIMIT_STORAGE_URI")

PLAY_CREATION = ("api.create_play", "pages.new_play", "table.import_page", "table.api_import")
PLAY_CHANGES = ("api.post_event", "api.undo", "api.redo", "pages.post_event", "pages.move",
                "api.delete_play", "pages.delete_play", "pages.owner_delete_play")
HEAVY = ("api.scoresheet", "pages.scoresheet", "table.pad", "boards.seafarers_pdf",
         "table.import_page", "table.api_import")


class Busy(TooManyRequests):
    description = ("The server is busy making other documents right now; "
                   "try again in a moment.")


def _setting(name: str):
    def value() -> str:
        return current_app.config[name]
    return value


def init_limits(app: Flask) -> None:
    """Call after every blueprint is registered: limits are attached to their endpoints."""
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    for key, value in DEFAULTS.items():
        app.config.setdefault(key, os.environ.get(key, value) if key in FROM_ENVIRONMENT
                              else value)
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["companion_limiter"] = limiter
    for names, scope, setting in ((PLAY_CREATION, "plays", "RATELIMIT_PLAYS"),
                                  (PLAY_CHANGES, "changes", "RATELIMIT_EVENTS")):
        rule = limiter.shared_limit(_setting(setting), scope=scope,
                                    methods=["POST", "DELETE"])
        for endpoint in names:   # the limiter checks in the wrapper it returns
            if endpoint in app.view_functions:
                app.view_functions[endpoint] = rule(app.view_functions[endpoint])
    heavy_rule = limiter.shared_limit(_setting("RATELIMIT_HEAVY"), scope="heavy")
    slots = threading.BoundedSemaphore(int(app.config["HEAVY_SLOTS"]))
    for endpoint in dict.fromkeys(HEAVY):
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = heavy_rule(
                _one_at_a_time(app.view_functions[endpoint], slots))


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
