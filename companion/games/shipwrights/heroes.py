"""Hero adjudication: Svend, Thyra and Frode go to the sole leader of their track (the neutral
markers included); a tie for the lead gives the hero to nobody; everyone holding none of the
three takes a Randi."""
from __future__ import annotations

from typing import Any

from pydantic import create_model

from ..bodies import Body, check, given, whole
from ..errors import RuleError
from ..inputs import check_name
from ..messages import Message, join_names, say
from ..names import look_alike
from ..requests import Name
from .rules import (
    HERO_NAMES,
    HEROES,
    NEUTRAL,
    TRACK_END,
    TRACKS,
    has_neutral_player,
    track_name,
)

MAX_HOLDERS = 5
Markers = create_model("ShipwrightsMarkers", __base__=Body,
                       __doc__="Marker positions on the three tracks.",
                       **{t: (whole(0, TRACK_END, f"The {track_name(t)} position"), ...)
                          for t in TRACKS})


class HeroesRequest(Body):
    """Every player's (and the neutral's) three marker positions, by name. Rules, a 422
    each: 1 to 5 players, no name that spells 'neutral' or equals another once
    normalised."""
    tracks: dict[Name, Markers]          # (1 to 5 of them: a rule, 422)
    neutral: Markers | None = None


def adjudicate_heroes(body: Any) -> dict:
    """``POST /heroes``: {"tracks": {player: positions}, "neutral": positions|null}."""
    request = check(HeroesRequest, body)
    raw_tracks = request.tracks
    if not 1 <= len(raw_tracks) <= MAX_HOLDERS:
        raise RuleError(say("tracks must hold 1 to %(count)s players.", count=MAX_HOLDERS),
                        "tracks", "wrong_player_count", 422)
    tracks = {}
    for key, positions in raw_tracks.items():
        name = check_name(key, f"tracks.{key}")
        if look_alike(name, NEUTRAL):
            raise RuleError(say("'%(name)s' cannot name a player here.", name=key), f"tracks.{key}",
                            "reserved_name", 422)
        if any(look_alike(name, other) for other in tracks):   # another key, as people see it
            raise RuleError(say("'%(name)s' cannot name a player here.", name=key), f"tracks.{key}",
                            "duplicate_name", 422)
        tracks[name] = given(positions)
    neutral = None if request.neutral is None else given(request.neutral)
    if neutral is not None and not has_neutral_player(len(tracks)):
        raise RuleError(say("Neutral markers play only with 1 or 2 players, not with "
                            "%(count)s: send neutral as null.", count=len(tracks)),
                        "neutral", "no_neutral_player", 422)
    return award_heroes(tracks, neutral)


def award_heroes(tracks: dict[str, dict], neutral: dict | None) -> dict:
    """{"heroes": {"svend", "thyra", "frode": name | "neutral" | None}, "randi": [names]}."""
    markers = dict(tracks)
    if neutral is not None:
        markers[NEUTRAL] = neutral
    heroes = {HEROES[track]: sole_leader(markers, track) for track in TRACKS}
    holders = set(heroes.values())
    randi = [name for name in tracks if name not in holders]
    return {"heroes": heroes, "randi": randi}


def sole_leader(markers: dict[str, dict], track: str) -> str | None:
    best = max(m[track] for m in markers.values())
    leaders = [name for name, m in markers.items() if m[track] == best]
    return leaders[0] if len(leaders) == 1 else None


def hand_out_sentences(before: dict, after: dict, markers: dict[str, dict]) -> list[str]:
    """Who passes which hero card to whom, as sentences for the table.

    ``before``/``after``: {"heroes": {...}, "randi": [...]} before and after this round;
    ``markers``: positions by name (neutral included) to explain ties."""
    sentences = [hero_sentence(hero, track, before["heroes"].get(hero),
                               after["heroes"][hero], markers)
                 for track, hero in HEROES.items()]
    sentences += randi_sentences(before.get("randi", []), after["randi"], after["heroes"])
    return sentences


def hero_sentence(hero: str, track: str, old: str | None, new: str | None,
                  markers: dict[str, dict]) -> str:
    name = HERO_NAMES[hero]
    if new is None:
        tied = tied_leaders(markers, track)
        tied_names = join_names([holder_name(t) for t in tied])
        if old is None:
            return say("%(hero_name)s stays on the Main Board: %(names)s are tied for the lead "
                       "on %(track)s.", hero_name=name, names=tied_names,
                       track=track_name(track))
        return say("%(holder)s returns %(hero_name)s to the Main Board: %(names)s are tied for "
                   "the lead on %(track)s.", holder=upper_first(holder_name(old)),
                   hero_name=name, names=tied_names, track=track_name(track))
    if old == new:
        return say("%(holder)s keeps %(hero_name)s (sole leader on %(track)s).",
                   holder=upper_first(holder_name(new)), hero_name=name,
                   track=track_name(track))
    if old is None:
        return say("%(hero_name)s goes from the Main Board to %(holder)s (sole leader on "
                   "%(track)s).", hero_name=name, holder=holder_name(new),
                   track=track_name(track))
    return say("%(hero_name)s goes from %(giver)s to %(holder)s (sole leader on %(track)s).",
               hero_name=name, giver=holder_name(old), holder=holder_name(new),
               track=track_name(track))


def randi_sentences(old_randi: list[str], new_randi: list[str], heroes: dict) -> list[str]:
    sentences = []
    for name in old_randi:
        if name not in new_randi:
            held = join_names([HERO_NAMES[h] for h, who in heroes.items() if who == name])
            sentences.append(say("%(name)s now holds %(names)s and returns Randi to the Main "
                                 "Board.", name=name, names=held))
    for name in new_randi:
        if name in old_randi:
            sentences.append(say("%(name)s keeps Randi.", name=name))
        else:
            sentences.append(say("%(name)s holds none of Svend, Thyra and Frode and takes a "
                                 "Randi.", name=name))
    return sentences


def tied_leaders(markers: dict[str, dict], track: str) -> list[str]:
    best = max(m[track] for m in markers.values())
    return [name for name, m in markers.items() if m[track] == best]


def holder_name(name: str) -> Message | str:
    return say("the neutral player") if name == NEUTRAL else name


def upper_first(text: Message | str) -> Message | str:
    if isinstance(text, Message):       # the neutral player, at the start of a sentence
        return say("The neutral player")
    return text[:1].upper() + text[1:]
