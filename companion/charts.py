"""Scores by round from a play's log, drawn as plain SVG; statistics across finished plays.

Pure: no Flask, no SQL. The SVG uses presentation attributes only (no style attributes, no
script), so it passes the page's strict CSP inline and renders the same as an <img>.
"""
from __future__ import annotations

from html import escape

from .plays import apply_event, score_of

COLOUR_HEX = {"red": "#d33333", "blue": "#2a6fd6", "green": "#2e9d4a", "yellow": "#c9a30a",
              "purple": "#8a4fd0", "black": "#222222", "white": "#8a9aa6", "orange": "#e07a10"}
DASHES = ("", "6 3", "2 3", "8 3 2 3")


# --------------------------------------------------------------------------- series
def totals_of(state: dict) -> dict | None:
    score = score_of(state)
    if "error" in score:
        return None
    return {p["name"]: p["total"] for p in score["players"]}


def round_series(initial: dict, events: list[dict]) -> list[dict]:
    """Totals at the start, at the end of every round, and now (or at the end):
    [{"label", "round", "totals": {name: total}}]. Points whose score cannot be computed yet
    (e.g. box data missing) are left out."""
    points = [_point("Start", 0, initial)]
    state = initial
    for event in events:
        before = state["round"]
        state = apply_event(state, event, check_whole=False)
        if state["round"] > before:
            points.append(_point(f"Round {before}", before, state))
    last = "Final" if state["finished"] else f"Round {state['round']} (now)"
    points.append(_point(last, state["round"], state))
    return [p for p in points if p["totals"] is not None]


def _point(label: str, round_no: int, state: dict) -> dict:
    return {"label": label, "round": round_no, "totals": totals_of(state)}


# --------------------------------------------------------------------------- the chart
def line_chart_svg(series: list[dict], players: list[dict], title: str,
                   width: int = 360, height: int = 250) -> str:
    """A line per player (seat colour plus a dash pattern, so colour is never the only cue),
    a labelled y axis from 0, one x position per point, and a legend."""
    left, right, top, bottom = 34, 14, 14, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value, step = _nice_scale(max([v for p in series for v in p["totals"].values()] + [0]))
    count = max(len(series) - 1, 1)

    def x(i: int) -> float:
        return round(left + plot_w * i / count, 1)

    def y(v: float) -> float:
        return round(top + plot_h * (1 - v / top_value), 1)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-labelledby="chart-title" '
             f'class="chart" font-family="DejaVu Sans, sans-serif" font-size="11">',
             f'<title id="chart-title">{escape(title)}</title>']
    parts += _grid(top_value, step, left, width - right, y)
    for i, point in enumerate(series):
        anchor = "end" if i == len(series) - 1 and len(series) > 1 else \
            ("start" if i == 0 else "middle")
        parts.append(f'<text x="{x(i)}" y="{top + plot_h + 16}" text-anchor="{anchor}" '
                     f'fill="currentColor">{escape(axis_label(point))}</text>')
    for n, seat in enumerate(players):
        parts += _line(seat, n, series, x, y)
    parts += _legend(players, left, height - 14)
    parts.append("</svg>")
    return "\n".join(parts)


def axis_label(point: dict) -> str:
    """Short enough for eight labels across a phone: Start, R1 ... R6, Now or End."""
    label = point["label"]
    if label == "Final":
        return "End"
    if label.endswith("(now)"):
        return "Now"
    return f"R{point['round']}" if label.startswith("Round") else label


def _nice_scale(value: float) -> tuple[int, int]:
    """(top of the axis, gridline step): a round step, at most five steps up to the top."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000):
        if value <= step * 5:
            return max(1, -int(-value // step)) * step, step
    return int(value) + 1, int(value) + 1


def _grid(top_value: int, step: int, x0: int, x1: int, y) -> list[str]:
    out = []
    for v in range(0, top_value + 1, step):
        out.append(f'<line x1="{x0}" x2="{x1}" y1="{y(v)}" y2="{y(v)}" stroke="currentColor" '
                   f'stroke-opacity="{0.5 if v == 0 else 0.15}" stroke-width="1"/>')
        out.append(f'<text x="{x0 - 6}" y="{y(v) + 4}" text-anchor="end" '
                   f'fill="currentColor">{v}</text>')
    return out


def _line(seat: dict, n: int, series: list[dict], x, y) -> list[str]:
    colour = COLOUR_HEX.get(seat.get("colour"), "#555555")
    points = [(x(i), y(p["totals"].get(seat["name"], 0))) for i, p in enumerate(series)]
    coords = " ".join(f"{a},{b}" for a, b in points)
    dash = DASHES[n % len(DASHES)]
    out = [f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="3" '
           f'stroke-linejoin="round" stroke-linecap="round"'
           + (f' stroke-dasharray="{dash}"' if dash else "") + '>'
           f'<title>{escape(seat["name"])}</title></polyline>']
    out += [f'<circle cx="{a}" cy="{b}" r="3.5" fill="{colour}"/>' for a, b in points]
    return out


def _legend(players: list[dict], x0: int, y0: int) -> list[str]:
    out, x = [], x0
    for n, seat in enumerate(players):
        colour = COLOUR_HEX.get(seat.get("colour"), "#555555")
        dash = DASHES[n % len(DASHES)]
        out.append(f'<line x1="{x}" x2="{x + 22}" y1="{y0}" y2="{y0}" stroke="{colour}" '
                   f'stroke-width="3"' + (f' stroke-dasharray="{dash}"' if dash else "") + '/>')
        name = _short(seat["name"], 14)
        out.append(f'<text x="{x + 27}" y="{y0 + 4}" fill="currentColor">{escape(name)}</text>')
        x += 36 + 7 * len(name)
    return out


def _short(text: str, limit: int = 16) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# --------------------------------------------------------------------------- statistics
def player_stats(summaries: list[dict]) -> list[dict]:
    """Per player name (case-insensitive) across finished plays' summaries
    ({"winners", "totals"}): plays, wins, average and best score; most wins first. A play
    whose end-game rows are still to enter (``to_enter``) is left out: no early winner."""
    by_key: dict[str, dict] = {}
    for summary in summaries:
        if not summary or not summary.get("totals") or summary.get("to_enter"):
            continue
        winners = {w.casefold() for w in summary.get("winners") or []}
        for name, total in summary["totals"].items():
            entry = by_key.setdefault(name.casefold(), {"name": name, "plays": 0, "wins": 0,
                                                        "scores": []})
            entry["plays"] += 1
            entry["wins"] += name.casefold() in winners
            entry["scores"].append(total)
    out = []
    for entry in by_key.values():
        scores = entry.pop("scores")
        out.append({**entry, "average": round(sum(scores) / len(scores), 1),
                    "best": max(scores)})
    return sorted(out, key=lambda e: (-e["wins"], -e["average"], e["name"].casefold()))


def duration_stats(plays: list[tuple[str, int, int | None]]) -> list[dict]:
    """How long plays take, per game and player count, from (game, players, seconds) of finished
    plays (seconds None: a play without a clock, left out): [{"game", "players", "plays",
    "average_s"}], by game then player count."""
    groups: dict[tuple[str, int], list[int]] = {}
    for game, players, seconds in plays:
        if isinstance(seconds, int) and seconds > 0:
            groups.setdefault((game, players), []).append(seconds)
    return [{"game": game, "players": players, "plays": len(times),
             "average_s": round(sum(times) / len(times))}
            for (game, players), times in sorted(groups.items())]
