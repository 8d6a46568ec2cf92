"""The write path under load (issue 15): 8 tables posting events flat out to the real server
(`companion serve`: gunicorn, its default workers), three 8-second rounds, with a probe timing
a trivial route (/healthz) on the same server meanwhile. The figure is the ratio of the
event's p95 to the trivial route's p95 in the same round: what recording an event costs above
what merely getting an answer from a busy server costs.

Every table is its own play (four players, Knarr), so no two writers wait on one play's row
lock; on SQLite they still share the database's one writer. Each round checks that every
acknowledged event is in the log once (benchmarks/harness.py).
"""
from __future__ import annotations

import os
import statistics
import threading
import time

from .harness import Client, Server, check_tables, create_table, percentiles, record


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def one_round(server: Server, tables: list, seconds: float) -> dict:
    events: list[float] = []
    health: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def table_worker(table) -> None:
        client, i = Client(server.url), len(table.sent)   # distinct data per event
        try:
            while not stop.is_set():
                reply = record(client, table, i)
                i += 1
                with lock:
                    if reply.status == 200:
                        events.append(reply.seconds)
                    else:
                        errors.append(f"{reply.status} {reply.body[:120]!r}")
        except OSError as err:
            errors.append(f"connection: {err}")
        finally:
            client.close()

    def probe() -> None:
        client = Client(server.url)
        while not stop.is_set():
            reply = client.get("/healthz")
            with lock:
                health.append(reply.seconds)
            time.sleep(0.005)
        client.close()

    threads = [threading.Thread(target=table_worker, args=(t,), daemon=True) for t in tables]
    threads.append(threading.Thread(target=probe, daemon=True))
    before = load_average()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(30)
    event, healthz = percentiles(events), percentiles(health)
    return {"events_acked": len(events), "events_per_second": round(len(events) / seconds, 1),
            "errors": len(errors), "first_errors": errors[:3],
            "event_ms": event, "healthz_ms": healthz,
            "ratio_event_p95_to_healthz_p95": round(event["p95"] / healthz["p95"], 2),
            "load_average_before": before}


def write_path_under_load(url: str, tables: int = 8, rounds: int = 3, seconds: float = 8.0,
                          workers: int | None = None) -> dict:
    """``workers``: None = what `companion serve` starts by default (WEB_WORKERS or 2)."""
    workers = workers or int(os.environ.get("WEB_WORKERS", "2"))
    with Server(url, workers=workers, limits=False) as server:
        setup = Client(server.url)
        made = [create_table(setup) for _ in range(tables)]
        setup.close()
        results = [one_round(server, made, seconds) for _ in range(rounds)]
        problems = check_tables(server.url, url, made)
    ratios = [r["ratio_event_p95_to_healthz_p95"] for r in results]
    return {"tables": tables, "rounds": rounds, "seconds_per_round": seconds,
            "server": f"companion serve, {workers} gevent workers",
            "per_round": results,
            "ratio_event_p95_to_healthz_p95": round(statistics.median(ratios), 2),
            "lost_or_duplicated": len(problems), "problems": problems[:5],
            "load_average_after": load_average()}
