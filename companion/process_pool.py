"""Heavy work is made off the request workers, in small pools of processes.

A WeasyPrint render (10-100 ms) or an import's check and replay (0.5 s for 10,000 events) is
pure CPU. Made in a gevent worker it stops every other request of that worker (a greenlet runs
until it yields), so a client looping PDFs or imports stalled the other tables' taps. Each
server process (gunicorn worker) therefore keeps ``size`` processes of each kind
(`python -m <module> <arguments>`, companion/pool_worker.py: companion.pdf_worker,
companion.import_worker; started on first use, at a lower CPU priority) and only waits for
their answer, which in a gevent worker is a cooperative wait on a pipe: the worker goes on
answering taps meanwhile. When every process of a pool is busy for ``wait`` seconds the
request is refused (``PoolFull``: a 503 with Retry-After) instead of queueing.

A process that dies or takes longer than ``timeout`` is killed and started again on the next
request. The pools of a process are shared by every app in it and ended at exit.
"""
from __future__ import annotations

import atexit
import os
import select
import subprocess
import sys
import threading
import time

from .pool_worker import ANSWER, HEADER

START_TIMEOUT = 60.0    # seconds for a new process to import what it needs and warm up
CALL_TIMEOUT = 60.0     # seconds for one request


class PoolFull(Exception):
    """Every process of the pool stayed busy."""


class WorkFailed(Exception):
    """The process could not answer (its traceback is the message)."""


class _Process:
    """One process and the two ends of its pipes (non-blocking, waited on with poll, which
    gevent makes cooperative)."""

    def __init__(self, command: tuple[str, ...]):
        self.command = command
        self.proc: subprocess.Popen | None = None

    def _start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", *self.command],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.write_fd, self.read_fd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.write_fd, False)
        os.set_blocking(self.read_fd, False)
        kind, _ = self._answer(time.monotonic() + START_TIMEOUT)
        if kind != b"R":
            raise WorkFailed(f"{self.command[0]} did not start")

    def call(self, data: bytes, timeout: float) -> bytes:
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self._start()
        deadline = time.monotonic() + timeout
        try:
            self._write(HEADER.pack(len(data)) + data, deadline)
            kind, payload = self._answer(deadline)
        except (OSError, EOFError, TimeoutError):
            self.stop()        # dead or stuck: the next document starts a fresh one
            raise
        if kind == b"E":
            raise WorkFailed(payload.decode("utf-8", "replace"))
        return payload

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            _wait(self.write_fd, deadline, write=True)
            try:
                view = view[os.write(self.write_fd, view):]
            except BlockingIOError:
                continue

    def _answer(self, deadline: float) -> tuple[bytes, bytes]:
        kind, size = ANSWER.unpack(self._read(ANSWER.size, deadline))
        return kind, self._read(size, deadline)

    def _read(self, size: int, deadline: float) -> bytes:
        chunks, left = [], size
        while left:
            _wait(self.read_fd, deadline)
            try:
                chunk = os.read(self.read_fd, min(left, 1 << 20))
            except BlockingIOError:
                continue
            if not chunk:
                raise EOFError(f"{self.command[0]} ended")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for pipe in (proc.stdin, proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass


def _wait(fd: int, deadline: float, write: bool = False) -> None:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the process took too long")
    # poll, not select: select() refuses a descriptor numbered 1024 or more (ValueError, a 500
    # for every PDF and import), and a worker holding a thousand live streams has those. Looked
    # up at call time: gevent's patched poll when the worker is a gevent one.
    waiting = select.poll()
    waiting.register(fd, select.POLLOUT if write else select.POLLIN)
    if not waiting.poll(left * 1000) and deadline - time.monotonic() <= 0:
        raise TimeoutError("the process took too long")


class ProcessPool:
    """``size`` processes running ``python -m <command>``."""

    def __init__(self, command: tuple[str, ...], size: int, timeout: float = CALL_TIMEOUT):
        self.command = command
        self.size = max(1, int(size))
        self.timeout = timeout
        self.slots = threading.BoundedSemaphore(self.size)
        self._lock = threading.Lock()
        self._idle = [_Process(command) for _ in range(self.size)]
        self._all = list(self._idle)
        self.calls = 0        # requests answered (tests and `make bench` look at it)

    def call(self, data: bytes, wait: float) -> bytes:
        """A process's answer to ``data``; PoolFull when none came free within ``wait`` s."""
        if not self.slots.acquire(timeout=max(0.0, wait)):
            raise PoolFull()
        with self._lock:
            process = self._idle.pop()
        try:
            answer = process.call(data, self.timeout)
            self.calls += 1
            return answer
        finally:
            with self._lock:
                self._idle.append(process)
            self.slots.release()

    def processes(self) -> list[int]:
        """The process ids of the pool's processes running now."""
        return [p.proc.pid for p in self._all if p.proc is not None and p.proc.poll() is None]

    def close(self) -> None:
        for process in self._all:
            process.stop()


_pools: dict = {}
_pools_lock = threading.Lock()


def pool_for(kind: type[ProcessPool], command: tuple[str, ...], size: int):
    """This process's pool of ``kind`` for these settings (a forked child makes its own)."""
    key = (os.getpid(), kind, command, int(size))
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _pools[key] = kind(command, size)
        return pool


@atexit.register
def _close_all() -> None:
    for (pid, *_), pool in list(_pools.items()):
        if pid == os.getpid():
            pool.close()
