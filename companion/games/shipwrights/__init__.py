"""Shipwrights of the North Sea: Redux (Garphill Games), 1-5 players, 5 rounds.

The card data (Round Cards, Hut icons, track VP for spaces 15-18, Nemesis cards) is printed
only on the cards, so it comes from the installation's box catalogue (``catalogue.py``); the
app never invents a value it lacks, it asks for it.

Parts: ``rules`` (fixed facts), ``catalogue`` (box data), ``setup``, ``heroes`` (adjudication),
``phases`` (sentences per phase), ``play`` (a play's table state), ``scoring``.
"""
from __future__ import annotations

import random
from typing import Annotated, Any

from pydantic import AfterValidator, Field, create_model, model_validator

from ..bodies import Body, refuse, text, whole
from ..errors import say
from ..protocol import Game
from . import box_values, play
from .catalogue import (
    MAX_NEMESIS,
    MAX_TEXT,
    CatalogueShipwrights,
    TrackVp,
    catalogue_rules,
    track_vp_question,
    validate_catalogue,
)
from .events import EVENTS
from .heroes import Markers, adjudicate_heroes, award_heroes
from .rules import OPTIONS, PHASES, ROUNDS, TRACKS
from .scoring import SHEET_FIELDS, tally
from .setup import build_setup


def _once(ids: list[str]) -> list[str]:
    """Each id once (the schema's uniqueItems): the second of two is to blame."""
    for i, card in enumerate(ids):
        if card in ids[:i]:
            raise refuse(say("Each Nemesis card id must be named once."), i)
    return ids


SoloOpponent = create_model(
    "ShipwrightsSoloOpponent", __base__=Body,
    __doc__="Solo scoring: the opponent's heroes, Round Card VP and markers",
    heroes_won=(whole(0, len(TRACKS)), ...),
    round_card_vp=(Annotated[list[whole()], Field(min_length=ROUNDS, max_length=ROUNDS)], ...),
    tracks=(Markers, ...))
OPTION_TYPES = {
    "track_vp": Annotated[TrackVp | None, Field(description="over the box data's")],
    "solo_opponent": SoloOpponent | None,
    "nemesis": Annotated[Annotated[list[text(MAX_TEXT)], AfterValidator(_once)] | None, Field(
        max_length=MAX_NEMESIS, json_schema_extra={
        "uniqueItems": True}, description="Solo: the box data's Nemesis card ids to play "
        "against (an id the box data lacks, or more than one player, is a 422)")]}


class NemesisOnce(Body):
    """Nemesis cards by id or by number, not both."""
    model_config = {"json_schema_extra": {"not": {"required": ["nemesis", "nemesis_cards"],
                                                  "properties": {
        "nemesis": {"type": "array", "minItems": 1},
        "nemesis_cards": {"type": "integer", "minimum": 1}}}}}

    @model_validator(mode="after")
    def by_id_or_number(self):
        if getattr(self, "nemesis", None) and getattr(self, "nemesis_cards", 0):
            raise refuse(say("Either choose Nemesis cards by id or ask for a number of them, "
                             "not both."), "nemesis_cards")
        return self


class ShipwrightsGame(Game):
    id = "shipwrights"
    # TRANSLATORS: no German or French edition of Redux found: the English name stays.
    name = say("Shipwrights of the North Sea: Redux")
    min_players = 1
    max_players = 5
    options = OPTIONS
    option_types = OPTION_TYPES
    options_base = NemesisOnce
    phases = PHASES
    rounds = ROUNDS
    sheet_fields = SHEET_FIELDS
    catalogue_help = say("Round Cards (title, track icons, solo VP, draft arrows, trades), the "
                         "track icon of each of the 6 Huts, the VP of track spaces 15-18 and "
                         "the 4 Nemesis cards' icons: all printed only on the cards.")

    def setup(self, players: list[str], options: dict, rng: random.Random,
              catalogue: dict) -> dict:
        return build_setup(players, options, rng, catalogue)

    def tally(self, request: dict, catalogue: dict) -> dict:
        return tally(request, validate_catalogue(catalogue or {}))

    catalogue_type = CatalogueShipwrights
    catalogue_rules = staticmethod(catalogue_rules)

    box_value_type = box_values.ShipwrightsTrackVp

    def parse_box_value(self, key: Any, value: Any) -> Any:
        return box_values.parse(key, value)

    def box_question(self, key: str) -> str:
        return track_vp_question(key.removeprefix("track_vp."))

    def with_box_values(self, catalogue: dict, answers: dict) -> dict:
        return box_values.merge(catalogue, answers)

    def box_value_answered(self, state: dict, key: str) -> dict:
        return play.forget_answered_notes(state, key)

    def box_value_of(self, catalogue: dict, key: str) -> Any:
        return validate_catalogue(catalogue or {})["track_vp"].get(key.removeprefix("track_vp."))

    def box_questions_ahead(self, catalogue: dict) -> list[dict]:
        return box_values.ahead(catalogue)

    def box_needs(self, catalogue: dict, player_count: int) -> list[dict]:
        return box_values.needs(catalogue, player_count)

    def start_state(self, state: dict) -> dict:
        return play.start_state(state)

    def advance(self, state: dict) -> dict:
        return play.advance(state)

    def describe_event(self, state: dict, event: dict, moment: str | None = None
                       ) -> str | None:
        data = event.get("data") or {}
        if event.get("type") == "track" and isinstance(data.get("steps"), int):
            steps = f"{'+' if data['steps'] > 0 else ''}{data['steps']}"
            track = TRACK_WORDS.get(data.get("track"), str(data.get("track")))
            if data.get("player") == play.NEUTRAL:
                return say("The neutral player: %(track)s track %(steps)s", track=track,
                           steps=steps)
            return say("%(player)s: %(track)s track %(steps)s", player=data.get("player"),
                       track=track, steps=steps)
        if event.get("type") == "done" and isinstance(data.get("player"), str):
            return say("%(player)s is done with this phase", player=data["player"])
        if event.get("type") == "reveal":
            return say("Round card revealed")
        return None

    def inverse_event(self, event: dict) -> dict | None:
        data = event.get("data") or {}
        if event.get("type") == "track" and isinstance(data.get("steps"), int):
            return {"type": "track", "data": {**data, "steps": -data["steps"]}}
        return None

    events = EVENTS

    def score_body(self, state: dict) -> dict:
        return play.score_body(state, super().score_body(state))

    def adjudicate_heroes(self, body: Any) -> dict:
        """``POST /games/shipwrights/heroes`` (the same as the module-level function; the
        games registry binds the name ``shipwrights`` to this object)."""
        return adjudicate_heroes(body)


TRACK_WORDS = {"military": say("military"), "trade": say("trade"), "renown": say("renown")}

GAME = ShipwrightsGame()

__all__ = ["GAME", "ShipwrightsGame", "adjudicate_heroes", "award_heroes"]
