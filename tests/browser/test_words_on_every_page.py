"""Every page of every game, in English, German and French, on a 360 px phone with five long
names: no word broken mid-word, and no English on a German or French page.

Every page of tests/browser/every_page.py is opened with all its <details> open.
- Broken words: a script (broken_words.js) finds every word that a line break cuts anywhere
  but at one of its soft hyphens (the `hyphenate` filter puts them where the page language's
  rules allow; "Alex/andr/a" and "Siegpunktkart/en" were cut anywhere). A name too long for its
  column is cut with "…" on one line instead, and shows whole on a tap.
- Keys and markup shown as text ("raid cards", "<em>as shown</em>"), in every language.
- English (tests/browser/english.py): text and the words a screen reader says, with the names
  that stay English taken out (players' names, a game's name its catalogue keeps), searched for
  English words and for the catalogue's English message ids. A template's words and the core's
  sentences (refusals, notices, checklists, the labels the games declare) alike: any English
  fails the test.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .english import TEXTS, english_in, not_words
from .every_page import (
    NAMES,
    every_page,
    play_path,
    refuse,
    seat_path,
    seat_refusals,
    served_with_every_play,
)

pytestmark = pytest.mark.browser

BROKEN_WORDS = (Path(__file__).parent / "broken_words.js").read_text()
NARROW = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
          "device_scale_factor": 2}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from served_with_every_play(tmp_path_factory.mktemp("words"))


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR", "en-GB"])
def test_no_word_is_broken_and_no_english_is_left(site, browser, locale):
    from companion.owner import owner_key

    lang = locale[:2]
    context = browser.new_context(**NARROW, locale=locale)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{site.url}/owner/{owner_key(site.app)}")
    broken, english = {}, {}
    pages = every_page(site.plays)
    for name, path in pages.items():
        page.goto(site.url + path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        found = page.evaluate(BROKEN_WORDS)
        if found:
            broken[name] = found
        scan(page, name, lang, english)
    for (game_id, stage), play in site.plays.items():      # a seat's own-seat refusals
        if stage != "mid":
            continue
        path = seat_path(play, "other")
        for name, form in seat_refusals(game_id, play).items():
            page.goto(site.url + path)
            assert refuse(page, path, form) == 403, (game_id, name)
            expect(page.locator("#refused p.error")).to_have_count(1)
            scan(page, f"{game_id} {name}", lang, english)
    context.close()
    assert len(pages) > 60
    assert broken == {}
    # (and no key or markup shown as text, in English too)
    assert english == {}, json.dumps(english, indent=1, ensure_ascii=False)


def scan(page, name: str, lang: str, english: dict) -> None:
    """What ``page`` shows that is a key, markup, or (on a German or French page) English."""
    for text, where in json.loads(page.evaluate(TEXTS, lang)):
        odd = not_words(text)
        if odd:
            english.setdefault(name, []).append(f"{where}: {odd}")
        if lang == "en":
            continue
        left = english_in(text, lang, tuple(NAMES))
        if left:
            english.setdefault(name, []).append(f"{where}: {left}")


def test_the_script_finds_a_word_broken_mid_word(browser):
    """The check itself: a word forced to break is found, one broken at its soft hyphen is
    not, nor a link's address."""
    page = browser.new_page()
    page.set_content('<p style="width:4em; overflow-wrap:anywhere">Siegpunktkarten</p>'
                     '<p style="width:5em">Sieg\u00adpunkt\u00adkar\u00adten</p>'
                     '<p style="width:4em; overflow-wrap:anywhere">http://a.example/xyzxyzxyz</p>')
    assert page.evaluate(BROKEN_WORDS) == ['Siegpunktkarten in <p class="">']
    page.close()


def test_a_name_cut_in_the_score_table_shows_whole_on_a_tap(site, browser):
    play = site.plays["shipwrights", "mid"]
    context = browser.new_context(**NARROW, locale="de-DE")
    page = context.new_page()
    page.goto(site.url + play_path(play))
    head = page.locator("table.score thead .name-tip", has_text=NAMES[1])
    head.scroll_into_view_if_needed()
    cut = head.locator(".name-cut")
    assert cut.evaluate("el => el.scrollWidth > el.clientWidth"), "Bartholomew fits: no cut"
    expect(head).to_have_accessible_name(NAMES[1])
    head.tap()
    expect(page.locator("#score-name-2")).to_be_visible()
    expect(page.locator("#score-name-2")).to_have_text(NAMES[1])
    page.screenshot(path="/tmp/words-name-on-tap.png")
    page.mouse.click(5, 5)             # a tap elsewhere puts it away
    expect(page.locator("#score-name-2")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


@pytest.mark.parametrize("lang, text, english", [
    ("de", "Scan to follow this play", "Scan to follow this play"),
    ("de", "Scannen, um diese Partie zu verfolgen", None),
    ("de", "nobody", "nobody"),                       # a catalogue word, alone
    ("de", "Helden: niemand", None),
    ("de", "Shipwrights of the North Sea: Redux", None),     # its name in every language
    ("de", "Zug von Alexandra", None),
    ("fr", "0 or à 1 PV chacun.", None),                 # French "or" is gold
    ("fr", "Feuille de score de Bartholomew", None),
    ("fr", "VP for the solo opponent (solo games only)", "VP for the solo opponent (solo games "
                                                         "only)"),
    ("fr", "Alexandra controls it with 2 influence", "Alexandra controls it with 2 influence"),
    ("de", "Won by Alexandra and Bartholomew", "Won by Alexandra and Bartholomew"),
    ("de", "Explorers of the North Sea", "Explorers of the North Sea"),   # says it otherwise
    ("fr", "Knarr", None),
])
def test_what_the_scan_calls_english(lang, text, english):
    assert english_in(text, lang, tuple(NAMES)) == english


@pytest.mark.parametrize("text, odd", [
    ("raid trade upgrade sets", "raid trade upgrade sets"), ("raid_cards", "raid_cards"),
    ("2 VP per Raid Card", None), ("The book lays them <em>as shown</em>", "The book lays them "
                                   "<em>as shown</em>"),
    ("Ann &amp; Bo", "Ann &amp; Bo"), ("Ann & Bo", None), ("Pigs", None)])
def test_what_the_scan_calls_a_key_or_markup(text, odd):
    assert not_words(text) == odd
