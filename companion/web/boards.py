"""Stateless board pages: a Seafarers board from a seed in the URL, as a page and a PDF.

The URL carries everything (scenario, players, seed, fairness settings), so every phone that
opens it, by link or QR code, draws the same board. The play pages use the template globals
below to draw a play's live board with tap targets for the positions still to discover.
"""
from __future__ import annotations

import re
import secrets

from flask import Blueprint, Response, redirect, render_template, request, url_for
from markupsafe import Markup

from ..games import get_game
from ..games.errors import RuleError, say
from ..games.protocol import make_rng
from ..games.seafarers import FAIRNESS_LABELS, FAIRNESS_NAMES, hexgrid, svg, wrong_count
from ..games.seafarers.scenarios import PRODUCING, RESOURCE_OF, SCENARIOS
from ..games.seafarers.table import chip_moves, terrain_word
from ..plays import parse_seed
from ..qr import qr_svg
from . import service
from .documents import make_pdf
from .forms import coerce
from .links import site_root
from .words import core

bp = Blueprint("boards", __name__)
SEED_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
QUERY_FIELDS = ("scenario", "players", "seed", "layout", *FAIRNESS_LABELS)


def fresh_seed() -> str:
    return "".join(secrets.choice(SEED_LETTERS) for _ in range(6))


def query_field(field: str | None) -> str | None:
    """The query parameter a RuleError field names ("options.max_corner_pips" -> ...)."""
    return field.removeprefix("options.") if field else field


def parse_players(value: str | None, scenario: str) -> int:
    counts = SCENARIOS[scenario].player_counts
    if value is None or value.strip() == "":
        return max(counts)
    if not re.fullmatch(r"[0-9]{1,3}", value.strip()):      # ASCII digits only: not "²"
        raise RuleError(say("Players must be a whole number (3 or 4)."), "players")
    players = int(value)
    if players not in counts:
        raise RuleError(wrong_count(SCENARIOS[scenario], players), "players",
                        "wrong_player_count", 422)
    return players


def option_value(kind: str, text: str):
    """A query string's text as the option's JSON value (the declaration takes no text for
    a number or a switch)."""
    words = {"true": True, "on": True, "1": True, "yes": True, "false": False, "off": False,
             "0": False, "no": False, "": False}
    if kind == "bool":
        return words.get(text.strip().lower(), text)
    return coerce(text) if kind == "int" else text


def parse_query(args) -> dict:
    """scenario, players, seed and options from the query string, each checked by name."""
    game = get_game("seafarers")
    kinds = {o.name: o.kind for o in game.options}
    raw = {name: option_value(kinds[name], args[name]) for name in (*FAIRNESS_LABELS, "layout")
           if args.get(name) is not None}
    raw["scenario"] = (args.get("scenario") or "new_shores").strip()
    try:
        options = game.parse_options(raw)
    except RuleError as err:
        raise RuleError(err.message, query_field(err.field), err.code, err.status) from None
    players = parse_players(args.get("players"), options["scenario"])
    seed = parse_seed(args.get("seed") or "", "seed")
    return {"scenario": options["scenario"], "players": players, "seed": seed,
            "options": options}


def canonical_query(choice: dict) -> dict:
    """The shortest query string that draws this board (defaults left out)."""
    query = {"scenario": choice["scenario"], "players": choice["players"],
             "seed": choice["seed"]}
    game = get_game("seafarers")
    for option in game.options:
        value = choice["options"][option.name]
        if option.name in (*FAIRNESS_LABELS, "layout") and value != option.default:
            query[option.name] = int(value) if option.kind == "bool" else value
    return query


def build(args) -> dict:
    """Everything a board page or PDF shows, from the query string."""
    choice = parse_query(args)
    game = get_game("seafarers")
    names = [f"Player {i + 1}" for i in range(choice["players"])]
    try:
        setup = game.setup(names, choice["options"], make_rng(choice["seed"]),
                           service().catalogue("seafarers"))
    except RuleError as err:
        raise RuleError(err.message, query_field(err.field), err.code, err.status) from None
    query = canonical_query(choice)
    share = site_root() + url_for("boards.seafarers", **query)
    return {**choice, "setup": setup, "query": query, "share_url": share,
            "board": Markup(svg.render(setup, words=core)), "qr": Markup(qr_svg(share)),
            "pdf_url": url_for("boards.seafarers_pdf", **query),
            "new_seed_url": url_for("boards.seafarers", **{**query, "seed": fresh_seed()})}


def page_context(args) -> tuple[dict, int]:
    base = {"scenarios": SCENARIOS, "labels": FAIRNESS_LABELS, "fairness_names": FAIRNESS_NAMES,
            "game": get_game("seafarers"),
            "args": args}
    try:
        return {**base, **build(args), "error": None}, 200
    except RuleError as err:
        return {**base, "error": err, "error_field": query_field(err.field)}, err.status


@bp.get("/boards/seafarers")
def seafarers():
    if not (request.args.get("seed") or "").strip():
        query = {k: v for k, v in request.args.items() if k in QUERY_FIELDS and k != "seed"}
        return redirect(url_for("boards.seafarers", **query, seed=fresh_seed()))
    context, status = page_context(request.args)
    return render_template("boards/seafarers.html", **context), status


@bp.get("/boards/seafarers.pdf")
def seafarers_pdf():
    context, status = page_context(request.args)
    if context["error"]:
        err = context["error"]
        field = context["error_field"]
        message = say("%(field)s: %(message)s", field=field, message=err.message) if field \
            else err.message
        return render_template("error.html", status=status, message=message), status
    html = render_template("boards/seafarers_pdf.html", **context)
    name = re.sub(r"[^A-Za-z0-9_-]", "", f"{context['scenario']}-{context['seed']}")[:60]
    return Response(make_pdf(html, "_boards"), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="seafarers-{name}.pdf"'})


# ---- the play pages' helpers (templates/games/seafarers/*)
def small_island_cells(scenario_id: str) -> set:
    cells = SCENARIOS[scenario_id].layouts[0].cells
    return {hex_ for hex_, symbol in cells.items() if symbol == "L"}


@bp.app_template_global()
def seafarers_spots(state: dict) -> list[dict]:
    """The positions a tap can discover now: Oceans' face-down ones while the stack lasts,
    Greater Catan's small-island tiles without a chip while the bag lasts."""
    table, scenario = state["table"], SCENARIOS[state["options"]["scenario"]]
    names = hexgrid.labels((h["q"], h["r"]) for h in table["hexes"])
    if scenario.chip_bag:
        if not table["stacks"]["numbers"]:
            return []
        small = small_island_cells(scenario.id)
        return [{"q": h["q"], "r": h["r"],
                 "label": core(say("Draw a chip for the %(terrain)s at %(hex_name)s",
                                   terrain=terrain_word(h["terrain"]),
                                   hex_name=names[(h["q"], h["r"])]))}
                for h in table["hexes"]
                if (h["q"], h["r"]) in small and h["terrain"] in PRODUCING and not h["number"]]
    if not table["stacks"]["tiles"]:
        return []
    return [{"q": h["q"], "r": h["r"],
             "label": core(say("Discover the face-down position at %(hex_name)s",
                               hex_name=names[(h["q"], h["r"])]))}
            for h in table["hexes"] if h["hidden"]]


@bp.app_template_global()
def seafarers_moves(state: dict) -> list[dict]:
    """Greater Catan once the bag is empty: the chip moves the book allows now, in its
    order of fallbacks (the move_chip event); each with a label in board names."""
    moves = chip_moves(state)
    for m in moves:
        m["label"] = core(say("%(number)s from the %(from_terrain)s at %(from_name)s to the "
                              "%(terrain)s at %(hex_name)s", number=m["number"],
                              from_terrain=m["from_terrain"], from_name=m["from_label"],
                              terrain=m["to_terrain"], hex_name=m["to_label"]))
    return moves


@bp.app_template_global()
def seafarers_board(setup: dict, hexes: list | None = None, overlay: str = "") -> Markup:
    """The board SVG (svg.render escapes every text it draws); ``overlay`` is markup the
    template built (autoescaped there) for tap targets."""
    drawn = {**setup, "hexes": hexes if hexes is not None else setup["hexes"]}
    return Markup(svg.render(drawn, overlay=str(overlay), words=core))


@bp.app_template_global()
def seafarers_hex_box(q: int, r: int) -> tuple:
    return svg.hex_box(q, r)


LEGEND = (("fields", "grain"), ("hills", "brick"), ("mountains", "ore"), ("pasture", "wool"),
          ("forest", "lumber"), ("gold", "any resource"), ("desert", "wasteland"),
          ("sea", "sea"))


@bp.app_template_global()
def seafarers_legend() -> list[dict]:
    """Terrain, what it yields and its colour on the board, for a legend."""
    return [{"terrain": t, "yields": y, "colour": svg.COLOURS[t], "word": core(t),
             "yields_word": core(y)} for t, y in LEGEND]


@bp.app_template_global()
def seafarers_resource_colour(resource: str) -> str:
    terrain = next((t for t, r in RESOURCE_OF.items() if r == resource), None)
    return svg.COLOURS.get(terrain, "#888888")
