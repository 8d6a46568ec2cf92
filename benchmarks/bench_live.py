"""Live figures for `make bench`: how fast a change reaches the other phones, what each change
costs on the wire per game, and how many open live streams a server holds.

- propagation: gunicorn (several workers) on SQLite and on PostgreSQL; one phone records an
  event through the API, 3 other phones hold the live stream, and on each "version N" message
  fetch the play block (the poll URL), as the page does. Times from the start of the POST to
  the message and to the fetched block. Baselines in the same run: the old 2 s poll (3 phones
  polling, random phase) and /healthz.
- bytes per change: the play block each phone fetches after a change, raw / gzip / brotli as
  the server sends it, for each of the five games; next to it the SSE message and a 204 poll.
- streams held: N open streams (N/4 tables of 4 phones), events recorded on random tables;
  the event's latency next to the same with no stream open, the time until all 4 phones of
  the table got the message, and the server's memory, for gevent and gthread workers.

Every socket goes to 127.0.0.1 and every loop is bounded in count and in time.
"""
from __future__ import annotations

import queue
import random
import selectors
import socket
import statistics
import threading
import time

from .harness import (
    HX,
    LOOPBACK,
    Client,
    SelectorReader,
    Server,
    create_table,
    fragment_path,
    group_processes,
    record,
)

GAMES_EVENTS = {   # a change typical of each game's table
    "explorers": {"type": "sheet", "data": {"player": "Ann", "fields": {"outposts": 2}}},
    "shipwrights": {"type": "sheet", "data": {"player": "Ann", "fields": {"gold": 3}}},
    "knarr": {"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 4}}},
    "reavers": {"type": "sheet", "data": {"player": "Ann", "fields": {"glory": 5}}},
    "seafarers": {"type": "sheet", "data": {"player": "Ann", "fields": {"settlements": 3}}},
}


def ms(samples: list[float]) -> dict:
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"n": len(ordered), "p50": round(statistics.median(ordered) * 1000, 1),
            "p95": round(p95 * 1000, 1), "max": round(ordered[-1] * 1000, 1)}


class Streams(SelectorReader):
    """Many open live streams read by one thread (selectors): every ``event: version``
    message is noted with its arrival time and handed to ``on_version(index, version, t)``."""

    def __init__(self, port: int, paths: list[str], on_version=None):
        self.selector = selectors.DefaultSelector()
        self.on_version = on_version or (lambda *_: None)
        self.buffers: dict[int, bytes] = {}
        self.latest: dict[int, int] = {}
        self.closed: set[int] = set()
        self.lock = threading.Condition()
        self.stop = threading.Event()
        for index, path in enumerate(paths):
            sock = socket.create_connection((LOOPBACK, port), timeout=10)
            # HTTP/1.0: the body comes as sent, without chunk framing
            sock.sendall(f"GET {path} HTTP/1.0\r\nHost: {LOOPBACK}\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, index)
            self.buffers[index] = b""
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                now = time.perf_counter()
                try:
                    data = key.fileobj.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    with self.lock:
                        self.closed.add(key.data)
                        self.lock.notify_all()
                    continue
                self._parse(key.data, self.buffers[key.data] + data, now)

    def _parse(self, index: int, buffer: bytes, now: float) -> None:
        while b"\n\n" in buffer:
            message, buffer = buffer.split(b"\n\n", 1)
            if b"event: version" in message:
                version = int(message.rsplit(b"data: ", 1)[1])
                with self.lock:
                    self.latest[index] = version
                    self.lock.notify_all()
                self.on_version(index, version, now)
        self.buffers[index] = buffer

    def wait_all(self, indexes, version: int, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        with self.lock:
            while not all(self.latest.get(i, -1) >= version for i in indexes):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
        return True

    def wait_settled(self, timeout: float = 30.0) -> bool:
        """Every stream started (its first message) or was refused (closed without one)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while any(i not in self.latest and i not in self.closed for i in self.buffers):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
        return True

    def started(self) -> list[int]:
        with self.lock:
            return sorted(self.latest)

    def open_count(self) -> int:
        with self.lock:
            return len(self.buffers) - len(self.closed)


def server_rss_mb(server: Server) -> float:
    """Resident memory of the server's master and workers (its process group), in MB."""
    total = 0
    for entry in group_processes(server):
        try:
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return round(total / 1024, 1)


def live_path(table) -> str:
    return f"/plays/{table.play_id}/{table.view_token}/live"


# ---- propagation: one phone writes, the others see it

def propagation(url: str, workers: int, worker_class: str, rounds: int,
                poll_rounds: int, phones: int = 3) -> dict:
    with Server(url, workers=workers, worker_class=worker_class, threads=32) as server:
        writer = Client(server.url)
        table = create_table(writer)
        msg_at: dict = {}
        block_at: dict = {}
        inboxes = [queue.Queue() for _ in range(phones)]
        done = threading.Condition()

        def on_version(index, version, now):
            msg_at[(index, version)] = now
            inboxes[index].put(version)

        def phone(index):
            client, seen = Client(server.url), None
            while True:
                version = inboxes[index].get()
                if version is None:
                    break
                if seen is not None and version > seen:
                    reply = client.get(fragment_path(table, seen), HX)
                    assert reply.status == 200, reply.status
                with done:
                    block_at[(index, version)] = time.perf_counter()
                    done.notify_all()
                seen = version
            client.close()

        threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(phones)]
        for t in threads:
            t.start()
        streams = Streams(server.port, [live_path(table)] * phones, on_version)
        assert streams.wait_all(range(phones), 0), "the streams did not start"
        message, block, health = [], [], []
        rng = random.Random(5)
        for i in range(rounds):
            start = time.perf_counter()
            reply = record(writer, table, i)
            assert reply.status == 200, reply.body[:200]
            version = table.version
            with done:
                done.wait_for(lambda v=version: all((p, v) in block_at for p in range(phones)), 10)
            for p in range(phones):
                if (p, version) in block_at:
                    message.append(msg_at[(p, version)] - start)
                    block.append(block_at[(p, version)] - start)
            health.append(writer.get("/healthz").seconds)
            time.sleep(rng.uniform(0.05, 0.15))
        for inbox in inboxes:
            inbox.put(None)
        streams.close()
        polled = old_poll(server, table, writer, poll_rounds, phones)
        writer.close()
    result = {"worker_class": worker_class, "workers": workers, "phones": phones,
              "changes": rounds, "message_ms": ms(message), "block_ms": ms(block),
              "missed": rounds * phones - len(block),
              "baseline_2s_poll_block_ms": ms(polled), "healthz_ms": ms(health)}
    if polled and block:
        result["ratio_old_poll_to_push_p95"] = round(
            ms(polled)["p95"] / max(ms(block)["p95"], 0.1), 1)
    return result


def old_poll(server, table, writer, rounds: int, phones: int) -> list[float]:
    """The page before push: every phone polls every 2 s (each with its own phase)."""
    seen_at: dict = {}
    stop = threading.Event()
    lock = threading.Condition()

    def phone(index):
        client, seen = Client(server.url), table.version
        stop.wait(2.0 * index / phones)
        while not stop.is_set():
            reply = client.get(fragment_path(table, seen), HX)
            if reply.status == 200:
                seen = int(reply.body.split(b'data-version="', 1)[1].split(b'"', 1)[0]) \
                    if b'data-version="' in reply.body else seen + 1
                with lock:
                    seen_at.setdefault((index, seen), time.perf_counter())
                    lock.notify_all()
            stop.wait(2.0)
        client.close()

    threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(phones)]
    for t in threads:
        t.start()
    samples = []
    rng = random.Random(6)
    for i in range(rounds):
        time.sleep(rng.uniform(0, 2.0))
        start = time.perf_counter()
        record(writer, table, 500 + i)
        version = table.version
        with lock:
            lock.wait_for(lambda v=version: all((p, v) in seen_at for p in range(phones)), 5)
        samples += [seen_at[(p, version)] - start for p in range(phones)
                    if (p, version) in seen_at]
    stop.set()
    for t in threads:
        t.join(5)
    return samples


# ---- bytes per change, per game

def bytes_per_change(make_app, url: str) -> dict:
    import brotli

    app = make_app(url)
    client = app.test_client()
    out = {}
    for game, event in GAMES_EVENTS.items():
        players = ["Ann", "Bo", "Cy", "Di"] if game != "seafarers" else ["Ann", "Bo", "Cy"]
        body = client.post("/api/v1/plays", json={"game": game, "players": players,
                                                  "seed": 11}).get_json()
        pid, token = body["id"], body["edit_token"]
        reply = client.post(f"/api/v1/plays/{pid}/events", json=event,
                            headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, (game, reply.data[:300])
        path = f"/plays/{pid}/{token}/poll?version=0"
        sizes = {}
        for name, accept in (("raw", ""), ("gzip", "gzip"), ("brotli", "gzip, deflate, br")):
            got = client.get(path, headers={"HX-Request": "true", "Accept-Encoding": accept})
            assert got.status_code == 200
            if name == "brotli":
                assert got.headers.get("Content-Encoding") == "br"
                assert len(brotli.decompress(got.data)) == sizes["raw"]
            sizes[name] = len(got.data)
        sizes["gzip_ratio"] = round(sizes["raw"] / sizes["gzip"], 1)
        sizes["brotli_ratio"] = round(sizes["raw"] / sizes["brotli"], 1)
        out[game] = sizes
    out["sse_message_bytes"] = len("event: version\ndata: 123\n\n")
    out["poll_unchanged_status"] = 204
    app.extensions["companion"].store.engine.dispose()
    return out


# ---- open streams held by one server

# what the held-streams runs need: every stream comes from 127.0.0.1 (75 tables' phones on one
# address), so the per-address caps are raised; the worker's ceiling stays as configured
HELD_LIMITS = {"LIVE_STREAMS_PER_ADDRESS": 100000, "LIVE_STREAMS_PER_PLAY": 1000,
               "RATELIMIT_PLAYS": "100000 per minute", "RATELIMIT_READS": "100000 per minute",
               "RATELIMIT_EVENTS": "100000 per minute"}


def streams_held(url: str, worker_class: str, count: int, events: int,
                 workers: int = 3) -> dict:
    """``count`` streams on one server; gthread's threads are sized for them (each stream
    holds one), but its ceiling keeps a quarter of each worker's threads for other requests
    and gunicorn spreads connections unevenly, so some are refused (503): reported as a
    figure, as are writes that found no thread."""
    threads = count // workers + 32      # gthread: one thread per open stream, and spare
    with Server(url, workers=workers, worker_class=worker_class, threads=threads,
                env=HELD_LIMITS) as server:
        writer = Client(server.url, timeout=10)
        tables = [create_table(writer) for _ in range(max(1, count // 4))]
        baseline = [record(writer, tables[i % len(tables)], i).seconds for i in range(events)]
        rss_idle = server_rss_mb(server)
        paths = [live_path(tables[i // 4 % len(tables)]) for i in range(count)]
        started = time.perf_counter()
        streams = Streams(server.port, paths)
        settled = streams.wait_settled(60)
        open_seconds = time.perf_counter() - started
        running = set(streams.started())
        latency, fanout, health, failed = [], [], [], 0
        rng = random.Random(7)
        for i in range(events):
            n = rng.randrange(len(tables))
            start = time.perf_counter()
            try:
                reply = record(writer, tables[n], 1000 + i)
                health.append(writer.get("/healthz").seconds)
            except OSError:
                failed += 1
                writer.close()
                continue
            latency.append(reply.seconds)
            mine = [j for j in range(count) if j // 4 % len(tables) == n and j in running]
            if streams.wait_all(mine, tables[n].version, 10):
                fanout.append(time.perf_counter() - start)
            time.sleep(rng.uniform(0.02, 0.08))
        rss = server_rss_mb(server)
        still_open = streams.open_count()
        streams.close()
        writer.close()
    return {"worker_class": worker_class, "workers": workers,
            "threads_per_worker": threads if worker_class == "gthread" else None,
            "streams": count, "streams_started": len(running),
            "streams_refused": count - len(running), "all_settled": settled,
            "seconds_to_open_all": round(open_seconds, 2), "still_open_at_end": still_open,
            "event_ms_with_streams": ms(latency), "event_ms_no_streams": ms(baseline),
            "writes_without_answer": failed,
            "ratio_event_p50_streams_to_none": round(
                statistics.median(latency) / statistics.median(baseline), 2)
            if latency else None,
            "all_4_phones_got_it_ms": ms(fanout), "missed": events - len(fanout),
            "healthz_ms": ms(health), "server_rss_mb": rss, "server_rss_mb_idle": rss_idle}


def thread_cliff(url: str, worker_class: str, streams: int = 12, threads: int = 8,
                 writes: int = 5) -> dict:
    """One worker, more open streams than gthread's threads: does it still answer writes?
    (Its ceiling now refuses the streams that would take the last quarter of the threads.)"""
    with Server(url, workers=1, worker_class=worker_class, threads=threads,
                env=HELD_LIMITS) as server:
        writer = Client(server.url)
        table = create_table(writer)
        writer.close()
        held = Streams(server.port, [live_path(table)] * streams)
        held.wait_settled(10)
        started = len(held.started())
        answered = 0
        for i in range(writes):
            client = Client(server.url, timeout=3)
            try:
                answered += record(client, table, i).status == 200
            except OSError:
                pass
            finally:
                client.close()
        held.close()
    return {"worker_class": worker_class, "workers": 1,
            "threads": threads if worker_class == "gthread" else None,
            "open_streams": streams, "streams_that_started": started,
            "writes_answered_within_3s": f"{answered} of {writes}"}
