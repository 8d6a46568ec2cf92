"""A PDF for a page: from the cache when it was made before, else from the PDF pool.

    make_pdf(html, owner)    owner: the play's id for its score sheets, "_pads", "_boards"
    forget_documents(play_id)  when a play is deleted, its sheets go too

Settings: HEAVY_SLOTS PDF processes per server process, HEAVY_WAIT seconds a document waits
for one (then a 503 with Retry-After), PDF_CACHE_DIR (default instance/pdf-cache) and
PDF_CACHE_FILES (500) documents kept.
"""
from __future__ import annotations

from pathlib import Path

from flask import current_app

from ..pdf_cache import MAX_FILES, DocumentCache
from ..pdf_pool import PoolFull, pool_for
from .limits import Busy


def cache() -> DocumentCache:
    app = current_app
    found = app.extensions.get("pdf_cache")
    if found is None:
        folder = app.config.get("PDF_CACHE_DIR") or Path(app.instance_path) / "pdf-cache"
        found = app.extensions["pdf_cache"] = DocumentCache(
            folder, app.static_folder, int(app.config.get("PDF_CACHE_FILES", MAX_FILES)))
    return found


def pool():
    return pool_for(current_app.static_folder, int(current_app.config["HEAVY_SLOTS"]))


def make_pdf(html: str, owner: str) -> bytes:
    store = cache()
    path = store.path(html, owner)
    pdf = store.get(path)
    if pdf is not None:
        return pdf
    try:
        pdf = pool().render(html, float(current_app.config["HEAVY_WAIT"]))
    except (PoolFull, TimeoutError, EOFError, OSError) as err:
        if not isinstance(err, PoolFull):
            current_app.logger.warning("PDF process failed: %s", err)
        raise Busy() from err
    store.put(path, pdf)
    return pdf


def forget_documents(play_id: str) -> None:
    cache().forget(play_id)
