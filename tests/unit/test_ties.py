"""Every tie gets a sentence, not only the tie for first place: what decided between the tied
players (each game's own tie-break rule), or that they share the place."""
from __future__ import annotations

from companion.games import GAMES
from companion.games.explorers.scoring import TIEBREAKS as EXPLORERS_TIEBREAKS
from companion.games.knarr import TIEBREAKS as KNARR_TIEBREAKS
from companion.games.ranking import Tiebreak, rank, score_response, tie_sentences
from companion.games.shipwrights.scoring import TIEBREAKS as SHIPWRIGHTS_TIEBREAKS


def result(name, total, **extra):
    return {"name": name, "categories": {"vp": total}, **extra}


def test_knarr_second_place_tie_is_decided_by_recruits_and_bracelets():
    # Knarr: most VP wins; a tie goes to the most recruits and silver bracelets together.
    body = {"players": [
        {"name": "Ann", "sheet": {"vp": 44, "recruits": 1, "bracelets": 1}},
        {"name": "Bo", "sheet": {"vp": 31, "recruits": 1, "bracelets": 2}},
        {"name": "Cy", "sheet": {"vp": 31, "recruits": 3, "bracelets": 2}},
        {"name": "Dag", "sheet": {"vp": 20, "recruits": 0, "bracelets": 0}}]}
    score = GAMES["knarr"].score(body, {})
    assert score["winners"] == ["Ann"] and score["tiebreak"] is None
    assert score["tiebreaks"] == [
        "Cy and Bo tied on 31; Cy takes 2nd place with the most recruits and silver bracelets "
        "together (5 against 3)."]
    assert {p["name"]: p["rank"] for p in score["players"]} == {"Ann": 1, "Cy": 2, "Bo": 3,
                                                               "Dag": 4}


def test_knarr_ties_at_the_top_and_lower_down_each_get_a_sentence():
    body = {"players": [
        {"name": "Ann", "sheet": {"vp": 40, "recruits": 2, "bracelets": 2}},
        {"name": "Bo", "sheet": {"vp": 40, "recruits": 1, "bracelets": 1}},
        {"name": "Cy", "sheet": {"vp": 25, "recruits": 3, "bracelets": 0}},
        {"name": "Dag", "sheet": {"vp": 25, "recruits": 1, "bracelets": 2}}]}
    score = GAMES["knarr"].score(body, {})
    assert score["tiebreak"] == ("Ann and Bo tied on 40; Ann wins with the most recruits and "
                                 "silver bracelets together (4 against 2).")
    assert score["tiebreaks"] == [
        score["tiebreak"],
        "Cy and Dag tied on 25 and on every tie-break: they share 3rd place."]


def test_shipwrights_second_tie_break_workers_decides_a_lower_place():
    # Shipwrights: a tie goes to the most Oak, Wool and Iron left, then to the most Workers.
    results = [result("Ann", 30, resources=0, workers=0),
               result("Bo", 22, resources=2, workers=1),
               result("Cy", 22, resources=2, workers=4),
               result("Dag", 22, resources=1, workers=9)]
    score = score_response(results, SHIPWRIGHTS_TIEBREAKS)
    assert [(p["name"], p["rank"]) for p in score["players"]] == [
        ("Ann", 1), ("Bo", 3), ("Cy", 2), ("Dag", 4)]
    assert score["tiebreaks"] == [
        "Cy, Bo and Dag tied on 22; Cy and Bo stay ahead with the most Oak, Wool and Iron "
        "(2 against 1).",
        "Cy and Bo also tied on 2 Oak, Wool and Iron; Cy takes 2nd place with the most Workers "
        "(4 against 1)."]


def test_shipwrights_real_scoring_explains_a_shared_last_place():
    sheet = {"resources": 1, "workers": 2}
    body = {"players": [{"name": "Ann", "sheet": {"gold": 5}},
                        {"name": "Bo", "sheet": dict(sheet)},
                        {"name": "Cy", "sheet": dict(sheet)}]}
    score = GAMES["shipwrights"].score(body, {})
    assert score["winners"] == ["Ann"]
    total = score["players"][1]["total"]
    assert score["tiebreaks"] == [
        f"Bo and Cy tied on {total} and on every tie-break: they share 2nd place."]


def test_explorers_deaths_then_raided_settlements():
    # Explorers: a tie goes to the most Viking deaths, then the most settlements raided.
    results = [result("Ann", 18, viking_deaths=3, settlements_raided=1),
               result("Bo", 18, viking_deaths=3, settlements_raided=4),
               result("Cy", 18, viking_deaths=1, settlements_raided=9),
               result("Dag", 12, viking_deaths=0, settlements_raided=0),
               result("Eve", 12, viking_deaths=2, settlements_raided=0)]
    score = score_response(results, EXPLORERS_TIEBREAKS)
    assert score["winners"] == ["Bo"]
    assert score["tiebreaks"] == [
        "Bo, Ann and Cy tied on 18; Bo and Ann stay ahead with the most viking deaths "
        "(3 against 1).",
        "Bo and Ann also tied on 3 viking deaths; Bo wins with the most settlements raided "
        "(4 against 1).",
        "Eve and Dag tied on 12; Eve takes 4th place with the most viking deaths (2 against 0)."]
    assert score["tiebreak"] == " ".join(score["tiebreaks"][:2])


def test_games_without_tie_breaks_share_every_tied_place():
    # Reavers and Seafarers rank on points alone here: tied players share the place.
    results = [result("Ann", 9), result("Bo", 9), result("Cy", 7), result("Dag", 7),
               result("Eve", 7)]
    score = score_response(results, ())
    assert score["winners"] == ["Ann", "Bo"]
    assert score["tiebreaks"] == ["Ann and Bo tied on 9: a shared win.",
                                  "Cy, Dag and Eve tied on 7: they share 3rd place."]


def test_no_tie_no_sentence_and_first_place_sentence_is_unchanged():
    results = [{"name": "Ann", "total": 10, "d": 2}, {"name": "Bo", "total": 10, "d": 3},
               {"name": "Cy", "total": 4, "d": 9}]
    tiebreaks = [Tiebreak("deaths", lambda r: r["d"], "the most deaths")]
    ranked, winners, sentence = rank(results, tiebreaks)
    assert sentence == "Bo and Ann tied on 10; Bo wins with the most deaths (3 against 2)."
    ordered = sorted(ranked, key=lambda r: r["rank"])
    assert tie_sentences(ordered, tiebreaks) == [sentence]
    assert tie_sentences([{"name": "A", "total": 3}, {"name": "B", "total": 2}], ()) == []


def test_knarr_tiebreak_constant_is_the_crew():
    assert [t.label for t in KNARR_TIEBREAKS] == ["recruits and silver bracelets together"]
