"""A pool's process is spoken to whatever number its pipes get (companion/process_pool.py).

select() refuses a descriptor numbered 1024 or more. A server process holding many open
connections (a thousand live streams of one club evening, issue 22) gets such numbers for the
pipes of a PDF or import process it starts, and every PDF and import then failed with a 500
("filedescriptor out of range in select()"): CI found it when a test process had collected
that many descriptors. Here a real PDF process is started while this process holds more than
1,024 descriptors, so its pipes are numbered above them, and it must still render.
"""
from __future__ import annotations

import os
import resource
from pathlib import Path

from companion.process_pool import ProcessPool

STATIC = str(Path(__file__).resolve().parents[2] / "static")
HTML = "<!doctype html><html><body><p>Ann 42</p></body></html>"


def test_a_pool_process_whose_pipes_are_numbered_above_1024_still_answers():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    held = []
    pool = ProcessPool(("companion.pdf_worker", STATIC), 1)
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        pdf = pool.call(HTML.encode(), wait=5)
        process = pool._all[0]
        assert min(process.read_fd, process.write_fd) > 1024
        assert pdf.startswith(b"%PDF") and pool.calls == 1
    finally:
        pool.close()
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
