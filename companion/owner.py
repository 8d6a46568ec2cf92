"""The owner key: whoever holds it may change the installation's box data (and other owner-only
things other parts of the app ask ``is_owner`` about).

The key is made once, kept in the instance folder (file mode 0600) and printed by
``companion owner-key`` and at ``companion serve`` start (as a link with a QR code). A phone that
opens the owner link gets an HttpOnly cookie; machines send ``Authorization: Bearer <key>``.
"""
from __future__ import annotations

import hmac
from pathlib import Path

from flask import Flask, current_app

from .games.errors import RuleError
from .secretfile import read_or_make
from .tokens import bearer_token

OWNER_COOKIE = "nsc_owner"
COOKIE_MAX_AGE = 400 * 24 * 3600      # the longest a browser keeps a cookie (400 days)
KEY_FILE = "owner_key"


def owner_key_path(app: Flask | None = None) -> Path:
    app = app or current_app
    configured = app.config.get("OWNER_KEY_FILE")
    return Path(configured) if configured else Path(app.instance_path) / KEY_FILE


def owner_key(app: Flask | None = None) -> str:
    """The installation's owner key, made on first use (two processes agree on one key)."""
    app = app or current_app
    cached = app.extensions.get("owner_key")
    if cached:
        return cached
    key = read_or_make(owner_key_path(app))   # 256 bits
    app.extensions["owner_key"] = key
    return key


def matches(candidate: str | None, app: Flask | None = None) -> bool:
    if not candidate:
        return False
    return hmac.compare_digest(candidate.encode(), owner_key(app).encode())


def presented_key(request) -> str | None:
    """The key a request carries: the bearer token, else the owner cookie."""
    return bearer_token(request.headers) or request.cookies.get(OWNER_COOKIE)


def is_owner(request) -> bool:
    """True when the request carries the owner key (bearer header or the owner cookie)."""
    return matches(presented_key(request))


def require_owner(request) -> None:
    """401 without any key, 403 with a wrong one (API answers), else nothing."""
    key = presented_key(request)
    if not key:
        raise RuleError("Only the owner can change the box data: send the owner key as "
                        "'Authorization: Bearer <owner key>' (companion owner-key prints it).",
                        None, "owner_key_required", 401)
    if not matches(key):
        raise RuleError("That is not the owner key.", None, "forbidden", 403)


def set_owner_cookie(response, secure: bool) -> None:
    response.set_cookie(OWNER_COOKIE, owner_key(), max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="Lax", secure=secure, path="/")
