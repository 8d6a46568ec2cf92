"""The headers a phone (or a script) sends with a change: ``Idempotency-Key`` (a retry of the
same change records nothing twice) and ``X-Device-Id`` (whose change it was, for "undo my
last change"). Checked here, once, for the pages and the API alike."""
from __future__ import annotations

import hashlib
import json

from flask import request

from ..games.bodies import MAX_DEVICE
from ..games.errors import RuleError
from ..games.messages import say
from ..plays import valid_device
from ..service import ChangeKey

KEY_HEADER = "Idempotency-Key"
DEVICE_HEADER = "X-Device-Id"
# the same id in a cookie, set by the phone's script, so that a full page load (which cannot
# carry a header) already shows this phone's own "undo my last change"
DEVICE_COOKIE = "nsc_device"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY = 100


def idempotency_key() -> ChangeKey | None:
    """The request's Idempotency-Key (1 to 100 printable ASCII characters) with a digest of
    the request it comes with, or None."""
    key = request.headers.get(KEY_HEADER)
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY or not all(" " <= c <= "~" for c in key):
        raise RuleError(say("The %(header)s header must be 1 to %(count)s printable ASCII "
                            "characters.", header=KEY_HEADER, count=MAX_KEY), KEY_HEADER)
    return ChangeKey(key, request_digest())


# form fields that are not part of the change: the CSRF token (a page reloaded before a queued
# change went out sends the same change with a fresh token)
NOT_THE_CHANGE = frozenset({"csrf_token"})


def request_digest() -> str:
    """SHA-256 of what the change is: the endpoint and its address (the play's token left
    out), the device it comes from, and the body as read: JSON in a canonical form (key order
    and spacing do not matter), form fields sorted. A retry of the same change has the same
    digest; the same key with another change has another (idempotency_key_reused)."""
    what = {"endpoint": request.endpoint,
            "args": {k: v for k, v in (request.view_args or {}).items() if k != "token"},
            "device": request.headers.get(DEVICE_HEADER)}
    try:
        if request.is_json:
            what["body"] = request.get_json(silent=True)
        else:
            what["body"] = sorted((name, value) for name in request.form
                                  if name not in NOT_THE_CHANGE
                                  for value in request.form.getlist(name))
        text = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          default=str)
    except (RecursionError, ValueError):
        # a body the change refuses anyway (nested too deep): its bytes, as sent
        text = json.dumps({**what, "raw": request.get_data().hex()})
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def device_header() -> str | None:
    """The phone's X-Device-Id (1 to 64 printable ASCII characters, no spaces), or None."""
    device = request.headers.get(DEVICE_HEADER)
    if device is None:
        return None
    if not valid_device(device):
        raise RuleError(say("The %(header)s header must be 1 to %(count)s printable ASCII "
                            "characters without spaces.", header=DEVICE_HEADER,
                            count=MAX_DEVICE), DEVICE_HEADER)
    return device


def quiet_device() -> str | None:
    """The device for what a page shows (a bad header just shows no "undo mine"). A full page
    load has no header: the phone's cookie names it then. Only for showing: a change is
    attributed by its header alone."""
    device = request.headers.get(DEVICE_HEADER)
    if device is None:
        device = request.cookies.get(DEVICE_COOKIE)
    return device if valid_device(device) else None
