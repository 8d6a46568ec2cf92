"""Only what changed goes over the wire: bytes per change and propagation, per game.

Each game is played as phones play it: changes are the page's own form posts (a turn, a pawn,
a track move, a tap on a sheet), made by one phone while two others watch. Every phone says
which parts of the play block it holds (``X-Parts``, web/parts.py) and gets back the parts
that changed and placeholders for the rest.

- bytes per change (in process, Flask's test client, brotli as the server sends it): what the
  phone that made the change and a phone that watches receive, next to the whole play block
  (what every phone got per change before), for one stretch of ordinary rounds of each game
  with its most players.
- propagation (the production server, ``companion serve``: gunicorn + gevent): from the moment
  a phone sends a change until the watching phones hold the changed parts (the live stream's
  "version N", then their poll), 200 changes per game; p50 / p95 per game.
"""
from __future__ import annotations

import http.client
import random
import re
import statistics
import threading
import time
from urllib.parse import urlencode

from .harness import LOOPBACK, Client, Server

PLAYERS = ["Alexandra", "Bartholomew", "Cecilie", "Dagfinnur", "Eleonora"]
MOST = {"knarr": 4, "seafarers": 4, "reavers": 4, "explorers": 5, "shipwrights": 5}
OPTIONS = {"explorers": {"rocks_of_ruin": True}}
PART = re.compile(r'<[a-zA-Z][^>]*?\sid="([^"]+)"[^>]*?\sdata-h="([^"]+)"')
VERSION = re.compile(r'id="play" class="play" data-version="(\d+)"')


class HeldParts:
    """What a phone's page holds: {part id: hash}, as its last answer left it (a placeholder
    keeps the phone's own copy, whose hash it repeats)."""

    def __init__(self, html: str = ""):
        self.parts: dict[str, str] = {}
        if html:
            self.take(html)

    def take(self, html: str) -> None:
        self.parts = dict(PART.findall(html))

    def header(self) -> dict:
        return {"X-Parts": " ".join(self.parts.values())}


# ---- an ordinary stretch of each game, as form posts of the play page

def players_of(state: dict) -> list[str]:
    return [p["name"] for p in state["players"]]


def knarr(state: dict, i: int) -> dict | None:
    t = state["table"]
    name = t["current_player"]
    if name is None:
        return None
    form = {"type": "turn", "d:player": name, "d:vp_gained": str(i % 2),
            "d:reputation": str(t["reputation"][name] + i % 2),
            "d:recruits": str(i % 4), "d:bracelets": "1", "expected_version": ""}
    if t["asks_reputation_vp"] or t["next_reputation_vp"] is None:
        form["d:reputation_vp"] = str(t["reputation_vp"][name])
    return form


def explorers(state: dict, i: int) -> dict | None:
    t, names = state["table"], players_of(state)
    missing = [n for n in names if not state["sheets"][n].get("captain")]
    if missing:
        return {"type": "keep_captain", "s:player": missing[0],
                "s:captain": state["setup"]["captains"][missing[0]][i % 2],
                "expected_version": ""}
    if t["game_over"]:
        return None
    if not t["islands"]:
        return {"type": "add_island", "d:tiles": "3", "s:name": "", "d:complete": "true",
                "expected_version": ""}
    step = i % 4
    if step == 0:
        return {"type": "turn", "expected_version": ""}
    if step == 1:
        name = names[i % len(names)]
        vikings = t["islands"][0]["influence"][name]["vikings"]
        return {"type": "set_influence", "d:island": "0", "s:player": name,
                "add:vikings": "1" if vikings < 7 else "-7"}
    name = names[i % len(names)]
    sheet = state["sheets"][names[0]]
    if step == 2:          # a tap on a kind of livestock: on, then off again (the box is small)
        kind = ("pig", "chicken", "goat", "sheep", "cattle", "horse")[i // 4 % 6]
        held = sheet.get("livestock", {}).get(kind, 0)
        return {"type": "sheet", "player": names[0],
                f"add:livestock.{kind}": "-1" if held else "1"}
    outposts = state["sheets"][name].get("outposts", 0)
    return {"type": "sheet", "player": name, "add:outposts": "1" if outposts < 3 else "-3"}


def reavers(state: dict, i: int) -> dict | None:
    t, names = state["table"], players_of(state)
    if state["finished"]:
        return None
    if state["phase"] == "actions" and t["next_player"]:
        taken = {p["location"] for p in t["placements"]}
        free = [loc["id"] for loc in state["setup"]["locations"] if loc["id"] not in taken]
        return {"type": "place", "d:player": t["next_player"], "d:location": free[i % len(free)],
                "expected_version": ""}
    done = state["version"] % 9     # a few territories and sheet taps, then the phase moves on
    if done < 4:
        return {"type": "territories", "d:player": names[done], "d:add": "1"}
    if done < 6:
        return {"type": "sheet", "player": names[done - 4], "add:glory": "2"}
    return {"type": "advance", "expected_version": ""}


def seafarers(state: dict, i: int) -> dict | None:
    names = players_of(state)
    if state["finished"]:
        return None
    step = i % (len(names) + 1)
    if step == len(names):
        return {"type": "advance", "expected_version": ""}
    held = state["sheets"][names[step]].get("settlements", 0)   # 5 to a player
    return {"type": "sheet", "player": names[step], "add:settlements": "1" if held < 4 else "-3"}


def shipwrights(state: dict, i: int) -> dict | None:
    t, names = state["table"], players_of(state)
    if state["finished"]:
        return None
    phase = state["phase"]
    if phase == "reveal" and not t["round_card"]:
        return {"type": "reveal", "s:id": f"R{state['round']}", "s:name": "", "s:trades": "",
                "d:draft": "clockwise", "expected_version": ""}
    if phase == "actions":
        moves = sum(1 for m in t["moves"] if m["round"] == state["round"])
        if moves < 2 * len(names):
            track = ("military", "trade", "renown")[(moves + state["round"]) % 3]
            return {"type": "track", "d:player": names[moves % len(names)], "d:track": track,
                    "d:steps": "1"}
        if moves == 2 * len(names) and not any(state["sheets"][n].get("gold") for n in names):
            return {"type": "sheet", "player": names[0], "add:gold": "1"}
    return {"type": "advance", "expected_version": ""}


SCRIPTS = {"knarr": knarr, "explorers": explorers, "reavers": reavers,
           "seafarers": seafarers, "shipwrights": shipwrights}


def new_play_body(game: str, seed: int = 11) -> dict:
    return {"game": game, "players": PLAYERS[:MOST[game]], "seed": seed,
            "options": OPTIONS.get(game, {})}


def brotli_of(body: bytes, encoding: str | None) -> bytes:
    import brotli

    return brotli.decompress(body) if encoding == "br" else body


# ---- bytes per change, in process

def stretch(client, game: str, changes: int, seed: int = 11, whole: bool = True):
    """Play ``changes`` changes of ``game`` with the Flask test client: one phone changes, one
    watches. Yields (change, bytes the changing phone got, bytes the watcher got, bytes of the
    whole block or 0 without ``whole``), brotli as sent, and the seconds the watcher's poll
    took in process."""
    body = client.post("/api/v1/plays", json=new_play_body(game, seed)).get_json()
    page, auth = f"/plays/{body['id']}/{body['edit_token']}", {
        "Authorization": f"Bearer {body['edit_token']}"}
    hx = {"HX-Request": "true", "Accept-Encoding": "br"}
    writer = HeldParts(client.get(page).get_data(as_text=True))
    watcher = HeldParts(client.get(page).get_data(as_text=True))
    for i in range(changes):
        state = client.get(f"/api/v1/plays/{body['id']}", headers=auth).get_json()["state"]
        form = SCRIPTS[game](state, i)
        if form is None:
            return
        if form.get("expected_version") == "":
            form["expected_version"] = str(state["version"])
        sent = client.post(page + "/events", data=form, headers={**hx, **writer.header()})
        answer = brotli_of(sent.data, sent.headers.get("Content-Encoding")).decode()
        assert sent.status_code == 200, (game, form, sent.status_code,
                                         re.findall(r'class="error[^>]*>([^<]*)', answer))
        writer.take(answer)
        start = time.perf_counter()
        got = client.get(f"{page}/poll?version={state['version']}",
                         headers={**hx, **watcher.header()})
        parts_seconds = time.perf_counter() - start
        assert got.status_code == 200, (game, got.status_code)
        watcher.take(brotli_of(got.data, got.headers.get("Content-Encoding")).decode())
        block = len(client.get(f"{page}/poll", headers=hx).data) if whole else 0
        yield form, len(sent.data), len(got.data), block, parts_seconds


def bytes_per_change(make_app, url: str, changes: int = 40, repeat: int = 3) -> dict:
    """Bytes per change per game, and the watcher's poll in process: the block a version's
    first phone had rendered, shared (web/block_cache.py), against each phone rendering its
    own (BLOCK_CACHE_SECONDS=0), the two stretches taking turns in the same run."""
    app = make_app(url)
    client = app.test_client()
    shared = app.config["BLOCK_CACHE_SECONDS"]
    out = {}
    for game in SCRIPTS:
        rows = list(stretch(client, game, changes))
        took = {"shared": [], "own": []}
        for _ in range(repeat):
            for how, seconds in (("own", 0.0), ("shared", shared)):
                app.config["BLOCK_CACHE_SECONDS"] = seconds
                took[how].append(statistics.median(
                    r[4] for r in stretch(client, game, changes, whole=False)) * 1000)
        app.config["BLOCK_CACHE_SECONDS"] = shared
        own, kept = statistics.median(took["own"]), statistics.median(took["shared"])
        out[game] = {"players": MOST[game], "changes": len(rows),
                     "changing_phone_brotli": spread([r[1] for r in rows]),
                     "watching_phone_brotli": spread([r[2] for r in rows]),
                     "whole_block_brotli_before": spread([r[3] for r in rows]),
                     "watcher_poll_ms_median": {"block_shared": round(kept, 2),
                                                "own_render": round(own, 2),
                                                "ratio": round(kept / own, 2)}}
    app.extensions["companion"].store.engine.dispose()
    out["note"] = ("bytes of the answer body as sent (brotli, quality 4); before: each change "
                   "re-sent the whole block to every phone. Watcher's poll: median of "
                   f"{repeat} stretches each way, in process")
    return out


def spread(values: list[int]) -> dict:
    return {"median": int(statistics.median(values)), "max": max(values)} if values else {}


# ---- propagation on the production server

class Phone(Client):
    """A phone of the bench: form posts like the page's script (its session cookie and CSRF
    token from the page), and the parts it holds."""

    def __init__(self, base_url: str, page: str):
        super().__init__(base_url)
        self.page = page
        self.held = HeldParts()
        self.device = f"bench-{random.getrandbits(40):x}"
        self.cookie, self.csrf = "", ""

    def headers(self) -> dict:
        return {"HX-Request": "true", "Accept-Encoding": "br", "X-Device-Id": self.device,
                "Cookie": self.cookie, "X-CSRFToken": self.csrf, **self.held.header()}

    def load(self) -> None:
        reply = self.get(self.page, {"Accept-Encoding": "br"})
        html = brotli_of(reply.body, reply.headers.get("Content-Encoding")).decode()
        self.held.take(html)
        self.cookie = "; ".join(v.split(";", 1)[0] for k, v in reply.headers.items()
                                if k.lower() == "set-cookie")
        found = re.search(r'"X-CSRFToken": "([^"]+)"', html)
        self.csrf = found.group(1) if found else ""

    def send(self, form: dict) -> tuple[int, int]:
        data = urlencode(form).encode()
        headers = {**self.headers(), "Content-Type": "application/x-www-form-urlencoded",
                   "Idempotency-Key": f"k{random.getrandbits(60):x}"}
        for attempt in (1, 2):        # the server may have closed an idle connection: again,
            if self.conn is None:     # on a new one, with the same Idempotency-Key
                self.conn = http.client.HTTPConnection(self.host, self.port,
                                                       timeout=self.timeout)
            try:
                self.conn.request("POST", self.page + "/events", body=data, headers=headers)
                response = self.conn.getresponse()
                body = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 2:
                    raise
        if response.status == 200:
            self.held.take(brotli_of(body, response.getheader("Content-Encoding")).decode())
        return response.status, len(body)

    def catch_up(self, seen: int) -> int:
        reply = self.get(f"{self.page}/poll?version={seen}", self.headers())
        if reply.status == 200:
            self.held.take(brotli_of(reply.body, reply.headers.get("Content-Encoding")).decode())
        return len(reply.body)


def propagation(url: str, samples: int = 200, watchers: int = 2, workers: int = 2,
                baseline: tuple[str, dict] | None = None) -> dict:
    """Per game on ``companion serve``. ``baseline``: (database URL, more of the server's
    environment) of a second server measured game by game in turn with the first, e.g.
    BLOCK_CACHE_SECONDS=0 (each phone's block rendered for it, the baseline of the shared
    block); its figures go under "baseline" beside each game's."""
    from contextlib import ExitStack

    from .bench_live import Streams, ms

    out = {}
    with ExitStack() as stack:
        servers = [stack.enter_context(Server(
            where, workers=workers, worker_class="gevent", threads=32, limits=False, env=env))
            for where, env in [(url, None), *([baseline] if baseline else [])]]
        apis = [Client(server.url) for server in servers]
        for game in SCRIPTS:
            runs = [game_propagation(server, api, game, samples, watchers, Streams, ms)
                    for server, api in zip(servers, apis, strict=True)]
            out[game] = {**runs[0], **({"baseline": runs[1]} if baseline else {})}
        for api in apis:
            api.close()
    out["server"] = f"companion serve: gunicorn, gevent, {workers} workers, on {LOOPBACK}"
    if baseline:
        out["baseline"] = "the same, with " + ", ".join(f"{k}={v}" for k, v in baseline[1].items())
    return out


def game_propagation(server, api: Client, game: str, samples: int, watchers: int,
                     streams_class, ms) -> dict:
    """``samples`` changes of ``game``, on as many tables as the game's end needs."""
    took, got_bytes, health, tables = [], [], [], 0
    while len(took) < samples * watchers:
        tables += 1
        more, sizes, idle = one_table(server, api, game, tables,
                                      samples - len(took) // watchers, watchers, streams_class)
        took, got_bytes, health = took + more, got_bytes + sizes, health + idle
    return {"players": MOST[game], "changes": len(took) // watchers, "samples": len(took),
            "tables": tables, "propagation_ms": ms(took), "watcher_bytes": spread(got_bytes),
            "healthz_ms_same_run": ms(health)}


def one_table(server, api: Client, game: str, seed: int, budget: int, watchers: int,
              streams_class) -> tuple[list[float], list[int], list[float]]:
    """Up to ``budget`` changes on a new table: one phone sends each; the watching phones
    fetch their parts the moment the live stream names the new version."""
    body = api.post("/api/v1/plays", new_play_body(game, seed=seed)).json()
    page = f"/plays/{body['id']}/{body['edit_token']}"
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    writer, phones = Phone(server.url, page), [Phone(server.url, page) for _ in range(watchers)]
    for phone in [writer, *phones]:
        phone.load()
    arrived: dict = {}
    cond = threading.Condition()

    def on_version(index, version):
        if version == 0:                  # the stream's first message: nothing changed yet
            return
        size = phones[index].catch_up(version - 1)
        with cond:
            arrived[(index, version)] = (time.perf_counter(), size)
            cond.notify_all()

    live = streams_class(server.port, [page + "/live"] * watchers,
                         lambda i, v, _t: threading.Thread(target=on_version, args=(i, v),
                                                           daemon=True).start())
    live.wait_all(range(watchers), 0)
    took, sizes, health, rng = [], [], [], random.Random(seed)
    for i in range(budget):
        state = api.get(f"/api/v1/plays/{body['id']}", auth).json()["state"]
        form = SCRIPTS[game](state, i)
        if form is None:
            break
        if form.get("expected_version") == "":
            form["expected_version"] = str(state["version"])
        version = state["version"] + 1
        start = time.perf_counter()
        status, _ = writer.send(form)
        assert status == 200, (game, form, status)
        with cond:
            cond.wait_for(lambda v=version: all((p, v) in arrived for p in range(watchers)), 10)
        for p in range(watchers):
            if (p, version) in arrived:
                took.append(arrived[(p, version)][0] - start)
                sizes.append(arrived[(p, version)][1])
        health.append(api.get("/healthz").seconds)   # the CPU queue of the moment, beside it
        time.sleep(rng.uniform(0.03, 0.08))
    live.close()
    for phone in [writer, *phones]:
        phone.close()
    return took, sizes, health
