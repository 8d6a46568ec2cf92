"""Use cases over the store: create a play, read its state, record events, undo and redo.

Takes the store as an argument; the pure rules live in companion.games and companion.plays.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from sqlalchemy.exc import IntegrityError

from . import clock
from .games import get_game
from .games.bodies import check
from .games.errors import RuleError, say
from .games.protocol import new_seed
from .plays import (
    apply_event,
    new_state,
    parse_event,
    play_body,
    replay,
    score_of,
)
from .seats import check_change, seat_name, table_choices
from .service_undo import TakingBack
from .snapshots import rules_fingerprint
from .state_cache import StateCache
from .store import Conflict, PlayRow, Store, now
from .store.write import KeyRecord, Write
from .tokens import new_play_id, play_tokens, token_hash

# A snapshot of the state is kept every this many events (at most): a cold read or an undo
# replays fewer events than this after the nearest snapshot, whatever the log's length.
SNAPSHOT_EVERY = 50
Answer = Callable[[PlayRow, dict], bytes]
# Run on the play's row as the write's locked read finds it (None: no such play), before
# anything else: the API's token check, so an event reads the play once, not twice. It answers
# the seat the token is bound to (its index), or None for the host's token.
Check = Callable[[PlayRow | None], "int | None"]


@dataclass(frozen=True)
class Done:
    """A change's outcome: the play's row and state after it; ``replayed`` is the first
    answer's record when the change was a repeat of an Idempotency-Key (nothing recorded)."""
    row: PlayRow
    state: dict
    replayed: KeyRecord | None = None
    answer: bytes | None = None      # the stored answer of a change with a key
    snapped: int = 0                 # the latest snapshot's position at or below the head


@dataclass(frozen=True)
class ChangeKey:
    """A change's Idempotency-Key and a digest of the request it came with (None: not known,
    e.g. a key stored before the digest existed). The same key with another request is
    refused as idempotency_key_reused; with the same request it answers as a repeat."""
    value: str
    request_digest: str | None = None


@dataclass(frozen=True)
class Known:
    """A state with the position of the latest snapshot kept on its branch at or below its
    head (0: none, the initial state), so a write knows when the next snapshot is due."""
    state: dict
    snapped: int


class PlayService(TakingBack):
    def __init__(self, store: Store, cache: StateCache | None = None, clock_now=now,
                 snapshot_every: int = SNAPSHOT_EVERY):
        self.store = store
        self.cache = cache or StateCache()
        self.now = clock_now   # the wall clock lives here, never in the core (tests pass one)
        self.snapshot_every = snapshot_every
        self.rules = rules_fingerprint()

    # ---- catalogue
    def catalogue(self, game_id: str) -> dict:
        game = get_game(game_id)
        return self.store.get_catalogue(game.id) or game.empty_catalogue()

    def put_catalogue(self, game_id: str, data, source: str = "saved") -> dict:
        """Validate and save; every save is kept as a version (see restore_catalogue)."""
        game = get_game(game_id)
        clean = game.validate_catalogue(data)
        self.store.put_catalogue(game.id, clean, source, previous=self.catalogue(game.id))
        return clean

    def catalogue_versions(self, game_id: str) -> list[dict]:
        return self.store.catalogue_versions(get_game(game_id).id)

    def restore_catalogue(self, game_id: str, version_id) -> dict:
        """Make a kept version the current box data again (itself kept as a new version)."""
        game = get_game(game_id)
        if isinstance(version_id, bool) or not isinstance(version_id, int):
            raise RuleError("Pick a saved version to restore.", "version")
        kept = self.store.catalogue_version(game.id, version_id)
        if kept is None:
            raise RuleError("There is no such saved version of this box data.", "version",
                            "unknown_version", 404)
        return self.put_catalogue(game.id, kept["data"], f"restored version {version_id}")

    def undo_catalogue_save(self, game_id: str) -> dict:
        """Put back what was there before the latest save or import."""
        versions = self.store.catalogue_versions(get_game(game_id).id, limit=2)
        if len(versions) < 2:
            raise RuleError("There is no earlier version of this box data to go back to.",
                            None, "nothing_to_undo", 409)
        return self.restore_catalogue(game_id, versions[1]["id"])

    def save_box_values(self, row: PlayRow) -> dict:
        """Save what a play answered about the box into this installation's box data."""
        state = self.state(row)
        answers = state.get("box_values") or {}
        if not answers:
            raise RuleError("This play has answered nothing about the box yet.", None,
                            "nothing_to_save", 409)
        game = get_game(row.game)
        merged = game.with_box_values(self.catalogue(game.id), answers)
        return self.put_catalogue(game.id, merged, "answered in a play")

    # ---- plays
    def create(self, body, catalogue: dict | None = None,
               started_at=None) -> tuple[PlayRow, dict, dict]:
        """Returns (row, {"edit", "view", "seats": [one per player]} tokens, state).
        ``catalogue``: the box data to start from (an imported play brings its own), else
        this installation's; ``started_at``: when the play began (an import keeps its
        own), else now."""
        game = get_game(body.get("game") if isinstance(body, dict) else None)  # else a 404
        request = check(play_body(), body)
        seed = new_seed() if request.seed is None else request.seed
        state = new_state(game.id, request.players, request.options, seed,
                          self.catalogue(game.id) if catalogue is None else catalogue,
                          started_at or self.now())
        state = table_choices(state, request)
        tokens = play_tokens(len(state["players"]))
        play_id = new_play_id()
        self.store.create_play(play_id, game.id, state, token_hash(tokens["edit"]),
                               token_hash(tokens["view"]),
                               [token_hash(t) for t in tokens["seats"]])
        row = self.store.load_play(play_id)
        self.cache.put((play_id, 0), Known(state, 0))
        return row, tokens, state

    def load(self, play_id: str) -> PlayRow:
        row = self.store.load_play(play_id) if isinstance(play_id, str) else None
        if row is None:
            raise RuleError("There is no such play.", None, "unknown_play", 404)
        return row

    def state(self, row: PlayRow, write: Write | None = None) -> dict:
        return self.known(row, write).state

    def known(self, row: PlayRow, write: Write | None = None) -> Known:
        """The play's state at its head: from the cache, else from the nearest snapshot and
        the events after it. A cold read that found no snapshot near the head keeps one."""
        key = (row.id, row.version)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        known = self.state_at(row, row.head, write)
        known = Known(dict(known.state, version=row.version), known.snapped)
        if write is None:      # a state read inside a write is cached once that commits
            if row.head - known.snapped >= self.snapshot_every:
                known = self._keep_snapshot_of_read(row, known)
            self.cache.put(key, known)
        return known

    def state_at(self, row: PlayRow, position: int, write: Write | None = None) -> Known:
        """The state after the first ``position`` active events: the latest snapshot at or
        below it (of these rules) and a replay of the events after it. Identical to a replay
        of the whole log (tests/db/test_snapshots.py)."""
        reader = write.conn if write is not None else None
        found = (self.store.latest_snapshot(row.id, position, self.rules, conn=reader)
                 if position else None)
        start, state = found if found is not None else (0, initial_of(row))
        events = self.store.active_events(row.id, upto=position, conn=reader, after=start)
        return Known(replay(state, events), start)

    def _keep_snapshot_of_read(self, row: PlayRow, known: Known) -> Known:
        """A long replay on a read (a play older than its snapshots, or rules that changed):
        keep its result, so the next cold read is short. Only a cache: a failure is ignored."""
        try:
            kept = self.store.keep_snapshot(row.id, row.version, row.head, known.state,
                                            self.rules)
        except Exception:  # noqa: BLE001 (a busy database: the log stays the truth)
            return known
        return Known(known.state, row.head) if kept else known

    def clock_of(self, state: dict) -> dict:
        """The play's clock as shown now: a running stretch counts up to this moment."""
        return clock.read(state.get("clock"), self.now())

    def record(self, play_id: str, body, row: PlayRow | None = None, at=None,
               whole: bool = True) -> dict:
        """Validate and append one event; a stale expected_version raises Conflict.
        ``whole=False`` (an import's replay) skips the whole-sheet check, as the replay did."""
        return self.change(play_id, body, at=at, whole=whole).state

    def record_row(self, play_id: str, body, row: PlayRow | None = None,
                   at=None) -> tuple[PlayRow, dict]:
        """record(), also returning the play's row after the write."""
        done = self.change(play_id, body, at=at)
        return done.row, done.state

    def change(self, play_id: str, body, *, key: ChangeKey | None = None,
               answer: Answer | None = None, at=None, check: Check | None = None,
               whole: bool = True, seat: int | None = None) -> Done:
        """Validate and append one event in one locked transaction: a write without
        expected_version waits its turn and never conflicts; a stale expected_version raises
        Conflict. ``key`` (an Idempotency-Key) is recorded with the event, and a repeat of it
        records nothing and returns the first answer (``answer(row, state)`` is stored).
        ``at``: when it happened (an import keeps its events' times), else now; the event row
        and the game clock share it. ``seat``: the seat (index) of the phone making it (or
        what ``check`` answers), held to the play's edit policy (companion.seats)."""
        at = clock.parse(at) or self.now()
        return self._twice(lambda: self._change(play_id, body, at, key, answer, check, whole,
                                                seat))

    def _change(self, play_id: str, body, at, key: ChangeKey | None,
                answer: Answer | None, check: Check | None = None,
                whole: bool = True, seat: int | None = None) -> Done:
        with self._writing(play_id, check, seat) as write:
            # checked once, against the play's game: the typed data goes on to its function
            event = dict(parse_event(get_game(write.row.game), body), at=at)
            done = self._replay_of(write, key)
            if done is not None:
                return done
            row = write.row
            if event["expected_version"] is not None and event["expected_version"] != row.version:
                raise Conflict(row.version)
            known = self.known(row, write)
            check_change(known.state, seat_name(known.state, write.seat), event)
            state = apply_event(known.state, event, check_whole=whole)
            done = self._appended(write, event, state, known.snapped, device=event["device"])
            done = self._keep(write, key, done, answer)
        return self._remember(done)

    def move(self, play_id: str, step: int, expected_version=None, *, key: ChangeKey | None = None,
             answer: Answer | None = None) -> dict:
        """Undo (step -1) or redo (step +1) of the shared head pointer."""
        return self.move_head(play_id, step, expected_version, key=key, answer=answer).state

    def move_head(self, play_id: str, step: int, expected_version=None, *,
                  key: ChangeKey | None = None, answer: Answer | None = None,
                  check: Check | None = None, seat: int | None = None) -> Done:
        return self._twice(lambda: self._move_head(play_id, step, expected_version, key, answer,
                                                   check, seat))

    def _move_head(self, play_id: str, step: int, expected_version, key: ChangeKey | None,
                   answer: Answer | None, check: Check | None = None,
                   seat: int | None = None) -> Done:
        with self._writing(play_id, check, seat) as write:
            done = self._replay_of(write, key)
            if done is not None:
                return done
            row = write.row
            if expected_version is not None and expected_version != row.version:
                raise Conflict(row.version)
            head = row.head + step
            if head < 0:
                raise RuleError("There is nothing to undo.", None, "nothing_to_undo", 409)
            if head > row.length:
                raise RuleError("There is nothing to redo.", None, "nothing_to_redo", 409)
            self._check_moved_over(write, step)
            done = self._to_head(write, head)
            done = self._keep(write, key, done, answer)
        return self._remember(done)

    # ---- the steps of a write
    def _appended(self, write: Write, event: dict, after: dict, snapped: int, **row_of) -> Done:
        """Append one event whose resulting state is ``after``."""
        row = write.row
        summary = summary_of(after)
        version = write.append(event, finished=after["finished"], summary=summary,
                               at=event["at"], **row_of)
        written = replace(row, version=version, head=row.head + 1, length=row.head + 1,
                          finished=after["finished"], summary=summary, updated_at=now())
        snapped = self._snapshot_due(write, row.head + 1, after, snapped)
        return Done(written, dict(after, version=version), snapped=snapped)

    @contextmanager
    def _writing(self, play_id: str, check: Check | None = None,
                 seat: int | None = None) -> Iterator[Write]:
        """The write on the play, its ``seat`` the phone's (or the one ``check`` found)."""
        if not isinstance(play_id, str) or len(play_id) > 32:
            if check is not None:
                check(None)
            raise RuleError("There is no such play.", None, "unknown_play", 404)
        with self.store.writing(play_id) as write:
            found = check(write.row) if check is not None else None
            if write.row is None:
                raise RuleError("There is no such play.", None, "unknown_play", 404)
            write.seat = found if found is not None else seat
            yield write

    @staticmethod
    def _twice(step: Callable[[], Done]) -> Done:
        """Run a write; when a racer committed the same Idempotency-Key past the lock (the
        unique key refuses the second), the second round finds it and answers as a repeat."""
        try:
            return step()
        except IntegrityError:
            return step()

    def _replay_of(self, write: Write, key: ChangeKey | None) -> Done | None:
        if key is None:
            return None
        record = write.find_key(key.value)
        if record is None:
            return None
        if None not in (record.request_digest, key.request_digest) and \
                record.request_digest != key.request_digest:
            raise RuleError(say("This Idempotency-Key was already sent with another change; "
                                "nothing was recorded. Send each new change with a new key."),
                            "Idempotency-Key", "idempotency_key_reused", 422)
        return Done(write.row, self.state(write.row, write), record)

    def _snapshot_due(self, write: Write, position: int, state: dict, snapped: int) -> int:
        """Keep a snapshot at ``position`` when the last one is ``snapshot_every`` events
        back; returns the latest snapshot's position."""
        if position - snapped < self.snapshot_every:
            return snapped
        write.save_snapshot(position, state, self.rules)
        return position

    def _to_head(self, write: Write, head: int) -> Done:
        """Undo or redo: the state at the new head from the nearest snapshot below it."""
        row = write.row
        known = self.state_at(row, head, write)
        state = known.state
        snapped = self._snapshot_due(write, head, state, known.snapped)
        summary = summary_of(state)
        version = write.move_head(head, finished=state["finished"], summary=summary)
        written = replace(row, version=version, head=head, finished=state["finished"],
                          summary=summary, updated_at=now())
        return Done(written, dict(state, version=version), snapped=snapped)

    @staticmethod
    def _keep(write: Write, key: ChangeKey | None, done: Done, answer: Answer | None) -> Done:
        """Store the key with the change and the answer (computed once: the first answer and
        a repeat's are the same bytes, the clock's "now" included)."""
        if key is None:
            return done
        body = answer(done.row, done.state) if answer is not None else None
        write.save_key(key.value, 200, done.row.version,
                       zlib.compress(body) if body is not None else None, key.request_digest)
        return replace(done, answer=body)

    def _remember(self, done: Done) -> Done:
        if done.replayed is None:
            self.cache.put((done.row.id, done.row.version), Known(done.state, done.snapped))
        return done


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
            "totals": {p["name"]: p["total"] for p in score["players"]},
            "complete": score["complete"], "missing": score["missing"],
            "provisional": score["provisional"], "to_enter": score["to_enter"], **duration}

