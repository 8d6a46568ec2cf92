"""The renderer's shortcuts through WeasyPrint 70.0 (companion/pdf_internals.py, issue 22: a
sheet's render cost). tests/web/test_pdf_render.py shows that the pages come out the same to
the pixel as WeasyPrint alone makes them; here: that the shortcuts apply to the WeasyPrint
constraints.txt pins, that they do skip the work (each line of text set up once instead of
twice, no margin box built), and that WeasyPrint called outside a render is left alone."""
from __future__ import annotations

import pytest

from benchmarks.bench_pdf import ended_play
from companion import pdf_internals
from companion.pdf import Renderer


@pytest.fixture()
def sheet(app, client):
    from companion.web import service
    from companion.web.sheets import scoresheet_html

    play_id = ended_play(client, "explorers")["id"]
    with app.test_request_context():
        row = service().load(play_id)
        return scoresheet_html(row, service().state(row))


def counted(monkeypatch, owner, name: str) -> list:
    calls, original = [], getattr(owner, name)

    def spy(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return calls


def test_the_shortcuts_apply_to_the_pinned_weasyprint(app):
    import weasyprint

    assert weasyprint.__version__ == pdf_internals.VERSION
    assert Renderer(app.static_folder).shortcuts


def test_each_line_is_set_up_once_and_no_margin_box_is_built(app, sheet, monkeypatch):
    from weasyprint.formatting_structure.boxes import MarginBox
    from weasyprint.text.line_break import Layout

    renderer = Renderer(app.static_folder)
    renderer.render(sheet)
    setups, boxes = counted(monkeypatch, Layout, "setup"), counted(monkeypatch, MarginBox,
                                                                   "__init__")
    renderer.render(sheet)
    made = len(setups), len(boxes)
    renderer.shortcuts = False
    setups.clear()
    boxes.clear()
    renderer.render(sheet)
    assert made[1] == 0 and len(boxes) == 16          # a page's 16 margin boxes
    assert 30 < made[0] <= len(setups) * 0.55, (made, len(setups))


def test_weasyprint_outside_a_render_is_untouched(app, sheet, monkeypatch):
    from weasyprint.document import Document

    renderer = Renderer(app.static_folder)
    seen = []
    original = Document.write_pdf

    def write_pdf(self, *args, **kwargs):
        seen.append(pdf_internals.active.on)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Document, "write_pdf", write_pdf)
    renderer.render(sheet)
    assert seen == [True] and not pdf_internals.active.on

    def fail(self, *args, **kwargs):
        raise RuntimeError("a render that fails")

    monkeypatch.setattr(Document, "write_pdf", fail)
    with pytest.raises(RuntimeError):
        renderer.render(sheet)
    assert not pdf_internals.active.on
