"""North Sea Companion: the app factory."""
from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from .secretfile import read_or_make

ROOT = Path(__file__).resolve().parent.parent
MAX_BODY = 256 * 1024
# an import takes a play as the app exports it: 25,000 events (companion.exports.MAX_EVENTS)
# of the wordiest game fit; only the two import addresses read a body this large
IMPORT_MAX_BODY = 8 * 1024 * 1024


def create_app(config: dict | None = None) -> Flask:
    """Build the app. ``config`` overrides the environment (tests pass DATABASE_URL etc.)."""
    app = Flask(__name__, template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"), instance_path=str(ROOT / "instance"))
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        IMPORT_MAX_BODY=IMPORT_MAX_BODY,
        DATABASE_URL=os.environ.get("DATABASE_URL"),
        PUBLIC_URL=os.environ.get("PUBLIC_URL"),
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        SEND_FILE_MAX_AGE_DEFAULT=300,   # static files with a digest in the name: a year
        SESSION_COOKIE_SAMESITE="Lax",
        TRUSTED_HOSTS=os.environ.get("TRUSTED_HOSTS"),
        # RATELIMIT_ENABLED=0 switches the per-client limits off (`make bench` drives the
        # server flat out from one address); on unless said otherwise
        RATELIMIT_ENABLED=os.environ.get("RATELIMIT_ENABLED", "1").lower()
        not in ("0", "false", "no", "off"),
        # how long a version's rendered play block is shared by the phones that fetch it
        # (web/block_cache.py); 0 renders it for each phone (`make bench`'s baseline)
        BLOCK_CACHE_SECONDS=float(os.environ.get("BLOCK_CACHE_SECONDS", "5")),
    )
    if config:
        app.config.update(config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config["DATABASE_URL"]:
        app.config["DATABASE_URL"] = f"sqlite:///{Path(app.instance_path) / 'companion.db'}"
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    from .netinfo import trusted_hosts

    # unknown Host headers get a 400 (DNS rebinding); TRUSTED_HOSTS adds names
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config.get("TRUSTED_HOSTS"),
                                                app.config.get("PUBLIC_URL"))
    from .web.json_provider import OrjsonProvider

    app.json = OrjsonProvider(app)     # keys in the order the app builds them, by orjson
    _wire(app)
    return app


def _instance_secret(instance: Path) -> str:
    """Generated once and kept in the instance folder, so sessions survive a restart."""
    return read_or_make(instance / "secret_key")


def _wire(app: Flask) -> None:
    from htmx_flask import Htmx

    from .cli import register_cli
    from .notify import Notifier
    from .redact import redact_logger
    from .service import PlayService
    from .store import Store
    from .web import (
        api,
        assets,
        boards,
        book_layouts,
        display,
        errors,
        pages,
        security,
        stream,
        table,
    )
    from .web.i18n import init_i18n

    Htmx(app)
    redact_logger(app.logger)        # no token or owner key in what the app logs either
    init_i18n(app, ROOT)
    app.extensions["companion"] = PlayService(Store(app.config["DATABASE_URL"]))
    app.extensions["notifier"] = Notifier(app.extensions["companion"].store,
                                          app.config.get("LIVE_POLL_INTERVAL", 0.12))
    security.init_security(app)
    assets.init_assets(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(boards.bp)
    app.register_blueprint(book_layouts.bp)
    app.register_blueprint(display.bp)
    app.register_blueprint(stream.bp)
    app.extensions["csrf_protect"].exempt(api.bp)
    errors.register(app)
    register_cli(app)
    from .web.limit_gate import init_limit_gate
    from .web.limits import init_limits
    from .web.stream_caps import init_stream_caps

    init_limit_gate(app)
    init_limits(app)
    init_stream_caps(app)
