"""Each game's tie-breaks said in German and French as a player reads them: "the most ..." is
the tie-break's own phrase (Tiebreak.most), so French elides its article before a vowel
("le plus d’ouvriers", never "le plus de ouvriers") and German puts the words in the dative
that "mit" asks for ("mit den meisten Arbeitern"), while the API keeps its English."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games.explorers.scoring import TIEBREAKS as EXPLORERS
from companion.games.knarr import TIEBREAKS as KNARR
from companion.games.ranking import rank, tie_sentences
from companion.games.shipwrights.scoring import TIEBREAKS as SHIPWRIGHTS
from companion.web.words import core

ROOT = Path(__file__).resolve().parents[2]
NNBSP = "\u202f"     # French: a narrow no-break space before ";"


def shipwrights(name, total, resources, workers):
    return {"name": name, "total": total, "resources": resources, "workers": workers}


def explorers(name, total, deaths, raided):
    return {"name": name, "total": total, "viking_deaths": deaths, "settlements_raided": raided}


CASES = {
    "shipwrights, on workers": (
        SHIPWRIGHTS, [shipwrights("Ann", 30, 2, 3), shipwrights("Bo", 30, 2, 1)], {
            "en": "Ann and Bo tied on 30; Ann wins with the most Workers (3 against 1).",
            "de": "Ann und Bo gleichauf mit 30; Ann gewinnt mit den meisten Arbeitern "
                  "(3 gegen 1).",
            "fr": f"Ann et Bo à égalité avec 30{NNBSP}; Ann gagne avec le plus d’ouvriers "
                  "(3 contre 1)."}),
    "shipwrights, on resources then workers": (
        SHIPWRIGHTS, [shipwrights("Ann", 30, 3, 2), shipwrights("Bo", 30, 3, 1),
                      shipwrights("Cy", 30, 1, 5)], {
            "en": "Ann, Bo and Cy tied on 30; Ann and Bo stay ahead with the most Oak, Wool "
                  "and Iron (3 against 1). Ann and Bo also tied on 3 Oak, Wool and Iron; Ann "
                  "wins with the most Workers (2 against 1).",
            "de": "Ann, Bo und Cy gleichauf mit 30; Ann und Bo bleiben vorn mit dem größten "
                  "Vorrat an Eiche, Wolle und Eisen (3 gegen 1). Ann und Bo auch gleichauf "
                  "bei 3 Eiche, Wolle und Eisen; Ann gewinnt mit den meisten Arbeitern "
                  "(2 gegen 1).",
            "fr": f"Ann, Bo et Cy à égalité avec 30{NNBSP}; Ann et Bo restent devant avec le "
                  "plus de chêne, de laine et de fer (3 contre 1). Ann et Bo aussi à égalité "
                  f"avec 3 chêne, laine et fer{NNBSP}; Ann gagne avec le plus d’ouvriers "
                  "(2 contre 1)."}),
    "explorers, on viking deaths then settlements raided": (
        EXPLORERS, [explorers("Ann", 10, 3, 2), explorers("Bo", 10, 3, 1),
                    explorers("Cy", 10, 1, 5)], {
            "en": "Ann, Bo and Cy tied on 10; Ann and Bo stay ahead with the most viking "
                  "deaths (3 against 1). Ann and Bo also tied on 3 viking deaths; Ann wins "
                  "with the most settlements raided (2 against 1).",
            "de": "Ann, Bo und Cy gleichauf mit 10; Ann und Bo bleiben vorn mit den meisten "
                  "gefallenen Wikingern (3 gegen 1). Ann und Bo auch gleichauf bei 3 "
                  "gefallenen Wikingern; Ann gewinnt mit den meisten überfallenen Siedlungen "
                  "(2 gegen 1).",
            "fr": f"Ann, Bo et Cy à égalité avec 10{NNBSP}; Ann et Bo restent devant avec le "
                  "plus de Vikings morts (3 contre 1). Ann et Bo aussi à égalité avec 3 "
                  f"Vikings morts{NNBSP}; Ann gagne avec le plus de colonies pillées "
                  "(2 contre 1)."}),
    "knarr, on recruits and silver bracelets": (
        KNARR, [{"name": "Ann", "total": 40, "crew_tokens": 2},
                {"name": "Bo", "total": 40, "crew_tokens": 3}], {
            "en": "Bo and Ann tied on 40; Bo wins with the most recruits and silver bracelets "
                  "together (3 against 2).",
            "de": "Bo und Ann gleichauf mit 40; Bo gewinnt mit den meisten Rekruten und "
                  "Silberarmreifen zusammen (3 gegen 2).",
            "fr": f"Bo et Ann à égalité avec 40{NNBSP}; Bo gagne avec le plus de recrues et "
                  "de bracelets d’argent réunis (3 contre 2)."}),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_tie_break_says_the_most_in_the_players_language(app, case, lang):
    tiebreaks, results, words = CASES[case]
    sentence = rank(results, tiebreaks)[2]
    assert sentence == words["en"]
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert core(sentence) == words[lang]


def test_a_tie_for_a_lower_place_says_it_the_same_way(app):
    """Not only the winner's sentence: a tie for 2nd place decided on workers."""
    results = [shipwrights("Ann", 40, 0, 0), shipwrights("Bo", 30, 2, 1),
               shipwrights("Cy", 30, 2, 4)]
    ordered = sorted(rank(results, SHIPWRIGHTS)[0], key=lambda r: r["rank"])
    [sentence] = tie_sentences(ordered, SHIPWRIGHTS)
    assert sentence == "Cy and Bo tied on 30; Cy takes 2nd place with the most Workers " \
                       "(4 against 1)."
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert core(sentence) == (f"Cy et Bo à égalité avec 30{NNBSP}; Cy prend la 2e place "
                                  "avec le plus d’ouvriers (4 contre 1).")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert core(sentence) == ("Cy und Bo gleichauf mit 30; Cy belegt den 2. Platz mit den "
                                  "meisten Arbeitern (4 gegen 1).")


# parameters that hold a player's name (or "the neutral player"): French cannot glue "de" or
# "que" to them ("de Ann" is "d’Ann"), so no French sentence puts an eliding word before one
NAMES = ("player", "name", "names", "players", "first_name", "first_player", "start_player",
         "last_player", "other_name", "giver", "holder", "winter_token", "who", "winners",
         "end_triggered_by")
ELIDING = re.compile(r"(?<![\w’'])(de|que|le|la|ce|se|ne|si|lorsque|puisque)\s+%\((" +
                     "|".join(NAMES) + r")\)s", re.IGNORECASE)


def test_no_french_sentence_puts_an_eliding_word_before_a_players_name():
    """ "à droite de %(first_name)s" said "à droite de Ann"; "passe de %(giver)s" said "passe de
    le joueur neutre". Each is now said around the name ("à droite du premier joueur (Ann)",
    "quitte le joueur neutre pour Bo")."""
    with open(ROOT / "translations" / "fr" / "LC_MESSAGES" / "messages.po", "rb") as handle:
        found = [said for m in read_po(handle) if m.id
                 for said in (m.string if isinstance(m.string, tuple) else (m.string,))
                 if ELIDING.search(said or "")]
    assert found == []

