"""Messages are data (companion.games.messages): a message is its id and its parameters, its
str is its English, and what keeps it (snapshots, a play's initial state, backups) keeps the id
and the parameters."""
from __future__ import annotations

import copy
import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.messages import (
    Message,
    english_list,
    from_data,
    join_names,
    render,
    say,
    say_n,
    series,
    to_data,
)

TIE = "%(names)s tied on %(total)s: a shared win."


@pytest.mark.parametrize("names, english", [
    ([], ""), (["Ann"], "Ann"), (["Ann", "Bo"], "Ann and Bo"),
    (["Ann", "Bo", "Cy"], "Ann, Bo and Cy"), (["Ann", "Bo", "Cy", "Di"], "Ann, Bo, Cy and Di"),
])
def test_a_list_of_names_in_english(names, english):
    """One, two, three and more names: "and" before the last, no serial comma (the English the
    API has always answered with)."""
    said = say(TIE, names=names, total=40)
    assert said == f"{english} tied on 40: a shared win."
    assert join_names(names) == english and join_names(names).params == {"names": names}


def test_a_message_is_its_english_and_keeps_its_id_and_parameters():
    said = say("%(player)s's %(row)s cannot go below %(low)s.", player="Ann",
               row=say("Outposts built"), low=0)
    assert said == "Ann's Outposts built cannot go below 0." and isinstance(said, str)
    assert said.id == "%(player)s's %(row)s cannot go below %(low)s."
    assert said.params["row"].id == "Outposts built" and said.params["low"] == 0
    assert "below 0" in said and said.startswith("Ann's") and json.dumps(said) == \
        json.dumps("Ann's Outposts built cannot go below 0.")
    plain = say("There is nothing to undo.")
    assert plain == plain.id == "There is nothing to undo." and plain.params == {}


def test_nested_messages_and_lists_of_messages_in_english():
    moves = say("%(player)s moves %(moves)s.", player="Bo",
                moves=[say("%(count)s on %(track)s", count=2, track=say("Military")),
                       say("%(count)s on %(track)s", count=1, track=say("Trade"))])
    assert moves == "Bo moves 2 on Military and 1 on Trade."
    assert series([say("Gold %(n)s", n="+3"), say("Silver %(n)s", n="-1"),
                   "Ann's own words"]) == "Gold +3; Silver -1; Ann's own words"
    assert series(["a", "b"], ", ") == "a, b" and series(["one."]) == "one."
    assert series([say("First."), say("Second.")], " ") == "First. Second."
    with pytest.raises(ValueError):
        series(["a", "b"], " / ")


def test_render_says_each_part_through_the_readers_words():
    """The page's renderer gets the shape, the number and the list of the reader's language:
    ids are looked up, names stay as typed, numbers and lists are written the reader's way."""
    words = {TIE: "%(names)s gleichauf mit %(total)s: ein geteilter Sieg.", "Military": "Militär"}
    said = say(TIE, names=["Ann", "Bo", "Military"], total=2.5)
    german = render(said, shape=lambda s: words.get(s, s), number=lambda n: str(n).replace(
        ".", ","), listing=lambda items: ", ".join(items[:-1]) + " und " + items[-1])
    assert german == "Ann, Bo und Military gleichauf mit 2,5: ein geteilter Sieg."
    nested = say("%(row)s: %(count)s", row=say("Military"), count=3)
    assert render(nested, shape=lambda s: words.get(s, s)) == "Militär: 3"
    assert render("Military", shape=lambda s: words.get(s, s)) == "Militär"   # a word
    assert render(None) == "" and render("") == ""
    # (an empty id is never looked up: gettext's "" is the catalogue's header)
    assert render(series([]), shape=lambda s: "Project-Id-Version: x" if not s else s) == ""


def test_a_translation_that_lost_a_placeholder_falls_back_to_the_english_shape():
    said = say(TIE, names=["Ann", "Bo"], total=3)
    broken = render(said, shape=lambda s: "%(name)s gleichauf")
    assert broken == "Ann and Bo tied on 3: a shared win."


def test_kept_as_id_and_parameters_and_read_back():
    """A state with messages written as JSON and read back: the same English, the same ids
    and parameters, nested messages and lists included; plain data is left as it is."""
    state = {"table": {"notices": [say(TIE, names=["Ann", "Bo"], total=7),
                                   say("%(what)s: %(why)s", what=say("Gold"),
                                       why=[say("one"), "Bo"])]},
             "setup": {"checklist": ["kept before messages were data"], "n": 3,
                       "islands": [{"name": "North", "tiles": 4}]}}
    text = json.dumps(to_data(state))
    kept = json.loads(text)
    assert kept["table"]["notices"][0] == {"$message": TIE,
                                           "params": {"names": ["Ann", "Bo"], "total": 7}}
    assert kept["setup"] == state["setup"]
    assert json.dumps(to_data(state)) == text        # the state itself is left as it was
    back = from_data(json.loads(text))
    assert back == state
    first, second = back["table"]["notices"]
    assert isinstance(first, Message) and first.id == TIE and first.params["total"] == 7
    assert second.params["what"].id == "Gold" and second.params["why"][0].id == "one"
    assert second == "Gold: one and Bo"
    assert not isinstance(back["setup"]["checklist"][0], Message)


def test_only_a_message_is_read_as_one():
    """Data that merely has the tag among other keys, or a tag that is not text, stays data."""
    for data in ({"$message": "x", "other": 1}, {"$message": 3}, {"$message": "x", "params": []}):
        assert from_data(data) == data and not isinstance(from_data(data), Message)


def test_copies_and_pickles_are_the_same_message():
    said = say(TIE, names=["Ann", "Bo"], total=7)
    assert copy.deepcopy(said) is said and copy.copy(said) is said
    again = pickle.loads(pickle.dumps({"n": [said]}))["n"][0]
    assert again == said and again.id == said.id and again.params == said.params
    assert repr(said) == "say('%(names)s tied on %(total)s: a shared win.', " \
        "names=['Ann', 'Bo'], total=7)"


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
PARAM = st.recursive(
    st.one_of(TEXT, st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.builds(lambda a, b: say("%(a)s (%(b)s)", a=a, b=b), inner, inner)),
    max_leaves=8)


@given(PARAM, PARAM)
def test_any_message_survives_keeping(a, b):
    said = say("%(a)s, then %(b)s", a=a, b=b)
    back = from_data(json.loads(json.dumps(to_data({"m": said}))))["m"]
    assert back == said and back.id == said.id and render(back) == render(said) == str(said)


def test_english_list_is_the_default_listing():
    assert english_list(["a", "b", "c"]) == "a, b and c" and english_list([]) == ""


# --------------------------------------------------------------------------- counted messages
RECRUITS = ("%(player)s has %(count)s recruit.", "%(player)s has %(count)s recruits.")
FORMS = {"de": ("%(player)s hat einen Rekruten.", "%(player)s hat %(count)s Rekruten."),
         "fr": ("%(player)s a %(count)s recrue.", "%(player)s a %(count)s recrues.")}


def translations(lang: str):
    """A catalogue of ``lang`` holding the counted message, compiled as ``make translations``
    compiles one: from the shipped .po, so its plural rule is the one in that file's header.
    (Not Babel's rule for the language: Babel 2.19's CLDR gives French a third form, for
    millions, that our .po files do not carry; a catalogue built from the locale alone then
    had no French for 2 and the test read English.)"""
    import io
    from pathlib import Path

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    shipped = Path(__file__).resolve().parents[2] / "translations" / lang / "LC_MESSAGES"
    with open(shipped / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    catalog.add(RECRUITS, FORMS[lang])
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


@pytest.mark.parametrize("count, english", [
    (0, "Ann has 0 recruits."), (1, "Ann has 1 recruit."), (2, "Ann has 2 recruits.")])
def test_a_counted_message_in_english(count, english):
    said = say_n(*RECRUITS, count=count, player="Ann")
    assert said == english and said.id == RECRUITS[0] and said.plural == RECRUITS[1]
    assert said.params == {"count": count, "player": "Ann"} and render(said) == english
    assert repr(said) == f"say_n({RECRUITS[0]!r}, {RECRUITS[1]!r}, count={count}, player='Ann')"


@pytest.mark.parametrize("lang, expected", [
    ("de", ["Ann hat 0 Rekruten.", "Ann hat einen Rekruten.", "Ann hat 2 Rekruten."]),
    ("fr", ["Ann a 0 recrue.", "Ann a 1 recrue.", "Ann a 2 recrues."]),   # 0 is singular
])
def test_a_counted_message_in_the_readers_language(lang, expected):
    words = translations(lang)
    said = [say_n(*RECRUITS, count=n, player=say("Ann")) for n in (0, 1, 2)]
    assert [render(s, shape=words.ugettext, counted=words.ungettext) for s in said] == expected
    # inside another message, and with a lost placeholder: the English shape for the count
    nested = say("%(what)s", what=said[1])
    assert render(nested, shape=words.ugettext, counted=words.ungettext) == expected[1]
    assert render(said[2], counted=lambda *_: "%(nobody)s") == "Ann has 2 recruits."


def test_a_counted_message_is_kept_with_both_shapes_and_read_back():
    state = {"notices": [say_n(*RECRUITS, count=n, player="Ann") for n in (1, 2)],
             "old": {"$message": RECRUITS[0], "params": {"count": 1, "player": "Bo"}}}
    kept = json.loads(json.dumps(to_data(state)))
    assert kept["notices"][1] == {"$message": RECRUITS[0], "plural": RECRUITS[1],
                                  "params": {"count": 2, "player": "Ann"}}
    back = from_data(kept)
    assert back["notices"] == ["Ann has 1 recruit.", "Ann has 2 recruits."]
    assert all(m.plural == RECRUITS[1] and m.id == RECRUITS[0] for m in back["notices"])
    assert back["old"] == "Bo has 1 recruit." and back["old"].plural is None   # kept before
    again = pickle.loads(pickle.dumps(back["notices"][1]))
    assert again.plural == RECRUITS[1] and again == "Ann has 2 recruits."
    for data in ({"$message": "x", "plural": 3}, {"$message": "x", "plural": "y", "n": 1}):
        assert from_data(data) == data and not isinstance(from_data(data), Message)
