"""Two shortcuts inside WeasyPrint for the renderer's own documents (companion/pdf.py), each
skipping work whose result our documents never use. They rely on WeasyPrint's internals as
they are in version 70.0, the version constraints.txt pins; ``install`` installs them only
on that version (any other keeps WeasyPrint's own way) and only while a ``Renderer`` renders
(``active``): WeasyPrint called by anyone else in the process, the benchmark's one-line
document included, is untouched. tests/web/test_pdf_render.py checks that every game's sheet
comes out the same to the pixel as WeasyPrint alone makes it.

- Margin boxes: WeasyPrint builds the 16 margin boxes of every page (a box and its style's
  percentages each) whatever the stylesheets say; when none of their styles has content (our
  stylesheets give them none, WeasyPrint's own only their alignment), none is generated, and
  none is built (about 1 ms a sheet).
- Text laid out once: WeasyPrint drops each line's Pango layout once the line is laid out
  and builds it again to draw it (a Pango context, the font, the text, then shaping the line
  again in single-paragraph mode). A layout whose text has no line break is here set to
  single-paragraph mode before it is laid out (the same lines: the mode only changes how a
  line break is treated) and kept, and drawing reuses it (about 0.1 ms a line of text).
  Layouts with letter or word spacing or justification are built again as WeasyPrint does.
"""
from __future__ import annotations

import threading

VERSION = "70.0"
MARGIN_BOXES = tuple(f"@{side}-{where}" for side, wheres in (
    ("top", ("left-corner", "left", "center", "right", "right-corner")),
    ("bottom", ("left-corner", "left", "center", "right", "right-corner")),
    ("left", ("top", "middle", "bottom")), ("right", ("top", "middle", "bottom")))
    for where in wheres)
BREAKS = frozenset("\n\r\x85\u2028\u2029")   # what Pango may take for a paragraph break
active = threading.local()
_installed: list[bool] = []


def install() -> bool:
    """Install the shortcuts once (True when they apply to this WeasyPrint)."""
    import weasyprint

    if weasyprint.__version__ != VERSION:
        return False
    if not _installed:
        _install_margin_boxes()
        _install_kept_layouts()
        _installed.append(True)
    return True


def _on() -> bool:
    return getattr(active, "on", False)


def _install_margin_boxes() -> None:
    from weasyprint import layout

    original = layout.make_margin_boxes

    def generates(style) -> bool:       # as WeasyPrint's make_box decides
        return style is not None and style["content"] not in ("normal", "inhibit", "none")

    def make_margin_boxes(context, page, state):
        if _on() and not any(generates(context.style_for(page.page_type, name))
                             for name in MARGIN_BOXES):
            return ()
        return original(context, page, state)

    layout.make_margin_boxes = make_margin_boxes


def _plain(layout) -> bool:
    """A layout drawn exactly as it was laid out: no justification, no added spacing."""
    style = layout.style
    return (not layout.justification_spacing and not style["word_spacing"]
            and style["letter_spacing"] == "normal")


def _install_kept_layouts() -> None:
    from weasyprint.text.ffi import pango
    from weasyprint.text.line_break import Layout

    set_text, deactivate, reactivate = Layout.set_text, Layout.deactivate, Layout.reactivate

    def set_text_once(self, text, justify=False):
        set_text(self, text, justify)
        if _on() and not BREAKS.intersection(self.text) and _plain(self):
            pango.pango_layout_set_single_paragraph_mode(self.layout, True)
            self.kept = True
        else:
            self.kept = False

    def keep(self):
        if not getattr(self, "kept", False):
            deactivate(self)

    def reuse(self, style):
        if getattr(self, "kept", False) and style is self.style:
            return
        self.kept = False
        reactivate(self, style)

    Layout.set_text, Layout.deactivate, Layout.reactivate = set_text_once, keep, reuse
