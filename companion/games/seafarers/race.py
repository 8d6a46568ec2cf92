"""The race to the scenario's target, turn by turn.

Every 1997 scenario "ends as soon as a player has reached" its target, and "all rules are as in
the basic game": there a player wins only during their own turn, at once, as soon as they have
the points. So a play keeps whose turn it is (``state["table"]["current_player"]``, clockwise
from the start player; "advance" ends the turn) and finishes the moment the player whose turn
it is stands at the target, by a change on their sheet or as their turn begins. A player who
reaches the target during another's turn wins at the start of their own (if still there); when
two players stand at the target, only the one whose turn it is wins.

A play recorded before turns were kept has no ``current_player``: its "advance" stays a round
and its race is decided as it was (the next advance after someone reached the target).
"""
from __future__ import annotations

from ..errors import say
from ..protocol import seat_after
from ..ranking import explain_tie, join_names, number, split_by


def start(state: dict) -> None:
    """The first turn: the start player's, round 1."""
    table = state["table"]
    table["current_player"] = state["setup"]["start_player"]
    table["turn"] = 1


def keeps_turns(state: dict) -> bool:
    return state["table"].get("current_player") is not None


def pass_turn(state: dict) -> None:
    """The next seat clockwise plays; a new round begins with the start player again."""
    table = state["table"]
    names = [p["name"] for p in state["players"]]
    table["current_player"] = seat_after(names, table["current_player"])
    table["turn"] += 1
    if table["current_player"] == state["setup"]["start_player"]:
        state["round"] += 1


def turn_ended(state: dict, moment: str | None) -> str | None:
    """Whose turn an "advance" ended: with the state right after it, the seat before the one
    playing now; right before it, the one playing then; None when the moment is unknown."""
    current = state["table"]["current_player"]
    if moment == "before":
        return current
    if moment == "after":
        return seat_after([p["name"] for p in state["players"]], current, -1)
    return None


def settle(state: dict, result: dict) -> None:
    """Finish the play when the player whose turn it is stands at the target (``result``:
    the scoring answer for the current sheets)."""
    if state["finished"] or not keeps_turns(state):
        return
    winner = race_winner(result)
    if winner is None:
        return
    state["finished"] = True
    table = state["table"] = dict(state["table"])   # (a sheet change shares the old table)
    notice = say(
        "%(player)s has %(vp)s victory points on their own turn (the target is %(target)s): "
        "%(player)s wins and the game is over.", player=winner, vp=total_of(result, winner),
        target=result["target_vp"])
    table["notices"] = [*table.get("notices", []), notice]
    table["race_won"] = {"player": winner, "notice": notice}


def won_by_race(state: dict) -> bool:
    """Whether the play ended because the player whose turn it was stood at the target."""
    return bool(state["finished"] and state["table"].get("race_won"))


def reopen(state: dict, result: dict) -> None:
    """An undo took back the change that won the race: when the player whose turn it is no
    longer stands at the target, the game goes on (their turn, the win's notice gone)."""
    if not won_by_race(state) or race_winner(result) is not None:
        return
    state["finished"] = False
    table = state["table"] = dict(state["table"])
    won = table.pop("race_won")
    table["notices"] = [n for n in table.get("notices", []) if n != won["notice"]]


def race_winner(result: dict) -> str | None:
    """The player whose turn it is, when they stand at the target (None otherwise)."""
    turn = result.get("turn")
    return turn if turn is not None and turn in result.get("reached_target", []) else None


def total_of(result: dict, name: str) -> int:
    return next(p["total"] for p in result["players"] if p["name"] == name)


def decide(response: dict, turn: str | None) -> None:
    """Put the race's outcome into a scoring answer: with the player whose turn it is at the
    target, they alone win (rank 1) and the others rank by total behind them; the answer
    says why when another player also stands at the target or has as many points."""
    response["turn"] = turn
    winner = race_winner(response)
    if winner is None:
        return
    players = response["players"]
    others = sorted((p for p in players if p["name"] != winner), key=lambda p: -p["total"])
    win_total = total_of(response, winner)
    for p in players:
        p["rank"] = 1 if p["name"] == winner else 2 + sum(o["total"] > p["total"]
                                                          for o in others)
    rivals = [p["name"] for p in others if p["total"] >= win_total
              or p["name"] in response["reached_target"]]
    sentence = None
    if len(rivals) == 1:
        sentence = say("%(name)s also stands at the target, but only the player whose turn "
                       "it is wins: %(player)s.", name=rivals[0], player=winner)
    elif rivals:
        sentence = say("%(names)s also stand at the target, but only the player whose turn "
                       "it is wins: %(player)s.", names=join_names(rivals), player=winner)
    ties, place = [], 2
    for group in split_by(others, lambda p: p["total"]):
        if len(group) > 1:
            ties += explain_tie(group, (), place, number(group[0]["total"]))
        place += len(group)
    response.update(winners=[winner], tiebreak=sentence,
                    tiebreaks=([sentence] if sentence else []) + ties)
