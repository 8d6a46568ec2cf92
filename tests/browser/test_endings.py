"""How a game ends, on three phones at one table (issue 21: no early winner; the race).

Reavers: after round 6 every phone shows a provisional ranking and, per player, the end-game
rows still to enter (artifacts, favor, keep spoils, tapestries, walls, prophecies); the result
turns final on every phone once each player has entered them or tapped "Nothing more".
Seafarers: the game ends on the sheet change that brings the player whose turn it is to the
target, with no "Next turn" tap; a player who reached it on another's turn waits for their own
turn, and of two players at the target only the one whose turn it is wins; the undo of the
winning change lets the game go on.
"""
from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bo", "Cy"]
PAWNS = ("recruit_reavers", "raid_villages", "raid_keeps", "battle_at_sea")
SHOTS = "/tmp/rules-shots"


def api(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(
        base + path, method="POST" if body is not None else "GET",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def event(base: str, play: dict, kind: str, **data) -> dict:
    return api(base, f"/api/v1/plays/{play['id']}/events", {"type": kind, "data": data},
               play["edit_token"])["state"]


def three_phones(phone, url: str) -> list:
    pages = []
    for scheme in ("light", "dark", "light"):
        page = phone(color_scheme=scheme)
        page.goto(url)
        pages.append(page)
    return pages


def shot(page, name: str) -> None:
    import os

    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}", full_page=True)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"


def open_sheet(page, name: str):
    # the sheet whose heading is the name ("Bo" is also in "on the board")
    sheet = page.locator("details.sheet").filter(
        has=page.locator("summary h3", has_text=re.compile(f"^{name}$")))
    if sheet.get_attribute("open") is None:
        sheet.locator("summary").click()
    return sheet


def to_enter(page):
    return page.locator("#to-enter li")


# --------------------------------------------------------------------------- Reavers
def test_reavers_ending_is_provisional_until_every_end_game_row_is_in(live_server, phone):
    base = live_server.url
    play = api(base, "/api/v1/plays", {"game": "reavers", "players": PLAYERS, "seed": 11})
    for name, glory in zip(PLAYERS, (9, 20, 6), strict=True):
        event(base, play, "sheet", player=name, fields={"glory": glory})
    for _ in range(5):                       # rounds 1-5 by the API: the phones see round 6
        for location in PAWNS:
            event(base, play, "place", location=location)
        event(base, play, "advance")
        event(base, play, "advance")
    for location in PAWNS:
        event(base, play, "place", location=location)
    event(base, play, "advance")             # round 6 cleanup
    ann, bo, cy = three_phones(phone, base + urlsplit(play["edit_url"]).path)
    expect(ann.locator(".g-reavers-panel")).to_be_visible()
    ann.locator(".g-reavers-panel").get_by_role("button", name="Final scoring →").tap()

    # every phone: game over, a provisional ranking, no winner, the rows still to enter
    for page in (ann, bo, cy):
        expect(page.locator("#play")).to_have_attribute("data-finished", "true")
        expect(page.get_by_role("heading", name="Game over · Provisional ranking")).to_be_visible()
        expect(page.locator(".winner[data-final='false']")).to_contain_text("Provisional:")
        expect(page.locator(".winner")).not_to_contain_text("wins")
        expect(to_enter(page)).to_have_count(3)
        for name in PLAYERS:
            expect(to_enter(page).filter(has_text=name)).to_contain_text(
                f"{name}: Artifacts, Favor, Keep spoils, Tapestries, Walls, Prophecies")
    shot(bo, "reavers-provisional-dark.png")
    no_sideways_scroll(bo)

    # Ann types her artifacts and steps her favor on her phone: those rows leave her line on
    # every phone, the others stay
    sheet = open_sheet(ann, "Ann")
    version = int(ann.locator("#play").get_attribute("data-version"))
    box = sheet.get_by_label("Artifacts (glory of each) (numbers, comma separated)")
    box.fill("3, 2")
    box.dispatch_event("change")
    expect(ann.locator("#play")).to_have_attribute("data-version", str(version + 1))
    open_sheet(ann, "Ann").get_by_role("button", name="Favor tokens left plus one").tap()
    for page in (ann, bo, cy):
        expect(to_enter(page).filter(has_text="Ann")).to_contain_text(
            "Ann: Keep spoils, Tapestries, Walls, Prophecies")
    # then each player says there is nothing more, each on their own phone
    for page, name in ((ann, "Ann"), (bo, "Bo")):
        page.get_by_role("button", name=f"{name} has nothing more to enter").tap()
        for other in (ann, bo, cy):
            expect(to_enter(other).filter(has_text=name)).to_have_count(0)
    for page in (ann, bo, cy):                 # Cy's rows are still missing: no winner yet
        expect(page.get_by_role("heading", name="Game over · Provisional ranking")).to_be_visible()
    cy.get_by_role("button", name="Cy has nothing more to enter").tap()

    # final on every phone: Bo's 20 beats Ann's 9 + 5 artifacts + 2 favor
    for page in (ann, bo, cy):
        expect(page.get_by_role("heading", name="Game over · Final ranking")).to_be_visible()
        expect(page.locator(".winner[data-final='true']")).to_have_text("Bo wins")
        expect(page.locator("#to-enter")).to_have_count(0)
    shot(cy, "reavers-final.png")
    no_sideways_scroll(cy)


# --------------------------------------------------------------------------- Seafarers
def test_seafarers_ends_on_the_turn_a_player_reaches_the_target(live_server, phone):
    base = live_server.url
    play = api(base, "/api/v1/plays", {"game": "seafarers", "players": PLAYERS, "seed": 3,
                                       "options": {"scenario": "four_islands",
                                                   "layout": "variable"}})
    phones = three_phones(phone, base + urlsplit(play["edit_url"]).path)
    first = phones[0]
    on_turn = first.locator("[data-turn]").get_attribute("data-turn")
    # a turn passes on one phone; every phone follows
    first.once("dialog", lambda dialog: dialog.accept())     # nothing entered yet: it asks
    first.get_by_role("button", name="Next turn →").tap()
    seats = PLAYERS[PLAYERS.index(on_turn):] + PLAYERS[:PLAYERS.index(on_turn)]
    on_turn, waiting = seats[1], seats[2]
    for page in phones:
        expect(page.locator("[data-turn]")).to_have_attribute("data-turn", on_turn)

    def set_sheet(page, name, label, value):
        field = open_sheet(page, name).get_by_label(label, exact=True)
        field.fill(str(value))
        field.dispatch_event("change")

    # the waiting player reaches 13 during another's turn: shown, but the game goes on
    set_sheet(phones[1], waiting, "Settlements on the board", 5)
    expect(phones[1].locator(f".g-seafarers-race li[data-player='{waiting}'] [data-vp]")
           ).to_have_text("5 / 12")
    set_sheet(phones[1], waiting, "Cities on the board", 4)
    for page in phones:
        expect(page.locator("[data-race-waiting]")).to_contain_text(
            f"{waiting} wins as their own turn begins")
        expect(page.locator("#play")).to_have_attribute("data-finished", "false")
    # the player whose turn it is reaches 12 on their own phone: over at once, they alone win
    set_sheet(phones[2], on_turn, "Settlements on the board", 4)
    set_sheet(phones[2], on_turn, "Cities on the board", 4)
    for page in phones:
        expect(page.locator("#play")).to_have_attribute("data-finished", "true")
        expect(page.locator(".g-seafarers-winner")).to_contain_text(f"{on_turn} wins!")
        expect(page.locator(".g-seafarers-winner")).to_contain_text("on their own turn")
        expect(page.get_by_role("heading", name="Game over · Final ranking")).to_be_visible()
        expect(page.locator(".winner[data-final='true']")).to_have_text(f"{on_turn} wins")
        expect(page.get_by_role("button", name="Next turn →")).to_have_count(0)
        expect(page.locator(".tiebreak").first).to_contain_text(
            "only the player whose turn it is wins")
    state = api(base, f"/api/v1/plays/{play['id']}", token=play["view_token"])["state"]
    assert state["score"]["winners"] == [on_turn] and state["table"]["turn"] == 2
    shot(phones[1], "seafarers-won.png")
    no_sideways_scroll(phones[1])

    # the cities were a typing mistake: that phone's own Undo takes them back and the game
    # goes on, on the same turn, on every phone
    undo = phones[2].locator("[data-undo-mine]")
    expect(undo).to_contain_text(f"{on_turn}'s sheet: Cities on the board 4")
    undo.tap()
    for page in phones:
        expect(page.locator("#play")).to_have_attribute("data-finished", "false")
        expect(page.locator("[data-turn]")).to_have_attribute("data-turn", on_turn)
        expect(page.get_by_role("button", name="Next turn →")).to_be_visible()
        expect(page.locator(".g-seafarers-winner")).to_have_count(0)
    state = api(base, f"/api/v1/plays/{play['id']}", token=play["view_token"])["state"]
    assert state["finished"] is False and state["sheets"][on_turn]["cities"] == 0
