"""Board generation: shuffle the material into a frame under the rules and fairness settings.

Everything random comes from the ``rng`` passed in. Tiles and chips are placed by a small
backtracking search that tries values in the order a shuffled bag would give them; a search
that runs past its step budget restarts with fresh shuffles. After ``MAX_TRIES`` restarts the
settings are judged impossible and :class:`GenerationFailed` names the setting that rejected
the most placements, so the caller can tell the user which one to relax.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from . import hexgrid
from .hexgrid import Hex
from .scenarios import (
    BASE_CHIPS,
    BASE_ISLAND,
    BASE_SEA_FRAME,
    HARBOUR_CODES,
    PIPS,
    PRODUCING,
    RED,
    SEA_SYMBOLS,
    Layout,
    Scenario,
)

MAX_TRIES = 60       # restarts before the settings are judged impossible
MAX_STEPS = 2000     # placements tried in one search before it restarts
MAX_TOTAL_STEPS = 15_000   # placements tried for one board, all restarts together
FAIRNESS = ("no_equal_neighbours", "no_2_12_neighbours", "max_corner_pips",
            "max_terrain_cluster")


@dataclass(frozen=True)
class Fairness:
    """Optional balance settings; every one is off by default."""
    no_equal_neighbours: bool = False
    no_2_12_neighbours: bool = False
    max_corner_pips: int = 0          # 0: no cap on the pips around one corner
    max_terrain_cluster: int = 0      # 0: no cap on a group of same-terrain neighbours

    def enabled(self) -> list[str]:
        return [name for name in FAIRNESS if getattr(self, name)]


class GenerationFailed(Exception):
    """No board met the settings within the bounded search; ``setting`` is the one to relax."""

    def __init__(self, setting: str | None, tries: int):
        super().__init__(setting)
        self.setting = setting
        self.tries = tries


@dataclass
class Search:
    """Counters shared by the searches of one board."""
    rng: random.Random
    rejected: Counter = field(default_factory=Counter)
    tries: int = 0
    steps: int = 0


@dataclass
class Board:
    terrain: dict            # hex -> terrain, None for a face-down position
    numbers: dict            # hex -> chip
    harbours: list           # [(hex, facing, type)]
    stack_tiles: list
    stack_numbers: list
    search: Search


# --------------------------------------------------------------------------- pools
def tile_pools(scenario: Scenario, layout: Layout) -> dict[str, list[str]]:
    """The terrains shuffled into each kind of free position ('M', 'L', '*')."""
    listed = dict(layout.tiles)
    if scenario.free_harbours:
        return {"*": expand(listed)}
    fixed = {"sea": count_symbols(layout, SEA_SYMBOLS) - base_sea(scenario),
             "desert": count_symbols(layout, "D")}
    land = {t: n - fixed.get(t, 0) for t, n in listed.items()}
    return {"M": expand(BASE_ISLAND), "L": expand(land)}


def chip_pools(scenario: Scenario, layout: Layout) -> dict[str, list[int]]:
    """The chips laid on each kind of position at the start (the bag stays off the board)."""
    pools = {"M": expand(BASE_CHIPS), "L": [], "*": []}
    if not scenario.chip_bag:
        pools["L"] = pools["*"] = expand(layout.chips)
    return pools


def base_sea(scenario: Scenario) -> int:
    return BASE_SEA_FRAME if scenario.main_island else 0


def count_symbols(layout: Layout, symbols) -> int:
    return sum(1 for s in layout.cells.values() if s in symbols)


def expand(counts: dict) -> list:
    """A multiset as a sorted list (sorted so a shuffle of it depends on the seed only)."""
    return sorted(value for value, n in counts.items() for _ in range(n))


# --------------------------------------------------------------------------- search
def bag_order(values: list, rng: random.Random) -> list:
    """Distinct values in the order a shuffled bag of ``values`` would first show them."""
    bag = list(values)
    rng.shuffle(bag)
    return list(dict.fromkeys(bag))


def fill(slots: list[tuple[Hex, str]], pools: dict[str, list],
         reject: Callable[[Hex, object, dict], str | None], search: Search,
         chosen: dict | None = None) -> dict | None:
    """Assign a value from ``pools[key]`` to every (hex, key) slot so that ``reject`` finds
    nothing to object to (``chosen`` holds values placed before); None when the step budget
    runs out first."""
    left = {key: Counter(values) for key, values in pools.items()}
    chosen = dict(chosen or {})
    budget = [MAX_STEPS]

    def place(i: int) -> bool:
        if i == len(slots):
            return True
        hex_, key = slots[i]
        for value in bag_order(list(left[key].elements()), search.rng):
            budget[0] -= 1
            search.steps += 1
            if budget[0] < 0:
                return False
            reason = reject(hex_, value, chosen)
            if reason:
                search.rejected[reason] += 1
                continue
            chosen[hex_] = value
            left[key][value] -= 1
            if place(i + 1):
                return True
            del chosen[hex_]
            left[key][value] += 1
        return False

    return chosen if place(0) else None


def scatter(items: list[tuple[str, object]], slots: list[tuple[Hex, str]],
            reject: Callable[[Hex, object, dict], str | None], search: Search) -> dict | None:
    """Find a position for each (key, value) item among the slots of its key, value by value:
    the way to place a few tightly ruled chips (the 6s and 8s) before the rest."""
    chosen: dict = {}
    budget = [MAX_STEPS]

    def place(i: int) -> bool:
        if i == len(items):
            return True
        key, value = items[i]
        free = [h for h, k in slots if k == key and h not in chosen]
        search.rng.shuffle(free)
        for hex_ in free:
            budget[0] -= 1
            search.steps += 1
            if budget[0] < 0:
                return False
            reason = reject(hex_, value, chosen)
            if reason:
                search.rejected[reason] += 1
                continue
            chosen[hex_] = value
            if place(i + 1):
                return True
            del chosen[hex_]
        return False

    return chosen if place(0) else None


# --------------------------------------------------------------------------- terrain
def fixed_terrain(cells: dict) -> dict:
    """Terrain of the positions that are not shuffled (sea, wasteland, face-down)."""
    out = {}
    for hex_, symbol in cells.items():
        if symbol in SEA_SYMBOLS:
            out[hex_] = "sea"
        elif symbol == "D":
            out[hex_] = "desert"
        elif symbol == "?":
            out[hex_] = None
    return out


def place_terrain(cells: dict, pools: dict, fairness: Fairness, search: Search) -> dict | None:
    terrain = fixed_terrain(cells)
    slots = [(h, s) for h, s in cells.items() if h not in terrain]
    cap = fairness.max_terrain_cluster

    def reject(hex_: Hex, value: str, chosen: dict) -> str | None:
        if cap and value in PRODUCING and cluster_size(hex_, value, chosen) > cap:
            return "max_terrain_cluster"
        return None

    if not cap:
        chosen = {}
        for key in pools:
            free = [h for h, s in slots if s == key]
            if free:
                values = list(pools[key])
                search.rng.shuffle(values)
                chosen.update(zip(free, values, strict=True))
        return {**terrain, **chosen}
    chosen = fill(slots, pools, reject, search)
    return None if chosen is None else {**terrain, **chosen}


def cluster_size(start: Hex, value: str, chosen: dict) -> int:
    """Size of the group of ``value`` hexes ``start`` would join."""
    seen, frontier = {start}, [start]
    while frontier:
        for n in hexgrid.neighbours(frontier.pop()):
            if n not in seen and chosen.get(n) == value:
                seen.add(n)
                frontier.append(n)
    return len(seen)


# --------------------------------------------------------------------------- numbers
def place_numbers(cells: dict, terrain: dict, pools: dict, rules: dict,
                  fairness: Fairness, search: Search) -> dict | None:
    slots = [(h, cells[h]) for h in sorted(cells, key=row_major)
             if terrain[h] in PRODUCING and pools.get(cells[h])]
    hidden = {h for h, t in terrain.items() if t is None}
    corners = {h: [[o for o in c if o != h] for c in hexgrid.corners(h)] for h, _ in slots}

    def reject(hex_: Hex, value: int, chosen: dict) -> str | None:
        around = [chosen.get(n) for n in hexgrid.neighbours(hex_)]
        if value in RED:
            if any(n in RED for n in around):
                return "red_neighbours"
            if rules["red_off_gold"] and terrain[hex_] == "gold":
                return "red_on_gold"
            if rules["red_off_hidden"] and any(n in hidden for n in hexgrid.neighbours(hex_)):
                return "red_by_hidden"
        if fairness.no_equal_neighbours and value in around:
            return "no_equal_neighbours"
        if fairness.no_2_12_neighbours and value in (2, 12) and (2 in around or 12 in around):
            return "no_2_12_neighbours"
        cap = fairness.max_corner_pips
        if cap and any(PIPS[value] + sum(PIPS[chosen[o]] for o in others if o in chosen) > cap
                       for others in corners[hex_]):
            return "max_corner_pips"
        return None

    keys = sorted({key for _, key in slots})
    reds = [(key, v) for key in keys for v in pools[key] if v in RED]
    chosen = scatter(reds, slots, reject, search)
    if chosen is None:
        return None
    rest = {key: [v for v in values if v not in RED] for key, values in pools.items()}
    def reds_around(slot: tuple[Hex, str]) -> int:   # the most constrained slots first
        return -sum(1 for n in hexgrid.neighbours(slot[0]) if n in chosen)

    todo = sorted((s for s in slots if s[0] not in chosen), key=reds_around)
    return fill(todo, rest, reject, search, chosen)


def row_major(hex_: Hex) -> tuple[int, int]:
    return (hex_[1], hex_[0])


# --------------------------------------------------------------------------- harbours
def fixed_spots(cells: dict) -> list[tuple[Hex, int]]:
    """The harbour spots drawn in the frame, in reading order."""
    return [(h, facing) for h in sorted(cells, key=row_major)
            for facing in HARBOUR_CODES.get(cells[h], ())]


def docks(spot: tuple[Hex, int]) -> tuple:
    return hexgrid.edge_corners(*spot)


def suggest_spots(terrain: dict, count: int, search: Search) -> list[tuple[Hex, int]] | None:
    """Harbour spots the New World rule allows: a sea hex facing a producing land hex, no
    corner a dock of two harbours; one harbour per sea hex. None when there is no room."""
    candidates = [(h, f) for h in sorted(terrain, key=row_major) if terrain[h] == "sea"
                  for f in range(6) if terrain.get(hexgrid.step(h, f)) in PRODUCING]
    for _ in range(8):
        search.rng.shuffle(candidates)
        spots, used_hexes, used_docks = [], set(), set()
        for hex_, facing in candidates:
            ends = set(docks((hex_, facing)))
            if hex_ in used_hexes or ends & used_docks:
                continue
            spots.append((hex_, facing))
            used_hexes.add(hex_)
            used_docks |= ends
            if len(spots) == count:
                return sorted(spots, key=lambda s: (row_major(s[0]), s[1]))
    return None


def deal_harbours(spots: list, kinds: dict, rng: random.Random) -> list:
    types = expand(kinds)
    rng.shuffle(types)
    return [(hex_, facing, kind) for (hex_, facing), kind in zip(spots, types, strict=True)]


# --------------------------------------------------------------------------- a board
def generate(scenario: Scenario, layout: Layout, fairness: Fairness,
             rng: random.Random) -> Board:
    """A board for ``layout`` obeying the scenario's rules and the fairness settings."""
    search = Search(rng)
    precheck(scenario, layout, fairness)
    cells = layout.cells
    rules = {"red_off_gold": scenario.red_off_gold,
             "red_off_hidden": any(n in RED for n in layout.hidden_chips)}
    tiles, chips = tile_pools(scenario, layout), chip_pools(scenario, layout)
    harbour_count = sum(layout.harbours.values())
    while search.tries < MAX_TRIES and search.steps < MAX_TOTAL_STEPS:
        search.tries += 1
        terrain = place_terrain(cells, tiles, fairness, search)
        numbers = None if terrain is None else place_numbers(cells, terrain, chips, rules,
                                                             fairness, search)
        if numbers is None:
            continue
        spots = (suggest_spots(terrain, harbour_count, search) if scenario.free_harbours
                 else fixed_spots(cells))
        if spots is None:
            search.rejected["harbour_room"] += 1
            continue
        harbours = deal_harbours(spots, layout.harbours, rng)
        stack_tiles, stack_numbers = expand(layout.hidden_tiles), expand(layout.hidden_chips)
        rng.shuffle(stack_tiles)
        rng.shuffle(stack_numbers)
        if scenario.chip_bag:
            stack_numbers = expand(layout.chips)
            rng.shuffle(stack_numbers)
        return Board(terrain, numbers, harbours, stack_tiles, stack_numbers, search)
    raise GenerationFailed(blame(search, fairness), search.tries)


def precheck(scenario: Scenario, layout: Layout, fairness: Fairness) -> None:
    """Settings no board can meet, caught before searching."""
    cap = fairness.max_corner_pips
    on_board = dict(BASE_CHIPS) if scenario.main_island else {}
    if not scenario.chip_bag:
        on_board.update({n: on_board.get(n, 0) + c for n, c in layout.chips.items()})
    if cap and on_board and cap < max(PIPS[n] for n in on_board):
        raise GenerationFailed("max_corner_pips", 0)


def blame(search: Search, fairness: Fairness) -> str | None:
    """The enabled setting that rejected the most placements."""
    enabled = fairness.enabled()
    ranked = sorted(enabled, key=lambda name: -search.rejected[name])
    return ranked[0] if ranked else None
