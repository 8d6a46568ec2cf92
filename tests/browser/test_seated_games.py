"""Each phone is a seat (issue 24): three phones bound to three seats by their seat links play
a whole game of Explorers, of Reavers (its pawn placement) and of Shipwrights (its draft and
actions) in one headless Chromium, with "own seat only". At each End turn "Your turn" leaves
the phone that ended it and shows on the next one through the live push; the other phones
say whose turn it is and offer no turn controls; the game reaches its end; the players' times
(with the time that was nobody's turn) add up to the game clock within 1 s.

Knarr and the Seafarers race are played the same way in test_seats.py. What these tests are
not about goes through the API with the host's edit token, said at each place: the host's
phase steps between turns and its End game (the host's page controls are covered by
test_reavers.py, test_shipwrights.py and test_explorers.py). Each seat says on its own phone
that it has nothing more to enter, and the result is final."""
from __future__ import annotations

import json
import os

import pytest

from tests.browser.test_first_screen import on_first_screen
from tests.browser.test_shipwrights import TEST_CATALOGUE
from tests.conftest import owner_headers

pytestmark = pytest.mark.browser
NAMES = ["Ann", "Bo", "Cy"]


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


class Table:
    """A seated play: the host (its edit token, for the API) and a phone per seat."""

    def __init__(self, phone, server, game, catalogue=None, **body):
        self.base, self.host = server.url, phone()
        if catalogue is not None:
            reply = self.host.request.put(f"{self.base}/api/v1/catalogue/{game}",
                                          data=catalogue, headers=owner_headers(server.app))
            assert reply.ok, reply.text()
        reply = self.host.request.post(f"{self.base}/api/v1/plays", data=json.dumps({
            "game": game, "players": NAMES, "seat_edits": "own", **body}),
            headers={"Content-Type": "application/json"})
        assert reply.status == 201, reply.text()
        self.play = reply.json()
        self.phones = {}
        for seat in self.play["seats"]:
            page = phone()
            page.goto(f"{self.base}/plays/{self.play['id']}/{seat['token']}")
            expect()(page.locator(".seat-me")).to_have_text(f"This phone: {seat['name']}")
            self.phones[seat["name"]] = page

    def state(self) -> dict:
        reply = self.host.request.get(f"{self.base}/api/v1/plays/{self.play['id']}", headers={
            "Authorization": f"Bearer {self.play['edit_token']}"})
        return reply.json()["state"]

    def host_event(self, kind: str, **data) -> dict:
        """A step of the host's (not what these tests are about): through the API."""
        reply = self.host.request.post(
            f"{self.base}/api/v1/plays/{self.play['id']}/events",
            data=json.dumps({"type": kind, "data": data}), headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {self.play['edit_token']}"})
        assert reply.ok, reply.text()
        return reply.json()["state"]

    def turn_is(self, name: str, control: str, everyone: bool = True) -> None:
        """``name``'s phone says "Your turn"; with ``everyone``, the other phones say whose
        turn it is and offer no turn control (the selector ``control``)."""
        expect()(self.phones[name].locator("#your-turn")).to_have_text(f"Your turn, {name}")
        if not everyone:
            return
        for other, page in self.phones.items():
            if other != name:
                expect()(page.locator("#whose-turn")).to_have_text(f"{name}'s turn")
                assert page.locator(control).count() == 0

    def at_once(self, acting: list[str], control: str, everyone: bool = True) -> None:
        """A phase the whole table plays at once: every phone not yet done says "Your turn"
        and offers its own control; a phone that is done waits for the others (with not
        ``everyone``: the phones still at it)."""
        waiting = {1: "{}", 2: "{} and {}", 3: "{}, {}, and {}"}[len(acting)].format(*acting)
        for name, page in self.phones.items():
            if not everyone and name not in acting:
                continue
            if name in acting:
                expect()(page.locator("#your-turn")).to_have_text(f"Your turn, {name}")
                expect()(page.locator(control)).to_have_count(1)
            else:
                expect()(page.locator("#whose-turn")).to_have_text(f"Waiting for {waiting}")
                assert page.locator(control).count() == 0

    def ended(self) -> dict:
        """The end: no phone shows a turn; the players' times add up to the clock."""
        for page in self.phones.values():
            expect()(page.locator("#play")).to_have_attribute("data-finished", "true")
            assert page.locator("#your-turn").count() == 0
        state = self.state()
        clock = state["clock"]
        times = sum(p["elapsed_s"] for p in clock["players"].values())
        assert abs(times + clock["off_turns_s"] - clock["elapsed_s"]) <= 1
        return state

    def nothing_more(self) -> None:
        """Each seat says on its own phone that it has nothing more to enter (offered no
        such button for another seat)."""
        for name, page in self.phones.items():
            expect()(page.locator("#to-enter button")).to_have_count(1)   # its own only
            page.get_by_role("button", name=f"{name} has nothing more to enter").click()
            for each in self.phones.values():        # every phone has it before the next tap
                expect()(each.locator(f"#to-enter li[data-player='{name}']")).to_have_count(0)
        for page in self.phones.values():
            expect()(page.get_by_role("heading", name="Final ranking")).to_be_visible()


def shot(table: Table, name: str) -> None:
    """Screenshots of every phone, to look at (SHOTS=folder), else none."""
    folder = os.environ.get("SHOTS")
    for seat, page in table.phones.items() if folder else ():
        page.screenshot(path=f"{folder}/{name}-{seat}.png")


def test_three_seated_phones_play_a_whole_game_of_explorers(phone, live_server):
    table = Table(phone, live_server, "explorers", seed=4)
    order = table.state()["table"]["turn_order"]
    total = table.state()["table"]["total_turns"]
    end_turn = "button.g-explorers-end-turn"
    for turn in range(total):
        name = order[turn % 3]
        # every phone checked on the first and the last round; between them the phone whose
        # turn it is (the turn still moves from phone to phone at each End turn)
        table.turn_is(name, end_turn, everyone=turn < 3 or turn >= total - 3)
        if turn == 1:
            shot(table, "explorers-turn")
            on_first_screen(table.phones[name].locator(end_turn), "End turn on a seat's phone")
        label = "End the last turn" if turn == total - 1 else f"End {name}'s turn"
        table.phones[name].get_by_role("button", name=label).click()
    for page in table.phones.values():
        expect()(page.locator(end_turn)).to_have_count(0)
        assert page.locator("#your-turn").count() == 0
    table.host_event("finish")                 # the host's End game (test_explorers.py)
    state = table.ended()
    assert all(p["turns"] == total // 3 for p in state["clock"]["players"].values())
    table.nothing_more()


def test_three_seated_phones_play_a_whole_game_of_reavers(phone, live_server):
    table = Table(phone, live_server, "reavers", seed=11)
    locations = ["Raid Keeps", "Trade with Villages", "Battle at Sea", "Recruit Reavers"]
    pawn = "button.g-reavers-loc"
    for number in range(1, 7):
        state = table.state()
        assert (state["round"], state["phase"]) == (number, "actions")
        for location in locations:
            name = table.state()["table"]["next_player"]
            table.turn_is(name, pawn)
            if number == 1 and location == locations[1]:
                shot(table, "reavers-pawns")
                on_first_screen(table.phones[name].locator(pawn).first,
                                "a free location on a seat's phone")
            page = table.phones[name]
            page.locator(pawn, has_text=location).click()
            expect()(page.locator(".g-reavers-loc", has_text=location)).to_contain_text(name)
        for page in table.phones.values():      # every pawn placed: nobody's turn
            expect()(page.locator("#your-turn")).to_have_count(0)
            expect()(page.locator("#whose-turn")).to_have_count(0)
        # the host's cleanup and next round (its page's buttons: test_reavers.py)
        table.host_event("advance")
        table.host_event("advance")
    state = table.ended()
    assert all(p["turns"] >= 6 for p in state["clock"]["players"].values())
    assert sum(p["turns"] for p in state["clock"]["players"].values()) == 24
    table.nothing_more()


def test_three_seated_phones_play_a_whole_game_of_shipwrights(phone, live_server):
    """Shipwrights' draft and actions are every player's turn at once (the rulebook: "Players
    simultaneously take actions"): "Your turn" leaves each phone as its seat says it is done,
    and the last one's "done" starts the next phase on every phone."""
    # the box data's Round Cards (made up for the tests): the app deals and reveals them
    table = Table(phone, live_server, "shipwrights", catalogue=TEST_CATALOGUE, seed=7)
    done = "#sw-done button"
    for number in range(1, 6):
        table.host_event("advance")              # the host: reveal -> draft (test_shipwrights)
        for phase, label in (("draft", "I have my 6 cards"),
                             ("actions", "Done: all my cards played")):
            acting = list(NAMES)
            for k in range(3):
                # every phone checked in the first and the last round; between them the
                # phones still at it
                table.at_once(acting, done, everyone=number in (1, 5))
                name = NAMES[(number + k) % 3]    # a different seat is last each round
                page = table.phones[name]
                if number == 1 and phase == "draft" and k == 1:
                    shot(table, "shipwrights-draft")
                    on_first_screen(page.locator(done), "the seat's done button")
                if phase == "actions" and number == 1:    # its own track, on its own phone
                    marker = page.locator(f".g-sw-player[data-player='{name}'] .g-sw-track"
                                          "[data-track='trade'] > .g-sw-move .g-sw-pos")
                    was = int(marker.inner_text())
                    page.get_by_role(
                        "button", name=f"Move {name}'s Trade marker forward one space").click()
                    expect()(marker).to_have_text(str(was + 1))
                page.get_by_role("button", name=label).click()
                acting.remove(name)
        for page in table.phones.values():       # income: the whole table's, nobody's turn
            expect()(page.locator(".phase")).to_have_text("income")
            assert page.locator("#your-turn").count() == 0
        table.host_event("advance")              # income -> heroes
        table.host_event("advance")              # heroes -> the next round (or the end)
    state = table.ended()
    assert all(p["turns"] == 10 for p in state["clock"]["players"].values()), state["clock"]
    table.nothing_more()
