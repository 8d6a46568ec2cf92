"""Shipwrights of the North Sea: Redux: the fixed facts of the rulebook, as data.

Nothing here is card data: what is printed only on the cards lives in the box catalogue
(see ``catalogue.py``).
"""
from __future__ import annotations

from ..inputs import Option
from ..messages import Message, say

ROUNDS = 5
PHASES = ("reveal", "draft", "actions", "income", "heroes")
# The phases every player plays at the same time, each done in their own time (together.py).
TOGETHER = ("draft", "actions")
TRACKS = ("military", "trade", "renown")
TRACK_LABELS = {"military": say("Military"), "trade": say("Trade"), "renown": say("Renown")}
# The last space of a Progress Track: spaces 15 to 18 score at the end [SEED 0; facts.md 1.2
# infers the track has 18 spaces].
TRACK_END = 18
SCORING_SPACES = ("15", "16", "17", "18")
REWARD_SPACES = (4, 8, 12)
DRAFT_DIRECTIONS = ("clockwise", "counterclockwise")
NEUTRAL = "neutral"
HUT_NUMBERS = ("1", "2", "3", "4", "5", "6")

# The hero of each track, in track order.
HEROES = {"military": "svend", "trade": "thyra", "renown": "frode"}
HERO_NAMES = {"svend": "Svend", "thyra": "Thyra", "frode": "Frode", "randi": "Randi"}

# What a player takes on reaching space 4, 8 or 12 of a track.
REWARDS = {
    "military": say("take the top Raid Card and lay it face up beside your Player Board"),
    "trade": say("take the top Trade Card: tuck it under a Longship (Eikjas count) that has "
                 "none, or turn it face down for its immediate reward"),
    "renown": say("take an Upgrade: flip your Eikja, Labourer or Hut Card to its upgraded side"),
}

# Workers a raid costs, by Military position: (lowest position, workers).
RAID_COST_STEPS = ((10, 0), (7, 1), (4, 2))

# Each player's starting supply (setup step 5 of the player area).
STARTING_SUPPLY = {"workers": 3, "oak": 1, "wool": 1, "iron": 1, "gold": 1, "silver": 2}

# Longship end-game bonuses: VP per counted thing.
BONUS_TYPES = ("unique_buildings", "raid_trade_upgrade_sets", "unique_longships",
               "raid_cards", "trade_cards", "upgrades")
BONUS_LABELS = {
    "unique_buildings": say("1 VP per unique Building (Huts count)"),
    "raid_trade_upgrade_sets": say("3 VP per set of Raid Card + Trade Card + Upgrade"),
    "unique_longships": say("1 VP per unique Longship (Eikjas count)"),
    "raid_cards": say("2 VP per Raid Card"),
    "trade_cards": say("2 VP per Trade Card"),
    "upgrades": say("2 VP per Upgrade"),
}

SOLO_VP_PER_HERO = 3


MAX_NEUTRAL_PLAYERS = 2


def has_neutral_player(player_count: int) -> bool:
    """Setup: "If playing with only 1-2 players, include 1 set of unused Player Markers for a
    Neutral Player"; with 3 to 5 players there are no neutral markers."""
    return player_count <= MAX_NEUTRAL_PLAYERS


def raid_cost(military: int) -> int | None:
    """Workers one raid costs at this Military position; None below space 4 (no raids yet)."""
    for lowest, workers in RAID_COST_STEPS:
        if military >= lowest:
            return workers
    return None


def track_name(track: str) -> Message:
    return TRACK_LABELS[track]


# Setup options (the structured ones are declared as types: shipwrights.OPTION_TYPES).
OPTIONS = (
    Option("nemesis_cards", say("Nemesis cards (solo): how many to add at random"), kind="int",
           default=0, minimum=0, maximum=4,
           help=say("Solo only. Or send options.nemesis: a list of catalogue Nemesis ids.")),
)
