"""Explorers' events at the table, each declared once (its data validates the event and is its
schema in the OpenAPI document) with the function that applies it (companion.games.explorers
.play)."""
from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, create_model, model_validator

from ..bodies import Body, On, Player, delta, model_of, refuse, said, whole
from ..errors import say
from ..inputs import MAX_NUMBER
from .islands import INFLUENCE, MAX_ISLAND_NAME, MAX_ISLANDS, STRUCTURES
from .play import add_island, end_turn, keep_captain, remove_island, set_influence, update_island

Island = whole(0, MAX_ISLANDS - 1, say("Island"), description="The island's index on the "
               "table (from 0); one that is not on the table is a 422 unknown_island")
# the pieces as a refusal names them ("Vikings: at least 0"), never by their keys
PIECE_TITLES = {"vikings": say("Vikings"), "outposts": say("Outposts"), "mill": say("Mill"),
                "workshop": say("Workshop"), "barracks": say("Barracks")}
PIECES = {k: Annotated[bool | whole(0, 1), Field(title=PIECE_TITLES[k], description="Built "
                                                 "(Rocks of Ruin; else a 422)")]
          if k in STRUCTURES else whole(0, MAX_NUMBER, PIECE_TITLES[k]) for k in INFLUENCE}
Pieces = model_of("ExplorersPieces", PIECES, "A player's pieces on an island")
ISLAND = {"tiles": whole(1, MAX_NUMBER, say("Tiles")), "complete": bool,
          "unraided_fortress": bool,
          "name": said(Annotated[str, Field(max_length=MAX_ISLAND_NAME)]) | None,
          "influence": dict[Player, Pieces | None] | None}
ScoredIsland = create_model(
    "ExplorersIsland", __base__=Body, __doc__="An island on the table, scored for control",
    **{k: (v, ... if k in ("tiles", "complete") else None) for k, v in ISLAND.items()})
SCORE_TYPES = {"islands": Annotated[list[ScoredIsland], Field(max_length=MAX_ISLANDS)] | None}
NewIsland = create_model("ExplorersNewIsland", __base__=Body, __doc__="A new island",
                         **{k: (v, ... if k == "tiles" else None) for k, v in ISLAND.items()})
TileAdd = Annotated[model_of("ExplorersTileAdd", {"tiles": delta(100, say("tiles"))}),
                    Field(json_schema_extra={"minProperties": 1})]
PieceAdd = Annotated[model_of("ExplorersPieceAdd",
                              {k: delta(100, PIECE_TITLES[k]) for k in INFLUENCE}),
                     Field(json_schema_extra={"minProperties": 1})]


def not_both(keys) -> dict:
    """No key both set (beside add) and added to (in add) in one change (a 400)."""
    return {"not": {"anyOf": [{"required": [k, "add"], "properties": {
        "add": {"type": "object", "required": [k]}}} for k in keys]}}


class SetOrAdd(Body):
    @model_validator(mode="after")
    def set_or_added(self):
        both = sorted(self.model_fields_set & (self.add.model_fields_set if self.add else set()))
        if both:
            raise refuse(say("'%(key)s' is either set or added to in one change, not both.",
                             key=both[0]), f"add.{both[0]}")
        return self


class IslandChange(SetOrAdd):
    """An island changed: values to set, and/or tiles to add (``add``, a result under 1 is a
    422 out_of_range)."""
    model_config = ConfigDict(json_schema_extra=not_both(("tiles",)))
    island: Island
    add: TileAdd | None = None


IslandChange = create_model("ExplorersIslandChange", __base__=IslandChange,
                            **{k: (v, None) for k, v in ISLAND.items()})


class Influence(SetOrAdd):
    """A player's pieces on an island: counts to set, and/or pieces to add (``add``: below 0
    or over the box's count is a 422 out_of_range)."""
    model_config = ConfigDict(json_schema_extra=not_both(INFLUENCE))
    island: Island
    player: Player
    add: PieceAdd | None = None


Influence = create_model("ExplorersInfluence", __base__=Influence,
                         **{k: (v, None) for k, v in PIECES.items()})


class ExplorersIslandIndex(Body):
    island: Island


class ExplorersKeepCaptain(Body):
    """The captain a player keeps of the 2 dealt (another is a 422 not_dealt)."""
    player: Player
    captain: str


EVENTS = {"turn": On(model_of("ExplorersTurn", {}, "The current player's turn is over"),
                     lambda state, data: end_turn(state), optional=True),
          "add_island": On(NewIsland, add_island),
          "update_island": On(IslandChange, update_island),
          "remove_island": On(ExplorersIslandIndex, remove_island),
          "set_influence": On(Influence, set_influence),
          "keep_captain": On(ExplorersKeepCaptain, keep_captain)}
