"""THE RULES: a registry of games. Pure: standard library only, no Flask, no SQL."""
from __future__ import annotations

from .errors import RuleError
from .explorers import GAME as explorers
from .knarr import GAME as knarr
from .messages import say
from .protocol import Game
from .reavers import GAME as reavers
from .seafarers import GAME as seafarers
from .shipwrights import GAME as shipwrights

GAMES: dict[str, Game] = {g.id: g for g in (shipwrights, explorers, knarr, reavers, seafarers)}


def get_game(game_id: str) -> Game:
    """The game with this id, or a RuleError (404) naming it."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise RuleError(say("There is no game called '%(key)s'.", key=str(game_id)), "game",
                        "unknown_game", 404) from None


def game_taking(kind: str) -> Game | None:
    """A game whose plays take events of type ``kind`` (its own types only), or None."""
    return next((g for g in GAMES.values() if kind in g.event_types), None)


__all__ = ["GAMES", "Game", "RuleError", "game_taking", "get_game"]
