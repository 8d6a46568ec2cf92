"""Use cases over the store: create a play, read its state, record events, undo and redo.

Takes the store as an argument; the pure rules live in companion.games and companion.plays.
"""
from __future__ import annotations

import random
import time
from collections import OrderedDict
from dataclasses import replace
from threading import Lock

from . import clock
from .games import get_game
from .games.base import RuleError, check_object, new_seed
from .plays import apply_event, new_state, parse_event, replay, score_of
from .store import Conflict, PlayRow, Store, now
from .tokens import new_play_id, new_token, token_hash, view_token_for

CACHE_SIZE = 512
# A write without expected_version is retried when another phone wrote first: every round of a
# race has a winner, so this many rounds outlast any table's worth of phones writing at once.
WRITE_RETRIES = 30
RETRY_PAUSE = 0.002   # seconds, times the attempt number, jittered: racers spread out


class StateCache:
    """States by (play id, version): replay once, then every read and write is cheap."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = Lock()

    def get(self, key):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key, state) -> None:
        with self._lock:
            self._items[key] = state
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class PlayService:
    def __init__(self, store: Store, cache: StateCache | None = None, clock_now=now):
        self.store = store
        self.cache = cache or StateCache()
        self.now = clock_now   # the wall clock lives here, never in the core (tests pass one)

    # ---- catalogue
    def catalogue(self, game_id: str) -> dict:
        game = get_game(game_id)
        return self.store.get_catalogue(game.id) or game.empty_catalogue()

    def put_catalogue(self, game_id: str, data) -> dict:
        game = get_game(game_id)
        clean = game.validate_catalogue(data)
        self.store.put_catalogue(game.id, clean)
        return clean

    # ---- plays
    def create(self, body, catalogue: dict | None = None,
               started_at=None) -> tuple[PlayRow, dict, dict]:
        """Returns (row, {"edit", "view"} tokens, state). ``catalogue``: the box data to
        start from (an imported play brings its own), else this installation's;
        ``started_at``: when the play began (an import keeps its own), else now."""
        check_object(body, ("game", "players", "options", "seed"))
        game = get_game(body.get("game"))
        seed = body.get("seed")
        seed = new_seed() if seed is None or seed == "" else seed
        state = new_state(game.id, body.get("players"), body.get("options"), seed,
                          self.catalogue(game.id) if catalogue is None else catalogue,
                          started_at or self.now())
        edit = new_token()
        tokens = {"edit": edit, "view": view_token_for(edit)}
        play_id = new_play_id()
        self.store.create_play(play_id, game.id, state, token_hash(tokens["edit"]),
                               token_hash(tokens["view"]))
        row = self.store.load_play(play_id)
        self.cache.put((play_id, 0), state)
        return row, tokens, state

    def load(self, play_id: str) -> PlayRow:
        row = self.store.load_play(play_id) if isinstance(play_id, str) else None
        if row is None:
            raise RuleError("There is no such play.", None, "unknown_play", 404)
        return row

    def state(self, row: PlayRow) -> dict:
        key = (row.id, row.version)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        state = replay(initial_of(row), self.store.active_events(row.id, upto=row.head))
        state = dict(state, version=row.version)
        self.cache.put(key, state)
        return state

    def clock_of(self, state: dict) -> dict:
        """The play's clock as shown now: a running stretch counts up to this moment."""
        return clock.read(state.get("clock"), self.now())

    def record(self, play_id: str, body, row: PlayRow | None = None, at=None) -> dict:
        """Validate and append one event; a stale expected_version raises Conflict."""
        return self.record_row(play_id, body, row, at)[1]

    def record_row(self, play_id: str, body, row: PlayRow | None = None,
                   at=None) -> tuple[PlayRow, dict]:
        """record(), also returning the play's row after the write. ``row``, when the caller
        has just read it (to check a token), saves reading it again; a stale one only costs a
        retry, as the write itself checks the version. ``at``: when it happened (an import
        keeps its events' times), else now; the event row and the game clock share it."""
        event = dict(parse_event(body), at=clock.parse(at) or self.now())
        for attempt in range(WRITE_RETRIES):
            row = row if row is not None and row.id == play_id else self.load(play_id)
            if event["expected_version"] is not None and event["expected_version"] != row.version:
                raise Conflict(row.version)
            state = apply_event(self.state(row), event)
            summary = summary_of(state)
            try:
                version = self.store.append_event(row, event, finished=state["finished"],
                                                  summary=summary, at=event["at"])
            except Conflict:
                if event["expected_version"] is not None:
                    raise
                row = None
                time.sleep(random.uniform(0, RETRY_PAUSE * attempt))
                continue
            written = replace(row, version=version, head=row.head + 1, length=row.head + 1,
                              finished=state["finished"], summary=summary, updated_at=now())
            return written, self._remember(row.id, version, state)
        raise Conflict(self.load(play_id).version)

    def move(self, play_id: str, step: int, expected_version=None) -> dict:
        """Undo (step -1) or redo (step +1)."""
        if expected_version is not None and (isinstance(expected_version, bool)
                                             or not isinstance(expected_version, int)):
            raise RuleError("expected_version must be a whole number.", "expected_version")
        row = self.load(play_id)
        if expected_version is not None and expected_version != row.version:
            raise Conflict(row.version)
        head = row.head + step
        if head < 0:
            raise RuleError("There is nothing to undo.", None, "nothing_to_undo", 409)
        if head > row.length:
            raise RuleError("There is nothing to redo.", None, "nothing_to_redo", 409)
        state = replay(initial_of(row), self.store.active_events(row.id, upto=head))
        version = self.store.move_head(row, head, finished=state["finished"],
                                       summary=summary_of(state))
        return self._remember(row.id, version, state)

    def _remember(self, play_id: str, version: int, state: dict) -> dict:
        state = dict(state, version=version)
        self.cache.put((play_id, version), state)
        return state


def initial_of(row: PlayRow) -> dict:
    """The play's initial state; one stored before the game clock existed starts its clock
    at the play's creation, so its replay still knows when it finished and how long it ran."""
    if "clock" in row.initial:
        return row.initial
    return dict(row.initial, clock=clock.start(row.created_at))


def summary_of(state: dict) -> dict | None:
    """What a history list shows of a finished play: winners, totals, how long it ran."""
    if not state["finished"]:
        return None
    played = clock.of(state)
    duration = {"elapsed_s": played["elapsed_s"]} if played["started_at"] else {}
    score = score_of(state)
    if "error" in score:
        return {"winners": [], "totals": {}, **duration}
    return {"winners": score["winners"],
            "totals": {p["name"]: p["total"] for p in score["players"]}, **duration}

