"""`companion backup FILE` / `companion restore FILE`: the whole database in one portable file,
restored into an empty database of either engine with the same play ids, token hashes and
events (every link and QR code keeps working), box data too. SQLite -> PostgreSQL and back."""
from __future__ import annotations

import gzip
import stat
import threading

import pytest

from companion.backup import write_backup
from tests.db.backends import backend_app, backend_of, db_url, postgres_database  # noqa: F401
from tests.db.test_migrations import everything, populate


def play_with_token(client):
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"],
                                               "seed": 7})
    assert reply.status_code == 201
    play = reply.get_json()
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    for vp in (3, 5, 8):
        assert client.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
            "type": "sheet", "data": {"player": "Bo", "fields": {"vp": vp}}}).status_code == 200
    return play, auth


def other_url(db_url, tmp_path, postgres_url):  # noqa: F811
    """An empty database of the other engine (a context manager)."""
    from contextlib import nullcontext

    if backend_of(db_url) == "sqlite":
        return postgres_database(postgres_url)
    return nullcontext(f"sqlite:///{tmp_path / 'moved.db'}")


def test_backup_and_restore_move_a_club_to_the_other_engine(backend_app, db_url,  # noqa: F811
                                                            tmp_path, postgres_url):
    populate(backend_app, plays=10, events=12)
    client = backend_app.test_client()
    play, auth = play_with_token(client)
    catalogue = client.get("/api/v1/catalogue/knarr").get_json()
    before = everything(db_url)
    file = tmp_path / "club.nscbackup"

    result = backend_app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 0, result.output
    assert "11 plays" in result.output
    assert stat.S_IMODE(file.stat().st_mode) == 0o600

    with other_url(db_url, tmp_path, postgres_url) as target:
        moved = _bare_app(tmp_path, target)
        result = moved.test_cli_runner().invoke(args=["restore", str(file)])
        assert result.exit_code == 0, result.output
        assert everything(target) == before
        new = moved.test_client()
        # the old link's token still opens the play, and it can still be written to
        state = new.get(f"/api/v1/plays/{play['id']}", headers=auth).get_json()["state"]
        assert state["sheets"]["Bo"]["vp"] == 8 and state["version"] == 3
        assert new.post(f"/api/v1/plays/{play['id']}/events", headers=auth, json={
            "type": "sheet", "data": {"player": "Ann", "fields": {"vp": 2}}}).status_code == 200
        assert new.post(f"/api/v1/plays/{play['id']}/undo", headers=auth).status_code == 200
        assert new.get(f"/plays/{play['id']}/{play['view_token']}").status_code == 200
        assert new.get("/api/v1/catalogue/knarr").get_json() == catalogue
        # a second restore into the now filled database is refused, nothing changed
        filled = everything(target)
        result = moved.test_cli_runner().invoke(args=["restore", str(file)])
        assert result.exit_code == 2
        assert "not empty" in result.output
        assert everything(target) == filled
        moved.extensions["companion"].store.engine.dispose()


def _bare_app(tmp_path, url):
    """An app on ``url`` without creating the schema (restore builds it)."""
    from companion import create_app

    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test-secret",
                       "WTF_CSRF_ENABLED": False, "PUBLIC_URL": "http://192.168.1.20:5000"})


def test_a_cut_off_backup_restores_nothing(app, tmp_path):
    populate(app, plays=3, events=5)
    file = tmp_path / "full.nscbackup"
    write_backup(app.config["DATABASE_URL"], file)
    lines = gzip.decompress(file.read_bytes()).splitlines(keepends=True)
    cut = tmp_path / "cut.nscbackup"
    cut.write_bytes(gzip.compress(b"".join(lines[:-4])))
    target = f"sqlite:///{tmp_path / 'empty.db'}"
    result = _bare_app(tmp_path, target).test_cli_runner().invoke(args=["restore", str(cut)])
    assert result.exit_code == 2
    assert "incomplete" in result.output
    assert all(rows == [] for rows in everything(target).values())
    junk = tmp_path / "junk.nscbackup"
    junk.write_text("hello")
    result = _bare_app(tmp_path, target).test_cli_runner().invoke(args=["restore", str(junk)])
    assert result.exit_code == 2 and "not a readable backup" in result.output


def test_backup_while_a_table_keeps_writing_is_consistent(app, tmp_path):
    """Taken while events are being recorded, the copy is one moment of the database: every
    play's row agrees with its events."""
    service = app.extensions["companion"]
    row, _, _ = service.create({"game": "knarr", "players": ["Ann", "Bo"], "seed": 1})
    stop = threading.Event()

    def tap():
        i = 0
        while not stop.is_set():
            service.record(row.id, {"type": "sheet", "data": {"player": "Ann",
                                                              "fields": {"vp": i % 50}}})
            i += 1

    writer = threading.Thread(target=tap)
    writer.start()
    try:
        files = []
        for n in range(3):
            files.append(tmp_path / f"b{n}.nscbackup")
            write_backup(app.config["DATABASE_URL"], files[-1])
    finally:
        stop.set()
        writer.join()
    for n, file in enumerate(files):
        target = f"sqlite:///{tmp_path / f'r{n}.db'}"
        _bare_app(tmp_path, target).test_cli_runner().invoke(args=["restore", str(file)])
        rows = everything(target)
        play = rows["plays"][0]
        assert len(rows["events"]) == play["length"] == play["head"] == play["version"]


@pytest.mark.parametrize("missing", ["nothing.db"])
def test_backup_of_no_database_is_a_clear_error(tmp_path, missing):
    app = _bare_app(tmp_path, f"sqlite:///{tmp_path / 'x' / missing}")
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "no database" in result.output
    assert not (tmp_path / "out").exists()
