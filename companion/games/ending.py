"""The end of a game: when a play's result is final, and what is still to enter before it is.

A result is provisional until the game is over and every player's end-game entries are in.
Each game declares the rows of its score pad that its rulebook scores only at the end
(``SheetField.end_game``: Reavers' artifacts, favor, keep spoils, tapestries, walls and
prophecies); a row that applies only to some sheets says when (``SheetField.needed``: the
Archer's tiles), and a tie-break row is needed only by a player level on total with another
(``SheetField.when_tied``). A row of a player counts as entered once it holds a value, once a
change set it or added to it (a 0 typed counts), or once that player's sheet is marked done
("nothing more to enter": rows left blank count 0).

Pure: the state is a plain dict; ``state["entered"]`` = {player: [row, ...]} (the rows a change
touched) and ``state["sheets_done"]`` = [player, ...]. Both are replays of the events. An undo
is a compensating sheet change: it puts the old values back, says ``done`` as it was, and names
in ``reopen`` the rows that were not entered before the change it takes back, so they are
listed as still to enter again (companion.undo.inverse_event).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

ENTERED = "entered"
DONE = "sheets_done"


def mark_entered(state: dict, player: str, rows: Iterable[str]) -> None:
    """Rows of ``player``'s sheet a change has just set or added to."""
    rows = set(rows)
    if not rows:
        return
    entered = dict(state.get(ENTERED) or {})
    entered[player] = sorted(set(entered.get(player, ())) | rows)
    state[ENTERED] = entered


def mark_not_entered(state: dict, player: str, rows: Iterable[str]) -> None:
    """Rows of ``player``'s sheet an undo has taken the entry of back (they were not entered
    before the change it takes back)."""
    entered = dict(state.get(ENTERED) or {})
    left = sorted(set(entered.get(player, ())) - set(rows))
    if left:
        entered[player] = left
    else:
        entered.pop(player, None)
    state[ENTERED] = entered


def mark_done(state: dict, player: str, done: bool) -> None:
    """``player``'s sheet marked done (every end-game row entered) or opened again."""
    names = [p["name"] for p in state["players"]]
    held = set(state.get(DONE) or ()) - {player} | ({player} if done else set())
    state[DONE] = [name for name in names if name in held]


def is_done(state: dict, player: str) -> bool:
    return player in (state.get(DONE) or ())


def holds_value(value: Any) -> bool:
    """Whether a sheet value says something was entered (0, false and empty do not)."""
    return value not in (None, "", 0, False, [], {})


def tied_players(score: dict) -> set[str]:
    """Players whose total equals another player's (their tie-break rows count)."""
    totals = [p["total"] for p in score.get("players") or []]
    return {p["name"] for p in score.get("players") or [] if totals.count(p["total"]) > 1}


def rows_to_enter(game, state: dict, score: dict) -> list[dict]:
    """[{"player", "rows": [row names]}] in seat order, for each player with end-game rows
    still to enter (an empty list: every end-game entry is in)."""
    fields = [f for f in game.sheet_fields_for(state["options"]) if f.end_game]
    if not fields:
        return []
    sheets = {p["name"]: p.get("sheet") or {} for p in game.score_body(state)["players"]}
    tied = tied_players(score) if "error" not in score else set()
    entered = state.get(ENTERED) or {}
    out = []
    for seat in state["players"]:
        name = seat["name"]
        if is_done(state, name):
            continue
        sheet = sheets.get(name, {})
        rows = [f.name for f in fields
                if f.name not in entered.get(name, ()) and not holds_value(sheet.get(f.name))
                and (f.needed is None or f.needed(sheet))
                and (not f.when_tied or name in tied)]
        if rows:
            out.append({"player": name, "rows": rows})
    return out


def outcome(game, state: dict, score: dict) -> dict:
    """What a play's score answer adds: ``game_over`` (the final scoring is due),
    ``to_enter`` (``rows_to_enter``) and ``provisional``: true while the result may still
    change (the game is not over, an end-game row is still to enter, or a value from the box
    is missing)."""
    over = bool(game.is_over(state))
    to_enter = rows_to_enter(game, state, score)
    complete = score.get("complete", True) is not False
    return {"game_over": over, "to_enter": to_enter,
            "provisional": not over or bool(to_enter) or not complete}
