"""Per-play state snapshots (issue 15): a cold read or an undo starts from the nearest snapshot
and replays only the events after it, and always gives the state a replay of the whole log
gives. SQLite and PostgreSQL.

The property: random sequences of changes, shared undos and redos, per-phone undos, and reads
by a process with an empty cache (another server worker), with a snapshot every 2 or 3
events, so snapshots are made, used, and thrown away with an undone branch all the time. After
every step: the state the running process answers, the state a cold process answers and every
stored snapshot equal the replay of the log from the start."""
from __future__ import annotations

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.plays import replay
from companion.service import PlayService, initial_of
from companion.snapshots import rules_fingerprint
from companion.store import events as events_table
from companion.store import now, play_snapshots
from companion.store import plays as plays_table
from tests.db.backends import backend_app, backend_of, db_url  # noqa: F401 (fixtures)
from tests.db.test_migrations import GAMES, _number_field, everything

PHONES = ("phone-a", "phone-b")


def full_replay(store, row, upto: int | None = None) -> dict:
    """The truth: the initial state and every active event up to ``upto`` (the head)."""
    upto = row.head if upto is None else upto
    return replay(initial_of(row), store.active_events(row.id, upto=upto))


def snapshots_of(store, play_id: str) -> list:
    with store.engine.connect() as conn:
        return conn.execute(sa.select(play_snapshots.c.position, play_snapshots.c.rules,
                                      play_snapshots.c.state)
                            .where(play_snapshots.c.play_id == play_id)
                            .order_by(play_snapshots.c.position)).all()


def check_against_replay(service: PlayService, play_id: str, every: int) -> None:
    store = service.store
    row = service.load(play_id)
    truth = dict(full_replay(store, row), version=row.version)
    assert service.state(row) == truth
    cold = PlayService(store, snapshot_every=every)
    assert cold.state(row) == truth
    for snap in snapshots_of(store, play_id):
        assert snap.position <= row.length
        assert snap.state == full_replay(store, row, snap.position) | {
            "version": snap.state["version"]}, f"snapshot at {snap.position} is stale"


def changes(game: str, players: list[str]):
    """Changes a table makes: sets and taps on a sheet (some out of range, refused), phase and
    clock steps, the end of the game; each tagged with the phone that made it."""
    field = _number_field(game)
    sheet = st.builds(lambda p, v: {"type": "sheet", "data": {"player": p,
                                                               "fields": {field: v}}},
                      st.sampled_from(players), st.integers(0, 12))
    tap = st.builds(lambda p, n: {"type": "sheet", "data": {"player": p, "add": {field: n}}},
                    st.sampled_from(players), st.sampled_from([-2, -1, 1, 2, 3]))
    other = st.sampled_from([{"type": "advance"}, {"type": "pause"}, {"type": "resume"},
                             {"type": "finish"}])
    event = st.one_of(sheet, tap, tap, sheet, other)
    return st.tuples(st.just("event"), event, st.sampled_from(PHONES))


def steps(game: str, players: list[str]):
    """Runs of changes, runs of undos or redos (1 to 4 in a row), per-phone undos, and a
    process with an empty cache taking over."""
    run = st.one_of(
        st.lists(changes(game, players), min_size=1, max_size=6),
        st.lists(changes(game, players), min_size=1, max_size=6),
        st.integers(1, 4).map(lambda n: [("undo", None, None)] * n),
        st.integers(1, 3).map(lambda n: [("redo", None, None)] * n),
        st.sampled_from(PHONES).map(lambda p: [("undo_mine", None, p)]),
        st.just([("cold", None, None)]))
    start = st.lists(changes(game, players), min_size=3, max_size=8)
    return st.tuples(start, st.lists(run, min_size=2, max_size=10)).map(
        lambda both: both[0] + [step for r in both[1] for step in r])


@st.composite
def sessions(draw):
    game, players = draw(st.sampled_from(GAMES))
    return game, players, draw(st.sampled_from([2, 3])), draw(steps(game, players))


def run_session(store, session) -> None:
    game, players, every, plan = session
    service = PlayService(store, snapshot_every=every)
    play_id = service.create({"game": game, "players": players, "seed": 1})[0].id
    for kind, event, phone in plan:
        try:
            if kind == "event":
                service.record(play_id, dict(event, device=phone))
            elif kind == "undo":
                service.move(play_id, -1)
            elif kind == "redo":
                service.move(play_id, +1)
            elif kind == "undo_mine":
                service.undo_mine(play_id, phone)
            else:   # another process, its cache empty, takes over
                service = PlayService(store, snapshot_every=every)
        except RuleError:
            pass    # refused (out of range, nothing to undo, finished): nothing recorded
        check_against_replay(service, play_id, every)


def test_snapshot_path_equals_full_replay(backend_app, db_url):  # noqa: F811
    store = backend_app.extensions["companion"].store
    examples = 40 if backend_of(db_url) == "sqlite" else 25

    @settings(max_examples=examples, deadline=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(sessions())
    def prop(session):
        run_session(store, session)

    prop()


def make_play(service: PlayService, events: int) -> str:
    play_id = service.create({"game": "knarr", "players": ["Ann", "Bo"], "seed": 3})[0].id
    for i in range(events):
        service.record(play_id, {"type": "sheet", "data": {"player": ("Ann", "Bo")[i % 2],
                                                           "add": {"vp": 1}}})
    return play_id


def test_a_cold_read_and_an_undo_replay_only_past_the_nearest_snapshot(backend_app):  # noqa: F811
    store = backend_app.extensions["companion"].store
    service = PlayService(store, snapshot_every=10)
    play_id = make_play(service, 47)
    assert [s.position for s in snapshots_of(store, play_id)] == [10, 20, 30, 40]
    row = service.load(play_id)
    cold = PlayService(store, snapshot_every=10)
    known = cold.known(row)
    assert known.snapped == 40       # 7 events replayed, not 47
    assert [known.state["sheets"][p]["vp"] for p in ("Ann", "Bo")] == [24, 23]
    assert known.state == dict(full_replay(store, row), version=row.version)
    # an undo on a process that never saw the play starts from snapshot 40 too
    undone = PlayService(store, snapshot_every=10).move_head(play_id, -1)
    assert undone.snapped == 40
    assert undone.state == dict(full_replay(store, undone.row), version=undone.row.version)


def test_snapshots_of_other_rules_are_ignored_and_ours_are_used(backend_app):  # noqa: F811
    store = backend_app.extensions["companion"].store
    service = PlayService(store, snapshot_every=5)
    play_id = make_play(service, 12)
    row = service.load(play_id)
    truth = dict(full_replay(store, row), version=row.version)
    wrong = dict(truth, sheets={"Ann": {"vp": 999}, "Bo": {"vp": 999}})
    with store.engine.begin() as conn:   # snapshots written by other rules, and wrong
        conn.execute(play_snapshots.update().where(play_snapshots.c.play_id == play_id)
                     .values(rules="0" * 64, state=wrong))
    assert PlayService(store, snapshot_every=5).state(row) == truth
    # that long replay was kept under this code's fingerprint
    kept = [(s.position, s.rules) for s in snapshots_of(store, play_id)]
    assert kept == [(5, "0" * 64), (10, "0" * 64), (12, rules_fingerprint())]
    # the wrong rows under this code's fingerprint are believed: the read path uses them
    with store.engine.begin() as conn:
        conn.execute(play_snapshots.delete().where(play_snapshots.c.position == 12))
        conn.execute(play_snapshots.update().where(play_snapshots.c.play_id == play_id)
                     .values(rules=rules_fingerprint()))
    assert PlayService(store, snapshot_every=5).state(row)["sheets"]["Ann"]["vp"] == 999 + 1


def test_the_fingerprint_names_the_rules_code(monkeypatch, tmp_path):
    from companion import snapshots

    first = rules_fingerprint()
    assert len(first) == 64 and first == rules_fingerprint()
    snapshots.rules_fingerprint.cache_clear()
    monkeypatch.setattr(snapshots, "STATE_FORMAT", snapshots.STATE_FORMAT + 1)
    assert snapshots.rules_fingerprint() != first
    snapshots.rules_fingerprint.cache_clear()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "x.py").write_text("A = 1\n")
    modules = [part for part in snapshots.RULES_CODE if part.endswith(".py")]
    for module in modules:
        (tmp_path / module).write_text("")
    monkeypatch.setattr(snapshots, "PACKAGE", tmp_path)
    one = snapshots.rules_fingerprint()
    snapshots.rules_fingerprint.cache_clear()
    (tmp_path / "games" / "x.py").write_text("A = 2\n")     # a rules fix
    assert snapshots.rules_fingerprint() != one
    for module in modules:                                  # each module a state depends on
        snapshots.rules_fingerprint.cache_clear()
        before = snapshots.rules_fingerprint()
        (tmp_path / module).write_text("B = 1\n")
        snapshots.rules_fingerprint.cache_clear()
        assert snapshots.rules_fingerprint() != before, module
    assert "seats.py" in modules and "clock_players.py" in modules
    snapshots.rules_fingerprint.cache_clear()


def test_a_long_log_without_snapshots_gets_one_at_its_first_cold_read(backend_app):  # noqa: F811
    """A play recorded before snapshots existed (or after the rules changed): the first cold
    read replays it once and keeps a snapshot at the head, so the next one does not."""
    service = backend_app.extensions["companion"]
    store = service.store
    play_id = service.create({"game": "knarr", "players": ["Ann", "Bo"], "seed": 4})[0].id
    with store.engine.begin() as conn:
        conn.execute(events_table.insert(), [
            {"play_id": play_id, "position": i + 1, "type": "sheet", "discarded": False,
             "created_at": now(), "data": {"player": "Ann", "fields": {"vp": i % 30}}}
            for i in range(120)])
        conn.execute(plays_table.update().where(plays_table.c.id == play_id)
                     .values(version=120, head=120, length=120))
    row = service.load(play_id)
    assert snapshots_of(store, play_id) == []
    assert PlayService(store).known(row).snapped == 120
    assert [s.position for s in snapshots_of(store, play_id)] == [120]
    assert PlayService(store).known(row).snapped == 120
    check_against_replay(service, play_id, 50)


def test_an_overwritten_branch_takes_its_snapshots_along(backend_app):  # noqa: F811
    store = backend_app.extensions["companion"].store
    service = PlayService(store, snapshot_every=3)
    play_id = make_play(service, 10)
    assert [s.position for s in snapshots_of(store, play_id)] == [3, 6, 9]
    for _ in range(6):
        service.move(play_id, -1)                 # head 4: snapshots 6 and 9 still valid
    assert [s.position for s in snapshots_of(store, play_id)] == [3, 6, 9]
    service.move(play_id, +1)
    service.record(play_id, {"type": "sheet", "data": {"player": "Bo", "fields": {"vp": 0}}})
    # 6 and 9 of the old branch are gone; 6 is the new branch's (its Bo has 0)
    kept = snapshots_of(store, play_id)
    assert [s.position for s in kept] == [3, 6]
    assert kept[1].state["sheets"]["Bo"]["vp"] == 0
    check_against_replay(service, play_id, 3)


def test_deleting_a_play_deletes_its_snapshots(backend_app):  # noqa: F811
    store = backend_app.extensions["companion"].store
    service = PlayService(store, snapshot_every=2)
    play_id = make_play(service, 5)
    assert snapshots_of(store, play_id)
    assert store.delete_play(play_id)
    assert snapshots_of(store, play_id) == []


def test_backup_and_restore_keep_snapshots_that_still_match(backend_app, db_url,  # noqa: F811
                                                              tmp_path):
    """Snapshots travel in the backup like every table; restored, they are used (same rules)
    and give the replayed state; under other rules they would be ignored (test above)."""
    from companion.backup import write_backup
    from companion.restore import restore_backup
    from tests.db.test_backup import _bare_app

    store = backend_app.extensions["companion"].store
    service = PlayService(store, snapshot_every=4)
    play_id = make_play(service, 11)
    service.move(play_id, -1)
    before = everything(db_url)
    assert [s["position"] for s in before["play_snapshots"]] == [4, 8]
    file = tmp_path / "club.nscbackup"
    write_backup(db_url, file, key=b"k")
    target = f"sqlite:///{tmp_path / 'restored.db'}"
    restore_backup(target, file, key=b"k")
    assert everything(target) == before
    moved = _bare_app(tmp_path, target).extensions["companion"]
    row = moved.load(play_id)
    known = PlayService(moved.store, snapshot_every=4).known(row)
    assert known.snapped == 8
    assert known.state == dict(full_replay(moved.store, row), version=row.version)
    moved.store.engine.dispose()
