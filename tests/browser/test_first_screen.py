"""The next move is in reach, from the first second, on three phones at once (390x844).

For every game with its most players: at version 0 the setup is one compact card at the top
and the first game action stands on the first screen; then an ordinary round is played from
the three phones in turn, and at every step the control that step needs is on the first screen
of the phone that taps it (the step of the phase), or at most one screen of scrolling away (a
seat's own row: a territory, a track, a captain, a sheet). Positions are measured from the top
of the page, never times. A change made on one phone never opens, folds or moves a section on
another: one phone reads the setup aloud while the others play. "Setup done" puts the card away
on that phone alone. $SHOTS set: screenshots of each game at version 0 and mid-round, phone and
tablet (1280x800), for a person to look at.
"""
from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCREEN = 844
NAMES = ["Alexandra", "Bartholomew", "Cecilie", "Dagfinnur", "Eleonora"]
MOST = {"knarr": 4, "seafarers": 4, "reavers": 4, "explorers": 5, "shipwrights": 5}
OPTIONS = {"explorers": {"rocks_of_ruin": True}}


def bottom(locator) -> float:
    """Where the element ends, from the top of the page, with the page scrolled to its top
    (a tap scrolls; the sticky toolbar would otherwise move with it)."""
    return locator.evaluate("el => { window.scrollTo(0, 0);"
                            " return el.getBoundingClientRect().bottom + window.scrollY; }")


def on_first_screen(locator, what: str) -> None:
    expect(locator).to_be_visible()
    end = bottom(locator)
    assert end <= SCREEN, f"{what} ends at {end:.0f} px, below the first screen ({SCREEN} px)"


def within_one_scroll(locator, what: str) -> None:
    expect(locator).to_be_visible()
    end = bottom(locator)
    assert end <= 2 * SCREEN, f"{what} ends at {end:.0f} px: more than one screen of scrolling"


class Table:
    """Three phones on one play; each step is tapped on the next phone in turn."""

    def __init__(self, phone, server, game, players=None):
        count = players or MOST[game]
        self.phones = [phone() for _ in range(3)]
        first = self.phones[0]
        play = first.request.post(f"{server.url}/api/v1/plays", data={
            "game": game, "players": NAMES[:count], "seed": "7",
            "options": OPTIONS.get(game, {})}).json()
        self.url, self.game, self.turn = server.url + urlsplit(play["edit_url"]).path, game, 0
        for page in self.phones:
            page.goto(self.url)
            expect(page.locator("#play")).to_have_attribute("data-version", "0")

    @property
    def now(self):
        """The phone whose turn it is to tap."""
        return self.phones[self.turn % 3]

    def version(self) -> int:
        return int(self.now.locator("#play").get_attribute("data-version"))

    def tap(self, locator) -> None:
        """Tap on the phone whose turn it is; wait until all three phones show the change."""
        before = self.version()
        locator.click()
        for page in self.phones:
            expect(page.locator("#play")).to_have_attribute("data-version", str(before + 1))
        self.turn += 1

    def shots(self, name: str, browser) -> None:
        folder = os.environ.get("SHOTS")
        if not folder:
            return
        self.now.screenshot(path=f"{folder}/{self.game}-{name}-phone.png", full_page=True)
        tablet = browser.new_context(viewport={"width": 1280, "height": 800})
        page = tablet.new_page()
        page.goto(self.url)
        page.screenshot(path=f"{folder}/{self.game}-{name}-tablet.png")
        tablet.close()


def setup_card_at_version_0(table: Table) -> None:
    for page in table.phones:
        card = page.locator("#setup-card")
        on_first_screen(card.locator("#setup-h"), "the setup card")
        expect(card.locator("#setup-h")).to_have_text(re.compile(r"^Setup: \d+ steps$"))
        expect(card.locator("#setup-details")).not_to_have_attribute("open", "")
        on_first_screen(card.get_by_role("button", name="Setup done"), "Setup done")
        assert bottom(card) < 330, "the setup card is not compact"


def test_knarr(live_server, phone, browser):
    table = Table(phone, live_server, "knarr")
    setup_card_at_version_0(table)
    table.shots("v0", browser)
    for turn in range(MOST["knarr"] + 1):           # a round, and the first turn of the next
        name = table.now.locator("[data-current-player]").inner_text()
        end = table.now.get_by_role("button", name=f"End {name}'s turn")
        on_first_screen(end, f"End {name}'s turn")
        table.now.get_by_role("button", name="VP gained plus one").click()
        table.tap(end)
        if turn == 1:
            table.shots("mid-round", browser)


def test_explorers(live_server, phone, browser):
    table = Table(phone, live_server, "explorers")
    setup_card_at_version_0(table)
    name = table.now.locator("[data-current-player]").inner_text()
    on_first_screen(table.now.get_by_role("button", name=f"End {name}'s turn"), "the first turn")
    table.shots("v0", browser)
    for seat in NAMES:                                # every seat keeps a captain
        choice = table.now.locator(f".g-explorers-cap[data-player='{seat}'] button").last
        within_one_scroll(choice, f"{seat}'s captain")
        table.tap(choice)
    for page in table.phones:     # all kept: a fresh page folds them, no open page has them fold
        expect(page.locator("#ex-captains")).to_have_attribute("open", "")
    for _ in NAMES:                                   # a round of turns
        name = table.now.locator("[data-current-player]").inner_text()
        end = table.now.get_by_role("button", name=f"End {name}'s turn")
        on_first_screen(end, f"End {name}'s turn")
        table.tap(end)
    table.shots("mid-round", browser)


def test_reavers(live_server, phone, browser):
    table = Table(phone, live_server, "reavers")
    setup_card_at_version_0(table)
    table.shots("v0", browser)
    for round_ in (1, 2):
        for _ in range(MOST["reavers"]):              # every seat places a pawn
            free = table.now.locator("button.g-reavers-loc:not([disabled])")
            on_first_screen(free.last, "the last free location")
            table.tap(free.first)
        on_first_screen(table.now.get_by_role("button", name="Cleanup →"), "Cleanup")
        for seat in NAMES[:MOST["reavers"]]:          # every seat's territories
            plus = table.now.get_by_role("button", name=f"{seat}: one territory more")
            within_one_scroll(plus, f"{seat}'s territory +")
            table.tap(plus)
        if round_ == 1:
            table.shots("mid-round", browser)
        table.tap(table.now.get_by_role("button", name="Cleanup →"))
        start = table.now.get_by_role("button", name=f"Start round {round_ + 1} →")
        on_first_screen(start, f"Start round {round_ + 1}")
        table.tap(start)


def test_seafarers(live_server, phone, browser):
    table = Table(phone, live_server, "seafarers")
    setup_card_at_version_0(table)
    table.shots("v0", browser)
    for i, seat in enumerate(NAMES[:MOST["seafarers"]], start=1):
        sheet = table.now.locator(f"#sheet-{i}")
        on_first_screen(sheet.locator("summary"), f"{seat}'s sheet")
        sheet.locator("summary").click()
        plus = sheet.locator(".stepper button[aria-label$='plus one']").first
        within_one_scroll(plus, f"{seat}'s first + on the sheet")
        table.tap(plus)
        sheet.locator("summary").click()                # entered: folded again on that phone
    table.shots("mid-round", browser)
    on_first_screen(table.now.get_by_role("button", name="Next turn →"), "Next turn")
    table.tap(table.now.get_by_role("button", name="Next turn →"))


def test_shipwrights(live_server, phone, browser):
    table = Table(phone, live_server, "shipwrights")
    setup_card_at_version_0(table)
    table.shots("v0", browser)
    reveal = table.now.get_by_role("button", name="Reveal this card")
    on_first_screen(reveal, "Reveal this card")
    table.now.locator(".g-sw-chips label").first.click()
    table.tap(reveal)
    nxt = "Next phase →"
    while table.now.locator(".phase").inner_text() != "actions":
        on_first_screen(table.now.get_by_role("button", name=nxt), "Next phase")
        table.tap(table.now.get_by_role("button", name=nxt))
    for seat in NAMES:                                # every seat's three tracks
        for track in ("Military", "Trade", "Renown"):
            plus = table.now.get_by_role(
                "button", name=f"Move {seat}'s {track} marker forward one space")
            within_one_scroll(plus, f"{seat}'s {track} +")
            if seat == NAMES[2]:
                on_first_screen(plus, f"the third player's {track} +")
        table.tap(table.now.get_by_role(
            "button", name=f"Move {seat}'s Trade marker forward one space"))
    table.shots("mid-round", browser)
    while table.now.locator(".phase").inner_text() != "reveal":
        on_first_screen(table.now.get_by_role("button", name=nxt), "Next phase")
        table.tap(table.now.get_by_role("button", name=nxt))
    on_first_screen(table.now.get_by_role("button", name="Reveal this card"),
                    "round 2's Reveal this card")


def test_a_change_elsewhere_never_opens_folds_or_moves_a_section(live_server, phone):
    """One phone reads the setup aloud, scrolled into it; the two others play on: the first
    change, two phase steps, a track move from each. On the reading phone no section opens,
    folds or changes place, what it reads stays where it was, and it follows every change."""
    table = Table(phone, live_server, "shipwrights", players=3)
    reader, one, two = table.phones
    reader.locator("#setup-details > summary").click()
    reader.locator(".g-sw-huts").scroll_into_view_if_needed()

    def seen() -> dict:
        return reader.evaluate("""() => ({
            open: Object.fromEntries([...document.querySelectorAll('#play details[id]')]
                                     .map(d => [d.id, d.open])),
            order: [...document.querySelectorAll('#play [data-h]')].map(e => e.id),
            huts: document.querySelector('.g-sw-huts').getBoundingClientRect().top})""")

    def play(page, locator) -> None:
        before = int(page.locator("#play").get_attribute("data-version"))
        locator.click()
        for p in table.phones:
            expect(p.locator("#play")).to_have_attribute("data-version", str(before + 1))

    before = seen()
    assert before["open"]["setup-details"] is True
    one.locator(".g-sw-chips label").first.click()
    play(one, one.get_by_role("button", name="Reveal this card"))           # version 0 -> 1
    play(two, two.get_by_role("button", name="Next phase →"))               # draft
    play(one, one.get_by_role("button", name="Next phase →"))               # actions
    for i, seat in enumerate(NAMES[:3]):
        page = (one, two)[i % 2]
        play(page, page.get_by_role("button",
                                    name=f"Move {seat}'s Military marker forward one space"))
    after = seen()
    assert {k: after["open"].get(k) for k in before["open"]} == before["open"], \
        "a section opened or folded on the reading phone"
    assert abs(after["huts"] - before["huts"]) < 1, "what the reader reads moved"
    kept = [i for i in before["order"] if i in after["order"]]
    assert [i for i in after["order"] if i in before["order"]] == kept, "sections changed places"
    assert {"setup-card", "sw-round", "sw-player-1", "sw-player-3", "sheet-1-form"} <= set(kept)
    expect(reader.locator(".g-sw-player[data-player='Cecilie'] .g-sw-track[data-track="
                          "'military'] .g-sw-pos")).to_have_text("1")


def test_setup_done_puts_the_card_away_on_that_phone_only(live_server, phone):
    table = Table(phone, live_server, "knarr")
    mine, other = table.phones[0], table.phones[1]
    mine.get_by_role("button", name="Setup done").first.click()
    expect(mine.locator("#setup-card")).to_be_hidden()
    name = mine.locator("[data-current-player]").inner_text()
    end = mine.get_by_role("button", name=f"End {name}'s turn")
    table.tap(end)
    expect(other.locator("#setup-card")).to_be_visible()
    mine.reload()
    expect(mine.locator("#setup-card")).to_be_hidden()                        # kept, no flash
    assert mine.locator("#play-root").get_attribute("data-setup") == "done"
    mine.get_by_role("button", name="Setup", exact=True).click()
    expect(mine.locator("#setup-details")).to_have_attribute("open", "")
    expect(mine.locator("#setup-details ol.checklist li").first).to_be_in_viewport()
    mine.reload()
    expect(mine.locator("#setup-card")).to_be_visible()


def test_reavers_keep_spoils_and_tapestries_are_steppers(live_server, phone):
    """A stepper per keep spoils type (the printed three and the box data's own) and per
    tapestry, no "Treasure=2, Art=1" to type: taps from three phones add up, the score counts
    the sets, and another kind a sheet already holds keeps its stepper."""
    import json
    import urllib.request

    reply = urllib.request.urlopen(urllib.request.Request(
        f"{live_server.url}/api/v1/plays", method="POST", headers={
            "Content-Type": "application/json"}, data=json.dumps({
                "game": "reavers", "players": NAMES[:3], "seed": 7, "options": {
                    "keep_spoils_schedule": {"Treasure": [1, 3, 6], "Gems": [2, 5]}}}).encode()))
    play = json.load(reply)
    page_url = live_server.url + urlsplit(play["edit_url"]).path
    phones = [phone() for _ in range(3)]
    for page in phones:
        page.goto(page_url)
    sheet = "#sheet-1"
    for page in phones:
        page.locator(f"{sheet} > summary").click()
        spoils = page.locator(f"{sheet} fieldset.counts").nth(0)
        expect(spoils.locator("label")).to_have_text(["Treasure", "Art", "Armor", "Gems"])
        tapestries = page.locator(f"{sheet} fieldset.counts").nth(1)
        expect(tapestries.locator("label")).to_have_text(["Tapestry 1", "Tapestry 2",
                                                          "Tapestry 3"])
        expect(page.locator(f"{sheet} input[name='f:keep_spoils']")).to_have_count(0)
    version = 0
    taps = [("Treasure plus one", 0), ("Treasure plus one", 1), ("Gems plus one", 2),
            ("Tapestry 1 plus one", 0), ("Tapestry 2 plus one", 1), ("Tapestry 3 plus one", 2),
            ("Tapestry 3 plus one", 0)]
    for name, who in taps:
        phones[who].locator(sheet).get_by_role("button", name=name, exact=True).click()
        version += 1
        for page in phones:
            expect(page.locator("#play")).to_have_attribute("data-version", str(version))
    for page in phones:
        expect(page.locator(f"{sheet} #f-4-Alexandra-Treasure")).to_have_value("2")
        expect(page.locator(f"{sheet} #f-4-Alexandra-Gems")).to_have_value("1")
        expect(page.locator(f"{sheet} #f-5-Alexandra-3")).to_have_value("2")
    state = json.load(urllib.request.urlopen(urllib.request.Request(
        f"{live_server.url}/api/v1/plays/{play['id']}",
        headers={"Authorization": f"Bearer {play['edit_token']}"})))["state"]
    assert state["sheets"]["Alexandra"]["keep_spoils"] == {"Treasure": 2, "Gems": 1}
    assert state["sheets"]["Alexandra"]["tapestries"] == {"1": 1, "2": 1, "3": 2}
    why = phones[0].locator("#score-how")
    why.locator("summary").click()
    expect(why).to_contain_text("Treasure 2 as sets of 2 = 3")
    expect(why).to_contain_text("Gems 1 as sets of 1 = 2")
    expect(why).to_contain_text("1 set of 3 different at 15 and 1 other tapestry at 2")
