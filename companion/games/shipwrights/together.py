"""The phases the whole table plays at once: the draft and the actions.

The rulebook has no turn order and no start player. "Each player drafts 6 Village Cards";
"Once all players have drafted 6 Village Cards, they simultaneously carry out the Take Actions
Phase"; "By the end of this Phase all players must have played all their Village Cards from
hand"; "Once each player has finished taking actions, they must [gain income]". So in the
draft and the actions phase it is every player's turn at once, and each one is done in their
own time: the table keeps ``acting``, the players not yet done with this phase (in seat
order; empty in the reveal, income and heroes phases, which the table does together). A
player says so with a ``done`` event; when the last one is done the phase is over and the
next begins, as the rules say. "Next phase" still moves on at any time (a table that forgot
to say it).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RuleError, say
from ..inputs import player_of
from ..messages import series
from .play import advance, check_open, player_names
from .rules import TOGETHER

if TYPE_CHECKING:
    from .events import ShipwrightsDone


def apply_done(state: dict, data: ShipwrightsDone) -> dict:
    """A player is done with the draft (6 Village Cards kept) or with the actions (every
    card in hand used); the last one's "done" ends the phase."""
    check_open(state)
    names = player_names(state)
    player = player_of(data.player, names, "data.player",
                       say("player must be one of: %(names)s.", names=series(names, ", ")))
    table = state["table"]
    if state["phase"] not in TOGETHER:
        raise RuleError(say("Nobody is drafting or taking actions now: the whole table does "
                            "this phase together."), None, "wrong_phase", 422)
    if player not in table["acting"]:
        raise RuleError(say("%(player)s is already done with this phase.", player=player),
                        "data.player", "already_done", 422)
    table["acting"] = [name for name in table["acting"] if name != player]
    return state if table["acting"] else advance(state)
