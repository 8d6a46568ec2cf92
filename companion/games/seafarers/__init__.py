"""Catan: Seafarers (1997 scenarios): board generation, the score sheet and the live board.

The scenarios and their material are data (``scenarios``); ``generator`` shuffles them into a
frame under the rules (no 6/8 neighbours, no 6/8 on gold where the scenario says so) and the
optional fairness settings; ``board`` builds the ``setup`` object; ``table`` keeps the live
board of a play (discoveries in Oceans, the chip bag of Greater Catan); ``svg`` draws a board.
"""
from __future__ import annotations

from ..base import (
    Game,
    Option,
    RuleError,
    SheetField,
    check_object,
    parse_score_players,
    score_response,
)
from . import board, sheets, table
from .generator import Fairness, GenerationFailed, generate
from .scenarios import SCENARIOS, Scenario

SCORE_ROWS = {"settlements": 1, "cities": 2, "longest_route": 2, "largest_army": 2,
              "vp_cards": 1, "special_vp": 1}
FAIRNESS_LABELS = {
    "no_equal_neighbours": "No equal numbers side by side",
    "no_2_12_neighbours": "No 2 and 12 side by side",
    "max_corner_pips": "Most pips around one corner (0: no cap)",
    "max_terrain_cluster": "Largest group of one terrain (0: no cap)",
}


class SeafarersGame(Game):
    id = "seafarers"
    name = "Catan: Seafarers"
    min_players = 3
    max_players = 4
    phases = ("play",)
    rounds = None
    options = (
        Option("scenario", "Scenario", "choice", "new_shores", tuple(SCENARIOS),
               help="One of the 1997 rulebook's scenarios."),
        Option("no_equal_neighbours", FAIRNESS_LABELS["no_equal_neighbours"], "bool", False),
        Option("no_2_12_neighbours", FAIRNESS_LABELS["no_2_12_neighbours"], "bool", False),
        Option("max_corner_pips", FAIRNESS_LABELS["max_corner_pips"], "int", 0, maximum=15,
               help="Pips count the dots on the chips of the hexes meeting at a corner."),
        Option("max_terrain_cluster", FAIRNESS_LABELS["max_terrain_cluster"], "int", 0,
               maximum=30, help="Counts gold and the five resource terrains."),
    )
    sheet_fields = (
        SheetField("settlements", "Settlements on the board", maximum=5),
        SheetField("cities", "Cities on the board", maximum=8),
        SheetField("longest_route", "Longest trade route (2 VP)", "bool"),
        SheetField("largest_army", "Largest army (2 VP)", "bool"),
        SheetField("vp_cards", "Victory point cards", maximum=10),
        SheetField("special_vp", "Special victory points (the scenario's chips)", maximum=30),
    )

    # ---- setup
    def scenario(self, options: dict) -> Scenario:
        return SCENARIOS[options["scenario"]]

    def layout_for(self, scenario: Scenario, players: int):
        layout = scenario.layout(players)
        if layout is None:
            counts = " or ".join(map(str, scenario.player_counts))
            raise RuleError(f"{scenario.name} is for {counts} players, not {players}.",
                            "players", "wrong_player_count", 422)
        return layout

    def setup(self, players, options, rng, catalogue) -> dict:
        scenario = self.scenario(options)
        layout = self.layout_for(scenario, len(players))
        fairness = Fairness(**{name: options[name] for name in FAIRNESS_LABELS})
        try:
            built = generate(scenario, layout, fairness, rng)
        except GenerationFailed as failed:
            raise unmet(failed) from None
        hexes = board.hex_rows(built)
        return {
            "scenario": scenario.id, "scenario_name": scenario.name,
            "target_vp": scenario.target_vp, "start_player": rng.choice(players),
            "hexes": hexes, "harbours": board.harbour_rows(built),
            "harbours_suggested": scenario.free_harbours,
            "stacks": {"tiles": built.stack_tiles, "numbers": built.stack_numbers},
            "balance": board.balance(hexes, built.search),
            "material": board.material(scenario, layout),
            "fairness": {name: options[name] for name in FAIRNESS_LABELS},
            "checklist": board.checklist(scenario, layout, len(players)),
            "notes": " ".join(scenario.notes.split()),
        }

    # ---- scoring
    def score(self, body, catalogue) -> dict:
        check_object(body, ("players", "options"))
        options = self.parse_options(body.get("options"))
        scenario = self.scenario(options)
        players = parse_score_players(body, self.sheet_fields, options, self.min_players,
                                      self.max_players)
        self.layout_for(scenario, len(players))
        notes = sheets.check_sheets(scenario, players)
        results = [score_player(p["name"], p["sheet"]) for p in players]
        response = score_response(results, notes=notes)
        reached = [p["name"] for p in response["players"] if p["total"] >= scenario.target_vp]
        response.update(target_vp=scenario.target_vp, reached_target=reached,
                        scenario=scenario.id)
        return response

    # ---- a play
    def start_state(self, state: dict) -> dict:
        return table.start_table(state)

    def advance(self, state: dict) -> dict:
        """The next turn; the play finishes once someone's sheet reaches the target."""
        result = self.score(self.score_body(state), state.get("catalogue") or {})
        if result["reached_target"]:
            state["finished"] = True
            state["table"].setdefault("notices", []).append(
                f"{', '.join(result['reached_target'])} reached {result['target_vp']} "
                "victory points: the game is over.")
            return state
        return super().advance(state)

    event_types = tuple(table.EVENTS)

    def apply(self, state: dict, event: dict) -> dict:
        handler = table.EVENTS.get(event.get("type"))
        if handler is None:
            return super().apply(state, event)
        return handler(state, event)


def score_player(name: str, sheet: dict) -> dict:
    categories, explanations = {}, {}
    for row, vp in SCORE_ROWS.items():
        value = sheet[row]
        categories[row] = vp * int(value)
        if categories[row]:
            explanations[row] = (f"{vp} VP" if isinstance(value, bool)
                                 else f"{value} x {vp} VP")
    return {"name": name, "categories": categories, "explanations": explanations}


def unmet(failed: GenerationFailed) -> RuleError:
    if failed.setting is None:
        return RuleError("No board met the scenario's rules; try another seed.",
                         "options.scenario", "constraints_unmet", 422)
    label = FAIRNESS_LABELS[failed.setting].split(" (")[0]
    return RuleError(f"No board can meet these fairness settings: relax '{label}'.",
                     f"options.{failed.setting}", "constraints_unmet", 422)


GAME = SeafarersGame()
