"""CSRF, bearer tokens from headers, and security headers."""
from __future__ import annotations

from flask import Flask, Response

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; "
       "connect-src 'self'; manifest-src 'self'")


def bearer_token(headers) -> str | None:
    value = headers.get("Authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def add_security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


def init_security(app: Flask) -> None:
    from flask_wtf.csrf import CSRFProtect

    csrf = CSRFProtect(app)
    app.extensions["csrf_protect"] = csrf
    app.after_request(add_security_headers)
