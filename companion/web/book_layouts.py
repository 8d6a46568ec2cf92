"""The owner enters the book's layout of a Seafarers "as shown" scenario, once.

The editor draws the scenario's positions (the app's frame and one ring around it, so a book
diagram of another shape still fits) with a short label on every hex; tapping a hex jumps to
its row of the form (terrain, number chip, harbour spot). Saving replaces that layout in the
Seafarers box data (the catalogue) through the same validation as the API's PUT, so the
layout holds exactly the book's material list; every later setup lays it.
"""
from __future__ import annotations

import re

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from ..games.errors import RuleError
from ..games.messages import say
from ..games.seafarers import book, hexgrid, svg
from ..games.seafarers.scenarios import NUMBERS, SCENARIOS, TERRAINS
from ..owner import require_owner
from . import service
from .words import core

bp = Blueprint("book_layouts", __name__)
TERRAIN_NAMES = {"sea": _l("sea"), "desert": _l("wasteland (desert)"), "gold": _l("gold"),
                 "fields": _l("fields (grain)"), "hills": _l("hills (brick)"),
                 "mountains": _l("mountains (ore)"), "pasture": _l("pasture (wool)"),
                 "forest": _l("forest (lumber)")}
FACINGS = (_l("east"), _l("north-east"), _l("north-west"), _l("west"), _l("south-west"),
           _l("south-east"))


def owner_refusal() -> RuleError | None:
    """None when this request carries the owner key, else the refusal to show (401 without a
    key, 403 with a wrong one), in the words of the page rather than the API's."""
    try:
        require_owner(request)
    except RuleError as err:
        return RuleError("Only the owner's phone can change the book's layouts: open the owner "
                         "link the server shows when it starts.", None, err.code, err.status)
    return None


AT_ENTRY = re.compile(r"\.(hexes|harbours)\[(\d+)\]")


def plain_refusal(err: RuleError, entry: dict, rows: list[dict]) -> tuple[RuleError, str | None]:
    """The catalogue's refusal as the editor says it: the hex by its label (the API names a
    list index), and no JSON shapes on the page. Returns the refusal and the label at fault."""
    found = AT_ENTRY.search(err.field or "")
    if not entry["hexes"]:
        return RuleError("Nothing is entered yet: give every hex on the board its terrain.",
                         err.field, err.code, err.status), None
    if found is None:
        return err, None
    kind, index = found.group(1), int(found.group(2))
    item = entry[kind][index]
    label = next(x["label"] for x in rows if (x["q"], x["r"]) == (item["q"], item["r"]))
    what = say("Hex %(hex)s", hex=label) if kind == "hexes" else say("The harbour at %(hex)s",
                                                                     hex=label)
    return RuleError(say("%(what)s: %(message)s", what=what, message=err.message), err.field,
                     err.code, err.status), label


def parse_key(key: str):
    if key not in book.book_keys():
        abort(404)
    scenario_id, players = key.split("/")
    scenario = SCENARIOS[scenario_id]
    return scenario, int(players), scenario.layout(int(players))


def grid(layout) -> list[tuple[int, int]]:
    """The editor's positions: the frame and the ring around it, in reading order."""
    cells = set(layout.cells)
    cells |= {n for h in layout.cells for n in hexgrid.neighbours(h)}
    return sorted(cells, key=lambda h: (h[1], h[0]))


def rows_from(entry: dict | None, positions: list) -> list[dict]:
    """One form row per position, filled from an entered (or just posted) layout."""
    names = hexgrid.labels(positions)
    by_hex = {(h["q"], h["r"]): h for h in (entry or {}).get("hexes", [])}
    spots = {(h["q"], h["r"]): h["facing"] for h in (entry or {}).get("harbours", [])}
    out = []
    for q, r in positions:
        h = by_hex.get((q, r))
        terrain = "" if h is None else ("hidden" if h.get("hidden") else h["terrain"])
        out.append({"q": q, "r": r, "label": names[(q, r)], "terrain": terrain,
                    "number": "" if h is None or h.get("number") is None else h["number"],
                    "facing": spots.get((q, r), "")})
    return out


def entry_from_form(form, positions: list) -> dict:
    """The layout a posted form describes (validation comes after, in the catalogue)."""
    hexes, harbours = [], []
    for q, r in positions:
        terrain = form.get(f"t:{q}:{r}", "")
        if not terrain:
            continue
        number = form.get(f"n:{q}:{r}", "")
        if terrain == "hidden":
            hexes.append({"q": q, "r": r, "hidden": True})
        else:
            hexes.append({"q": q, "r": r, "terrain": terrain,
                          "number": int(number) if number.isdigit() else None})
        facing = form.get(f"h:{q}:{r}", "")
        if facing.isdigit():
            harbours.append({"q": q, "r": r, "facing": int(facing)})
    return {"hexes": hexes, "harbours": harbours}


def drawing(rows: list[dict], title: str) -> Markup:
    """The editor's board: every position drawn (grey until entered) with tap targets, named
    in players' words (the scenario and the player count, never the box data's key)."""
    hexes = [{"q": x["q"], "r": x["r"], "label": x["label"],
              "terrain": x["terrain"] if x["terrain"] in TERRAINS else None,
              "number": x["number"] or None, "hidden": x["terrain"] == "hidden"} for x in rows]
    overlay = "".join(
        f'<a href="#hex-{x["label"]}" aria-label="{x["label"]}">'
        f'<rect x="{b[0]}" y="{b[1]}" width="{b[2]}" height="{b[3]}" fill="transparent"/></a>'
        for x in rows for b in [svg.hex_box(x["q"], x["r"])])
    return Markup(svg.render({"hexes": hexes, "harbours": []}, title=title,
                             overlay=overlay, words=core))


@bp.get("/catalogue/seafarers/layouts")
def index():
    stored = service().catalogue("seafarers").get("layouts", {})
    items = [{"key": k, "name": SCENARIOS[k.split("/")[0]].name, "players": k.split("/")[1],
              "entered": k in stored} for k in book.book_keys()]
    return render_template("catalogue/seafarers_layouts.html", items=items)


@bp.route("/catalogue/seafarers/layouts/<scenario_id>/<int:players>", methods=["GET", "POST"])
def edit(scenario_id: str, players: int):
    key = f"{scenario_id}/{players}"
    scenario, players, layout = parse_key(key)
    positions = grid(layout)
    stored = service().catalogue("seafarers")
    entry, error, saved, status = stored.get("layouts", {}).get(key), None, False, 200
    at_fault = None
    if request.method == "POST":
        refused = owner_refusal()
        entry = entry_from_form(request.form, positions)
        if refused:
            error, status = refused, refused.status
        else:
            try:
                layouts = {**stored.get("layouts", {}), key: entry}
                service().put_catalogue("seafarers", {**stored, "layouts": layouts},
                                        f"the book's layout of {scenario.name}, "
                                        f"{players} players, entered")
                saved = True
            except RuleError as err:
                error, at_fault = plain_refusal(err, entry, rows_from(entry, positions))
                status = err.status
    rows = rows_from(entry, positions)
    return render_template(
        "catalogue/seafarers_layout.html", key=key, scenario=scenario, players=players,
        layout=layout, rows=rows, board=drawing(rows, gettext(
            "%(scenario)s, %(players)s players: the book's layout", scenario=core(scenario.name),
            players=players)), error=error, saved=saved,
        at_fault=at_fault,
        terrains=TERRAIN_NAMES, numbers=NUMBERS, facings=FACINGS,
        action=url_for("book_layouts.edit", scenario_id=scenario.id, players=players)), status
