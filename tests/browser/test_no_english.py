"""A German and a French phone see no English sentence from the core, on any page of any game:
the new-play form, the play page at setup, mid-game and at the end, the table display, the
history and join pages, the box data page, and the refusals a change meets.

The English to look for is built from the message catalogue, not by hand: every message the
code says (the keywords `make i18n` extracts: say, say_in, RuleError), cut at its placeholders
into its fixed words; a piece of three words or more that its translation does not also hold
must not be on a German or French page."""
from __future__ import annotations

import json
import re
import urllib.request
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from .every_page import refuse

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\(\w+\)s")
WORD = re.compile(r"[A-Za-z]{2,}")
NAMES = ["Ann", "Bo"]


@cache
def said_ids() -> list[tuple[str | None, str | tuple[str, str]]]:
    """(context, id) of every message the code says (a counted one's: singular, plural)."""
    found = extract_from_dir(str(ROOT / "companion"), [("**.py", "python")], {}, keywords={
        "say": None, "say_in": ((1, "c"), 2), "say_n": (1, 2), "RuleError": None,
        "impossible": None})
    return sorted({(context, message) for _f, _l, message, _c, context in found
                   if (message if isinstance(message, str) else message[0]).strip()},
                  key=lambda item: (item[0] or "", str(item[1])))


@cache
def english_pieces(lang: str) -> dict[str, str]:
    """{English piece: the id it comes from} for the language's page to be free of."""
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    pieces = {}
    for context, shapes in said_ids():
        shapes = (shapes,) if isinstance(shapes, str) else shapes     # a counted one: both
        message = catalog.get(shapes[0], context=context)
        translation = (message.string if message is not None else "") or ""
        translation = " ".join(translation) if isinstance(translation, tuple) else translation
        for piece in (p for shape in shapes for p in PLACEHOLDER.split(shape.replace("%%", "%"))):
            piece = piece.strip(" .,;:()'\"\u2026")
            if len(WORD.findall(piece)) >= 3 and piece not in translation:
                pieces.setdefault(piece, shapes[0])
    return pieces


TEXT = """() => {
    const copy = document.body.cloneNode(true);
    copy.querySelectorAll("script, style, template, input, textarea, select").forEach(
        (el) => el.remove());
    const said = [...document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")]
        .flatMap((el) => ["aria-label", "title", "placeholder", "alt"].map(
            (name) => el.getAttribute(name) || ""));
    return [document.title, copy.textContent, ...said].join("\\n");
}"""


def english_on(page, lang: str) -> list[str]:
    text = " ".join(page.evaluate(TEXT).split())
    return sorted(f"{piece!r} (from {shape!r})" for piece, shape in english_pieces(lang).items()
                  if piece in text)


def api(live_server, path: str, body: dict | None = None, token: str | None = None):
    request = urllib.request.Request(
        live_server.url + path, method="POST" if body is not None else "GET",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def ev(kind: str, **data) -> dict:
    return {"type": kind, "data": data}


def reavers_rounds() -> list[dict]:
    """Every pawn placed and every round played out (cleanup, the Honor Ship, the end)."""
    events = []
    for _round in range(6):
        for location in ("raid_keeps", "battle_at_sea", "raid_villages", "recruit_reavers"):
            events.append(ev("place", location=location))
        events += [{"type": "advance"}, {"type": "advance"}]
    return events


def knarr_out_of_turn(state: dict) -> dict:
    other = next(n for n in NAMES if n != state["table"]["current_player"])
    return {"type": "turn", "data": json.dumps({"player": other, "vp_gained": 1})}


# game: (options, changes mid-game, changes to the end (then "advance" until it is over),
# a refused change as the page's form sends it, or how to make one from the state)
GAMES = {
    "explorers": ({"rocks_of_ruin": True}, [
        ev("add_island", tiles=4, name="Nord"), ev("add_island", tiles=3),
        ev("set_influence", island=0, player="Bo", add={"vikings": 2, "outposts": 1}),
        ev("update_island", island=0, complete=True), ev("turn"), ev("turn"),
        ev("sheet", player="Ann", add={"livestock": {"pig": 2}})], [
        ev("sheet", player="Ann", fields={"viking_deaths": 2, "enemy_ships": 1, "outposts": 1}),
        ev("sheet", player="Bo", fields={"viking_deaths": 2, "settlements": [2, 3]}),
        {"type": "finish"}],
        {"type": "sheet", "player": "Ann", "add:outposts": "-1"}),
    "knarr": ({"artifacts": True}, [
        ev("turn", vp_gained=5, recruits=2), ev("turn", vp_gained=3)], [
        ev("sheet", player="Ann", fields={"vp": 41, "recruits": 1, "bracelets": 1}),
        ev("sheet", player="Bo", fields={"vp": 41, "recruits": 2, "bracelets": 1})],
        knarr_out_of_turn),
    "reavers": ({}, [
        ev("territories", player="Ann", add=2), ev("start_player", player="Bo")],
        reavers_rounds(), {"type": "territories", "d:player": "Ann", "d:count": "101"}),
    "shipwrights": ({}, [
        ev("reveal", icons={"military": 1, "trade": 0, "renown": 1}),
        {"type": "advance"}, {"type": "advance"},
        ev("track", player="Ann", track="military", steps=5)], [
        ev("sheet", player="Ann", fields={"gold": 3, "resources": 2}),
        ev("sheet", player="Bo", fields={"gold": 3, "resources": 2, "workers": 1}),
        {"type": "finish"}],
        {"type": "track", "data": json.dumps({"player": "Bo", "track": "trade", "steps": -3})}),
    "seafarers": ({"scenario": "new_shores"}, [
        ev("sheet", player="Ann", fields={"settlements": 3, "cities": 1})], [
        ev("sheet", player="Bo", fields={"settlements": 4, "largest_army": True}),
        {"type": "finish"}],
        {"type": "sheet", "player": "Ann", "f:special_vp": "2"}),
}
PLAYERS = {"seafarers": ["Ann", "Bo", "Cy"]}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_english_sentence_from_the_core(live_server, phone, game):
    options, middle, end, refused = GAMES[game]
    players = PLAYERS.get(game, NAMES)
    play = api(live_server, "/api/v1/plays", {"game": game, "players": players,
                                              "options": options, "seed": 5})
    token, events = play["edit_token"], f"/api/v1/plays/{play['id']}/events"
    path = urlsplit(play["edit_url"]).path
    pages = {lang: phone(locale=locale) for lang, locale in (("de", "de-DE"), ("fr", "fr-FR"))}
    found: dict[str, list[str]] = {}

    def scan(moment: str, url: str) -> None:
        for lang, page in pages.items():
            page.goto(live_server.url + url, timeout=45_000)
            assert page.locator("html").get_attribute("lang") == lang
            found[f"{lang} {moment} {url}"] = english_on(page, lang)

    scan("setup", f"/new?game={game}")
    scan("setup", path)
    scan("setup", path + "/join")
    for event in middle:
        api(live_server, events, event, token)
    scan("mid-game", path)
    scan("mid-game", path + "/display")
    state = api(live_server, f"/api/v1/plays/{play['id']}", token=token)["state"]
    form = refused(state) if callable(refused) else refused
    for lang, page in pages.items():
        page.goto(live_server.url + path, timeout=45_000)      # the play's own page posts it
        assert refuse(page, path, form) in (400, 409, 422)
        assert page.locator("#refused p.error").count() >= 1
        found[f"{lang} refusal {form}"] = english_on(page, lang)
    for event in end:
        state = api(live_server, events, event, token)["state"]
    for _turn in range(8):         # Knarr plays the round out
        if state["finished"]:
            break
        state = api(live_server, events, {"type": "advance"}, token)["state"]
    assert state["finished"]
    for where in (path, path + "/display", path + "/history", f"/catalogue/{game}"):
        scan("end", where)
    if game == "seafarers":
        scan("board", "/boards/seafarers?scenario=oceans&players=4&seed=w&layout=variable")
    english = {where: pieces for where, pieces in found.items() if pieces}
    assert not english, json.dumps(english, indent=1, ensure_ascii=False)
    assert len(found) >= 18


def test_the_pieces_come_from_the_catalogue():
    """The scan looks for hundreds of pieces, among them the ones a German phone once showed
    in English (a tie-break, a Seafarers refusal, an Explorers captain line)."""
    for lang in ("de", "fr"):
        pieces = english_pieces(lang)
        assert len(pieces) > 400, len(pieces)
        for piece in ("special victory points, but", "gives 1 special victory point, for a "
                      "player's first settlement on a small island", "also tied on",
                      "the Winter Token", "keep one of them"):
            assert any(piece in known for known in pieces), (lang, piece)
