"""Knarr: placeholder registration until its rules land (see the issue for this game)."""
from __future__ import annotations

from .base import Game, RuleError


class KnarrGame(Game):
    id = "knarr"
    name = "Knarr"
    min_players = 2
    max_players = 4

    def setup(self, players, options, rng, catalogue):
        return {"start_player": rng.choice(players)}

    def score(self, body, catalogue):
        raise RuleError(f"Scoring for {self.name} is not built yet.", None, "not_implemented", 422)


GAME = KnarrGame()
