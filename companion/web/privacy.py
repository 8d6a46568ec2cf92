"""Who may see which plays in the lists (`/` and `/history`).

A play is opened by its token; the lists hold names and scores, so they show only the plays
this device has opened (their ids kept in the signed session cookie), and everything to the
owner. Nothing about a play is shown to a device that never held its token.
"""
from __future__ import annotations

from flask import session

from ..owner import is_owner

SEEN_KEY = "plays"
SEEN_MAX = 200          # ids kept per device, newest first (a cookie stays well under 4 KB)


def remember_play(play_id: str) -> None:
    """Note that this device opened the play with a valid token."""
    current = session.get(SEEN_KEY, [])
    if current[:1] == [play_id]:
        return
    seen = [p for p in current if isinstance(p, str) and p != play_id]
    session[SEEN_KEY] = [play_id, *seen][:SEEN_MAX]


def forget_play(play_id: str) -> None:
    seen = session.get(SEEN_KEY, [])
    if play_id in seen:
        session[SEEN_KEY] = [p for p in seen if p != play_id]


def visible_ids(request) -> list[str] | None:
    """The play ids this request may see in a list, or None for all of them (the owner)."""
    if sees_everything(request):
        return None
    return [p for p in session.get(SEEN_KEY, []) if isinstance(p, str)]


def holds_owner_key(request) -> bool:
    return sees_everything(request)


def sees_everything(request) -> bool:
    """The owner (owner cookie or ``Authorization: Bearer <owner key>``) sees every play."""
    return is_owner(request)
