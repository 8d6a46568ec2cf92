"""Shipwrights on a phone: a 2-player game through all 5 rounds with a filled box catalogue.

The card data below is made up for this test (no rulebook publishes it); the product ships none.
The test keeps its own sums of the revealed cards' icons and of its own taps, and checks the
page against them: neutral markers, track positions, heroes, then the final sheets and ranking.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.owner import owner_key
from tests.conftest import owner_headers

pytestmark = pytest.mark.browser

TRACKS = ("military", "trade", "renown")
NAMES = {"military": "Military", "trade": "Trade", "renown": "Renown"}
HEROES = {"military": "svend", "trade": "thyra", "renown": "frode"}


def icons(m, t, r):
    return {"military": m, "trade": t, "renown": r}


TEST_CARDS = [("T1", icons(1, 0, 1)), ("T2", icons(0, 2, 0)), ("T3", icons(1, 1, 1)),
              ("T4", icons(2, 0, 0)), ("T5", icons(0, 0, 2)), ("T6", icons(0, 1, 0))]
TEST_CATALOGUE = {
    "round_cards": [{"id": cid, "icons": ic, "solo_vp": 2, "draft": "clockwise",
                     "trades": ["TEST trade"]} for cid, ic in TEST_CARDS],
    "huts": {"1": "military", "2": "trade", "3": "renown", "4": "military", "5": "trade",
             "6": "renown"},
    "track_vp": {"15": 1, "16": 2, "17": 3, "18": 4},
    "nemesis": [{"id": f"N{i}", "icons": icons(1, 0, 0)} for i in range(1, 5)],
}
ICONS = dict(TEST_CARDS)
# Each round's taps in the actions phase: (player, track, steps as single taps).
TAPS = [("Ann", "military", 2), ("Bo", "trade", 1), ("Bo", "renown", 1)]


def shots_dir(tmp_path: Path) -> Path:
    """Screenshots go to tmp_path, or to SHOTS_DIR to look at them after the run."""
    folder = Path(os.environ.get("SHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"


def position(page, player, track):
    return page.locator(f".g-sw-player[data-player='{player}'] .g-sw-track[data-track='{track}']"
                        " > .g-sw-move .g-sw-pos")


def sole_leader(markers, track):
    best = max(m[track] for m in markers.values())
    leaders = [name for name, m in markers.items() if m[track] == best]
    return leaders[0] if len(leaders) == 1 else None


def holder_text(name):
    return {None: "nobody", "neutral": "the neutral player"}.get(name, name)


def start_play(live_server, page):
    response = page.request.put(live_server.url + "/api/v1/catalogue/shipwrights",
                                data=TEST_CATALOGUE, headers=owner_headers(live_server.app))
    assert response.ok, response.text()
    page.goto(live_server.url + "/new?game=shipwrights")
    page.get_by_label("Seat 1", exact=True).fill("Ann")
    page.get_by_label("Seat 2", exact=True).fill("Bo")
    page.get_by_label("Seed", exact=False).fill("7")
    page.get_by_role("button", name="Set up the game").click()
    expect(page.get_by_role("heading", name="Round 1 of 5")).to_be_visible()


def read_setup(page):
    """The dealt Round Cards and each player's Hut track, as the Setup section shows them."""
    setup = page.locator("#setup-details")
    if setup.get_attribute("open") is None:     # open at the top at version 0
        setup.locator("summary").first.click()
    order = [t.strip() for t in page.locator(".g-sw-order li").all_inner_texts()]
    hut_tracks = {}
    for name in ("Ann", "Bo"):
        text = page.locator(f".g-sw-huts li[data-player='{name}']").inner_text()
        hut_tracks[name] = next(t for t in TRACKS if f"+1 {NAMES[t]}" in text)
    return order, hut_tracks


def advance(page, expected_phase):
    page.get_by_role("button", name="Next phase →", exact=True).click()
    expect(page.locator(".g-sw-phases li[aria-current=step]")).to_have_text(expected_phase)


def tap(page, player, track, expected):
    page.get_by_role("button", name=f"Move {player}'s {NAMES[track]} marker forward one "
                                    "space").click()
    expect(position(page, player, track)).to_have_text(str(expected))


def play_round(page, n, order, tracks, neutral):
    card = order[n - 1]
    for track in TRACKS:                      # the neutral markers moved by themselves
        neutral[track] += ICONS[card][track]
    expect(page.get_by_role("heading", name=f"Round Card {card}")).to_be_visible()
    for track in TRACKS:
        expect(position(page, "neutral", track)).to_have_text(str(neutral[track]))
    advance(page, "Draft")
    expect(page.locator(".g-sw-steps")).to_contain_text("Ann to Bo, Bo to Ann")
    advance(page, "Actions")
    for player, track, taps in TAPS:
        for _ in range(taps):
            tracks[player][track] += 1
            tap(page, player, track, tracks[player][track])
            if tracks[player][track] in (4, 8, 12):
                expect(page.locator(".g-sw-reminders")).to_contain_text(
                    f"{player} reached {NAMES[track]} {tracks[player][track]}")
    advance(page, "Income")
    advance(page, "Heroes")
    markers = {**tracks, "neutral": neutral}
    heroes_card = page.locator(".g-sw-heroes")
    for track in TRACKS:
        expect(heroes_card.locator(f"[data-hero='{HEROES[track]}'] dd")).to_have_text(
            holder_text(sole_leader(markers, track)))
    holders = {sole_leader(markers, t) for t in TRACKS}
    randi = [p for p in ("Ann", "Bo") if p not in holders]
    expect(heroes_card.locator("[data-hero='randi'] dd")).to_have_text(", ".join(randi) or
                                                                        "nobody")
    if n < 5:
        advance(page, "Reveal")
        expect(page.get_by_role("heading", name=f"Round {n + 1} of 5")).to_be_visible()


def sheet_of(page, player):
    return page.locator("details.sheet").filter(
        has=page.get_by_role("heading", name=player, exact=True))


def fill_sheet(page, player, values, bonus=None):
    if sheet_of(page, player).get_attribute("open") is None:
        sheet_of(page, player).locator("summary").click()
    for label, value in values:
        version = int(page.locator("#play").get_attribute("data-version"))
        field = sheet_of(page, player).get_by_label(label, exact=True)
        field.fill(str(value))
        field.dispatch_event("change")
        expect(page.locator("#play")).to_have_attribute("data-version", str(version + 1))
        expect(sheet_of(page, player).get_by_label(label, exact=True)).to_have_value(str(value))
    if bonus:
        sheet_of(page, player).get_by_role("button", name=f"{bonus} plus one").click()
        expect(sheet_of(page, player).get_by_label(bonus, exact=True)).to_have_value("1")


def test_two_players_play_five_rounds_on_a_phone(live_server, phone, tmp_path):
    shots = shots_dir(tmp_path)
    page = phone()
    start_play(live_server, page)
    order, hut_tracks = read_setup(page)
    assert len(order) == 5 and set(order) <= set(ICONS)
    tracks = {p: dict.fromkeys(TRACKS, 0) for p in ("Ann", "Bo")}
    for player, track in hut_tracks.items():
        tracks[player][track] += 1
        expect(position(page, player, track)).to_have_text("1")
    neutral = dict.fromkeys(TRACKS, 0)
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "sw-round1-light.png"), full_page=True)

    for n in range(1, 6):
        play_round(page, n, order, tracks, neutral)
    dark = phone(color_scheme="dark")
    dark.goto(page.url)
    expect(dark.locator(".g-sw-phases li[aria-current=step]")).to_have_text("Heroes")
    no_sideways_scroll(dark)
    dark.screenshot(path=str(shots / "sw-heroes-dark.png"), full_page=True)

    page.get_by_role("button", name="Next phase →", exact=True).click()
    # the end-game rows are still to enter: a provisional ranking, no winner yet
    expect(page.get_by_role("heading", name="Game over · Provisional ranking")).to_be_visible()
    expect(page.locator("#to-enter li")).to_have_count(2)
    longships = "Longships: VP printed on constructed Longships"
    fill_sheet(page, "Ann", [(longships, 10), ("Gold (1 VP each)", 3),
                             ("Oak + Wool + Iron left (tie-break)", 1)])
    fill_sheet(page, "Bo", [(longships, 9), ("Unique Buildings (Huts count)", 2),
                            ("Gold (1 VP each)", 2), ("Oak + Wool + Iron left (tie-break)", 3)],
               bonus="1 VP per unique Building (Huts count)")
    expect(page.locator("tfoot td[data-player='Ann']")).to_have_text("13")
    expect(page.locator("tfoot td[data-player='Bo']")).to_have_text("13")
    # tied on 13: the workers, the second tie-break, are asked of both
    expect(page.locator("#to-enter li").first).to_contain_text("Workers in supply (tie-break)")
    for name in ("Ann", "Bo"):
        page.get_by_role("button", name=f"{name} has nothing more to enter").click()
        expect(page.locator("#to-enter li", has_text=name)).to_have_count(0)
    expect(page.get_by_role("heading", name="Game over · Final ranking")).to_be_visible()
    expect(page.locator(".winner")).to_contain_text("Bo wins")
    expect(page.locator(".tiebreak")).to_have_text(re.compile(
        r"(Ann and Bo|Bo and Ann) tied on 13; "
        r"Bo wins with the most Oak, Wool and Iron \(3 against 1\)\."))
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "sw-final-light.png"), full_page=True)
    dark.reload()
    expect(dark.locator(".tiebreak")).to_be_visible()
    dark.screenshot(path=str(shots / "sw-final-dark.png"), full_page=True)


def test_box_data_form_and_typed_round_card_on_a_phone(live_server, phone, tmp_path):
    """With no Round Cards in the box data, the table types each card in; the form adds one."""
    shots = shots_dir(tmp_path)
    page = phone(color_scheme="dark")
    page.goto(f"{live_server.url}/owner/{owner_key(live_server.app)}")   # the owner's phone
    page.goto(live_server.url + "/catalogue/shipwrights")
    expect(page.get_by_role("heading", name="Still missing")).to_be_visible()
    page.get_by_label("Card id or title").first.fill("Harbour")
    page.get_by_role("button", name="Military plus one").first.click()
    page.get_by_role("button", name="Trade minus one").first.click()
    expect(page.locator("#card-0-military")).to_have_value("1")
    expect(page.locator("#card-0-trade")).to_have_value("0")
    page.get_by_role("button", name="Save box data").first.click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Round Card 1 ('Harbour') still needs its Renown icons and the draft arrows.")
    expect(page.locator("#card-0-renown")).to_be_focused()
    expect(page.locator("#card-0-military")).to_have_value("1")       # kept as typed
    page.get_by_role("button", name="+ Another Round Card").click()
    expect(page.locator("[data-sw-card-row]")).to_have_count(6)
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "sw-catalogue-dark.png"), full_page=True)

    page.goto(live_server.url + "/new?game=shipwrights")
    page.get_by_label("Seat 1", exact=True).fill("Ann")
    page.get_by_label("Seat 2", exact=True).fill("Bo")
    page.get_by_role("button", name="Set up the game").click()
    expect(page.get_by_role("heading", name="Round 1: turn over the Round Card")).to_be_visible()
    for track, taps in (("Military", 2), ("Renown", 1)):
        for _ in range(taps):
            page.get_by_role("button", name=f"{track} icons plus one").click()
    page.get_by_role("button", name="Trade icons minus one").click()
    page.get_by_label("Card id or title").fill("Fjord")
    page.get_by_role("button", name="Reveal this card").click()
    expect(page.get_by_role("heading", name="Round Card Fjord")).to_be_visible()
    expect(position(page, "neutral", "military")).to_have_text("2")
    expect(position(page, "neutral", "trade")).to_have_text("0")
    expect(position(page, "neutral", "renown")).to_have_text("1")
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "sw-typed-card-dark.png"), full_page=True)
