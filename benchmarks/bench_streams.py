"""One address asks for thousands of live streams while another table plays (issue 22, F1).

A flood of N stream requests from 127.0.0.2 (a loopback address of its own, as another
machine would be) on a few plays, all at once, each on its own connection, against the
production server (`companion serve`, its default 2 gevent workers). Meanwhile the table at
127.0.0.1 taps an event every ``pace`` seconds, each on a NEW connection (a phone whose
keep-alive connection was dropped: the case a full worker could not serve), and one of its
phones follows the play live. Reported: how the flood was answered (streams held, 429/503,
refused connections closed by the server) and the table's taps (p50/p95/max) next to the same
taps before the flood, in the same run. `tests/db/test_stream_flood.py` checks the property
(every tap answered within 1 s); `make bench` reports the figures.
"""
from __future__ import annotations

import errno
import os
import selectors
import socket
import threading
import time

from .harness import (
    LOOPBACK,
    Client,
    SelectorReader,
    Server,
    create_table,
    event_data,
    record,
    server_cpu_seconds,
)

FLOODER = "127.0.0.2"


class Flood(SelectorReader):
    """``paths`` requested at once from ``source``, one connection each, read by one thread:
    the status of each answer, whether the server closed a refused one, and the accepted
    streams kept open (drained) until ``close``."""

    def __init__(self, port: int, paths: list[str], source: str = FLOODER):
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Condition()
        self.status: dict[int, int] = {}
        self.retry_after: dict[int, str] = {}
        self.closed_by_server: set[int] = set()
        self.errors: dict[int, str] = {}
        self.buffers: dict[int, bytes] = {}
        self.requests = {}
        self.stop = threading.Event()
        self.started = time.perf_counter()
        self.answered_at: float | None = None
        for index, path in enumerate(paths):
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((source, 0))
            code = sock.connect_ex((LOOPBACK, port))
            if code not in (0, errno.EINPROGRESS):
                self.errors[index] = errno.errorcode.get(code, str(code))
                sock.close()
                continue
            self.requests[index] = (f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\n"
                                    "Accept: text/event-stream\r\n\r\n").encode()
            self.buffers[index] = b""
            self.selector.register(sock, selectors.EVENT_WRITE, index)
        self.count = len(paths)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            for key, events in self.selector.select(timeout=0.2):
                index, sock = key.data, key.fileobj
                if events & selectors.EVENT_WRITE:
                    problem = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if problem:
                        self._drop(sock, index, errno.errorcode.get(problem, str(problem)))
                        continue
                    sock.send(self.requests.pop(index))   # a few hundred bytes: sent whole
                    self.selector.modify(sock, selectors.EVENT_READ, index)
                    continue
                try:
                    data = sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError as err:
                    self._drop(sock, index, str(err))
                    continue
                self._read(sock, index, data)

    def _read(self, sock, index: int, data: bytes) -> None:
        with self.lock:
            if index not in self.status:
                self.buffers[index] += data
                head, found, _ = self.buffers[index].partition(b"\r\n\r\n")
                if found:
                    lines = head.decode("latin-1").split("\r\n")
                    self.status[index] = int(lines[0].split()[1])
                    for line in lines[1:]:
                        name, _, value = line.partition(":")
                        if name.lower() == "retry-after":
                            self.retry_after[index] = value.strip()
                    self.buffers[index] = b""
                    if len(self.status) + len(self.errors) == self.count:
                        self.answered_at = time.perf_counter()
                    self.lock.notify_all()
            if not data:
                if self.status.get(index) != 200:
                    self.closed_by_server.add(index)
                self.selector.unregister(sock)
                sock.close()
                self.lock.notify_all()

    def _drop(self, sock, index: int, why: str) -> None:
        with self.lock:
            self.errors[index] = why
            self.selector.unregister(sock)
            sock.close()
            self.lock.notify_all()

    def wait_answered(self, timeout: float) -> bool:
        """Every request has a status (or failed to connect), and every refused connection
        was closed by the server."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while not self._settled():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
        return True

    def _settled(self) -> bool:
        refused = {i for i, s in self.status.items() if s != 200}
        return (len(self.status) + len(self.errors) == self.count
                and refused <= self.closed_by_server)

    def held(self) -> list[int]:
        with self.lock:
            return [i for i, s in self.status.items() if s == 200]

    def summary(self) -> dict:
        with self.lock:
            counts: dict[str, int] = {}
            for status in self.status.values():
                counts[str(status)] = counts.get(str(status), 0) + 1
            refused = [i for i, s in self.status.items() if s != 200]
            problems: dict[str, int] = {}
            for why in self.errors.values():
                problems[why] = problems.get(why, 0) + 1
            return {"requested": self.count, "statuses": counts,
                    "connect_errors": len(self.errors), "connect_error_kinds": problems,
                    "refused_closed_by_server": sum(i in self.closed_by_server
                                                    for i in refused),
                    "refused_with_retry_after": sum(i in self.retry_after for i in refused),
                    "seconds_to_answer_all": round(self.answered_at - self.started, 2)
                    if self.answered_at else None}


class Taps:
    """The other table: one tap every ``pace`` s, each on a new connection, timed whole
    (connect, request, answer)."""

    def __init__(self, base_url: str, table, pace: float = 0.1, first: int = 0):
        self.base_url, self.table, self.pace = base_url, table, pace
        self.samples: list[float] = []
        self.statuses: list[int] = []
        self.stop = threading.Event()
        self.n = first
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            client = Client(self.base_url, timeout=30)
            started = time.perf_counter()
            try:
                status = record(client, self.table, self.n).status
            except OSError:
                status = 0
            self.samples.append(time.perf_counter() - started)
            self.statuses.append(status)
            client.close()
            self.n += 1
            self.stop.wait(self.pace)

    def finish(self) -> Taps:
        self.stop.set()
        self.thread.join(40)
        return self


class BurstTaps:
    """Taps at a human pace while the flood's connections are being answered: one every
    ``pace`` s (a table of phones, each tapping every second or so), each on a NEW connection
    and in a thread of its own, so a slow answer does not hold back the next tap. Each tap is
    an event without ``expected_version`` (they may overlap); kept: when it was sent (s after
    ``origin``), how long its answer took, and its status."""

    def __init__(self, base_url: str, table, origin: float, pace: float = 0.25,
                 first: int = 0):
        self.base_url, self.table, self.origin, self.pace = base_url, table, origin, pace
        self.taps: list[tuple[float, float, int]] = []     # (sent at, seconds, status)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.n = first
        self.threads: list[threading.Thread] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            tap = threading.Thread(target=self._tap, args=(self.n,), daemon=True)
            self.threads.append(tap)
            tap.start()
            self.n += 1
            self.stop.wait(self.pace)

    def _tap(self, n: int) -> None:
        client = Client(self.base_url, timeout=60)
        data = {"type": "sheet", "data": event_data(self.table, n), "expected_version": None}
        sent = time.perf_counter()
        try:
            reply = client.post(f"/api/v1/plays/{self.table.play_id}/events", data,
                                self.table.auth())
            status = reply.status
            if status == 200:
                with self.lock:
                    self.table.version = max(self.table.version,
                                             reply.json()["state"]["version"])
        except OSError:
            status = 0
        took = time.perf_counter() - sent
        client.close()
        with self.lock:
            self.taps.append((sent - self.origin, took, status))

    def finish(self) -> BurstTaps:
        self.stop.set()
        self.thread.join(5)
        for tap in self.threads:
            tap.join(60)
        self.taps.sort()
        return self

    def sent_before(self, moment: float) -> list[tuple[float, float, int]]:
        """The taps sent before ``moment`` (s after the origin)."""
        return [tap for tap in self.taps if tap[0] < moment]


def flood_paths(tables: list, count: int) -> list[str]:
    """``count`` stream requests spread over the plays' view links (one holds the table's)."""
    return [f"/plays/{t.play_id}/{t.view_token}/live"
            for t in (tables[i % len(tables)] for i in range(count))]


def stream_flood(url: str, count: int = 2500, plays: int = 10, seconds: float = 4.0,
                 pace: float = 0.1, env: dict | None = None, log_dir: str | None = None,
                 burst_pace: float = 0.25) -> dict:
    """The figures for `make bench`: the flood's answers and the table's taps before it,
    during the burst of connections (human-pace taps, each timed) and while the accepted
    streams are held, and the server CPU each flood request cost."""
    from .bench_live import Streams, ms

    with Server(url, log_dir=log_dir, env=env) as server:
        owner = Client(server.url)
        table = create_table(owner)
        others = [create_table(owner) for _ in range(plays - 1)]
        owner.close()
        phone = Streams(server.port, [f"/plays/{table.play_id}/{table.view_token}/live"])
        assert phone.wait_all([0], 0, 20), "the table's own phone could not follow it live"
        quiet = Taps(server.url, table, pace)
        time.sleep(seconds)
        quiet.finish()
        origin = time.perf_counter()
        burst = BurstTaps(server.url, table, origin, burst_pace, first=quiet.n)
        cpu = server_cpu_seconds(server)
        flood = Flood(server.port, flood_paths([table, *others], count))
        answered = flood.wait_answered(120)
        cpu = server_cpu_seconds(server) - cpu
        burst.finish()
        # the burst: from the first connection to the last answer (refusals included)
        burst_end = (flood.answered_at or time.perf_counter()) - origin
        in_burst = burst.sent_before(burst_end)
        during = Taps(server.url, table, pace, first=burst.n)
        time.sleep(seconds)
        during.finish()
        followed = phone.wait_all([0], table.version, 10)
        out = {"flood": flood.summary(), "all_answered": answered,
               "streams_held_by_the_flood": len(flood.held()),
               "server_cpu_ms_per_flood_request": round(cpu / count * 1000, 3),
               "burst_seconds": round(burst_end, 2),
               "table_taps_ms_before": ms(quiet.samples),
               "table_taps_ms_during_burst": ms([took for _, took, _ in in_burst]),
               "table_taps_during_burst": [
                   {"sent_s": round(at, 2), "ms": round(took * 1000), "status": status}
                   for at, took, status in in_burst],
               "table_taps_ms_while_held": ms(during.samples),
               "table_tap_statuses": sorted({s for *_, s in burst.taps}
                                            | set(quiet.statuses + during.statuses)),
               "table_phone_got_every_change": followed,
               "load_average": os.getloadavg()}
        flood.close()
        phone.close()
    before = out["table_taps_ms_before"].get("p95")
    if before:
        out["ratio_tap_p95_held_to_before"] = round(
            out["table_taps_ms_while_held"]["p95"] / before, 2)
    return out
