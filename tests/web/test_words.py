"""Labels in players' words, in English, German and French: no keys, no raw HTML, a rule's
words once, lists of names through Babel's list patterns, no notice that has gone stale."""
from __future__ import annotations

import re

import pytest

from tests.web.test_box_values import auth, send, shipwrights_at_15

NOTE = "A Military marker is on space 15, whose VP is not in the box data yet"


def page(client, play, lang="en") -> str:
    return client.get(f"/plays/{play['id']}/{play['edit_token']}",
                      headers={"Accept-Language": lang}).get_data(as_text=True)


def visible(html: str) -> str:
    """The page's text as a person reads it (tags out, entities as they show)."""
    import html as html_module

    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return html_module.unescape(re.sub(r"<[^>]+>", " ", text))


def test_the_missing_track_vp_notice_goes_once_the_table_answers(client):
    play = shipwrights_at_15(client)
    assert NOTE in page(client, play)
    send(client, play, "box_value", key="track_vp.15", value=4)
    assert NOTE not in page(client, play)
    # the answer taken back: the notice is true again, and back
    client.post(f"/api/v1/plays/{play['id']}/undo", headers=auth(play["edit_token"]))
    assert NOTE in page(client, play)


def test_a_longship_bonus_rule_is_said_once_however_many_longships_carry_it(client):
    """Four Longships with the same bonus: "4 × 3 (3 VP per set of …)", the rule's words once
    (they were repeated four times), in every language."""
    reply = client.post("/api/v1/games/shipwrights/score", json={"players": [
        {"name": "Ann", "sheet": {"longships_vp": 12, "raid_cards": 1, "trade_cards": 1,
                                  "upgrades": 1,
                                  "longship_bonuses": ["raid_trade_upgrade_sets"] * 4
                                  + ["raid_cards"]}},
        {"name": "Bo", "sheet": {}}]})
    note = reply.json["players"][0]["explanations"]["longships"]
    assert note == ("12 VP printed on Longships plus bonuses: 4 × 3 (3 VP per set of Raid Card + "
                    "Trade Card + Upgrade), 2 (2 VP per Raid Card).")
    assert reply.json["players"][0]["categories"]["longships"] == 12 + 4 * 3 + 2


@pytest.mark.parametrize("lang, words", [
    ("de", "4 × 3 (3 SP je Satz aus Raubzugkarte + Handelskarte + Aufwertung)"),
    ("fr", "4 × 3 (3 PV par série carte Raid + carte Commerce + amélioration)"),
])
def test_the_bonus_rule_is_in_the_pages_language(client, lang, words):
    play = client.post("/api/v1/plays", json={"game": "shipwrights", "players": ["Ann", "Bo"]}
                       ).json
    send(client, play, "sheet", player="Ann", fields={
        "raid_cards": 1, "trade_cards": 1, "upgrades": 1,
        "longship_bonuses": ["raid_trade_upgrade_sets"] * 4})
    text = visible(page(client, play, lang))
    assert text.count(words) == 2          # under the score table and in "how each row …"
    assert "per set of" not in text


@pytest.mark.parametrize("lang, rows", [
    ("en", ["1 VP per unique Building (Huts count)", "2 VP per Raid Card"]),
    ("de", ["1 SP je verschiedenem Gebäude (Hütten zählen)", "2 SP je Raubzugkarte"]),
    ("fr", ["1 PV par bâtiment différent (les huttes comptent)", "2 PV par carte Raid"]),
])
def test_grouped_boxes_are_labelled_in_words_never_keys(client, lang, rows):
    play = client.post("/api/v1/plays", json={"game": "shipwrights", "players": ["Ann", "Bo"]}
                       ).json
    html = page(client, play, lang)
    labels = re.findall(r'<label for="f-\d+-Ann-[a-z_]+">([^<]*)</label>', html)
    for row in rows:
        assert row in labels, (row, labels)
    for key in ("raid trade upgrade sets", "raid cards", "unique buildings"):
        assert key not in labels


@pytest.mark.parametrize("lang, animals", [
    ("en", ["Pigs", "Chickens", "Goats", "Sheep", "Cattle", "Horses"]),
    ("de", ["Schweine", "Hühner", "Ziegen", "Schafe", "Rinder", "Pferde"]),
    ("fr", ["Cochons", "Poules", "Chèvres", "Moutons", "Vaches", "Chevaux"]),
])
def test_livestock_boxes_are_named_animals(client, lang, animals):
    play = client.post("/api/v1/plays", json={"game": "explorers", "players": ["Ann", "Bo"]}
                       ).json
    html = page(client, play, lang)
    labels = re.findall(r'<label for="f-\d+-Ann-(?:pig|chicken|goat|sheep|cattle|horse)">'
                        r'([^<]*)</label>', html)
    assert labels == animals


@pytest.mark.parametrize("lang, winners, won_by", [
    ("en", "Ann, Bo, and Cy win", "Won by Ann, Bo, and Cy"),
    ("de", "Ann, Bo und Cy gewinnen", "Gewonnen von Ann, Bo und Cy"),
    ("fr", "Ann, Bo et Cy gagnent", "Gagnée par Ann, Bo et Cy"),
])
def test_names_are_listed_by_the_languages_own_pattern(client, lang, winners, won_by):
    """Three players tied at the end: "Ann and Bo and Cy" was English glue in every language
    ("Gewonnen von Ann and Bo and Cy")."""
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo", "Cy"]}
                       ).json
    client.post(f"/api/v1/plays/{play['id']}/events", headers=auth(play["edit_token"]),
                json={"type": "finish"})
    text = " ".join(visible(page(client, play, lang)).split())
    assert winners in text
    history = " ".join(visible(client.get("/history", headers={
        "Accept-Language": lang}).get_data(as_text=True)).split())
    assert won_by in history


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_seafarers_box_data_page_shows_no_markup_as_text(owner_client, lang):
    html = owner_client.get("/catalogue/seafarers", headers={"Accept-Language": lang}
                            ).get_data(as_text=True)
    assert "&lt;" not in html and "&gt;" not in html
    assert "<em>" not in visible(html)


@pytest.mark.parametrize("lang, words", [
    ("en", "printed at the bottom of each Art card"),
    ("de", "unten auf jeder Kunst-Karte aufgedruckt"),
    ("fr", "imprimé en bas de chaque carte Art"),
])
def test_a_card_types_question_reads_right_before_any_type(client, lang, words):
    """"the bottom of a Art card": the question no longer puts an article before the type."""
    play = client.post("/api/v1/plays", json={"game": "reavers", "players": ["Ann", "Bo"]}).json
    send(client, play, "sheet", player="Ann", fields={"keep_spoils": {"Art": 2}})
    client.post(f"/api/v1/plays/{play['id']}/events", headers=auth(play["edit_token"]),
                json={"type": "finish"})
    assert words in " ".join(visible(page(client, play, lang)).split())
