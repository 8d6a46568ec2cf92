"""The core's sentences with names and numbers (companion.games.messages) on the pages in
German and French: each message is said from its id and its parameters, whatever words fill
it, and a play's every notice, label, tie-break and refusal comes out translated."""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games.messages import Message, say_n
from companion.web.words import core

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalogue(name: str):
    with open(ROOT / "translations" / name, "rb") as handle:
        return read_po(handle)


def said_shapes() -> list[tuple[str | None, str]]:
    """Every message the code says (what make i18n extracts with its keywords)."""
    from babel.messages.extract import extract_from_dir
    found = extract_from_dir(str(ROOT / "companion"), [("**.py", "python")], {},
                             keywords={"say": None, "say_in": ((1, "c"), 2),
                                       "say_n": (1, 2),
                                       "RuleError": None, "impossible": None})
    return sorted({(context, message) for _f, _l, message, _c, context in found
                   if PLACEHOLDER.search(message if isinstance(message, str) else message[0])},
                  key=lambda item: (item[0] or "", str(item[1])))


ALL_SHAPES = said_shapes()
SHAPES = [(context, shape) for context, shape in ALL_SHAPES if isinstance(shape, str)]
COUNTED = [shape for _context, shape in ALL_SHAPES if isinstance(shape, tuple)]


def test_the_shapes_are_in_the_catalogue():
    template = catalogue("messages.pot")
    assert len(SHAPES) > 300
    assert all(template.get(shape, context=context) is not None for context, shape in SHAPES)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_shape_is_said_from_its_translation(app, lang):
    """A message of each shape, filled with multi-word values, is its translation filled with
    the same values: every placeholder of the id is in the translation (a lost one would fall
    back to the English shape)."""
    translated = catalogue(f"{lang}/LC_MESSAGES/messages.po")
    wrong = []
    with app.test_request_context(headers={"Accept-Language": lang}):
        for context, shape in SHAPES:
            params = {name: f"north west {name} gate" for name in PLACEHOLDER.findall(shape)}
            message = Message(f"{context}\x04{shape}" if context else shape, params)
            expected = translated.get(shape, context=context).string % params
            if core(message) != expected:
                wrong.append((shape, core(message), expected))
    assert not wrong, "\n".join(map(repr, wrong))


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_counted_shape_is_said_in_the_languages_form_for_its_count(app, lang):
    """A counted message (say_n) of each shape, for 0, 1, 2 and 5, is the catalogue's form
    that the language's plural rule picks for the count (French: 0 and 1 take the first
    form; German: only 1), filled with the same values; both forms are translated."""
    from gettext import c2py

    translated = catalogue(f"{lang}/LC_MESSAGES/messages.po")
    form = c2py(translated.plural_expr)
    assert COUNTED and [form(n) for n in (0, 1, 2)] == ([0, 0, 1] if lang == "fr" else [1, 0, 1])
    wrong = []
    with app.test_request_context(headers={"Accept-Language": lang}):
        for singular, plural in COUNTED:
            forms = translated.get(singular).string
            assert all(forms), (lang, singular)
            for n in (0, 1, 2, 5):
                params = {name: f"north {name}" for name in PLACEHOLDER.findall(plural)}
                message = say_n(singular, plural, **{**params, "count": n})
                expected = forms[form(n)] % {**params, "count": str(n)}
                if core(message) != expected:
                    wrong.append((singular, n, core(message), expected))
    assert not wrong, "\n".join(map(repr, wrong))


# --------------------------------------------------------------------------- four games played
NAMES = ["Ann", "Bo", "Cy"]


def words_on_the_page(state: dict, event: dict | None) -> list[str]:
    """What a play page shows in the core's words after ``event``: the table's notices (and
    Shipwrights' steps, reminders and draft), the Undo label, the score's tie-break and
    row explanations and its questions about the box."""
    from companion.plays import describe_event, score_of

    table = state.get("table") or {}
    out = list(table.get("notices") or [])
    for key in ("steps", "reminders", "draft"):
        out += table.get(key) or []
    if event is not None:
        out.append(say("Undo: %(change)s", change=describe_event(state, event, "after")))
        out.append(say("Redo: %(change)s", change=describe_event(state, event, "before")))
        out.append(say("Undo another phone's change: %(change)s",
                       change=describe_event(state, event)))
    score = score_of(state)
    if "error" not in score:
        out += score.get("tiebreaks") or []
        out += [score["tiebreak"]] if score.get("tiebreak") else []
        for player in score["players"]:
            out += [why for why in (player.get("explanations") or {}).values() if why]
        out += [m["question"] for m in score.get("missing") or []]
    return out


def say(shape, **params):
    from companion.games.errors import say as said
    return said(shape, **params)


def played(game: str, steps: list, catalogue: dict | None = None, players=NAMES):
    """Every text the page shows along a play of ``game`` through ``steps`` (events, or
    callables that pick the next event from the state), and the refusals met."""
    from companion.games import get_game
    from companion.games.errors import RuleError
    from companion.plays import apply_event, new_state

    state = new_state(game, list(players), {}, 7, catalogue or {})
    texts = words_on_the_page(state, None)
    rules = get_game(game)   # what the game may need from the box, asked before and during it
    for need in rules.box_needs(state["catalogue"], len(players)):
        texts += [need["what"], need["detail"]]
    texts += [m["question"] for m in rules.box_questions_ahead(state["catalogue"])]
    for step in steps:
        event = step(state) if callable(step) else step
        try:
            state = apply_event(state, event)
        except RuleError as err:
            texts.append(err.message)
            continue
        texts += words_on_the_page(state, event)
    return state, texts


def ev(kind, **data):
    return {"type": kind, "data": data}


def reavers_pawn(state):
    from companion.games.reavers.table import LOCATIONS
    taken = {p["location"] for p in state["table"]["placements"]}
    free = [loc for loc in LOCATIONS if loc not in taken]
    if state["phase"] != "actions" or state["table"]["next_player"] is None:
        return {"type": "advance"}
    return ev("place", location=free[0])


def reavers_round():
    return [ev("territories", player="Ann", add=1), ev("territories", player="Bo", count=2),
            ev("place", location="raid_keeps", player="Cy"),   # someone else's pawn
            {"type": "advance"}] + [reavers_pawn] * 6 + [{"type": "advance"}, {"type": "advance"}]


GAMES = {
    "reavers": lambda: played("reavers", [ev("start_player", player="Bo")] + reavers_round() * 3),
    "knarr": lambda: played("knarr", [
        ev("turn", vp_gained=5, recruits=2), ev("turn", player="Ann"), ev("turn", vp_gained=3),
        ev("turn", recruits=9), ev("turn", vp_gained=4, reputation=1, reputation_vp=1),
        {"type": "advance"}, {"type": "advance"},
        ev("sheet", player="Ann", fields={"vp": 41, "recruits": 1, "bracelets": 1}),
        ev("sheet", player="Bo", fields={"vp": 41, "recruits": 2, "bracelets": 0}),
        ev("turn", vp_gained=1), ev("turn"), ev("turn"), ev("turn")]),
    "explorers": lambda: played("explorers", [
        ev("add_island", tiles=4, name="North"), ev("add_island", tiles=3),
        ev("update_island", island=1, add={"tiles": 1}),
        ev("update_island", island=0, complete=True),
        ev("set_influence", island=0, player="Bo", add={"vikings": 2, "outposts": 1}),
        ev("set_influence", island=1, player="Ann", add={"vikings": -1}),
        ev("set_influence", island=1, player="Cy", vikings=1),
        ev("keep_captain", player="Ann", captain="nobody"),
        lambda state: ev("keep_captain", player="Ann",
                         captain=state["setup"]["captains"]["Ann"][0]),
        lambda state: ev("keep_captain", player="Bo",
                         captain=state["setup"]["captains"]["Bo"][1]),
        ev("sheet", player="Ann", fields={"viking_deaths": 2, "enemy_ships": 1}),
        ev("sheet", player="Cy", fields={"settlements": [2, 3], "outposts": 2}),
        ev("remove_island", island=1)] + [ev("turn")] * 40),
    "shipwrights": lambda: played("shipwrights", [
        ev("reveal", draft="clockwise"), ev("reveal", draft="clockwise"),
        {"type": "advance"}, {"type": "advance"},
        ev("track", player="Ann", track="military", steps=5),
        ev("track", player="Bo", track="trade", steps=4),
        ev("track", player="Cy", track="renown", steps=-1),
        ev("track", player="Cy", track="renown", steps=16),
        {"type": "advance"}, {"type": "advance"}, {"type": "advance"},
        ev("reveal", draft="counterclockwise"), {"type": "advance"}, {"type": "advance"},
        ev("sheet", player="Ann", fields={"gold": 3, "resources": 2}),
        ev("sheet", player="Bo", fields={"gold": 3, "resources": 2, "workers": 1}),
        ev("sheet", player="Cy", add={"gold": 2})]),
}


WORD = re.compile(r"[A-Za-z]{3,}")
# words a translation rightly keeps: the heroes' names, game terms the editions keep, French
# words spelt as in English
SAME = {"Svend", "Thyra", "Frode", "Randi", "Eikja", "Eikjas", "Berserker"}
SAME_IN = {"de": SAME | {"Gold"},
           "fr": SAME | {"Viking", "Village", "place", "bracelet", "bracelets", "score", "draft",
                         "table", "phase", "Raid", "face", "app", "actions", "bonus", "raids",
                         "section", "Reavers", "Archer", "Solo", "solo", "Art", "final",
                         "phone"}}   # ("téléphone" read as ASCII words: "t", "l", "phone")


def english_left(text: str, said: str, lang: str) -> set[str]:
    """English words of ``text`` still in its translation ``said`` (players' names aside)."""
    return ((set(WORD.findall(text)) & set(WORD.findall(said))) - set(NAMES) - SAME_IN[lang]
            - {"North"})     # (an island's name, as typed)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_sentence_a_play_shows_is_translated(app, game, lang):
    """Each North Sea game played through a few rounds (through events, as the unit tests
    play): every notice, step, Undo label, tie-break, row explanation, box question and
    refusal the page would show is said in the page's language, players' names aside, and
    no English word of it is left in the translation."""
    state, texts = played_game(game)
    assert len(set(texts)) > 20, texts
    with app.test_request_context(headers={"Accept-Language": lang}):
        english = sorted(f"{t!r} -> {core(t)!r}" for t in set(texts)
                         if english_left(t, core(t), lang))
    assert not english, "\n".join(english)


@lru_cache
def played_game(game):
    return GAMES[game]()


# --------------------------------------------------------------------------- pages
def new_play(client, game, players, **data):
    play = client.post("/api/v1/plays", json={"game": game, "players": players, **data})
    assert play.status_code == 201, play.get_json()
    return play.get_json()


def send(client, play, kind, **data):
    answer = client.post(f"/api/v1/plays/{play['id']}/events",
                         json={"type": kind, "data": data, "device": "phone-a"},
                         headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert answer.status_code in (200, 201), answer.get_json()
    return answer.get_json()


TIE = {
    "en": "Bo and Ann tied on 20; Bo wins with the most recruits and silver bracelets together "
          "(3 against 2).",
    "de": "Bo und Ann gleichauf mit 20; Bo gewinnt mit den meisten Rekruten und "
          "Silberarmreifen zusammen (3 gegen 2).",
    "fr": "Bo et Ann à égalité avec 20 ; Bo gagne avec le plus de recrues et de "
          "bracelets d’argent réunis (3 contre 2).",
}


@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_a_tie_break_on_the_score_page_and_the_score_sheet_pdf(client, lang):
    """Knarr's tie-break (recruits and silver bracelets together) decides a tie on the score
    track: the score page and the PDF score sheet say how in the phone's language; the API
    keeps the English."""
    import io

    from pypdf import PdfReader

    play = new_play(client, "knarr", ["Ann", "Bo"])
    send(client, play, "sheet", player="Ann", fields={"vp": 20, "recruits": 1, "bracelets": 1})
    send(client, play, "sheet", player="Bo", fields={"vp": 20, "recruits": 2, "bracelets": 1})
    headers = {"Accept-Language": lang}
    page = client.get(f"/plays/{play['id']}/{play['edit_token']}", headers=headers)
    sentences = re.findall(r'<p class="tiebreak">(.*?)</p>', page.get_data(as_text=True))
    assert [html.unescape(s) for s in sentences] == [TIE[lang]]
    pdf = client.get(f"/plays/{play['id']}/{play['edit_token']}/scoresheet.pdf", headers=headers)
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert " ".join(TIE[lang].split()) in " ".join(text.split())
    api = client.get(f"/api/v1/plays/{play['id']}",
                     headers={"Authorization": f"Bearer {play['view_token']}", **headers})
    body = api.get_json()
    assert body.get("state", body)["score"]["tiebreak"] == TIE["en"]


@pytest.mark.parametrize("lang, chose, next_pawn", [
    ("de", "{first} hat „Burgen überfallen“ gewählt.",
     "Runde 1: {second} setzt als Nächstes eine Langschiff-Figur (2 von 4)."),
    ("fr", "{first} a choisi « Piller les donjons ».",
     "Manche 1 : {second} place ensuite un pion drakkar (2 sur 4)."),
])
def test_the_notices_on_a_play_page_are_in_the_phones_language(client, lang, chose, next_pawn):
    """Reavers' table notices after a pawn is placed (who chose which location, whose pawn is
    next) on the play page in German and French, the players' names as typed."""
    play = new_play(client, "reavers", ["Åsa Lind", "Bo"])
    state = send(client, play, "place", location="raid_keeps")["state"]
    first = state["table"]["placements"][0]["player"]
    second = state["table"]["next_player"]
    page = client.get(f"/plays/{play['id']}/{play['edit_token']}",
                      headers={"Accept-Language": lang}).get_data(as_text=True)
    notices = re.search(r'<ul class="notices"[^>]*>(.*?)</ul>', page, re.S).group(1)
    shown = [html.unescape(n) for n in re.findall(r"<li>(.*?)</li>", notices)]
    assert shown == [chose.format(first=first), next_pawn.format(second=second)]


@pytest.mark.parametrize("lang, label", [
    ("de", "↶ Rückgängig: Bo +2 Wikinger, +1 Außenposten auf Nordinsel"),
    ("fr", "↶ Annuler : Bo +2 Vikings, +1 avant-poste sur Nordinsel"),
])
def test_an_explorers_undo_label_is_in_the_phones_language(client, lang, label):
    """The Undo label of a change to a player's pieces on a named island: counts, pieces
    and the joining words translated, the island's name and the player's as typed."""
    play = new_play(client, "explorers", ["Ann", "Bo"])
    send(client, play, "add_island", tiles=4, name="Nordinsel")
    send(client, play, "set_influence", island=0, player="Bo", add={"vikings": 2, "outposts": 1})
    client.set_cookie("nsc_device", "phone-a")
    page = client.get(f"/plays/{play['id']}/{play['edit_token']}",
                      headers={"Accept-Language": lang}).get_data(as_text=True)
    button = re.search(r"<button[^>]*data-undo-mine[^>]*><span class=\"clamp\">(.*?)</span>",
                       page, re.S)
    assert html.unescape(button.group(1).strip()) == label


@pytest.mark.parametrize("lang, words", [
    ("de", ["Gehaltene Gebiete: höchstens 100.", "Bo ist am Zug, nicht Ann."]),
    ("fr", ["Territoires tenus : au plus 100.", "C’est à Bo de jouer, pas à Ann."]),
    ("en", ["Territories held must be at most 100.", "It is Bo's turn, not Ann's."]),
])
def test_refusals_with_numbers_and_names_are_in_the_phones_language(client, lang, words):
    """A Reavers territory count past the limit and a Knarr turn taken out of turn, refused
    beside the controls in the phone's language (names as typed); the API keeps the English."""
    reavers = new_play(client, "reavers", ["Ann", "Bo"])
    knarr = new_play(client, "knarr", ["Ann", "Bo"], seed=3)
    send(client, knarr, "turn", vp_gained=2)
    current = client.get(f"/api/v1/plays/{knarr['id']}",
                         headers={"Authorization": f"Bearer {knarr['view_token']}"}).get_json()
    table = current.get("state", current)["table"]
    assert table["current_player"] == "Bo", table   # seed 3: Ann first, so Bo is next
    said = []
    for play, form in ((reavers, {"type": "territories", "d:player": "Ann", "d:count": "101"}),
                       (knarr, {"type": "turn", "d:player": "Ann", "d:vp_gained": "1"})):
        answer = client.post(f"/plays/{play['id']}/{play['edit_token']}/events", data=form,
                             headers={"HX-Request": "true", "Accept-Language": lang})
        assert answer.status_code in (400, 422)
        said.append(html.unescape(re.search(r'<p class="error" role="alert"[^>]*>(.*?)</p>',
                                            answer.get_data(as_text=True)).group(1)))
    assert said == words
    api = client.post(f"/api/v1/plays/{reavers['id']}/events",
                      json={"type": "territories", "data": {"player": "Ann", "count": 101}},
                      headers={"Authorization": f"Bearer {reavers['edit_token']}",
                               "Accept-Language": lang})
    assert api.get_json()["error"]["message"] == "Territories held must be at most 100."


def test_a_tie_break_of_several_sentences_is_said_sentence_by_sentence(app):
    """The first place's tie-break as the PDF and the table display show it: the sentences
    explain_tie says, joined by a space. No shape swallows the next sentence into one of its
    parameters; each is said from its own shape."""
    from companion.games.explorers.scoring import TIEBREAKS
    from companion.games.ranking import rank

    results = [{"name": "Bo Ek", "total": 10, "viking_deaths": 3, "settlements_raided": 2},
               {"name": "Ann", "total": 10, "viking_deaths": 3, "settlements_raided": 1},
               {"name": "Cy", "total": 10, "viking_deaths": 1, "settlements_raided": 5}]
    sentence = rank(results, TIEBREAKS)[2]
    assert sentence == (
        "Bo Ek, Ann and Cy tied on 10; Bo Ek and Ann stay ahead with the most viking deaths "
        "(3 against 1). Bo Ek and Ann also tied on 3 viking deaths; Bo Ek wins with the most "
        "settlements raided (2 against 1).")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert core(sentence) == (
            "Bo Ek, Ann und Cy gleichauf mit 10; Bo Ek und Ann bleiben vorn mit den meisten "
            "gefallenen Wikingern (3 gegen 1). Bo Ek und Ann auch gleichauf bei 3 gefallenen "
            "Wikingern; Bo Ek gewinnt mit den meisten überfallenen Siedlungen (2 gegen 1).")
