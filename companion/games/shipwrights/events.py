"""Shipwrights' events at the table, each declared once (its data validates the event and is
its schema in the OpenAPI document) with the function that applies it (companion.games
.shipwrights.play)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator

from ..bodies import SPACE, Body, On, Player, delta, one_of, or_blank, refuse, text, whole
from ..errors import say
from .catalogue import MAX_ICONS, MAX_TEXT, MAX_TRADES, MAX_VP, Icons, Text
from .play import apply_reveal, apply_track
from .rules import DRAFT_DIRECTIONS, TRACK_END, TRACKS, track_name
from .together import apply_done

Icon = whole(0, MAX_ICONS)
# one text of trades split at ';' and line ends: blank pieces are skipped, the others are
# trades of at most MAX_TEXT characters (their surrounding spaces aside), MAX_TRADES at most
_MARK, _BLANK = f"[^;\\n{SPACE}]", f"[{SPACE.replace(chr(92) + 'u000a', '')}]*"
_FILLED = f"{_BLANK}{_MARK}(?:[^;\\n]{{0,{MAX_TEXT - 2}}}{_MARK})?{_BLANK}"
TRADES_TEXT = (f"^(?:{_BLANK}[;\\n])*(?:{_FILLED}(?:[;\\n]{_BLANK})*"
               f"(?:[;\\n]{_FILLED}(?:[;\\n]{_BLANK})*){{0,{MAX_TRADES - 1}}}|{_BLANK})$")
_BLANK_TRACKS = {t: {"const": ""} for t in TRACKS}
REVEAL_RULE = {"anyOf": [
    {"required": ["icons"], "properties": {"icons": {"not": {"const": ""}}, **_BLANK_TRACKS}},
    {"properties": {"icons": {"const": ""}}, "anyOf": [
        {"required": list(TRACKS), "properties": dict.fromkeys(TRACKS, {"type": "integer"})},
        {"properties": _BLANK_TRACKS}]}]}


class ShipwrightsReveal(Body):
    """The Round Card turned over (when the box data could not deal it): which of icons,
    draft and solo_vp the play needs depends on its player count (one left out is a 422
    missing_value). A form sends the three tracks' icons as fields of their own."""
    model_config = ConfigDict(json_schema_extra=REVEAL_RULE)
    id: or_blank(text(MAX_TEXT, say("The card's id"), collapse=True)) = None
    name: or_blank(text(MAX_TEXT, say("The card's name"), collapse=True)) = None
    icons: Icons | Literal[""] | None = None
    solo_vp: or_blank(whole(0, MAX_VP, say("The solo VP"))) = None
    draft: or_blank(one_of(DRAFT_DIRECTIONS)) = None
    trades: or_blank(Annotated[list[Text], Field(max_length=MAX_TRADES)]
                     | Annotated[str, Field(pattern=TRADES_TEXT)]) = None
    military: Icon | Literal[""] = None
    trade: Icon | Literal[""] = None
    renown: Icon | Literal[""] = None

    @model_validator(mode="after")
    def icons_one_way(self):
        flat = [t for t in TRACKS if getattr(self, t) not in (None, "")]
        if flat and self.icons not in (None, ""):
            raise refuse(say("Send the icons either as icons or as military, trade and renown, "
                             "not both."), flat[0])
        missing = [t for t in TRACKS if t not in flat]
        if flat and missing:
            raise refuse(say("The number of %(track)s icons is needed (0 where the card shows "
                             "none).", track=track_name(missing[0])), missing[0])
        return self


class ShipwrightsTrackMove(Body):
    """A marker moves on a Progress Track: a player's, or the neutral player's ('neutral',
    when the play has one; else a 422 unknown_player)."""
    player: Player
    track: one_of(TRACKS)
    steps: delta(TRACK_END, say("steps"))


class ShipwrightsDone(Body):
    """A player is done with the phase the whole table plays at once: the draft (6 Village
    Cards kept) or the actions (every Village Card in hand used). When the last one is, the
    next phase begins; outside the draft and the actions a 422 wrong_phase, twice a 422
    already_done."""
    player: Player


EVENTS = {"track": On(ShipwrightsTrackMove, lambda state, data: apply_track(state, data)),
          "done": On(ShipwrightsDone, lambda state, data: apply_done(state, data)),
          "reveal": On(ShipwrightsReveal, lambda state, data: apply_reveal(state, data),
                       optional=True)}
