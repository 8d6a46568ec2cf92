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
    assert said(app, "fr", message) == f"{fr} à égalité avec 40 : une victoire partagée."


def test_numbers_are_written_the_readers_way(app):
    message = say(TIE, names=["Ann", "Bo"], total=2.5)
    assert said(app, "en", message).startswith("Ann and Bo tied on 2.5:")
    assert said(app, "de", message).startswith("Ann und Bo gleichauf mit 2,5:")
    assert said(app, "fr", message).startswith("Ann et Bo à égalité avec 2,5 :")
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
        "Outposts built : Avant-postes construits ne peut pas descendre sous 0."


def test_words_and_nothing(app):
    assert said(app, "de", "Outposts built") == "Gebaute Außenposten"
    assert said(app, "fr", say("Outposts built")) == "Avant-postes construits"
    assert said(app, "de", None) == said(app, "en", None) == ""
    assert said(app, "de", say("A sentence no catalogue has, %(n)s.", n=3)) == \
        "A sentence no catalogue has, 3."


# --------------------------------------------------------------------------- declared bodies
def refused(kind, body):
    """The RuleError (400) of ``body`` checked against the declaration ``kind``."""
    from companion.games.bodies import check
    from companion.games.errors import RuleError

    with pytest.raises(RuleError) as caught:
        check(kind, body)
    return caught.value


def test_a_declared_bodys_refusal_names_the_row_in_the_readers_words(app):
    """pydantic's fault is said from the shape's own id, the row's label (the declaration's
    title) a message in turn: not a finished English sentence."""
    from companion.games import get_game
    from companion.games.requests import rows_type

    error = refused(rows_type(get_game("explorers")), {"outposts": "x"})
    assert error.field == "outposts" and error.code == "invalid_input"
    assert error.message.id == "%(row)s must be a whole number."
    assert error.message.params["row"].id == "Outposts built"
    assert said(app, "en", error.message) == "Outposts built must be a whole number."
    assert said(app, "de", error.message) == "Gebaute Außenposten: bitte eine ganze Zahl."
    assert said(app, "fr", error.message) == "Avant-postes construits : il faut un nombre entier."


def test_a_rule_between_keys_keeps_its_message_through_pydantic(app):
    """refuse() carries the message in pydantic's context: the RuleError has the message
    itself (its id and parameters), not pydantic's rendered text."""
    from companion.games import get_game
    from companion.games.requests import UndoRequest
    from companion.sheet_changes import sheet_change

    error = refused(sheet_change(get_game("explorers")), {"player": "Ann"})
    assert error.message.id == "A sheet change needs fields to set or numbers to add."
    assert said(app, "de", error.message) == \
        "Eine Änderung am Blatt braucht Felder zum Setzen oder Zahlen zum Addieren."
    error = refused(UndoRequest, {"device": "phone-1", "expected_version": 3})
    assert error.field == "device"
    assert error.message.id.startswith("Send either device")
    assert said(app, "fr", error.message) != str(error.message)       # said in French
    error = refused(sheet_change(get_game("knarr")),
                    {"player": "Ann", "fields": {"vp": 2}, "add": {"vp": 1}})
    assert error.message.id == "'%(key)s' is either set or added to in one change, not both."
    assert error.message.params == {"key": "vp"}


def test_the_choices_come_from_the_declaration_not_pydantics_english(app):
    """pydantic writes "'share' or 'split'": the choices are the declaration's own values,
    and the option's label is its message."""
    from companion.games import get_game
    from companion.games.requests import setup_request
    from companion.plays import event_body

    error = refused(setup_request(get_game("reavers")),
                    {"players": ["Ann", "Bo"], "options": {"wall_ties": "half"}})
    assert error.field == "options.wall_ties"
    assert str(error.message) == "Tied wall majorities must be one of: 'share', 'split'."
    assert said(app, "de", error.message) == \
        "Gleichstand bei Mauer-Mehrheiten muss eines davon sein: 'share', 'split'."
    error = refused(event_body("explorers"), {"type": "dance"})
    assert error.code == "unknown_event" and " or " not in str(error.message)
    assert "'keep_captain'" in str(error.message)


def test_the_document_holds_plain_text_where_the_declaration_holds_messages(client):
    """The schema a refusal reads keeps the labels as messages; the OpenAPI document is plain
    JSON text (a validator takes it)."""
    import json

    from companion.games import get_game
    from companion.games.bodies import schema_of
    from companion.games.messages import Message
    from companion.games.requests import rows_type

    declared = schema_of(rows_type(get_game("explorers")))
    assert isinstance(declared["properties"]["outposts"]["title"], Message)
    document = client.get("/api/v1/openapi.json").json["components"]["schemas"][
        "SheetExplorers"]
    assert type(document["properties"]["outposts"]["title"]) is str
    assert document == json.loads(json.dumps({k: v for k, v in declared.items()
                                              if k != "$defs"}))
