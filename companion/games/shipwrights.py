"""Shipwrights of the North Sea: Redux: placeholder registration until its rules land."""
from __future__ import annotations

from .base import Game, RuleError


class ShipwrightsGame(Game):
    id = "shipwrights"
    name = "Shipwrights of the North Sea: Redux"
    min_players = 1
    max_players = 5

    def setup(self, players, options, rng, catalogue):
        return {"start_player": rng.choice(players)}

    def score(self, body, catalogue):
        raise RuleError(f"Scoring for {self.name} is not built yet.", None, "not_implemented", 422)


GAME = ShipwrightsGame()
