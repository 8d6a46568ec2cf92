"""One PDF process: `python -m companion.pdf_worker <static folder>` (companion/pool_worker.py
says how it is run and spoken to): HTML in UTF-8 in, the PDF out."""
from __future__ import annotations

import sys

from .pool_worker import Handler, main

WARM_UP = ("<!doctype html><html><head><link rel='stylesheet' href='css/print.css'></head>"
           "<body><h1>North Sea</h1><p>Warm <b>up</b> <i>ready</i>.</p></body></html>")


def renderer(static_folder: str) -> Handler:
    from .pdf import Renderer

    made = Renderer(static_folder)
    made.render(WARM_UP)          # imports, fonts and hyphenation loaded before the first
    return lambda html: made.render(html.decode("utf-8"))


if __name__ == "__main__":
    main(lambda: renderer(sys.argv[1]))
