"""Explorers of the North Sea: placeholder registration until its rules land (see the issue for this game)."""
from __future__ import annotations

from .base import Game, RuleError


class ExplorersGame(Game):
    id = "explorers"
    name = "Explorers of the North Sea"
    min_players = 1
    max_players = 5

    def setup(self, players, options, rng, catalogue):
        return {"start_player": rng.choice(players)}

    def score(self, body, catalogue):
        raise RuleError(f"Scoring for {self.name} is not built yet.", None, "not_implemented", 422)


GAME = ExplorersGame()
