"""A PDF for a page: from the cache when it was made before, else from the PDF pool; and the
pool that checks imports (companion/process_pool.py, the same code).

    make_pdf(html, owner)    owner: the play's id for its score sheets, "_pads", "_boards"
    forget_documents(play_id)  when a play is deleted, its sheets go too
    in_pool(pool, data)      a pool's answer, or a 503 (Busy) when none of it is free

Settings: HEAVY_SLOTS PDF processes and as many import processes per server process,
HEAVY_WAIT seconds a request waits for one (then a 503 with Retry-After), PDF_CACHE_DIR
(default instance/pdf-cache) and PDF_CACHE_FILES (500) documents kept.
"""
from __future__ import annotations

from pathlib import Path

from flask import current_app

from ..pdf_cache import MAX_FILES, DocumentCache
from ..process_pool import PoolFull, ProcessPool, pool_for
from .limits import Busy


class RenderPool(ProcessPool):
    """The PDF processes (companion/pdf_worker.py)."""

    @property
    def renders(self) -> int:
        """Documents made (tests and `make bench` look at it)."""
        return self.calls


def cache() -> DocumentCache:
    app = current_app
    found = app.extensions.get("pdf_cache")
    if found is None:
        folder = app.config.get("PDF_CACHE_DIR") or Path(app.instance_path) / "pdf-cache"
        found = app.extensions["pdf_cache"] = DocumentCache(
            folder, app.static_folder, int(app.config.get("PDF_CACHE_FILES", MAX_FILES)))
    return found


def pool() -> RenderPool:
    return pool_for(RenderPool, ("companion.pdf_worker", current_app.static_folder),
                    int(current_app.config["HEAVY_SLOTS"]))


def import_pool() -> ProcessPool:
    """The processes that read and check an import (companion/import_worker.py)."""
    return pool_for(ProcessPool, ("companion.import_worker",),
                    int(current_app.config["HEAVY_SLOTS"]))


def in_pool(kind: ProcessPool, data: bytes) -> bytes:
    """``kind``'s answer to ``data``: Busy (a 503 with Retry-After) when no process of it came
    free within HEAVY_WAIT seconds, or when the process died or took too long."""
    try:
        return kind.call(data, float(current_app.config["HEAVY_WAIT"]))
    except (PoolFull, TimeoutError, EOFError, OSError) as err:
        if not isinstance(err, PoolFull):
            current_app.logger.warning("%s failed: %s", kind.command[0], err)
        raise Busy() from err


def make_pdf(html: str, owner: str) -> bytes:
    store = cache()
    path = store.path(html, owner)
    pdf = store.get(path)
    if pdf is not None:
        return pdf
    pdf = in_pool(pool(), html.encode("utf-8"))
    store.put(path, pdf)
    return pdf


def forget_documents(play_id: str) -> None:
    cache().forget(play_id)
