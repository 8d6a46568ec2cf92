"""Three phones (390x844) at one table, typing and undoing as people do.

- Every box of a row of kinds (Explorers' delivered livestock, Shipwrights' end-game bonus
  longships) typed one after another, at a person's pace and quickly, while the other phones
  type and tap: every box is its own change, none overwrites another.
- However a box is left, its number is saved: the next box, Enter, a tap elsewhere, a reload
  in the middle of typing (the number put back is sent), the screen locking, the back button,
  and the network cut while typing.
- Each phone's Undo takes back its own last change and names it; taking back another phone's
  change is a separate action that names it and asks; a redo is offered as a redo; pausing the
  clock is never offered as an undo.
- One tap that ends a turn says what it did, with a one-tap undo; Knarr's "Pass turn" before
  anything is entered asks first.
- A form sent whole (Knarr's turn, Shipwrights' Round Card typed in), once recorded, shows the
  next turn's or round's own values, on every phone (what another phone typed in it included)
  and after a reload.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_every_tap import api, settled, sheet, state

pytestmark = pytest.mark.browser

# Per game: the players, the row of kinds and the labels of its boxes on the page (each
# kind's key on the server in KEYS, where the label is not the key).
ROWS = {
    "explorers": (["Ann", "Bo", "Cy"], "livestock",
                  ["Pigs", "Chickens", "Goats", "Sheep", "Cattle", "Horses"]),
    "shipwrights": (["Ann", "Bo", "Cy"], "longship_bonuses",
                    ["1 VP per unique Building (Huts count)",
                     "3 VP per set of Raid Card + Trade Card + Upgrade",
                     "1 VP per unique Longship (Eikjas count)", "2 VP per Raid Card",
                     "2 VP per Trade Card", "2 VP per Upgrade"]),
    "reavers": (["Ann", "Bo", "Cy"], "keep_spoils", ["Treasure", "Art", "Armor"]),
}
KEYS = dict(zip(ROWS["explorers"][2], ["pig", "chicken", "goat", "sheep", "cattle", "horse"],
                strict=True)) | dict(zip(ROWS["shipwrights"][2], [
                    "unique_buildings", "raid_trade_upgrade_sets", "unique_longships",
                    "raid_cards", "trade_cards", "upgrades"], strict=True))
SIX = ["explorers", "shipwrights"]      # rows of six kinds
PACE = 800       # ms between boxes at a person's pace: a tap on the box, a digit, on to the next
HIDE = """hidden => {
    Object.defineProperty(document, "visibilityState", {value: hidden ? "hidden" : "visible",
                                                        configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def new_play(server, game, players, seed=7):
    play = api(server, "POST", "/api/v1/plays", {"game": game, "players": players, "seed": seed})
    play["path"] = "/" + play["edit_url"].split("/", 3)[3]
    return play


def phones(phone, server, play, count=3, first=None):
    """``count`` phones on the play (a phone opened from ``first`` has a page to go back to)."""
    out = []
    for i in range(count):
        page = phone()
        if first and i == 0:
            page.goto(server.url + first)
        page.goto(server.url + play["path"])
        expect(page.locator("#play")).to_be_visible()
        out.append(page)
    return out


def eventually(page, holds, seconds=5):
    """Wait (on ``page``'s clock) until ``holds()`` is true; fail after ``seconds``."""
    for _ in range(seconds * 10):
        if holds():
            return
        page.wait_for_timeout(100)
    assert holds()


def box(page, player, kind):
    return sheet(page, player).get_by_label(kind, exact=True)


def kinds_on_server(server, play, game, player):
    """{page label of a kind: its count} as the server holds it."""
    _, row, labels = ROWS[game]
    value = state(server, play)["sheets"][player].get(row) or {}
    if isinstance(value, list):
        value = {k: value.count(k) for k in value}
    return {label: value.get(KEYS.get(label, label), 0) for label in labels}


def type_row(page, player, kinds, values, pace, how):
    """Type each box in turn and leave it the way ``how`` says for that box."""
    for i, (kind, value) in enumerate(zip(kinds, values, strict=True)):
        field = box(page, player, kind)
        field.click()
        field.fill(str(value))
        leave = how[i % len(how)]
        if leave == "tab":
            field.press("Tab")
        elif leave == "enter":
            field.press("Enter")
        elif leave == "elsewhere":
            page.locator("#sheets-h").click()
        # "next": the next box's click leaves this one (the last is left by a tap elsewhere)
        elif i == len(kinds) - 1:
            page.locator("#sheets-h").click()
        if pace:
            page.wait_for_timeout(pace)


@pytest.mark.parametrize("pace", [PACE, 0], ids=["person", "quick"])
@pytest.mark.parametrize("game", sorted(ROWS))
def test_every_box_of_a_row_is_its_own_change(live_server, phone, game, pace):
    players, _, kinds = ROWS[game]
    play = new_play(live_server, game, players)
    a, b, c = phones(phone, live_server, play)
    mine = [1, 2, 1, 2, 1, 1][:len(kinds)]
    theirs = [2, 1, 0, 1, 2, 0][:len(kinds)]
    half = len(kinds) // 2 + 1
    # A types Ann's row; B types Bo's row meanwhile; C taps Cy's first kind up three times
    type_row(a, "Ann", kinds[:half], mine[:half], pace, ["next", "tab", "enter"])
    type_row(b, "Bo", kinds, theirs, pace // 2, ["tab", "elsewhere", "next", "enter"])
    for _ in range(3):
        sheet(c, "Cy").get_by_role("button", name=f"{kinds[0]} plus one", exact=True).click()
    type_row(a, "Ann", kinds[half:], mine[half:], pace, ["elsewhere", "enter", "next"])
    for page in (a, b, c):
        settled(page)
    assert kinds_on_server(live_server, play, game, "Ann") == dict(zip(kinds, mine, strict=True))
    assert kinds_on_server(live_server, play, game, "Bo") == dict(zip(kinds, theirs,
                                                                      strict=True))
    assert kinds_on_server(live_server, play, game, "Cy")[kinds[0]] == 3
    for page in (a, b, c):                      # every phone shows every box as recorded
        for kind, value in zip(kinds, mine, strict=True):
            expect(box(page, "Ann", kind)).to_have_value(str(value))
    a.reload()
    for kind, value in zip(kinds, mine, strict=True):
        expect(box(a, "Ann", kind)).to_have_value(str(value))


@pytest.mark.parametrize("game", SIX)
def test_a_box_left_by_a_reload_the_screen_locking_or_the_back_button_is_saved(
        live_server, phone, game):
    players, _, kinds = ROWS[game]
    play = new_play(live_server, game, players)
    a, b, _ = phones(phone, live_server, play, first="/")
    # a reload in the middle of typing: the number comes back on screen and is sent as it is
    type_row(a, "Ann", kinds[:1], [2], 0, ["tab"])
    field = box(a, "Ann", kinds[1])
    field.click()
    field.fill("1")
    a.reload()
    expect(box(a, "Ann", kinds[1])).to_have_value("1")
    settled(a)
    assert kinds_on_server(live_server, play, game, "Ann")[kinds[1]] == 1
    expect(box(b, "Ann", kinds[1])).to_have_value("1", timeout=5_000)
    # the screen locks while a box is being typed in
    field = box(a, "Ann", kinds[2])
    field.click()
    field.fill("2")
    a.evaluate(HIDE, True)
    eventually(b, lambda: kinds_on_server(live_server, play, game, "Ann")[kinds[2]] == 2)
    a.evaluate(HIDE, False)
    # the back button, the box still in focus: it goes out as the page goes
    field = box(a, "Ann", kinds[3])
    field.click()
    field.fill("1")
    a.go_back()
    expect(a).to_have_url(re.compile(r"/$"))
    eventually(b, lambda: kinds_on_server(live_server, play, game, "Ann")[kinds[3]] == 1)
    assert kinds_on_server(live_server, play, game, "Ann") == dict(
        zip(kinds, [2, 1, 2, 1, 0, 0], strict=True))
    assert state(live_server, play)["version"] == 4      # each once, none twice


def test_boxes_typed_with_the_network_cut_all_arrive(live_server, phone):
    game = "explorers"
    players, _, kinds = ROWS[game]
    play = new_play(live_server, game, players)
    a, b, c = phones(phone, live_server, play)
    a.context.set_offline(True)
    type_row(a, "Ann", kinds[:4], [1, 2, 3, 1], 300, ["tab", "next", "enter", "elsewhere"])
    expect(a.locator("#outbox")).to_contain_text("4 changes waiting")
    type_row(b, "Ann", kinds[4:], [2, 1], 0, ["tab"])      # another phone, on another kind
    sheet(c, "Ann").get_by_role("button", name=f"{kinds[0]} plus one", exact=True).click()
    field = box(a, "Ann", kinds[4])                     # typed over, not left, offline
    settled(b)
    settled(c)
    field.click()
    field.fill("3")
    a.context.set_offline(False)
    a.evaluate(HIDE, True)                              # and the screen locks
    a.evaluate(HIDE, False)
    settled(a)
    for page in (a, b, c):
        settled(page)
    # A's pig (1) arrives after C's tap: the typed box is set as typed, the tap was before it
    assert kinds_on_server(live_server, play, game, "Ann") == {
        "Pigs": 1, "Chickens": 2, "Goats": 3, "Sheep": 1, "Cattle": 3, "Horses": 1}


# --------------------------------------------------------------------------- undo
def undo_of(page):
    return page.locator("[data-undo-mine]")


def test_three_phones_undo_their_own_and_another_phones_deliberately(live_server, phone):
    game = "reavers"
    players = ["Ann", "Bo", "Cy"]
    play = new_play(live_server, game, players)
    a, b, c = phones(phone, live_server, play)
    for page, who in ((a, "Ann"), (b, "Bo"), (c, "Cy")):
        glory = sheet(page, who).get_by_label("Glory during play", exact=True)
        glory.fill("3")
        glory.press("Tab")
        settled(page)
    for page, who in ((a, "Ann"), (b, "Bo"), (c, "Cy")):
        page.reload()
        expect(undo_of(page)).to_have_text(f"↶ Undo: {who}'s sheet: Glory during play 3")
    expect(c.locator("[data-undo-other]")).to_have_count(0)     # the last change is C's own
    expect(b.locator("[data-undo-other]")).to_have_text(
        "↶ Undo another phone's change: Cy's sheet: Glory during play 3")
    # B takes back C's change, deliberately: it is named and asked first
    asked = []
    b.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    b.locator("[data-undo-other]").click()
    settled(b)
    assert asked == ["Take back the change another phone made: Cy's sheet: Glory during play 3?"]
    sheets = state(live_server, play)["sheets"]
    assert [sheets[p].get("glory", 0) for p in players] == [3, 3, 0]
    expect(undo_of(b)).to_have_text("↶ Undo: Bo's sheet: Glory during play 3")
    expect(b.locator("[data-redo]")).to_have_text("↷ Redo: Cy's sheet: Glory during play 3")
    undo_of(a).click()                                  # A's own, not the table's last
    settled(a)
    sheets = state(live_server, play)["sheets"]
    assert [sheets[p].get("glory", 0) for p in players] == [0, 3, 0]
    expect(a.locator("[data-redo]")).to_have_text("↷ Redo: Ann's sheet: Glory during play 3")
    expect(a.locator("body")).not_to_contain_text("the undo of")
    expect(undo_of(a)).to_be_disabled()
    undo_of(b).click()
    settled(b)
    a.locator("[data-redo]").click()
    settled(a)
    sheets = state(live_server, play)["sheets"]
    assert [sheets[p].get("glory", 0) for p in players] == [3, 0, 0]
    for page in (a, b, c):
        page.reload()
    expect(undo_of(a)).to_have_text("↶ Undo: Ann's sheet: Glory during play 3")
    expect(undo_of(c)).to_be_disabled()                 # C's change was taken back by B


def test_pausing_the_clock_is_never_offered_as_an_undo(live_server, phone):
    play = new_play(live_server, "knarr", ["Ann", "Bo", "Cy"])
    a, b, c = phones(phone, live_server, play)
    b.context.set_offline(True)          # B has not seen Ann's tap when its person pauses:
    sheet(a, "Ann").get_by_role("button", name="Score track VP plus one", exact=True).click()
    settled(a)
    b.locator("#clock-toggle").click()                  # pause (a score tap does not cross it)
    b.context.set_offline(False)
    settled(b)
    expect(b.locator("#clock-toggle")).to_contain_text("Resume clock")
    b.locator("#clock-toggle").click()                  # and resume
    settled(b)
    for page in (a, b, c):
        page.reload()
        expect(page.locator(".controls")).not_to_contain_text("clock")
        expect(page.locator("[data-undo-other]", has_text="clock")).to_have_count(0)
    expect(undo_of(a)).to_have_text("↶ Undo: Ann: Score track VP +1")
    expect(undo_of(b)).to_be_disabled()
    expect(c.locator("[data-undo-other]")).to_have_text(
        "↶ Undo another phone's change: Ann: Score track VP +1")
    undo_of(a).click()
    settled(a)
    now = state(live_server, play)
    assert now["sheets"]["Ann"]["vp"] == 0 and now["clock"]["running"] is True


# --------------------------------------------------------------------------- one tap ends
def test_knarr_pass_before_anything_is_entered_asks_first(live_server, phone):
    play = new_play(live_server, "knarr", ["Ann", "Bo", "Cy"])
    a, b, _ = phones(phone, live_server, play)
    first = state(live_server, play)["table"]["current_player"]
    asked = []
    a.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    a.get_by_role("button", name="Pass turn →").click()
    a.wait_for_timeout(500)
    assert asked == [f"Nothing has been entered yet. Pass {first}'s turn anyway?"]
    assert state(live_server, play)["version"] == 0          # dismissed: nothing passed
    a.once("dialog", lambda d: d.accept())
    a.get_by_role("button", name="Pass turn →").click()
    settled(a)
    assert state(live_server, play)["table"]["current_player"] != first
    note = a.locator(".tap-note.done")
    expect(note).to_contain_text(f"Done: {first} passed (reputation step only)")
    expect(undo_of(a)).to_have_text(f"↶ Undo: {first} passed (reputation step only)")
    note.get_by_role("button", name="↶ Undo").click()      # one tap takes it back
    settled(a)
    assert state(live_server, play)["table"]["current_player"] == first
    expect(a.locator("[data-redo]")).to_have_text(
        f"↷ Redo: {first} passed (reputation step only)")
    expect(b.locator("[data-redo]")).to_have_text("↷ Redo", timeout=5_000)   # A's, not B's


def test_the_next_players_turn_shows_their_own_numbers_not_the_last_turns(live_server, phone):
    """A turn's form is sent whole when the turn ends; once it is recorded, its boxes show the
    next player's own values (as a reload shows them), and that player's turn ended without a
    tap records nothing of the last player's numbers for them. (The typed numbers used to be
    kept as if still unsent: Bo's turn showed Ann's 3 and ending it gave Bo 3 VP.)"""
    play = new_play(live_server, "knarr", ["Ann", "Bo"])
    a, b = phones(phone, live_server, play, 2)
    first = state(live_server, play)["table"]["current_player"]
    second = "Bo" if first == "Ann" else "Ann"
    boxes = ("#knarr-repvp", "#knarr-vp", "#knarr-rep")
    for name, taps in (("Reputation VP", 3), ("VP gained", 2), ("Reputation space", 1)):
        for _ in range(taps):
            a.get_by_role("button", name=f"{name} plus one").tap()
    chips = a.locator("fieldset.g-knarr-chips").filter(has_text="Recruits")
    chips.locator("span", has_text=re.compile("^3$")).tap()
    assert [a.locator(box).input_value() for box in boxes] == ["3", "2", "1"]
    a.get_by_role("button", name=f"End {first}'s turn").tap()
    settled(a)
    turn = state(live_server, play)
    assert turn["table"]["current_player"] == second and turn["sheets"][first]["vp"] == 5
    expect(a.locator("[data-current-player]")).to_have_text(second)
    b.reload()                                     # what the next turn's boxes say
    expect(b.locator("[data-current-player]")).to_have_text(second)
    fresh = [b.locator(box).input_value() for box in boxes]
    assert fresh == ["0", "0", "0"]
    assert [a.locator(box).input_value() for box in boxes] == fresh
    checked = "fieldset.g-knarr-chips input:checked"
    assert a.locator(checked).evaluate_all("l => l.map(e => e.value)") == \
        b.locator(checked).evaluate_all("l => l.map(e => e.value)")
    a.reload()                                     # and nothing typed is put back
    assert [a.locator(box).input_value() for box in boxes] == fresh
    a.get_by_role("button", name=f"End {second}'s turn").tap()
    settled(a)
    after = state(live_server, play)
    assert after["table"]["current_player"] == first
    assert after["sheets"][second]["vp"] == 0 and after["sheets"][first]["vp"] == 5


def test_ending_a_turn_says_so_with_a_one_tap_undo(live_server, phone):
    play = new_play(live_server, "explorers", ["Ann", "Bo", "Cy"])
    (a,) = phones(phone, live_server, play, 1)
    first = state(live_server, play)["table"]["current_player"]
    a.get_by_role("button", name=f"End {first}'s turn").click()
    settled(a)
    note = a.locator(".tap-note.done")
    expect(note).to_contain_text(f"Done: End of {first}'s turn")
    a.screenshot(path="/tmp/typing-done-note.png")
    note.get_by_role("button", name="↶ Undo").click()
    settled(a)
    assert state(live_server, play)["table"]["current_player"] == first
    expect(a.get_by_role("button", name=f"End {first}'s turn")).to_be_visible()


def test_enter_in_an_islands_name_saves_it_and_taps_nothing(live_server, phone):
    """The island's form is sent whole on a change; the browser's own Enter would also have
    'tapped' its first button (one tile fewer)."""
    play = new_play(live_server, "explorers", ["Ann", "Bo", "Cy"])
    api(live_server, "POST", f"/api/v1/plays/{play['id']}/events",
        {"type": "add_island", "data": {"tiles": 4}}, play["edit_token"])
    (a,) = phones(phone, live_server, play, 1)
    name = a.get_by_label("Name of Island 1", exact=True)
    name.click()
    name.fill("Nordinsel")
    name.press("Enter")
    settled(a)
    island = state(live_server, play)["table"]["islands"][0]
    assert island["name"] == "Nordinsel" and island["tiles"] == 4
    assert state(live_server, play)["version"] == 2


# The forms sent whole that a person types into, per game: the players, the boxes, what phone A
# types and sends (phone B types too and sends nothing), the button, and the next turn's or
# round's own values. Every other game's panel holds only hidden fields and buttons in its
# whole forms (Explorers' island name is one form of its own, not a turn's; Seafarers' chip
# move is a list chosen anew each time).
WHOLE_FORMS = {
    "knarr": (["#knarr-repvp", "#knarr-vp", "#knarr-rep"], ["3", "2", "1"], ["1", "4", "2"],
              "End {first}'s turn", ["0", "0", "0"]),
    "shipwrights": (["#sw-rv-military", "#sw-rv-trade", "#sw-rv-renown", "#sw-rv-id"],
                    ["1", "2", "0", "R1"], ["3", "3", "3", "B9"], "Reveal this card",
                    ["", "", "", ""]),
}


@pytest.mark.parametrize("game", WHOLE_FORMS)
def test_a_whole_form_shows_the_next_turns_own_values_on_every_phone(live_server, phone, game):
    """Knarr's turn and Shipwrights' Round Card typed in (a table whose box data holds no
    cards) are sent whole. Phone A types and sends the form, phone B has typed in it too and
    sent nothing; once it is recorded, the next turn's (round's) form shows its own values on
    both phones and after a reload on each, and B's untouched turn records nothing of what
    either typed. (A's numbers used to stay typed and come back with a reload; B's stayed in
    the next player's boxes, and were recorded for them by B's next tap.)"""
    boxes, typed_a, typed_b, button, fresh = WHOLE_FORMS[game]
    play = new_play(live_server, game, ["Ann", "Bo"])
    a, b = phones(phone, live_server, play, 2)
    first = state(live_server, play)["table"].get("current_player")
    for page, values in ((b, typed_b), (a, typed_a)):
        for box, value in zip(boxes, values, strict=True):
            page.locator(box).fill(value)
    a.get_by_role("button", name=button.format(first=first)).tap()
    settled(a)
    if game == "knarr":
        assert state(live_server, play)["sheets"][first]["vp"] == 5
        second = "Bo" if first == "Ann" else "Ann"
        for page in (a, b):
            expect(page.locator("[data-current-player]")).to_have_text(second)
    else:
        assert state(live_server, play)["table"]["round_card"]["id"] == "R1"
        while (now := state(live_server, play))["round"] == 1:
            events = ([{"type": "done", "data": {"player": p}} for p in ("Ann", "Bo")]
                      if now["phase"] in ("draft", "actions") else [{"type": "advance"}])
            for event in events:
                api(live_server, "POST", f"/api/v1/plays/{play['id']}/events", event,
                    play["edit_token"])
        for page in (a, b):
            expect(page.get_by_role("heading", name="Round 2: turn over the Round Card")
                   ).to_be_visible()
    for reload in (False, True):                 # each phone, then each after a reload
        for page in (a, b):
            if reload:
                page.reload()
            expect(page.locator(boxes[0])).to_be_visible()
            assert [page.locator(box).input_value() for box in boxes] == fresh, (reload, page)
    if game == "knarr":                         # B ends the next turn: nothing typed counts
        b.get_by_role("button", name=f"End {second}'s turn").tap()
        settled(b)
        after = state(live_server, play)
        assert after["sheets"][second]["vp"] == 0 and after["sheets"][first]["vp"] == 5
