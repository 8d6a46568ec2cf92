"""Every sentence a setup shows is German and French: the checklists, notes, starting supplies,
captains, artifacts and the Seafarers notes of all five games, for several seeds, player counts
and options.

The setup object is walked whole: every text in it is either a message of the core whose id,
and every message among its parameters, the catalogue says in the page's language, or a word
the catalogue knows, or sits under a key listed below as data a page shows as is. A new
English sentence added to a setup fails here until it is translated or named as data."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import GAMES
from companion.games.messages import CONTEXT, Message
from companion.web.words import core

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]

# Keys whose texts are data, not words: players' names, ids and codes a page never shows as
# words, hex labels ("C4"), numbers; the codes of terrains and harbours are checked as words.
DATA_KEYS = {"start_player", "winter_token", "turn_order", "first_player", "last_player",
             "honor_ship", "id", "label", "scenario", "layout", "remove_viking_cards_marked",
             "hut_tracks"}
WORD_KEYS = {"terrain", "type", "captains", "artifacts", "name", "ship_side"}

# (game, player counts, options) the setups are drawn with, each with three seeds.
CASES = [
    ("shipwrights", (1, 2, 3, 5), {}),
    ("shipwrights", (1,), {"nemesis_cards": 0}),
    ("reavers", (3,), {"wall_ties": "split"}),
    ("explorers", (1, 2, 4), {}),
    ("explorers", (1, 3, 5), {"rocks_of_ruin": True}),
    ("knarr", (2, 3, 4), {}),
    ("knarr", (2, 3, 4), {"artifacts": True, "advanced_ships": True}),
    ("reavers", (2, 3, 4), {}),
    *[("seafarers", (3, 4), {"scenario": s, "layout": lay})
      for s in ("new_shores", "four_islands", "oceans", "wasteland", "new_world",
                "great_crossing", "greater_catan") for lay in ("book", "variable")],
    ("seafarers", (4,), {"scenario": "great_crossing", "target_vp": 14}),
]


def setups():
    for game_id, counts, options in CASES:
        game = GAMES[game_id]
        for count in counts:
            if count < game.min_players or count > game.max_players:
                continue
            for seed in (1, 2, 3):
                try:
                    parsed = game.parse_options(dict(options))
                    yield game_id, game.setup(NAMES[:count], parsed, random.Random(seed), {})
                except Exception as refused:      # a scenario for 4 asked for 3, and so on
                    if "not" not in str(refused):
                        raise


def texts(value, key=None):
    """(key, text) for every text in a setup, under the key that holds it."""
    if isinstance(value, dict):
        for k, v in value.items():
            # a dict keyed by players' names (captains, supplies): its key is not the kind
            yield from texts(v, key if k in NAMES else k)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v, key)
    elif isinstance(value, str):
        yield key, value


@pytest.fixture(scope="module")
def catalogues():
    found = {}
    for lang in ("de", "fr"):
        with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
            catalog = read_po(handle, locale=lang)
        found[lang] = {m.id for m in catalog if isinstance(m.id, str) and m.string}
        found[lang + "-same"] = {m.id for m in catalog if m.string == m.id}
    return found



NEUTRAL = re.compile(r"[\d\s,;:?()×x/+-]*|[A-Z]{1,2}\d{1,2}|—")
# keys whose texts are players' names as typed
AS_TYPED = re.compile(r"^(name|names|player|players|who|.*_name)$")
LETTERS = re.compile(r"[A-Za-z]")


def english_left(text, known: set[str]) -> list[str]:
    """The parts of *text* the catalogue does not say in the other language: a message whose
    id it lacks (a mere join of its parameters, "%(head)s; %(tail)s", needs none), then each
    message among its parameters; a plain text is a word of the core the catalogue must know
    (numbers and hex labels are no words). A message's plain text parameters are as typed."""
    if isinstance(text, Message):
        shape = text.id.rpartition(CONTEXT)[2]
        left = [] if (shape in known or not LETTERS.search(re.sub(r"%\(\w+\)s", "", shape))) \
            else [shape]
        return left + [part for value in text.params.values()
                       for part in english_left_param(value, known)]
    if NEUTRAL.fullmatch(text) or text in known:
        return []
    return [text]


def english_left_param(value, known: set[str]) -> list[str]:
    if isinstance(value, Message):
        return english_left(value, known)
    if isinstance(value, (list, tuple)):
        return [part for item in value for part in english_left_param(item, known)]
    return []


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_text_of_every_setup_is_said_in_the_language(app, catalogues, lang):
    checked, sentences = set(), 0
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        for game_id, setup in setups():
            for key, text in texts(setup):
                if key in DATA_KEYS or AS_TYPED.match(key or "") and key not in WORD_KEYS \
                        or (game_id, text) in checked:
                    continue
                checked.add((game_id, text))
                left = english_left(text, catalogues[lang])
                assert not left, (lang, game_id, key, text, left)
                if key not in WORD_KEYS and not NEUTRAL.fullmatch(text):
                    sentences += 1
                    # "1 Gold" is German too: only a shape the catalogue says the same way
                    # may come back unchanged
                    assert core(text) != text or getattr(text, "id", text) in catalogues[
                        lang + "-same"], (lang, game_id, key, text)
    assert sentences > 200, sentences


def test_players_names_stay_as_typed_and_the_and_between_them_is_translated(app):
    setup = GAMES["explorers"].setup(["Ann and Al", "Bo", "Cy"], {"rocks_of_ruin": False},
                                     random.Random(4), {})
    step = setup["checklist"][-1]
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        said = core(step)
    order = setup["turn_order"]
    assert f"({order[0]}, {order[1]} und {order[2]})" in said, said
    assert said.startswith(f"{setup['start_player']} beginnt, gespielt wird im Uhrzeigersinn")
