"""Shared fixtures: an app on a temporary database, its client and CLI runner, a live server
and a phone-sized Chromium page. In CI (CI=true) a missing tool fails instead of skipping."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from companion import create_app

IN_CI = os.environ.get("CI") == "true"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


def missing(reason: str):
    """Skip on a developer machine without the tool; fail in CI."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: nothing may be skipped)")
    pytest.skip(reason)


# The module whose tests run longest (schemathesis's two largest operations, 86-100 s each in
# CI): run first, so that a worker never starts one as the other runs out of tests (`make
# test`'s `-n 2 --dist worksteal` can share out a queue, never a test that has begun).
FIRST = ("tests/web/test_openapi_schemathesis.py",)


def pytest_collection_modifyitems(items: list) -> None:
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in FIRST)    # a stable sort

def standalone(kind) -> dict:
    """The JSON Schema of a declared body on its own (its models under $defs), as plain JSON
    (the rows' labels, messages in the declaration, as their English)."""
    import json

    from companion.games.bodies import NoTitles, adapter

    return json.loads(json.dumps(adapter(kind).json_schema(schema_generator=NoTitles)))


MIGRATED: list[Path] = []     # this process's database migrated to the newest revision


def migrated_database(target: Path) -> None:
    """A new SQLite database at ``target``: a copy of one this process migrated once (with
    the real upgrade, companion.migrate), instead of running every migration again for each
    app the tests make (27 ms of CPU each; the copy and init_db's check that it is at the
    newest revision, 8 ms). Made 0600, as the store makes its file."""
    if not MIGRATED:
        import atexit
        import shutil
        import tempfile

        from companion.migrate import upgrade

        folder = Path(tempfile.mkdtemp(prefix="nsc-migrated-"))
        atexit.register(shutil.rmtree, folder, True)
        upgrade(f"sqlite:///{folder / 'head.db'}")
        MIGRATED.append(folder / "head.db")
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except (FileExistsError, FileNotFoundError):   # a second app on the same database, or
        return                                     # no folder: as the app meets it
    with os.fdopen(fd, "wb") as copy:
        copy.write(MIGRATED[0].read_bytes())


def make_app(tmp_path: Path, url: str | None = None, **config):
    if url is None:
        migrated_database(tmp_path / "test.db")
    app = create_app({"TESTING": True, "DATABASE_URL": url or f"sqlite:///{tmp_path / 'test.db'}",
                      "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False,
                      "PUBLIC_URL": "http://192.168.1.20:5000",
                      # per-client limits off: tests send far more than a table; the limits'
                      # own tests (tests/web/test_limits.py) turn them on
                      "RATELIMIT_ENABLED": False,
                      # the owner key of a test app lives with its database, never in the
                      # repository's instance folder (no tmp_path: an app sharing a database)
                      "OWNER_KEY_FILE": str(tmp_path / "owner_key") if tmp_path else None,
                      # ... and so do its backup key and the backups before an upgrade
                      "BACKUP_KEY_FILE": str(tmp_path / "backup_key") if tmp_path else None,
                      "BACKUPS_FOLDER": str(tmp_path / "backups") if tmp_path else None,
                      # ... and the PDFs it keeps (companion/pdf_cache.py)
                      "PDF_CACHE_DIR": str(tmp_path / "pdf-cache") if tmp_path else None,
                      **config})
    app.extensions["companion"].store.init_db()
    return app


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture(autouse=True)
def events_leave_the_fixed_parts_alone(monkeypatch):
    """An event's new state shares plays.FIXED_PARTS (setup, box data, seats, options) with
    the state before it instead of copying them: every event any test applies through
    plays.apply_event checks that it left those parts of its input exactly as they were.
    The parts are kept as their pickle, not a deep copy: pickling is C and deepcopy is Python
    (0.1-1.7 ms an event, 55 of tests/web/test_import_large.py's 145 s under a profiler), and
    equal bytes after the event mean equal parts; different bytes are compared part by part,
    so a change fails naming its part, and a part left equal but rebuilt of other types
    (a list become a tuple) fails too."""
    import pickle

    from companion import plays

    original = plays.apply_rules

    def checked(state, event, *more):
        parts = [k for k in plays.FIXED_PARTS if k in state]
        before = pickle.dumps([state[k] for k in parts], pickle.HIGHEST_PROTOCOL)
        try:
            return original(state, event, *more)
        finally:
            after = pickle.dumps([state[k] for k in parts], pickle.HIGHEST_PROTOCOL)
            if after != before:
                for part, value in zip(parts, pickle.loads(before), strict=True):
                    assert state[part] == value, f"a {event.get('type')} event changed {part}"
                    assert pickle.dumps(state[part], pickle.HIGHEST_PROTOCOL) == \
                        pickle.dumps(value, pickle.HIGHEST_PROTOCOL), \
                        f"a {event.get('type')} event rebuilt {part} of other types"

    monkeypatch.setattr(plays, "apply_rules", checked)


@pytest.fixture
def client(app):
    return app.test_client()


def as_owner(client):
    """The client with the owner's cookie, as the owner's phone has after the owner link."""
    from companion.owner import OWNER_COOKIE, owner_key

    client.set_cookie(OWNER_COOKIE, owner_key(client.application))
    return client


def owner_headers(app) -> dict:
    """The API's owner authorisation header."""
    from companion.owner import owner_key

    return {"Authorization": f"Bearer {owner_key(app)}"}


@pytest.fixture
def owner_client(app):
    return as_owner(app.test_client())


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(tmp_path):
    """An app with CSRF protection on, as in production."""
    return make_app(tmp_path, WTF_CSRF_ENABLED=True)


class LiveServer:
    def __init__(self, app):
        from werkzeug.serving import make_server

        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()


@pytest.fixture
def live_server(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, PUBLIC_URL=None)
    server = LiveServer(app)
    server.app = app
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        missing(f"Chromium is not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-background-networking", "--disable-gpu",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"])
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A new phone-sized page; call it again (phone()) for a second phone."""
    contexts = []

    def open_phone(**extra):
        context = browser.new_context(**PHONE, **extra)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def postgres_url():
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        missing("TEST_POSTGRES_URL is not set (run the tests through `make test`)")
    return url
