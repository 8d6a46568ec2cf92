"""The score table's rows in the players' words: each scoring category a game's result names
(the keys of its ``categories``), said once here for every game (Explorers' salvaged gold and
Shipwrights' gold are both "Gold"). The play page, the table display and the printed score
sheet say them in the reader's language; a category missing here would be shown by its key
(tests/unit/test_messages.py checks that every game's categories are named).

Pure.
"""
from __future__ import annotations

from .messages import Message, say

# TRANSLATORS: scoring rows. Catan's rows use the published German/French Catan terms; the North
# Sea rows are our own translations (no German/French rulebook at hand), kept close to the words
# on the English score pads.
ROW_NAMES = {
    "livestock": say("Livestock"), "outposts": say("Outposts"),
    "enemy_ships": say("Enemy ships"), "settlements": say("Settlements"),
    "viking_deaths": say("Viking deaths"), "islands": say("Islands"), "captain": say("Captain"),
    "gold": say("Gold"), "fortresses": say("Fortresses"), "longships": say("Longships"),
    "buildings": say("Buildings"), "jarls": say("Jarls"), "tracks": say("Tracks"),
    "heroes": say("Heroes"), "round_cards": say("Round Cards"), "score": say("Score"),
    "glory": say("Glory"), "artifacts": say("Artifacts"), "favor": say("Favor"),
    "keep_spoils": say("Keep spoils"), "tapestries": say("Tapestries"), "walls": say("Walls"),
    "prophecies": say("Prophecies"), "cities": say("Cities"),
    "longest_route": say("Longest route"), "largest_army": say("Largest army"),
    "vp_cards": say("VP cards"), "special_vp": say("Special VP"),
}


def row_name(category: str) -> Message | str:
    """The row ``category`` in the players' words (the key itself for one not named here)."""
    return ROW_NAMES.get(category, category)
