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
from typing import Annotated, Any

from pydantic import ConfigDict, Field, create_model, model_validator

from ..bodies import Body, box_data, one_of, refuse, whole
from ..errors import DUPLICATE, RuleError
from ..messages import say, say_n
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
# A harbour's spot must fit the layout's own hexes, a rule across entries like the material
# list ("wrong_material"): a 422 each.
OFF_COAST = "harbour_not_on_coast"


def layout_key(scenario: Scenario, players: int) -> str:
    return f"{scenario.id}/{players}"


def book_keys() -> list[str]:
    """Every layout the owner can enter: an "as shown" scenario and its player count."""
    return [layout_key(s, n) for s in SCENARIOS.values() if s.as_shown
            for n in s.player_counts]


Coord = whole(-COORD_LIMIT, COORD_LIMIT)
FACE_DOWN = {"required": ["hidden"], "properties": {"hidden": {"const": True}}}
NULL = {"type": "null"}
HEX_KINDS = {"anyOf": [
    {**FACE_DOWN, "properties": {**FACE_DOWN["properties"], "terrain": NULL, "number": NULL}},
    {"not": FACE_DOWN, "required": ["terrain", "number"],
     "properties": {"terrain": {"enum": list(PRODUCING)}, "number": {"enum": list(NUMBERS)}}},
    {"not": FACE_DOWN, "required": ["terrain"], "properties": {
        "terrain": {"enum": [t for t in TERRAINS if t not in PRODUCING]}, "number": NULL}}]}


class SeafarersHex(Body):
    """A hex of the layout: face down (hidden), or a terrain with its number chip (a producing
    one) or none (sea, wasteland)."""
    model_config = ConfigDict(json_schema_extra=HEX_KINDS)
    q: Coord
    r: Coord
    terrain: one_of(TERRAINS) | None = None
    number: one_of(NUMBERS) | None = None
    hidden: Annotated[bool | None, Field(description="true: face down")] = False
    label: Annotated[str | None, Field(exclude=True, description="Ignored: the app labels the "
                                                                 "hexes itself.")] = None

    @model_validator(mode="after")
    def one_kind(self):
        self.hidden = bool(self.hidden)
        if self.hidden and (self.terrain, self.number) != (None, None):
            raise refuse(say("A face-down position has no terrain or number yet."), "terrain")
        if not self.hidden and self.terrain is None:
            raise refuse(say("Terrain must be one of: %(terrains)s.",
                             terrains=", ".join(TERRAINS)), "terrain")
        if self.terrain in PRODUCING and self.number is None:
            raise refuse(say("A producing tile needs a number chip: 2 to 12 but not 7."),
                         "number")
        if self.terrain not in PRODUCING and self.number is not None:
            raise refuse(say("A %(terrain)s tile takes no number chip.",
                             terrain=terrain_word(self.terrain)), "number")
        return self


class SeafarersHarbourSpot(Body):
    """A harbour's spot: a sea hex and the side (an index into the six directions) facing
    the land it serves."""
    q: Coord
    r: Coord
    facing: whole(0, MAX_FACING)
    type: Annotated[str | None, Field(exclude=True, description="Ignored: the pieces are "
                                      "dealt onto the spots at each setup.")] = None


class SeafarersLayout(Body):
    """One layout: every hex and the harbour spots, holding exactly the book's material list
    for the scenario and player count (else a 422 wrong_material); a harbour lies on a sea hex
    facing a land hex (harbour_not_on_coast); positions and spots differ (duplicate_entry)."""
    hexes: Annotated[list[SeafarersHex], Field(min_length=1, max_length=MAX_HEXES)]
    harbours: list[SeafarersHarbourSpot] | None = None


CatalogueSeafarers = create_model(
    "CatalogueSeafarers", __base__=Body,
    __doc__="Seafarers: the book's layouts of the scenarios laid out as shown.",
    layouts=(create_model("SeafarersLayouts", __base__=Body,
                          **{key: (SeafarersLayout, None) for key in book_keys()}), None))


def validate_catalogue(data: Any) -> dict:
    """The box data as kept, or a RuleError naming the entry (400 shape, 422 rule)."""
    return box_data(CatalogueSeafarers, data, catalogue_rules)


def catalogue_rules(clean: dict) -> None:
    """Each layout entered: its positions and spots differ, its harbours lie on the coast,
    it holds the book's material; kept as {"layouts": {key: layout}} of those entered."""
    layouts = {}
    for key, entry in (clean.get("layouts") or {}).items():
        if entry is None:
            continue
        scenario_id, players = key.split("/")
        scenario = SCENARIOS[scenario_id]
        layouts[key] = laid_out(scenario, scenario.layout(int(players)), int(players), entry,
                                f"layouts.{key}")
    clean["layouts"] = layouts


def laid_out(scenario: Scenario, layout: Layout, players: int, entry: dict,
             where: str) -> dict:
    hexes = {}
    for i, item in enumerate(entry["hexes"]):
        if (item["q"], item["r"]) in hexes:
            raise RuleError("Two hexes share one position.", f"{where}.hexes[{i}].q", DUPLICATE,
                            422)
        hexes[(item["q"], item["r"])] = item
    harbours = coast_spots(entry["harbours"] or [], hexes, f"{where}.harbours")
    check_material(scenario, layout, players, hexes, harbours, where)
    return {"hexes": [hexes[h] for h in sorted(hexes, key=lambda h: (h[1], h[0]))],
            "harbours": harbours}


def coast_spots(spots: list[dict], hexes: dict, where: str) -> list[dict]:
    out, seen = [], set()
    for i, spot in enumerate(spots):
        at, (q, r, facing) = f"{where}[{i}]", (spot["q"], spot["r"], spot["facing"])
        sea = hexes.get((q, r))
        if sea is None or sea["terrain"] != "sea":
            raise RuleError("A harbour lies on a sea hex of the layout.", f"{at}.q", OFF_COAST,
                            422)
        land = hexes.get(hexgrid.step((q, r), facing))
        if land is None or land["terrain"] == "sea":
            raise RuleError("A harbour faces a land hex (or a face-down position).",
                            f"{at}.facing", OFF_COAST, 422)
        if (q, r, facing) in seen:
            raise RuleError("Two harbours share one spot.", at, DUPLICATE, 422)
        seen.add((q, r, facing))
        out.append(spot)
    return out


def check_material(scenario, layout, players, hexes, harbours, where) -> None:
    """The layout holds exactly the book's list for this player count."""
    name = say("%(scenario)s for %(count)s players", scenario=scenario.name, count=players)
    tiles = Counter(h["terrain"] for h in hexes.values() if not h["hidden"])
    for terrain in TERRAINS:
        want, have = layout.tiles.get(terrain, 0), tiles.get(terrain, 0)
        if want != have:
            raise RuleError(say_n("%(scenario)s lists %(count)s %(terrain)s tile face up; the "
                                  "layout has %(have)s.", "%(scenario)s lists %(count)s "
                                  "%(terrain)s tiles face up; the layout has %(have)s.", want,
                                  scenario=name, terrain=terrain_word(terrain), have=have),
                            f"{where}.hexes", "wrong_material", 422)
    hidden = sum(1 for h in hexes.values() if h["hidden"])
    if hidden != sum(layout.hidden_tiles.values()):
        raise RuleError(say_n("%(scenario)s has %(count)s face-down position; the layout has "
                              "%(have)s.", "%(scenario)s has %(count)s face-down positions; the "
                              "layout has %(have)s.", sum(layout.hidden_tiles.values()),
                              scenario=name, have=hidden), f"{where}.hexes", "wrong_material",
                        422)
    chips = Counter(h["number"] for h in hexes.values() if h["number"] is not None)
    for number in NUMBERS:
        want, have = layout.chips.get(number, 0), chips.get(number, 0)
        if want != have:
            raise RuleError(say_n("%(scenario)s lists %(count)s number chip of %(number)s; the "
                                  "layout has %(have)s.", "%(scenario)s lists %(count)s number "
                                  "chips of %(number)s; the layout has %(have)s.", want,
                                  scenario=name, number=number, have=have),
                            f"{where}.hexes", "wrong_material", 422)
    if len(harbours) != sum(layout.harbours.values()):
        raise RuleError(say("%(scenario)s lists %(harbours)s; the layout has %(spots)s.",
                            scenario=name, harbours=say_n("%(count)s harbour", "%(count)s harbours",
                                                          sum(layout.harbours.values())),
                            spots=say_n("%(count)s harbour spot", "%(count)s harbour spots",
                                        len(harbours))), f"{where}.harbours",
                        "wrong_material", 422)


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


