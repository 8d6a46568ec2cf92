"""`make bench`: figures for a club running many tables, printed as JSON.

    python -m benchmarks [--tables 48] [--events 50] [--quick] [--out FILE]

On SQLite (a temporary file) and, when TEST_POSTGRES_URL is set (scripts/with-postgres.sh),
on PostgreSQL: the hot paths in process next to the bare database write, the production
server (gunicorn via `companion serve`) under many concurrent tables next to /healthz in the
same run, replaying 1,000 events; then PDF score sheets next to a minimal WeasyPrint document,
Seafarers board generation (benchmarks/bench_seafarers.py, when present) and the play page's
weight. Everything runs on 127.0.0.1 and stops by itself.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib.util
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from . import bench_event, bench_import, bench_live, bench_pdf, bench_streams
from .harness import ROOT, Server, check_tables, percentiles, run_load
from .inprocess import PLAYERS, event_steps, make_app, sheet_event, timed

# ---- how long each section takes: report["section_seconds"], and on stderr as it ends

SECTION_SECONDS: dict[str, float] = {}


@contextlib.contextmanager
def section(name: str):
    """Times one section of the run: `make test` runs the smoke run after the tests, so its
    slowest sections are found from the report of any run, without a profiler."""
    print(f"[bench] {name} ...", file=sys.stderr)
    start = time.perf_counter()
    try:
        yield
    finally:
        took = round(time.perf_counter() - start, 1)
        SECTION_SECONDS[name] = took
        print(f"[bench] {name}: {took} s", file=sys.stderr)


# ---- in process: what one event costs, layer by layer

def hot_paths(url: str, repeat: int) -> dict:
    import sqlalchemy as sa

    from companion.store import events, now, plays

    app = make_app(url)
    service = app.extensions["companion"]
    client = app.test_client()
    pid, token, steps = event_steps(app)
    bare_id = service.create({"game": "knarr", "players": PLAYERS, "seed": 2})[0].id
    engine = service.store.engine

    def bare_write(i):
        """The database work of one event and nothing else: bump the version, insert."""
        with engine.begin() as conn:
            conn.execute(plays.update().where(plays.c.id == bare_id)
                         .values(version=plays.c.version + 1, head=i, length=i,
                                 updated_at=now()))
            conn.execute(events.insert().values(
                play_id=bare_id, position=i, type="sheet", data=sheet_event(i)["data"],
                discarded=False, created_at=now()))

    def form_event(i):
        reply = client.post(f"/plays/{pid}/{token}/events", headers={"HX-Request": "true"},
                            data={"type": "sheet", "player": "Ann", "f:vp": str(i % 200)})
        assert reply.status_code == 200, reply.data

    def fragment(i):
        reply = client.get(f"/plays/{pid}/{token}", headers={"HX-Request": "true"})
        assert reply.status_code == 200

    def poll_unchanged(i):
        version = service.store.play_access(pid).version
        assert client.get(f"/plays/{pid}/{token}/poll?version={version}").status_code == 204

    results = {}
    for name, fn in (("bare_db_write", bare_write), ("service_record", steps["service_record"]),
                     ("api_post_event", steps["api_post_event"]), ("form_post_event", form_event),
                     ("play_fragment", fragment), ("poll_unchanged", poll_unchanged),
                     ("healthz", steps["healthz"])):
        results[name] = percentiles(timed(fn, repeat))
    bare = results["bare_db_write"]["median"]
    health = results["healthz"]["median"]
    out = {"latency_ms": results,
           "ratio_to_bare_db_write": {k: round(results[k]["median"] / bare, 2) for k in
                                      ("service_record", "api_post_event", "form_post_event")},
           "ratio_to_healthz": {k: round(v["median"] / health, 2) for k, v in results.items()
                                if k != "healthz"}}
    with engine.connect() as conn:
        assert conn.execute(sa.select(plays.c.version).where(plays.c.id == bare_id)).scalar()
    engine.dispose()
    return out


def replay_1000(url: str, events: int = 1000) -> dict:
    """``events`` (1,000; 200 in the smoke run, where recording them one by one took 54 s of
    PostgreSQL's section at load 15): recorded through the service, snapshots and all."""
    from companion.plays import replay
    from companion.service import PlayService

    app = make_app(url)
    service = app.extensions["companion"]
    row = service.create({"game": "knarr", "players": PLAYERS, "seed": 3})[0]
    for i in range(events):
        service.record(row.id, sheet_event(i))
    row = service.load(row.id)
    logged = service.store.active_events(row.id)
    pure = timed(lambda i: replay(row.initial, logged), 5, warmup=1)
    cold = timed(lambda i: PlayService(service.store).state(row), 5, warmup=1)
    service.store.engine.dispose()
    return {"events": len(logged), "replay_ms": percentiles(pure),
            "cold_state_with_db_read_ms": percentiles(cold),
            "note": "the state is cached by (play, version): a replay happens once per "
                    "process, after a restart or an undo"}


def load(url: str, tables: int, events: int, workers: int, think: float,
         time_limit: float) -> dict:
    with tempfile.TemporaryDirectory() as logs, Server(url, workers=workers, log_dir=logs,
                                                       limits=False) as server:
        result = run_load(server.url, tables, events, think=think, time_limit=time_limit)
        problems = check_tables(server.url, url, result.tables)
    summary = result.summary()
    summary.update(workers=workers, threads_per_worker=server.threads, think_s=think,
                   lost_or_duplicated=len(problems), problems=problems[:5],
                   events_per_second=round(summary["events_acked"] / result.seconds, 1))
    return summary


# ---- PDF, boards, page weight

def seafarers_boards(boards: int | None = None) -> dict:
    path = Path(__file__).with_name("bench_seafarers.py")
    if not path.exists():
        return {"skipped": "benchmarks/bench_seafarers.py is not there yet"}
    spec = importlib.util.spec_from_file_location("benchmarks.bench_seafarers", path)
    module = importlib.util.module_from_spec(spec)
    with contextlib.redirect_stdout(sys.stderr):   # stdout carries only this report
        spec.loader.exec_module(module)
        return module.run(boards) if boards else module.run()


def page_weight(url: str) -> dict:
    from companion.games import GAMES

    app = make_app(url)
    client = app.test_client()
    static = ROOT / "static"
    assets = {}
    for ref in ("css/app.css", "js/htmx.min.js", "js/app.js"):
        data = (static / ref).read_bytes() if (static / ref).exists() else b""
        assets[ref] = {"bytes": len(data), "gzip": len(gzip.compress(data, 9))}
    pages = {}
    for game in GAMES.values():
        names = PLAYERS[:max(game.min_players, min(4, game.max_players))]
        reply = client.post("/api/v1/plays", json={"game": game.id, "players": names,
                                                   "seed": 5})
        if reply.status_code != 201:
            continue
        body = reply.get_json()
        html = client.get(f"/plays/{body['id']}/{body['edit_token']}").data
        block = client.get(f"/plays/{body['id']}/{body['edit_token']}",
                           headers={"HX-Request": "true"}).data
        pages[game.id] = {"html_bytes": len(html), "html_gzip": len(gzip.compress(html, 6)),
                          "fragment_gzip": len(gzip.compress(block, 6))}
    heaviest = max(p["html_gzip"] for p in pages.values())
    app.extensions["companion"].store.engine.dispose()
    return {"play_page": pages, "assets": assets,
            "first_visit_gzip_bytes_heaviest_game": heaviest + sum(
                a["gzip"] for a in assets.values()),
            "note": "assets are cached after the first visit (Cache-Control max-age)"}


# ---- live: push to the other phones, bytes per change, open streams

def live_figures(tmp: str, args) -> dict:
    out = {"propagation": {}, "streams_held": {}}
    places = backends(tmp)
    if args.quick:   # the smoke run in `make test`: PostgreSQL's propagation took 59 s of it
        places = {"sqlite": places["sqlite"]}
    for name, url in places.items():
        with section(f"{name}: propagation to 3 phones over the live stream"):
            # the old 2 s poll's baseline: about 2 s a change (2 in the smoke run, not 5)
            out["propagation"][name] = bench_live.propagation(
                fresh(url, tmp, "live"), 3, "gevent", args.changes,
                2 if args.quick else max(5, args.changes // 10))
    with section("bytes per change"):
        sqlite = f"sqlite:///{tmp}/bytes.db"
        out["bytes_per_change"] = bench_live.bytes_per_change(make_app, sqlite)
    out["per_game"] = wire_figures(tmp, args)
    for worker_class in ("gevent", "gthread"):
        with section(f"{args.streams} open streams on {worker_class}"):
            out["streams_held"][worker_class] = bench_live.streams_held(
                fresh(backends(tmp)["sqlite"], tmp, f"held_{worker_class}"), worker_class,
                args.streams, 40 if not args.quick else 10)
    with section("more streams than threads (gthread, gevent)"):
        out["more_streams_than_threads"] = [
            bench_live.thread_cliff(fresh(backends(tmp)["sqlite"], tmp, f"cliff_{wc}"), wc)
            for wc in ("gthread", "gevent")]
    out["stream_flood"] = flood_figure(tmp, args)
    return out


def flood_figure(tmp: str, args) -> dict:
    with section(f"{args.flood} streams asked for from one address"):
        return bench_streams.stream_flood(fresh(backends(tmp)["sqlite"], tmp, "flood"),
                                          args.flood, seconds=2.0 if args.quick else 5.0)


def wire_figures(tmp: str, args) -> dict:
    """Per game: bytes per change with the parts a phone holds, and propagation (200 changes
    each on `companion serve`, gunicorn + gevent): benchmarks/bench_wire.py."""
    from . import bench_wire

    samples = 5 if args.quick else 200
    # the smoke run: 10 changes a stretch and one stretch each way, not 40 and 3 (7 stretches
    # of 40 changes per game, in process, were the smoke run's longest section)
    changes, repeat = (10, 1) if args.quick else (40, 3)
    with section("bytes per change per game"):
        out = {"bytes_per_change": bench_wire.bytes_per_change(
            make_app, f"sqlite:///{tmp}/wire.db", changes=changes, repeat=repeat),
               "propagation": {}}
    for name, url in backends(tmp).items():
        with section(f"{name}: propagation per game, {samples} changes each"):
            # baseline on SQLite, game by game in turn: every phone's block rendered for it
            # (BLOCK_CACHE_SECONDS=0) against the version's render shared (web/block_cache.py)
            baseline = ((fresh(url, tmp, "wire_own"), {"BLOCK_CACHE_SECONDS": "0"})
                        if name == "sqlite" else None)
            out["propagation"][name] = bench_wire.propagation(fresh(url, tmp, "wire"), samples,
                                                              baseline=baseline)
    return out


# ---- the run

def backends(tmp: str) -> dict:
    found = {"sqlite": f"sqlite:///{tmp}/bench.db"}
    if os.environ.get("TEST_POSTGRES_URL"):
        found["postgresql"] = os.environ["TEST_POSTGRES_URL"]
    return found


def fresh(url: str, tmp: str, name: str) -> str:
    """A separate database per section, so one section's rows never slow another."""
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp}/{name}.db"
    import sqlalchemy as sa

    engine = sa.create_engine(os.environ.get("TEST_POSTGRES_ADMIN") or url,
                              isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    db = f"bench_{name}"
    with engine.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{db}"'))
    engine.dispose()
    return sa.engine.make_url(url).set(database=db).render_as_string(hide_password=False)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=48)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean pause between a table's events in the paced run, seconds "
                             "(the other run goes flat out, to find the capacity)")
    parser.add_argument("--repeat", type=int, default=300, help="samples per in-process figure")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--changes", type=int, default=100,
                        help="changes timed from one phone to 3 others, per database")
    parser.add_argument("--streams", type=int, default=300,
                        help="open live streams held at once (gevent and gthread)")
    parser.add_argument("--flood", type=int, default=2500,
                        help="live streams asked for at once from one address")
    parser.add_argument("--live-only", action="store_true",
                        help="only the live figures: propagation, bytes per change, streams")
    parser.add_argument("--write-path-only", action="store_true",
                        help="only the write path under load (8 tables flat out, 3 rounds) "
                             "and undo on 5,000 vs 10 events")
    parser.add_argument("--flood-only", action="store_true",
                        help="only the stream flood: --flood streams asked for at once from "
                             "one address while another table taps")
    parser.add_argument("--pdf-only", action="store_true",
                        help="only the PDF figures: render costs, a sheet through the app, "
                             "other tables' taps under a PDF loop")
    parser.add_argument("--import-only", action="store_true",
                        help="only the import loop: 5 phones' taps with and without one client "
                             "importing a 10,000-event export flat out")
    parser.add_argument("--event-only", action="store_true",
                        help="only one recorded event against /healthz with one client, over "
                             "HTTP on `companion serve` and in process (issue 23)")
    parser.add_argument("--round-seconds", type=float, default=8.0,
                        help="length of each of the write path's three rounds")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--out", help="also write the JSON to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.events, args.repeat, args.think = 6, 5, 30, 0.05
        args.changes, args.streams, args.flood = 10, 40, 500
        args.round_seconds = 1.0
    started = time.time()
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "platform": platform.platform()},
              "command": "make bench BENCH_ARGS='" + " ".join(argv or sys.argv[1:]) + "'",
              "backends": {}}
    with tempfile.TemporaryDirectory(prefix="nsc-bench-") as tmp:
        if args.event_only:
            report["event_against_healthz"] = event_figures(tmp, args)
            return finish(report, started, args)
        if args.import_only:
            with section("an import loop"):
                report["import_loop"] = bench_import.import_loop(f"sqlite:///{tmp}/import.db",
                                                                 3.0 if args.quick else 20.0)
            return finish(report, started, args)
        if args.flood_only or args.pdf_only:
            if args.flood_only:
                report["live"] = {"stream_flood": flood_figure(tmp, args)}
            if args.pdf_only:
                with section("PDF"):
                    report["pdf"] = bench_pdf.figures(tmp, args.quick)
            return finish(report, started, args)
        if not args.live_only:
            report.update(write_path_figures(tmp, args))
        if args.write_path_only:
            return finish(report, started, args)
        report["live"] = live_figures(tmp, args)
        for name, url in ({} if args.live_only else backends(tmp)).items():
            workers = 3 if name == "postgresql" else 2
            figures = report["backends"][name] = {}
            with section(f"{name}: hot paths in process"):
                figures["hot_paths_in_process"] = hot_paths(fresh(url, tmp, "hot"), args.repeat)
            replayed = 200 if args.quick else 1000
            with section(f"{name}: replay of {replayed:,} events"):
                figures["replay"] = replay_1000(fresh(url, tmp, "replay"), replayed)
            with section(f"{name}: load on gunicorn, flat out"):
                figures["load_gunicorn"] = load(fresh(url, tmp, "load"), args.tables,
                                                args.events, workers, 0.0, args.time_limit)
            with section(f"{name}: load on gunicorn, paced"):
                figures["load_gunicorn_paced"] = load(fresh(url, tmp, "paced"), args.tables,
                                                      min(args.events, 30), workers, args.think,
                                                      args.time_limit)
        if not args.live_only:
            if not args.quick:     # (25 s more in `make test`'s smoke run, near its budget)
                report["event_against_healthz"] = event_figures(tmp, args)
            from .bench_durability import sqlite_synchronous

            with section("SQLite synchronous=FULL against NORMAL"):
                report["sqlite_synchronous"] = sqlite_synchronous(tmp, args.repeat)
            with section("PDF"):
                report["pdf"] = bench_pdf.figures(tmp, args.quick)
            if not args.quick:     # (the smoke run keeps to its budget)
                with section("an import loop"):
                    report["import_loop"] = bench_import.import_loop(
                        f"sqlite:///{tmp}/import.db", 20.0)
            with section("Seafarers boards"):
                report["seafarers_boards"] = seafarers_boards(20 if args.quick else None)
            with section("page weight"):
                report["page_weight"] = page_weight(f"sqlite:///{tmp}/other.db")
    return finish(report, started, args)


def event_figures(tmp: str, args) -> dict:
    """One recorded event against /healthz with one client, over HTTP and in process, on each
    database, and on SQLite in /dev/shm, where no fsync waits for the disk
    (benchmarks/bench_event.py)."""
    places = dict(backends(tmp))
    if args.quick:      # a smoke run: one server, on SQLite
        places = {"sqlite": places["sqlite"]}
    elif os.path.isdir("/dev/shm"):
        places["sqlite_dev_shm"] = None
    out = {}
    with tempfile.TemporaryDirectory(prefix="nsc-bench-", dir="/dev/shm"
                                     if "sqlite_dev_shm" in places else None) as shm:
        for name, url in places.items():
            with section(f"{name}: one event against /healthz, one client"):
                url = f"sqlite:///{shm}/event.db" if url is None else fresh(url, tmp, "event")
                out[name] = bench_event.figures(url, args.repeat)
    return out


def write_path_figures(tmp: str, args) -> dict:
    """Issue 15: the write path under load (event p95 / trivial route p95) and undo on a
    long log next to a short one, on each database, with the load average beside them."""
    from .bench_durability import undo_figures
    from .bench_write_path import load_average, write_path_under_load

    out: dict = {"write_path_under_load": {}, "undo": {}}
    for name, url in backends(tmp).items():
        with section(f"{name}: 8 tables posting events flat out, 3 rounds"):
            out["write_path_under_load"][name] = write_path_under_load(
                fresh(url, tmp, "writepath"), seconds=args.round_seconds)
        with section(f"{name}: undo on 5,000 vs 10 events"):
            out["undo"][name] = dict(undo_figures(fresh(url, tmp, "undo")),
                                     load_average=load_average())
    return out


def finish(report: dict, started: float, args) -> int:
    report["seconds"] = round(time.time() - started, 1)
    report["section_seconds"] = dict(SECTION_SECONDS)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    failures = [n for n, b in report["backends"].items() for run in
                (b["load_gunicorn"], b["load_gunicorn_paced"])
                if run["lost_or_duplicated"] or run["errors"]]
    failures += [n for n, run in report.get("write_path_under_load", {}).items()
                 if run["lost_or_duplicated"] or any(r["errors"] for r in run["per_round"])]
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
