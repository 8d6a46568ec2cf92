"""What the table does in each phase, as sentences: the draft's passing pattern, income,
the actions phase and the end of the game."""
from __future__ import annotations

from ..messages import say, say_in, series
from ..protocol import seat_after
from .rules import DRAFT_DIRECTIONS

SOLO_DRAFT = [
    say("Draw 5 Village Cards, keep 2 aside and discard 3."),
    say("Draw 4 Village Cards, keep 2 aside and discard 2."),
    say("Draw 3 Village Cards, keep 2 aside and discard 1."),
    say("Take your 6 kept Village Cards into hand."),
]


def draft_sentences(players: list[str], direction: str | None) -> list[str]:
    """The passing pattern for this player count (and, with 3-5 players, this direction)."""
    if len(players) == 1:
        return list(SOLO_DRAFT)
    if len(players) == 2:
        return two_player_draft(players)
    return group_draft(players, direction)


def two_player_draft(players: list[str]) -> list[str]:
    a, b = players
    return [say("Each of you draws 5 Village Cards, keeps 2 aside and passes 3 to the other "
                "(%(player)s to %(other_name)s, %(other_name)s to %(player)s).", player=a,
                other_name=b),
            say("Each draws 1 more card to go with the 3 received, keeps 2 aside and passes the "
                "other 2 across."),
            say("Each draws 1 more card to go with the 2 received, keeps 2 aside and discards "
                "1."),
            say("Take your 6 kept Village Cards into hand.")]


def group_draft(players: list[str], direction: str | None) -> list[str]:
    if direction not in DRAFT_DIRECTIONS:
        return [say("Each player draws 6 Village Cards, keeps 1 aside and passes the rest the "
                    "way the arrows at the bottom of the Round Card point (the app does not "
                    "know them for this card); repeat until everyone has kept 6.")]
    step = 1 if direction == "clockwise" else -1
    passes = series([say_in("a draft pass: who hands cards to whom",
                            "%(player)s to %(other_name)s", player=p,
                            other_name=seat_after(players, p, step)) for p in players], ", ")
    first = say("Each player draws 6 Village Cards, keeps 1 aside and passes the rest clockwise "
                "to the player on their left: %(passes)s.", passes=passes) if step == 1 else say(
        "Each player draws 6 Village Cards, keeps 1 aside and passes the rest counterclockwise "
        "to the player on their right: %(passes)s.", passes=passes)
    return [first,
            say("Keep 1 from the cards you receive and pass the rest the same way, until "
                "everyone has kept 6; the 6th card is simply the one handed to you."),
            say("Take your 6 kept Village Cards into hand.")]


ACTIONS_STEPS = [
    say("Everyone takes actions at the same time and must use every Village Card in hand."),
    say("Record each Progress Track move as it happens (a track move); the app reminds you of the "
        "Raid Card, Trade Card or Upgrade at spaces 4, 8 and 12."),
]

INCOME_STEPS = [
    say("Gain income from constructed Longships and tucked Trade Cards (not from Longships "
        "still on the Player Board)."),
    say("Return every Worker on Player Boards and Buildings to its owner's supply."),
    say("Turn used Raid Cards face up again."),
]

FINAL_STEPS = [
    say("Before scoring, you may still use round 5's trades: Silver into Oak, Wool and Iron, "
        "and 1 Oak + 1 Wool + 1 Iron into 1 Gold."),
    say("Then fill in the score sheet: Longships with their bonuses, Buildings, Jarls, Progress "
        "Tracks, Hero and Labourer VP, and 1 VP per Gold."),
]
