"""The book's layouts of the "as shown" scenarios, entered once by the owner.

The 1997 book lays Four Islands, Oceans and Through the Wasteland "as shown" in diagrams our
text does not have, so the app must not invent them. The owner enters a scenario's layout
once (terrain and number of every hex, the harbour spots) and it is kept with the Seafarers
box data (the catalogue, ``{"layouts": {"four_islands/3": {...}}}``); every later setup lays
it. The harbour pieces are still dealt at random onto the entered spots each time, as the
book says ("placed face up, one by one ... in a random order in the places shown").

Until a layout is entered, a setup shows the positions with ``terrain`` null and the material
counts, and tells the table to lay the tiles as in its rulebook's diagram.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import DUPLICATE, RuleError
from ..inputs import check_int, check_object
from ..messages import say, series
from . import hexgrid
from .scenarios import (
    NUMBERS,
    PRODUCING,
    SCENARIOS,
    TERRAINS,
    Layout,
    Scenario,
    terrain_word,
)

COORD_LIMIT = 30
MAX_HEXES = 120
MAX_FACING = len(hexgrid.DIRECTIONS) - 1     # a harbour's facing indexes hexgrid.DIRECTIONS
HEX_FIELDS = ("q", "r", "terrain", "number", "hidden", "label")
HARBOUR_FIELDS = ("q", "r", "facing", "type")
# A harbour's spot must fit the layout's own hexes: no JSON Schema can say that (nor the
# material list, "wrong_material"), so the API document lists these codes.
OFF_COAST = "harbour_not_on_coast"


def layout_key(scenario: Scenario, players: int) -> str:
    return f"{scenario.id}/{players}"


def book_keys() -> list[str]:
    """Every layout the owner can enter: an "as shown" scenario and its player count."""
    return [layout_key(s, n) for s in SCENARIOS.values() if s.as_shown
            for n in s.player_counts]


def empty_catalogue() -> dict:
    return {"layouts": {}}


def validate_catalogue(data: Any) -> dict:
    """The cleaned Seafarers box data, or a RuleError naming the bad entry."""
    check_object(data, ("layouts",), None, say("The catalogue must be a JSON object."),
                 say("Unknown catalogue entry '%(key)s'."))
    layouts = data.get("layouts", {})
    if not isinstance(layouts, dict):
        raise RuleError("layouts must be an object of {scenario/players: layout}.", "layouts")
    clean = {}
    for key, entry in layouts.items():
        if key not in book_keys():
            raise RuleError(say("'%(key)s' is not a scenario laid out as shown in the book; "
                                "these are: %(keys)s.", key=key,
                                keys=series(book_keys(), ", ")),
                            f"layouts.{key}", "unknown_field")
        scenario_id, players = key.split("/")
        scenario = SCENARIOS[scenario_id]
        clean[key] = validate_layout(scenario, scenario.layout(int(players)), int(players),
                                     entry, f"layouts.{key}")
    return {"layouts": clean}


# --------------------------------------------------------------------------- one layout
def validate_layout(scenario: Scenario, layout: Layout, players: int, entry: Any,
                    where: str) -> dict:
    """One entered layout: {"hexes": [{q, r, terrain, number, hidden}], "harbours": [{q, r,
    facing}]}, holding exactly the book's material for this player count."""
    check_object(entry, ("hexes", "harbours"), where, say("A layout needs hexes and harbours."))
    hexes = parse_hexes(entry.get("hexes"), f"{where}.hexes")
    harbours = parse_harbours(entry.get("harbours"), hexes, f"{where}.harbours")
    check_material(scenario, layout, players, hexes, harbours, where)
    return {"hexes": [hexes[h] for h in sorted(hexes, key=lambda h: (h[1], h[0]))],
            "harbours": harbours}


def parse_hexes(raw: Any, where: str) -> dict:
    if not isinstance(raw, list) or not raw:
        raise RuleError("List the board's hexes: [{q, r, terrain, number}].", where)
    if len(raw) > MAX_HEXES:
        raise RuleError(say("A layout holds at most %(count)s hexes.", count=MAX_HEXES), where)
    out: dict = {}
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        check_object(item, HEX_FIELDS, at, say("Each hex needs q, r and a terrain."))
        ignored_text(item, "label", at)
        q = check_int(item.get("q"), f"{at}.q", "q", -COORD_LIMIT, COORD_LIMIT)
        r = check_int(item.get("r"), f"{at}.r", "r", -COORD_LIMIT, COORD_LIMIT)
        if (q, r) in out:
            raise RuleError("Two hexes share one position.", f"{at}.q", DUPLICATE)
        out[(q, r)] = parse_hex(item, q, r, at)
    return out


def parse_hex(item: dict, q: int, r: int, at: str) -> dict:
    hidden = item.get("hidden")
    if hidden is not None and not isinstance(hidden, bool):
        raise RuleError("hidden must be true (a face-down position) or false.", f"{at}.hidden")
    terrain, number = item.get("terrain"), item.get("number")
    if hidden:
        if terrain is not None or number is not None:
            raise RuleError("A face-down position has no terrain or number yet.", f"{at}.terrain")
        return {"q": q, "r": r, "terrain": None, "number": None, "hidden": True}
    if terrain not in TERRAINS:
        raise RuleError(say("Terrain must be one of: %(terrains)s.", terrains=", ".join(TERRAINS)),
                        f"{at}.terrain")
    if terrain in PRODUCING:
        if number not in NUMBERS:
            raise RuleError("A producing tile needs a number chip: 2 to 12 but not 7.",
                            f"{at}.number")
    elif number is not None:
        raise RuleError(say("A %(terrain)s tile takes no number chip.",
                            terrain=terrain_word(terrain)), f"{at}.number")
    return {"q": q, "r": r, "terrain": terrain, "number": number, "hidden": False}


def parse_harbours(raw: Any, hexes: dict, where: str) -> list[dict]:
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise RuleError("harbours must be a list of {q, r, facing}.", where)
    out, seen = [], set()
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        check_object(item, HARBOUR_FIELDS, at, say("Each harbour needs q, r, facing."))
        ignored_text(item, "type", at)
        q = check_int(item.get("q"), f"{at}.q", "q", -COORD_LIMIT, COORD_LIMIT)
        r = check_int(item.get("r"), f"{at}.r", "r", -COORD_LIMIT, COORD_LIMIT)
        facing = check_int(item.get("facing"), f"{at}.facing", "facing", 0, MAX_FACING)
        sea = hexes.get((q, r))
        if sea is None or sea["terrain"] != "sea":
            raise RuleError("A harbour lies on a sea hex of the layout.", f"{at}.q", OFF_COAST)
        land = hexes.get(hexgrid.step((q, r), facing))
        if land is None or land["terrain"] == "sea":
            raise RuleError("A harbour faces a land hex (or a face-down position).",
                            f"{at}.facing", OFF_COAST)
        if (q, r, facing) in seen:
            raise RuleError("Two harbours share one spot.", at, DUPLICATE)
        seen.add((q, r, facing))
        out.append({"q": q, "r": r, "facing": facing})
    return out


def ignored_text(item: dict, key: str, at: str) -> None:
    """A hex's label and a harbour's type, as a setup answers them, are taken and ignored (the
    app labels the hexes and deals the harbour pieces itself), but only as text."""
    if item.get(key) is not None and not isinstance(item[key], str):
        raise RuleError(say("%(key)s is ignored here, but must be a text when given.", key=key),
                        f"{at}.{key}")


def check_material(scenario, layout, players, hexes, harbours, where) -> None:
    """The layout holds exactly the book's list for this player count."""
    name = say("%(scenario)s for %(count)s players", scenario=scenario.name, count=players)
    tiles = Counter(h["terrain"] for h in hexes.values() if not h["hidden"])
    for terrain in TERRAINS:
        want, have = layout.tiles.get(terrain, 0), tiles.get(terrain, 0)
        if want != have:
            raise RuleError(say("%(name)s lists %(count)s %(terrain)s tiles face up; the layout "
                                "has %(have)s.", name=name, count=want,
                                terrain=terrain_word(terrain), have=have),
                            f"{where}.hexes", "wrong_material")
    hidden = sum(1 for h in hexes.values() if h["hidden"])
    if hidden != sum(layout.hidden_tiles.values()):
        raise RuleError(say("%(name)s has %(count)s face-down positions; the layout has "
                            "%(have)s.", name=name, count=sum(layout.hidden_tiles.values()),
                            have=hidden), f"{where}.hexes", "wrong_material")
    chips = Counter(h["number"] for h in hexes.values() if h["number"] is not None)
    for number in NUMBERS:
        want, have = layout.chips.get(number, 0), chips.get(number, 0)
        if want != have:
            raise RuleError(say("%(name)s lists %(count)s number chips of %(number)s; the "
                                "layout has %(have)s.", name=name, count=want, number=number,
                                have=have), f"{where}.hexes", "wrong_material")
    if len(harbours) != sum(layout.harbours.values()):
        raise RuleError(say("%(name)s lists %(count)s harbours; the layout has %(have)s harbour "
                            "spots.", name=name, count=sum(layout.harbours.values()),
                            have=len(harbours)), f"{where}.harbours", "wrong_material")


# --------------------------------------------------------------------------- setups
def entered(catalogue: dict, scenario: Scenario, players: int) -> dict | None:
    return (catalogue or {}).get("layouts", {}).get(layout_key(scenario, players))


def frame_only(layout: Layout) -> list[dict]:
    """The positions, with terrain and number left to the rulebook's diagram."""
    names = hexgrid.labels(layout.cells)
    return [{"q": q, "r": r, "label": names[(q, r)], "terrain": None, "number": None,
             "hidden": False} for (q, r) in sorted(layout.cells, key=lambda h: (h[1], h[0]))]


def lay_entered(entry: dict, layout: Layout, rng) -> dict:
    """The owner's layout: hexes as entered, the harbour pieces dealt at random onto the
    entered spots, the face-down tiles and chips shuffled (Oceans)."""
    names = hexgrid.labels((h["q"], h["r"]) for h in entry["hexes"])
    hexes = [{**h, "label": names[(h["q"], h["r"])]} for h in entry["hexes"]]
    kinds = sorted(k for k, n in layout.harbours.items() for _ in range(n))
    rng.shuffle(kinds)
    harbours = [{**spot, "type": kind} for spot, kind in zip(entry["harbours"], kinds,
                                                               strict=True)]
    tiles = sorted(t for t, n in layout.hidden_tiles.items() for _ in range(n))
    numbers = sorted(c for c, n in layout.hidden_chips.items() for _ in range(n))
    rng.shuffle(tiles)
    rng.shuffle(numbers)
    return {"hexes": hexes, "harbours": harbours, "stacks": {"tiles": tiles,
                                                             "numbers": numbers}}


