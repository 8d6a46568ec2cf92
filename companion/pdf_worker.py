"""One PDF process: `python -m companion.pdf_worker <static folder>`, started by
companion/pdf_pool.py, never by hand.

It reads documents from stdin and writes PDFs to stdout, one at a time, until stdin closes
(its server process ended, however it ended). Frames: a request is a 4-byte big-endian length
and the HTML in UTF-8; an answer is one byte (``P`` a PDF, ``E`` an error's text, ``R`` ready,
sent once at start) and a 4-byte length, then the bytes. It runs at a lower CPU priority
than the server, so the tables' taps come first when both want the processor.
"""
from __future__ import annotations

import os
import struct
import sys
import traceback

NICE = 10
HEADER = struct.Struct(">I")
ANSWER = struct.Struct(">cI")
WARM_UP = ("<!doctype html><html><head><link rel='stylesheet' href='css/print.css'></head>"
           "<body><h1>North Sea</h1><p>Warm <b>up</b> <i>ready</i>.</p></body></html>")


def _read(stream, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def _answer(out, kind: bytes, payload: bytes) -> None:
    out.write(ANSWER.pack(kind, len(payload)) + payload)
    out.flush()


def serve(static_folder: str, stdin=None, stdout=None) -> None:
    from .pdf import Renderer

    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    renderer = Renderer(static_folder)
    renderer.render(WARM_UP)          # imports, fonts and hyphenation loaded before the first
    _answer(stdout, b"R", b"")
    while (header := _read(stdin, HEADER.size)) is not None:
        html = _read(stdin, HEADER.unpack(header)[0])
        if html is None:
            return
        try:
            _answer(stdout, b"P", renderer.render(html.decode("utf-8")))
        except Exception:   # the server turns it into an error page; this process goes on
            _answer(stdout, b"E", traceback.format_exc()[-4000:].encode())


def main() -> None:
    try:
        os.nice(NICE)
    except OSError:
        pass
    frames = os.fdopen(os.dup(1), "wb")   # the answers' own copy of stdout; whatever a
    os.dup2(2, 1)                          # library prints goes to stderr (the server's log)
    serve(sys.argv[1], stdout=frames)


if __name__ == "__main__":
    main()
