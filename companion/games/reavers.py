"""Reavers of Midgard (Grey Fox Games): setup, the rounds of pawn placement, cleanup and glory.

Sources: the early rulebook text in shared/rulebooks and the published rules collected in
shared/rules/facts.md section 4 (which wins where the two differ). Decisions the rules leave
open, all stated to players in the setup checklist or the score explanations:

- Wall majorities: the values are box data (option or catalogue ``wall_majority`` [most,
  second]); no tie rule is published, so option ``wall_ties`` picks one. ``share`` (default):
  tied players each take the full value of the place they tie for and the places they fill are
  used up (two tied for most both take "most" and nobody is second). ``split``: tied players
  share the places they fill, rounded down. Only players with at least 1 wall token compete.
- Trade with Villages hands the Start Player marker to its active player (rulebook); the new
  holder starts the placement order from the next round on, the current round keeps its order.
- No tie-break is published for the win: equal totals share it.
- In a play, the glory for territories held (+1 per tile at each cleanup) is kept by the app
  in ``state["table"]`` and ``score_body`` adds it to the sheet's ``glory``, so the sheet's
  ``glory`` holds only the glory gained otherwise.
"""
from __future__ import annotations

from typing import Any

from .base import (
    Game,
    Option,
    RuleError,
    SheetField,
    check_int,
    check_players,
    join_names,
    parse_score_players,
    score_response,
    seat_after,
)

LOCATIONS = {"recruit_reavers": "Recruit Reavers", "trade_with_villages": "Trade with Villages",
             "raid_villages": "Raid Villages", "raid_keeps": "Raid Keeps",
             "conquer_territories": "Conquer Territories", "battle_at_sea": "Battle at Sea"}
START_PLAYER_LOCATION = "trade_with_villages"
ROUNDS = 6
ACTIONS_PER_ROUND = 4
FIRST_FOOD = 4
FAVOR_GLORY = 2
TAPESTRY_KINDS = 3
TAPESTRY_SET_GLORY = 15
TAPESTRY_SINGLE_GLORY = 2
MAX_SCHEDULE_LENGTH = 20
MAX_SPOILS_TYPES = 20
MAX_TERRITORIES = 100
CATALOGUE_KEYS = ("keep_spoils_schedule", "wall_majority")
WALL_TIE_RULES = {
    "share": "tied players each take the full value of the place they tie for, and the places "
             "they fill are used up (a tie for most leaves no second place)",
    "split": "tied players share the values of the places they fill, rounded down",
}
HOW_TO_ENTER = ("Enter it once in the box catalogue (Catalogue page, Reavers of Midgard) or "
                "send it in the request's options")


# --------------------------------------------------------------------------- box data
def clean_schedule(value: Any, where: str) -> dict:
    """{spoils type: [glory for 1, 2, ... cards]}; type names are matched ignoring case."""
    if not isinstance(value, dict):
        raise RuleError("The keep spoils schedule must be an object of {type: [glory, ...]}.",
                        where)
    if len(value) > MAX_SPOILS_TYPES:
        raise RuleError(f"At most {MAX_SPOILS_TYPES} keep spoils types.", where)
    out: dict[str, list[int]] = {}
    seen: set[str] = set()
    for key, steps in value.items():
        at = f"{where}.{key}"
        if not isinstance(key, str) or not key.strip() or len(key) > 40:
            raise RuleError("Each keep spoils type needs a short name.", where)
        if key.strip().casefold() in seen:
            raise RuleError(f"The keep spoils type '{key}' is listed twice.", at)
        seen.add(key.strip().casefold())
        if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_SCHEDULE_LENGTH:
            raise RuleError(f"{key}: give the glory for 1, 2, ... cards as a list of 1 to "
                            f"{MAX_SCHEDULE_LENGTH} numbers.", at)
        out[key.strip()] = [check_int(v, f"{at}[{i}]", f"{key} glory")
                            for i, v in enumerate(steps)]
    return out


def clean_wall_majority(value: Any, where: str) -> list[int] | None:
    """[glory for most wall tokens, glory for second most], or None when unknown."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise RuleError("The wall majority must be [glory for most, glory for second most].",
                        where)
    most, second = (check_int(v, f"{where}[{i}]", "Wall majority glory")
                    for i, v in enumerate(value))
    if second > most:
        raise RuleError("Second place cannot be worth more than most walls.", f"{where}[1]")
    return [most, second]


def find_schedule(kind: str, *schedules: dict) -> list[int] | None:
    """The first schedule (options before catalogue) that lists ``kind``, ignoring case."""
    for schedule in schedules:
        for name, steps in schedule.items():
            if name.casefold() == kind.strip().casefold():
                return steps
    return None


# --------------------------------------------------------------------------- scoring rows
def spoils_sets(count: int, schedule: list[int]) -> tuple[int, list[int]]:
    """Glory for ``count`` cards of one type and the set sizes: full sets of the longest step,
    then one set of what is left (cards past the longest step start a new set)."""
    full, rest = divmod(count, len(schedule))
    sizes = [len(schedule)] * full + ([rest] if rest else [])
    return sum(schedule[size - 1] for size in sizes), sizes


def tapestry_glory(counts: dict, where: str) -> tuple[int, int, int]:
    """(glory, complete sets, leftovers): 15 per set of the 3 different tapestries, 2 each
    for the rest."""
    held = {name: n for name, n in counts.items() if n}
    if len(held) > TAPESTRY_KINDS:
        raise RuleError(f"There are only {TAPESTRY_KINDS} different tapestries; "
                        f"{len(held)} kinds were entered.", where, "too_many_kinds", 422)
    sets = min(held.values()) if len(held) == TAPESTRY_KINDS else 0
    leftovers = sum(held.values()) - TAPESTRY_KINDS * sets
    return TAPESTRY_SET_GLORY * sets + TAPESTRY_SINGLE_GLORY * leftovers, sets, leftovers


def wall_places(walls: list[int], majority: list[int], rule: str) -> list[dict]:
    """Per player: {"glory", "place" (0 = most; None without walls), "tied" (indexes)}."""
    out = [{"glory": 0, "place": None, "tied": []} for _ in walls]
    place = 0
    for count in sorted({w for w in walls if w > 0}, reverse=True):
        group = [i for i, w in enumerate(walls) if w == count]
        values = majority[place:place + len(group)]
        if rule == "split":
            glory = sum(values) // len(group)
        else:
            glory = majority[place] if place < len(majority) else 0
        for i in group:
            out[i] = {"glory": glory, "place": place, "tied": [j for j in group if j != i]}
        place += len(group)
    return out


PLACE_NAMES = ("most", "second most")


def wall_sentence(walls: int, award: dict, names: list[str], rule: str) -> str:
    if not walls:
        return "No wall tokens."
    place = award["place"]
    where = PLACE_NAMES[place] if place < len(PLACE_NAMES) else "fewer than second place"
    tied = f", tied with {join_names([names[j] for j in award['tied']])}" if award["tied"] else ""
    return (f"{walls} wall tokens: {where}{tied}, {award['glory']} glory "
            f"(tie rule '{rule}': {WALL_TIE_RULES[rule]}).")


# --------------------------------------------------------------------------- table order
def pawns_per_player(count: int) -> int:
    return 2 if count == 2 else 1


def placement_order(players: list[str], start: str, honor_ship: str | None) -> list[str]:
    """Whose pawn comes when in a round: clockwise from the start player one pawn at a time
    (twice round with 2 players), then the Honor Ship's holder with 3 players."""
    order = [seat_after(players, start, i) for i in range(len(players))]
    order *= pawns_per_player(len(players))
    if honor_ship:
        order.append(honor_ship)
    return order


def setup_checklist(players: list[str], start: str, food: dict, honor: str | None) -> list[str]:
    pawns = pawns_per_player(len(players))
    side = "2-player" if len(players) == 2 else "3-4 player"
    marker = f"Give {start} the Start Player marker"
    if honor:
        marker += (" and the Honor Ship, an extra pawn for its holder that passes clockwise at "
                   "every cleanup")
    return [
        f"Lay the board {side} side up and set the round tracker on round 1 of {ROUNDS}.",
        marker + ".",
        f"Each player takes a player board, 1 Favor token, {pawns} Longship "
        f"pawn{'s' if pawns > 1 else ''} and a score tracker on 0 of the Glory track.",
        "Food by seat: " + ", ".join(f"{p} {n}" for p, n in food.items()) + ".",
        "Shuffle the Sea Journey, Sea Battle, Village Spoils, Keep Spoils, Reaver and Prophecy "
        "decks one by one onto their spaces.",
        "Each player draws 2 Reavers, rolls the dice pictured top left onto their board, then "
        "Rallies, Specializes or Promotes each card.",
        f"Fill every Action Location with cards for {len(players)} players.",
        "Sort the Territory tiles by type, shuffle each stack and put it on its space.",
        "Roll 2 Crew dice of each colour onto Trade with Villages and put the Ship Upgrade "
        "tokens on their spaces at Raid Villages.",
        "Keep the Food, Favor and dice supplies within reach.",
    ]


class ReaversGame(Game):
    id = "reavers"
    name = "Reavers of Midgard"
    min_players = 2
    max_players = 4
    options = (Option("wall_ties", "Tied wall majorities", "choice", "share",
                      tuple(WALL_TIE_RULES),
                      help="No rule is published. share: tied players each take the place's "
                           "full value and the next place is skipped; split: they share it."),)
    option_passthrough = CATALOGUE_KEYS
    phases = ("actions", "cleanup")
    rounds = ROUNDS
    sheet_fields = (
        SheetField("glory", "Glory during play",
                   help="Battles, spoils and other glory on the track. In a play the app adds "
                        "territory glory at each cleanup itself."),
        SheetField("artifacts", "Artifacts (glory of each)", "list"),
        SheetField("favor", "Favor tokens left", help="2 glory each."),
        SheetField("keep_spoils", "Keep spoils cards by type", "counts",
                   help="e.g. Treasure, Art, Armor: scored as sets by the printed schedule."),
        SheetField("tapestries", "Tapestries by name", "counts",
                   help="15 per set of the 3 different tapestries, 2 for each other one."),
        SheetField("walls", "Wall tokens"),
        SheetField("prophecies", "Prophecies (glory of each)", "list"),
    )
    catalogue_help = ("keep_spoils_schedule {type: [glory for 1, 2, ... cards]} as printed at the "
                      "bottom of the Treasure, Art and Armor cards; wall_majority [glory for most, "
                      "glory for second most wall tokens].")

    # ---- box catalogue
    def empty_catalogue(self) -> dict:
        return {"keep_spoils_schedule": {}, "wall_majority": None}

    def validate_catalogue(self, data: Any) -> dict:
        if not isinstance(data, dict):
            raise RuleError("The catalogue must be a JSON object.", None)
        for key in data:
            if key not in CATALOGUE_KEYS:
                raise RuleError(f"Unknown catalogue entry '{key}'; Reavers keeps "
                                f"{' and '.join(CATALOGUE_KEYS)}.", key, "unknown_field")
        return {"keep_spoils_schedule": clean_schedule(data.get("keep_spoils_schedule", {}),
                                                       "keep_spoils_schedule"),
                "wall_majority": clean_wall_majority(data.get("wall_majority"),
                                                     "wall_majority")}

    def box_rules(self, options: dict, catalogue: Any) -> dict:
        """The options' box values over the catalogue's, each validated."""
        box = self.validate_catalogue(catalogue or {})
        schedule = clean_schedule(options.get("keep_spoils_schedule", {}),
                                  "options.keep_spoils_schedule")
        majority = clean_wall_majority(options.get("wall_majority"), "options.wall_majority")
        return {"schedules": (schedule, box["keep_spoils_schedule"]),
                "wall_majority": majority or box["wall_majority"],
                "wall_ties": options.get("wall_ties", "share")}

    # ---- setup
    def setup(self, players, options, rng, catalogue):
        players = check_players(players, self.min_players, self.max_players)
        self.box_rules(options, catalogue)
        start = rng.choice(players)
        first = players.index(start)
        food = {p: FIRST_FOOD + (i - first) % len(players) for i, p in enumerate(players)}
        honor = start if len(players) == 3 else None
        return {"start_player": start, "food": food, "honor_ship": honor,
                "pawns": {p: pawns_per_player(len(players)) for p in players},
                "turn_order": placement_order(players, start, honor),
                "rounds": ROUNDS, "round_track": list(range(1, ROUNDS + 1)),
                "actions_per_round": ACTIONS_PER_ROUND,
                "locations": [{"id": k, "name": v} for k, v in LOCATIONS.items()],
                "board_side": "2 players" if len(players) == 2 else "3-4 players",
                "checklist": setup_checklist(players, start, food, honor)}

    # ---- scoring
    def score(self, body, catalogue):
        if not isinstance(body, dict):
            raise RuleError("The request must be a JSON object.", None)
        for key in body:
            if key not in ("players", "options"):
                raise RuleError(f"Unknown field '{key}'.", key, "unknown_field")
        options = self.parse_options(body.get("options"))
        rules = self.box_rules(options, catalogue)
        players = parse_score_players(body, self.sheet_fields, options,
                                      self.min_players, self.max_players)
        walls = self.wall_awards(players, rules)
        names = [p["name"] for p in players]
        results = []
        for i, player in enumerate(players):
            categories, explanations = self.player_rows(i, player["sheet"], rules)
            categories["walls"] = walls[i]["glory"]
            explanations["walls"] = wall_sentence(player["sheet"]["walls"], walls[i], names,
                                                  rules["wall_ties"])
            results.append({"name": player["name"], "categories": dict(
                (row, categories[row]) for row in self.rows()), "explanations": explanations})
        return score_response(results, (), wall_tie_rule=WALL_TIE_RULES[rules["wall_ties"]],
                              wall_majority=rules["wall_majority"])

    def rows(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.sheet_fields)

    def wall_awards(self, players: list[dict], rules: dict) -> list[dict]:
        walls = [p["sheet"]["walls"] for p in players]
        if any(walls) and rules["wall_majority"] is None:
            raise RuleError("The glory for the wall majorities is missing. " + HOW_TO_ENTER +
                            " as wall_majority: [glory for most, glory for second most].",
                            "options.wall_majority", "missing_catalogue_value", 422)
        return wall_places(walls, rules["wall_majority"] or [0, 0], rules["wall_ties"])

    def player_rows(self, index: int, sheet: dict, rules: dict) -> tuple[dict, dict]:
        where = f"players[{index}].sheet"
        spoils, spoils_text = self.keep_spoils_glory(sheet["keep_spoils"], rules["schedules"])
        tapestries, sets, leftovers = tapestry_glory(sheet["tapestries"], f"{where}.tapestries")
        categories = {"glory": sheet["glory"], "artifacts": sum(sheet["artifacts"]),
                      "favor": FAVOR_GLORY * sheet["favor"], "keep_spoils": spoils,
                      "tapestries": tapestries, "prophecies": sum(sheet["prophecies"])}
        explanations = {
            "glory": f"{sheet['glory']} glory gained during play.",
            "artifacts": f"{len(sheet['artifacts'])} artifacts.",
            "favor": f"{sheet['favor']} favor tokens at {FAVOR_GLORY} glory each.",
            "keep_spoils": spoils_text,
            "tapestries": f"{sets} sets of {TAPESTRY_KINDS} at {TAPESTRY_SET_GLORY} and "
                          f"{leftovers} other tapestries at {TAPESTRY_SINGLE_GLORY}.",
            "prophecies": f"{len(sheet['prophecies'])} prophecies.",
        }
        return categories, explanations

    def keep_spoils_glory(self, counts: dict, schedules: tuple) -> tuple[int, str]:
        total, parts = 0, []
        for kind, count in counts.items():
            if not count:
                continue
            steps = find_schedule(kind, *schedules)
            if steps is None:
                raise RuleError(
                    f"The set values for the keep spoils type '{kind}' are missing. "
                    + HOW_TO_ENTER + f" as keep_spoils_schedule: {{\"{kind}\": [glory for 1, "
                    "2, ... cards]}, as printed at the bottom of the card.",
                    f"options.keep_spoils_schedule.{kind}", "missing_catalogue_value", 422)
            glory, sizes = spoils_sets(count, steps)
            total += glory
            parts.append(f"{kind} {count} as sets of {'+'.join(map(str, sizes))} = {glory}")
        return total, ("; ".join(parts) + ".") if parts else "No keep spoils."

    # ---- a play at the table
    def start_state(self, state: dict) -> dict:
        setup = state["setup"]
        names = [p["name"] for p in state["players"]]
        state["table"] = {
            "start_player": setup["start_player"], "honor_ship": setup["honor_ship"],
            "turn_order": list(setup["turn_order"]), "placements": [],
            "next_player": setup["turn_order"][0],
            "territories": {n: 0 for n in names}, "territory_glory": {n: 0 for n in names},
            "history": [], "notices": []}
        state["table"]["notices"] = round_notices(state)
        return state

    def apply(self, state: dict, event: dict) -> dict:
        handlers = {"place": self.place, "territories": self.set_territories,
                    "start_player": self.set_start_player}
        handler = handlers.get(event.get("type"))
        if handler is None:
            return super().apply(state, event)
        return handler(state, event.get("data") or {})

    def place(self, state: dict, data: dict) -> dict:
        check_keys(data, ("player", "location"))
        table = state["table"]
        if state["phase"] != "actions":
            raise RuleError("Pawns are placed in the actions phase; this round is in cleanup.",
                            "type", "wrong_phase", 422)
        location = data.get("location")
        if location not in LOCATIONS:
            raise RuleError(f"Pick a location: {', '.join(LOCATIONS)}.", "data.location")
        taken = {p["location"]: p["player"] for p in table["placements"]}
        if location in taken:
            raise RuleError(f"{LOCATIONS[location]} was already chosen this round by "
                            f"{taken[location]}; each location is used once a round.",
                            "data.location", "location_taken", 422)
        player = table["next_player"]
        if player is None:
            raise RuleError(f"All {len(table['turn_order'])} pawns of this round are placed; "
                            "advance to cleanup.", "type", "no_pawns_left", 422)
        if "player" in data and data["player"] != player:
            check_player(state, data["player"], "data.player")
            raise RuleError(f"It is {player}'s pawn next, not {data['player']}'s.",
                            "data.player", "not_your_turn", 422)
        self.record_placement(state, player, location)
        return state

    def record_placement(self, state: dict, player: str, location: str) -> None:
        table = state["table"]
        turn = len(table["placements"])
        honor = table["honor_ship"] is not None and turn == len(table["turn_order"]) - 1
        table["placements"].append({"player": player, "location": location,
                                    "honor_ship": honor})
        order = table["turn_order"]
        table["next_player"] = order[turn + 1] if turn + 1 < len(order) else None
        notices = [f"{player} chose {LOCATIONS[location]}."]
        if location == START_PLAYER_LOCATION and table["start_player"] != player:
            table["start_player"] = player
            notices.append(f"{player} takes the Start Player marker and starts next round.")
        table["notices"] = notices + round_notices(state)

    def set_territories(self, state: dict, data: dict) -> dict:
        check_keys(data, ("player", "count"))
        player = check_player(state, data.get("player"), "data.player")
        count = check_int(data.get("count"), "data.count", "Territories held", 0,
                          MAX_TERRITORIES)
        state["table"]["territories"][player] = count
        if state["phase"] == "cleanup":
            record_cleanup_glory(state)
        state["table"]["notices"] = [f"{player} holds {count} territories."] + round_notices(state)
        return state

    def set_start_player(self, state: dict, data: dict) -> dict:
        check_keys(data, ("player",))
        player = check_player(state, data.get("player"), "data.player")
        state["table"]["start_player"] = player
        state["table"]["notices"] = ([f"{player} holds the Start Player marker from next round."]
                                     + round_notices(state))
        return state

    def advance(self, state: dict) -> dict:
        if state["phase"] == "actions":
            cleanup(state)
        state = super().advance(state)
        if state["phase"] == "actions" and not state["finished"]:
            start_round(state)
        elif state["finished"]:
            state["table"]["notices"] = [f"Round {ROUNDS} is over: final scoring."]
        return state

    def score_body(self, state: dict) -> dict:
        """The sheets with each player's automatic territory glory added to ``glory``."""
        extra = state["table"].get("territory_glory", {})
        players = []
        for p in state["players"]:
            sheet = dict(state["sheets"].get(p["name"], {}))
            if extra.get(p["name"]):
                sheet["glory"] = check_int(sheet.get("glory", 0), "glory") + extra[p["name"]]
            players.append({"name": p["name"], "sheet": sheet})
        return {"players": players, "options": state["options"]}


# --------------------------------------------------------------------------- play helpers
def check_keys(data: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(data, dict):
        raise RuleError("The event's data must be an object.", "data")
    for key in data:
        if key not in allowed:
            raise RuleError(f"Unknown field '{key}'.", f"data.{key}", "unknown_field")


def check_player(state: dict, name: Any, field: str) -> str:
    names = [p["name"] for p in state["players"]]
    if name not in names:
        raise RuleError(f"Pick a player of this play: {', '.join(names)}.", field)
    return name


def record_cleanup_glory(state: dict) -> None:
    """Cleanup step 1 for the current round (idempotent): +1 glory per territory held."""
    table = state["table"]
    entry = {"round": state["round"], "territories": dict(table["territories"]),
             "glory": dict(table["territories"])}
    table["history"] = [h for h in table["history"] if h["round"] != state["round"]] + [entry]
    table["territory_glory"] = {name: sum(h["glory"].get(name, 0) for h in table["history"])
                                for name in table["territories"]}


def cleanup(state: dict) -> None:
    table = state["table"]
    record_cleanup_glory(state)
    gains = ", ".join(f"{n} +{g}" for n, g in table["history"][-1]["glory"].items())
    notices = [f"Cleanup of round {state['round']}: territory glory {gains}."]
    if table["honor_ship"] is not None:
        names = [p["name"] for p in state["players"]]
        table["honor_ship"] = seat_after(names, table["honor_ship"])
        notices.append(f"The Honor Ship passes to {table['honor_ship']}.")
    table["notices"] = notices


def start_round(state: dict) -> None:
    table = state["table"]
    names = [p["name"] for p in state["players"]]
    table["turn_order"] = placement_order(names, table["start_player"], table["honor_ship"])
    table["placements"] = []
    table["next_player"] = table["turn_order"][0]
    table["notices"] = round_notices(state)


def round_notices(state: dict) -> list[str]:
    table = state["table"]
    if state["phase"] != "actions":
        return []
    done, total = len(table["placements"]), len(table["turn_order"])
    if table["next_player"] is None:
        return [f"All {total} pawns of round {state['round']} are placed: advance to cleanup."]
    pawn = "the Honor Ship" if (table["honor_ship"] and done == total - 1) else "a Longship pawn"
    return [f"Round {state['round']}: {table['next_player']} places {pawn} next "
            f"({done + 1} of {total})."]


GAME = ReaversGame()
