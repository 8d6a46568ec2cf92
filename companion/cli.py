"""The `companion` command: serve | setup | score | init-db | backup | restore (exit 2 on bad
input)."""
from __future__ import annotations

import json
import os
import sys

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext

from .games.errors import RuleError
from .server import CONNECTIONS


def register_cli(app: Flask) -> None:
    for command in (init_db, setup, score, serve, backup, restore, owner_key_command):
        app.cli.add_command(command)


def _fail(err: RuleError) -> None:
    where = f" ({err.field})" if err.field else ""
    click.echo(f"error: {err.message}{where}", err=True)
    sys.exit(2)


def _service():
    return current_app.extensions["companion"]


def _instance_file(config_key: str, name: str):
    from pathlib import Path

    configured = current_app.config.get(config_key)
    return Path(configured) if configured else Path(current_app.instance_path) / name


def _backup_key(key_file=None, create: bool = True) -> bytes:
    """The backup key: --key-file, else BACKUP_KEY_FILE, else instance/backup_key."""
    from pathlib import Path

    from .backup import KEY_FILE, read_key

    path = Path(key_file) if key_file else _instance_file("BACKUP_KEY_FILE", KEY_FILE)
    return read_key(path, create=create)


def _upgrade_database() -> str:
    """Create or upgrade the schema; a database holding plays is backed up first."""
    from .backup import backup_before_upgrade
    from .migrate import MigrationError

    store = _service().store
    folder = _instance_file("BACKUPS_FOLDER", "backups")

    def before(revision):
        return backup_before_upgrade(store.url, folder, revision, _backup_key())

    try:
        revision = store.init_db(before_upgrade=before)
    except MigrationError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    if store.last_backup is not None:
        click.echo(f"Backed up the database before the upgrade to {store.last_backup}")
    return revision


@click.command("init-db")
@with_appcontext
def init_db():
    """Create or upgrade the database (backing it up first)."""
    revision = _upgrade_database()
    click.echo(f"Database ready at revision {revision}.")


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup(file):
    """Write the whole database (plays, tokens, events, box data) to FILE, while serving,
    signed with this installation's backup key (instance/backup_key)."""
    from .backup import BackupError, write_backup

    try:
        counts = write_backup(_service().store.url, file, key=_backup_key())
    except BackupError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    click.echo(f"Backed up {counts.get('plays', 0)} plays and {counts.get('events', 0)} "
               f"events to {file}.")


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, readable=True))
@click.option("--key-file", type=click.Path(exists=True, dir_okay=False, readable=True),
              help="The backup key of the installation that wrote FILE (default: this "
                   "installation's instance/backup_key).")
@click.option("--accept-unsigned", is_flag=True,
              help="Also restore a backup written before backups carried a digest.")
@with_appcontext
def restore(file, key_file, accept_unsigned):
    """Restore FILE (from `companion backup`) into an empty database of either engine. The
    file's digest and every row are checked first; a bad file restores nothing (exit 2)."""
    from .backup import BackupError
    from .restore import restore_backup

    try:
        counts = restore_backup(_service().store.url, file,
                                key=_backup_key(key_file, create=False),
                                accept_unsigned=accept_unsigned)
    except BackupError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    click.echo(f"Restored {counts.get('plays', 0)} plays and {counts.get('events', 0)} "
               f"events; every link and QR code works as before.")


@click.command("setup")
@click.argument("game")
@click.option("--players", required=True, help="Names in seat order, comma separated.")
@click.option("--seed", default=None, help="Same seed, same setup.")
@click.option("--option", "options", multiple=True, help="key=value (repeatable).")
@with_appcontext
def setup(game, players, seed, options):
    """Print a seeded setup as JSON (the setup endpoint's response)."""
    from .plays import run_setup
    from .web.forms import coerce

    try:
        parsed = {}
        for item in options:
            key, sep, value = item.partition("=")
            if not sep:
                raise RuleError(f"--option needs key=value, not '{item}'.", "options")
            parsed[key.strip()] = coerce(value)
        body = {"players": [p.strip() for p in players.split(",") if p.strip()],
                "options": parsed}
        if seed is not None:
            body["seed"] = coerce(seed)
        result = run_setup(game, body, _service().catalogue(game) if game in _games() else {})
    except RuleError as err:
        _fail(err)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


def _games():
    from .games import GAMES

    return GAMES


@click.command("score")
@click.argument("game")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@with_appcontext
def score(game, file):
    """Score a request body read from FILE (or -)."""
    from .plays import run_score

    try:
        try:
            body = json.load(file)
        except ValueError as err:
            raise RuleError(f"The file is not valid JSON: {err}", None, "invalid_json") from err
        result = run_score(game, body, _service().catalogue(game) if game in _games() else {})
    except RuleError as err:
        _fail(err)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True)
@click.option("--port", default=lambda: int(os.environ.get("PORT", "5000")), type=int,
              show_default="5000 or $PORT")
@click.option("--workers", default=lambda: int(os.environ.get("WEB_WORKERS", "2")), type=int)
@click.option("--threads", default=8, type=int, help="Threads per worker (gthread only).")
@click.option("--worker-class", type=click.Choice(["gevent", "gthread"]),
              default=lambda: os.environ.get("WEB_WORKER_CLASS", "gevent"), show_default=True,
              help="gevent holds hundreds of open live streams; gthread one per thread.")
@click.option("--connections", default=CONNECTIONS, type=int, show_default=True,
              help="Open connections per worker (gevent only; the listen backlog).")
@with_appcontext
def serve(host, port, workers, threads, worker_class, connections):
    """Serve on the local network with gunicorn (a production WSGI server)."""
    from .owner import owner_key
    from .server import announce, run_gunicorn

    _upgrade_database()
    announce(current_app.config.get("PUBLIC_URL"), port, owner_key())
    run_gunicorn(host, port, workers, threads, worker_class, connections)


@click.command("owner-key")
@click.option("--port", default=lambda: int(os.environ.get("PORT", "5000")), type=int,
              show_default="5000 or $PORT", help="The port `companion serve` listens on.")
@with_appcontext
def owner_key_command(port):
    """Print the owner key (made once in the instance folder): it lets you change box data.
    On a terminal, also the owner link and its QR code (the start banner prints them only on
    a terminal, never into a log)."""
    from .netinfo import base_url
    from .owner import owner_key
    from .qr import qr_terminal
    from .server import owner_link

    key = owner_key()
    click.echo(key)
    if sys.stdout.isatty():
        link = owner_link(base_url(current_app.config.get("PUBLIC_URL"), port), key)
        click.echo(f"\nOwner link (only for your own phone: it lets it change the box data):\n"
                   f"{link}\n")
        click.echo(qr_terminal(link))


def _create_app(*_args):
    from . import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app, add_default_commands=False,
             add_version_option=False, load_dotenv=False)
def main():
    """North Sea Companion."""
