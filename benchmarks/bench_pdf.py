"""PDFs (issue 22, F2): what a score sheet costs to make, and what a client looping PDFs costs
the other tables.

- ``render_costs``: each game's score sheet made as the PDF processes make it (one
  ``companion.pdf.Renderer`` keeping fonts and stylesheet), next to the issue's baseline, a
  one-line WeasyPrint document made from scratch, made in turn in the same rounds: the
  benchmark's sheets (four players, just set up) and each game's longest (the most players,
  at the end of the play); also each sheet made from scratch (as every request did before)
  and the one-line document made by the renderer.
- ``through_the_app``: a sheet asked of the app (Flask client, in process): made by the pool
  (a new version each time) and asked again (the kept file).
- ``pdf_loop``: the production server (its default 2 gevent workers); 5 phones, each at its
  own table, tap once a second, each tap timed, in alternating slices without and with one
  client at another address (127.0.0.2) looping ``scoresheet.pdf`` flat out, ignoring
  Retry-After: asking for the same sheet (kept files) and with a change before every sheet
  (every one made by a PDF process). The figure: tap p95 with the loop / without, and the
  server's CPU seconds a second in each. Run with the default limits (the loop gets 40
  documents a minute per worker and 429s for the rest, as in the issue) and with the
  documents' limit lifted (the PDF processes busy all the time: the worst case).
"""
from __future__ import annotations

import statistics
import tempfile
import threading
import time

from .harness import (
    PLAYERS,
    Client,
    Server,
    create_table,
    percentiles,
    record,
    server_cpu,
)
from .inprocess import make_app, timed


def cpu_timed(fn, repeat: int, warmup: int = 1) -> list[float]:
    """``timed`` in this process's CPU time: a render is CPU work in one thread, and on a
    shared machine its wall time is mostly waiting for a core."""
    return timed(fn, repeat, warmup, clock=time.process_time)


LOOPER = "127.0.0.2"      # the looping client's own address: the phones' allowances are theirs
MINIMAL = "<!doctype html><html><body><h1>Hello</h1><p>One line.</p></body></html>"
LOOP_LIMITS = {"RATELIMIT_HEAVY": "1000000 per minute", "RATELIMIT_EVENTS": "1000000 per minute",
               "RATELIMIT_READS": "1000000 per minute"}


def _sheets(app) -> dict:
    """Each game's score-sheet HTML (a play of four, Seafarers three, just set up)."""
    from companion.games import GAMES
    from companion.web.sheets import scoresheet_html

    service = app.extensions["companion"]
    out = {}
    for game in GAMES.values():
        names = PLAYERS[:max(game.min_players, min(4, game.max_players))]
        row = service.create({"game": game.id, "players": names, "seed": 4})[0]
        with app.test_request_context():
            out[game.id] = scoresheet_html(row, service.state(row))
    return out


# the end of a play with as many players as the game takes (at most five), long names, a sheet
# entered for everyone, then "finish": the longest sheets (tests/web/test_scoresheet_content.py
# reads the same plays back, made by ended_play)
LONG_NAMES = ("Alexandra", "Bartholomew", "Christina", "Dagfinnur", "Eleonora")
# per player i: values the box allows for five players at once
AT_THE_END = {"explorers": lambda i: {"outposts": min(2 + i, 5), "viking_deaths": 1 + i % 2,
                                      "gold": 3 + i % 2},
              "knarr": lambda i: {"vp": 12 + i, "recruits": 2 + i % 2},
              "reavers": lambda i: {"glory": 7 + i, "favor": 2 + i % 2},
              "seafarers": lambda i: {"settlements": min(3 + i, 5), "cities": 1 + i % 2,
                                      "largest_army": i == 0},
              "shipwrights": lambda i: {"raid_cards": 2 + i % 2, "gold": 2 + i % 2}}


def ended_play(client, game_id: str) -> dict:
    """The play (the API's answer to its creation) of ``game_id`` at its end, through the
    Flask ``client``; every change answered 200 or 201 (a refused one would leave a shorter
    sheet)."""
    from companion.games import GAMES

    players = list(LONG_NAMES[:min(5, GAMES[game_id].max_players)])
    play = client.post("/api/v1/plays", json={
        "game": game_id, "players": players, "seed": 5,
        "options": {"rocks_of_ruin": True} if game_id == "explorers" else {}}).get_json()
    events = f"/api/v1/plays/{play['id']}/events"
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    for i, name in enumerate(players):
        answer = client.post(events, json={"type": "sheet", "data": {
            "player": name, "fields": AT_THE_END[game_id](i)}}, headers=auth)
        assert answer.status_code in (200, 201), answer.get_data(as_text=True)
    assert client.post(events, json={"type": "finish"}, headers=auth).status_code in (200, 201)
    return play


def _sheets_at_the_end(app) -> dict:
    from companion.games import GAMES
    from companion.web.sheets import scoresheet_html

    service, client = app.extensions["companion"], app.test_client()
    out = {}
    for game_id in GAMES:
        play = ended_play(client, game_id)
        row = service.load(play["id"])
        with app.test_request_context():
            out[f"{game_id} ({len(play['state']['players'])}, at the end)"] = scoresheet_html(
                row, service.state(row))
    return out


def render_costs(url: str, repeat: int) -> dict:
    """Each sheet next to the one-line document, in rounds: each round makes the one-line
    document, then every sheet once, so a change in the machine's load weighs on both alike
    (on the shared machine a run of the baseline alone, then of the sheets, mixed the two)."""
    from weasyprint import HTML

    from companion.pdf import Renderer

    app = make_app(url)
    renderer = Renderer(app.static_folder)
    HTML(string=MINIMAL).write_pdf()     # the libraries loaded once, as in a long process
    docs = {**_sheets(app), **_sheets_at_the_end(app)}
    jobs = {"minimal": lambda: HTML(string=MINIMAL).write_pdf(),
            "minimal_by_the_renderer": lambda: renderer.render(MINIMAL),
            **{name: (lambda h=html: renderer.render(h)) for name, html in docs.items()}}
    for job in jobs.values():
        job()
    samples: dict = {name: [] for name in jobs}
    for _ in range(repeat):
        for name, job in jobs.items():
            start = time.process_time()
            job()
            samples[name].append(time.process_time() - start)
    ms = {name: percentiles(values) for name, values in samples.items()}
    base = ms["minimal"]["median"]
    ratios = {name: round(ms[name]["median"] / base, 2) for name in docs}
    before = {game: percentiles(cpu_timed(
        lambda i, h=html: html_to_pdf_fresh(h, app.static_folder), max(3, repeat // 3)))
        for game, html in _sheets(app).items()}
    out = {"clock": "CPU time of the rendering process, the one-line document and every "
                    "sheet made in turn in each round",
           "rounds": repeat, "minimal_weasyprint_ms": ms["minimal"],
           "minimal_by_the_renderer_ms": ms["minimal_by_the_renderer"],
           "scoresheet_ms": {name: dict(ms[name], bytes=len(renderer.render(html)))
                             for name, html in docs.items()},
           "scoresheet_from_scratch_ms": before,
           "ratio_to_minimal_per_sheet": ratios,
           "ratio_to_minimal": max(ratios.values()),
           "ratio_from_scratch_to_minimal": round(
               max(v["median"] for v in before.values()) / base, 2)}
    app.extensions["companion"].store.engine.dispose()
    return out


def html_to_pdf_fresh(html: str, static_folder: str) -> bytes:
    """A sheet as every request made it before the PDF processes: everything loaded anew."""
    from weasyprint import HTML

    from companion.pdf import static_only_fetcher

    return HTML(string=html, base_url=static_folder,
                url_fetcher=static_only_fetcher(static_folder)).write_pdf()


def through_the_app(url: str, repeat: int) -> dict:
    """A sheet through the app and its pool: a new version each time, then the kept file."""
    with tempfile.TemporaryDirectory() as kept:
        app = make_app(url, PDF_CACHE_DIR=kept, HEAVY_WAIT=30)
        client = app.test_client()
        play = client.post("/api/v1/plays", json={"game": "explorers", "players": PLAYERS,
                                                  "seed": 4}).get_json()
        edit = {"Authorization": f"Bearer {play['edit_token']}"}
        path = f"/plays/{play['id']}/{play['view_token']}/scoresheet.pdf"
        assert client.get(path).status_code == 200     # the PDF process started and warm

        def made(i):
            client.post(f"/api/v1/plays/{play['id']}/events", headers=edit, json={
                "type": "sheet", "data": {"player": "Ann", "fields": {"outposts": i % 9}}})
            start = time.perf_counter()
            assert client.get(path).status_code == 200
            return time.perf_counter() - start

        made_ms = [made(i) for i in range(repeat)]
        kept_ms = timed(lambda i: client.get(path), repeat * 3, 2)
        app.extensions["companion"].store.engine.dispose()
    return {"made_by_the_pool_ms": percentiles(made_ms),
            "asked_again_kept_file_ms": percentiles(kept_ms)}


class Phones:
    """``count`` phones, each at its own table, tapping once a second (random phase)."""

    def __init__(self, base_url: str, count: int = 5, pace: float = 1.0):
        self.base_url, self.pace = base_url, pace
        owner = Client(base_url)
        self.tables = [create_table(owner) for _ in range(count)]
        owner.close()
        self.samples: list[float] = []
        self.errors = 0
        self.lock = threading.Lock()

    def run(self, seconds: float) -> list[float]:
        start = len(self.samples)
        stop = time.monotonic() + seconds

        def phone(n: int) -> None:
            client, table = Client(self.base_url), self.tables[n]
            time.sleep(self.pace * n / len(self.tables))
            while time.monotonic() < stop:
                began = time.perf_counter()
                reply = record(client, table, len(table.sent))
                with self.lock:
                    if reply.status == 200:
                        self.samples.append(reply.seconds)
                    else:
                        self.errors += 1
                time.sleep(max(0.0, self.pace - (time.perf_counter() - began)))
            client.close()

        threads = [threading.Thread(target=phone, args=(n,), daemon=True)
                   for n in range(len(self.tables))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 30)
        return self.samples[start:]


class Loop:
    """One client asking for its own play's score sheet again and again, flat out; with
    ``change`` it records an event before each, so every sheet is a new one to make."""

    def __init__(self, base_url: str, change: bool):
        self.client = Client(base_url, timeout=60, source=LOOPER)
        self.table = create_table(self.client)
        self.change = change
        self.statuses: dict[str, int] = {}
        self.started = threading.Event()
        self.stop = threading.Event()
        self.running = threading.Event()      # cleared: paused (between requests)
        self.running.set()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        path = f"/plays/{self.table.play_id}/{self.table.view_token}/scoresheet.pdf"
        while not self.stop.is_set():
            if not self.running.wait(0.2):
                continue
            if self.change:
                record(self.client, self.table, len(self.table.sent))
            status = str(self.client.get(path).status)
            if self.started.is_set():
                self.statuses[status] = self.statuses.get(status, 0) + 1
            self.started.set()

    def __enter__(self) -> Loop:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(60)
        self.client.close()


def interleaved(phones: Phones, loop: Loop, server: Server, seconds: float, slices: int):
    """The phones' taps without the loop and with it, in alternating slices (``slices`` of
    each, ``seconds`` in all of each): whatever else the machine does weighs on both alike,
    so their ratio is the loop's (one stretch alone then one with the loop mixed the loop's
    cost with the machine's: docs/benchmarks.md). Also the server's CPU seconds a second in
    each (its workers and pool processes), and its pool processes' alone ("<slice>_pools"):
    what the loop takes, whatever the load, and where."""
    samples = {"alone": [], "loop": []}
    cpu = {"alone": 0.0, "loop": 0.0, "alone_pools": 0.0, "loop_pools": 0.0}
    for _ in range(slices):
        for name in samples:
            (loop.running.set if name == "loop" else loop.running.clear)()
            start = server_cpu(server)
            samples[name] += phones.run(seconds / slices)
            end = server_cpu(server)
            cpu[name] += end[0] - start[0]
            cpu[name + "_pools"] += end[1] - start[1]
    loop.running.clear()
    return samples, {name: round(used / seconds, 3) for name, used in cpu.items()}


def pdf_loop(url: str, seconds: float, env: dict | None = None, slices: int = 4) -> dict:
    with tempfile.TemporaryDirectory() as logs, Server(url, log_dir=logs, env=env) as server:
        phones = Phones(server.url)
        phones.run(2.0)                                    # warm-up, not counted
        runs, alone = {}, []
        for name, change in (("new_sheet_each_time", True), ("same_sheet_kept", False)):
            with Loop(server.url, change) as loop:
                loop.started.wait(120)      # its worker's PDF process started and warm
                taps, cpu = interleaved(phones, loop, server, seconds, slices)
            alone += taps["alone"]
            p95 = {k: percentiles(v)["p95"] for k, v in taps.items()}
            runs[name] = {"taps_ms_alone": percentiles(taps["alone"]),
                          "taps_ms": percentiles(taps["loop"]), "sheets": loop.statuses,
                          "server_cpu_per_s_alone": cpu["alone"],
                          "server_cpu_per_s": cpu["loop"],
                          "ratio_tap_p95_to_alone": round(p95["loop"] / p95["alone"], 2),
                          "ratio_tap_median_to_alone": round(
                              statistics.median(taps["loop"])
                              / statistics.median(taps["alone"]), 2)}
        errors = phones.errors
    return {"limits": "documents' limit lifted" if env else "defaults",
            "phones": len(phones.tables), "tap_every_s": phones.pace,
            "seconds_alone_and_with_each_loop": seconds, "slices": slices,
            "taps_ms_alone": percentiles(alone), "loop": runs, "tap_errors": errors,
            "ratio_tap_p95_worst": max(r["ratio_tap_p95_to_alone"] for r in runs.values())}


def figures(tmp: str, quick: bool) -> dict:
    """The smoke run (``quick``) makes every figure but the loop without limits, briefly."""
    out = {"render": render_costs(f"sqlite:///{tmp}/pdf.db", 5 if quick else 20),
           "through_the_app": through_the_app(f"sqlite:///{tmp}/pdf-app.db",
                                              3 if quick else 10),
           "pdf_loop": pdf_loop(f"sqlite:///{tmp}/pdf-loop.db", 3.0 if quick else 20.0,
                                slices=1 if quick else 4)}
    if not quick:
        out["pdf_loop_no_limit"] = pdf_loop(f"sqlite:///{tmp}/pdf-loop2.db", 20.0, LOOP_LIMITS)
    return out
