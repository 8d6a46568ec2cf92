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

from ..errors import RuleError
from ..messages import Message, say, say_n
from ..ranking import join_names

INFLUENCE = {"vikings": 1, "outposts": 2, "mill": 1, "workshop": 1, "barracks": 2}
STRUCTURES = ("mill", "workshop", "barracks")
# a structure without the expansion, said whole for each (its article agrees with its noun:
# "Le moulin", "la caserne"; a noun put into one sentence for all three agreed with none)
NEEDS_ROCKS = {
    "mill": say("The mill comes with Rocks of Ruin; turn the expansion on."),
    "workshop": say("The workshop comes with Rocks of Ruin; turn the expansion on."),
    "barracks": say("The barracks comes with Rocks of Ruin; turn the expansion on.")}
PIECES = {"vikings": 7, "outposts": 5, "mill": 1, "workshop": 1, "barracks": 1}
PIECE_COUNTS = {  # a number of pieces of a kind, signed for a change: "2 vikings", "+1 mill"
    "vikings": lambda n, sign="": say_n("%(sign)s%(count)s viking", "%(sign)s%(count)s vikings",
                                        n, sign=sign),
    "outposts": lambda n, sign="": say_n("%(sign)s%(count)s outpost",
                                         "%(sign)s%(count)s outposts", n, sign=sign),
    "mill": lambda n, sign="": say_n("%(sign)s%(count)s mill", "%(sign)s%(count)s mills", n,
                                     sign=sign),
    "workshop": lambda n, sign="": say_n("%(sign)s%(count)s workshop",
                                         "%(sign)s%(count)s workshops", n, sign=sign),
    "barracks": lambda n, sign="": say_n("%(sign)s%(count)s barracks",
                                         "%(sign)s%(count)s barracks", n, sign=sign),
}
ISLAND_KEYS = ("tiles", "complete", "unraided_fortress", "influence", "name")
MAX_ISLANDS = 60
MAX_ISLAND_NAME = 60

FieldFor = Callable[[int, str, str], str]


def island_field(i: int, player: str, key: str) -> str:
    """Where a scoring request puts one island's piece count."""
    return f"islands[{i}].influence.{player}.{key}"


def clean_islands(islands: list[dict], players: list[str], rocks_of_ruin: bool,
                  field_for: FieldFor = island_field) -> list[dict]:
    """Islands of their declared shape (companion.games.explorers.events) as a table keeps
    them, every player's pieces filled, held to the rules of the play (a 422 each)."""
    out = [clean_island(island, f"islands[{i}]", players, rocks_of_ruin)
           for i, island in enumerate(islands)]
    check_piece_totals(out, players, field_for)
    return out


def clean_island(raw: dict, where: str, players: list[str], rocks_of_ruin: bool) -> dict:
    """One island: {tiles, complete, unraided_fortress, influence{player: pieces}, name?}."""
    island = {"tiles": raw["tiles"], "complete": raw.get("complete") or False,
              "unraided_fortress": raw.get("unraided_fortress") or False}
    if island["unraided_fortress"] and not rocks_of_ruin:
        raise RuleError("Fortresses come with Rocks of Ruin; turn the expansion on.",
                        f"{where}.unraided_fortress", "needs_expansion", 422)
    if raw.get("name"):
        island["name"] = " ".join(raw["name"].split())
    influence = raw.get("influence") or {}
    for name in influence:
        if name not in players:
            raise RuleError(say("%(name)s is not a player of this game.", name=name),
                            f"{where}.influence.{name}", "unknown_player", 422)
    island["influence"] = {p: pieces_of(influence.get(p) or {}, f"{where}.influence.{p}",
                                        rocks_of_ruin) for p in players}
    return island


def pieces_of(raw: dict, where: str, rocks_of_ruin: bool, *, fill: bool = True) -> dict:
    """One player's pieces on one island (a structure as 0 or 1); structures only with
    Rocks of Ruin."""
    pieces = {}
    for key in INFLUENCE:
        if key not in raw or raw[key] is None:
            if fill:
                pieces[key] = 0
            continue
        pieces[key] = int(raw[key])
        if key in STRUCTURES and pieces[key] and not rocks_of_ruin:
            raise RuleError(NEEDS_ROCKS[key], f"{where}.{key}", "needs_expansion", 422)
    return pieces


def check_piece_totals(islands: list[dict], players: list[str], field_for: FieldFor) -> None:
    """A player cannot have more pieces on the islands than the box gives them."""
    for player in players:
        for key, limit in PIECES.items():
            total = 0
            for i, island in enumerate(islands):
                total += island["influence"][player][key]
                if total > limit:
                    raise RuleError(say("%(player)s has only %(pieces)s in all, but the "
                                        "islands hold %(total)s.", player=player,
                                        pieces=PIECE_COUNTS[key](limit), total=total),
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
