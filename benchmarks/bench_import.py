"""An import loop (issue 22's "one client cannot stall the tables", for imports): the
production server (its default 2 gevent workers); 5 phones, each at its own table, tapping
once a second; one client at another address posting an export of a 10,000-event Knarr play to
``/api/v1/plays/import`` flat out, with the default limits (40 documents a minute per process).
An import is read, checked and replayed in an import process beside the worker (0.5-0.7 s of
CPU, companion/importing.py) and its rows written by the request, in batches with turns
between. The figure, as for the PDF loop: the phones' tap p95 in slices with the loop over
slices without it; and the server's CPU seconds a second in each, with the import processes'
share, and what the request workers spent per import beyond what the taps cost them."""
from __future__ import annotations

import tempfile
import threading

from .bench_pdf import LOOPER, Phones, interleaved
from .harness import Client, Server, create_table, percentiles

EVENTS = 10_000


def long_export(client: Client) -> dict:
    """The export of a new Knarr play with ``EVENTS`` sheet events added, as a table records
    them (a set score; recruits on the ship tapped up twice and down twice, in turn)."""
    table = create_table(client)
    doc = client.get(f"/api/v1/plays/{table.play_id}/export", table.auth()).json()
    names = [p["name"] for p in doc["players"]]
    doc["events"] = [
        {"type": "sheet", "data": {"player": names[i % len(names)], "fields": {"vp": i % 40}}
         if i % 2 else {"player": names[i % len(names)],
                        "add": {"recruits": 1 if i // len(names) % 4 < 2 else -1}}}
        for i in range(EVENTS)]
    return doc


class ImportLoop:
    def __init__(self, base_url: str):
        self.client = Client(base_url, timeout=120, source=LOOPER)
        self.doc = long_export(self.client)
        self.statuses: dict[str, int] = {}
        self.started, self.stop, self.running = (threading.Event(), threading.Event(),
                                                 threading.Event())
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            if not self.running.wait(0.2):
                continue
            status = str(self.client.post("/api/v1/plays/import", self.doc).status)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.started.set()

    def __enter__(self) -> ImportLoop:
        self.running.set()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(120)
        self.client.close()


def import_loop(url: str, seconds: float, slices: int = 4) -> dict:
    with tempfile.TemporaryDirectory() as logs, Server(url, log_dir=logs) as server:
        phones = Phones(server.url)
        phones.run(2.0)                                    # warm-up, not counted
        with ImportLoop(server.url) as loop:
            loop.started.wait(120)
            taps, cpu = interleaved(phones, loop, server, seconds, slices)
        p95 = {k: percentiles(v)["p95"] for k, v in taps.items()}
        median = {k: percentiles(v)["median"] for k, v in taps.items()}
        workers = {k: cpu[k] - cpu[f"{k}_pools"] for k in taps}
        made = loop.statuses.get("201", 0)
        return {"events_per_import": EVENTS, "phones": len(phones.tables),
                "seconds_alone_and_with_the_loop": seconds, "slices": slices,
                "taps_ms_alone": percentiles(taps["alone"]),
                "taps_ms": percentiles(taps["loop"]), "imports": loop.statuses,
                "server_cpu_per_s_alone": cpu["alone"], "server_cpu_per_s": cpu["loop"],
                "pool_processes_cpu_per_s": cpu["loop_pools"],
                "request_workers_cpu_ms_per_import": round(
                    (workers["loop"] - workers["alone"]) * seconds / made * 1000, 1)
                if made else None,
                "ratio_tap_p95_to_alone": round(p95["loop"] / p95["alone"], 2),
                "ratio_tap_median_to_alone": round(median["loop"] / median["alone"], 2),
                "tap_errors": phones.errors}
