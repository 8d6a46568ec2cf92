"""The PDF processes' renderer makes the same score sheet as WeasyPrint alone (issue 22: the
sheet's render cost). It scopes WeasyPrint's user-agent stylesheet to what the templates use
(companion/pdf.py, UA_TRIMS: no ::marker style on every element, no footnote or note styles);
the pages, rasterised by pdftoppm, are the same to the pixel, list markers included, in every
game's sheet. If a WeasyPrint update changes the stylesheet so that a trim no longer applies,
the renderer falls back to WeasyPrint's own class and the first test says so. It reads our
documents (score sheets, pads) as XML instead of by WeasyPrint's HTML5 parser: the same pixels,
and the last test shows that each one is read that way.
"""
from __future__ import annotations

import subprocess

import pytest
from PIL import Image, ImageChops

from companion.games import GAMES
from companion.pdf import STYLESHEET_LINK, Renderer, scoped_html_class
from tests.conftest import make_app


def test_every_trim_applies_to_this_weasyprint():
    from weasyprint import HTML

    assert scoped_html_class() is not HTML


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    from companion.web.sheets import pad_html, scoresheet_html

    app = make_app(tmp_path_factory.mktemp("pdf"))
    service = app.extensions["companion"]
    out = {}
    for game in GAMES.values():
        names = ["Ann", "Bo", "Cy", "Di"][:max(game.min_players, min(4, game.max_players))]
        row = service.create({"game": game.id, "players": names, "seed": 4})[0]
        with app.test_request_context():
            html = scoresheet_html(row, service.state(row))
        # a list too (a provisional score's questions): its markers must stay
        out[game.id] = html.replace("<table", '<div class="provisional"><ul><li>one</li>'
                                    "<li>two</li></ul></div><table", 1)
    with app.test_request_context():
        out["pad"] = pad_html(GAMES["knarr"], 5, "letter")
    return app.static_folder, out


def pixels(pdf: bytes, folder, name: str) -> Image.Image:
    path = folder / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(path),
                    str(folder / name)], check=True)
    return Image.open(folder / f"{name}.png").convert("RGB")


@pytest.mark.parametrize("game", [*sorted(GAMES), "pad"])
def test_the_renderer_draws_the_sheet_weasyprint_draws(sheets, game, tmp_path):
    from weasyprint import HTML

    static, html = sheets[0], sheets[1][game]
    renderer = Renderer(static)
    ours = renderer.render(html)
    plain = HTML(string=STYLESHEET_LINK.sub("", html), base_url=static,
                 url_fetcher=renderer.fetcher).write_pdf(
        stylesheets=[renderer._stylesheet(href) for href in STYLESHEET_LINK.findall(html)])
    a, b = pixels(ours, tmp_path, "ours"), pixels(plain, tmp_path, "plain")
    assert a.size == b.size
    assert ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("game", [*sorted(GAMES), "pad"])
def test_the_renderer_reads_our_documents_as_xml(sheets, game, monkeypatch):
    """Not by WeasyPrint's HTML5 parser (its HTML class's own __init__): the comparison above
    is then one between the two parsers' trees."""
    from weasyprint import HTML

    def refuse(*args, **kwargs):
        raise AssertionError(f"{game}: read by WeasyPrint's HTML5 parser")

    monkeypatch.setattr(HTML, "__init__", refuse)
    assert Renderer(sheets[0]).render(sheets[1][game]).startswith(b"%PDF")


def test_a_document_with_svg_inside_is_read_by_weasyprint(sheets, monkeypatch):
    from weasyprint import HTML

    read, original = [], HTML.__init__

    def spy(self, *args, **kwargs):
        read.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(HTML, "__init__", spy)
    html = sheets[1]["knarr"].replace("<table", '<svg width="10" height="10"><rect '
                                      'width="10" height="10"/></svg><table', 1)
    assert Renderer(sheets[0]).render(html).startswith(b"%PDF")
    assert read
