"""Golden outputs: what each seed produces for every game's setup, pinned in tests/golden/.

A change to a game's setup code that moves any dealt card, start player, tile or number for an
existing seed fails here: a club's printed or shared seed must keep giving the same table. When
a change is meant (a rules fix), rewrite the files with `python -m tests.golden.cases` and let
the diff show what moved."""
from __future__ import annotations

import json

import pytest

from companion.games import GAMES
from tests.golden.cases import cases, path_of, produce


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_seed_still_gives_the_same_setup(game_id):
    pinned = json.loads(path_of(game_id).read_text())
    assert [c["request"] for c in pinned] == cases(game_id)
    produced = produce(game_id)
    for want, got in zip(pinned, produced, strict=True):
        assert got == want, f"{game_id} {want['request']}"


def test_the_golden_files_cover_every_game_and_player_count():
    for game_id, game in GAMES.items():
        pinned = json.loads(path_of(game_id).read_text())
        counts = {len(c["request"]["players"]) for c in pinned if "error" not in c["response"]}
        assert counts == set(range(game.min_players, game.max_players + 1)), game_id
