"""Every sentence a setup shows is German and French: the checklists, notes, starting supplies,
captains, artifacts and the Seafarers notes of all five games, for several seeds, player counts
and options.

The setup object is walked whole: every text in it is either said in the page's language
(through core(), down to the last parameter that is not a player's name) or sits under a key
listed below as data a page shows as is. A new English sentence added to a setup fails here
until it is translated or named as data."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import GAMES
from companion.web.core_words import AS_TYPED, LAST_AND, NUMERIC, SENTENCE_END, _shapes, core

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


def english_left(text: str, known: set[str]) -> list[str]:
    """The parts of *text* no catalogue entry says in the other language, for the parse that
    leaves least: the text itself, a shape's parameters (players' names aside), the sentences
    of a text, or a list's items; numbers and hex labels are no words."""
    if NEUTRAL.fullmatch(text) or text in known:
        return []
    parses = []
    for _fixed, shape, pattern in _shapes():
        found = pattern.match(text)
        if found and shape in known:
            parses.append([part for name, value in found.groupdict().items()
                           if not AS_TYPED.match(name) and not NUMERIC.match(name)
                           for part in english_left(value, known)])
    sentences = SENTENCE_END.split(text)
    if len(sentences) > 1:
        parses.append([part for s in sentences for part in english_left(s, known)])
    listed = LAST_AND.match(text)
    if listed:
        parses.append([part for item in [*listed["names"].split(", "), listed["last"]]
                       for part in english_left(item, known)])
    return min(parses, key=len) if parses else [text]


def shape_of(text: str) -> str:
    return next((shape for _fixed, shape, pattern in _shapes() if pattern.match(text)), text)


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
                    assert core(text) != text or shape_of(text) in catalogues[lang + "-same"], (
                        lang, game_id, key, text)
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
