"""`companion backup FILE` / `companion restore FILE`: the whole database in one portable file,
restored into an empty database of either engine with the same play ids, token hashes and
events (every link and QR code keeps working), box data too. SQLite -> PostgreSQL and back.

A file changed after it was written (its keyed digest), cut off, repeating a row, or holding a
play the app could not serve (an edited initial state, an event deleted with the counts
lowered to match) is refused by `restore` with exit 2 and a sentence, and nothing is written
to the target database: not a row, not a table."""
from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import stat
import threading
from contextlib import nullcontext

import pytest
import sqlalchemy as sa

from companion.backup import DIGEST, key_id, read_key, write_backup
from companion.tokens import token_hash
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
    if backend_of(db_url) == "sqlite":
        return postgres_database(postgres_url)
    return nullcontext(f"sqlite:///{tmp_path / 'moved.db'}")


def _bare_app(tmp_path, url):
    """An app on ``url`` without creating the schema (restore builds it), holding the same
    backup key as the test's first app (the key was brought along)."""
    from companion import create_app

    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test-secret",
                       "WTF_CSRF_ENABLED": False, "PUBLIC_URL": "http://192.168.1.20:5000",
                       "BACKUP_KEY_FILE": str(tmp_path / "backup_key"),
                       "OWNER_KEY_FILE": str(tmp_path / "owner_key")})


def key_of(tmp_path) -> bytes:
    return read_key(tmp_path / "backup_key")


def restore(tmp_path, target, file, *args):
    app = _bare_app(tmp_path, target)
    try:
        return app.test_cli_runner().invoke(args=["restore", *args, str(file)])
    finally:
        app.extensions["companion"].store.engine.dispose()


def tables_in(url) -> list[str]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        return sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()


def lines_of(file) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(file.read_bytes()).splitlines()]


def rewrite(file, out, change, key: bytes | None = None) -> None:
    """``file`` with ``change(lines)`` applied to its lines (digest line excluded). With
    ``key`` the digest is made again, as whoever holds that key could; without, the old
    digest stays (a hand edit)."""
    lines = lines_of(file)
    body, digest = lines[:-1], lines[-1]
    change(body)
    data = b"".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode()
                    + b"\n" for line in body)
    if key is not None:
        digest = {DIGEST: hmac.new(key, data, hashlib.sha256).hexdigest()}
    out.write_bytes(gzip.compress(data + json.dumps(digest).encode() + b"\n"))


def rows_of(lines: list[dict], table: str) -> list[list]:
    """The row lists of ``table`` in the lines (changing them changes the lines)."""
    start = next(i for i, line in enumerate(lines) if line.get("table") == table)
    out = []
    for line in lines[start + 1:]:
        if "row" not in line:
            break
        out.append(line["row"])
    return out


def column(lines: list[dict], table: str, name: str) -> int:
    return next(line["columns"] for line in lines if line.get("table") == table).index(name)


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
    assert stat.S_IMODE((tmp_path / "backup_key").stat().st_mode) == 0o600
    key = key_of(tmp_path)
    assert key not in file.read_bytes() and key not in gzip.decompress(file.read_bytes())
    assert lines_of(file)[0]["key_id"] == key_id(key)

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
        view = f"/plays/{play['id']}/{play['view_token']}"
        for page in ("", "/history", "/chart.svg", "/export.json", "/export.csv"):
            assert new.get(view + page).status_code == 200, page
        assert new.get("/api/v1/catalogue/knarr").get_json() == catalogue
        # a second restore into the now filled database is refused, nothing changed
        filled = everything(target)
        result = moved.test_cli_runner().invoke(args=["restore", str(file)])
        assert result.exit_code == 2
        assert "not empty" in result.output
        assert everything(target) == filled
        moved.extensions["companion"].store.engine.dispose()


@pytest.fixture
def club(app, tmp_path):
    """A backup of a populated club (plays of every game, one played through the API)."""
    populate(app, plays=6, events=8)
    play, _ = play_with_token(app.test_client())
    file = tmp_path / "club.nscbackup"
    write_backup(app.config["DATABASE_URL"], file, key=key_of(tmp_path))
    return file, play


def refused(tmp_path, target, file, *words, args=()):
    """`restore` said one of ``words`` with exit 2, and the target has no table at all."""
    result = restore(tmp_path, target, file, *args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and "Traceback" not in result.output
    assert any(word in result.output for word in words), result.output
    assert "nothing was restored" in result.output or "Nothing was restored" in result.output
    assert tables_in(target) == []
    return result.output


@pytest.fixture(params=["sqlite", "postgres"])
def target(request, tmp_path):
    """An empty database to restore into: a SQLite file, a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'target.db'}"
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield url


def test_a_changed_backup_is_refused_and_nothing_is_written(club, tmp_path, target):
    """F3: a play's edit_hash swapped for the hash of a token of one's choosing, by hand."""
    file, play = club
    forged = tmp_path / "forged.nscbackup"

    def swap_token(lines):
        index = column(lines, "plays", "id")
        for row in rows_of(lines, "plays"):
            if row[index] == play["id"]:
                row[column(lines, "plays", "edit_hash")] = token_hash("chosen-by-the-forger")

    rewrite(file, forged, swap_token)
    refused(tmp_path, target, forged, "changed after it was written")
    # and a single flipped count at the end, or a removed event row, alike
    rewrite(file, forged, lambda lines: lines[-1]["counts"].update(events=1))
    refused(tmp_path, target, forged, "changed after it was written")


def test_a_backup_of_another_installation_needs_its_key(club, tmp_path, target):
    file, _ = club
    (tmp_path / "elsewhere").mkdir()
    other_key = tmp_path / "elsewhere" / "backup_key"
    other_key.write_text("another installation's key")
    moved = tmp_path / "moved.nscbackup"
    moved.write_bytes(file.read_bytes())
    (tmp_path / "backup_key").rename(tmp_path / "the_writers_key")
    (tmp_path / "backup_key").write_text("a fresh installation's own key")
    refused(tmp_path, target, moved, "another backup key")
    (tmp_path / "backup_key").unlink()
    refused(tmp_path, target, moved, "There is no backup key")
    # the writer's key brought along: restored
    result = restore(tmp_path, target, moved, "--key-file", str(tmp_path / "the_writers_key"))
    assert result.exit_code == 0, result.output


def test_a_cut_off_backup_restores_nothing(club, tmp_path, target):
    file, _ = club
    lines = gzip.decompress(file.read_bytes()).splitlines(keepends=True)
    cut = tmp_path / "cut.nscbackup"
    cut.write_bytes(gzip.compress(b"".join(lines[:-4])))        # whole lines missing
    refused(tmp_path, target, cut, "incomplete")
    cut.write_bytes(file.read_bytes()[:len(file.read_bytes()) * 2 // 3])   # bytes missing
    refused(tmp_path, target, cut, "incomplete")
    cut.write_bytes(gzip.compress(b"".join(lines[:-1])))        # the digest line missing
    refused(tmp_path, target, cut, "incomplete")
    junk = tmp_path / "junk.nscbackup"
    junk.write_text("hello")
    result = restore(tmp_path, target, junk)
    assert result.exit_code == 2 and "not a readable backup" in result.output
    assert tables_in(target) == []


def test_a_duplicate_row_is_refused_with_its_line(club, tmp_path, target):
    """F8: a repeated row (even signed with the key) is a sentence and exit 2, no traceback."""
    file, _ = club
    doubled = tmp_path / "doubled.nscbackup"

    def repeat_an_event(lines):
        start = next(i for i, line in enumerate(lines) if line.get("table") == "events")
        lines.insert(start + 2, lines[start + 1])
        lines[-1]["counts"]["events"] += 1

    rewrite(file, doubled, repeat_an_event)
    refused(tmp_path, target, doubled, "changed after it was written")
    rewrite(file, doubled, repeat_an_event, key=key_of(tmp_path))
    output = refused(tmp_path, target, doubled, "repeats a row")
    assert "a row of events" in output

    def repeat_a_play(lines):
        start = next(i for i, line in enumerate(lines) if line.get("table") == "plays")
        lines.insert(start + 1, lines[start + 1])
        lines[-1]["counts"]["plays"] += 1

    rewrite(file, doubled, repeat_a_play, key=key_of(tmp_path))
    refused(tmp_path, target, doubled, "repeats a row")


def _edit_initial(play_id, edit):
    def change(lines):
        ids, initial = column(lines, "plays", "id"), column(lines, "plays", "initial")
        for row in rows_of(lines, "plays"):
            if row[ids] == play_id:
                edit(row[initial])
    return change


EDITS = {
    # the red team's edit: history, chart and every export answered 500
    "players as bare names": lambda i: i.update(players=[p["name"] for p in i["players"]]),
    "a player renamed": lambda i: i["players"][0].update(name="Eve"),
    "a look-alike player": lambda i: (i["players"][1].update(name="\u0410nn"),
                                      i.update(sheets={"Ann": i["sheets"]["Ann"],
                                                       "\u0410nn": i["sheets"]["Bo"]})),
    "an unknown option": lambda i: i["options"].update(zz_unknown=True),
    "a seed of the wrong type": lambda i: i.update(seed=[7]),
    "sheets of nobody": lambda i: i.update(sheets={}),
    "a state half way through": lambda i: i.update(round=3),
    "the setup taken away": lambda i: i.pop("setup"),
    "box data that does not validate": lambda i: i.update(catalogue={"zz": 1}),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_play_whose_initial_state_was_edited_is_refused(club, tmp_path, edit):
    """F7: checked as the API would check a new play; refused, never restored into 500s. Even
    a file signed with the key (a database edited by hand, then backed up) is refused."""
    file, play = club
    edited = tmp_path / "edited.nscbackup"
    target = f"sqlite:///{tmp_path / 'target.db'}"
    rewrite(file, edited, _edit_initial(play["id"], EDITS[edit]))
    refused(tmp_path, target, edited, "changed after it was written")
    rewrite(file, edited, _edit_initial(play["id"], EDITS[edit]), key=key_of(tmp_path))
    output = refused(tmp_path, target, edited, "cannot be restored")
    assert f"Play {play['id']} (knarr)" in output
    if edit == "a look-alike player":
        assert "looks just like Ann" in output


def test_an_initial_state_the_score_chokes_on_is_refused(club, tmp_path):
    """Seats, options and seed intact, but the table the score reads is not one the rules
    make: the score, history chart and exports would answer 500, so the play is refused."""
    file, _ = club
    reavers = next(p for p in everything(f"sqlite:///{tmp_path / 'test.db'}")["plays"]
                   if p["game"] == "reavers")
    edited = tmp_path / "edited.nscbackup"
    rewrite(file, edited, _edit_initial(reavers["id"], lambda i: i["table"].update(
        territory_glory={p["name"]: "lots" for p in i["players"]})), key=key_of(tmp_path))
    output = refused(tmp_path, f"sqlite:///{tmp_path / 'target.db'}", edited,
                     "score, history or export cannot be computed")
    assert reavers["id"] in output


def test_an_event_deleted_with_the_counts_lowered_is_refused(club, tmp_path, target):
    """F3: the play's log must run 1..length without a gap, whatever the counts say."""
    file, play = club
    cut = tmp_path / "one-event-less.nscbackup"

    def delete_second_event(lines):
        events = rows_of(lines, "events")
        play_col, position = column(lines, "events", "play_id"), column(lines, "events",
                                                                          "position")
        doomed = next(r for r in events if r[play_col] == play["id"] and r[position] == 2)
        lines.remove({"row": doomed})
        lines[-1]["counts"]["events"] -= 1

    rewrite(file, cut, delete_second_event)
    refused(tmp_path, target, cut, "changed after it was written")
    rewrite(file, cut, delete_second_event, key=key_of(tmp_path))
    output = refused(tmp_path, target, cut, "event 2 is missing")
    assert play["id"] in output


@pytest.mark.parametrize("damage", ["a snapshot", "an answer", "an event", "a count"])
def test_other_damaged_rows_are_refused(app, tmp_path, damage):
    """A stale snapshot would be served as the state; a broken stored answer would be a 500
    on a repeated request; an event that does not replay; a play's counters that do not add
    up."""
    from companion.service import PlayService

    service = PlayService(app.extensions["companion"].store, snapshot_every=3)
    client = app.test_client()
    play, auth = play_with_token(client)
    for vp in range(4):
        client.post(f"/api/v1/plays/{play['id']}/events", json={
            "type": "sheet", "data": {"player": "Ann", "fields": {"vp": vp}}},
                    headers={**auth, "Idempotency-Key": f"k{vp}"})
    service.state(service.load(play["id"]))
    file, edited = tmp_path / "club.nscbackup", tmp_path / "edited.nscbackup"
    write_backup(app.config["DATABASE_URL"], file, key=key_of(tmp_path))

    def change(lines):
        if damage == "a snapshot":
            rows = rows_of(lines, "play_snapshots")
            assert rows
            rows[0][column(lines, "play_snapshots", "state")]["sheets"]["Ann"]["vp"] = 99
        elif damage == "an answer":
            rows_of(lines, "idempotency_keys")[0][column(lines, "idempotency_keys",
                                                         "response")] = {"$bytes": "AAAA"}
        elif damage == "an event":
            rows_of(lines, "events")[0][column(lines, "events", "data")]["player"] = "Nobody"
        else:
            rows_of(lines, "plays")[0][column(lines, "plays", "head")] = 99

    rewrite(file, edited, change, key=key_of(tmp_path))
    refused(tmp_path, f"sqlite:///{tmp_path / 'target.db'}", edited, "cannot be restored")


def test_an_old_unsigned_backup_restores_only_when_asked(club, tmp_path):
    """Backups written before the digest (format 1) are refused unless the owner says the
    file never left their hands; the rows are checked all the same."""
    file, play = club
    old = tmp_path / "old.nscbackup"
    lines = lines_of(file)[:-1]
    lines[0]["format_version"] = 1
    del lines[0]["key_id"]
    old.write_bytes(gzip.compress(b"".join(json.dumps(line).encode() + b"\n"
                                            for line in lines)))
    target = f"sqlite:///{tmp_path / 'target.db'}"
    refused(tmp_path, target, old, "--accept-unsigned")
    result = restore(tmp_path, target, old, "--accept-unsigned")
    assert result.exit_code == 0, result.output
    assert len(everything(target)["plays"]) == 7


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
            write_backup(app.config["DATABASE_URL"], files[-1], key=key_of(tmp_path))
    finally:
        stop.set()
        writer.join()
    for n, file in enumerate(files):
        target = f"sqlite:///{tmp_path / f'r{n}.db'}"
        assert restore(tmp_path, target, file).exit_code == 0
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
