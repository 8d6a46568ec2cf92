"""Every row of a restore checked as the app would use it, before anything is written.

A backup's digest proves the file is the one the installation wrote; these checks make sure
that what it holds is something the app can serve (a database edited by hand and then backed
up, or a file signed by whoever holds the key, is refused, not restored into 500s):

- a play's initial state is what the API stores: seats, options and seed parse as a new play's
  do (unchanged), its box data validates, its sheets belong to its seats;
- its events run 1..length on the current branch without a gap or a repeat, each well formed,
  and replay from the initial state; what a play's pages and exports compute from them (score,
  history chart, JSON/CSV export, BG Stats link, the history list's summary) computes;
- a kept snapshot of these rules equals the replay at its position; an idempotency record's
  answer reads back; box data and its saved versions validate.

A play's ``finished`` flag and ``summary`` are derived from its log; they are derived again here
(from the replay, by these rules) rather than trusted.
"""
from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from typing import Any

import sqlalchemy as sa

from . import clock
from .backup import BackupError
from .charts import line_chart_svg, round_series
from .exports import bgstats_link, export_csv, export_document, export_json
from .games import get_game
from .games.errors import RuleError
from .plays import apply_event, parse_seats, parse_seed, score_of, valid_device
from .seats import EDITS
from .service import initial_of, summary_of
from .snapshots import rules_fingerprint
from .store import (
    PlayRow,
    catalogue_versions,
    catalogues,
    events,
    idempotency_keys,
    play_snapshots,
    plays,
)

TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


class Refused(Exception):
    """One play's (or box data's) reason not to restore; wrapped into a BackupError."""


def check_database(conn) -> int:
    """Check every row (``conn``: the scratch database at the newest schema); re-derive each
    play's finished flag and summary in it. Returns the number of plays checked."""
    for table in (catalogues, catalogue_versions):
        for row in conn.execute(sa.select(table)):
            _check_box_data(table.name, row)
    rules = rules_fingerprint()
    count = 0
    for (play_id,) in conn.execute(sa.select(plays.c.id).order_by(plays.c.id)).all():
        row = PlayRow(**conn.execute(sa.select(plays).where(plays.c.id == play_id)).one()._mapping)
        try:
            finished, summary = check_play(conn, row, rules)
        except Refused as err:
            raise BackupError(f"Play {row.id} ({row.game}) cannot be restored: {err}; nothing "
                              "was restored.") from None
        if (finished, summary) != (row.finished, row.summary):
            conn.execute(plays.update().where(plays.c.id == row.id)
                         .values(finished=finished, summary=summary))
        count += 1
    return count


# --------------------------------------------------------------------------- one play
def check_play(conn, row: PlayRow, rules: str) -> tuple[bool, dict | None]:
    """Refused with the reason, else (finished, summary) derived from the replay."""
    _check_counters(row)
    initial = check_initial(row)
    rows = [dict(r._mapping) for r in conn.execute(
        sa.select(events).where(events.c.play_id == row.id)
        .order_by(events.c.discarded, events.c.position, events.c.id))]
    if len(rows) > row.version:
        raise Refused(f"it holds {len(rows)} event rows but says it changed only "
                      f"{row.version} times")
    active = _active_events(row, rows)
    snapshots = {s.position: s.state for s in conn.execute(
        sa.select(play_snapshots).where(play_snapshots.c.play_id == row.id,
                                        play_snapshots.c.rules == rules))}
    head_state = _replay(row, initial, active, snapshots)
    _check_keys(conn, row)
    return _check_reads(row, initial, active[:row.head], head_state)


def _check_counters(row: PlayRow) -> None:
    for name in ("version", "head", "length"):
        value = getattr(row, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise Refused(f"its {name} is not a whole number")
    if row.head > row.length:
        raise Refused(f"its head ({row.head}) is past its last event ({row.length})")
    for name in ("edit_hash", "view_hash"):
        if not isinstance(getattr(row, name), str) or not TOKEN_HASH.fullmatch(getattr(row, name)):
            raise Refused(f"its {name} is not a token hash (64 hex digits)")
    if row.edit_hash == row.view_hash:
        raise Refused("its edit and view tokens are the same")
    _check_seat_hashes(row)


def _check_seat_hashes(row: PlayRow) -> None:
    """None (a play from before seats) or one distinct token hash per player."""
    hashes = row.seat_hashes
    if hashes is None:
        return
    players = row.initial.get("players") if isinstance(row.initial, dict) else None
    if not isinstance(hashes, list) or not isinstance(players, list) or \
            len(hashes) != len(players):
        raise Refused("its seat tokens are not one per player")
    if not all(isinstance(h, str) and TOKEN_HASH.fullmatch(h) for h in hashes):
        raise Refused("its seat tokens are not token hashes (64 hex digits)")
    if len({*hashes, row.edit_hash, row.view_hash}) != len(hashes) + 2:
        raise Refused("two of its tokens are the same")


def check_initial(row: PlayRow) -> dict:
    """The play's initial state, when it is one the API would have stored for a new play:
    its seats, options and seed come out of the new-play checks unchanged, its box data
    validates, its sheets are its seats'. Else Refused."""
    initial = row.initial
    if not isinstance(initial, dict):
        raise Refused("its initial state is not an object")
    try:
        game = get_game(row.game)
        if initial.get("game") != game.id:
            raise Refused(f"its initial state names another game ({initial.get('game')!r})")
        seats = parse_seats(initial.get("players"), game)
        if seats != initial["players"]:
            raise Refused("its players are not stored as a new play stores them")
        stored = initial.get("options")
        options = game.parse_options(stored)
        if not isinstance(stored, dict) or any(options.get(k) != v for k, v in stored.items()):
            raise Refused("its options are not stored as a new play stores them")
        if parse_seed(initial.get("seed")) != initial["seed"]:
            raise Refused("its seed is not stored as a new play stores it")
        if not isinstance(initial.get("catalogue"), dict):
            raise Refused("its box data is not an object")
        game.validate_catalogue(initial["catalogue"])
    except RuleError as err:
        raise Refused(f"its initial state does not pass the new-play checks ({_said(err)})") \
            from None
    names = [s["name"] for s in seats]
    sheets = initial.get("sheets")
    if not isinstance(sheets, dict) or list(sheets) != names or \
            not all(isinstance(s, dict) for s in sheets.values()):
        raise Refused("its initial sheets are not one per player")
    expected = {"version": 0, "round": 1, "finished": False}
    if any(initial.get(k) != v or type(initial.get(k)) is not type(v)
           for k, v in expected.items()):
        raise Refused("its initial state is not at the start of a play")
    if not isinstance(initial.get("phase"), str) or not isinstance(initial.get("setup"), dict) \
            or not isinstance(initial.get("table"), dict):
        raise Refused("its initial state lacks its setup, table or phase")
    if initial.get("seat_edits", "all") not in EDITS:
        raise Refused("its choice of who may edit which seat is not 'all' or 'own'")
    return initial_of(row)


def _active_events(row: PlayRow, rows: list[dict]) -> list[dict]:
    """The current branch in order: positions 1..length, one each; every row well formed."""
    for event in rows:
        _check_event(event)
    active = [e for e in rows if not e["discarded"]]
    positions = [e["position"] for e in active]
    if positions != list(range(1, row.length + 1)):
        missing = sorted(set(range(1, row.length + 1)) - set(positions))
        seen = Counter(positions)
        extra = sorted(p for p, n in seen.items() if n > 1 or p > row.length)
        what = (f"event {missing[0]} is missing" if missing else
                f"event {extra[0]} is there twice or past the end" if extra else
                "its events are out of order")
        raise Refused(f"its events must run 1 to {row.length} without a gap, but {what}")
    return [{"type": e["type"], "data": e["data"], "position": e["position"],
             "at": e["created_at"], "device": e["device"], "undoes": e["undoes"]}
            for e in active]


def _check_event(event: dict) -> None:
    where = f"event {event['position']}"
    if isinstance(event["position"], bool) or not isinstance(event["position"], int) \
            or event["position"] < 1:
        raise Refused(f"an event has no valid position ({event['position']!r})")
    if not isinstance(event["type"], str) or not 0 < len(event["type"]) <= 40:
        raise Refused(f"{where} has no valid type")
    if not isinstance(event["data"], dict):
        raise Refused(f"{where}'s data is not an object")
    if event["device"] is not None and not valid_device(event["device"]):
        raise Refused(f"{where} names no valid device")
    undoes = event["undoes"]
    if undoes is not None and (isinstance(undoes, bool) or not isinstance(undoes, int)
                               or not 0 < undoes < event["position"]):
        raise Refused(f"{where} undoes a change that is not before it")


def _replay(row: PlayRow, initial: dict, active: list[dict], snapshots: dict) -> dict:
    """Replay the whole branch (redo reaches past the head); a snapshot of these rules must
    equal the replay at its position. Returns the state at the head."""
    state, head_state = initial, initial
    if 0 in snapshots or any(p > row.length for p in snapshots):
        raise Refused("it keeps a snapshot at a position it does not have")
    for event in active:
        try:
            state = apply_event(state, event, check_whole=False)
        except RuleError as err:
            raise Refused(f"event {event['position']} ({event['type']}) does not replay "
                          f"({_said(err)})") from None
        except Exception as err:  # noqa: BLE001 (whatever the rules choke on: refused)
            raise Refused(f"event {event['position']} ({event['type']}) does not replay "
                          f"({type(err).__name__})") from None
        if event["position"] in snapshots and \
                _comparable(snapshots[event["position"]]) != _comparable(state):
            raise Refused(f"its snapshot at event {event['position']} is not the replay of "
                          "its events")
        if event["position"] == row.head:
            head_state = state
    return head_state


def _comparable(state: Any) -> str:
    if not isinstance(state, dict):
        return repr(state)
    return json.dumps({k: v for k, v in state.items() if k != "version"}, sort_keys=True,
                      default=str)


def _check_reads(row: PlayRow, initial: dict, events_to_head: list[dict],
                 state: dict) -> tuple[bool, dict | None]:
    """What the play's page, history, chart and exports compute from it must compute."""
    try:
        score = score_of(state)
        summary = summary_of(state)
        meta = {"id": row.id, "game": row.game, "created_at": row.created_at,
                "updated_at": row.updated_at, "finished": state["finished"]}
        doc = export_document(meta, initial, events_to_head, score,
                              clock.read(state.get("clock"), row.updated_at))
        export_json(doc)
        export_csv(doc)
        bgstats_link(doc)
        series = round_series(initial, events_to_head)
        if len(series) > 1:
            line_chart_svg(series, state["players"], "chart")
        json.dumps(summary)
    except Exception as err:  # noqa: BLE001 (a read that would answer 500: refused)
        raise Refused(f"its score, history or export cannot be computed "
                      f"({type(err).__name__}: {err})") from None
    return bool(state["finished"]), summary


def _check_keys(conn, row: PlayRow) -> None:
    for key in conn.execute(sa.select(idempotency_keys)
                            .where(idempotency_keys.c.play_id == row.id)):
        if not isinstance(key.status, int) or not 200 <= key.status < 600 or \
                not isinstance(key.version, int) or not 0 < key.version <= row.version:
            raise Refused("a repeated-request record of it names a version it never had")
        if key.response is not None:
            try:
                json.loads(zlib.decompress(key.response))
            except (zlib.error, ValueError, TypeError):
                raise Refused("a repeated-request record of it holds a damaged answer") \
                    from None


# --------------------------------------------------------------------------- box data
def _check_box_data(table: str, row) -> None:
    try:
        game = get_game(row.game)
        game.validate_catalogue(row.data)
    except RuleError as err:
        which = "box data" if table == "catalogues" else "a saved version of the box data"
        raise BackupError(f"The backup's {which} for '{row.game}' cannot be restored "
                          f"({_said(err)}); nothing was restored.") from None


def _said(err: RuleError) -> str:
    return f"{err.field}: {err.message}" if err.field else err.message
