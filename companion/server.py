"""The production server (gunicorn) and the start-up banner with the LAN address's QR code."""
from __future__ import annotations

import click

from .netinfo import base_url
from .qr import qr_terminal


def announce(public_url: str | None, port: int) -> None:
    url = base_url(public_url, None, port) + "/"
    click.echo(f"\nNorth Sea Companion is serving at {url}")
    click.echo("Scan this with a phone on the same network:\n")
    click.echo(qr_terminal(url))


def run_gunicorn(host: str, port: int, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self):
            for key, value in {"bind": f"{host}:{port}", "workers": workers,
                               "threads": threads, "worker_class": "gthread",
                               "timeout": 60, "graceful_timeout": 10,
                               "accesslog": "-", "preload_app": False}.items():
                self.cfg.set(key, value)

        def load(self):
            from . import create_app

            return create_app()

    Server().run()
