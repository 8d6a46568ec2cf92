"""PDFs are made off the request workers, in a small pool of processes.

A WeasyPrint render is 10-100 ms of pure CPU. Made in a gevent worker it stops every other
request of that worker (a greenlet runs until it yields), so a client looping PDFs stalled the
other tables' taps. Each server process (gunicorn worker) therefore keeps ``size`` PDF
processes (`python -m companion.pdf_worker`, started on first use, at a lower CPU priority)
and only waits for their answer, which in a gevent worker is a cooperative wait on a pipe:
the worker goes on answering taps meanwhile. When every process is busy for ``wait`` seconds
the request is refused (``PoolFull``: a 503 with Retry-After) instead of queueing.

A process that dies or takes longer than ``timeout`` is killed and started again on the next
document. The pool of a process is shared by every app in it and ended at exit.
"""
from __future__ import annotations

import atexit
import os
import select
import subprocess
import sys
import threading
import time

from .pdf_worker import ANSWER, HEADER

START_TIMEOUT = 60.0    # seconds for a new PDF process to import WeasyPrint and load its fonts
RENDER_TIMEOUT = 60.0   # seconds for one document


class PoolFull(Exception):
    """Every PDF process of this server process stayed busy."""


class RenderFailed(Exception):
    """The PDF process could not make the document (its traceback is the message)."""


class _Process:
    """One PDF process and the two ends of its pipes (non-blocking, waited on with select,
    which gevent makes cooperative)."""

    def __init__(self, static_folder: str):
        self.static_folder = static_folder
        self.proc: subprocess.Popen | None = None

    def _start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.pdf_worker", self.static_folder],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.write_fd, self.read_fd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.write_fd, False)
        os.set_blocking(self.read_fd, False)
        kind, _ = self._answer(time.monotonic() + START_TIMEOUT)
        if kind != b"R":
            raise RenderFailed("the PDF process did not start")

    def render(self, html: str, timeout: float) -> bytes:
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self._start()
        deadline = time.monotonic() + timeout
        data = html.encode("utf-8")
        try:
            self._write(HEADER.pack(len(data)) + data, deadline)
            kind, payload = self._answer(deadline)
        except (OSError, EOFError, TimeoutError):
            self.stop()        # dead or stuck: the next document starts a fresh one
            raise
        if kind == b"E":
            raise RenderFailed(payload.decode("utf-8", "replace"))
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
                raise EOFError("the PDF process ended")
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
        raise TimeoutError("the PDF process took too long")
    # looked up at call time: gevent's patched select when the worker is a gevent one
    ready = select.select([], [fd], [], left) if write else select.select([fd], [], [], left)
    if not any(ready) and deadline - time.monotonic() <= 0:
        raise TimeoutError("the PDF process took too long")


class RenderPool:
    def __init__(self, static_folder: str, size: int, timeout: float = RENDER_TIMEOUT):
        self.size = max(1, int(size))
        self.timeout = timeout
        self.slots = threading.BoundedSemaphore(self.size)
        self._lock = threading.Lock()
        self._idle = [_Process(str(static_folder)) for _ in range(self.size)]
        self._all = list(self._idle)
        self.renders = 0        # documents made (tests and `make bench` look at it)

    def render(self, html: str, wait: float) -> bytes:
        """The PDF of ``html``; PoolFull when no process came free within ``wait`` s."""
        if not self.slots.acquire(timeout=max(0.0, wait)):
            raise PoolFull()
        with self._lock:
            process = self._idle.pop()
        try:
            pdf = process.render(html, self.timeout)
            self.renders += 1
            return pdf
        finally:
            with self._lock:
                self._idle.append(process)
            self.slots.release()

    def processes(self) -> list[int]:
        """The process ids of the PDF processes running now."""
        return [p.proc.pid for p in self._all if p.proc is not None and p.proc.poll() is None]

    def close(self) -> None:
        for process in self._all:
            process.stop()


_pools: dict = {}
_pools_lock = threading.Lock()


def pool_for(static_folder: str, size: int) -> RenderPool:
    """This process's pool for these settings (a forked child makes its own)."""
    key = (os.getpid(), str(static_folder), int(size))
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _pools[key] = RenderPool(static_folder, size)
        return pool


@atexit.register
def _close_all() -> None:
    for (pid, *_), pool in list(_pools.items()):
        if pid == os.getpid():
            pool.close()
