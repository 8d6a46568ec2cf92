"""Share links: built on PUBLIC_URL or the LAN address, never localhost."""
from __future__ import annotations

import os

from flask import current_app, request, url_for

from ..netinfo import base_url


def site_root() -> str:
    port = int(os.environ.get("PORT", "5000") or 5000)
    host = request.host if request else None
    return base_url(current_app.config.get("PUBLIC_URL"), host, port)


def play_links(play_id: str, tokens: dict) -> dict:
    """Absolute links for the given tokens: {"edit": ..., "view": ...}."""
    root = site_root()
    return {role: root + url_for("pages.play", play_id=play_id, token=token)
            for role, token in tokens.items() if token}
