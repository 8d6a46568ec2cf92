"""No word broken mid-word on a 360 px phone, in English, German and French, with five long
names ("Alex/andr/a" in the score table's heads, "Siegpunktkart/en" in its rows).

Every page of tests/browser/every_page.py is opened with all its <details> open, and a script
(broken_words.js) finds every word that a line break cuts anywhere but at one of its soft
hyphens (the `hyphenate` filter puts them where the page language's rules allow). A name too
long for its column is cut with "…" instead, and shows whole on a tap."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import LiveServer, make_app

from .every_page import NAMES, every_page, make_plays, play_path

pytestmark = pytest.mark.browser

BROKEN_WORDS = (Path(__file__).parent / "broken_words.js").read_text()
NARROW = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
          "device_scale_factor": 2}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = make_app(tmp_path_factory.mktemp("words"), WTF_CSRF_ENABLED=True, PUBLIC_URL=None)
    server = LiveServer(app)
    server.app = app
    server.plays = make_plays(server.url)
    yield server
    server.stop()


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR", "en-GB"])
def test_no_word_is_broken_on_a_360_px_phone(site, browser, locale):
    from companion.owner import owner_key

    context = browser.new_context(**NARROW, locale=locale)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{site.url}/owner/{owner_key(site.app)}")
    broken = {}
    for name, path in every_page(site.plays).items():
        page.goto(site.url + path)
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        found = page.evaluate(BROKEN_WORDS)
        if found:
            broken[name] = found
    context.close()
    assert broken == {}


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
