"""The production server (gunicorn) and the start-up banner with the LAN address's QR code."""
from __future__ import annotations

import os
import sys

import click

from .netinfo import base_url
from .qr import qr_terminal
from .redact import redact, redact_logger

__all__ = ["announce", "owner_link", "redact", "redacting_logger", "run_gunicorn"]


def announce(public_url: str | None, port: int, owner_key: str | None = None,
             terminal: bool | None = None) -> None:
    """The start banner: the address and its QR code; the owner link only on a terminal (a
    banner written to a file or a service's journal would keep the owner key in a log)."""
    url = base_url(public_url, port) + "/"
    click.echo(f"\nNorth Sea Companion is serving at {url}")
    click.echo("Scan this with a phone on the same network:\n")
    click.echo(qr_terminal(url))
    if not owner_key:
        return
    if terminal is None:
        terminal = sys.stdout.isatty()
    if terminal:
        owner_url = owner_link(url, owner_key)
        click.echo(f"\nOwner link (only for your own phone: it lets it change the box data):\n"
                   f"{owner_url}\n")
        click.echo(qr_terminal(owner_url))
    else:
        click.echo("\nThe owner link is not printed here: this output is not a terminal and "
                   "may be kept in a log. Run `companion owner-key` in a terminal to see it.\n")


def owner_link(root: str, key: str) -> str:
    return f"{root.rstrip('/')}/owner/{key}"


def redacting_logger():
    """gunicorn's logger, with tokens and the owner key taken out of every line of the access
    log (request line, path, referer, every field) and of the error log (its "Invalid HTTP
    request line" warning quotes the line): whoever reads the logs cannot open or change a
    play, however the request spelled its path (companion.redact)."""
    from gunicorn.glogging import Logger

    class RedactingLogger(Logger):
        def setup(self, cfg):
            super().setup(cfg)
            redact_logger(self.error_log)
            redact_logger(self.access_log)

    return RedactingLogger


WORKER_CLASSES = ("gevent", "gthread")
# connections waiting to be accepted (the kernel caps it at net.core.somaxconn, 4096 on current
# Linux): a burst of connections beyond it is dropped and retried by the clients a second
# later, another table's tap among them (docs/deployment.md)
BACKLOG = 4096
# a gevent worker's connections: as many as the backlog, so a burst that the kernel queues is
# taken in at once and another table's tap does not wait behind it in the queue
CONNECTIONS = BACKLOG
# gunicorn's gevent worker, fair between addresses when one floods it (companion/fair_worker.py)
FAIR_GEVENT = "companion.fair_worker.FairGeventWorker"


def gunicorn_settings(host: str, port: int, workers: int, threads: int,
                      worker_class: str = "gevent", connections: int = CONNECTIONS) -> dict:
    """gevent (the default): every open live stream is a greenlet, so a Raspberry Pi holds
    hundreds of phones watching; gthread: a stream holds one of ``threads`` threads of its
    worker for as long as it is open (docs/deployment.md, docs/benchmarks.md)."""
    settings = {"bind": f"{host}:{port}", "workers": workers,
                "worker_class": FAIR_GEVENT if worker_class == "gevent" else worker_class,
                "backlog": BACKLOG,
                "timeout": 60, "graceful_timeout": 10, "accesslog": "-",
                "logger_class": redacting_logger(), "preload_app": False,
                "control_socket": control_socket(port)}
    if worker_class == "gthread":
        settings["threads"] = threads
    else:
        settings["worker_connections"] = connections
    return settings


def control_socket(port: int) -> str:
    """gunicorn's control socket (for ``gunicornc``) of the server on ``port``, in gunicorn's
    own place for it: by default every gunicorn on a machine makes the same
    ``gunicorn.ctl`` there, so a second server (a club's second port) took the first's over and
    removed it when it stopped."""
    from gunicorn.config import ControlSocket

    return os.path.join(os.path.dirname(ControlSocket.default), f"companion-{port}.ctl")


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
                 worker_class: str = "gevent", connections: int = CONNECTIONS) -> None:
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

            # share links' port (F10); the ceiling of live streams by what a worker holds
            # (companion/web/stream_caps.py)
            return create_app({"LISTEN_PORT": port, "SERVER_WORKER_CLASS": worker_class,
                               "SERVER_CONNECTIONS": connections, "SERVER_THREADS": threads})

    Server().run()
