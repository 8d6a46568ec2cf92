"""The ``setup`` object of a seafarers board: hexes, harbours, stacks, balance and checklist."""
from __future__ import annotations

from collections import Counter

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
    """Every position in reading order (row by row, west to east)."""
    rows = []
    for (q, r) in sorted(board.terrain, key=lambda h: (h[1], h[0])):
        terrain = board.terrain[(q, r)]
        rows.append({"q": q, "r": r, "terrain": terrain, "number": board.numbers.get((q, r)),
                     "hidden": terrain is None})
    return rows


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
                {"q": q, "r": r, "terrain": by_hex[(q, r)]["terrain"],
                 "number": by_hex[(q, r)]["number"]} for q, r in best_corner]},
            "tries": search.tries, "steps": search.steps}


def checklist(scenario: Scenario, layout: Layout, players: int) -> list[str]:
    """What to lay out on the table, in sentences."""
    items = [f"{scenario.name} for {players} players: play to {scenario.target_vp} victory "
             "points."]
    if scenario.main_island:
        items.append("Lay the base game's main island as shown, ringed by plain sea tiles "
                     "(not the ones with printed harbours).")
    items.append("Lay the tiles and number chips as shown; put the harbour markers on the "
                 "marked sea hexes, each facing the coast it serves.")
    if layout.hidden_tiles:
        items.append("Leave the ? spaces empty. Stack the face-down tiles and the face-down "
                     "chips in the order given; reveal the top tile (and, for land, the top "
                     "chip) when a ship or road reaches a ? space.")
    if scenario.chip_bag:
        chips = ", ".join(map(str, sorted(layout.chips)))
        items.append(f"Put the second set's chips {chips} in a bag; a small-island tile gets "
                     "the next chip when a ship or road first reaches it.")
    if scenario.free_harbours:
        items.append("The harbours shown are a suggestion: by the rules each player in turn "
                     "places one next to a land tile of their choice.")
    if scenario.special_vp:
        items.append(f"Special victory points: {scenario.special_vp}")
    return items
