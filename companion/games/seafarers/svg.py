"""A board as a plain SVG string: no scripts, no style attributes, no external fonts, every
text escaped.

Drawn for a phone (a viewBox, so it scales and zooms) and for print (WeasyPrint): hexes in
terrain colours with a symbol and the resource named, chips with their number and pips (6 and 8
in red), harbours as a ratio badge tied by two docks to the coast they serve (2:1 badges ringed
in their resource's colour), face-down positions as ?. ``overlay`` is trusted markup the caller
puts on top (the play page's tap targets); ``hex_box`` gives the square around a hex for it.
``words`` says each English word or sentence drawn in the reader's language (the web passes
its ``core``); hex labels and numbers are drawn as they are.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from ..errors import say
from .hexgrid import labels, pixel, step
from .scenarios import PIPS, RED, RESOURCE_NAMES, RESOURCE_OF, terrain_word

SIZE = 40.0
FONT = "font-family=\"Helvetica, Arial, 'DejaVu Sans', sans-serif\""
COLOURS = {"sea": "#4f8fcb", "desert": "#dcc9a3", "gold": "#d9a21b", "fields": "#f4de7e",
           "hills": "#c8643b", "mountains": "#9aa1a8", "pasture": "#9fd063",
           "forest": "#2f7a34", None: "#cfd6db"}
INK = {"forest": "#ffffff", "hills": "#ffffff", "sea": "#ffffff"}   # label colour on dark tiles
# the word under a hex: the resource it yields (gold and the wasteland by their own names)
LABELS = {"desert": terrain_word("desert"), "gold": terrain_word("gold"),
          **{t: RESOURCE_NAMES[r] for t, r in RESOURCE_OF.items() if t != "gold"}}
HARBOUR_RING = {RESOURCE_OF[t]: COLOURS[t] for t in RESOURCE_OF if t != "gold"}
CHIP_R = SIZE * 0.4


def same(text: str) -> str:
    return text


def render(setup: dict, title: str | None = None, overlay: str = "",
           words: Callable[[str], str] = same) -> str:
    """The board of a seafarers ``setup`` (hexes, harbours) as an SVG document string."""
    hexes = setup.get("hexes", [])
    name = words(title or say("%(scenario)s board",
                              scenario=setup.get("scenario_name", "Seafarers")))
    x0, y0, width, height = view_box(hexes)
    # a drawing with tap targets (links) in it is a group of them, not one picture: an image's
    # insides are hidden from a screen reader, its links included
    role = "group" if overlay else "img"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} '
             f'{width:.1f} {height:.1f}" width="100%" role="{role}" '
             f'aria-label="{escape(name)}" {FONT}>',
             f"<title>{escape(name)}</title>"]
    names = labels((h["q"], h["r"]) for h in hexes)
    parts += [hex_shape({**h, "label": h.get("label") or names[(h["q"], h["r"])]}, words)
              for h in hexes]
    parts += [harbour_badge(h, words) for h in setup.get("harbours", [])]
    if overlay:
        parts.append(overlay)
    parts.append("</svg>")
    return "\n".join(parts)


def view_box(hexes: list[dict]) -> tuple[float, float, float, float]:
    if not hexes:
        return (0.0, 0.0, SIZE, SIZE)
    points = [pixel((h["q"], h["r"]), SIZE) for h in hexes]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pad_x, pad_y = SIZE * math.sqrt(3) / 2 + 4, SIZE + 4
    return (min(xs) - pad_x, min(ys) - pad_y, max(xs) - min(xs) + 2 * pad_x,
            max(ys) - min(ys) + 2 * pad_y)


def hex_box(q: int, r: int, scale: float = 0.8) -> tuple[float, float, float, float]:
    """(x, y, width, height) of a square centred on hex (q, r), for a tap target."""
    cx, cy = pixel((q, r), SIZE)
    half = SIZE * scale
    return (round(cx - half, 1), round(cy - half, 1), round(2 * half, 1), round(2 * half, 1))


def corner_point(centre: tuple[float, float], i: int, scale: float = 1.0) -> tuple:
    angle = math.radians(60 * i - 30)
    return (centre[0] + SIZE * scale * math.cos(angle), centre[1] + SIZE * scale * math.sin(angle))


def polygon(centre: tuple[float, float], scale: float = 0.97) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner_point(centre, i, scale)
                                                     for i in range(6)))


def describe(h: dict, words: Callable[[str], str] = same) -> str:
    if h.get("hidden"):
        return words(say("face-down position"))
    if h.get("terrain") is None:
        return words(say("tile as in your rulebook's diagram"))
    said = [words(terrain_word(h["terrain"]))]
    if h.get("number"):
        said.append(str(h["number"]))
    return " ".join(said)


def hex_shape(h: dict, words: Callable[[str], str] = same) -> str:
    centre = pixel((h["q"], h["r"]), SIZE)
    terrain = None if h.get("hidden") else h.get("terrain")
    kind = "hidden" if h.get("hidden") else (terrain or "unknown")
    out = [f'<g class="hex {kind}" data-q="{h["q"]}" data-r="{h["r"]}">'
           f"<title>{escape(h['label'])}: {escape(describe(h, words))}</title>",
           f'<polygon points="{polygon(centre)}" fill="{COLOURS.get(terrain, "#ccc")}" '
           f'stroke="#ffffff" stroke-width="1.5"/>']
    cx, cy = centre
    has_chip = bool(h.get("number")) and not h.get("hidden")
    if h.get("hidden"):
        out.append(text(cx, cy + 10, "?", 30, "#3c4750", bold=True))
    elif terrain in SYMBOLS:
        out.append(SYMBOLS[terrain](cx, cy - 21, 0.85) if has_chip
                   else SYMBOLS[terrain](cx, cy - 2, 1.35))
    if terrain in LABELS:
        label = words(LABELS[terrain])
        out.append(text(cx, cy + 32, label, 7.5 if len(label) < 12 else 6.2,
                        INK.get(terrain, "#1d252b")))
    if has_chip:
        out.append(chip(cx, cy + 5, h["number"]))
    out.append(f'<text class="hex-label" x="{cx:.1f}" y="{cy - 30.5:.1f}" font-size="6.5" '
               f'fill="{INK.get(terrain, "#1d252b")}" text-anchor="middle" '
               f'font-weight="bold">{escape(h["label"])}</text>')
    out.append("</g>")
    return "".join(out)


def text(x: float, y: float, value: str, size: float, fill: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
            f'text-anchor="middle"{weight}>{escape(str(value))}</text>')


def chip(cx: float, cy: float, number: int) -> str:
    colour = "#c0392b" if number in RED else "#1d1d1d"
    pips = PIPS.get(number, 0)
    dots = "".join(f'<circle cx="{cx + (i - (pips - 1) / 2) * 3.6:.1f}" cy="{cy + 9.5:.1f}" '
                   f'r="1.3" fill="{colour}"/>' for i in range(pips))
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{CHIP_R:.1f}" fill="#fbf3dc" '
            f'stroke="#6d5c3d" stroke-width="1.2"/>'
            + text(cx, cy + 4.5, str(number), 16 if number in RED else 15, colour, bold=True)
            + dots)


# ---- terrain symbols: simple shapes drawn around (x, y) at scale s, paths and ellipses only
def _p(d: str, fill: str, stroke: str = "none", width: float = 0) -> str:
    extra = f' stroke="{stroke}" stroke-width="{width:.1f}" stroke-linecap="round"' \
        if stroke != "none" else ""
    return f'<path d="{d}" fill="{fill}"{extra}/>'


def _trees(x: float, y: float, s: float) -> str:
    out = []
    for dx, h in ((-7, 12), (6, 14)):
        tx, top = x + dx * s, y - h / 2 * s
        out.append(_p(f"M{tx - 6 * s:.1f},{y + 5 * s:.1f} L{tx:.1f},{top:.1f} "
                      f"L{tx + 6 * s:.1f},{y + 5 * s:.1f} Z", "#174d1c", "#0e3612", 0.8))
        out.append(_p(f"M{tx:.1f},{y + 5 * s:.1f} V{y + 9 * s:.1f}", "none", "#5a3b1d", 2 * s))
    return "".join(out)


def _sheep(x: float, y: float, s: float) -> str:
    return (f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{9 * s:.1f}" ry="{5.5 * s:.1f}" '
            f'fill="#ffffff" stroke="#55673a" stroke-width="0.8"/>'
            f'<ellipse cx="{x + 9 * s:.1f}" cy="{y - 2 * s:.1f}" rx="{3 * s:.1f}" '
            f'ry="{2.4 * s:.1f}" fill="#3b3b3b"/>'
            + _p(f"M{x - 5 * s:.1f},{y + 5 * s:.1f} V{y + 9 * s:.1f} M{x + 4 * s:.1f},"
                 f"{y + 5 * s:.1f} V{y + 9 * s:.1f}", "none", "#3b3b3b", 1.4 * s))


def _wheat(x: float, y: float, s: float) -> str:
    out = []
    for dx in (-6, 0, 6):
        sx = x + dx * s
        out.append(_p(f"M{sx:.1f},{y + 9 * s:.1f} V{y - 4 * s:.1f}", "none", "#8a6a12", 1.1 * s))
        out.append(f'<ellipse cx="{sx:.1f}" cy="{y - 6 * s:.1f}" rx="{2.2 * s:.1f}" '
                   f'ry="{4.5 * s:.1f}" fill="#b8860b"/>')
    return "".join(out)


def _bricks(x: float, y: float, s: float) -> str:
    out = []
    for dy, xs in ((-5, (-5.5, 5.5)), (2, (-11, 0, 11))):
        for dx in xs:
            bx, by = x + (dx - 5) * s, y + dy * s
            out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{10 * s:.1f}" '
                       f'height="{6 * s:.1f}" fill="#8e3418" stroke="#f2c2a8" '
                       f'stroke-width="0.7"/>')
    return "".join(out)


def _peaks(x: float, y: float, s: float) -> str:
    return (_p(f"M{x - 13 * s:.1f},{y + 7 * s:.1f} L{x - 4 * s:.1f},{y - 8 * s:.1f} "
               f"L{x + 2 * s:.1f},{y + 1 * s:.1f} L{x + 6 * s:.1f},{y - 4 * s:.1f} "
               f"L{x + 13 * s:.1f},{y + 7 * s:.1f} Z", "#5b6268", "#3e4449", 0.8)
            + _p(f"M{x - 7 * s:.1f},{y - 3 * s:.1f} L{x - 4 * s:.1f},{y - 8 * s:.1f} "
                 f"L{x - 1 * s:.1f},{y - 3 * s:.1f} Z", "#ffffff"))


def _coins(x: float, y: float, s: float) -> str:
    return "".join(f'<ellipse cx="{x + dx * s:.1f}" cy="{y + dy * s:.1f}" rx="{5.5 * s:.1f}" '
                   f'ry="{5.5 * s:.1f}" fill="#ffe066" stroke="#7a5a00" stroke-width="1"/>'
                   for dx, dy in ((-5, 2), (5, 2), (0, -5)))


def _dunes(x: float, y: float, s: float) -> str:
    return _p(f"M{x - 13 * s:.1f},{y + 4 * s:.1f} Q{x - 6 * s:.1f},{y - 6 * s:.1f} "
              f"{x + 1 * s:.1f},{y + 4 * s:.1f} M{x - 2 * s:.1f},{y + 1 * s:.1f} "
              f"Q{x + 5 * s:.1f},{y - 8 * s:.1f} {x + 13 * s:.1f},{y + 2 * s:.1f}",
              "none", "#8c7448", 1.6 * s)


def _waves(x: float, y: float, s: float) -> str:
    d = " ".join(f"M{x - 11 * s:.1f},{y + dy * s:.1f} q{3.7 * s:.1f},{-4 * s:.1f} "
                 f"{7.3 * s:.1f},0 t{7.3 * s:.1f},0 t{7.3 * s:.1f},0" for dy in (-3, 4))
    return _p(d, "none", "#d4e6f6", 1.3 * s)


SYMBOLS = {"forest": _trees, "pasture": _sheep, "fields": _wheat, "hills": _bricks,
           "mountains": _peaks, "gold": _coins, "desert": _dunes, "sea": _waves}


def dock_points(q: int, r: int, facing: int) -> list[tuple[float, float]]:
    """The two corners of the sea hex on the side facing the land it serves."""
    centre = pixel((q, r), SIZE)
    # corner(hex, i) sits between sides i and i + 1; in pixels that is angle -60 * i - 30.
    points = []
    for i in (facing - 1, facing):
        angle = math.radians(-60 * (i % 6) - 30)
        points.append((centre[0] + SIZE * math.cos(angle), centre[1] + SIZE * math.sin(angle)))
    return points


def harbour_badge(h: dict, words: Callable[[str], str] = same) -> str:
    q, r, facing, kind = h["q"], h["r"], h["facing"], h["type"]
    sea, land = pixel((q, r), SIZE), pixel(step((q, r), facing), SIZE)
    bx, by = sea[0] + (land[0] - sea[0]) * 0.3, sea[1] + (land[1] - sea[1]) * 0.3
    ratio = "3:1" if kind == "3:1" else "2:1"
    label = words(say("3:1 harbour") if kind == "3:1"
                  else say("2:1 harbour for %(resource)s", resource=RESOURCE_NAMES.get(kind, kind)))
    lines = "".join(f'<line x1="{bx:.1f}" y1="{by:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                    f'stroke="#6d4c2f" stroke-width="3.5" stroke-linecap="round"/>'
                    for x, y in dock_points(q, r, facing))
    ring = HARBOUR_RING.get(kind, "#6d4c2f")
    word = words(kind)
    # inside the badge's ring: a bold letter is about 0.66 em wide ("Getreide", "minerai")
    size = min(7.0, round(23 / (0.66 * max(len(word), 1)), 1))
    sub = "" if kind == "3:1" else text(bx, by + 9, word, size, "#1d252b", bold=True)
    return (f'<g class="harbour"><title>{escape(label)}</title>{lines}'
            f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{SIZE * 0.33:.1f}" fill="#ffffff" '
            f'stroke="{ring}" stroke-width="{1.5 if kind == "3:1" else 3.5}"/>'
            + text(bx, by + (0 if sub else 3.5), ratio, 10, "#1d252b", bold=True) + sub
            + "</g>")
