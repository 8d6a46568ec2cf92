"""Every malformed value is a clear error naming the field, in every game: for each event type
the game registry lists (plus the events every game takes), a list, an object, a number or
nothing where a name or a key is expected is a RuleError (a 400/422), never a crash (500)."""
from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.games.inputs import check_players
from companion.plays import COMMON_EVENTS, apply_event, new_state

KEYS = ("player", "location", "island", "captain", "index", "tile", "card", "track", "hero",
        "q", "r", "from", "to", "fields", "add", "influence", "tiles", "steps", "vp", "id",
        "name", "value", "key", "chip", "number", "complete", "action", "kind", "step")
BAD = ([], {}, ["Ann"], {"Ann": 1}, None, 3.5, -1, True, "", "\u202e", [[]])


def start(game) -> dict:
    players = ["Ann", "Bo", "Cy", "Di"][:max(game.min_players, min(3, game.max_players))]
    return new_state(game.id, players, {}, 5, game.empty_catalogue())


CASES = [pytest.param(game_id, kind, id=f"{game_id}-{kind}")
         for game_id, game in GAMES.items()
         for kind in (*game.event_types, *COMMON_EVENTS)]


@pytest.mark.parametrize(("game_id", "kind"), CASES)
def test_malformed_values_name_the_field(game_id, kind):
    state = start(GAMES[game_id])
    for key in KEYS:
        for bad in BAD:
            data = {key: bad}
            if kind == "sheet" and key != "player":
                data = {"player": "Ann", "fields": {key: bad}}
            try:
                apply_event(state, {"type": kind, "data": data})
            except RuleError as err:
                assert err.status in (400, 404, 409, 422), (key, bad, err.as_dict())
                if err.status == 400:
                    assert err.field, (key, bad, err.as_dict())


def test_every_game_lists_its_event_types():
    for game in GAMES.values():
        assert game.event_types, game.id
        state = start(game)
        for kind in game.event_types:      # each listed type is one the game dispatches
            try:
                apply_event(state, {"type": kind, "data": {}})
            except RuleError as err:
                assert err.code != "unknown_event", (game.id, kind)
        with pytest.raises(RuleError) as err:
            apply_event(state, {"type": "no-such-event", "data": {}})
        assert err.value.code == "unknown_event"


@pytest.mark.parametrize("twin", ["Ａｎｎ", "Ann\u200b", "\u202eAnn", "An\u00adn", "ANN",
                                  "Ann\ufeff", "\u2060Ann",
                                  # F5: invisible variation selector, combining grapheme
                                  # joiner and the Hangul fillers (Default_Ignorable)
                                  "Ann\ufe0f", "Ann\u034f", "Ann\u3164", "Ann\u115f",
                                  "A\u180bnn", "Ann\U000e0041"])
def test_look_alike_names_are_the_same_player(twin):
    with pytest.raises(RuleError, match="Two players are called") as err:
        check_players(["Ann", twin], 1, 5)
    assert (err.value.code, err.value.field, err.value.status) == \
        ("duplicate_name", "players[1]", 422)          # a rule across players (api.md)


@pytest.mark.parametrize("twin", ["\u0410nn", "\u0391nn", "\u0430nn", "ＡＮＮ",
                                  "\u0391\u039d\u039d", "\U0001d400nn", "\u0410\u039dN"])
def test_names_that_look_alike_by_their_uts39_skeleton_are_refused(twin):
    """F5: Cyrillic А and а, Greek Α and Ν, mathematical letters, mixed: equal to Ann by
    ICU's confusable skeleton (as written, case-folded, or drawn in another case)."""
    with pytest.raises(RuleError) as err:
        check_players(["Ann", twin], 1, 5)
    assert err.value.code == "duplicate_name" and err.value.field == "players[1]"


def test_names_that_only_share_letters_are_two_players():
    assert check_players(["Ann", "Anne", "Ana", "Ann ❤\ufe0f", "Jan"], 1, 6) == \
        ["Ann", "Anne", "Ana", "Ann ❤\ufe0f", "Jan"]
    with pytest.raises(RuleError, match="looks just like Ian"):
        check_players(["Ian", "lan"], 1, 5)         # a sans-serif capital I is a small L


def test_emoji_keep_what_draws_them_and_lose_the_rest():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert check_players([family, "Bo\u200d", "\u2764\ufe0f Cy"], 1, 5) == \
        [family, "Bo", "\u2764\ufe0f Cy"]
    for blank in ("\u3164", "\u115f\u3164", "\ufe0f", "\u034f "):
        with pytest.raises(RuleError, match="needs a name"):
            check_players([blank], 1, 5)


def test_names_are_stored_normalised():
    assert check_players(["Ａｎｎ", "B\u200bo", "Cy\u202e"], 1, 5) == ["Ann", "Bo", "Cy"]
    with pytest.raises(RuleError, match="needs a name"):
        check_players(["\u200b\u200b"], 1, 5)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_unknown_box_data_names_the_entry(game_id):
    """Seafarers, which keeps no box data, answered without naming the entry at fault."""
    with pytest.raises(RuleError) as err:
        GAMES[game_id].validate_catalogue({"zz_unknown": 1})
    assert err.value.status == 400 and err.value.field == "zz_unknown"
