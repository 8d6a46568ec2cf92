"""A board as a plain SVG string: no scripts, no external fonts, every text escaped.

Drawn for a phone (a viewBox, so it scales and zooms) and for print (WeasyPrint): hexes in
terrain colours with the resource named, chips with their number and pips (6 and 8 in red),
harbours as a ratio badge tied by two docks to the coast they serve, face-down positions as ?.
"""
from __future__ import annotations

import math
from html import escape

from .hexgrid import pixel, step
from .scenarios import PIPS, RED, RESOURCE_OF

SIZE = 40.0
FONT = "font-family=\"Helvetica, Arial, sans-serif\""
COLOURS = {"sea": "#5b9bd5", "desert": "#d9c38f", "gold": "#f1c232", "fields": "#f6dc6b",
           "hills": "#c4653a", "mountains": "#9e9e9e", "pasture": "#a5d46a",
           "forest": "#3d8b40", None: "#c9c9c9"}
LABELS = {"desert": "wasteland", "gold": "gold", **{t: r for t, r in RESOURCE_OF.items()
                                                    if t != "gold"}}


def render(setup: dict, title: str | None = None) -> str:
    """The board of a seafarers ``setup`` (hexes, harbours) as an SVG document string."""
    hexes = setup.get("hexes", [])
    name = title or f"{setup.get('scenario_name', 'Seafarers')} board"
    x0, y0, width, height = view_box(hexes)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} '
             f'{width:.1f} {height:.1f}" width="100%" role="img" '
             f'aria-label="{escape(name)}" {FONT}>',
             f"<title>{escape(name)}</title>"]
    parts += [hex_shape(h) for h in hexes]
    parts += [harbour_badge(h) for h in setup.get("harbours", [])]
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


def corner_point(centre: tuple[float, float], i: int, scale: float = 1.0) -> tuple:
    angle = math.radians(60 * i - 30)
    return (centre[0] + SIZE * scale * math.cos(angle), centre[1] + SIZE * scale * math.sin(angle))


def polygon(centre: tuple[float, float], scale: float = 0.97) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner_point(centre, i, scale)
                                                     for i in range(6)))


def describe(h: dict) -> str:
    if h.get("hidden"):
        return "face-down position"
    words = [h.get("terrain") or "unknown"]
    if h.get("number"):
        words.append(str(h["number"]))
    return " ".join(words)


def hex_shape(h: dict) -> str:
    centre = pixel((h["q"], h["r"]), SIZE)
    terrain = None if h.get("hidden") else h.get("terrain")
    out = [f"<g><title>{escape(describe(h))} ({h['q']}, {h['r']})</title>",
           f'<polygon points="{polygon(centre)}" fill="{COLOURS.get(terrain, "#ccc")}" '
           f'stroke="#ffffff" stroke-width="1.5"/>']
    cx, cy = centre
    if h.get("hidden"):
        out.append(text(cx, cy + 9, "?", 26, "#444444", bold=True))
    elif terrain in LABELS:
        out.append(text(cx, cy - SIZE * 0.52, LABELS[terrain], 8.5, "#222222"))
    if h.get("number") and not h.get("hidden"):
        out.append(chip(cx, cy + 4, h["number"]))
    out.append("</g>")
    return "".join(out)


def text(x: float, y: float, value: str, size: float, fill: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
            f'text-anchor="middle"{weight}>{escape(str(value))}</text>')


def chip(cx: float, cy: float, number: int) -> str:
    colour = "#c0392b" if number in RED else "#222222"
    pips = PIPS.get(number, 0)
    dots = "".join(f'<circle cx="{cx + (i - (pips - 1) / 2) * 3.6:.1f}" cy="{cy + 8:.1f}" '
                   f'r="1.3" fill="{colour}"/>' for i in range(pips))
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.36:.1f}" fill="#fbf3dc" '
            f'stroke="#6d5c3d" stroke-width="1"/>'
            + text(cx, cy + 3, str(number), 13, colour, bold=True) + dots)


def dock_points(q: int, r: int, facing: int) -> list[tuple[float, float]]:
    """The two corners of the sea hex on the side facing the land it serves."""
    centre = pixel((q, r), SIZE)
    # corner(hex, i) sits between sides i and i + 1; in pixels that is angle -60 * i - 30.
    points = []
    for i in (facing - 1, facing):
        angle = math.radians(-60 * (i % 6) - 30)
        points.append((centre[0] + SIZE * math.cos(angle), centre[1] + SIZE * math.sin(angle)))
    return points


def harbour_badge(h: dict) -> str:
    q, r, facing, kind = h["q"], h["r"], h["facing"], h["type"]
    sea, land = pixel((q, r), SIZE), pixel(step((q, r), facing), SIZE)
    bx, by = sea[0] + (land[0] - sea[0]) * 0.3, sea[1] + (land[1] - sea[1]) * 0.3
    ratio = "3:1" if kind == "3:1" else "2:1"
    label = f"{ratio} harbour" + ("" if kind == "3:1" else f" for {kind}")
    lines = "".join(f'<line x1="{bx:.1f}" y1="{by:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                    f'stroke="#6d4c2f" stroke-width="3" stroke-linecap="round"/>'
                    for x, y in dock_points(q, r, facing))
    sub = "" if kind == "3:1" else text(bx, by + 8, kind, 6.5, "#222222")
    return (f"<g><title>{escape(label)}</title>{lines}"
            f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{SIZE * 0.3:.1f}" fill="#ffffff" '
            f'stroke="#6d4c2f" stroke-width="1.2"/>'
            + text(bx, by + (0 if sub else 3), ratio, 9, "#222222", bold=True) + sub + "</g>")

