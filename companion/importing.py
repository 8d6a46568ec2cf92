"""An exported play read back as a new play (new tokens): `POST /api/v1/plays/import` and the
import page.

Every event is replayed through the checks of a live play before anything is stored (an
export holds what the app itself recorded, so whole-sheet checks added since are not made, as
for any recorded event: its score then names the problem). Then the play, its whole log and a
few snapshots of its state are written in one transaction: an import of 20,000 events is one
commit, not 20,000, and it is there whole or not at all.
"""
from __future__ import annotations

from . import clock
from .exports import parse_import, replay_import
from .games import get_game
from .games.bodies import check
from .games.errors import RuleError
from .plays import new_state, play_body
from .seats import table_choices
from .service import Known, PlayService, summary_of
from .store import PlayRow
from .tokens import new_play_id, play_tokens, token_hash
from .turns import in_turns

# a snapshot of the state every this many imported events (and one at the end): an undo far
# back in a long imported log replays at most this many events; the live play keeps its own
# every service.SNAPSHOT_EVERY from then on
IMPORT_SNAPSHOT_EVERY = 1000


def import_play(service: PlayService, doc) -> tuple[PlayRow, dict]:
    """The new play's row and its {"edit", "view", "seats"} tokens. Raises RuleError naming
    the field (``events[i]...`` for an event that does not replay); nothing is stored then."""
    body, events, snapshot = parse_import(doc)
    game = get_game(body["game"])
    catalogue = game.validate_catalogue(snapshot) if snapshot else service.catalogue(game.id)
    if body.get("seed") is None:
        raise RuleError("The export has no seed.", "seed")
    request = check(play_body(), body)         # as a new play's body (options null: defaults)
    initial = table_choices(new_state(game.id, body["players"], request.options, request.seed,
                                      catalogue,
                                      clock.parse(doc.get("started_at")) or service.now()),
                            request)
    now = service.now()
    # each event at its own time (the import's clock counts the same), else now: the times
    # its rows keep, so a later replay from the rows gives this very state
    timed = [{"type": e["type"], "data": e["data"], "at": clock.parse(e.get("at")) or now}
             for e in in_turns(events, 100)]
    state, kept = replay_import(initial, timed, IMPORT_SNAPSHOT_EVERY)
    count = len(timed)
    if count:
        kept[count] = state
    tokens = play_tokens(len(initial["players"]))
    play_id = new_play_id()
    service.store.import_play(
        play_id, game.id, initial, token_hash(tokens["edit"]), token_hash(tokens["view"]),
        timed, finished=state["finished"], summary=summary_of(state),
        snapshots=kept, rules=service.rules,
        seat_hashes=[token_hash(t) for t in tokens["seats"]])
    service.cache.put((play_id, count), Known(dict(state, version=count), count))
    return service.load(play_id), tokens
