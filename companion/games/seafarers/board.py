"""The ``setup`` object of a seafarers board: hexes, harbours, stacks, balance and checklist."""
from __future__ import annotations

from collections import Counter

from ..messages import say, series
from . import hexgrid
from .generator import Board, Search
from .scenarios import (
    BASE_CHIPS,
    BASE_ISLAND,
    BASE_SEA_FRAME,
    PIPS,
    PRODUCING,
    RESOURCE_OF,
    Layout,
    Scenario,
)


def hex_rows(board: Board) -> list[dict]:
    """Every position in reading order (row by row, west to east), with its short label."""
    names = hexgrid.labels(board.terrain)
    rows = []
    for (q, r) in sorted(board.terrain, key=lambda h: (h[1], h[0])):
        terrain = board.terrain[(q, r)]
        rows.append({"q": q, "r": r, "label": names[(q, r)], "terrain": terrain,
                     "number": board.numbers.get((q, r)), "hidden": terrain is None})
    return rows


def label_of(hexes: list[dict], q: int, r: int) -> str:
    """The short label of the hex at (q, r) (older setups without labels get them here)."""
    for h in hexes:
        if (h["q"], h["r"]) == (q, r) and h.get("label"):
            return h["label"]
    return hexgrid.labels((h["q"], h["r"]) for h in hexes).get((q, r), f"({q}, {r})")


def pirate_and_robber(scenario: Scenario, hexes: list[dict], rng,
                      wasteland: bool = False) -> dict:
    """Where the pirate ship and the robber start, with sentences saying why.

    The book: "The pirate ship starts on any sea hex": the app suggests one at random. The
    robber starts on the desert as in the base game; a scenario without the base game's
    desert gets no place from the book, and the app says so and suggests one."""
    sea = [h for h in hexes if h["terrain"] == "sea"]
    pirate = rng.choice(sea) if sea else None
    out = {"pirate": spot(pirate),
           "pirate_note": (say("The pirate ship starts on any sea hex (the book); the app "
                               "suggests %(hex_name)s.", hex_name=pirate["label"]) if pirate
                           else say("The pirate ship starts on any sea hex (the book): pick "
                                    "one."))}
    deserts = [h for h in hexes if h["terrain"] == "desert"]
    if scenario.main_island and deserts:
        out["robber"] = spot(deserts[0])
        out["robber_note"] = say("The robber starts on the main island's desert, %(hex_name)s, "
                                 "as in the base game.", hex_name=deserts[0]["label"])
    elif deserts:
        out["robber"] = spot(deserts[0])
        out["robber_note"] = say("The book gives %(scenario)s no starting place for the robber "
                                 "(it has no desert, only wasteland); the app suggests the "
                                 "wasteland at %(hex_name)s, which yields nothing.",
                                 scenario=scenario.name, hex_name=deserts[0]["label"])
    elif wasteland:      # wasteland in the material, its place not known yet
        out["robber"] = None
        out["robber_note"] = say("The book gives %(scenario)s no starting place for the robber "
                                 "(it has no desert, only wasteland); the app suggests a "
                                 "wasteland tile, which yields nothing.", scenario=scenario.name)
    else:
        out["robber"] = None
        out["robber_note"] = say("The book gives %(scenario)s no starting place for the robber "
                                 "(it has no desert); the app suggests keeping it beside the "
                                 "board until the first 7 or knight moves it.",
                                 scenario=scenario.name)
    return out


def spot(h: dict | None) -> dict | None:
    return None if h is None else {"q": h["q"], "r": h["r"], "label": h["label"]}


def harbour_rows(board: Board) -> list[dict]:
    return [{"q": h[0], "r": h[1], "facing": facing, "type": kind}
            for (h, facing, kind) in board.harbours]


def material(scenario: Scenario, layout: Layout) -> dict:
    """What the rulebook lists for this board, counted: the face-up tiles and chips on the
    board at the start (with the base game's main island where used), the harbours, and what
    starts face down or in the bag."""
    tiles = Counter(layout.tiles)
    chips = Counter() if scenario.chip_bag else Counter(layout.chips)
    if scenario.main_island:
        tiles.update(BASE_ISLAND)
        tiles.update({"sea": BASE_SEA_FRAME})
        chips.update(BASE_CHIPS)
    stack_numbers = layout.chips if scenario.chip_bag else layout.hidden_chips
    return {"tiles": dict(sorted(tiles.items())), "numbers": counts_by_number(chips),
            "harbours": dict(layout.harbours), "stack_tiles": dict(sorted(
                layout.hidden_tiles.items())), "stack_numbers": counts_by_number(stack_numbers)}


def counts_by_number(counts) -> dict[str, int]:
    """Chip counts keyed by the number as text (JSON object keys are strings)."""
    return {str(n): c for n, c in sorted(counts.items()) if c}


def balance(hexes: list[dict], search: Search) -> dict:
    """Pips per resource, the busiest corner, and how hard the constraints were to meet."""
    pips = {resource: 0 for resource in RESOURCE_OF.values()}
    by_hex = {}
    for h in hexes:
        if h["number"] and h["terrain"] in PRODUCING:
            pips[RESOURCE_OF[h["terrain"]]] += PIPS[h["number"]]
            by_hex[(h["q"], h["r"])] = h
    best, best_corner = 0, []
    for corner in sorted(hexgrid.board_corners(by_hex), key=sorted):
        total = sum(PIPS[by_hex[c]["number"]] for c in corner if c in by_hex)
        if total > best:
            best, best_corner = total, sorted(c for c in corner if c in by_hex)
    return {"pips": pips,
            "busiest_corner": {"pips": best, "hexes": [
                {"q": q, "r": r, "label": by_hex[(q, r)].get("label"),
                 "terrain": by_hex[(q, r)]["terrain"],
                 "number": by_hex[(q, r)]["number"]} for q, r in best_corner]},
            "tries": search.tries, "steps": search.steps}


def target_sentence(scenario: Scenario, target: int | None) -> str:
    if scenario.target_vp is not None:
        return say("play to %(target)s victory points", target=target)
    if target is None:
        return say("the 1997 book gives no target: agree one at the table")
    return say("play to %(target)s victory points (the table's choice: the 1997 book gives no "
               "target)", target=target)


LAY_OUT = {
    "book": say("Lay the tiles and number chips as drawn: the book's layout, as the owner "
                "entered it. Shuffle the harbour pieces face down and place them on the marked "
                "spots in a random order (the drawing shows one such deal), each facing the "
                "coast it serves."),
    "book_missing": say("Lay the tiles and number chips as in your rulebook's diagram: the app "
                        "does not have the book's layout (the owner can enter it once with the "
                        "box data). The material list says what goes on the board; put the "
                        "harbour pieces, shuffled face down, on the spots the diagram shows."),
    "variable": say("Variable layout (not the book's): lay the tiles and number chips as drawn "
                    "here; put the harbour markers on the marked sea hexes, each facing the "
                    "coast it serves."),
    "random": say("Lay the tiles and number chips as drawn here; put the harbour markers on the "
                  "marked sea hexes, each facing the coast it serves."),
}


def checklist(scenario: Scenario, layout: Layout, players: int,
              target: int | None = None, mode: str = "random") -> list[str]:
    """What to lay out on the table, in sentences."""
    target = scenario.target_vp if target is None else target
    items = [say("%(scenario)s for %(count)s players: %(target)s.", scenario=scenario.name,
                 count=players, target=target_sentence(scenario, target))]
    if scenario.main_island:
        items.append(say("Lay the base game's main island as drawn, ringed by plain sea tiles "
                         "(not the ones with printed harbours)."))
    items.append(LAY_OUT[mode])
    if layout.hidden_tiles and mode != "book_missing":
        items.append(say("Leave the ? spaces empty. Stack the face-down tiles and the face-down "
                         "chips in the order given; reveal the top tile (and, for land, the top "
                         "chip) when a ship or road reaches a ? space."))
    if scenario.chip_bag:
        items.append(say("Put the second set's chips %(chips)s in a bag; a small-island tile "
                         "gets the next chip when a ship or road first reaches it.",
                         chips=series(sorted(layout.chips), ", ")))
    if scenario.start_on_main_island:
        items.append(say("Every player founds both start settlements on the main island."))
    if scenario.free_harbours:
        items.append(say("The harbours shown are a suggestion: by the rules the harbours are "
                         "shuffled face down and, beginning with the oldest player, each player "
                         "in turn places one next to a land tile of their choice."))
    if scenario.special_vp:
        items.append(say("Special victory points: %(special)s", special=scenario.special_vp))
    return items
