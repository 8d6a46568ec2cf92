"""Reavers at the table: seat order, pawn placement, the Start Player marker, the Honor Ship
and the cleanup that adds territory glory each round. Functions over a play's state dict."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, model_validator

from ..bodies import Body, On, Player, delta, exactly_one, one_given, whole, worded
from ..errors import RuleError
from ..inputs import player_of
from ..messages import Message, say, say_n, series
from ..protocol import seat_after

LOCATIONS = {"recruit_reavers": say("Recruit Reavers"),
             "trade_with_villages": say("Trade with Villages"),
             "raid_villages": say("Raid Villages"), "raid_keeps": say("Raid Keeps"),
             "conquer_territories": say("Conquer Territories"),
             "battle_at_sea": say("Battle at Sea")}
START_PLAYER_LOCATION = "trade_with_villages"
ROUNDS = 6
ACTIONS_PER_ROUND = 4
FIRST_FOOD = 4
MAX_TERRITORIES = 100


# --------------------------------------------------------------------------- setup
def pawns_per_player(count: int) -> int:
    return 2 if count == 2 else 1


def food_by_seat(players: list[str], start: str) -> dict:
    """4 food for the start player, one more per seat clockwise after it."""
    first = players.index(start)
    return {p: FIRST_FOOD + (i - first) % len(players) for i, p in enumerate(players)}


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
    if len(players) == 2:
        board = say("Lay the board 2-player side up and set the round tracker on round 1 of "
                    "%(rounds)s.", rounds=ROUNDS)
    else:
        board = say("Lay the board 3-4 player side up and set the round tracker on round 1 of "
                    "%(rounds)s.", rounds=ROUNDS)
    if honor:
        marker = say("Give %(player)s the Start Player marker and the Honor Ship, an extra pawn "
                     "for its holder that passes clockwise at every cleanup.", player=start)
    else:
        marker = say("Give %(player)s the Start Player marker.", player=start)
    if pawns > 1:
        takes = say("Each player takes a player board, 1 Favor token, %(count)s Longship pawns "
                    "and a score tracker on 0 of the Glory track.", count=pawns)
    else:
        takes = say("Each player takes a player board, 1 Favor token, 1 Longship pawn and a "
                    "score tracker on 0 of the Glory track.")
    return [
        board, marker, takes,
        say("Food by seat: %(players)s.", players=series(
            [Message("%(player)s %(count)s", {"player": p, "count": n}) for p, n in food.items()],
            ", ")),
        say("Shuffle the Sea Journey, Sea Battle, Village Spoils, Keep Spoils, Reaver and "
            "Prophecy decks one by one onto their spaces."),
        say("Each player draws 2 Reavers, rolls the dice pictured top left onto their board, "
            "then Rallies, Specializes or Promotes each card."),
        say("Fill every Action Location with cards for %(count)s players.", count=len(players)),
        say("Sort the Territory tiles by type, shuffle each stack and put it on its space."),
        say("Roll 2 Crew dice of each colour onto Trade with Villages and put the Ship Upgrade "
            "tokens on their spaces at Raid Villages."),
        say("Keep the Food, Favor and dice supplies within reach."),
    ]


def make_setup(players: list[str], start: str) -> dict:
    food = food_by_seat(players, start)
    honor = start if len(players) == 3 else None
    return {"start_player": start, "food": food, "honor_ship": honor,
            "pawns": {p: pawns_per_player(len(players)) for p in players},
            "turn_order": placement_order(players, start, honor),
            "rounds": ROUNDS, "round_track": list(range(1, ROUNDS + 1)),
            "actions_per_round": ACTIONS_PER_ROUND,
            "locations": [{"id": k, "name": v} for k, v in LOCATIONS.items()],
            "board_side": say("2 players") if len(players) == 2 else say("3-4 players"),
            "checklist": setup_checklist(players, start, food, honor)}


# --------------------------------------------------------------------------- play state
def names_of(state: dict) -> list[str]:
    return [p["name"] for p in state["players"]]


def new_table(state: dict) -> dict:
    setup, names = state["setup"], names_of(state)
    return {"start_player": setup["start_player"], "honor_ship": setup["honor_ship"],
            "turn_order": list(setup["turn_order"]), "placements": [],
            "next_player": setup["turn_order"][0],
            "territories": {n: 0 for n in names}, "territory_glory": {n: 0 for n in names},
            "history": [], "notices": []}


class ReaversPlace(Body):
    """The next pawn goes to a free location."""
    location: worded(Literal[tuple(LOCATIONS)], say("Pick a location: %(locations)s.",
                                                  locations=series([*LOCATIONS.values()], ", ")))
    player: Player = None          # whose pawn (left out: the next one's)


class ReaversTerritories(Body):
    """How many territory tiles a player holds: ``count`` sets it, ``add`` counts on."""
    model_config = ConfigDict(json_schema_extra=exactly_one("count", "add"))
    player: Player
    count: whole(0, MAX_TERRITORIES, say("Territories held")) = None
    add: delta(MAX_TERRITORIES, say("Territories")) = None

    @model_validator(mode="after")
    def count_or_add(self):
        one_given(self, "count", "add", message=say("Send either count (territories held) or "
                                                    "add (a change), not both."))
        return self


class ReaversStartPlayer(Body):
    """A correction: who holds the Start Player marker (it counts from the next round)."""
    player: Player


def check_player(state: dict, name: Any, field: str) -> str:
    names = names_of(state)
    return player_of(name, names, field,
                     say("Pick a player of this play: %(names)s.", names=series(names, ", ")))


def check_placement(state: dict, data: ReaversPlace) -> tuple[str, str]:
    """(player, location) of a "place" event by the rules of the play; nothing is changed."""
    table = state["table"]
    if state["phase"] != "actions":
        raise RuleError("Pawns are placed in the actions phase; this round is in cleanup.",
                        "type", "wrong_phase", 422)
    location = data.location
    taken = {p["location"]: p["player"] for p in table["placements"]}
    if location in taken:
        raise RuleError(say("%(place)s was already chosen this round by %(player)s; each "
                            "location is used once a round.", place=LOCATIONS[location],
                            player=taken[location]),
                        "data.location", "location_taken", 422)
    player = table["next_player"]
    if player is None:
        raise RuleError(say("All %(count)s pawns of this round are placed; advance to cleanup.",
                            count=len(table["turn_order"])), "type", "no_pawns_left", 422)
    if data.player is not None and data.player != player:
        check_player(state, data.player, "data.player")
        raise RuleError(say("It is %(player)s's pawn next, not %(other_name)s's.", player=player,
                            other_name=data.player),
                        "data.player", "not_your_turn", 422)
    return player, location


def place(state: dict, data: ReaversPlace) -> dict:
    """The next pawn goes to a free location; Trade with Villages takes the marker."""
    player, location = check_placement(state, data)
    table = state["table"]
    turn = len(table["placements"])
    order = table["turn_order"]
    honor = table["honor_ship"] is not None and turn == len(order) - 1
    table["placements"].append({"player": player, "location": location, "honor_ship": honor})
    table["next_player"] = order[turn + 1] if turn + 1 < len(order) else None
    notices = [say("%(player)s chose %(place)s.", player=player, place=LOCATIONS[location])]
    if location == START_PLAYER_LOCATION and table["start_player"] != player:
        table["start_player"] = player
        notices.append(say("%(player)s takes the Start Player marker and starts next round.",
                           player=player))
    table["notices"] = notices + round_notices(state)
    return state


def set_territories(state: dict, data: ReaversTerritories) -> dict:
    """How many territory tiles a player holds now (cleanup adds 1 glory per tile): ``count``
    sets it, ``add`` (+1 / -1 taps) counts on from the stored value, so taps commute."""
    player = check_player(state, data.player, "data.player")
    count = data.count
    if data.add is not None:
        held = state["table"]["territories"][player]
        count = held + data.add
        if not 0 <= count <= MAX_TERRITORIES:
            raise RuleError(say_n("%(player)s holds %(count)s territory; that would make "
                                  "%(new_count)s.", "%(player)s holds %(count)s territories; "
                                  "that would make %(new_count)s.", held, player=player,
                                  new_count=count),
                            "data.add", "out_of_range", 422)
    state["table"]["territories"][player] = count
    if state["phase"] == "cleanup":
        record_cleanup_glory(state)
    state["table"]["notices"] = [say_n("%(player)s holds %(count)s territory.",
                                       "%(player)s holds %(count)s territories.", count,
                                       player=player)] + round_notices(state)
    return state


def set_start_player(state: dict, data: ReaversStartPlayer) -> dict:
    """A correction: who holds the Start Player marker (it counts from the next round)."""
    player = check_player(state, data.player, "data.player")
    state["table"]["start_player"] = player
    state["table"]["notices"] = ([say("%(player)s holds the Start Player marker from next "
                                      "round.", player=player)] + round_notices(state))
    return state


def record_cleanup_glory(state: dict) -> None:
    """Cleanup step 1 for the current round (idempotent): +1 glory per territory held."""
    table = state["table"]
    entry = {"round": state["round"], "territories": dict(table["territories"]),
             "glory": dict(table["territories"])}
    table["history"] = [h for h in table["history"] if h["round"] != state["round"]] + [entry]
    table["territory_glory"] = {name: sum(h["glory"].get(name, 0) for h in table["history"])
                                for name in table["territories"]}


def check_all_placed(state: dict) -> None:
    """The round reaches cleanup only once every pawn is placed: the rulebook repeats the
    placing "until no player has Longship Pawns remaining. Then, all players proceed to the
    Clean Up phase"."""
    table = state["table"]
    if table["next_player"] is None:
        return
    left = len(table["turn_order"]) - len(table["placements"])
    words = say_n("%(count)s pawn is still to be placed this round (%(player)s is next): "
                  "cleanup comes once every pawn is placed.", "%(count)s pawns are still to be "
                  "placed this round (%(player)s is next): cleanup comes once every pawn is "
                  "placed.", left, player=table["next_player"])
    raise RuleError(words, "type", "pawns_left", 422)


def cleanup(state: dict) -> None:
    """Entering cleanup: territory glory for the round, then the Honor Ship moves on."""
    table = state["table"]
    record_cleanup_glory(state)
    gains = series([Message("%(player)s +%(count)s", {"player": n, "count": g})
                    for n, g in table["history"][-1]["glory"].items()], ", ")
    notices = [say("Cleanup of round %(round)s: territory glory %(who)s.", round=state["round"],
                   who=gains)]
    if table["honor_ship"] is not None:
        table["honor_ship"] = seat_after(names_of(state), table["honor_ship"])
        notices.append(say("The Honor Ship passes to %(player)s.", player=table["honor_ship"]))
    table["notices"] = notices


def start_round(state: dict) -> None:
    table = state["table"]
    table["turn_order"] = placement_order(names_of(state), table["start_player"],
                                          table["honor_ship"])
    table["placements"] = []
    table["next_player"] = table["turn_order"][0]
    table["notices"] = round_notices(state)


def round_notices(state: dict) -> list[str]:
    table = state["table"]
    if state["phase"] != "actions":
        return []
    done, total = len(table["placements"]), len(table["turn_order"])
    if table["next_player"] is None:
        return [say("All %(count)s pawns of round %(round)s are placed: advance to cleanup.",
                    count=total, round=state["round"])]
    if table["honor_ship"] and done == total - 1:
        return [say("Round %(round)s: %(player)s places the Honor Ship next (%(n)s of "
                    "%(count)s).", round=state["round"], player=table["next_player"],
                    n=done + 1, count=total)]
    return [say("Round %(round)s: %(player)s places a Longship pawn next (%(n)s of %(count)s).",
                round=state["round"], player=table["next_player"], n=done + 1, count=total)]


def describe(state: dict, event: dict) -> Message | None:
    """Reavers' changes in players' words: "Cecilie +1 territory"."""
    data = event.get("data") or {}
    player = data.get("player")
    if event.get("type") == "territories":
        if isinstance(data.get("add"), int):
            n = data["add"]
            return say_n("%(player)s %(sign)s%(count)s territory",
                         "%(player)s %(sign)s%(count)s territories", abs(n), player=player,
                         sign="+" if n > 0 else "-" if n else "")
        return say_n("%(player)s holds %(count)s territory", "%(player)s holds %(count)s "
                     "territories", data.get("count") or 0, player=player)
    if event.get("type") == "start_player":   # (the common wording, "Bo: start player")
        return say("%(player)s: %(changes)s", player=player, changes=say("start player"))
    if event.get("type") == "place":
        return say("Pawn to %(place)s",
                   place=LOCATIONS.get(data.get("location"), data.get("location")))
    return None


EVENTS = {"place": On(ReaversPlace, place),
          "territories": On(ReaversTerritories, set_territories),
          "start_player": On(ReaversStartPlayer, set_start_player)}
