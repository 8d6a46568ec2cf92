"""Setting up the table: start player, Winter Token, captains, tiles, and a checklist.

How long the game lasts (the turn counter in play.py relies on this):
each player holds 3 tiles; a turn places 1 tile from the hand and then draws 1 while any are
left to draw (with Rocks of Ruin the 3 face-up tiles count as left to draw). The game ends
after the turn in which the Winter Token holder (the seat before the start player, so the
last to play in each round) plays their last tile. The draw pile holds tiles_in_play - 3N
tiles; as tiles_in_play is a multiple of N (48 for 1-4, 72 for 1-4, 70 for 5), the last tile
is drawn by the Winter Token holder, every player then plays out the 3 tiles in hand, and
the holder's hand empties on turn tiles_in_play. So the game lasts exactly tiles_in_play
turns, counting every player's turn (the base rulebook: 48), tiles_in_play / N for each.
Solo: no hand is dealt; each turn draws 3 tiles (2 placed, 1 discarded) until none are left
to draw: tiles_in_play / 3 turns (16 in the base game, 24 with the Rocks of Ruin tiles).
"""
from __future__ import annotations

import random

from ..errors import RuleError, say
from ..messages import join_names
from ..protocol import seat_after
from .captains import captain_description, captain_pool

BASE_TILES = 48
ROCKS_TILES = 24
FIVE_PLAYER_REMOVED = 2
HAND_SIZE = 3
FACE_UP_TILES = 3
SOLO_DRAW = 3


def tiles_in_play(players: int, rocks_of_ruin: bool) -> int:
    tiles = BASE_TILES + (ROCKS_TILES if rocks_of_ruin else 0)
    return tiles - FIVE_PLAYER_REMOVED if players == 5 else tiles


def total_turns(players: int, tiles: int) -> int:
    """Every player's turn counted: tiles in play, or in the solo game tiles / 3."""
    return tiles // SOLO_DRAW if players == 1 else tiles


def check_player_count(players: list[str], rocks_of_ruin: bool) -> None:
    if len(players) == 5 and not rocks_of_ruin:
        raise RuleError("A fifth player needs the Rocks of Ruin expansion (its fifth colour "
                        "and tiles); turn it on or play with 1 to 4.", "players",
                        "wrong_player_count", 422)


def turn_order(players: list[str], start: str) -> list[str]:
    i = players.index(start)
    return players[i:] + players[:i]


def deal_captains(players: list[str], pool: list[str], rng: random.Random) -> dict:
    """2 distinct captains per player, in seat order, from one shuffled pool."""
    dealt = rng.sample(pool, 2 * len(players))
    return {p: dealt[2 * i:2 * i + 2] for i, p in enumerate(players)}


def build_setup(players: list[str], options: dict, rng: random.Random,
                catalogue: dict) -> dict:
    rocks = bool(options.get("rocks_of_ruin"))
    check_player_count(players, rocks)
    solo = len(players) == 1
    start = players[0] if solo else rng.choice(players)
    captains = deal_captains(players, captain_pool(rocks, catalogue, solo), rng)
    tiles = tiles_in_play(len(players), rocks)
    setup = {
        "start_player": start,
        "winter_token": None if solo else seat_after(players, start, -1),
        "captains": captains,
        "tiles_in_play": tiles,
        "face_up_tiles": FACE_UP_TILES if rocks and not solo else 0,
        "turn_order": turn_order(players, start),
        "total_turns": total_turns(len(players), tiles),
        "hand_size": 0 if solo else HAND_SIZE,
        "solo": solo,
        "rocks_of_ruin": rocks,
        "captain_bonuses": {c: captain_description(c, catalogue)
                            for pair in captains.values() for c in pair},
    }
    setup["checklist"] = checklist(players, setup)
    return setup


def checklist(players: list[str], setup: dict) -> list[str]:
    """What to lay out on the table, as sentences in order."""
    rocks, solo = setup["rocks_of_ruin"], setup["solo"]
    steps = [say("Put a Starting Board (either side up) within everyone's reach, with room in "
                 "front of it for tiles."),
             say("Behind the Starting Board: the livestock, the Settlement tokens shuffled "
                 "with their strength hidden, and the Enemy Ships shuffled ship side up.")]
    if rocks:
        steps.append(say("Shuffle the Fortress tokens (gates up) and the Shipwreck tokens "
                         "(wrecks up) into two separate piles behind the Starting Board."))
    steps += tile_steps(len(players), setup)
    steps += captain_steps(setup)
    if solo:
        steps.append(say("You take a longship, 7 Vikings and 5 outposts in one colour: the "
                         "longship goes on the Mainland shore with 2 Vikings aboard, the other "
                         "5 Vikings on the Mainland."))
        if rocks:
            steps.append(say("You take a Dashboard, with the Mill, Workshop, Barracks and "
                             "outposts on its spaces."))
    else:
        steps.append(say("Each player takes a longship, 7 Vikings and 5 outposts in one "
                         "colour: the longship goes on the Mainland shore with 2 Vikings "
                         "aboard, the other 5 Vikings on the Mainland."))
        if rocks:
            steps.append(say("Each player takes a Dashboard, with the Mill, Workshop, Barracks "
                             "and outposts on its spaces."))
    steps.append(end_step(setup) if solo else winter_step(setup))
    return steps


def tile_steps(players: int, setup: dict) -> list[str]:
    tiles = setup["tiles_in_play"]
    if setup["rocks_of_ruin"]:
        steps = [say("Shuffle the %(rocks)s Rocks of Ruin tiles into the %(base)s base tiles.",
                     rocks=ROCKS_TILES, base=BASE_TILES)]
        if players == 5:
            steps.append(say("Return %(removed)s tiles to the box unseen: %(tiles)s tiles stay "
                             "in play.", removed=FIVE_PLAYER_REMOVED, tiles=tiles))
    else:
        steps = [say("Shuffle the %(base)s tiles.", base=BASE_TILES)]
    if setup["solo"]:
        steps.append(say("Deal no tiles: each turn you draw 3, place 2 and discard 1 (no "
                         "face-up tiles in the solo game)."))
        return steps
    steps.append(say("Deal %(hand)s tiles face down to each player and stack the rest face "
                     "down.", hand=HAND_SIZE))
    if setup["face_up_tiles"]:
        steps.append(say("Turn the top %(face_up)s tiles of the stack face up beside it; a "
                         "player may draw one of them instead of the top of the stack.",
                         face_up=setup["face_up_tiles"]))
    return steps


def captain_steps(setup: dict) -> list[str]:
    captains = setup["captains"]
    if setup["solo"]:
        (player, pair), = captains.items()
        return [say("Lay your 2 captains face up: %(first)s and %(second)s (the Queen and the "
                    "Scout are out of the solo game); only the lower-scoring one counts at the "
                    "end.", first=pair[0], second=pair[1])]
    dealt = dealt_captains(list(captains.items()))
    if setup["rocks_of_ruin"]:
        return [say("Deal 2 captains to each player (%(dealt)s). Each keeps one face up on "
                    "their Dashboard; the others go back to the box.", dealt=dealt)]
    return [say("Deal 2 captains to each player (%(dealt)s). Each keeps one face up; the "
                "others go back to the box.", dealt=dealt)]


def dealt_captains(pairs: list[tuple[str, list[str]]]) -> str:
    """ "Ann: Tyrant or Barbarian; Bo: ..." said one player at a time, so a page can say each
    part (and each captain) in its language."""
    (player, (first, second)), rest = pairs[0], pairs[1:]
    if not rest:
        return say("%(player)s: %(first)s or %(second)s", player=player, first=first,
                   second=second)
    return say("%(player)s: %(first)s or %(second)s; %(more)s", player=player, first=first,
               second=second, more=dealt_captains(rest))


def winter_step(setup: dict) -> str:
    return say("%(player)s starts and play goes clockwise (%(players)s). %(who)s, to the start "
               "player's right, takes the Winter Token: the game ends after their turn with an "
               "empty hand, %(turns)s turns in all (%(each)s each).",
               player=setup["start_player"], players=join_names(setup["turn_order"]),
               who=setup["winter_token"], turns=setup["total_turns"],
               each=setup["total_turns"] // len(setup["turn_order"]))


def end_step(setup: dict) -> str:
    return say("No Winter Token in the solo game: it ends when no tiles are left to draw, "
               "after %(turns)s turns.", turns=setup["total_turns"])
