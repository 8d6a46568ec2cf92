"""A sentence agrees with what it names, in every language: a count, a kind and a list of
names choose the sentence's forms (say_n, ngettext), and a noun its own article ("Le moulin",
"la caserne"), so no French page reads "moulins vient avec" or German "Ann und Bo hat".
And an Undo label names a kind in the reader's words ("+1 horse delivered"), never by its key
("Delivered livestock horse 1")."""
from __future__ import annotations

import re

import pytest

from companion.games import get_game
from companion.games.errors import RuleError
from companion.games.explorers.islands import pieces_of
from companion.plays import apply_event, describe_event, new_state
from companion.web.words import core


def play(game: str, players=("Ann", "Bo"), options=None) -> dict:
    return new_state(game, [{"name": n} for n in players], options or {}, 7, {})


def sheet(player: str, **what) -> dict:
    return {"type": "sheet", "data": {"player": player, **what}}


def said(app, lang: str, value) -> str:
    with app.test_request_context(headers={"Accept-Language": lang}):
        return core(value)


@pytest.mark.parametrize("key, en, de, fr", [
    ("mill", "The mill comes", "Die Mühle gibt es nur mit", "Le moulin n’existe qu’avec"),
    ("workshop", "The workshop comes", "Die Werkstatt gibt", "L’atelier n’existe qu’avec"),
    ("barracks", "The barracks comes", "Die Kaserne gibt", "La caserne n’existe qu’avec")])
def test_a_structure_without_the_expansion_is_refused_with_its_own_article(app, key, en, de,
                                                                          fr):
    with pytest.raises(RuleError) as refused:
        pieces_of({key: 1}, "data", rocks_of_ruin=False)
    assert refused.value.code == "needs_expansion"
    message = refused.value.message
    assert str(message).startswith(en)
    assert said(app, "de", message).startswith(de)
    assert said(app, "fr", message).startswith(fr)


@pytest.mark.parametrize("event, en, de, fr", [
    (sheet("Ann", add={"livestock": {"horse": 1}}), "Ann: +1 horse delivered",
     "Ann: +1 Pferd abgeliefert", "Ann : +1 cheval livré"),
    (sheet("Ann", add={"livestock": {"horse": 2}}), "Ann: +2 horses delivered",
     "Ann: +2 Pferde abgeliefert", "Ann : +2 chevaux livrés"),
    (sheet("Bo", set={"livestock": {"cattle": 1}}), "Bo's sheet: 1 head of cattle delivered",
     "Blatt von Bo: 1 Rind abgeliefert", "Feuille (Bo) : 1 vache livrée"),
    (sheet("Bo", fields={"livestock": {"goat": 3, "chicken": 0}}),
     "Bo's sheet: 3 goats delivered; 0 chickens delivered",
     "Blatt von Bo: 3 Ziegen abgeliefert; 0 Hühner abgeliefert",
     "Feuille (Bo) : 3 chèvres livrées ; 0 poule livrée"),
])
def test_an_undo_label_names_the_kind_in_the_readers_words(app, event, en, de, fr):
    label = describe_event(play("explorers"), event)
    assert (str(label), said(app, "de", label), said(app, "fr", label)) == (en, de, fr)


def test_a_longship_bonus_in_an_undo_label_is_the_bonus_in_words(app):
    label = describe_event(play("shipwrights"),
                           sheet("Ann", add={"longship_bonuses": {"raid_cards": 1}}))
    assert str(label) == "Ann: +1 Longship: 2 VP per Raid Card"
    assert said(app, "de", label).startswith("Ann: +1 Langschiff: 2 SP")
    assert said(app, "fr", label).startswith("Ann : +1 drakkar : 2 PV")
    assert "raid" not in said(app, "de", label).casefold()


def test_two_players_at_the_target_are_said_in_the_plural(app):
    """Seafarers' notice when a play recorded before turns were kept reaches the target at
    the next round: one player "hat"/"a atteint", two "haben"/"ont atteint"."""
    state = play("seafarers", ("Ann", "Bo", "Cy"), {"scenario": "new_shores"})
    state["table"]["current_player"] = None              # kept before turns were kept
    for name in ("Ann", "Bo"):
        state["sheets"][name] = {"settlements": 5, "cities": 4}
    state = get_game("seafarers").advance(state)
    notice = state["table"]["notices"][-1]
    assert str(notice).startswith("Ann and Bo reached"), notice
    assert said(app, "de", notice).startswith("Ann und Bo haben")
    assert said(app, "fr", notice).startswith("Ann et Bo ont atteint")


@pytest.mark.parametrize("lang, one, two", [
    ("de", "beendet: Ann hat gewonnen", "beendet: Ann und Bo haben gewonnen"),
    ("fr", "terminée : Ann a gagné", "terminée : Ann et Bo ont gagné")])
def test_the_start_page_says_a_shared_win_in_the_plural(app, client, lang, one, two):
    auth = {}
    for players in (("Ann", "Cy"), ("Ann", "Bo")):
        made = client.post("/api/v1/plays", json={"game": "knarr", "players": list(players),
                                                  "seed": 5}).get_json()
        auth = {"Authorization": f"Bearer {made['edit_token']}"}
        events = f"/api/v1/plays/{made['id']}/events"
        for name in players:
            vp = 45 if name in ("Ann", "Bo") else 10
            assert client.post(events, json=sheet(name, fields={"vp": vp, "recruits": 1,
                                                                "bracelets": 1}),
                               headers=auth).status_code in (200, 201)
        assert client.post(events, json={"type": "finish"}, headers=auth).status_code \
            in (200, 201)
    from companion.owner import owner_key

    client.get(f"/owner/{owner_key(app)}")             # the owner's list: every play
    html = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert one in text and two in text, text[:2000]


def test_applying_a_counted_label_needs_no_key(app):
    """The kinds go through their declared words: a label of each kind said in German and
    French holds no key of the row."""
    state = play("explorers")
    for kind in ("pig", "chicken", "goat", "sheep", "cattle", "horse"):
        label = describe_event(state, sheet("Ann", add={"livestock": {kind: 1}}))
        for lang in ("de", "fr"):
            assert kind not in said(app, lang, label), (kind, lang)
    apply_event(state, sheet("Ann", add={"livestock": {"pig": 1}}))


def test_livestock_sets_of_any_sizes_read_well(app):
    """'Sets of 3, 1 different types' put a list of sizes where German and French agree a
    noun with one number ('1 types différents'): they say the sizes apart from the noun."""
    from companion.games.explorers.scoring import livestock_row

    vp, words = livestock_row({"pig": 2, "goat": 1, "horse": 1})
    assert (vp, str(words)) == (7, "Sets of 3, 1 different types: 6 + 1 = 7 VP.")
    assert said(app, "de", words) == ("Sätze verschiedener Arten (Größe jedes Satzes: 3, 1): "
                                      "6 + 1 = 7 SP.")
    assert said(app, "fr", words) == ("Séries de types différents (taille de chaque série : "
                                      "3, 1) : 6 + 1 = 7 PV.")


@pytest.mark.parametrize("game, event, de, fr", [
    ("explorers", {"type": "set_influence", "data": {"island": 0, "player": "Ann",
                                                     "vikings": -1}},
     "Wikinger: mindestens 0.", "Vikings : au moins 0."),
    ("explorers", {"type": "set_influence", "data": {"island": 0, "player": "Ann",
                                                     "add": {"mill": 0}}},
     "Mühle: eine ganze Zahl", "Moulin : ajoutez"),
    ("shipwrights", sheet("Ann", add={"longship_bonuses": {"raid_cards": 99}}),
     "(2 SP je Raubzugkarte) von Ann", "Ann : Drakkars avec bonus de fin de partie"),
    ("reavers", {"type": "place", "data": {"location": "moon"}},
     "Wähle einen Ort: Reaver anwerben, Handel mit Dörfern,",
     "Choisissez un lieu : Recruter des Reavers, Commercer avec les villages,"),
])
def test_a_refusal_names_a_piece_a_kind_or_a_place_in_words(app, game, event, de, fr):
    """A refusal that named a key ('mill: wahr oder falsch', '(raid cards)', 'Wähle einen
    Ort: recruit_reavers, ...') names it in the reader's words."""
    from companion.games import get_game
    from companion.plays import parse_event
    from tests.browser.english import key_word_in

    state = play(game)
    if game == "explorers":
        state = apply_event(state, {"type": "add_island", "data": {"tiles": 3}})
    with pytest.raises(RuleError) as refused:
        apply_event(state, parse_event(get_game(game), event))
    said_de, said_fr = said(app, "de", refused.value.message), said(app, "fr",
                                                                     refused.value.message)
    assert de in said_de and fr in said_fr, (said_de, said_fr)
    assert key_word_in(said_de, "de") is None and key_word_in(said_fr, "fr") is None
