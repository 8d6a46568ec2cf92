"""CSRF, bearer tokens from headers, security headers, and Secure cookies behind https."""
from __future__ import annotations

from flask import Flask, Response, current_app, request
from flask.sessions import SecureCookieSessionInterface

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; "
       "connect-src 'self'; manifest-src 'self'")


def add_security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


def behind_https() -> bool:
    """Whether the phone reached this request over https: the connection itself (or
    gunicorn's trusted proxy header), a reverse proxy's X-Forwarded-Proto or Forwarded
    proto, or a PUBLIC_URL that is https. Every cookie is then Secure. (A client that claims
    https over plain http only makes its own cookies Secure: its browser drops them.)"""
    if request.is_secure:
        return True
    if (current_app.config.get("PUBLIC_URL") or "").lower().startswith("https://"):
        return True
    proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    forwarded = request.headers.get("Forwarded", "").split(",")[0].lower()
    return proto == "https" or any(part.strip() == "proto=https"
                                   for part in forwarded.split(";"))


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, Secure behind https (SESSION_COOKIE_SECURE is one
    setting for every request; whether a request came over https is known per request)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or behind_https()


# the only addresses that read more than MAX_CONTENT_LENGTH: an export read back
LARGE_BODIES = ("table.import_page", "table.api_import")


def allow_large_bodies() -> None:
    """An import may be as large as the exports the app makes (IMPORT_MAX_BODY); every other
    address keeps MAX_CONTENT_LENGTH. Set before anything reads the body (the CSRF check of
    the import form reads it, so this runs first)."""
    if request.endpoint in LARGE_BODIES:
        limit = current_app.config["IMPORT_MAX_BODY"]
        request.max_content_length = limit
        request.max_form_memory_size = limit     # the page's text box for pasted JSON


def init_security(app: Flask) -> None:
    from flask_wtf.csrf import CSRFProtect

    app.session_interface = SessionInterface()
    app.before_request(allow_large_bodies)       # before CSRFProtect's own before_request
    csrf = CSRFProtect(app)
    app.extensions["csrf_protect"] = csrf
    app.after_request(add_security_headers)
