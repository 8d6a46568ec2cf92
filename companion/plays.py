"""A play is its initial state (setup, seed, options) plus an append-only event log.

Pure functions over plain data: the current state is a replay of the active events, so undo
and redo are a pointer into the log and nothing recorded is ever overwritten. No Flask, no SQL.
"""
from __future__ import annotations

import copy
from functools import cache, reduce
from operator import or_
from typing import Annotated, Any

from pydantic import Field, ValidationError

from . import clock, clock_players
from .clock_players import TurnLimitChange, apply_turn_limit
from .games import GAMES, Game, ending, game_taking, get_game
from .games.bodies import Device, On, adapter, check, data_of, event_type, given
from .games.box_questions import complete_answer
from .games.errors import IMPOSSIBLE, RuleError, say
from .games.inputs import is_whole_number_text
from .games.messages import Message, series
from .games.protocol import make_rng, new_seed, refused_event
from .games.requests import COLOURS, Seats, SeedValue, play_request, setup_request
from .seats import SeatEdits, apply_edits
from .sheet_changes import apply_sheet, kind_word, sheet_change

COMMON_EVENTS = ("sheet", "advance", "finish", "box_value", "seat_edits", "turn_limit",
                 *clock.EVENTS)
# Events a finished play still takes: corrections of the sheets and answers to the score's
# questions about the box (a finished play becomes complete as soon as they are answered).
AFTER_FINISH = ("sheet", "box_value")


def parse_seed(seed: Any, field: str = "seed") -> str | int:
    """A seed as a play keeps it (the same seed gives the same setup on any machine): its
    declaration checked, text of digits read as that number."""
    seed = check(SeedValue, seed, field)
    if isinstance(seed, str) and is_whole_number_text(seed):
        return int(seed)
    return seed.strip() if isinstance(seed, str) else seed


def parse_seats(players: Any, game: Game) -> list[dict]:
    """[{"name", "colour"}] in seat order from a new play's players (names or seats, their
    declaration checked): names as kept and distinct (422), a colour left out the seat's."""
    seats = [{"name": s} if isinstance(s, str) else given(s) for s in check(Seats, players,
                                                                          "players")]
    names = game.check_players([s["name"] for s in seats])
    return [{"name": name, "colour": seat.get("colour") or COLOURS[i % len(COLOURS)]}
            for i, (name, seat) in enumerate(zip(names, seats, strict=True))]


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
    state = game.start_state(state)
    # in a game with turns, the first player's clock runs from the start
    state["clock"] = clock_players.ready(state, state["clock"])
    return state


def valid_device(value: Any) -> bool:
    """A device id (a header's, a stored event's) as the bodies' Device declares it (a phone
    makes a random one and keeps it)."""
    try:
        adapter(Device).validate_python(value)
    except ValidationError:
        return False
    return True


def parse_event(game: Game, body: Any) -> dict:
    """An event request checked against the game's declared events (a 400 naming the field):
    {"type", "data" (as sent, which is stored), "expected_version", "device", "typed" (the
    checked data its function takes)}. An event type of another game has an event's shape
    and is refused for the play's game: 422 unknown_event (protocol.refused_event)."""
    kind = body.get("type") if isinstance(body, dict) else None
    if isinstance(kind, str) and kind not in common_events(game.id) \
            and kind not in game.events and game_taking(kind) is not None:
        raise refused_event(game, kind)
    event = check(event_body(game.id), body)
    data = body.get("data")
    return {"type": event.type, "data": {} if data is None else data,
            "expected_version": event.expected_version, "device": event.device,
            "typed": event.data}


def apply_event(state: dict, event: dict, *, check_whole: bool = True) -> dict:
    """The state after one event; the input state is never changed. Raises RuleError.
    ``event["at"]`` (when the event was recorded, from its row) drives the game clock.

    A new sheet event whose sheets cannot happen as a whole is refused (``check_whole``);
    a replay of recorded events passes False, so a play recorded before a check existed
    still opens (its score then names the problem)."""
    if event["type"] in clock.EVENTS:
        return clock.apply(state, event)
    return clock.follow(state, apply_rules(state, event, check_whole), event.get("at"))


# Parts of a state no event changes: shared between a state and the next instead of copied
# (the setup and the box data are most of a state's size). Every game's events leave them as
# they are (tests/unit/test_plays.py: the input state of every event stays unchanged).
FIXED_PARTS = frozenset({"setup", "catalogue", "players", "options", "seed", "game"})


def copy_for_change(state: dict, copies: tuple[str, ...] | None = None) -> dict:
    """A copy an event may change: the changing parts (``copies``, else every part but
    FIXED_PARTS) copied deeply, the rest shared."""
    return {k: copy.deepcopy(v) if (k in copies if copies is not None else k not in FIXED_PARTS)
            else v for k, v in state.items()}


def apply_rules(state: dict, event: dict, check_whole: bool = True) -> dict:
    """The game's part of an event: common types first, then the game's own."""
    game = get_game(state["game"])
    kind = event["type"]
    on = common_events(game.id).get(kind)
    state = copy_for_change(state, on.copies if on is not None else None)
    if state["finished"] and kind not in AFTER_FINISH:
        raise RuleError("This play has finished; only score sheets can still be corrected.",
                        "type", "play_finished", 422)
    if on is None:
        return game.apply(state, event)
    state = on.apply(state, data_of(on, event))
    if kind != "sheet":
        return state
    if check_whole:
        game.check_sheet_change(state, event.get("data") or {})
        check_whole_sheets(state)
    return game.after_sheet_change(state)


def finish(state: dict, data: Any) -> dict:
    state["finished"] = True
    return state


@cache
def common_events(game_id: str) -> dict[str, On]:
    """The events every game takes (clock events are applied by companion.clock)."""
    game = get_game(game_id)
    table = {"sheet": On(sheet_change(game), lambda state, data: apply_sheet(game, state, data),
                         "Set rows of a player's score sheet (fields) and/or add to them (add)",
                         copies=()),
             "advance": On(None, lambda state, data: game.advance(state),
                           "Next phase or round (data not read)"),
             "finish": On(None, finish, "End of the game (data not read)"),
             "box_value": On(game.box_value_type,
                             lambda state, data: apply_box_value(game, state, data),
                             "An answer to one of the score's questions about the box",
                             copies=()),
             "seat_edits": On(SeatEdits, apply_edits, "The host changes who may edit which "
                              "seat (a seat token may not send this)", copies=()),
             "turn_limit": On(TurnLimitChange, apply_turn_limit, "The host changes the "
                              "optional limit on one turn (a seat token may not send this)",
                              copies=()),
             "pause": On(None, clock.apply, "Stop the game clock (data not read)"),
             "resume": On(None, clock.apply, "Count on (data not read)")}
    if game.box_value_type is None:
        del table["box_value"]
    return table


def game_events(game_id: str) -> dict[str, On]:
    """Every event a play of this game takes: the common ones and the game's own."""
    return {**common_events(game_id), **get_game(game_id).events}


@cache
def event_body(game_id: str) -> Any:
    """The body of POST .../events for a play of this game, declared once."""
    return event_type(game_id.capitalize(), game_events(game_id))


# --------------------------------------------------------------------------- labels
# (worded unlike the buttons' own names: "Undo: Next phase" beside "Next phase →" would be
# two buttons a person, or a screen reader, could mistake for each other)
# (messages: the pages show every label in the player's language, the API its English)
COMMON_WORDS = {"advance": say("End of the phase"), "finish": say("End of the game"),
                "pause": say("Pause the clock"), "resume": say("Restart the clock"),
                "box_value": say("A box value"),
                "seat_edits": say("Who may edit which seat"),
                "turn_limit": say("The turn limit")}


def describe_event(state: dict, event: dict, moment: str | None = None) -> str:
    """An event in plain words for players: "Cecilie +1 territory", "Ann: Outposts built +1",
    "Ann's sheet: Delivered livestock pig 3". A game may say it in its own words.
    ``moment``: "after" when ``state`` is the one right after the event (an undo of the last
    change), "before" when it is the one right before it (a redo), None when unknown; it lets
    the end of a turn, phase or round name which one it was."""
    game = get_game(state["game"])
    words = game.describe_event(state, event, moment)
    if words:
        return words
    kind, data = event.get("type"), event.get("data") or {}
    if kind == "sheet":
        return describe_sheet(game, state, data)
    if kind == "advance":
        return describe_advance(game, state, moment)
    if kind in COMMON_WORDS:
        return COMMON_WORDS[kind]
    words = str(kind).replace("_", " ").capitalize()
    player = data.get("player")
    return say("%(player)s: %(changes)s", player=player, changes=words.lower()) if isinstance(
        player, str) else words


def describe_advance(game: Game, state: dict, moment: str | None) -> str:
    """"End of round 2", "End of the actions phase": which phase ended, when the state is
    known to be the one right after (or right before) the change."""
    phases = list(game.phases)
    if moment not in ("after", "before") or state["phase"] not in phases:
        return say("End of the round") if len(phases) == 1 else COMMON_WORDS["advance"]
    index, round_ = phases.index(state["phase"]), state["round"]
    if moment == "after" and not state["finished"]:
        index -= 1                  # the phase before the current one ended
        if index < 0:
            index, round_ = len(phases) - 1, round_ - 1
    if index == len(phases) - 1 or state["finished"]:
        return say("End of round %(round)s", round=round_)
    return say("End of the %(phase)s phase", phase=PHASE_WORDS.get(phases[index], phases[index]))


# the games' phases as a label names them (the pages' own list of them shares these words)
PHASE_WORDS = {"actions": say("actions"), "cleanup": say("cleanup"), "reveal": say("reveal"),
               "draft": say("draft"), "income": say("income"), "heroes": say("heroes"),
               "turns": say("turns"), "player turns": say("player turns"), "play": say("play")}


def describe_sheet(game: Game, state: dict, data: dict) -> str:
    specs = {f.name: f for f in game.sheet_fields}
    player = data.get("player") or "?"
    parts = []
    for name, delta in (data.get("add") or {}).items():
        spec, label = specs.get(name), specs[name].label if name in specs else name
        if isinstance(delta, dict):
            parts += [kind_words(spec, label, k, abs(n), sign_of(n)) for k, n in delta.items()]
        else:
            parts.append(Message("%(row)s %(change)s", {"row": label, "change": signed(delta)}))
    if parts and not data.get("fields") and not data.get("set"):
        return say("%(player)s: %(changes)s", player=player, changes=shortened(parts))
    for name, value in (data.get("fields") or {}).items():
        spec, label = specs.get(name), specs[name].label if name in specs else name
        if isinstance(value, dict) and value and spec is not None and spec.counted:
            parts += [spec.counted(k, n, "") for k, n in value.items()]
            continue
        parts.append(Message("%(row)s %(change)s", {"row": label, "change": shown(value, spec)}))
    for name, kinds in (data.get("set") or {}).items():
        spec, label = specs.get(name), specs[name].label if name in specs else name
        if isinstance(kinds, dict):
            parts += [kind_words(spec, label, k, n, "") for k, n in kinds.items()]
    if parts:
        return say("%(player)s's sheet: %(changes)s", player=player, changes=shortened(parts))
    if data.get("done") is True:
        return say("%(player)s's sheet is done", player=player)
    if data.get("done") is False:
        return say("%(player)s's sheet is open again", player=player)
    return say("%(player)s's sheet, unchanged", player=player)


def kind_words(spec, label: Any, key: Any, n: Any, sign: str) -> Message:
    """One kind of a row with its count (``sign`` before it for a change): in the row's own
    words where it has them ("+1 horse delivered"), else "Progress Track positions Trade 5"."""
    if spec is not None and spec.counted and isinstance(n, int):
        return spec.counted(key, n, sign)
    return Message("%(row)s %(kind)s %(change)s",
                   {"row": label, "kind": kind_word(spec, key), "change": f"{sign}{n}"})


def sign_of(n: Any) -> str:
    return "+" if isinstance(n, int) and n > 0 else "-" if isinstance(n, int) and n < 0 else ""


def signed(n: Any) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n)


def shown(value: Any, spec=None) -> Any:
    """A sheet value as an Undo label shows it: yes, no, blank, none, the kinds and counts, a
    text (as typed, cut short)."""
    if isinstance(value, bool):
        return say("yes") if value else say("no")
    if isinstance(value, dict):
        return series([Message("%(kind)s %(count)s", {"kind": kind_word(spec, k), "count": v})
                       for k, v in value.items()], ", ") if value else say("none")
    if isinstance(value, list):
        return series([kind_word(spec, v) if isinstance(v, str) else v for v in value],
                      ", ") if value else say("none")
    if value in (None, ""):
        return say("blank")
    text = str(value)
    return text if len(text) <= 24 else text[:23] + "…"


def shortened(parts: list) -> Message:
    if len(parts) > 2:
        return say("%(shown)s and %(count)s more", shown=series(parts[:2]), count=len(parts) - 2)
    return series(parts)


def apply_box_value(game: Game, state: dict, data: Any) -> dict:
    """An answer to one of the score's questions about the box, kept in this play only."""
    value = game.parse_box_value(data.key, data.value)
    state["box_values"] = {**state.get("box_values", {}), data.key: value}
    return game.box_value_answered(state, data.key)


def scoring_catalogue(state: dict) -> dict:
    """The box data a play scores with: what it started with plus what the table answered."""
    answers = state.get("box_values") or {}
    if not answers:
        return state["catalogue"]
    return get_game(state["game"]).with_box_values(state["catalogue"], answers)


def replay(initial: dict, events: list[dict]) -> dict:
    """The state after the given events, from the initial state."""
    state = initial
    for event in events:
        state = apply_event(state, event, check_whole=False)
    return state


# What a score is made of: a new state of a play has new objects in place of those an event
# changed (copy_for_change) and shares the rest, so a state is scored once, whoever asks (the
# whole-sheet check of a change, its answer, the page, the summary of a finished play).
SCORE_PARTS = ("game", "sheets", "table", "box_values", "catalogue", "options", "finished",
               ending.ENTERED, ending.DONE)
_SCORED: list[tuple[tuple, dict, RuleError | None]] = []


def score_of(state: dict) -> dict:
    """The scoring endpoint's response for a play's current sheets, or {"error": ...}."""
    return _scored(state)[0]


def _scored(state: dict) -> tuple[dict, RuleError | None]:
    parts = tuple(state.get(k) for k in SCORE_PARTS)
    for kept, response, error in list(_SCORED):
        if all(a is b for a, b in zip(kept, parts, strict=True)):
            return response, error
    game, error = get_game(state["game"]), None
    try:
        catalogue = scoring_catalogue(state)
        if catalogue is not state["catalogue"]:
            state = dict(state, catalogue=catalogue)
        response = complete_answer(game.tally(game.score_body(state), catalogue))
        response.update(ending.outcome(game, state, response))
    except RuleError as err:
        response, error = err.as_dict(), err
    _SCORED.insert(0, (parts, response, error))
    del _SCORED[16:]
    return response, error


def check_whole_sheets(state: dict) -> None:
    """Refuse a play's sheets that cannot happen as a whole: the scoring path's own checks, so
    a live play and the scoring endpoint refuse the same sheets (the score is kept for the
    answer). Only ``impossible_sheet`` refuses; other scoring errors (a box value not entered
    yet) are the score's business, not the sheet's."""
    error = _scored(state)[1]
    if error is not None and error.code == IMPOSSIBLE:
        raise error


def run_setup(game_id: str, body: Any, catalogue: dict) -> dict:
    """The stateless setup endpoint: {"players", "seed", "options"} -> {"game", "seed", ...}."""
    game = get_game(game_id)
    request = check(setup_request(game), body)
    names = game.check_players(request.players)
    options = game.parse_options(request.options)
    seed = new_seed() if request.seed is None else parse_seed(request.seed)
    setup = game.setup(names, options, make_rng(seed), catalogue)
    return {"game": game.id, "seed": seed, "players": names, "options": options, "setup": setup}


def run_score(game_id: str, body: Any, catalogue: dict) -> dict:
    """The stateless scoring endpoint."""
    return complete_answer(get_game(game_id).score(body, catalogue))


@cache
def play_body() -> Any:
    """The body of POST /plays: a new play of one of the games (by "game")."""
    return Annotated[reduce(or_, [play_request(g) for g in GAMES.values()]),
                     Field(discriminator="game")]
