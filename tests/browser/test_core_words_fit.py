"""The core's sentences in German on a 390 px phone: the table's notices, the Undo label and
a tie-break on the score fit their boxes (German runs longer than the English they replace)."""
from __future__ import annotations

import json
import urllib.request

import pytest

pytestmark = pytest.mark.browser

OVERFLOW = """(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)])
    .filter((el) => el.scrollWidth > el.clientWidth + 1
                    || el.getBoundingClientRect().right > window.innerWidth + 1)
    .map((el) => el.outerHTML.slice(0, 160))"""
# the Undo buttons cut their label after two lines by design (the full words are their
# aria-label): they have to stay on the screen
OFF_SCREEN = """(selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
    .map((el) => el.outerHTML.slice(0, 160))"""
# ... and show the start of what they undo, not only their verb (German "Rückgängig:" filled
# the one row they had): the first word after "verb: " lies wholly inside the button
CHANGE_IN_SIGHT = """(selector) => {
    const span = document.querySelector(selector), text = span.firstChild;
    const at = text.data.indexOf(": ") + 2, range = document.createRange();
    const end = text.data.indexOf(" ", at);
    range.setStart(text, at); range.setEnd(text, end < 0 ? text.data.length : end);
    const letter = range.getBoundingClientRect();
    const box = span.closest("button").getBoundingClientRect();
    return letter.bottom <= box.bottom + 1 && letter.right <= box.right + 1; }"""


def call(live_server, path, body, token=None):
    request = urllib.request.Request(
        live_server.url + path, method="POST", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_german_sentences_fit_a_phone(live_server, phone):
    names = ["Åsa Lindqvist-Berg", "Bo", "Cecilie"]
    reavers = call(live_server, "/api/v1/plays", {"game": "reavers", "players": names, "seed": 8})
    call(live_server, f"/api/v1/plays/{reavers['id']}/events",
         {"type": "place", "data": {"location": "conquer_territories"}, "device": "phone-de"},
         reavers["edit_token"])
    knarr = call(live_server, "/api/v1/plays", {"game": "knarr", "players": names, "seed": 8})
    for name, crew in ((names[0], 1), (names[1], 2), (names[2], 2)):
        call(live_server, f"/api/v1/plays/{knarr['id']}/events",
             {"type": "sheet", "data": {"player": name, "fields": {
                 "vp": 20, "recruits": crew, "bracelets": 1}}}, knarr["edit_token"])
    page = phone(locale="de-DE")
    # this phone made the change (its Undo names its own last change)
    page.add_init_script("localStorage.setItem('nsc.device', JSON.stringify('phone-de'))")
    page.context.add_cookies([{"name": "nsc_device", "value": "phone-de",
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/plays/{reavers['id']}/{reavers['edit_token']}")
    notices = page.locator("ul.notices li")
    assert "„Gebiete erobern“ gewählt" in notices.first.inner_text()
    assert page.locator("[data-undo-mine]").get_attribute("aria-label") == (
        "Meine letzte Änderung rückgängig machen: Figur auf „Gebiete erobern“")
    page.screenshot(path="/tmp/words-de-notices.png", full_page=True)
    assert page.evaluate(OVERFLOW, ["ul.notices li", ".controls button.primary", "header",
                                    "header nav"]) == []
    assert page.evaluate(OFF_SCREEN, ".controls button") == []
    assert page.evaluate(CHANGE_IN_SIGHT, "[data-undo-mine] .clamp") is True
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.goto(f"{live_server.url}/plays/{knarr['id']}/{knarr['edit_token']}")
    ties = page.locator("p.tiebreak")
    assert ties.count() == 1
    assert "mit den meisten Rekruten und Silberarmreifen zusammen" in ties.first.inner_text()
    page.locator("p.tiebreak").first.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/words-de-score.png", full_page=True)
    assert page.evaluate(OVERFLOW, ["p.tiebreak", ".result", "header", "header nav",
                                    ".g-knarr-players table.score td",
                                    ".g-knarr-players table.score th"]) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
