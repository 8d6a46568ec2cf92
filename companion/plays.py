"""A play is its initial state (setup, seed, options) plus an append-only event log.

Pure functions over plain data: the current state is a replay of the active events, so undo
and redo are a pointer into the log and nothing recorded is ever overwritten. No Flask, no SQL.
"""
from __future__ import annotations

import copy
from typing import Any

from . import clock
from .games import Game, get_game
from .games.base import (
    RuleError,
    check_name,
    check_object,
    is_whole_number_text,
    make_rng,
    new_seed,
    parse_sheet,
)

COLOURS = ("red", "blue", "green", "yellow", "purple", "black", "white", "orange")
COMMON_EVENTS = ("sheet", "advance", "finish", *clock.EVENTS)
MAX_SEED = 200


def parse_seed(seed: Any, field: str = "seed") -> str | int:
    """A seed is a string or an integer; the same seed gives the same setup on any machine."""
    if isinstance(seed, bool) or not isinstance(seed, (str, int)):
        raise RuleError("The seed must be a string or a whole number.", field)
    if isinstance(seed, str):
        seed = seed.strip()
        if not seed or len(seed) > MAX_SEED:
            raise RuleError(f"The seed must be 1 to {MAX_SEED} characters.", field)
        if is_whole_number_text(seed):
            return int(seed)
    elif abs(seed) >= 2**63:
        raise RuleError("The seed is too large.", field)
    return seed


def parse_seats(players: Any, game: Game) -> list[dict]:
    """[{"name", "colour"}] (or plain names) in seat order, with distinct names and colours."""
    if not isinstance(players, list):
        raise RuleError("Players must be a list in seat order.", "players")
    seats = []
    for i, entry in enumerate(players):
        where = f"players[{i}]"
        if isinstance(entry, str):
            entry = {"name": entry}
        check_object(entry, ("name", "colour"), where,
                     "Each player needs a name (and may have a colour).")
        seats.append({"name": check_name(entry.get("name"), f"{where}.name"),
                      "colour": entry.get("colour") or COLOURS[i % len(COLOURS)]})
    for i, seat in enumerate(seats):
        if seat["colour"] not in COLOURS:
            raise RuleError(f"Colour must be one of: {', '.join(COLOURS)}.",
                            f"players[{i}].colour")
    game.check_players([s["name"] for s in seats])
    return seats


def new_state(game_id: str, players: Any, options: Any, seed: Any, catalogue: dict,
              started_at: Any = None) -> dict:
    """The initial state of a new play: seats, parsed options, the seeded setup, the clock
    running from ``started_at`` (given by the caller: the core never reads the wall clock)."""
    game = get_game(game_id)
    seats = parse_seats(players, game)
    opts = game.parse_options(options)
    seed = parse_seed(seed)
    names = [s["name"] for s in seats]
    setup = game.setup(names, opts, make_rng(seed), catalogue)
    state = {"game": game.id, "version": 0, "round": 1, "phase": game.phases[0],
             "players": seats, "options": opts, "seed": seed, "setup": setup,
             "sheets": {n: {} for n in names}, "table": {},
             "catalogue": copy.deepcopy(catalogue), "finished": False,
             "clock": clock.start(started_at)}
    return game.start_state(state)


def parse_event(body: Any) -> dict:
    """An event request: {"type", "data", "expected_version"} with clear errors."""
    check_object(body, ("type", "data", "expected_version"),
                 message="The event must be a JSON object.")
    kind = body.get("type")
    if not isinstance(kind, str) or not kind or len(kind) > 40:
        raise RuleError("The event needs a type, e.g. 'sheet' or 'advance'.", "type")
    data = body.get("data") or {}
    if not isinstance(data, dict):
        raise RuleError("The event's data must be an object.", "data")
    expected = body.get("expected_version")
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        raise RuleError("expected_version must be a whole number.", "expected_version")
    return {"type": kind, "data": data, "expected_version": expected}


def apply_event(state: dict, event: dict) -> dict:
    """The state after one event; the input state is never changed. Raises RuleError.
    ``event["at"]`` (when the event was recorded, from its row) drives the game clock."""
    if event["type"] in clock.EVENTS:
        return clock.apply(state, event)
    return clock.follow(state, apply_rules(state, event), event.get("at"))


def apply_rules(state: dict, event: dict) -> dict:
    """The game's part of an event: common types first, then the game's own."""
    game = get_game(state["game"])
    state = copy.deepcopy(state)
    kind, data = event["type"], event.get("data") or {}
    if state["finished"] and kind not in ("sheet",):
        raise RuleError("This play has finished; only score sheets can still be corrected.",
                        "type", "play_finished", 422)
    if kind == "sheet":
        return apply_sheet(game, state, data)
    if kind == "advance":
        return game.advance(state)
    if kind == "finish":
        state["finished"] = True
        return state
    return game.apply(state, {"type": kind, "data": data})


def apply_sheet(game: Game, state: dict, data: dict) -> dict:
    check_object(data, ("player", "fields"), "data")
    player = data.get("player")
    if player not in state["sheets"]:
        raise RuleError("Pick a player of this play.", "data.player")
    fields = parse_sheet(game.sheet_fields, data.get("fields"), state["options"],
                         "data.fields", fill=False)
    state["sheets"][player].update(fields)
    return state


def replay(initial: dict, events: list[dict]) -> dict:
    """The state after the given events, from the initial state."""
    state = initial
    for event in events:
        state = apply_event(state, event)
    return state


def score_of(state: dict) -> dict:
    """The scoring endpoint's response for a play's current sheets, or {"error": ...}."""
    game = get_game(state["game"])
    try:
        return game.score(game.score_body(state), state["catalogue"])
    except RuleError as err:
        return err.as_dict()


def run_setup(game_id: str, body: Any, catalogue: dict) -> dict:
    """The stateless setup endpoint: {"players", "seed", "options"} -> {"game", "seed", ...}."""
    game = get_game(game_id)
    check_object(body, ("players", "seed", "options"))
    names = game.check_players(body.get("players"))
    options = game.parse_options(body.get("options"))
    seed = body.get("seed")
    seed = new_seed() if seed is None or seed == "" else parse_seed(seed)
    setup = game.setup(names, options, make_rng(seed), catalogue)
    return {"game": game.id, "seed": seed, "players": names, "options": options, "setup": setup}


def run_score(game_id: str, body: Any, catalogue: dict) -> dict:
    """The stateless scoring endpoint."""
    game = get_game(game_id)
    if not isinstance(body, dict):
        raise RuleError("The request must be a JSON object.", None)
    return game.score(body, catalogue)
