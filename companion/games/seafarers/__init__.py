"""Catan: Seafarers (1997 scenarios): board generation, the score sheet and the live board.

The scenarios and their material are data (``scenarios``); ``generator`` shuffles them into a
frame under the rules (no 6/8 neighbours, no 6/8 on gold where the scenario says so) and the
optional fairness settings; ``board`` builds the ``setup`` object; ``table`` keeps the live
board of a play (discoveries in Oceans, the chip bag of Greater Catan); ``svg`` draws a board.
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..bodies import Player
from ..errors import RuleError, say
from ..inputs import Option, SheetField, player_of
from ..messages import Message, join_names, say_n
from ..protocol import Game
from ..ranking import score_response
from . import board, book, race, sheets, table
from .generator import Fairness, GenerationFailed, Search, generate
from .scenarios import SCENARIOS, Scenario

SCORE_ROWS = {"settlements": 1, "cities": 2, "longest_route": 2, "largest_army": 2,
              "vp_cards": 1, "special_vp": 1}
FAIRNESS_LABELS = {
    "no_equal_neighbours": say("No equal numbers side by side"),
    "no_2_12_neighbours": say("No 2 and 12 side by side"),
    "max_corner_pips": say("Most pips around one corner (0: no cap)"),
    "max_terrain_cluster": say("Largest group of one terrain (0: no cap)"),
}
# the fairness settings as a refusal names them (their labels without the hint in brackets)
FAIRNESS_NAMES = {"no_equal_neighbours": FAIRNESS_LABELS["no_equal_neighbours"],
                  "no_2_12_neighbours": FAIRNESS_LABELS["no_2_12_neighbours"],
                  "max_corner_pips": say("Most pips around one corner"),
                  "max_terrain_cluster": say("Largest group of one terrain")}


def scenario_notes(scenario: Scenario, mode: str) -> Message:
    """The scenario's notes; its "Drawn: ..." part tells how the app drew its own frame, so a
    board laid as the book's layout leaves it out."""
    if mode in ("book", "book_missing") or not scenario.drawn:
        return scenario.notes
    return say("%(rulebook_text)s Drawn: %(drawn_text)s", rulebook_text=scenario.notes,
               drawn_text=scenario.drawn)


LAYOUT_LABELS = {
    "book": say("The book's layout (as the owner entered it from the rulebook's diagram)"),
    "book_missing": say("The book's layout: lay the tiles as in your rulebook's diagram"),
    "variable": say("Variable layout (not the book's)"),
    "random": say("Laid at random by the app"),
}


class SeafarersGame(Game):
    id = "seafarers"
    # TRANSLATORS: published: de "Catan – Seefahrer" (Kosmos), fr "Catane – Marins".
    name = say("Catan: Seafarers")
    min_players = 3
    max_players = 4
    phases = ("play",)
    rounds = None
    options = (
        Option("scenario", say("Scenario"), "choice", "new_shores", tuple(SCENARIOS),
               choice_labels=tuple((s.id, s.name) for s in SCENARIOS.values()),
               help=say("One of the 1997 rulebook's scenarios.")),
        Option("no_equal_neighbours", FAIRNESS_LABELS["no_equal_neighbours"], "bool", False),
        Option("no_2_12_neighbours", FAIRNESS_LABELS["no_2_12_neighbours"], "bool", False),
        Option("max_corner_pips", FAIRNESS_LABELS["max_corner_pips"], "int", 0, maximum=15,
               help=say("Pips count the dots on the chips of the hexes meeting at a corner.")),
        Option("max_terrain_cluster", FAIRNESS_LABELS["max_terrain_cluster"], "int", 0,
               maximum=30, help=say("Counts gold and the five resource terrains.")),
        Option("layout", say("Board layout"), "choice", "book", ("book", "variable"),
               choice_labels=(("book", say("The book's layout")),
                              ("variable", say("Variable layout (not the book's)"))),
               help=say("The book's layout: Four Islands, Oceans and Through the Wasteland as "
                        "the book's diagram shows them (entered once by the owner). Variable "
                        "layout: the app's own random layout, not the book's. Other scenarios "
                        "are laid at random either way.")),
        Option("target_vp", say("Victory target (The Great Crossing: the 1997 book gives no "
                                "target)"), "int", None, minimum=3, maximum=30,
               help=say("Only for The Great Crossing, whose section names no target; the other "
                        "scenarios play to the book's.")),
    )
    # in players' words (the box data page lists it); the JSON shape is in the API's document
    catalogue_help = say("The book's layouts of the scenarios laid out \"as shown\" (Four "
                         "Islands, Oceans, Through the Wasteland), entered once from your "
                         "rulebook's diagrams, each holding exactly the book's material list.")
    sheet_fields = (
        SheetField("settlements", say("Settlements on the board"), maximum=5),
        SheetField("cities", say("Cities on the board"), maximum=8),
        SheetField("longest_route", say("Longest trade route (2 VP)"), "bool"),
        SheetField("largest_army", say("Largest army (2 VP)"), "bool"),
        SheetField("vp_cards", say("Victory point cards"), maximum=10),
        SheetField("special_vp", say("Special victory points (the scenario's chips)"),
                   maximum=30),
    )

    # ---- setup
    def scenario(self, options: dict) -> Scenario:
        return SCENARIOS[options["scenario"]]

    def layout_for(self, scenario: Scenario, players: int):
        layout = scenario.layout(players)
        if layout is None:
            raise RuleError(wrong_count(scenario, players), "players", "wrong_player_count",
                            422)
        return layout

    def parse_options(self, options):
        parsed = super().parse_options(options)
        scenario = SCENARIOS[parsed["scenario"]]
        given = parsed.get("target_vp")
        if given is not None and scenario.target_vp is not None and given != scenario.target_vp:
            raise RuleError(say("%(scenario)s plays to %(target)s by the book; only The Great "
                                "Crossing, whose book gives no target, takes one from the "
                                "table.", scenario=scenario.name, target=scenario.target_vp),
                            "options.target_vp", "fixed_target", 422)   # the book's rule
        return parsed

    def target(self, scenario: Scenario, options: dict) -> int | None:
        """The book's target, or the table's for a scenario whose book gives none."""
        return scenario.target_vp if scenario.target_vp is not None else options.get(
            "target_vp")

    def setup(self, players, options, rng, catalogue) -> dict:
        scenario = self.scenario(options)
        layout = self.layout_for(scenario, len(players))
        laid = self.lay_board(scenario, layout, len(players), options, rng, catalogue)
        hexes = laid["hexes"]
        target = self.target(scenario, options)
        start_player = rng.choice(players)
        mode = laid["mode"]
        return {
            "scenario": scenario.id, "scenario_name": scenario.name,
            "target_vp": target, "target_note": target_note(scenario, target),
            "start_player": start_player,
            **board.pirate_and_robber(scenario, hexes, rng, bool(layout.tiles.get("desert"))),
            "layout": options["layout"] if scenario.as_shown else "random",
            "layout_entered": laid.get("entered"), "layout_label": LAYOUT_LABELS[mode],
            "hexes": hexes, "harbours": laid["harbours"],
            "harbours_suggested": scenario.free_harbours,
            "stacks": laid["stacks"],
            "balance": board.balance(hexes, laid["search"]),
            "material": board.material(scenario, layout),
            "fairness": {name: options[name] for name in FAIRNESS_LABELS},
            "checklist": board.checklist(scenario, layout, len(players), target, mode),
            "notes": scenario_notes(scenario, mode),
        }

    def lay_board(self, scenario, layout, players, options, rng, catalogue) -> dict:
        """The board as the chosen layout lays it: the book's (entered by the owner, or only
        the positions until then) for an "as shown" scenario, else the app's shuffle."""
        if scenario.as_shown and options["layout"] == "book":
            entry = book.entered(catalogue, scenario, players)
            if entry is None:
                return {"mode": "book_missing", "entered": False, "search": Search(rng),
                        "hexes": book.frame_only(layout), "harbours": [],
                        "stacks": {"tiles": [], "numbers": []}}
            return {"mode": "book", "entered": True, "search": Search(rng),
                    **book.lay_entered(entry, layout, rng)}
        fairness = Fairness(**{name: options[name] for name in FAIRNESS_LABELS})
        try:
            built = generate(scenario, layout, fairness, rng)
        except GenerationFailed as failed:
            raise unmet(failed) from None
        return {"mode": "variable" if scenario.as_shown else "random", "entered": None,
                "search": built.search, "hexes": board.hex_rows(built),
                "harbours": board.harbour_rows(built),
                "stacks": {"tiles": built.stack_tiles, "numbers": built.stack_numbers}}

    # ---- box catalogue: the book's layouts of the "as shown" scenarios
    catalogue_type = book.CatalogueSeafarers
    catalogue_rules = staticmethod(book.catalogue_rules)

    # ---- scoring
    def tally(self, body, catalogue) -> dict:
        options, players = body["options"], body["players"]
        scenario = self.scenario(options)
        self.layout_for(scenario, len(players))
        notes = sheets.check_sheets(scenario, players)
        target = self.target(scenario, options)
        if target is None:
            notes.append(target_note(scenario, None))
        results = [score_player(p["name"], p["sheet"]) for p in players]
        response = score_response(results, notes=notes)
        reached = [p["name"] for p in response["players"]
                   if target is not None and p["total"] >= target]
        response.update(target_vp=target, reached_target=reached, scenario=scenario.id)
        turn = body.get("turn")
        if turn is not None:     # whose turn it is: only they can win by reaching the target
            turn = player_of(turn, [p["name"] for p in players], "turn")
        race.decide(response, turn)
        return response

    # ---- a play
    advance_label = say("Next turn →")
    # whose turn it is: only they win by standing at the target (a name of nobody: 422)
    score_types = {"turn": Annotated[Player, Field(description=(
        "The player whose turn it is (one of players): only they win by standing at the "
        "target, as in the base game"))] | None}

    def start_state(self, state: dict) -> dict:
        state = table.start_table(state)
        race.start(state)
        return state

    def score_body(self, state: dict) -> dict:
        body = super().score_body(state)
        if race.keeps_turns(state):
            body["turn"] = state["table"]["current_player"]
        return body

    def after_sheet_change(self, state: dict) -> dict:
        """A change on the sheets may win the race for the player whose turn it is (and the
        undo of the change that won it opens the game again)."""
        if not race.keeps_turns(state) or (state["finished"] and not race.won_by_race(state)):
            return state
        try:
            result = self.tally(self.score_body(state), state.get("catalogue") or {})
        except RuleError:       # sheets that cannot happen (a replayed old log) win nothing
            return state
        if state["finished"]:
            race.reopen(state, result)
        else:
            race.settle(state, result)
        return state

    def describe_event(self, state: dict, event: dict, moment: str | None = None
                       ) -> Message | None:
        """"End of Ann's turn": whose turn ended is told by the state right after the change
        (the seat before the one playing now) or right before it (the one playing then)."""
        if event.get("type") in ("discover", "move_chip"):
            return {"discover": say("Discover"), "move_chip": say("Move chip")}[event["type"]]
        if event.get("type") != "advance" or not race.keeps_turns(state):
            return None
        player = race.turn_ended(state, moment)
        return say("End of %(player)s's turn", player=player) if player else say("End of turn")

    def advance(self, state: dict) -> dict:
        """The turn passes clockwise, and the player whose turn begins wins at once when they
        stand at the target (a play recorded before turns were kept: the next round, or the
        end once someone's sheet reached the target)."""
        if race.keeps_turns(state):
            race.pass_turn(state)
            return self.after_sheet_change(state)
        result = self.tally(self.score_body(state), state.get("catalogue") or {})
        if result["reached_target"]:
            state["finished"] = True
            state["table"].setdefault("notices", []).append(
                say_n("%(players)s reached %(target)s victory points: the game is over.",
                      "%(players)s reached %(target)s victory points: the game is over.",
                      len(result["reached_target"]), players=join_names(result["reached_target"]),
                      target=result["target_vp"]))
            return state
        return super().advance(state)

    events = table.EVENTS


def wrong_count(scenario: Scenario, players: int) -> str:
    counts = scenario.player_counts
    if len(counts) == 1:
        return say("%(scenario)s is for %(low)s players, not %(count)s.", scenario=scenario.name,
                   low=counts[0], count=players)
    return say("%(scenario)s is for %(low)s or %(high)s players, not %(count)s.",
               scenario=scenario.name, low=counts[0], high=counts[-1], count=players)


def target_note(scenario: Scenario, target: int | None) -> str | None:
    """Said wherever a target shows, for a scenario whose book gives none."""
    if scenario.target_vp is not None:
        return None
    if target is None:
        return say("The 1997 book gives no target for %(scenario)s: agree one at the table (the "
                   "victory target option); until then no one wins by reaching it.",
                   scenario=scenario.name)
    return say("The 1997 book gives no target for %(scenario)s; the table set %(target)s victory "
               "points.", scenario=scenario.name, target=target)


def score_player(name: str, sheet: dict) -> dict:
    categories, explanations = {}, {}
    for row, vp in SCORE_ROWS.items():
        value = sheet[row]
        categories[row] = vp * int(value)
        if categories[row]:
            explanations[row] = (say("%(vp)s VP", vp=vp) if isinstance(value, bool)
                                 else say("%(count)s x %(vp)s VP", count=value, vp=vp))
    return {"name": name, "categories": categories, "explanations": explanations}


def unmet(failed: GenerationFailed) -> RuleError:
    if failed.setting is None:
        return RuleError(say("No board met the scenario's rules; try another seed."),
                         "options.scenario", "constraints_unmet", 422)
    return RuleError(say("No board can meet these fairness settings: relax '%(setting)s'.",
                         setting=FAIRNESS_NAMES[failed.setting]),
                     f"options.{failed.setting}", "constraints_unmet", 422)


GAME = SeafarersGame()
