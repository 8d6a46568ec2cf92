"""The production server in a subprocess, a keep-alive HTTP client and a load driver.

Shared by `make bench` (the full run) and the tests (short runs). Traffic goes to 127.0.0.1
only; every loop is bounded in count and in time.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def companion_command() -> list[str]:
    """The installed `companion` console script next to this Python, else the module."""
    script = Path(sys.executable).with_name("companion")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]


def group_processes(server: Server):
    """The /proc entries of the server's master and workers (its process group)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) == server.proc.pid:
                yield entry
        except (OSError, ProcessLookupError):
            continue


def server_cpu_seconds(server: Server) -> float:
    """CPU time (user + system) the server's processes have used so far: what a burst of
    requests costs the server, whatever else the machine is doing."""
    return server_cpu(server)[0]


def server_cpu(server: Server) -> tuple[float, float]:
    """(the server's CPU seconds so far, those of its pool processes among them): a process
    started as `python -m companion.<worker>` is one (companion/process_pool.py: the PDF and
    import processes); the rest are gunicorn's master and its request workers."""
    total = pools = 0
    for entry in group_processes(server):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            pool = b"\0-m\0companion." in (entry / "cmdline").read_bytes()
        except OSError:
            continue
        used = int(fields[11]) + int(fields[12])     # utime, stime (clock ticks)
        total += used
        pools += used if pool else 0
    return total / os.sysconf("SC_CLK_TCK"), pools / os.sysconf("SC_CLK_TCK")


class SelectorReader:
    """What the stream holders share: one thread reading their sockets through ``selector``
    until ``stop``; ``close`` ends the thread and closes every socket still registered."""

    selector: selectors.BaseSelector
    stop: threading.Event
    thread: threading.Thread

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()


class Server:
    """`companion serve` (gunicorn) on a free loopback port with DATABASE_URL set."""

    def __init__(self, database_url: str, workers: int = 2, threads: int = 8,
                 port: int | None = None, log_dir: str | None = None,
                 worker_class: str | None = None, limits: bool = True,
                 env: dict | None = None):
        self.database_url = database_url
        self.workers, self.threads = workers, threads
        self.worker_class = worker_class
        self.limits = limits      # False: the per-client limits off (a load driver is one client)
        self.env = {k: str(v) for k, v in (env or {}).items()}   # e.g. the limits a run needs
        self.port = port or free_port()
        self.url = f"http://{LOOPBACK}:{self.port}"
        self.log_path = Path(log_dir or tempfile.mkdtemp(prefix="nsc-serve-")) / "server.log"
        # gunicorn's control socket goes here (XDG_RUNTIME_DIR), not among the machine's own:
        # a killed server cannot remove its socket, and a `make test` starts 30-odd. A run that
        # names the place (``env``) keeps it; a place of the server's own goes with it
        given = self.env.get("XDG_RUNTIME_DIR")
        self.runtime_dir = Path(given or tempfile.mkdtemp(prefix="nsc-run-"))
        self.own_runtime_dir = not given
        self.control_socket = self.runtime_dir / f"companion-{self.port}.ctl"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> Server:
        env = dict(os.environ, DATABASE_URL=self.database_url, PORT=str(self.port),
                   SECRET_KEY="bench-secret", PUBLIC_URL=self.url, WEB_WORKERS=str(self.workers),
                   RATELIMIT_ENABLED="1" if self.limits else "0",
                   XDG_RUNTIME_DIR=str(self.runtime_dir))
        env.update(self.env)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            companion_command() + ["serve", "--host", LOOPBACK, "--port", str(self.port),
                                   "--workers", str(self.workers),
                                   "--threads", str(self.threads)]
            + (["--worker-class", self.worker_class] if self.worker_class else []),
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        log.close()
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        """Until a worker answers and the master's control socket is up: gunicorn starts the
        socket's thread after spawning the workers, so on a busy machine a worker can answer
        first (a test that looked for the socket at once failed once in CI)."""
        deadline = time.monotonic() + timeout
        answered = False
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.log()}")
            if not answered:
                try:
                    answered = Client(self.url, timeout=2).get("/healthz").status == 200
                except OSError:
                    pass
            if answered and self.control_socket.is_socket():
                return
            time.sleep(0.1)
        self.kill()
        what = f"made no control socket {self.control_socket}" if answered else "did not answer"
        raise RuntimeError(f"the server {what} within {timeout}s:\n{self.log()}")

    def log(self, tail: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-tail:]
        except OSError:
            return ""

    def kill(self) -> None:
        """kill -9 of the master and its workers (the process group this server started)."""
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)

    def stop(self) -> None:
        """The end of a test's or a run's server: its processes killed at once. What the tests
        check and the runs measure happens while it serves; its own shutdown is neither, and
        gunicorn's quick shutdown (SIGINT) cost 1-2.5 s a server here (the workers' and the
        master's interpreter teardown after a worker's next 1-second tick) and 10 s for a
        gthread worker whose stream threads still waited for their phones' next heartbeat
        (the master's graceful_timeout, then SIGKILL): 30-odd servers a `make test`. Nothing
        is lost: every answer the tests and runs read was written (the log line by line, each
        event committed before its answer); the PDF and import processes are in the group."""
        self.kill()
        if self.own_runtime_dir:
            shutil.rmtree(self.runtime_dir, ignore_errors=True)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes
    seconds: float

    def json(self):
        return json.loads(self.body)


class Client:
    """One keep-alive connection (a phone); reconnects after the server closed it."""

    def __init__(self, base_url: str, timeout: float = 30.0, source: str | None = None):
        self.source = source      # another loopback address (127.0.0.2): another machine
        host_port = base_url.split("://", 1)[1].rstrip("/")
        self.host, _, port = host_port.partition(":")
        assert self.host in (LOOPBACK, "localhost"), "load goes to the loopback address only"
        self.port = int(port or 80)
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body=None, headers: dict | None = None) -> Reply:
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        for attempt in (1, 2):
            reused = self.conn is not None
            if self.conn is None:
                self.conn = http.client.HTTPConnection(
                    self.host, self.port, timeout=self.timeout,
                    source_address=(self.source, 0) if self.source else None)
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                payload = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # the server closed an idle keep-alive connection: send again on a new one, as
                # a browser does (events carry expected_version, so one can never land twice)
                self.close()
                if attempt == 2 or not reused:
                    raise
                continue
            elapsed = time.perf_counter() - start
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            return Reply(response.status, dict(response.getheaders()), payload, elapsed)
        raise AssertionError("unreachable")

    def get(self, path: str, headers: dict | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, body, headers: dict | None = None) -> Reply:
        return self.request("POST", path, body=body, headers=headers)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# ---- one table at a time

@dataclass
class Table:
    play_id: str
    token: str
    view_token: str
    sent: list = field(default_factory=list)       # every event data sent, in order
    acked: list = field(default_factory=list)      # (version, data) the server acknowledged
    errors: list = field(default_factory=list)
    version: int = 0

    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}


def create_table(client: Client, game: str = "knarr", players=PLAYERS) -> Table:
    reply = client.post("/api/v1/plays", {"game": game, "players": list(players), "seed": 7})
    if reply.status != 201:
        raise RuntimeError(f"creating a play failed: {reply.status} {reply.body[:300]!r}")
    body = reply.json()
    return Table(body["id"], body["edit_token"], body["view_token"])


def event_data(table: Table, i: int) -> dict:
    """A distinct, valid sheet edit: the log can tell every event apart."""
    return {"player": PLAYERS[i % len(PLAYERS)], "fields": {"vp": i + 1, "recruits": i % 4}}


def record(client: Client, table: Table, i: int) -> Reply:
    data = event_data(table, i)
    table.sent.append(data)
    reply = client.post(f"/api/v1/plays/{table.play_id}/events",
                        {"type": "sheet", "data": data, "expected_version": table.version},
                        table.auth())
    if reply.status == 200:
        table.version = reply.json()["state"]["version"]
        table.acked.append((table.version, data))
    else:
        table.errors.append(f"event {i}: {reply.status} {reply.body[:200]!r}")
    return reply


def fragment_path(table: Table, version: int) -> str:
    return f"/plays/{table.play_id}/{table.view_token}/poll?version={version}"


HX = {"HX-Request": "true"}


# ---- many tables at once

@dataclass
class LoadResult:
    tables: list
    latencies: dict
    seconds: float
    statuses: dict

    def summary(self) -> dict:
        out = {"tables": len(self.tables), "events_sent": sum(len(t.sent) for t in self.tables),
               "events_acked": sum(len(t.acked) for t in self.tables),
               "errors": sum(len(t.errors) for t in self.tables),
               "seconds": round(self.seconds, 2), "statuses": self.statuses}
        out["latency_ms"] = {k: percentiles(v) for k, v in self.latencies.items() if v}
        base = statistics.median(self.latencies["healthz"]) if self.latencies["healthz"] else 0
        if base:
            out["ratio_to_healthz_median"] = {
                k: round(statistics.median(v) / base, 2)
                for k, v in self.latencies.items() if v and k != "healthz"}
        return out


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"n": len(ordered), "median": round(statistics.median(ordered) * 1000, 2),
            "p95": round(p95 * 1000, 2)}


def run_load(base_url: str, tables: int, events: int, think: float = 0.0,
             time_limit: float = 120.0, game: str = "knarr") -> LoadResult:
    """``tables`` threads, each a table recording ``events`` events through the API; after each
    event another phone fetches the fresh play block and then polls with nothing new. A probe
    thread times /healthz in the same run. Stops at ``time_limit`` whatever happens."""
    latencies = {"event": [], "fragment": [], "poll_unchanged": [], "healthz": []}
    statuses: dict = {}
    lock = threading.Lock()
    deadline = time.monotonic() + time_limit
    made: list[Table] = []
    done = threading.Event()

    def note(kind: str, reply: Reply) -> None:
        with lock:
            latencies[kind].append(reply.seconds)
            statuses[str(reply.status)] = statuses.get(str(reply.status), 0) + 1

    def table_worker(seed: int) -> None:
        rng = random.Random(seed)
        phone, other = Client(base_url), Client(base_url)
        table = create_table(phone, game)
        with lock:
            made.append(table)
        try:
            for i in range(events):
                if time.monotonic() > deadline:
                    table.errors.append("stopped at the time limit")
                    break
                before = table.version
                note("event", record(phone, table, i))
                note("fragment", other.get(fragment_path(table, before), HX))
                note("poll_unchanged", other.get(fragment_path(table, table.version), HX))
                if think:
                    time.sleep(rng.uniform(0, 2 * think))
        except OSError as err:
            table.errors.append(f"connection: {err}")
        finally:
            phone.close()
            other.close()

    def probe() -> None:
        client = Client(base_url)
        while not done.is_set() and time.monotonic() < deadline:
            note("healthz", client.get("/healthz"))
            time.sleep(0.005)
        client.close()

    start = time.perf_counter()
    threads = [threading.Thread(target=table_worker, args=(n,), daemon=True)
               for n in range(tables)]
    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(0.1, deadline - time.monotonic() + 5))
    done.set()
    prober.join(5)
    return LoadResult(made, latencies, time.perf_counter() - start, statuses)


# ---- what the database holds

def logged_events(database_url: str, play_id: str) -> list[dict]:
    """Every event row of a play (discarded ones too), in position order."""
    from companion.store import events

    engine = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.select(events.c.position, events.c.type, events.c.data,
                                          events.c.discarded)
                                .where(events.c.play_id == play_id)
                                .order_by(events.c.position, events.c.id)).all()
    finally:
        engine.dispose()
    return [dict(r._mapping) for r in rows]


def lost_or_duplicated(database_url: str, table: Table, final_version: int,
                       exact: bool = True) -> list[str]:
    """Problems with one table's log: every acknowledged event must be in it exactly once, at
    the version the server acknowledged; with ``exact`` nothing unacknowledged may be there
    either (a kill -9 may leave the one in flight, which is then the next sent event)."""
    rows = logged_events(database_url, table.play_id)
    problems = []
    positions = [r["position"] for r in rows]
    if positions != list(range(1, len(rows) + 1)):
        problems.append(f"{table.play_id}: positions are not 1..n: {positions}")
    if any(r["discarded"] for r in rows):
        problems.append(f"{table.play_id}: discarded events without an undo")
    for version, data in table.acked:
        matches = [r for r in rows if r["data"] == data]
        if len(matches) != 1:
            problems.append(f"{table.play_id}: acknowledged event v{version} is in the log "
                            f"{len(matches)} times")
        elif matches[0]["position"] != version:
            problems.append(f"{table.play_id}: v{version} sits at position "
                            f"{matches[0]['position']}")
    extra = len(rows) - len(table.acked)
    if extra and (exact or extra > 1 or rows[-1]["data"] != table.sent[len(table.acked)]):
        problems.append(f"{table.play_id}: {extra} events in the log were never acknowledged")
    if final_version != len(rows):
        problems.append(f"{table.play_id}: version {final_version} but {len(rows)} events")
    return problems


def check_tables(base_url: str, database_url: str, tables: list, exact: bool = True) -> list:
    """Read every table back through the API (its version) and the database (its log)."""
    client = Client(base_url)
    problems = []
    for table in tables:
        reply = client.get(f"/api/v1/plays/{table.play_id}", table.auth())
        if reply.status != 200:
            problems.append(f"{table.play_id}: GET {reply.status}")
            continue
        state = reply.json()["state"]
        problems += lost_or_duplicated(database_url, table, state["version"], exact)
        if table.acked and exact:
            version, data = table.acked[-1]
            sheet = state["sheets"][data["player"]]
            if sheet.get("vp") != data["fields"]["vp"]:
                problems.append(f"{table.play_id}: the last acknowledged sheet is not shown")
    client.close()
    return problems
