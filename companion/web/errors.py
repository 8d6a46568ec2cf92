"""Every error a person or a program can cause gets a clear answer, never a bare 500."""
from __future__ import annotations

from flask import Flask, Response, jsonify, make_response, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, MethodNotAllowed, SecurityError

from ..games.errors import RuleError
from ..games.messages import say
from ..store import Conflict

# said through say(): English for the API, and extracted for the error page's core()
MESSAGES = {
    400: ("bad_request", say("The request could not be understood.")),
    401: ("unauthorized", say("A token is needed for this play.")),
    403: ("forbidden", say("This token cannot do that.")),
    404: ("not_found", say("There is nothing at this address.")),
    405: ("method_not_allowed", say("This address does not accept that method.")),
    413: ("too_large", say("The request is too large.")),
    415: ("unsupported_media_type",
          say("Send the body as JSON (Content-Type: application/json).")),
}


def format_size(size: int) -> str:
    """256 KiB, 8 MiB: a body limit as people read it."""
    return f"{size // 1024 // 1024} MiB" if size % (1024 * 1024) == 0 else f"{size // 1024} KiB"


def wants_json() -> bool:
    return api_path(request.path)


def api_path(path: str) -> bool:
    """The API answers in JSON (English); every other address is a page."""
    return path.startswith("/api/")


def error_response(status: int, code: str, message: str, field: str | None = None,
                   fields: list[str] | None = None):
    if wants_json():
        body = {"code": code, "message": message}
        if field is not None:
            body["field"] = field
        if fields:
            body["fields"] = fields
        return jsonify({"error": body}), status
    return render_template("error.html", status=status, message=message), status


def database_problem(err: Exception) -> tuple[str, str]:
    """The error code and a sentence naming what is wrong with the database."""
    text = str(getattr(err, "orig", None) or err).lower()
    if "locked" in text or "busy" in text:
        return "database_locked", say("The database is locked by another program; nothing was "
                                      "changed. Try again in a moment.")
    if isinstance(err, PoolTimeout):
        return "database_busy", say("The database has too many requests waiting; nothing was "
                                    "changed. Try again in a moment.")
    return "database_unavailable", say("The database cannot be reached (is the database server "
                                       "running?); nothing was changed. Try again in a moment.")


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def rule_error(err: RuleError):
        return error_response(err.status, err.code, err.message, err.field, err.fields)

    @app.errorhandler(Conflict)
    def conflict(err: Conflict):
        return error_response(409, "version_conflict",
                              say("Someone else changed this play first; here is the fresh "
                                  "state. It is now at version %(version)s.",
                                  version=str(err.current_version)),
                              "expected_version")

    @app.errorhandler(CSRFError)
    def csrf_error(err: CSRFError):
        return error_response(400, "csrf_failed",
                              say("The form expired or came from elsewhere; reload the page and "
                                  "try again."))

    @app.errorhandler(OperationalError)
    @app.errorhandler(InterfaceError)
    @app.errorhandler(PoolTimeout)
    def database_down(err: Exception):
        app.logger.warning("database unavailable: %s", err)
        code, message = database_problem(err)
        response = make_response(error_response(503, code, message))
        response.headers["Retry-After"] = "2"
        return response

    @app.errorhandler(SecurityError)
    def untrusted_host(err: SecurityError):
        """A Host header the server does not answer to (DNS rebinding): no page is built
        (nothing may link to the unknown host), just the sentence."""
        message = ("This server does not answer to that address. Open it by its own "
                   "address; its owner can add a name with TRUSTED_HOSTS.")
        if wants_json():
            return jsonify({"error": {"code": "untrusted_host", "message": message}}), 400
        return Response(message + "\n", 400, mimetype="text/plain")

    @app.errorhandler(429)
    @app.errorhandler(503)
    def refused(err: HTTPException):
        """A limit (Flask-Limiter's 429), or a refusal of companion.web.limits: the sentence in
        the page's language, English in the API, and how long to wait."""
        from flask_babel import force_locale

        from .limits import RATE_LIMITED, Refusal

        if isinstance(err, Refusal):
            code, sentence, wait = err.error_code, err.sentence, str(err.retry_after)
        else:
            # Flask-Limiter sets Retry-After to its window's reset, or this if later: the
            # same as companion/web/limit_gate.py answers a repeat (a fixed 60 here made every
            # refusal say a minute, however soon the allowance came back)
            code, sentence, wait = "rate_limited", RATE_LIMITED, "1"
        if wants_json():
            with force_locale("en"):
                message = str(sentence)
        else:
            message = str(sentence)
        response = make_response(error_response(err.code, code, message))
        response.headers.setdefault("Retry-After", wait)
        return response

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        code, message = MESSAGES.get(err.code, ("http_error", err.description or "Error."))
        if err.code == 413 and request.max_content_length:
            message = say("The request is too large (%(size)s at most).",
                          size=format_size(request.max_content_length))
        response = make_response(error_response(err.code or 500, code, message))
        if isinstance(err, MethodNotAllowed) and err.valid_methods:
            # RFC 9110: a 405 says which methods the address takes
            response.headers["Allow"] = ", ".join(sorted(err.valid_methods))
        return response

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        app.logger.exception("unexpected error")
        return error_response(500, "internal_error",
                              say("Something went wrong on the server; nothing was changed."))
