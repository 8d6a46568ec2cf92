"""Boards per second for every Seafarers scenario and player count (printed as JSON).

``run()`` returns {"scenario/players": {"boards_per_second", "ms_per_board", "max_tries"}};
the fairness settings are off except in the "all fairness" rows.
"""
from __future__ import annotations

import json
import random
import time

from companion.games.seafarers import GAME
from companion.games.seafarers.scenarios import SCENARIOS

NAMES = ["Ann", "Bo", "Cy", "Di"]
BOARDS = 200
ALL_FAIRNESS = {"no_equal_neighbours": True, "no_2_12_neighbours": True,
                "max_corner_pips": 12, "max_terrain_cluster": 3}


def measure(scenario: str, players: int, extra: dict, boards: int = BOARDS) -> dict:
    options = GAME.parse_options({"scenario": scenario, **extra})
    tries = []
    start = time.perf_counter()
    for seed in range(boards):
        setup = GAME.setup(NAMES[:players], options, random.Random(seed), {})
        tries.append(setup["balance"]["tries"])
    elapsed = time.perf_counter() - start
    return {"boards_per_second": round(boards / elapsed, 1),
            "ms_per_board": round(1000 * elapsed / boards, 3), "max_tries": max(tries)}


def run(boards: int = BOARDS) -> dict:
    results = {}
    for sid, scenario in SCENARIOS.items():
        for players in scenario.player_counts:
            results[f"{sid}/{players}"] = measure(sid, players, {}, boards)
            results[f"{sid}/{players} all fairness"] = measure(sid, players, ALL_FAIRNESS,
                                                               boards)
    print(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    run()
