"""Island control: who holds each island at the end, and what it scores.

An island is entered by hand (the rulebooks cannot say where one ends): its tile count,
whether it is complete (surrounded by sea), whether an unraided fortress still stands on it
(Rocks of Ruin), and each player's pieces on its land. Influence: a Viking on land 1, an
outpost 2, and with Rocks of Ruin a mill 1, a workshop 1, a barracks 2. The most influence
controls; a tie shares the island in full; nobody controls with 0 influence (in the solo game
1 influence is enough, which is the same rule with no opponent). Only complete islands without
an unraided fortress score: 1 VP per tile for each controller.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import RuleError
from ..inputs import MAX_NUMBER, check_bool, check_int, check_object
from ..messages import Message, join_names, say

INFLUENCE = {"vikings": 1, "outposts": 2, "mill": 1, "workshop": 1, "barracks": 2}
STRUCTURES = ("mill", "workshop", "barracks")
# the pieces as a sentence names them (a count beside: "2 vikings", "the mill")
PIECE_NAMES = {"vikings": say("vikings"), "outposts": say("outposts"), "mill": say("mill"),
               "workshop": say("workshop"), "barracks": say("barracks")}
PIECES = {"vikings": 7, "outposts": 5, "mill": 1, "workshop": 1, "barracks": 1}
ISLAND_KEYS = ("tiles", "complete", "unraided_fortress", "influence", "name")
MAX_ISLANDS = 60
MAX_ISLAND_NAME = 60

FieldFor = Callable[[int, str, str], str]


def island_field(i: int, player: str, key: str) -> str:
    """Where a scoring request puts one island's piece count."""
    return f"islands[{i}].influence.{player}.{key}"


def parse_islands(raw: Any, players: list[str], rocks_of_ruin: bool,
                  field_for: FieldFor = island_field) -> list[dict]:
    """The top-level ``islands`` of a scoring request, validated and filled."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RuleError("islands must be a list of islands.", "islands")
    if len(raw) > MAX_ISLANDS:
        raise RuleError(say("At most %(count)s islands can be scored.", count=MAX_ISLANDS),
                        "islands")
    islands = [parse_island(entry, f"islands[{i}]", players, rocks_of_ruin)
               for i, entry in enumerate(raw)]
    check_piece_totals(islands, players, field_for)
    return islands


def parse_island(raw: Any, where: str, players: list[str], rocks_of_ruin: bool) -> dict:
    """One island: {tiles, complete, unraided_fortress, influence{player: pieces}, name?}."""
    check_object(raw, ISLAND_KEYS, where, say("An island needs tiles, complete and influence."),
                 say("Unknown island field '%(key)s'."))
    if "tiles" not in raw:
        raise RuleError("Say how many tiles the island covers.", f"{where}.tiles")
    if "complete" not in raw:
        raise RuleError("Say whether the island is complete (surrounded by sea).",
                        f"{where}.complete")
    island = {"tiles": check_int(raw["tiles"], f"{where}.tiles", say("Tiles"), 1, MAX_NUMBER),
              "complete": check_bool(raw["complete"], f"{where}.complete", say("Complete")),
              "unraided_fortress": check_bool(raw.get("unraided_fortress", False),
                                              f"{where}.unraided_fortress",
                                              say("Unraided fortress"))}
    if island["unraided_fortress"] and not rocks_of_ruin:
        raise RuleError("Fortresses come with Rocks of Ruin; turn the expansion on.",
                        f"{where}.unraided_fortress", "needs_expansion", 422)
    if raw.get("name") not in (None, ""):
        island["name"] = parse_island_name(raw["name"], f"{where}.name")
    island["influence"] = parse_influence(raw.get("influence"), f"{where}.influence",
                                          players, rocks_of_ruin)
    return island


def parse_island_name(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_ISLAND_NAME:
        raise RuleError(say("An island's name is a text of at most %(count)s characters.",
                            count=MAX_ISLAND_NAME), where)
    return " ".join(value.split())


def parse_influence(raw: Any, where: str, players: list[str], rocks_of_ruin: bool) -> dict:
    """{player: {vikings, outposts, mill, workshop, barracks}} with every player filled."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise RuleError("influence must be an object of players' pieces.", where)
    for name in raw:
        if name not in players:
            raise RuleError(say("%(player)s is not a player of this game.", player=name),
                            f"{where}.{name}", "unknown_player", 422)
    return {p: parse_pieces(raw.get(p), f"{where}.{p}", rocks_of_ruin) for p in players}


def parse_pieces(raw: Any, where: str, rocks_of_ruin: bool, *, fill: bool = True) -> dict:
    """One player's pieces on one island; structures only with Rocks of Ruin."""
    if raw is None:
        raw = {}
    check_object(raw, INFLUENCE, where,
                 say("A player's pieces must be an object, e.g. {\"vikings\": 2}."),
                 say("Unknown piece '%(key)s'."))
    pieces = {}
    for key in INFLUENCE:
        if key not in raw:
            if fill:
                pieces[key] = 0
            continue
        pieces[key] = parse_piece_count(key, raw[key], f"{where}.{key}", rocks_of_ruin)
    return pieces


def parse_piece_count(key: str, value: Any, where: str, rocks_of_ruin: bool) -> int:
    if key in STRUCTURES:
        built = value if isinstance(value, bool) else check_int(value, where, PIECE_NAMES[key],
                                                                0, 1)
        if built and not rocks_of_ruin:
            raise RuleError(say("The %(piece)s comes with Rocks of Ruin; turn the expansion on.",
                                piece=PIECE_NAMES[key]), where, "needs_expansion", 422)
        return int(built)
    return check_int(value, where, PIECE_NAMES[key], 0, MAX_NUMBER)


def check_piece_totals(islands: list[dict], players: list[str], field_for: FieldFor) -> None:
    """A player cannot have more pieces on the islands than the box gives them."""
    for player in players:
        for key, limit in PIECES.items():
            total = 0
            for i, island in enumerate(islands):
                total += island["influence"][player][key]
                if total > limit:
                    raise RuleError(say("%(player)s has only %(count)s %(piece)s in all, but "
                                        "the islands hold %(total)s.", player=player,
                                        count=limit, piece=PIECE_NAMES[key], total=total),
                                    field_for(i, player, key), "too_many_pieces", 422)


# --------------------------------------------------------------------------- control
def influence_of(pieces: dict) -> int:
    return sum(INFLUENCE[key] * count for key, count in pieces.items())


def island_control(island: dict, players: list[str]) -> dict:
    """Who controls the island and why: {controllers, influence, tiles, vp, reason}."""
    influence = {p: influence_of(island["influence"][p]) for p in players}
    best = max(influence.values(), default=0)
    leaders = [p for p in players if influence[p] == best and best > 0]
    controllers, reason = _controllers(island, leaders, best)
    out = {"controllers": controllers, "influence": influence, "tiles": island["tiles"],
           "vp": island["tiles"] if controllers else 0, "reason": reason}
    if "name" in island:
        out["name"] = island["name"]
    return out


def _controllers(island: dict, leaders: list[str], best: int) -> tuple[list[str], Message]:
    tiles = island["tiles"]
    if not island["complete"]:
        return [], say("Incomplete (not surrounded by sea): scores for nobody.")
    if island["unraided_fortress"]:
        return [], say("An unraided fortress still stands on it: scores for nobody.")
    if not leaders:
        return [], say("Nobody has any influence here: scores for nobody.")
    if len(leaders) == 1:
        return leaders, say("%(player)s controls it with %(count)s influence: %(vp)s VP.",
                            player=leaders[0], count=best, vp=tiles)
    return leaders, say("%(names)s tie on %(count)s influence: each scores %(vp)s VP.",
                        names=join_names(leaders), count=best, vp=tiles)


def player_islands(controls: list[dict], islands: list[dict], player: str) -> dict:
    """What the captains read about one player: controlled islands and Scout islands."""
    controlled = [{"tiles": c["tiles"], "influence": c["influence"][player]}
                  for c in controls if player in c["controllers"]]
    scout = sum(1 for c, island in zip(controls, islands, strict=True)
                if island["complete"] and player not in c["controllers"]
                and island["influence"][player]["vikings"] >= 1)
    return {"controlled": controlled, "scout_islands": scout}
