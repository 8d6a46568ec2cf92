"""A play at the table: the live board in ``state["table"]`` and the events that change it.

``state["table"]`` holds ``hexes`` (the board as it lies now), ``stacks`` (what is still face
down or in the bag, in draw order) and ``notices`` (sentences for the page, newest last).

Events (``apply``):
- ``discover`` {q, r}: Oceans: turn up the next face-down tile at a ``?`` position, with the
  next chip when it is producing land. Greater Catan: draw the next chip from the bag onto a
  small-island tile that has none.
- ``move_chip`` {from_q, from_r, q, r}: Greater Catan once the bag is empty: move a chip from
  a main-island tile to a small-island tile without one (the table checks rules a-c).
"""
from __future__ import annotations

import copy

from ..bodies import Body, On, whole
from ..errors import RuleError
from ..messages import say
from . import hexgrid
from .board import label_of
from .scenarios import PRODUCING, RED, RESOURCE_NAMES, RESOURCE_OF, SCENARIOS, terrain_word

COORD_LIMIT = 100


def start_table(state: dict) -> dict:
    setup = state["setup"]
    state["table"] = {"hexes": copy.deepcopy(setup["hexes"]),
                      "stacks": copy.deepcopy(setup["stacks"]), "notices": []}
    return state


Coordinate = whole(-COORD_LIMIT, COORD_LIMIT, say("A hex coordinate"))


class SeafarersDiscover(Body):
    """Turn up a face-down position (Oceans), or draw a chip onto a small island (Greater
    Catan); a position not on the board is a 422 unknown_position."""
    q: Coordinate
    r: Coordinate


class SeafarersMoveChip(Body):
    """Greater Catan, once the bag is empty: move a chip to a small-island tile."""
    from_q: Coordinate
    from_r: Coordinate
    q: Coordinate
    r: Coordinate


def find_hex(table: dict, q: int, r: int, field: str = "data.q") -> dict:
    for h in table["hexes"]:
        if (h["q"], h["r"]) == (q, r):
            if not h.get("label"):
                h["label"] = label_of(table["hexes"], q, r)
            return h
    raise RuleError(say("There is no such position on the board."), field, "unknown_position",
                    422)


def discover(state: dict, event: SeafarersDiscover) -> dict:
    data = event.model_dump()
    scenario = SCENARIOS[state["options"]["scenario"]]
    table = state["table"]
    spot = find_hex(table, data["q"], data["r"])
    if scenario.chip_bag:
        draw_from_bag(table, scenario, spot)
        return state
    if not spot["hidden"]:
        raise RuleError(say("%(hex_name)s is not a face-down position.",
                            hex_name=spot["label"]), "data.q", "not_hidden", 422)
    stacks = table["stacks"]
    if not stacks["tiles"]:
        raise RuleError(say("The face-down stack is empty."), "data.q", "stack_empty", 422)
    terrain = stacks["tiles"].pop(0)
    number = stacks["numbers"].pop(0) if terrain in PRODUCING and stacks["numbers"] else None
    spot.update(terrain=terrain, number=number, hidden=False)
    table["notices"].append(discovery_sentence(spot))
    return state


def discovery_sentence(spot: dict) -> str:
    where, word = spot["label"], terrain_word(spot["terrain"])
    if spot["terrain"] == "sea":
        return say("Discovered sea at %(hex_name)s.", hex_name=where)
    if spot["number"] is None:
        return say("Discovered %(terrain)s at %(hex_name)s.", terrain=word, hex_name=where)
    resource = RESOURCE_OF[spot["terrain"]]
    prize = (say("a resource of their choice") if resource == "gold"
             else say("one %(resource)s", resource=RESOURCE_NAMES[resource]))
    return say("Discovered %(terrain)s with a %(number)s at %(hex_name)s: the discoverer takes "
               "%(prize)s at once.", terrain=word, number=spot["number"], hex_name=where,
               prize=prize)


def small_island_tile(scenario, spot: dict, field: str) -> None:
    """A Greater Catan small-island tile that can still take a chip."""
    cells = scenario.layouts[0].cells
    where = spot["label"]
    if cells.get((spot["q"], spot["r"])) != "L" or spot["terrain"] not in PRODUCING:
        raise RuleError(say("%(hex_name)s is not a small-island land tile.", hex_name=where),
                        field, "not_small_island", 422)
    if spot["number"] is not None:
        raise RuleError(say("%(hex_name)s already has a number chip.", hex_name=where), field,
                        "has_number", 422)


def draw_from_bag(table: dict, scenario, spot: dict) -> None:
    small_island_tile(scenario, spot, "data.q")
    bag = table["stacks"]["numbers"]
    if not bag:
        raise RuleError(say("The bag is empty: move a chip from the main island instead "
                            "(event move_chip)."), "data.q", "bag_empty", 422)
    spot["number"] = bag.pop(0)
    table["notices"].append(say("Drew a %(number)s from the bag for the %(terrain)s at "
                                "%(hex_name)s.", number=spot["number"],
                                terrain=terrain_word(spot["terrain"]), hex_name=spot["label"]))


def move_chip(state: dict, event: SeafarersMoveChip) -> dict:
    """Greater Catan, once the bag is empty: a chip moves from the main island to a small
    island. Of the book's rules a-c the app can judge c ("Red chips must not lie next to each
    other on small islands"), which is broken last: a move breaking it is refused while
    another move keeps it. Rules a and b depend on where settlements stand, which the
    players check (see ``chip_moves``)."""
    data = event.model_dump()
    scenario = SCENARIOS[state["options"]["scenario"]]
    if not scenario.chip_bag:
        raise RuleError(say("%(scenario)s has no chips to move.", scenario=scenario.name),
                        "type", "not_in_scenario", 422)
    table = state["table"]
    if table["stacks"]["numbers"]:
        raise RuleError(say("Chips move from the main island only once the bag is empty."),
                        "data.from_q", "bag_not_empty", 422)
    source = find_hex(table, data["from_q"], data["from_r"], "data.from_q")
    target = find_hex(table, data["q"], data["r"])
    if scenario.layouts[0].cells.get((source["q"], source["r"])) != "M" or not source["number"]:
        raise RuleError(say("%(hex_name)s is not a main-island tile with a chip.",
                            hex_name=source["label"]),
                        "data.from_q", "not_main_island", 422)
    small_island_tile(scenario, target, "data.q")
    breaks_c = source["number"] in RED and red_neighbour(table, target)
    if breaks_c and any(not m["breaks_c"] for m in chip_moves(state)):
        raise RuleError(say("A red %(number)s at %(hex_name)s would lie next to another red "
                            "chip on the small islands (rule c); move another chip first: rule "
                            "c gives way only when no other chip can move.",
                            number=source["number"], hex_name=target["label"]),
                        "data.q", "red_chips_touch", 422)
    target["number"], source["number"] = source["number"], None
    table["notices"].append(say("Moved the %(number)s from %(from_name)s to %(hex_name)s.",
                                number=target["number"], from_name=source["label"],
                                hex_name=target["label"]))
    if breaks_c:
        table["notices"].append(say("Two red chips now touch on the small islands: rule c gave "
                                    "way, as no other chip could move."))
    return state


def chip_moves(state: dict) -> list[dict]:
    """Every move the book allows now, in its order of fallbacks: the moves keeping rule c
    first; only when there are none, the moves that break it (marked ``breaks_c``). Each
    move: from_q, from_r, q, r, number, the two hexes' labels and terrains."""
    table, scenario = state["table"], SCENARIOS[state["options"]["scenario"]]
    if not scenario.chip_bag or table["stacks"]["numbers"]:
        return []
    cells = scenario.layouts[0].cells
    names = hexgrid.labels((h["q"], h["r"]) for h in table["hexes"])
    sources = [h for h in table["hexes"] if cells.get((h["q"], h["r"])) == "M" and h["number"]]
    targets = [h for h in table["hexes"] if cells.get((h["q"], h["r"])) == "L"
               and h["terrain"] in PRODUCING and not h["number"]]
    moves = [{"from_q": s["q"], "from_r": s["r"], "q": t["q"], "r": t["r"],
              "number": s["number"], "from_label": names[(s["q"], s["r"])],
              "to_label": names[(t["q"], t["r"])], "from_terrain": terrain_word(s["terrain"]),
              "to_terrain": terrain_word(t["terrain"]),
              "breaks_c": s["number"] in RED and red_neighbour(table, t)}
             for t in targets for s in sources]
    keeping = [m for m in moves if not m["breaks_c"]]
    return keeping or moves


def red_neighbour(table: dict, spot: dict) -> bool:
    around = set(hexgrid.neighbours((spot["q"], spot["r"])))
    return any((h["q"], h["r"]) in around and h["number"] in RED for h in table["hexes"])


EVENTS = {"discover": On(SeafarersDiscover, discover),
          "move_chip": On(SeafarersMoveChip, move_chip)}
