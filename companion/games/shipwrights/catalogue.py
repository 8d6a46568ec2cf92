"""The Shipwrights box catalogue: the card data no rulebook publishes, entered once by the owner.

Shape (every key optional at the top level; an entry, once there, is complete)::

    {"round_cards": [{"id": "Harbour", "name": "optional", "icons": {"military": 1, "trade": 0,
                      "renown": 1}, "solo_vp": 4, "draft": "clockwise",
                      "trades": ["1 Silver -> 1 Oak"]}],
     "huts": {"1": "military", "2": "trade", ...},
     "track_vp": {"15": n, "16": n, "17": n, "18": n},
     "nemesis": [{"id": "...", "name": "optional", "icons": {"military": 1, ...}}]}

Nothing is ever filled in by the app: a value the catalogue lacks is asked for where it is
needed, with the path to enter it.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, create_model

from ..bodies import Body, box_data, one_of, said, text, whole
from ..errors import DUPLICATE, RuleError, say
from ..messages import Message
from .rules import DRAFT_DIRECTIONS, HUT_NUMBERS, SCORING_SPACES, TRACKS, track_name

MAX_ROUND_CARDS = 60
MAX_NEMESIS = 4
MAX_ICONS = 10
MAX_VP = 100
MAX_TEXT = 100
MAX_TRADES = 12
CATALOGUE_PAGE = say("the Box data page")


def _sorted(value: dict) -> dict:
    return dict(sorted(value.items()))


Text = text(MAX_TEXT, collapse=True)
Icons = create_model(
    "ShipwrightsIcons", __base__=Body,
    __doc__="Icons per Progress Track, all three (0 where the card shows none).",
    **{t: (whole(0, MAX_ICONS, say("The number of %(track)s icons (0 if none)",
                                        track=track_name(t))), ...)
       for t in TRACKS})
TrackVp = Annotated[dict[Literal[SCORING_SPACES], whole(0, MAX_VP, say("The track VP"))],
                    AfterValidator(_sorted), Field(
    description="VP per scoring space 15 to 18; spaces left out are not known yet.")]


class ShipwrightsNemesisCard(Body):
    """A Nemesis card: its id (unique in its list, ignoring case: else a 422 duplicate_entry),
    name and icons."""
    id: text(MAX_TEXT, say("The card's id"), collapse=True)
    name: text(MAX_TEXT, say("The card's name"), collapse=True) | None = None
    icons: Icons


class ShipwrightsRoundCard(ShipwrightsNemesisCard):
    """A Round Card: the solo VP only matters in solo games (a solo play asks for it when the
    card lacks it)."""
    solo_vp: whole(0, MAX_VP, say("The solo VP")) | None = None
    draft: one_of(DRAFT_DIRECTIONS)
    trades: said(Annotated[list[Text], Field(max_length=MAX_TRADES, title=say("The trades"))]) \
        | None = None


class CatalogueShipwrights(Body):
    """Shipwrights: the card data printed only on the cards."""
    round_cards: Annotated[list[ShipwrightsRoundCard], Field(max_length=MAX_ROUND_CARDS)] = []
    huts: Annotated[dict[Literal[HUT_NUMBERS], one_of(TRACKS)], AfterValidator(_sorted),
                    Field(description="Each Hut's Progress Track icon.")] = {}
    track_vp: TrackVp = {}
    nemesis: Annotated[list[ShipwrightsNemesisCard], Field(max_length=MAX_NEMESIS)] = []


def validate_catalogue(data: Any) -> dict:
    """The box data as kept, or a RuleError naming the entry (400 shape, 422 rule)."""
    return box_data(CatalogueShipwrights, data, catalogue_rules)


def catalogue_rules(clean: dict) -> None:
    """Ids are unique in their list, ignoring case (one entry against another: a 422)."""
    for where in ("round_cards", "nemesis"):
        seen: set[str] = set()
        for i, entry in enumerate(clean[where]):
            if entry["id"].casefold() in seen:
                raise RuleError(say("Two cards in %(list)s are called '%(card)s'; ids must "
                                    "differ.", list=where, card=entry["id"]),
                                f"{where}[{i}].id", DUPLICATE, 422)
            seen.add(entry["id"].casefold())


# --------------------------------------------------------------------------- look-ups
def find_round_card(catalogue: dict, card_id: str) -> dict | None:
    return next((c for c in catalogue.get("round_cards", []) if c["id"] == card_id), None)


def find_nemesis(catalogue: dict, card_id: str) -> dict | None:
    return next((c for c in catalogue.get("nemesis", []) if c["id"] == card_id), None)


def hut_track(catalogue: dict, hut: int) -> str | None:
    return catalogue.get("huts", {}).get(str(hut))


def missing_hut_note(hut: int, player: str) -> Message:
    return say("The box data does not know Hut %(hut)s's track icon: %(player)s moves 1 space "
               "on the track shown in the Hut's top-right corner (record it as a track move), "
               "and the owner can enter Hut %(hut)s on the Box data page.", hut=hut,
               player=player)


def track_vp_question(space: str) -> Message:
    return say("How many VP does Progress Track space %(space)s give? (printed on the board)",
               space=space)
