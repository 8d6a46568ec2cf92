"""PDF adapter: WeasyPrint turns an ordinary HTML template with print CSS into a PDF.

WeasyPrint fetches what a document links to. Ours link only to the app's own static files, so
the fetcher refuses everything else (no file:// outside static/, no http at all): a name or a
value that ever slipped into the HTML as a link could not read the server's files or reach
the network.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit


def static_only_fetcher(static_folder: str | Path):
    from weasyprint.urls import URLFetcher

    root = Path(static_folder).resolve()

    class StaticOnlyFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            parts = urlsplit(url)
            if parts.scheme == "data":
                return super().fetch(url, headers)
            if parts.scheme == "file" and parts.netloc in ("", "localhost"):
                path = Path(unquote(parts.path)).resolve()
                if path.is_relative_to(root) and path.is_file():
                    return super().fetch(url, headers)
            raise ValueError(f"only the app's static files may be fetched, not {url[:80]}")

    return StaticOnlyFetcher(allowed_protocols=("file", "data"), allow_redirects=False)


def html_to_pdf(html: str, base_url: str) -> bytes:
    from weasyprint import HTML  # imported where it is used: it is slow to load

    return HTML(string=html, base_url=base_url,
                url_fetcher=static_only_fetcher(base_url)).write_pdf()
