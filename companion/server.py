"""The production server (gunicorn) and the start-up banner with the LAN address's QR code."""
from __future__ import annotations

import re

import click

from .netinfo import base_url
from .qr import qr_terminal


def announce(public_url: str | None, port: int, owner_key: str | None = None) -> None:
    url = base_url(public_url, None, port) + "/"
    click.echo(f"\nNorth Sea Companion is serving at {url}")
    click.echo("Scan this with a phone on the same network:\n")
    click.echo(qr_terminal(url))
    if owner_key:
        owner_url = f"{url}owner/{owner_key}"
        click.echo(f"\nOwner link (only for your own phone: it lets it change the box data):\n"
                   f"{owner_url}\n")
        click.echo(qr_terminal(owner_url))


# A page path holds the play's token: /plays/<id>/<token>[/...] (the API's /api/v1/plays/<id>/...
# holds none: its token travels in the Authorization header, which is never logged; nor does the
# owner's /owner/plays/<id>/delete).
TOKEN_SEGMENT = re.compile(r"(?<!/api/v1)(?<!/owner)(/plays/[^/?#\s\"]+/)[^/?#\s\"]+")
# The owner link /owner/<key> (but not the owner's own pages under /owner/plays/...).
OWNER_SEGMENT = re.compile(r"(/owner/)(?!plays/)[^/?#\s\"]+")


def redact(text: str) -> str:
    """The text with every play token replaced by [token] and the owner key by [key]."""
    return OWNER_SEGMENT.sub(r"\1[key]", TOKEN_SEGMENT.sub(r"\1[token]", text))


def redacting_logger():
    """gunicorn's logger, with tokens taken out of every access-log field (request line,
    path, referer and any other): whoever reads the log cannot open or change a play."""
    from gunicorn.glogging import Logger

    class RedactingLogger(Logger):
        def atoms(self, resp, req, environ, request_time):
            atoms = super().atoms(resp, req, environ, request_time)
            return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}

    return RedactingLogger


WORKER_CLASSES = ("gevent", "gthread")


def gunicorn_settings(host: str, port: int, workers: int, threads: int,
                      worker_class: str = "gevent", connections: int = 1000) -> dict:
    """gevent (the default): every open live stream is a greenlet, so a Raspberry Pi holds
    hundreds of phones watching; gthread: a stream holds one of ``threads`` threads of its
    worker for as long as it is open (docs/deployment.md, docs/benchmarks.md)."""
    settings = {"bind": f"{host}:{port}", "workers": workers, "worker_class": worker_class,
                "timeout": 60, "graceful_timeout": 10, "accesslog": "-",
                "logger_class": redacting_logger(), "preload_app": False}
    if worker_class == "gthread":
        settings["threads"] = threads
    else:
        settings["worker_connections"] = connections
    return settings


def cooperative_psycopg() -> None:
    """psycopg chooses how it waits for the database when it is first imported, and
    `companion serve` imports it in gunicorn's master, before gevent patches the worker: its C
    wait would then block the whole worker (every stream in it) while PostgreSQL answers, and
    the notifier's LISTEN would block it for good. Switch to its select() wait, which gevent
    has made cooperative (what psycopg picks by itself when gevent came first)."""
    import sys

    from gevent import monkey

    waiting = sys.modules.get("psycopg.waiting")
    if waiting is not None and monkey.is_module_patched("select"):
        waiting.wait = waiting.wait_select


def run_gunicorn(host: str, port: int, workers: int, threads: int,
                 worker_class: str = "gevent", connections: int = 1000) -> None:
    from gunicorn.app.base import BaseApplication

    settings = gunicorn_settings(host, port, workers, threads, worker_class, connections)

    class Server(BaseApplication):
        def load_config(self):
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):   # in the worker, after gevent patched it
            from . import create_app

            if worker_class == "gevent":
                cooperative_psycopg()

            return create_app()

    Server().run()
