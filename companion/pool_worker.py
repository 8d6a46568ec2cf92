"""One process of a pool (companion/process_pool.py): `python -m companion.pdf_worker ...` or
`python -m companion.import_worker`, started by its server process, never by hand.

It reads requests from stdin and writes answers to stdout, one at a time, until stdin closes
(its server process ended, however it ended). Frames: a request is a 4-byte big-endian length
and its bytes; an answer is one byte (``A`` an answer, ``E`` an error's text, ``R`` ready,
sent once at start) and a 4-byte length, then the bytes. It runs at a lower CPU priority
than the server, so the tables' taps come first when both want the processor.
"""
from __future__ import annotations

import os
import struct
import sys
import traceback
from collections.abc import Callable

NICE = 10
HEADER = struct.Struct(">I")
ANSWER = struct.Struct(">cI")

Handler = Callable[[bytes], bytes]


def _read(stream, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def _answer(out, kind: bytes, payload: bytes) -> None:
    out.write(ANSWER.pack(kind, len(payload)) + payload)
    out.flush()


def serve(handler: Handler, stdin, stdout) -> None:
    """Answer each request with ``handler``'s bytes (made ready and warm by its caller)."""
    _answer(stdout, b"R", b"")
    while (header := _read(stdin, HEADER.size)) is not None:
        data = _read(stdin, HEADER.unpack(header)[0])
        if data is None:
            return
        try:
            _answer(stdout, b"A", handler(data))
        except Exception:   # the server turns it into an error page; this process goes on
            _answer(stdout, b"E", traceback.format_exc()[-4000:].encode())


def main(make_handler: Callable[[], Handler]) -> None:
    """The process's life: a lower priority, ``make_handler()`` (imports and warm-up, before
    the first request), then requests until stdin closes."""
    try:
        os.nice(NICE)
    except OSError:
        pass
    frames = os.fdopen(os.dup(1), "wb")   # the answers' own copy of stdout; whatever a
    os.dup2(2, 1)                          # library prints goes to stderr (the server's log)
    serve(make_handler(), sys.stdin.buffer, frames)
