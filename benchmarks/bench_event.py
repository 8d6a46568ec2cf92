"""One recorded event against /healthz (issue 23): what a sheet event costs next to the trivial
route, with one client, measured in the same run so the machine's load weighs on both.

- over HTTP: the production server (`companion serve`: gunicorn with its default workers and
  worker class, the limits on but far above one client's pace), one keep-alive client sending
  ten sheet events, then ten GET /healthz, and so on; the client's wall-clock time of each,
  and the CPU time the server's processes spent on each kind (Linux: every task's schedstat),
  which the machine's other work does not inflate;
- in process (Flask's test client, no network): the service recording an event, the API's
  POST .../events and /healthz, interleaved the same way, wall-clock and CPU time; beside them
  the store's write transaction of an event alone (the locked read, the version bump and the
  insert, committed as the service commits them: no validation, rules or scoring), the part
  of an event no layer above the store can take away.

    make bench BENCH_ARGS=--event-only

On SQLite (a file, synchronous=FULL: every event waits for its fsync) and, with
scripts/with-postgres.sh, on PostgreSQL; on Linux also on SQLite in /dev/shm (no disk flush),
which tells the code's own cost apart from the disk's.
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from .harness import Client, Server, create_table, percentiles, record
from .inprocess import PLAYERS, UNLIMITED, event_steps, make_app, sheet_event

BLOCK = 10      # requests of one kind in a row, over HTTP


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def ratios(event: list[float], healthz: list[float]) -> dict:
    return {"median": round(statistics.median(event) / statistics.median(healthz), 2),
            "p95": round(percentiles(event)["p95"] / percentiles(healthz)["p95"], 2)}


def cpu_of_group(pgid: int) -> int | None:
    """Nanoseconds of CPU the processes of a process group have run (every thread), or None
    without Linux's /proc."""
    proc = Path("/proc")
    if not (proc / "self" / "schedstat").exists():
        return None
    total = 0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:          # the process group ("pgrp")
                continue
            total += sum(int((task / "schedstat").read_text().split()[0])
                         for task in (entry / "task").iterdir())
        except (OSError, ValueError, IndexError):   # gone meanwhile
            continue
    return total


def over_http(url: str, repeat: int, warmup: int = 20) -> dict:
    """One client, one play: ten events, ten /healthz, ... on `companion serve`."""
    before = load_average()
    wall: dict[str, list[float]] = {"event": [], "healthz": []}
    cpu: dict[str, list[int]] = {"event": [], "healthz": []}
    errors = []
    with tempfile.TemporaryDirectory() as logs, Server(url, log_dir=logs, env=UNLIMITED) as server:
        client = Client(server.url)
        table = create_table(client)
        sent = 0

        def one(kind: str):
            nonlocal sent
            if kind == "healthz":
                return client.get("/healthz")
            sent += 1
            return record(client, table, sent)

        for block in range(-(-warmup // BLOCK) + -(-repeat // BLOCK)):
            for kind in ("event", "healthz"):
                start = cpu_of_group(server.proc.pid)
                replies = [one(kind) for _ in range(BLOCK)]
                spent = cpu_of_group(server.proc.pid)
                errors += [r.status for r in replies if r.status != 200]
                if block * BLOCK >= warmup:
                    wall[kind] += [r.seconds for r in replies]
                    if start is not None and spent is not None:
                        cpu[kind].append(spent - start)
        client.close()
    out = {"server": f"companion serve, {server.workers} workers x {server.threads} threads",
           "event_ms": percentiles(wall["event"]), "healthz_ms": percentiles(wall["healthz"]),
           "event_over_healthz": ratios(wall["event"], wall["healthz"]), "errors": len(errors),
           "load_average_before": before, "load_average_after": load_average()}
    if cpu["event"]:
        per = {k: sum(v) / (len(v) * BLOCK) / 1e6 for k, v in cpu.items()}
        out["server_cpu_ms_per_request"] = {k: round(v, 3) for k, v in per.items()}
        out["server_cpu_event_over_healthz"] = round(per["event"] / per["healthz"], 2)
    return out


def in_process(url: str, repeat: int, warmup: int = 20) -> dict:
    """The same, without the network: the service's record, the API route and /healthz."""
    app = make_app(url)
    _, _, steps = event_steps(app)
    steps["store_write"] = store_write(app)
    wall: dict[str, list[float]] = {k: [] for k in steps}
    cpu: dict[str, list[float]] = {k: [] for k in steps}
    for i in range(warmup + repeat):
        for name, step in steps.items():
            start, start_cpu = time.perf_counter(), time.thread_time()
            step(i)
            if i >= warmup:
                cpu[name].append(time.thread_time() - start_cpu)
                wall[name].append(time.perf_counter() - start)
    app.extensions["companion"].store.engine.dispose()
    return {"latency_ms": {k: percentiles(v) for k, v in wall.items()},
            "over_healthz": {k: ratios(v, wall["healthz"]) for k, v in wall.items()
                             if k != "healthz"},
            "cpu_ms": {k: percentiles(v) for k, v in cpu.items()},
            "cpu_over_healthz": {k: ratios(v, cpu["healthz"]) for k, v in cpu.items()
                                 if k != "healthz"},
            "load_average": load_average()}


def store_write(app):
    """The store's write transaction of one sheet event and nothing else (on a play of its
    own: the other steps' play stays as the service last left it)."""
    service = app.extensions["companion"]
    store = service.store
    play_id = service.create({"game": "knarr", "players": PLAYERS, "seed": 3})[0].id

    def step(i):
        with store.writing(play_id) as write:
            write.append({"type": "sheet", "data": sheet_event(i)["data"]}, finished=False,
                         summary=None)
    return step


def figures(url: str, repeat: int) -> dict:
    return {"over_http_one_client": over_http(url, repeat),
            "in_process": in_process(url, repeat)}
