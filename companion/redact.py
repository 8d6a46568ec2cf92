"""Secrets out of every log line: play tokens become [token], the owner key [key].

A page path holds the play's token (/plays/<id>/<token>[/...]) and the owner link the owner key
(/owner/<key>); the API's paths hold none (its token travels in the Authorization header, which
is never logged), nor do the owner's own pages (/owner/plays/<id>/delete). The server answers a
path by its percent-decoded form, so ``/plays%2F<id>%2F<token>``, ``/%70lays/<id>/<token>`` and
``/owner%2F<key>`` open the same play and the same link: every path-like part of a line is
decoded (three rounds at most, for a twice-encoded one) before it is looked at, and one that
holds a secret is logged decoded and redacted. The rest of a line is left as it was sent.

Used on every field of gunicorn's access log and on its error log (its "Invalid HTTP request
line" warning quotes the whole line), and on the app's own log.
"""
from __future__ import annotations

import logging
import re
from urllib.parse import unquote

# the token part of /plays/<id>/<token>, not /api/v1/plays/<id>/... nor /owner/plays/<id>/...
TOKEN_SEGMENT = re.compile(r"(?<!/api/v1)(?<!/owner)(/plays/[^/?#\s\"]+/)[^/?#\s\"]+", re.I)
# the owner link /owner/<key>, not the owner's own pages under /owner/plays/...
OWNER_SEGMENT = re.compile(r"(/owner/)(?!plays/)[^/?#\s\"]+", re.I)
# a run of characters that may be (part of) a path: from a slash, plain or encoded, up to a
# space or a quote (a request line, a Referer, a quoted request line in an error)
PATH_LIKE = re.compile(r"(?:/|%2f)[^\s\"'<>]*", re.I)
DECODE_ROUNDS = 3


def redact(text: str) -> str:
    """``text`` with every play token replaced by [token] and the owner key by [key],
    however the path holding them was spelled."""
    return PATH_LIKE.sub(_redacted_path, text)


def _plain(path: str) -> str:
    return OWNER_SEGMENT.sub(r"\1[key]", TOKEN_SEGMENT.sub(r"\1[token]", path))


def _redacted_path(match: re.Match) -> str:
    raw = match.group(0)
    decoded = raw
    for _ in range(DECODE_ROUNDS):
        once = unquote(decoded, errors="replace")
        if once == decoded:
            break
        decoded = once
    cleaned = _plain(decoded)
    if cleaned == decoded:
        return raw
    return _printable(cleaned)


def _printable(text: str) -> str:
    """A decoded path as one log field: no control characters (a decoded %0a must not start
    a forged log line), no spaces or quotes that would split the field."""
    out = []
    for ch in text:
        if ch in ' "\'' or not ch.isprintable():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


class RedactingFilter(logging.Filter):
    """A logging filter that redacts a record's message and its traceback text."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (a malformed record: logged as its bare message)
            message = str(record.msg)
        record.msg, record.args = redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


REDACTING = RedactingFilter()


def redact_logger(logger: logging.Logger) -> None:
    """Install the filter on ``logger`` (once)."""
    if REDACTING not in logger.filters:
        logger.addFilter(REDACTING)
