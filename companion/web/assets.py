"""Compression and caching: every page, fragment, style sheet and script goes out gzip or brotli
compressed (Flask-Compress), and static files carry their content hash in the name.

``url_for('static', filename='css/app.css')`` gives ``/static/css/app.<12 hex>.css`` (no build
step: the digest is computed from the file on first use and again whenever the file changes).
That address is cached by the phone for a year (``immutable``): a changed file gets a new name,
so nobody ever sees a stale script. Plain names (``/static/media/keepawake.mp4``, the manifest's
icons) and old digests still work, with a short cache lifetime.

The event stream (text/event-stream) is never compressed or buffered: its type is not in
COMPRESS_MIMETYPES, and streamed responses are left alone (COMPRESS_STREAMS off).
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
from pathlib import Path

from flask import Flask, current_app, send_from_directory
from werkzeug.security import safe_join

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_MAX_AGE = 300
DIGEST_LENGTH = 12
HASHED_NAME = re.compile(r"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{12})(?P<ext>\.[A-Za-z0-9]+)$")

COMPRESSION = {
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_MIMETYPES": ["text/html", "text/css", "text/javascript", "application/javascript",
                           "application/json", "application/manifest+json", "image/svg+xml",
                           "text/plain"],
    "COMPRESS_LEVEL": 6,          # gzip
    "COMPRESS_BR_LEVEL": 4,       # brotli: as small as gzip -9 at a fraction of the time
    "COMPRESS_MIN_SIZE": 500,
    "COMPRESS_STREAMS": False,    # never the event stream; static files are made whole below
}


class Digests:
    """Content digests of the app's static files, recomputed when a file changes."""

    def __init__(self, app: Flask):
        self.app = app
        self._known: dict[tuple, tuple[int, int, str]] = {}
        self._lock = threading.Lock()

    @property
    def folder(self) -> str:
        return self.app.static_folder

    def digest(self, filename: str) -> str | None:
        path = safe_join(self.folder, filename)
        try:
            stat = os.stat(path) if path else None
        except OSError:
            return None
        if stat is None or not Path(path).is_file():
            return None
        key = (path, filename)
        with self._lock:
            known = self._known.get(key)
        if known and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:DIGEST_LENGTH]
        with self._lock:
            self._known[key] = (stat.st_mtime_ns, stat.st_size, digest)
        return digest

    def hashed(self, filename: str) -> str:
        """``css/app.css`` -> ``css/app.<digest>.css`` (unchanged for a missing file)."""
        stem, ext = os.path.splitext(filename)
        digest = self.digest(filename) if ext else None
        return f"{stem}.{digest}{ext}" if digest else filename

    def resolve(self, requested: str) -> tuple[str, bool]:
        """(the file to send, whether the name carries its current digest)."""
        match = HASHED_NAME.match(requested)
        if match is None or self.digest(requested) is not None:
            return requested, False
        original = match["stem"] + match["ext"]
        current = self.digest(original)
        if current is None:
            return requested, False
        return original, current == match["digest"]


def init_assets(app: Flask) -> None:
    from flask_compress import Compress

    for key, value in COMPRESSION.items():
        app.config.setdefault(key, value)
    Compress(app)
    digests = Digests(app)
    app.extensions["static_digests"] = digests

    @app.url_defaults
    def hashed_static_names(endpoint, values):
        if endpoint == "static" and "filename" in values:
            values["filename"] = digests.hashed(values["filename"])

    app.view_functions["static"] = _static_view


def _static_view(filename: str):
    digests: Digests = current_app.extensions["static_digests"]
    name, current = digests.resolve(filename)
    response = send_from_directory(digests.folder, name,
                                   max_age=31536000 if current else SHORT_MAX_AGE)
    if current:
        response.headers["Cache-Control"] = IMMUTABLE
    if response.status_code == 200:
        # a whole body, so Flask-Compress can gzip or brotli it (it leaves streams alone)
        response.direct_passthrough = False
        response.make_sequence()
    return response
