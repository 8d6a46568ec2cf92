"""An exported play read back as a new play (new tokens): `POST /api/v1/plays/import` and the
import page.

Reading the file, checking it and replaying its every event is CPU work of up to a few
seconds; it is made in a process of its own (companion/import_worker.py, in a pool beside
each server process: companion/process_pool.py), so the server's worker goes on answering
the tables meanwhile. The request only sends the bytes (``job``), waits, and writes what came
back (``write``): the play, its whole log and a few snapshots of its state, in one
transaction (an import of 20,000 events is one commit, not 20,000, and it is there whole or
not at all).

Every event is replayed through the checks of a live play before anything is stored (an
export holds what the app itself recorded, so whole-sheet checks added since are not made, as
for any recorded event: its score then names the problem).
"""
from __future__ import annotations

import datetime as dt
import pickle
from typing import NamedTuple

from . import clock
from .exports import parse_import, replay_import
from .games import GAMES, get_game
from .games.bodies import check
from .games.errors import RuleError
from .plays import new_state, play_body
from .seats import table_choices
from .service import Known, PlayService, summary_of
from .store import PlayRow
from .tokens import new_play_id, play_tokens, token_hash

# a snapshot of the state every this many imported events (and one at the end): an undo far
# back in a long imported log replays at most this many events; the live play keeps its own
# every service.SNAPSHOT_EVERY from then on
IMPORT_SNAPSHOT_EVERY = 1000


class Upload(NamedTuple):
    """What a request sends to be imported: the API's body (its bytes; ``field`` None) or the
    text of the import page's file or box (``field`` names it in a refusal)."""
    json: bytes | str
    field: str | None = None


def job(service: PlayService, upload: Upload) -> bytes:
    """What the import process is sent: the upload, the new play's id, the box data of this
    installation (for an export without its own), the time and how its rows are wanted."""
    return pickle.dumps({"upload": tuple(upload), "play_id": new_play_id(),
                         "catalogues": {game: service.catalogue(game) for game in GAMES},
                         "now": service.now(), "rows_driver": service.store.rows_driver},
                        pickle.HIGHEST_PROTOCOL)


def checked(doc, task: dict) -> dict:
    """(In the import process.) The export ``doc`` checked and replayed: what ``write``
    stores. Raises RuleError naming the field (``events[i]...`` for an event that does not
    replay)."""
    from .store.raw import imported_rows

    body, events, snapshot = parse_import(doc)
    game = get_game(body["game"])
    catalogue = game.validate_catalogue(snapshot) if snapshot else task["catalogues"][game.id]
    if body.get("seed") is None:
        raise RuleError("The export has no seed.", "seed")
    request = check(play_body(), body)         # as a new play's body (options null: defaults)
    now: dt.datetime = task["now"]
    initial = table_choices(new_state(game.id, body["players"], request.options, request.seed,
                                      catalogue, clock.parse(doc.get("started_at")) or now),
                            request)
    # each event at its own time (the import's clock counts the same), else now: the times
    # its rows keep, so a later replay from the rows gives this very state
    timed = [{"type": e["type"], "data": e["data"], "at": clock.parse(e.get("at")) or now}
             for e in events]
    state, kept = replay_import(initial, timed, IMPORT_SNAPSHOT_EVERY)
    count = len(timed)
    if count:
        kept[count] = state
    return {"play_id": task["play_id"], "game": game.id, "initial": initial, "count": count,
            "state": state, "snapshots": kept, "summary": summary_of(state),
            "rows": imported_rows(task["play_id"], timed, task["rows_driver"])}


def write(service: PlayService, answer: bytes) -> tuple[PlayRow, dict]:
    """The import process's answer stored: the new play's row and its {"edit", "view",
    "seats"} tokens; or its refusal raised (a RuleError, as the check raised it)."""
    done = pickle.loads(answer)
    if "refused" in done:
        message, field, code, status, fields = done["refused"]
        raise RuleError(message, field, code, status, fields)
    initial, state, count = done["initial"], done["state"], done["count"]
    tokens = play_tokens(len(initial["players"]))
    play_id = done["play_id"]
    service.store.import_play(
        play_id, done["game"], initial, token_hash(tokens["edit"]), token_hash(tokens["view"]),
        done["rows"], count, finished=state["finished"], summary=done["summary"],
        snapshots=done["snapshots"], rules=service.rules,
        seat_hashes=[token_hash(t) for t in tokens["seats"]])
    service.cache.put((play_id, count), Known(dict(state, version=count), count))
    return service.load(play_id), tokens
