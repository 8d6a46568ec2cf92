"""A German and a French phone: the play page and its PDF score sheet in the phone's language."""
from __future__ import annotations

import io
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser


def create(live_server, game, players, options=None):
    return api(live_server.url, "POST", "/api/v1/plays", {
        "game": game, "players": players, "options": options or {}, "seed": 8})


def pdf_text(page, url) -> str:
    """The PDF as the phone's browser fetches it (its own Accept-Language and cookies)."""
    import base64

    from pypdf import PdfReader

    body = page.evaluate("""async (url) => {
        const r = await fetch(url);
        if (r.headers.get("content-type") !== "application/pdf") { return null; }
        const bytes = new Uint8Array(await r.arrayBuffer());
        let s = ""; bytes.forEach((b) => { s += String.fromCharCode(b); });
        return btoa(s);
    }""", url)
    assert body, "no PDF"
    data = base64.b64decode(body)
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize("locale, lang, words, pdf_words", [
    ("de-DE", "de", {"title": "Entdecker der Nordsee", "sheets": "Wertungsblätter",
                     "undo": "Meine letzte Änderung rückgängig machen",
                     "pause": "Uhr anhalten"},
     ["Wertung", "Summe", "Startwert", "Gefallene Wikinger"]),
    ("fr-FR", "fr", {"title": "Explorateurs de la Mer du Nord", "sheets": "Feuilles de score",
                     "undo": "Annuler ma dernière modification",
                     "pause": "Mettre en pause"},
     ["Décompte", "Total", "Graine", "Vikings morts"]),
])
def test_a_phone_in_german_or_french(live_server, phone, locale, lang, words, pdf_words):
    play = create(live_server, "explorers", ["Ann", "Bo"])
    page = phone(locale=locale)
    # the first Explorers page of a fresh server renders every template once: on a loaded
    # machine that passes the 10 s default, so this one load may wait longer (nothing timed)
    page.goto(live_server.url + urlsplit(play["edit_url"]).path, timeout=45_000)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_have_text(words["title"])
    expect(page.locator("#sheets-h")).to_have_text(words["sheets"])
    expect(page.get_by_role("button", name=words["undo"], exact=True)).to_be_visible()
    page.get_by_role("button", name=words["pause"]).click()   # the page still works in it
    expect(page.locator("#clock-toggle")).not_to_have_text(words["pause"])
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"/tmp/beyond-play-{lang}.png", full_page=False)
    page.screenshot(path=f"/tmp/beyond-play-{lang}-full.png", full_page=True)
    link = page.locator("a[href*='scoresheet.pdf']").first.get_attribute("href")
    text = pdf_text(page, live_server.url + link)
    for word in pdf_words:
        assert word in text, (word, text[:400])


def test_the_switch_on_the_page_is_remembered(live_server, phone):
    play = create(live_server, "knarr", ["Ann", "Bo"])
    page = phone(locale="de-DE")
    page.goto(live_server.url + urlsplit(play["edit_url"]).path)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".top")).to_have_js_property("offsetHeight", 44)   # one row on a phone
    page.locator("#langs summary").click()   # one small "DE" in the top bar opens the choice
    page.locator("#langs a[hreflang='fr']").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page).to_have_url(live_server.url + urlsplit(play["edit_url"]).path)
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("Commencer une partie")
