"""The core's messages on a page (companion.web.words.core): the id looked up in the page's
catalogue, names as typed, numbers and lists written by Babel for the page's language, nested
messages said in turn; English pages show the same English as the API."""
from __future__ import annotations

import pytest

from companion.games.messages import join_names, say
from companion.web.words import core

TIE = "%(names)s tied on %(total)s: a shared win."


def said(app, lang, value):
    with app.test_request_context(headers={"Accept-Language": lang}):
        return core(value)


@pytest.mark.parametrize("names, en, de, fr", [
    (["Ann"], "Ann", "Ann", "Ann"),
    (["Ann", "Bo"], "Ann and Bo", "Ann und Bo", "Ann et Bo"),
    (["Ann", "Bo", "Cy"], "Ann, Bo and Cy", "Ann, Bo und Cy", "Ann, Bo et Cy"),
    (["Ann", "Bo", "Cy", "Di"], "Ann, Bo, Cy and Di", "Ann, Bo, Cy und Di", "Ann, Bo, Cy et Di"),
])
def test_lists_of_names_in_each_language(app, names, en, de, fr):
    message = say(TIE, names=join_names(names), total=40)
    assert said(app, "en", message) == f"{en} tied on 40: a shared win." == message
    assert said(app, "de", message) == f"{de} gleichauf mit 40: ein geteilter Sieg."
    assert said(app, "fr", message) == f"{fr} à égalité avec 40 : une victoire partagée."


def test_numbers_are_written_the_readers_way(app):
    message = say(TIE, names=["Ann", "Bo"], total=2.5)
    assert said(app, "en", message).startswith("Ann and Bo tied on 2.5:")
    assert said(app, "de", message).startswith("Ann und Bo gleichauf mit 2,5:")
    assert said(app, "fr", message).startswith("Ann et Bo à égalité avec 2,5 :")
    big = say(TIE, names=["Ann"], total=10000)
    assert "10.000" in said(app, "de", big) and "10\u202f000" in said(app, "fr", big)
    assert "10000" in said(app, "en", big)


def test_nested_messages_are_said_in_turn_and_names_stay_as_typed(app):
    """A row's label inside a refusal is itself a message; a player called like a word of the
    game ("Gold") keeps the name."""
    message = say("%(player)s's %(row)s cannot go below %(low)s.", player="Outposts built",
                  row=say("Outposts built"), low=0)
    assert said(app, "en", message) == "Outposts built's Outposts built cannot go below 0."
    assert said(app, "de", message) == \
        "Gebaute Außenposten von Outposts built kann nicht unter 0 fallen."
    assert said(app, "fr", message) == \
        "Avant-postes construits de Outposts built ne peut pas descendre sous 0."


def test_words_and_nothing(app):
    assert said(app, "de", "Outposts built") == "Gebaute Außenposten"
    assert said(app, "fr", say("Outposts built")) == "Avant-postes construits"
    assert said(app, "de", None) == said(app, "en", None) == ""
    assert said(app, "de", say("A sentence no catalogue has, %(n)s.", n=3)) == \
        "A sentence no catalogue has, 3."
