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
from typing import Any

from ..base import RuleError, check_object
from . import hexgrid
from .scenarios import PRODUCING, RED, RESOURCE_OF, SCENARIOS

COORD_LIMIT = 100


def start_table(state: dict) -> dict:
    setup = state["setup"]
    state["table"] = {"hexes": copy.deepcopy(setup["hexes"]),
                      "stacks": copy.deepcopy(setup["stacks"]), "notices": []}
    return state


def coordinate(data: dict, name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > COORD_LIMIT:
        raise RuleError(f"{name} must be a whole number (a hex coordinate).", f"data.{name}")
    return value


def event_data(event: dict, names: tuple[str, ...]) -> dict:
    data = event.get("data")
    data = check_object({} if data is None else data, names, "data",
                        "The event data must be an object.")
    return {name: coordinate(data, name) for name in names}


def find_hex(table: dict, q: int, r: int, field: str = "data.q") -> dict:
    for h in table["hexes"]:
        if (h["q"], h["r"]) == (q, r):
            return h
    raise RuleError(f"There is no board position at ({q}, {r}).", field, "unknown_position", 422)


def discover(state: dict, event: dict) -> dict:
    data = event_data(event, ("q", "r"))
    scenario = SCENARIOS[state["options"]["scenario"]]
    table = state["table"]
    spot = find_hex(table, data["q"], data["r"])
    if scenario.chip_bag:
        draw_from_bag(table, scenario, spot)
        return state
    if not spot["hidden"]:
        raise RuleError(f"({spot['q']}, {spot['r']}) is not a face-down position.", "data.q",
                        "not_hidden", 422)
    stacks = table["stacks"]
    if not stacks["tiles"]:
        raise RuleError("The face-down stack is empty.", "data.q", "stack_empty", 422)
    terrain = stacks["tiles"].pop(0)
    number = stacks["numbers"].pop(0) if terrain in PRODUCING and stacks["numbers"] else None
    spot.update(terrain=terrain, number=number, hidden=False)
    table["notices"].append(discovery_sentence(spot))
    return state


def discovery_sentence(spot: dict) -> str:
    where = f"({spot['q']}, {spot['r']})"
    if spot["terrain"] == "sea":
        return f"Discovered sea at {where}."
    if spot["number"] is None:
        return f"Discovered {spot['terrain']} at {where}."
    resource = RESOURCE_OF[spot["terrain"]]
    prize = "a resource of their choice" if resource == "gold" else f"one {resource}"
    return (f"Discovered {spot['terrain']} with a {spot['number']} at {where}: the discoverer "
            f"takes {prize} at once.")


def small_island_tile(scenario, spot: dict, field: str) -> None:
    """A Greater Catan small-island tile that can still take a chip."""
    cells = scenario.layouts[0].cells
    where = f"({spot['q']}, {spot['r']})"
    if cells.get((spot["q"], spot["r"])) != "L" or spot["terrain"] not in PRODUCING:
        raise RuleError(f"{where} is not a small-island land tile.", field, "not_small_island",
                        422)
    if spot["number"] is not None:
        raise RuleError(f"{where} already has a number chip.", field, "has_number", 422)


def draw_from_bag(table: dict, scenario, spot: dict) -> None:
    small_island_tile(scenario, spot, "data.q")
    bag = table["stacks"]["numbers"]
    if not bag:
        raise RuleError("The bag is empty: move a chip from the main island instead "
                        "(event move_chip).", "data.q", "bag_empty", 422)
    spot["number"] = bag.pop(0)
    table["notices"].append(f"Drew a {spot['number']} from the bag for the "
                            f"{spot['terrain']} at ({spot['q']}, {spot['r']}).")


def move_chip(state: dict, event: dict) -> dict:
    data = event_data(event, ("from_q", "from_r", "q", "r"))
    scenario = SCENARIOS[state["options"]["scenario"]]
    if not scenario.chip_bag:
        raise RuleError(f"{scenario.name} has no chips to move.", "type", "not_in_scenario", 422)
    table = state["table"]
    if table["stacks"]["numbers"]:
        raise RuleError("Chips move from the main island only once the bag is empty.",
                        "data.from_q", "bag_not_empty", 422)
    source = find_hex(table, data["from_q"], data["from_r"], "data.from_q")
    target = find_hex(table, data["q"], data["r"])
    if scenario.layouts[0].cells.get((source["q"], source["r"])) != "M" or not source["number"]:
        raise RuleError(f"({source['q']}, {source['r']}) is not a main-island tile with a chip.",
                        "data.from_q", "not_main_island", 422)
    small_island_tile(scenario, target, "data.q")
    target["number"], source["number"] = source["number"], None
    table["notices"].append(f"Moved the {target['number']} from ({source['q']}, {source['r']}) "
                            f"to ({target['q']}, {target['r']}).")
    if target["number"] in RED and red_neighbour(table, target):
        table["notices"].append("Two red chips now touch on the small islands: allowed only "
                                "when no other chip could be moved (rule c).")
    return state


def red_neighbour(table: dict, spot: dict) -> bool:
    around = set(hexgrid.neighbours((spot["q"], spot["r"])))
    return any((h["q"], h["r"]) in around and h["number"] in RED for h in table["hexes"])


EVENTS: dict[str, Any] = {"discover": discover, "move_chip": move_chip}
