"""What the core says reaches a German or French page in German or French: checked on the
messages themselves, not on pages (the browser scans look for English sentences; a single key
word is too short for them to tell apart from a name).

Every game is played through the core from setup to its end, with refusals on the way. Every
message it says (the setup's checklist and notices, each change's Undo label, after and
before it, the scores' explanations and tie-breaks, the refusals) is walked into its
parameters, and
- every message id has a German and a French translation in the catalogues, and
- no parameter is a key of the games' declarations ("mill", "horse", "raid_keeps"): a kind, a
  place or a row goes into a sentence as a message, said in the reader's words, never as the
  API's key (players' names and what the table typed are parameters as typed).
"""
from __future__ import annotations

from functools import cache

import pytest

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.messages import CONTEXT, Message, say, say_n
from companion.plays import apply_event, describe_event, new_state, score_of
from tests.browser.english import catalogue, game_keys, key_words

PLAYERS = {"seafarers": ("Ann", "Bo", "Cy")}
OPTIONS = {"explorers": {"rocks_of_ruin": True}, "seafarers": {"scenario": "new_shores"}}


def ev(kind: str, **data) -> dict:
    return {"type": kind, "data": data}


def sheet(player: str, **what) -> dict:
    return ev("sheet", player=player, **what)


ROUND_OF_REAVERS = [*(ev("place", location=where) for where in (
    "raid_keeps", "battle_at_sea", "raid_villages", "recruit_reavers")),
    ev("advance"), ev("advance")]
# game: the changes of a play from setup to its end (refused ones are kept as refusals)
SCRIPTS = {
    "explorers": [
        ev("add_island", tiles=4, name="Nord"), ev("add_island", tiles=3),
        ev("set_influence", island=0, player="Bo", add={"vikings": 2, "outposts": 1}),
        ev("set_influence", island=0, player="Ann", mill=1, add={"vikings": 1}),
        ev("set_influence", island=1, player="Ann", add={"workshop": 1, "barracks": 1}),
        ev("set_influence", island=0, player="Ann", add={"vikings": -5}),
        ev("set_influence", island=0, player="Ann", vikings=-1),
        ev("set_influence", island=0, player="Ann", add={"mill": 0}),
        ev("update_island", island=0, complete=True), ev("update_island", island=1,
                                                            add={"tiles": 1}),
        ev("turn"), ev("advance"),
        sheet("Ann", add={"livestock": {"pig": 2, "horse": 1}}),
        sheet("Ann", set={"livestock": {"cattle": 1}}),
        sheet("Bo", fields={"livestock": {"sheep": 3, "goat": 1, "chicken": 2}}),
        sheet("Ann", add={"livestock": {"pig": 9}}),
        sheet("Ann", fields={"viking_deaths": 2, "enemy_ships": 1, "outposts": 1,
                             "settlements": [2, 3], "gold": 1, "fortresses": [4]}),
        sheet("Bo", fields={"viking_deaths": 2, "settlements": [2, 3]}),
        ev("remove_island", island=1), ev("finish")],
    "knarr": [
        ev("turn", vp_gained=5, recruits=2), ev("turn", vp_gained=3),
        ev("turn", player="Bo", vp_gained=1),
        sheet("Ann", fields={"vp": 41, "recruits": 1, "bracelets": 1}),
        sheet("Bo", fields={"vp": 41, "recruits": 2, "bracelets": 1}),
        ev("advance"), ev("advance"), ev("advance"), ev("finish")],
    "reavers": [
        ev("territories", player="Ann", add=2), ev("start_player", player="Bo"),
        ev("territories", player="Ann", add=101), ev("place", location="moon"),
        sheet("Ann", fields={"glory": 7, "favor": 2}), *ROUND_OF_REAVERS * 6],
    "shipwrights": [
        ev("reveal", icons={"military": 1, "trade": 0, "renown": 1}),
        ev("advance"), ev("advance"),
        ev("track", player="Ann", track="military", steps=5),
        ev("track", player="Bo", track="trade", steps=-3),
        sheet("Ann", add={"longship_bonuses": {"raid_cards": 1}}),
        sheet("Ann", add={"longship_bonuses": {"raid_cards": 99}}),
        sheet("Bo", fields={"longship_bonuses": ["upgrades", "trade_cards"],
                            "tracks": {"renown": 3}}),
        sheet("Ann", fields={"gold": 3, "resources": 2}),
        sheet("Bo", fields={"gold": 3, "resources": 2, "workers": 1}),
        ev("advance"), ev("advance"), ev("finish")],
    "seafarers": [
        sheet("Ann", fields={"settlements": 3, "cities": 1}),
        sheet("Ann", fields={"special_vp": 2}), ev("advance"),
        sheet("Bo", fields={"settlements": 4, "largest_army": True}), ev("finish")],
}


def said_in(value, found: list[Message]) -> None:
    """Every message in ``value`` (a state, a score, a label), with those in its parameters."""
    if isinstance(value, Message):
        found.append(value)
        for param in value.params.values():
            said_in(param, found)
    elif isinstance(value, dict):
        for item in value.values():
            said_in(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            said_in(item, found)


@cache
def said_by_a_play(game_id: str) -> tuple[list[Message], int]:
    """Every message a play of ``game_id`` says from its setup to its end, and how many
    changes were refused on the way."""
    players = PLAYERS.get(game_id, ("Ann", "Bo"))
    state = new_state(game_id, [{"name": n} for n in players], OPTIONS.get(game_id, {}), 5, {})
    found: list[Message] = []
    said_in(state, found)
    refused = 0
    for event in SCRIPTS[game_id]:
        said_in(describe_event(state, event), found)
        try:
            after = apply_event(state, event)
        except RuleError as error:
            said_in(error.message, found)
            refused += 1
            continue
        said_in(describe_event(after, event, "after"), found)
        said_in(describe_event(state, event, "before"), found)
        state = after
        said_in(state, found)
        said_in(score_of(state), found)
    assert state["finished"], game_id
    return found, refused


def untranslated(message: Message, lang: str) -> bool:
    shape = message.id.rpartition(CONTEXT)[2]
    words = shape
    for name in message.params:
        words = words.replace(f"%({name})s", "")
    if not any(c.isalpha() for c in words):
        return False                                 # "%(head)s; %(tail)s": nothing to say
    said = catalogue(lang)
    text = said.get(shape) or said.get((shape, message.plural)) or next(
        (t for i, t in said.items() if isinstance(i, tuple) and i[0] == shape), None)
    return not (text if isinstance(text, str) else text and all(text))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_message_of_a_play_is_translated_and_says_no_key(game_id):
    found, refused = said_by_a_play(game_id)
    assert refused >= 1 and len(found) > 50, (refused, len(found))
    missing = sorted({m.id for m in found for lang in ("de", "fr") if untranslated(m, lang)})
    keys = {(m.id, name, value) for m in found for name, value in m.params.items()
            if isinstance(value, str) and not isinstance(value, Message)
            and is_key(value)}
    assert missing == [], missing
    assert keys == set(), keys


def is_key(text: str) -> bool:
    """A key, or a list of keys written out ("recruit_reavers, raid_keeps")."""
    return any(part.strip() in key_names() for part in text.casefold().split(","))


@cache
def key_names() -> frozenset:
    """The games' keys, case-folded, whole and with their underscores as spaces ("raid keeps"),
    and each of their words ("raid", "keeps")."""
    keys = {k.casefold() for k in game_keys()}
    return frozenset({*keys, *(k.replace("_", " ") for k in keys), *key_words()})


@pytest.mark.parametrize("message, lang, bad", [
    (say("%(player)s keeps %(captain)s", player="Ann", captain="Archer"), "de", False),
    (say("Never said by the core %(x)s", x=1), "de", True),
    (say_n("%(sign)s%(count)s pig delivered", "%(sign)s%(count)s pigs delivered", 2,
           sign="+"), "fr", False),
    (say("%(head)s; %(tail)s", head="a", tail="b"), "fr", False)])
def test_what_counts_as_untranslated(message, lang, bad):
    assert untranslated(message, lang) is bad


def test_a_key_in_a_message_is_found():
    """The check itself: a kind passed as its key ("mill") is a key; a player's name is not."""
    assert "mill" in key_names() and "raid keeps" in key_names() and "horse" in key_names()
    assert "ann" not in key_names() and "nord" not in key_names()
    assert is_key("recruit_reavers, raid_keeps") and not is_key("Ann, Bo")
