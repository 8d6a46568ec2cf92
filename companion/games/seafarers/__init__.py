"""Catan: Seafarers (1997): placeholder registration until its rules land."""
from __future__ import annotations

from ..base import Game, RuleError


class SeafarersGame(Game):
    id = "seafarers"
    name = "Catan: Seafarers"
    min_players = 3
    max_players = 4

    def setup(self, players, options, rng, catalogue):
        return {"start_player": rng.choice(players)}

    def score(self, body, catalogue):
        raise RuleError(f"Scoring for {self.name} is not built yet.", None, "not_implemented", 422)


GAME = SeafarersGame()
