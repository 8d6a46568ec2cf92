"""PDF adapter: WeasyPrint turns an ordinary HTML template with print CSS into a PDF.

WeasyPrint fetches what a document links to. Ours link only to the app's own static files, so
the fetcher refuses everything else (no file:// outside static/, no http at all): a name or a
value that ever slipped into the HTML as a link could not read the server's files or reach
the network.

The server makes its PDFs in separate processes (companion/pdf_worker.py), each with one
``Renderer`` that keeps between documents what every document would otherwise load again
(profiled: docs/benchmarks.md): its fonts (a fresh WeasyPrint font configuration builds a new
Pango font map, and every font size and weight a sheet uses is loaded anew, about 20 ms of a
score sheet) and the print stylesheet, fetched and parsed once instead of per document (5 ms).
Our templates are well-formed XML too, and a document that parses as XML is read by the
standard library's expat instead of WeasyPrint's HTML5 parser, which is pure Python (2-2.7 ms
of a 40-50 ms score sheet); anything else takes WeasyPrint's own way.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

from . import pdf_internals

# how the PDF templates link their stylesheets (templates/pdf/*.html)
STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="([^"<>]+)">')
DOCTYPE = re.compile(r"\A\s*<!doctype html>", re.I)
# WeasyPrint's HTML user-agent stylesheet gives EVERY element a ::marker style and five note
# and footnote pseudo-elements' styles: six computed styles more per element, most of a
# score sheet's style work (a sheet of 50 cells: about 400 styles for 60 elements). Our
# sheets use no footnotes or notes, and markers only on list items: the same sheet, its rules
# scoped to what the templates use.
UA_TRIMS = ((re.compile(r"^::marker \{", re.M), "li::marker {"),
            (re.compile(r"^::(?:footnote|note)-[a-z-]+ \{[^}]*\}\n", re.M), ""))


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


class Renderer:
    """Many documents, one after another, with the fonts, the linked stylesheets and static
    images loaded once (they change only with the app, and so with a restart)."""

    def __init__(self, static_folder: str | Path):
        from weasyprint.text.fonts import FontConfiguration

        self.root = Path(static_folder).resolve()
        self.base_url = str(static_folder)
        self.fetcher = static_only_fetcher(static_folder)
        self.fonts = FontConfiguration()   # no @font-face in our CSS: safe to keep
        self.images: dict = {}
        self._sheets: dict = {}
        self.html_class = scoped_html_class()
        self.shortcuts = pdf_internals.install()

    def render(self, html: str) -> bytes:
        sheets = [self._stylesheet(href) for href in STYLESHEET_LINK.findall(html)]
        document = self.html_class(string=STYLESHEET_LINK.sub("", html), base_url=self.base_url,
                        url_fetcher=self.fetcher)
        # our own documents (read as XML: no SVG inside) take companion/pdf_internals.py's
        # shortcuts through WeasyPrint 70.0
        pdf_internals.active.on = self.shortcuts and getattr(document, "read_as_xml", False)
        try:
            return document.write_pdf(stylesheets=[s for s in sheets if s is not None],
                                      font_config=self.fonts, cache=self.images)
        finally:
            pdf_internals.active.on = False

    def _stylesheet(self, href: str):
        """A linked static stylesheet, parsed once (None for anything outside static/)."""
        from weasyprint import CSS

        if href not in self._sheets:
            path = (self.root / href).resolve()
            self._sheets[href] = (CSS(filename=str(path), url_fetcher=self.fetcher,
                                      font_config=self.fonts)
                                  if path.is_relative_to(self.root) and path.is_file()
                                  else None)
        return self._sheets[href]


def scoped_html_class():
    """WeasyPrint's HTML with its user-agent stylesheet trimmed by UA_TRIMS (parsed once)."""
    from weasyprint import CSS, HTML
    from weasyprint.html import UA, UA_COUNTER_STYLE

    text = UA
    for pattern, replacement in UA_TRIMS:
        text, found = pattern.subn(replacement, text)
        if not found:   # a WeasyPrint whose stylesheet changed: trim nothing, stay correct
            return HTML
    sheet = CSS(string=text, counter_style=UA_COUNTER_STYLE)

    class ScopedHTML(HTML):
        def __init__(self, string: str, base_url: str, url_fetcher):
            """``string`` read as XML when it is well-formed XML of HTML elements only (then
            the same tree as the HTML5 parser's, without WeasyPrint's namespaces: html, head
            and body, and the tbody, written out), else by WeasyPrint: SVG or MathML inside
            (the boards) is foreign content the HTML5 parser treats in its own way
            (tests/web/test_pdf_render.py: the same pixels)."""
            import cssselect2
            from weasyprint import _find_base_url

            root = None
            if "<svg" not in string and "<math" not in string:
                try:
                    root = ElementTree.fromstring(DOCTYPE.sub("", string, count=1))
                except ElementTree.ParseError:
                    pass
            if root is None or root.tag != "html" or [c.tag for c in root] != ["head", "body"]:
                super().__init__(string=string, base_url=base_url, url_fetcher=url_fetcher)
                return
            self.base_url = _find_base_url(root, base_url)
            self.url_fetcher, self.media_type = url_fetcher, "print"
            self.wrapper_element = cssselect2.ElementWrapper.from_html_root(
                root, content_language=None)
            self.etree_element = self.wrapper_element.etree_element
            self.read_as_xml = True

        def _ua_stylesheets(self, forms=False):
            return [sheet, *super()._ua_stylesheets(forms)[1:]]

    return ScopedHTML


def html_to_pdf(html: str, base_url: str) -> bytes:
    """One document in this process (the server uses the pool instead)."""
    return Renderer(base_url).render(html)
