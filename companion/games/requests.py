"""The API's request bodies besides an event (companion.plays.event_body): a setup, a score
and a new play of each game, undo and redo, each declared once (companion.games.bodies) from
the games' own Option and SheetField declarations."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, create_model, model_validator

from .bodies import Body, Device, Int64, model_of, one_of, refuse, row_type, text, whole
from .errors import say
from .inputs import MAX_NAME, Option

if TYPE_CHECKING:
    from .protocol import Game

COLOURS = ("red", "blue", "green", "yellow", "purple", "black", "white", "orange")
MAX_SEED = 200
Name = text(MAX_NAME, say("A player's name"), min_length=1)
Names = Annotated[list[Name], Field(json_schema_extra={"uniqueItems": True})]
SeedValue = Int64 | text(MAX_SEED, min_length=1)
Seed = Annotated[SeedValue | None, Field(
    description="The same seed gives the same setup on any machine; absent or null: a fresh "
                "one (the answer says which). Text of digits is that number.")]


def option_type(option: Option) -> Any:
    words = {"title": option.label, "description": option.help or None}
    if option.kind == "bool":
        return Annotated[bool, Field(**words)]
    if option.kind == "choice":
        return Annotated[one_of(option.choices), Field(**words)]
    number = whole(option.minimum, option.maximum, **words)
    return number if option.default is not None else number | None


@cache
def options_type(game: Game) -> type:
    """A game's setup options: each Option by its kind, and the structured ones the game
    declares itself (Game.option_types)."""
    rows = {o.name: option_type(o) for o in game.options}
    return model_of(f"Options{game.id.capitalize()}", {**rows, **game.option_types},
                    f"{game.name}: its setup options (GET /api/v1/games lists them with their "
                    "defaults).", game.options_base)


@cache
def rows_type(game: Game) -> type:
    """One player's score sheet: its rows by kind; a row left out counts as empty."""
    return model_of(f"Sheet{game.id.capitalize()}",
                    {f.name: row_type(f) for f in game.sheet_fields},
                    f"{game.name}: one player's score sheet.")


@cache
def setup_request(game: Game) -> type:
    return create_model(f"SetupRequest{game.id.capitalize()}", __base__=Body,
                        __doc__=f"{game.name}: a setup request (a wrong player count is a 422).",
                        players=(Names, ...), seed=(Seed, None),
                        options=(options_type(game), None))


@cache
def score_request(game: Game) -> type:
    key = game.id.capitalize()
    seat = create_model(f"ScoreSeat{key}", __base__=Body, name=(Name, ...),
                        sheet=(rows_type(game) | None, None))
    return create_model(f"ScoreRequest{key}", __base__=Body,
                        __doc__=f"{game.name}: a scoring request.",
                        players=(list[seat], ...), options=(options_type(game), None),
                        **{k: (kind, None) for k, kind in game.score_types.items()})


SeatEditsChoice = Annotated[one_of(("all", "own")) | None, Field(description=(
    "Who may change what: 'all' (absent or null: every phone edits every seat) or 'own' (a "
    "seat token edits only its own seat; the edit token, the host's, edits all)."))]
UtcOffset = Annotated[whole(-16 * 60, 16 * 60) | None, Field(description=(
    "The table's time zone when the play begins, in minutes east of UTC (the starting phone's "
    "offset): BG Stats and the exports date the play by its local start."))]
TurnLimit = Annotated[whole(0, 4 * 3600) | None, Field(description=(
    "An optional limit on one turn, in seconds (absent, null or 0: none): the phone whose "
    "turn it is gives a gentle signal when its turn passes it. The host's phone changes it "
    "later with a turn_limit event."))]
Colour = Annotated[one_of(COLOURS) | None, Field(description="absent or null: the seat's")]
Seat = Name | create_model("Seat", __base__=Body, name=(Name, ...), colour=(Colour, None))
Seats = Annotated[list[Seat], Field(json_schema_extra={"uniqueItems": True})]


@cache
def play_request(game: Game) -> type:
    return create_model(f"PlayRequest{game.id.capitalize()}", __base__=Body,
                        __doc__=f"A new {game.name} play.", game=(Literal[game.id], ...),
                        players=(Seats, ...),
                        options=(options_type(game), None), seed=(Seed, None),
                        seat_edits=(SeatEditsChoice, None), utc_offset_min=(UtcOffset, None),
                        turn_limit_s=(TurnLimit, None))


class TakeBack(Body):
    """Not both device and a whole-number expected_version."""
    model_config = {"json_schema_extra": {"not": {
        "required": ["device", "expected_version"],
        "properties": {"device": {"type": "string"}, "expected_version": {"type": "integer"}}}}}
    expected_version: Int64 | None = None
    device: Device | None = None

    @model_validator(mode="after")
    def one_way(self):
        if self.device is not None and self.expected_version is not None:
            raise refuse(say("Send either device (that device's own last change or undo) or "
                             "expected_version (the latest change), not both."), "device")
        return self


class UndoRequest(TakeBack):
    """Undo the latest change, or with ``device`` that device's last change instead (the
    clock's pause and resume are never changes to undo): a sheet or counter change gets a
    compensating event recorded as this device's undo; a change no event inverts (a turn end,
    advance) moves the head back when nothing but the clock came after it (those clock events
    are recorded again); anything else is a 409 cannot_undo_out_of_order with a sentence,
    nothing left a 409 nothing_to_undo."""


class RedoRequest(TakeBack):
    """Redo the latest undone event, or with ``device`` that device's last undo instead: its
    compensating event is taken back in turn, or the head moves on over the device's own
    change; a change the device made since ends the redo (409 nothing_to_redo), one changed
    again since on another phone is a 409 cannot_redo."""
