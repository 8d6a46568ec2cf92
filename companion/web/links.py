"""Share links: built on PUBLIC_URL or the LAN address, never localhost."""
from __future__ import annotations

import os

from flask import current_app, request, url_for

from ..games.errors import RuleError
from ..games.messages import say
from ..netinfo import base_url
from ..tokens import token_seat, view_token_for


def site_root() -> str:
    return base_url(current_app.config.get("PUBLIC_URL"), listening_port())


def listening_port() -> int:
    """The port this server listens on: the one `companion serve` was given, else the one
    the WSGI server reports for its own socket (SERVER_PORT: gunicorn and werkzeug take it
    from the listening socket), else $PORT or 5000. Never the port in the Host header."""
    configured = current_app.config.get("LISTEN_PORT")
    if configured:
        return int(configured)
    own = request.environ.get("SERVER_PORT", "") if request else ""
    if own.isdigit() and 0 < int(own) < 65536:
        return int(own)
    return int(os.environ.get("PORT", "5000") or 5000)


def role_links(play_id: str, role: str, token: str) -> dict:
    """The links a holder of ``token`` may share: the view link always (an editor's view token
    derives from the edit token), the edit link only for an edit token."""
    view = token if role == "view" else view_token_for(token)
    return play_links(play_id, {"view": view, "edit": token if role == "edit" else None})


def share_link(row, role: str, token: str, want_edit: bool) -> str:
    """The link a QR code shows: the edit link only when asked for by an editor. A seat's
    token shares nothing (no view link derives from it; the host's phone shows the table's
    code): a 403, never a code of a link that opens nothing."""
    if token_seat(row, token) is not None:
        raise RuleError(say("A seat's link has no link to share: the host's phone shows the "
                            "table's code."), None, "forbidden", 403)
    links = role_links(row.id, role, token)
    return links["edit"] if want_edit and role == "edit" else links["view"]


def play_links(play_id: str, tokens: dict) -> dict:
    """Absolute links for the given tokens: {"edit": ..., "view": ...}."""
    root = site_root()
    return {role: root + url_for("pages.play", play_id=play_id, token=token)
            for role, token in tokens.items() if token}


def seat_link(play_id: str, token: str) -> str:
    """The absolute link of a seat (issue 24): the play's page opened with that seat's token."""
    return play_links(play_id, {"seat": token})["seat"]
