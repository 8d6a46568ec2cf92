"""Group commit on SQLite (companion.store.Store._begin): writers of one process that queue
while another writes share its transaction, each in its own SAVEPOINT, and the last of them
commits once (one fsync under synchronous=FULL). Nobody is answered before that commit; a
refused write takes back only its own work; every acknowledged event is in the log once."""
from __future__ import annotations

import threading
import time

from sqlalchemy import event as sa_event

from companion.store import Conflict
from tests.conftest import make_app

WRITERS = 8


def store_and_plays(tmp_path, n):
    app = make_app(tmp_path)
    client = app.test_client()
    plays = [client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]}
                         ).json for _ in range(n)]
    return app, app.extensions["companion"].store, plays


def version_of(app, play) -> int:
    """The play's version as a fresh process would read it (the cache left out)."""
    return app.extensions["companion"].store.load_play(play["id"]).version


def commits_of(store) -> list:
    seen: list = []
    sa_event.listen(store.engine, "commit", lambda conn: seen.append(1))
    return seen


def slow_write(store, play_id, done, errors, *, refuse=False, hold=0.05):
    """One write that takes a while inside the transaction, so the others queue for it."""
    try:
        with store.writing(play_id) as write:
            time.sleep(hold)
            if refuse:
                raise Conflict(write.row.version)
            write.append({"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 1}}},
                         finished=False, summary=None)
        done.append(play_id)
    except Conflict:
        errors.append(play_id)


def run(store, plays, refuse=()):
    done: list = []
    errors: list = []
    threads = [threading.Thread(target=slow_write, args=(store, p["id"], done, errors),
                                kwargs={"refuse": p["id"] in refuse}) for p in plays]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return done, errors


def test_writers_that_queue_share_one_commit(tmp_path):
    app, store, plays = store_and_plays(tmp_path, WRITERS)
    commits = commits_of(store)
    done, errors = run(store, plays)
    assert sorted(done) == sorted(p["id"] for p in plays) and not errors
    # one commit per writer without grouping; the first writer commits alone at most
    assert 1 <= len(commits) < WRITERS, len(commits)
    assert [version_of(app, p) for p in plays] == [1] * WRITERS


def test_a_refused_write_in_a_group_takes_back_only_its_own(tmp_path):
    app, store, plays = store_and_plays(tmp_path, WRITERS)
    refused = {plays[3]["id"], plays[6]["id"]}
    done, errors = run(store, plays, refuse=refused)
    assert set(errors) == refused
    assert set(done) == {p["id"] for p in plays} - refused
    for p in plays:
        assert version_of(app, p) == (0 if p["id"] in refused else 1), p["id"]


def test_nobody_is_answered_before_the_commit(tmp_path, monkeypatch):
    """A writer that handed its work on waits for the group's commit: when the commit fails,
    every member hears it, and nothing of theirs is in the database."""
    app, store, plays = store_and_plays(tmp_path, 4)
    real_end = store._end_group

    def failing_commit(group, *, failed):
        if group is not None and group.members > 1:
            failed = True          # the disk said no: the whole group is rolled back
        return real_end(group, failed=failed)

    monkeypatch.setattr(store, "_end_group", failing_commit)
    outcomes: list = []

    def writer(play):
        try:
            with store.writing(play["id"]) as write:
                time.sleep(0.05)
                write.append({"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 1}}},
                             finished=False, summary=None)
            outcomes.append("ok")
        except RuntimeError:
            outcomes.append("failed")

    threads = [threading.Thread(target=writer, args=(p,)) for p in plays]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(outcomes) == 4 and "failed" in outcomes
    versions = [version_of(app, p) for p in plays]
    # what was acknowledged is stored, what failed is not
    assert sorted(versions) == sorted(1 if o == "ok" else 0 for o in outcomes)

