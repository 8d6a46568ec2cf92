"""Knarr's setup: the first player and turn order, the artifacts of the variant, the Viking
cards to take out and the checklist read out at the table."""
from __future__ import annotations

import random

from ..errors import say

VIKING_CARDS_REMOVED = {2: ["3", "4"], 3: ["4"], 4: []}
FACE_UP = {"trading_lands": 3, "lands_of_influence": 3, "vikings": 5}
# TRANSLATORS: Knarr's artifacts (our own translations, no German or French rulebook at hand).
MEAD_CUP = say("Mead Cup")
# The 7 artifacts of the variant; the texts paraphrase the rulebook's.
ARTIFACTS = {
    say("Amulet"): say("Complete a row of Vikings in all 5 colours: take 1 silver bracelet and 1 "
                  "recruit and gain 1 reputation."),
    say("Weathervane"): say("Complete a row of Vikings in all 5 colours: you may Explore straight "
                       "away, still paying the exploration cost."),
    say("Golden Bracelet"): say("Recruit your 3rd Viking of one colour: reserve any face-up "
                           "Destination beside your area; you may later Explore it instead of a "
                           "face-up one (at most 2 reserved at a time)."),
    say("Cauldron"): say("Recruit your 2nd Viking of one colour: take any face-up Viking card "
                    "instead of the one matching the card you played."),
    say("Helmet"): say("Explore a Land of Influence and lay it directly on one of your Trading "
                  "Lands: you may Recruit straight away."),
    MEAD_CUP: say("When you Explore, you may discard one Viking from the board and replace it "
                  "with the top card of the deck."),
    say("Silver Coin"): say("Gain 1 VP for each Viking you Recruit beyond the 3rd of its colour."),
}
# TRANSLATORS: Knarr's ship sheets are played normal or advanced side up.
SHIP_SIDES = {False: say("normal"), True: say("advanced")}
ARTIFACT_TIMING = say("It applies after a player's action, every time the condition is met.")


# --------------------------------------------------------------------------- setup
def draw_artifacts(player_count: int, rng: random.Random) -> list[str]:
    """One random artifact, plus the Mead Cup with 2 players when it was not drawn."""
    drawn = [rng.choice(list(ARTIFACTS))]
    if player_count == 2 and MEAD_CUP not in drawn:
        drawn.append(MEAD_CUP)
    return drawn


def turn_order(players: list[str], first: str) -> list[str]:
    """Seats clockwise from the first player; the last one sits to the first player's right."""
    start = players.index(first)
    return players[start:] + players[:start]


def viking_sentence(player_count: int) -> str:
    marked = VIKING_CARDS_REMOVED[player_count]
    if not marked:
        return say("Viking cards: with 4 players use all 50.")
    if len(marked) == 1:
        return say("Viking cards: with %(count)s players take out every card marked %(mark)s "
                   "in the bottom-left corner.", count=player_count, mark=marked[0])
    return say("Viking cards: with %(count)s players take out every card marked %(mark)s or "
               "%(other)s in the bottom-left corner.", count=player_count, mark=marked[0],
               other=marked[1])


def reputation_sentence(track: list[int]) -> str:
    if track:
        return say("Reputation track: the box data gives the VP of %(count)s spaces, so the "
                   "app adds each reputation step itself.", count=len(track))
    return say("Reputation track: the box data has no values for it, so the app asks for each "
               "player's reputation VP every turn (the owner can enter the track on the Box "
               "data page to automate this).")


def setup_checklist(players: list[str], order: list[str], ship_side: str,
                    artifacts: list[str], track: list[int]) -> list[str]:
    steps = [
        say("Put the board in the middle of the table."),
        say("Shuffle the 20 Trading Lands into a face-down deck beside the board; turn the top "
            "%(count)s face up on their spaces.", count=FACE_UP["trading_lands"]),
        say("Do the same with the 15 Lands of Influence: a face-down deck and %(count)s face "
            "up.", count=FACE_UP["lands_of_influence"]),
        viking_sentence(len(players)),
        say("Shuffle the Viking cards into a face-down deck and turn the top %(count)s face up "
            "on the board's coloured spaces.", count=FACE_UP["vikings"]),
        say("Each player takes a ship sheet, %(side)s side up, with 3 silver bracelet and 3 "
            "recruit tokens, then takes the starting Vikings and assets shown below the ship: "
            "2 Viking cards of different colours face up in the crew zone, 1 recruit and 1 "
            "bracelet slid onto the ship.", side=ship_side),
        say("Put each player's round marker on the start of the score track and square marker "
            "on the start of the reputation track."),
        say("Each player draws 3 Viking cards as a hand."),
        say("Destiny draw: %(player)s plays first; play goes clockwise and %(who)s takes the "
            "last turn of every round.", player=order[0], who=order[-1]),
        reputation_sentence(track),
    ]
    for name in artifacts:
        steps.append(say("Artifact: lay %(artifact)s beside the board. %(text)s It applies "
                         "after a player's action, every time the condition is met.",
                         artifact=name, text=ARTIFACTS[name]))
    if len(artifacts) == 2:
        steps.append(say("With 2 players the Mead Cup joins the random artifact."))
    return steps

