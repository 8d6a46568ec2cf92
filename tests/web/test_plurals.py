"""Counted sentences (companion.games.messages.say_n) on the pages: the singular and the plural
each language's rule picks for the number (German: 1 alone is singular; French: 0 and 1),
never "1 recruits" or "0 recrues"; the API keeps the English, said the English way."""
from __future__ import annotations

import html
import re

import pytest

from .test_core_words import new_play, send


def page_text(client, play, lang: str) -> str:
    page = client.get(f"/plays/{play['id']}/{play['edit_token']}",
                      headers={"Accept-Language": lang})
    assert page.status_code == 200
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))).split())


KNARR = {
    "en": ["20 VP on the score track; 1 recruit and 0 silver bracelets for ties.",
           "20 VP on the score track; 2 recruits and 1 silver bracelet for ties."],
    "de": ["20 SP auf der Punkteleiste; 1 Rekrut und 0 Silberarmreifen für Gleichstände.",
           "20 SP auf der Punkteleiste; 2 Rekruten und 1 Silberarmreif für Gleichstände."],
    "fr": ["20 PV sur la piste de score ; 1 recrue et 0 bracelet d’argent pour les égalités.",
           "20 PV sur la piste de score ; 2 recrues et 1 bracelet d’argent pour les égalités."],
}


@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_knarr_recruits_and_bracelets_on_the_score_page(client, lang):
    """Knarr's score row says each player's recruits and bracelets (its tie-break): one
    recruit, no bracelet; two recruits, one bracelet."""
    play = new_play(client, "knarr", ["Ann", "Bo"])
    send(client, play, "sheet", player="Ann", fields={"vp": 20, "recruits": 1, "bracelets": 0})
    send(client, play, "sheet", player="Bo", fields={"vp": 20, "recruits": 2, "bracelets": 1})
    text = page_text(client, play, lang)
    assert all(sentence in text for sentence in KNARR[lang]), text
    api = client.get(f"/api/v1/plays/{play['id']}",
                     headers={"Authorization": f"Bearer {play['view_token']}",
                              "Accept-Language": lang})
    said = [p["explanations"]["score"] for p in api.get_json()["state"]["score"]["players"]]
    assert said == KNARR["en"]


REAVERS = {
    "en": ["1 artifact.", "0 artifacts.", "1 favor token at 2 glory each.",
           "0 favor tokens at 2 glory each.", "2 prophecies."],
    "de": ["1 Artefakt.", "0 Artefakte.", "1 Gunstmarker zu je 2 Ruhm.",
           "0 Gunstmarker zu je 2 Ruhm.", "2 Prophezeiungen."],
    "fr": ["1 artefact.", "0 artefact.", "1 jeton Faveur à 2 gloire chacun.",
           "0 jeton Faveur à 2 gloire chacun.", "2 prophéties."],
}


@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_reavers_final_glory_rows_on_the_score_page(client, lang):
    """Reavers' final glory rows: Ann with one artifact, one favor token and two prophecies,
    Bo with none (French says "0 artefact", singular; German "0 Artefakte")."""
    play = new_play(client, "reavers", ["Ann", "Bo"])
    send(client, play, "sheet", player="Ann",
         fields={"artifacts": [3], "favor": 1, "prophecies": [2, 4]})
    send(client, play, "sheet", player="Bo", fields={"glory": 5})
    text = page_text(client, play, lang)
    missing = [sentence for sentence in REAVERS[lang] if sentence not in text]
    assert not missing, (missing, text)


KNARR_TURN = {"en": "1 recruit, 2 silver bracelets.", "de": "1 Rekrut, 2 Silberarmreifen.",
              "fr": "1 recrue, 2 bracelets d’argent."}


@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_knarr_turns_so_far_count_recruits_and_bracelets(client, lang):
    """The Knarr history line ("Turns so far") says the ship's recruits and bracelets after
    the turn: one recruit, two bracelets."""
    play = new_play(client, "knarr", ["Ann", "Bo"])
    first = play["state"]["table"]["order"][0]
    send(client, play, "turn", player=first, vp_gained=2, recruits=1, bracelets=2)
    text = page_text(client, play, lang)
    assert KNARR_TURN[lang] in text, text
