"""Explorers of the North Sea, with the Rocks of Ruin expansion as an option.

- setup: start player, Winter Token, 2 captains each, tiles in play, face-up tiles, the
  length of the game and a checklist (``table_setup``);
- scoring: the score-pad rows, island control and every captain's bonus (``scoring``,
  ``islands``, ``captains``);
- a play: a turn counter that knows when the game ends, and the islands (``play``).
"""
from __future__ import annotations

import random

from ..inputs import Option, SheetField
from ..messages import say
from ..protocol import Game
from . import play
from .captains import CAPTAIN_BONUS, CatalogueExplorers, catalogue_rules
from .events import EVENTS, SCORE_TYPES
from .scoring import LIVESTOCK, LIVESTOCK_LABELS, delivered, tally
from .table_setup import build_setup

ROCKS = {"when": "rocks_of_ruin", "when_label": say("Rocks of Ruin")}   # the expansion's name
# The score pad is filled in at the game's end (base rulebook: its 7 rows; Rocks of Ruin adds
# salvaged gold and raided fortresses): every row is an end-game row; the rows only one
# captain reads are needed by the sheets naming that captain.
END = {"end_game": True}


def names_captain(*captains: str):
    """Whether a scoring sheet names one of ``captains`` (as kept, or dealt in a solo game)."""
    wanted = {c.casefold() for c in captains}
    return lambda sheet: any(str(sheet.get(key) or "").strip().casefold() in wanted
                             for key in ("captain", "captain_2"))


def names_box_captain(key: str):
    """Whether the sheet's captain (``key``) is one of the box data's, whose bonus is typed."""
    return lambda sheet: bool(str(sheet.get(key) or "").strip()) and " ".join(
        str(sheet[key]).split()).casefold() not in {c.casefold() for c in CAPTAIN_BONUS}


SHEET_FIELDS = (
    SheetField("livestock", say("Delivered livestock"), "counts", keys=tuple(LIVESTOCK),
               key_labels=tuple(LIVESTOCK_LABELS.items()), counted=delivered,
               help=say("How many of each type you delivered."), **END),
    SheetField("outposts", say("Outposts built"), maximum=5, **END),
    SheetField("enemy_ships", say("Enemy ships destroyed"), **END),
    SheetField("settlements", say("Raided settlements"), "list", minimum=2, maximum=5,
               max_items=14, help=say("The strength (2 to 5) of each settlement you raided."),
               **END),
    SheetField("viking_deaths", say("Viking deaths"), **END),
    SheetField("captain", say("Captain"), "choice", help=say("The captain you kept."), **END),
    SheetField("captain_2", say("Second captain (solo game only)"), "choice",
               help=say("The solo game deals 2 captains and scores the lower one.")),
    SheetField("archer_tiles", say("Archer: tiles from the Mainland to your farthest outpost"),
               help=say("Shortest route; only the Archer scores this."), **END,
               needed=names_captain("Archer")),
    SheetField("gold", say("Salvaged gold"), **ROCKS, **END),
    SheetField("fortresses", say("Raided fortresses"), "list", minimum=4, maximum=6,
               max_items=5, **ROCKS,
               help=say("The value (4 to 6) of each fortress you raided."), **END),
    SheetField("shipwreck_tokens",
               say("Shipwreck tokens left on your dashboard (gold included)"), **ROCKS, **END,
               needed=names_captain("Adventurer")),
    SheetField("captain_vp", say("Captain bonus VP (a captain from the box catalogue)"),
               **ROCKS, help=say("Only for a captain whose bonus the app cannot compute; "
                                 "ignored for the others."), **END,
               needed=names_box_captain("captain")),
    SheetField("captain_2_vp", say("Second captain bonus VP (solo, box-catalogue captain)"),
               **ROCKS, **END, needed=names_box_captain("captain_2")),
)


class ExplorersGame(Game):
    id = "explorers"
    # TRANSLATORS: published: de "Entdecker der Nordsee" (Schwerkraft-Verlag), fr "Explorateurs
    # de la Mer du Nord" (Pixie Games).
    name = say("Explorers of the North Sea")
    min_players = 1
    max_players = 5
    options = (Option("rocks_of_ruin", say("Rocks of Ruin expansion"), "bool", False,
                      help=say("72 tiles, fortresses, shipwrecks, structures, 2 more captains "
                               "and a fifth player.")),)
    phases = ("turns",)
    rounds = None
    sheet_fields = SHEET_FIELDS
    catalogue_help = say("Extra captains your Rocks of Ruin box holds beyond the Berserker and "
                         "the Adventurer: each one's name and bonus. Their bonus VP is typed on "
                         "the score sheet.")

    def setup(self, players: list[str], options: dict, rng: random.Random,
              catalogue: dict) -> dict:
        players = self.check_players(players)       # (a rule: 422; setup is called directly)
        return build_setup(players, options, rng, self.validate_catalogue(catalogue or {}))

    def tally(self, request: dict, catalogue: dict) -> dict:
        return tally(request, self.validate_catalogue(catalogue or {}))

    catalogue_type = CatalogueExplorers
    catalogue_rules = staticmethod(catalogue_rules)

    def start_state(self, state: dict) -> dict:
        return play.start_table(state)

    events = EVENTS
    score_types = SCORE_TYPES

    def describe_event(self, state: dict, event: dict, moment: str | None = None
                       ) -> str | None:
        return play.describe(state, event, moment)

    def inverse_event(self, event: dict) -> dict | None:
        return play.inverse(event)

    def is_over(self, state: dict) -> bool:
        """After the last turn (the Winter Token holder's last tile) the final scoring is due,
        while the play stays open for the islands and the sheets until it is finished."""
        return bool(state.get("finished") or state["table"].get("game_over"))

    def check_sheet_change(self, state: dict, data: dict) -> None:
        play.check_sheet_change(state, data)

    def advance(self, state: dict) -> dict:
        """One turn is over (the same as the "turn" event)."""
        return play.end_turn(state)

    def score_body(self, state: dict) -> dict:
        """The players' sheets (solo: the 2 dealt captains unless the sheet names others)
        and the table's islands as the top-level ``islands``."""
        body = super().score_body(state)
        if state["setup"].get("solo"):
            entry = body["players"][0]
            entry["sheet"] = solo_captains(entry["sheet"], state["setup"]["captains"][
                entry["name"]])
        body["islands"] = play.islands_for_scoring(state)
        return body


def solo_captains(sheet: dict, dealt: list[str]) -> dict:
    """The solo sheet with its empty captain fields filled from the 2 dealt captains."""
    sheet = dict(sheet)
    named = {str(sheet.get(k) or "").casefold() for k in ("captain", "captain_2")}
    spare = [c for c in dealt if c.casefold() not in named]
    for key in ("captain", "captain_2"):
        if not sheet.get(key) and spare:
            sheet[key] = spare.pop(0)
    return sheet


GAME = ExplorersGame()
