"""One render of a play's block per version, shared by the phones that fetch it.

After a change, every phone at the table fetches the same block within a second or two: the
phone that made the change with its answer, the others on the live stream's "version N". All
of them see the same block (same version, link, language, owner or not) except for what is
this phone's own: its Undo and Redo (plays/_controls.html) and the offer to take back another
phone's change (plays/_undo_other.html); and the game clock, read as each phone asks
(plays/_clock.html). play.html marks those includes as device slots
(``<!--device:name-->...<!--/device-->``); the first render of a version is kept for a few
seconds (per worker process; BLOCK_CACHE_SECONDS, 0 = off), and the next phone gets it with
only its slots rendered again and its own CSRF token written into the forms. A block with
an error or a notice (one phone's answer) is never kept. The kept copy lives that long at
most, so what moves without a new version (box data the owner just saved) is at most that
old.
"""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import current_app, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf

from ..owner import is_owner
from .parts import between
from .seating import SEAT_COOKIE

MAX_KEPT = 128
SLOT_END = "<!--/device-->"
CSRF_VALUE = re.compile(r'(name="csrf_token" value=")[^"]*(")')
SLOTS = {"controls": "plays/_controls.html", "undo_other": "plays/_undo_other.html",
         "clock": "plays/_clock.html"}

_kept: OrderedDict[tuple, tuple[float, str]] = OrderedDict()
_lock = threading.Lock()


def key_of(row, token: str) -> tuple:
    # the seat this phone took with "I am Ben" draws its own block (issue 24)
    return (row.id, row.version, token, str(get_locale() or "en"), is_owner(request),
            request.cookies.get(SEAT_COOKIE, ""))


def seconds() -> float:
    return current_app.config.get("BLOCK_CACHE_SECONDS", 5.0)


def kept(row, token: str) -> str | None:
    key, now = key_of(row, token), time.monotonic()
    with _lock:
        found = _kept.get(key)
        if found is None or now - found[0] > seconds():
            return None
        return found[1]


def keep(row, token: str, html: str) -> None:
    if seconds() <= 0:
        return
    with _lock:
        _kept[key_of(row, token)] = (time.monotonic(), html)
        _kept.move_to_end(key_of(row, token))
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)


def personal(html: str, render_slot: Callable[[str], str]) -> str:
    """A kept block made this phone's: its device slots rendered for it, its CSRF token."""
    pieces = between(html, "<!--device:", SLOT_END)
    for i in range(1, len(pieces), 2):
        name = pieces[i].split("-->", 1)[0]
        pieces[i] = f"<!--device:{name}-->{render_slot(name)}{SLOT_END}"
    html = "".join(pieces)
    if "csrf_token" in html:
        token = generate_csrf()
        html = CSRF_VALUE.sub(lambda m: f"{m[1]}{token}{m[2]}", html)
    return html


def unmarked(html: str) -> str:
    """The block as it is sent: the slot markers gone."""
    pieces = between(html, "<!--device:", SLOT_END)
    for i in range(1, len(pieces), 2):
        pieces[i] = pieces[i].split("-->", 1)[1]
    return "".join(pieces)


def clear() -> None:
    with _lock:
        _kept.clear()
