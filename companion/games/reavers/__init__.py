"""Reavers of Midgard (Grey Fox Games): setup, the rounds of pawn placement, cleanup and glory.

Sources: the early rulebook text in shared/rulebooks and the published rules collected in
shared/rules/facts.md section 4 (which wins where the two differ). Decisions the rules leave
open, all stated to players in the setup checklist, the play's notices or the score
explanations:

- Wall majorities: the values are box data (option or catalogue ``wall_majority`` [most,
  second]); no tie rule is published, so option ``wall_ties`` picks one. ``share`` (default):
  tied players each take the full value of the place they tie for and the places they fill are
  used up (two tied for most both take "most" and nobody is second). ``split``: tied players
  share the places they fill, rounded down. Only players with at least 1 wall token compete.
- Trade with Villages hands the Start Player marker to its active player (rulebook); the new
  holder starts the placement order from the next round on; the current round keeps its order.
- No tie-break is published for the win: equal totals share it.
- In a play, the glory for territories held (+1 per tile at each cleanup) is kept by the app
  in ``state["table"]`` and ``score_body`` adds it to the sheet's ``glory``, so the sheet's
  ``glory`` holds only the glory gained otherwise.

Parts: ``box`` (catalogue values), ``scoring`` (the final rows), ``table`` (a play's rounds).
"""
from __future__ import annotations

from ..box_questions import Unknowns
from ..errors import say
from ..inputs import Option, SheetField
from ..messages import Message
from ..protocol import Game
from ..ranking import score_response
from . import box, table
from .scoring import (
    TAPESTRY_KINDS,
    WALL_TIE_NAMES,
    WALL_TIE_RULES,
    artifact_note,
    player_rows,
    wall_awards,
    wall_sentence,
)


class ReaversGame(Game):
    id = "reavers"
    # TRANSLATORS: no German or French edition found: the English name stays.
    name = say("Reavers of Midgard")
    min_players = 2
    max_players = 4
    events = table.EVENTS
    options = (Option("wall_ties", say("Tied wall majorities"), "choice", "share",
                      tuple(WALL_TIE_RULES), choice_labels=tuple(WALL_TIE_NAMES.items()),
                      help=say("No rule is published. share: tied players each take the "
                               "place's full value and the next place is skipped; split: they "
                               "share it.")),)
    option_types = box.OPTION_TYPES
    phases = ("actions", "cleanup")
    rounds = table.ROUNDS
    # the rulebook's "End of the Game" scores artifacts, favor tokens, keep spoils (the
    # tapestries are keep spoils too), the defense/wall majorities and prophecies
    sheet_fields = (
        SheetField("glory", say("Glory during play"),
                   help=say("Battles, spoils and other glory on the track. In a play the app "
                            "adds territory glory at each cleanup itself.")),
        SheetField("artifacts", say("Artifacts (glory of each)"), "list", end_game=True),
        SheetField("favor", say("Favor tokens left"), help=say("2 glory each."), end_game=True),
        SheetField("keep_spoils", say("Keep spoils cards by type"), "counts",
                   help=say("e.g. Treasure, Art, Armor: scored as sets by the printed "
                            "schedule."), end_game=True),
        SheetField("tapestries", say("Tapestries by name"), "counts",
                   help=say("15 per set of the 3 different tapestries, 2 for each other one."),
                   end_game=True),
        SheetField("walls", say("Wall tokens"), end_game=True),
        SheetField("prophecies", say("Prophecies (glory of each)"), "list", end_game=True),
    )
    catalogue_help = say("The glory for sets of 1, 2, 3 … cards printed at the bottom of the "
                         "Treasure, Art and Armor cards, and the glory for the most and second "
                         "most wall tokens.")

    # ---- box catalogue
    catalogue_type = box.CatalogueReavers
    catalogue_rules = staticmethod(box.catalogue_rules)

    box_value_type = box.BoxAnswer

    def parse_box_value(self, key, value):
        return box.parse_box_value(key, value)

    def box_question(self, key: str) -> Message:
        return box.question_for(key)

    def with_box_values(self, catalogue: dict, answers: dict) -> dict:
        return box.with_box_values(catalogue, answers)

    def box_value_of(self, catalogue: dict, key: str):
        return box.value_of(catalogue, key)

    def box_questions_ahead(self, catalogue: dict) -> list[dict]:
        return box.ahead(catalogue)

    def box_needs(self, catalogue: dict, player_count: int) -> list[dict]:
        return box.needs(catalogue)

    def sheet_kinds(self, field, options, catalogue):
        """A stepper per keep spoils type (the printed ones and the box data's) and per
        tapestry (3 different ones: numbered, no rulebook names them)."""
        if field.name == "keep_spoils":
            return box.spoils_kinds(options, catalogue)
        if field.name == "tapestries":
            return [(str(n), say("Tapestry %(number)s", number=n))
                    for n in range(1, TAPESTRY_KINDS + 1)]
        return super().sheet_kinds(field, options, catalogue)

    # ---- setup
    def setup(self, players, options, rng, catalogue):
        players = self.check_players(players)       # (a rule: 422; setup is called directly)
        box.box_rules(options, catalogue)
        return table.make_setup(players, rng.choice(players))

    # ---- scoring
    def tally(self, body, catalogue):
        options, players = body["options"], body["players"]
        rules = box.box_rules(options, catalogue)
        names = [p["name"] for p in players]
        walls = [p["sheet"]["walls"] for p in players]
        unknowns = Unknowns()
        awards = wall_awards(walls, rules["wall_majority"], rules["wall_ties"], unknowns)
        results, notes = [], []
        for i, player in enumerate(players):
            notes += artifact_note(player["name"], len(player["sheet"]["artifacts"]))
            categories, explanations, unknown = player_rows(i, player["sheet"],
                                                            rules["schedules"], unknowns)
            categories["walls"] = awards[i]["glory"]
            explanations["walls"] = wall_sentence(walls[i], awards[i], names, rules["wall_ties"])
            results.append({"name": player["name"],
                            "categories": {f.name: categories[f.name] for f in self.sheet_fields},
                            "explanations": explanations,
                            "unknown": unknown + (["walls"] if awards[i]["unknown"] else [])})
        return score_response(results, (), unknowns, notes,
                              wall_tie_rule=WALL_TIE_RULES[rules["wall_ties"]],
                              wall_majority=rules["wall_majority"])

    # ---- a play at the table
    def start_state(self, state: dict) -> dict:
        state["table"] = table.new_table(state)
        state["table"]["notices"] = table.round_notices(state)
        return state

    def describe_event(self, state: dict, event: dict, moment: str | None = None
                       ) -> Message | None:
        return table.describe(state, event)

    def inverse_event(self, event: dict) -> dict | None:
        data = event.get("data") or {}
        if event.get("type") == "territories" and isinstance(data.get("add"), int):
            return {"type": "territories",
                    "data": {"player": data.get("player"), "add": -data["add"]}}
        return None

    def advance(self, state: dict) -> dict:
        """actions -> cleanup (territory glory, Honor Ship passes) -> next round's actions,
        whose pawn order starts at the Start Player marker; after round 6, finished."""
        if state["phase"] == "actions":
            table.check_all_placed(state)
            table.cleanup(state)
        state = super().advance(state)
        if state["finished"]:
            state["table"]["notices"] = [say("Round %(round)s is over: final scoring.",
                                             round=table.ROUNDS)]
        elif state["phase"] == "actions":
            table.start_round(state)
        return state

    def score_body(self, state: dict) -> dict:
        """The sheets with each player's automatic territory glory added to ``glory``."""
        body = super().score_body(state)
        extra = state["table"].get("territory_glory", {})
        for player in body["players"]:
            player["sheet"]["glory"] += extra.get(player["name"], 0)
        return body


GAME = ReaversGame()
