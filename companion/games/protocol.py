"""The Game protocol, and the seeded randomness and seat order every game shares.

Pure: standard library only. Nothing here knows that a request, a database or a page exists.
A game is metadata plus pure functions:

- ``setup(players, options, rng, catalogue)`` -> dict (the ``setup`` object of the API);
- ``score(body, catalogue)`` -> dict (the scoring endpoint's response), which checks the
  request and hands it to the game's ``tally(request, catalogue)``;
- play hooks used by ``companion.plays``: ``start_state``, ``apply``, ``advance``,
  ``score_body``;
- box data (:class:`~companion.games.box_questions.BoxQuestions`).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from .bodies import Body, On, check, data_of, given
from .box_questions import BoxQuestions
from .errors import RuleError, unknown_event
from .inputs import Option, SheetField, active_fields, check_players, refuse_idle_rows
from .requests import options_type, score_request


# --------------------------------------------------------------------------- randomness
def make_rng(seed: Any) -> random.Random:
    """The only source of randomness: a Random seeded by a string or an integer."""
    return random.Random(seed)


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a request that did not bring one."""
    return (rng or random.SystemRandom()).randrange(1, 2**53)


def seat_after(players: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats clockwise after ``player`` (negative: to their right)."""
    i = players.index(player)
    return players[(i + steps) % len(players)]


# --------------------------------------------------------------------------- the protocol
class Game(BoxQuestions):
    """Base for a game. Subclasses set the metadata and override what their rules need."""
    id: str = ""
    name: str = ""
    min_players: int = 1
    max_players: int = 5
    options: tuple[Option, ...] = ()
    # structured options the game declares as types of its own (box values a request carries
    # over the box data's), their checks across values its parse_options' business; a rule
    # between options goes in options_base (a Body subclass with its validator and schema)
    option_types: dict[str, Any] = {}
    options_base: type = Body
    score_types: dict[str, Any] = {}        # what a scoring request holds besides the sheets
    phases: tuple[str, ...] = ("play",)
    rounds: int | None = None                  # None: no fixed number of rounds
    sheet_fields: tuple[SheetField, ...] = ()
    catalogue_help: str = ""                   # what the box catalogue holds for this game
    # the game's own events (besides those of companion.plays, which every game takes): each
    # type's data declared once (it validates the data and is the OpenAPI document's schema)
    # and the small function that applies it; tests fuzz every type listed here
    events: dict[str, On] = {}

    @property
    def event_types(self) -> tuple[str, ...]:
        return tuple(self.events)

    # ---- metadata
    def describe(self) -> dict:
        return {"id": self.id, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players,
                "options": {o.name: o.describe() for o in self.options}}

    def parse_options(self, options: Any) -> dict:
        """The options as declared (companion.games.requests.options_type), checked once (a
        checked model passes as it is), with the defaults of those left out."""
        if not isinstance(options, BaseModel):
            options = check(options_type(self), {} if options is None else options, "options")
        return {**{o.name: o.default for o in self.options}, **given(options)}

    def check_players(self, players: list[str]) -> list[str]:
        return check_players(players, self.min_players, self.max_players)

    # ---- stateless
    def setup(self, players: list[str], options: dict, rng: random.Random,
              catalogue: dict) -> dict:
        raise NotImplementedError

    def score(self, body: Any, catalogue: dict) -> dict:
        """The scoring endpoint's answer to a request as sent: its declaration checked (a 400
        naming the field), the names and the sheets' rows by the rules that need the players
        and the options (422), then counted (``tally``)."""
        request = check(score_request(self), body)
        names = self.check_players([p.name for p in request.players])
        options = self.parse_options(request.options)
        players = [{"name": name, "sheet": self.filled(given(p.sheet) if p.sheet else {},
                                                       options, f"players[{i}].sheet")}
                   for i, (name, p) in enumerate(zip(names, request.players, strict=True))]
        extra = {key: given(getattr(request, key)) for key in self.score_types}
        return self.tally({"players": players, "options": options, **extra}, catalogue)

    def tally(self, request: dict, catalogue: dict) -> dict:
        """The answer to a checked request: {"players": [{"name", "sheet" (``filled``)}],
        "options" (parsed), and the game's score_types as plain data}; only the rules across
        rows, players and the box data are left to check (a 422 each)."""
        raise NotImplementedError

    # ---- a play at the table (state is a plain dict; see companion/plays.py).
    # Each hook gets a deep copy of the state that it may change and return. They must be
    # deterministic: a play's state is a replay of its events.
    def start_state(self, state: dict) -> dict:
        """Add the game's own keys to a new play's state (e.g. ``state["table"]``).
        The box catalogue the play was created with is ``state["catalogue"]``."""
        return state

    def apply(self, state: dict, event: dict) -> dict:
        """Apply one of the game's own events to a copy of the state: its data checked against
        its declaration (unless ``event["typed"]`` holds it checked), then its function."""
        on = self.events.get(event.get("type"))
        if on is None:      # unknown_event: 422 when another game takes the type, else 400
            raise refused_event(self, event.get("type"))
        return on.apply(state, data_of(on, event))

    def advance(self, state: dict) -> dict:
        """Next phase, or the next round after the last phase; upkeep belongs here."""
        phases = self.phases
        i = phases.index(state["phase"]) if state["phase"] in phases else -1
        if i + 1 < len(phases):
            state["phase"] = phases[i + 1]
            return state
        if self.rounds is not None and state["round"] >= self.rounds:
            state["finished"] = True
            return state
        state["round"] += 1
        state["phase"] = phases[0]
        return state

    def describe_event(self, state: dict, event: dict, moment: str | None = None
                       ) -> str | None:
        """The event in the game's own plain words for players ("Cecilie +1 territory"), or
        None for the common wording (companion.plays.describe_event). ``moment``: "after"
        when ``state`` is the one right after the event, "before" right before it, None
        when unknown (whose turn ended can be told from the first two)."""
        return None

    def inverse_event(self, event: dict) -> dict | None:
        """The game event that takes ``event`` back when later changes stand after it (a
        counter's negated ``add``), or None when it cannot be taken back out of order."""
        return None

    def score_body(self, state: dict) -> dict:
        """The scoring request for a play's current sheets (scored with
        ``score(body, state["catalogue"])``)."""
        options = state["options"]
        return {"players": [{"name": p["name"],
                             "sheet": self.filled(state["sheets"].get(p["name"], {}), options)}
                            for p in state["players"]],
                "options": options}

    def filled(self, sheet: dict, options: dict, where: str = "sheet") -> dict:
        """A sheet of checked rows as a score reads it: every row the options use, those left
        out empty; a row of an option that is off is a 422 (refuse_idle_rows)."""
        refuse_idle_rows(self.sheet_fields, options, sheet, where)
        return {f.name: f.settle(sheet[f.name], f"{where}.{f.name}") if f.name in sheet
                else f.empty() for f in self.sheet_fields_for(options)}

    def is_over(self, state: dict) -> bool:
        """Whether the play is over and its final scoring due (companion.games.ending)."""
        return bool(state.get("finished"))

    def after_sheet_change(self, state: dict) -> dict:
        """After a sheet change: a game that ends the moment a sheet reaches something (a
        race won on one's own turn) ends it here."""
        return state

    def check_sheet_change(self, state: dict, data: dict) -> None:
        """Rules of this play a new sheet change must keep beyond the sheet's own shape (an
        Explorers captain dealt to another player): a RuleError (422) refuses it. ``state``
        is the state after the change, ``data`` the change as sent; a replay of recorded
        events does not ask."""

    def sheet_fields_for(self, options: dict) -> list[SheetField]:
        return active_fields(self.sheet_fields, options)

    def sheet_kinds(self, field: SheetField, options: dict,
                    catalogue: dict) -> list[tuple[str, str]]:
        """The kinds a "counts" row offers a stepper each, as (key, label): its fixed keys by
        default; a game whose row takes any name (Reavers' keep spoils) names the kinds to
        offer, from the play's box data."""
        return [(key, field.key_label(key)) for key in field.keys]


def refused_event(game: Game, kind) -> RuleError:
    """Why ``game`` refuses an event of type ``kind`` (companion.games.errors.unknown_event)."""
    from . import game_taking  # the registry imports every game, this module first

    other = game_taking(kind) if isinstance(kind, str) else None
    return unknown_event(game.name, kind, game.event_types,
                         other.name if other is not None and other is not game else None)

