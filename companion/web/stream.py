"""Server-sent events: "version N" to every phone watching a play, the moment it changes.

    GET /plays/<id>/<token>/live          (the page's phones; htmx's SSE extension)
    GET /api/v1/plays/<id>/live           (Authorization: Bearer <edit or view token>)

The stream starts with the current version at once, then one ``event: version`` message per
change, and a ``: heartbeat`` comment every LIVE_HEARTBEAT seconds (15): that keeps proxies
from closing an idle stream and finds a phone that has gone (its write fails, the server
closes the response, and the watch is freed). After LIVE_MAX_SECONDS the server ends the
stream and the browser's EventSource reconnects by itself, starting again with the version.
Tokens are checked exactly as ``poll`` does: a wrong one is a plain 404 that tells nothing.
How many streams one address, one play and one server process may hold: stream_caps.py,
which admits or refuses a stream request before it reaches this module.
"""
from __future__ import annotations

import time

from flask import Blueprint, Response, abort, current_app, request

from ..games.errors import RuleError
from ..tokens import bearer_token, token_role
from . import service

bp = Blueprint("stream", __name__)

HEARTBEAT = 15.0
MAX_SECONDS = 600.0
RETRY_MS = 1000   # how soon the browser reconnects after the stream ended


def notifier():
    return current_app.extensions["notifier"]


@bp.get("/plays/<play_id>/<token>/live")
def page_live(play_id, token):
    response = _stream(play_id, token)
    if response is None:
        abort(404)
    return response


@bp.get("/api/v1/plays/<play_id>/live")
def api_live(play_id):
    """Server-sent events: 'event: version' with the play's version at once and at every
    change (from any worker or server), a ': heartbeat' comment every 15 s; the server ends
    the stream after 10 minutes (reconnect, as EventSource does)"""
    token = bearer_token(request.headers)
    if token is None:
        raise RuleError("Send the play's token as 'Authorization: Bearer <token>'.", None,
                        "unauthorized", 401)
    response = _stream(play_id, token)
    if response is None:
        raise RuleError("That token does not open this play.", None, "forbidden", 403)
    return response


def _stream(play_id: str, token: str) -> Response | None:
    """The event stream, or None when the play or the token is wrong."""
    if len(play_id) > 32:
        return None
    watch = notifier().watch(play_id)   # before reading the version: no change slips by
    try:
        access = service().store.play_access(play_id)
    except Exception:
        watch.close()
        raise
    if access is None or token_role(access, token) is None:
        watch.close()
        return None
    config = current_app.config
    heartbeat = float(config.get("LIVE_HEARTBEAT", HEARTBEAT))
    lifetime = float(config.get("LIVE_MAX_SECONDS", MAX_SECONDS))
    response = Response(_messages(watch, access.version, heartbeat, lifetime),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache, no-transform",
                                 "X-Accel-Buffering": "no"})
    response.call_on_close(watch.close)   # also when the stream never started
    return response


def _messages(watch, version: int, heartbeat: float, lifetime: float):
    try:
        yield f"retry: {RETRY_MS}\nevent: version\ndata: {version}\n\n"
        end = time.monotonic() + lifetime
        while (left := end - time.monotonic()) > 0:
            newer = watch.wait(version, min(heartbeat, left))
            if watch.gone:
                return
            if newer is None:
                yield ": heartbeat\n\n"
            else:
                version = newer
                yield f"event: version\ndata: {version}\n\n"
    finally:
        watch.close()
