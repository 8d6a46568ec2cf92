"""The setups pinned by tests/golden/*.json: every game, every player count, a few seeds,
each option that changes the setup; Seafarers: every scenario and the fairness options.
`python -m tests.golden.cases` rewrites the files (only when a setup is meant to change:
then the diff shows exactly what a seed now produces)."""
from __future__ import annotations

import json
from pathlib import Path

from companion.games import GAMES
from companion.plays import run_setup

FOLDER = Path(__file__).parent
SEEDS = (1, 42, "north-sea")
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def option_sets(game_id: str) -> list[dict]:
    if game_id == "explorers":
        return [{}, {"rocks_of_ruin": True}]
    if game_id == "knarr":
        return [{}, {"artifacts": True}, {"artifacts": True, "advanced_ships": True}]
    if game_id == "seafarers":
        from companion.games.seafarers.scenarios import SCENARIOS

        sets = [{"scenario": s} for s in SCENARIOS]
        sets.append({"scenario": "new_shores", "no_equal_neighbours": True,
                     "no_2_12_neighbours": True, "max_corner_pips": 11})
        return sets
    return [{}]


def cases(game_id: str) -> list[dict]:
    game = GAMES[game_id]
    out = []
    for options in option_sets(game_id):
        for count in range(game.min_players, game.max_players + 1):
            for seed in SEEDS:
                out.append({"players": NAMES[:count], "seed": seed, "options": options})
    return out


def produce(game_id: str) -> list[dict]:
    from companion.games.errors import RuleError

    game = GAMES[game_id]
    results = []
    for body in cases(game_id):
        try:
            result = run_setup(game_id, body, game.empty_catalogue())
        except RuleError as err:       # e.g. a scenario for 4 players only: its code
            result = {"error": err.code}
        results.append({"request": body, "response": result})
    return json.loads(json.dumps(results))


def path_of(game_id: str) -> Path:
    return FOLDER / f"{game_id}.json"


if __name__ == "__main__":
    for game_id in GAMES:
        path_of(game_id).write_text(json.dumps(produce(game_id), indent=1,
                                               ensure_ascii=False) + "\n")
        print(path_of(game_id))
