"""Every kind of page a person can open, for the checks that go over all of them (axe-core,
the German and French scan): the start and new-play pages, every game's play page at setup,
in the middle of a game and at its end, the read-only view, join, history, the table display,
a seat's phone in the middle of a game (the seat whose turn it is: "Your turn" past the turn
limit, and another: "Ann's turn", at a table where a seat edits only its own sheet; that phone
after "Change seat"), the box data and board pages,
the owner's pages and the error pages.

The plays are made through the JSON API on a live server, each with five players' worth of
long names where the game takes five (the names that broke mid-word on a 360 px phone)."""
from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request

from companion.games import GAMES
from tests.conftest import LiveServer, make_app

NAMES = ["Alexandra", "Bartholomew", "Christina", "Dagfinnur", "Eleonora"]
OPTIONS = {"explorers": {"rocks_of_ruin": True}, "seafarers": {"scenario": "four_islands"}}
STAGES = ("setup", "mid", "end")


def api(base: str, method: str, path: str, body=None, token: str | None = None):
    request = urllib.request.Request(
        base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path} {body}: {error.code} {error.read()[:300]!r}") \
            from None


def middle_of(game_id: str, players: list[str], setup: dict) -> list[dict]:
    """A few ordinary moves of each game: what the table has done by the middle of round 1,
    including what raises a notice (a Shipwrights marker past space 14 without its VP)."""
    first = players[0]
    captain = setup.get("captains", {}).get(first, [None])[0]    # Explorers: one dealt to them

    def sheet(**fields):
        return {"type": "sheet", "data": {"player": first, "fields": fields}}

    return {
        "explorers": [sheet(captain=captain, outposts=2),
                      {"type": "add_island", "data": {"tiles": 3, "complete": True}},
                      {"type": "set_influence",
                       "data": {"island": 0, "player": first, "vikings": 2}},
                      {"type": "turn"}],
        "knarr": [sheet(vp=12, recruits=2), {"type": "turn"}],
        "reavers": [sheet(glory=7), {"type": "place", "data": {"location":
                                                                "conquer_territories"}}],
        "seafarers": [sheet(settlements=3, cities=1), {"type": "advance"}],
        "shipwrights": [{"type": "reveal", "data": {"military": 1, "trade": 0, "renown": 1,
                                                    "draft": "clockwise", "solo_vp": 2}},
                        {"type": "advance"}, {"type": "advance"},
                        {"type": "track", "data": {"player": first, "track": "military",
                                                   "steps": 15}},
                        sheet(raid_cards=2, trade_cards=1, upgrades=1)],
    }[game_id]


def make_plays(base: str) -> dict:
    """{(game, stage): the API's answer for a new play} for every game and stage, with
    ``"turn"``: the seat whose turn it is (the first seat in a game without turns) and
    ``"other"``: a seat whose turn it is not. The middle of a game's table lets a seat edit only
    its own sheet (seat_edits "own"; the host's edit link still edits every seat) and has a turn
    limit of one second, passed by the time its pages are opened."""
    plays = {}
    for game_id, game in sorted(GAMES.items()):
        players = NAMES[:min(len(NAMES), game.max_players)]
        for stage in STAGES:
            play = api(base, "POST", "/api/v1/plays", {
                "game": game_id, "players": players, "options": OPTIONS.get(game_id, {}),
                "seed": 5, **({"seat_edits": "own", "turn_limit_s": 1} if stage == "mid"
                              else {})})
            events, state = f"/api/v1/plays/{play['id']}/events", play["state"]
            if stage != "setup":
                for event in middle_of(game_id, players, play["state"]["setup"]):
                    state = api(base, "POST", events, event, play["edit_token"])["state"]
            if stage == "end":
                api(base, "POST", events, {"type": "finish"}, play["edit_token"])
            table = state.get("table") or {}
            turn = table.get("current_player", table.get("next_player"))
            play["turn"] = players.index(turn) if turn in players else 0
            play["other"] = (play["turn"] + 1) % len(players)
            plays[game_id, stage] = play
    return plays


def play_path(play: dict, token: str = "edit_token", tail: str = "") -> str:
    return f"/plays/{play['id']}/{play[token]}{tail}"


def seat_path(play: dict, seat: str) -> str:
    """The page of a seat's phone (its link: ``seat`` is "turn" or "other")."""
    return f"/plays/{play['id']}/{play['seats'][play[seat]]['token']}"


# the pages one template draws alike for every game (the game's name and players aside)
SAME_FOR_EVERY_GAME = ("join", "rounds", "display end", "delete", "owner delete", "seat turn",
                       "seat other", "seat left")


def seat_refusals(game_id: str, play: dict) -> dict[str, dict]:
    """{name: a form} of the changes the seat whose turn it is not ("other") may not make at a
    table where a seat edits only its own sheet: another seat's sheet (the middle of the
    game's own sheet change, for the seat whose turn it is), the next move (whose turn it is,
    or in a game without turns the host's), who may edit which seat."""
    turn = play["seats"][play["turn"]]["name"]
    players = [seat["name"] for seat in play["seats"]]
    sheet = next(event["data"] for event in middle_of(game_id, players, play["state"]["setup"])
                 if event["type"] == "sheet")
    field = next(name for name, value in sheet["fields"].items() if isinstance(value, int))
    return {"seat refusal sheet": {"type": "sheet", "player": turn, f"add:{field}": "1"},
            "seat refusal move": {"type": "advance"},
            "seat refusal edits": {"type": "seat_edits", "data": json.dumps({"edits": "all"})}}


def refuse(page, path: str, form: dict) -> int:
    """Post a refused change as the page's own form does, and show the answer on the page
    (in a ``#refused`` block at its end)."""
    return page.evaluate("""async ([path, form]) => {
        const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
        const r = await fetch(path + "/events", {method: "POST", body: new URLSearchParams(form),
            headers: {"HX-Request": "true", "X-CSRFToken": token}});
        const shown = document.createElement("div");
        shown.id = "refused";
        shown.innerHTML = await r.text();
        document.body.append(shown);
        return r.status; }""", [path, form])


def every_page(plays: dict) -> dict[str, str]:
    """{name: path} of every kind of page, for a phone that holds the owner's cookie."""
    pages = {"start": "/", "new": "/new", "history": "/history", "import": "/import",
             "pads": "/pads", "box data": "/catalogue", "owner welcome": "/catalogue?owner=welcome",
             "seafarers board": "/boards/seafarers",
             "seafarers book layouts": "/catalogue/seafarers/layouts",
             "seafarers book layout": "/catalogue/seafarers/layouts/four_islands/4",
             "no such play": "/plays/abc123/not-a-token", "no such page": "/nothing-here"}
    for game_id in sorted(GAMES):
        pages[f"new {game_id}"] = f"/new?game={game_id}"
        pages[f"box data {game_id}"] = f"/catalogue/{game_id}"
        for stage in STAGES:
            pages[f"{game_id} {stage}"] = play_path(plays[game_id, stage])
        middle, end = plays[game_id, "mid"], plays[game_id, "end"]
        pages[f"{game_id} read-only"] = play_path(middle, "view_token")
        pages[f"{game_id} seat turn"] = seat_path(middle, "turn")
        pages[f"{game_id} seat other"] = seat_path(middle, "other")
        # "Change seat" on that phone: no seat (its link's cookie, so after its seat's page)
        pages[f"{game_id} seat left"] = seat_path(middle, "other") + "/seat/none"
        pages[f"{game_id} join"] = play_path(middle, tail="/join")
        pages[f"{game_id} rounds"] = play_path(end, tail="/history")
        pages[f"{game_id} display"] = play_path(middle, "view_token", "/display")
        pages[f"{game_id} display end"] = play_path(end, "view_token", "/display")
        pages[f"{game_id} delete"] = play_path(middle, tail="/delete")
        pages[f"{game_id} owner delete"] = f"/owner/plays/{middle['id']}/delete"
    return pages


def every_kind_of_page(plays: dict) -> dict[str, str]:
    """every_page, with the pages that are the same for every game taken from one game each
    (a different game for each kind): what a check of the markup (axe-core) needs to see."""
    games = sorted(GAMES)
    chosen = {kind: games[i % len(games)] for i, kind in enumerate(SAME_FOR_EVERY_GAME)}
    return {name: path for name, path in every_page(plays).items()
            if not any(name == f"{game_id} {kind}" and game_id != chosen[kind]
                       for game_id in games for kind in SAME_FOR_EVERY_GAME)}


def served_with_every_play(folder):
    """A live server (CSRF on, no PUBLIC_URL) with a play of every game at every stage
    (make_plays) as ``.plays`` and its app as ``.app``, stopped after: for a module's ``site``
    fixture (``yield from``)."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = make_app(folder, WTF_CSRF_ENABLED=True, PUBLIC_URL=None)
    server = LiveServer(app)
    server.app = app
    server.plays = make_plays(server.url)
    yield server
    server.stop()
