"""The production server under load (short: 12 tables x 20 events; `make bench` runs the long
one), and several server processes on one PostgreSQL with live updates between them."""
from __future__ import annotations

from benchmarks.harness import (
    HX,
    Client,
    Server,
    check_tables,
    create_table,
    fragment_path,
    record,
    run_load,
)
from tests.db.backends import (
    db_url,  # noqa: F401 (fixture)
    postgres_database,
)

TABLES, EVENTS = 12, 20


def test_a_dozen_tables_at_once_lose_and_double_nothing(db_url, tmp_path):  # noqa: F811
    workers = 1 if db_url.startswith("sqlite") else 3
    with Server(db_url, workers=workers, log_dir=str(tmp_path)) as server:
        result = run_load(server.url, TABLES, EVENTS, time_limit=90)
        summary = result.summary()
        assert summary["errors"] == 0, [t.errors for t in result.tables if t.errors][:3]
        assert summary["tables"] == TABLES
        assert summary["events_acked"] == TABLES * EVENTS
        assert set(summary["statuses"]) <= {"200", "204"}, summary["statuses"]
        assert summary["latency_ms"]["fragment"]["n"] == TABLES * EVENTS
        assert check_tables(server.url, db_url, result.tables) == []


def wait_for_version(client: Client, table, version: int, tries: int = 1) -> list[int]:
    """What a phone's polls see, each on a fresh connection (so on whichever worker)."""
    seen = []
    for _ in range(tries):
        client.close()
        reply = client.get(fragment_path(table, version - 1), HX)
        seen.append(reply.status)
        assert f'data-version="{version}"'.encode() in reply.body
    return seen


def test_three_workers_on_postgres_keep_live_updates(postgres_url, tmp_path):
    """A change made through one worker is what a poll answered by any worker shows."""
    with postgres_database(postgres_url) as url, \
            Server(url, workers=3, log_dir=str(tmp_path)) as server:
        writer, reader = Client(server.url), Client(server.url)
        table = create_table(writer)
        for i in range(12):
            assert record(writer, table, i).status == 200
            # every poll on a new connection: the kernel hands them to the three workers
            assert wait_for_version(reader, table, table.version, tries=3) == [200] * 3
            reader.close()
            unchanged = reader.get(fragment_path(table, table.version), HX)
            assert unchanged.status == 204
        assert check_tables(server.url, url, [table]) == []


def test_two_servers_on_one_postgres_see_each_others_changes(postgres_url, tmp_path):
    """Certainly another process: a write through server A, a poll answered by server B."""
    with postgres_database(postgres_url) as url, \
            Server(url, workers=1, log_dir=str(tmp_path / "a")) as a:
        with Server(url, workers=1, log_dir=str(tmp_path / "b")) as b:
            on_a, on_b = Client(a.url), Client(b.url)
            table = create_table(on_a)
            for i in range(6):
                before = table.version
                # B has the play cached at the old version; it must notice the new one
                assert on_b.get(fragment_path(table, before - 1), HX).status == 200
                assert record(on_a, table, i).status == 200
                fresh = on_b.get(fragment_path(table, before), HX)
                assert fresh.status == 200
                assert f'data-version="{table.version}"'.encode() in fresh.body
                assert f'value="{i + 1}"'.encode() in fresh.body
            undo = on_b.post(f"/api/v1/plays/{table.play_id}/undo",
                             {"expected_version": table.version}, table.auth())
            assert undo.status == 200
            seen = on_a.get(f"/api/v1/plays/{table.play_id}", table.auth()).json()["state"]
            assert seen["version"] == table.version + 1 and seen["can_redo"] is True
