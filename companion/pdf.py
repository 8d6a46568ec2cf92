"""PDF adapter: WeasyPrint turns an ordinary HTML template with print CSS into a PDF."""
from __future__ import annotations


def html_to_pdf(html: str, base_url: str) -> bytes:
    from weasyprint import HTML  # imported where it is used: it is slow to load

    return HTML(string=html, base_url=base_url).write_pdf()
