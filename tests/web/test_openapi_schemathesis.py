"""The OpenAPI document describes the API exactly: schemathesis generates requests from
/api/v1/openapi.json (bodies the schema allows and bodies it forbids, every documented
operation) and runs every one of its checks on every answer (status codes and content types
documented, answers matching their schemas, headers such as Allow on a 405, invalid data
refused and valid data accepted, authentication really checked, ...), against the Flask app
itself (WSGI, no network)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import jsonschema_rs
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.core.marks import METADATA_ATTR
from schemathesis.generation import GenerationMode
from schemathesis.pytest import _test_builder
from schemathesis.specs.openapi.checks import ParameterLocation

from companion.games import GAMES
from companion.games.errors import RuleError
from companion.owner import owner_key
from companion.plays import event_body
from tests.conftest import make_app, standalone

load_all_checks()
ALL_CHECKS = CHECKS.get_all()


def build_when_run(**how):
    """schemathesis builds each operation's test while pytest collects it, its coverage cases
    included (about 23,000 here, ~25 s of CPU), and with `make test`'s `-n 2` both xdist
    workers collect every test: each built all 36 tests, then ran half of them. This builds
    an operation's test, with the same arguments, the first time it runs, in the worker that
    runs it; schemathesis's marks (the operation, what could not be generated) are the built
    test's, which its pytest plugin reads after the run. (schemathesis is pinned to one
    version in pyproject.toml: `_gen_items` imports build_operation_test when it is called.)"""
    built = []

    def test():
        if not built:
            built.append(BUILD(**how))
            setattr(test, METADATA_ATTR, getattr(built[0], METADATA_ATTR))
        return built[0]()

    return test


BUILD = _test_builder.build_operation_test
_test_builder.build_operation_test = build_when_run
# per operation and mode: the whole run stays well under two minutes (NSC_EXAMPLES=100 for a
# deeper look by hand)
EXAMPLES = int(os.environ.get("NSC_EXAMPLES", 15))


# The contract (shared/design/api.md): a 422 is well-formed JSON that breaks a game's rule (a
# wrong player count, an event out of turn): rules a schema of shapes does not hold, so a
# schema-valid body may meet one. A 413 is a body past 256 KiB (api.md; 8 MiB for an import):
# no schema bounds the bytes of a document.
RULES = ["2xx", "401", "403", "404", "409", "413", "422", "429"]
# No 400 is excused on a body the document allows: every rule across fields, entries or
# players (the same name twice or look-alike names, a name only invisible characters or too
# long once normalised, 'neutral', a box data entry listed twice, a second place above the
# first, a layout against the book's list, sheets impossible as a whole) is a 422 with its
# code, and a 400 is only for a body that is not the documented shape (api.md).
CONFIG = schemathesis.Config.from_dict({
    # the same examples on every run: a CI failure is one to reproduce, never a fluke
    "generation": {"max-examples": EXAMPLES, "mode": "all", "deterministic": True},
    "max-stream-events": 1,          # the live stream: its first event, then hang up
    "checks": {"positive_data_acceptance": {"expected-statuses": RULES},
               # schemathesis's list, with 413 (a body past 256 KiB, api.md) and without 5xx
               "negative_data_rejection": {"expected-statuses": [
                   "400", "401", "403", "404", "405", "406", "409", "413", "415", "422",
                   "428", "429"]}},
})
# one app for the module (each xdist worker imports its own), on a temporary SQLite database
API_APP = make_app(Path(tempfile.mkdtemp(prefix="nsc-schemathesis-")))
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", API_APP, config=CONFIG)


EVENTS = "/api/v1/plays/{play_id}/events"
# each game's Event<Game> as declared (a lone surrogate, which no pattern says, is a 400
# invalid_text on every operation alike)
EVENT_OF = {g: jsonschema_rs.validator_for(standalone(event_body(g))) for g in GAMES}
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
OPTIONS = {"explorers": {"rocks_of_ruin": True}}      # every row of its sheet in play


def game_of(case) -> str:
    """The game of the play an event goes to: one whose Event<Game> schema validates the body;
    for a body that fits none (a negative case), one that takes its type, so the game's own
    handler meets it (else Knarr)."""
    if case.path == EVENTS and isinstance(case.body, dict):
        for game_id, event in EVENT_OF.items():
            if event.is_valid(case.body):
                return game_id
        for game_id, game in GAMES.items():
            if case.body.get("type") in game.event_types:
                return game_id
    return "knarr"


def seats_for(game_id: str, body) -> list[str]:
    """Players named as the event names them (data.player, the keys of an island's
    influence), filled up with SEATS to the game's minimum, so that a schema-valid event
    meets the rules of the play and not just 'nobody of that name is playing'."""
    data = body.get("data") if isinstance(body, dict) else None
    named = []
    if isinstance(data, dict):
        named += [data["player"]] if isinstance(data.get("player"), str) else []
        named += list(data["influence"]) if isinstance(data.get("influence"), dict) else []
    game, seats = GAMES[game_id], []
    for name in [*named, *SEATS]:
        if name != "neutral" and name.casefold() not in {s.casefold() for s in seats}:
            seats.append(name)
    return seats[:max(game.min_players, min(len(named), game.max_players))]


KEPT: dict[tuple, dict] = {}


def fresh_play(app, case, kept: bool) -> dict:
    """A new play for the case (through the service: POST /api/v1/plays is an operation of
    its own here), or, for a body the document forbids (``kept``), one play per game and
    seats, kept: such a body must be refused and so changes nothing (were one accepted, the
    negative_data_rejection check fails that case). A new play per case cost half of this
    test's time: about 5,000 cases on the events operation alone."""
    game_id = game_of(case)
    for seats in (seats_for(game_id, case.body), SEATS[:max(2, GAMES[game_id].min_players)]):
        if kept and (game_id, *seats) in KEPT:
            return KEPT[(game_id, *seats)]
        body = {"game": game_id, "players": seats, "seed": 1,
                "options": OPTIONS.get(game_id, {})}
        with app.app_context():
            try:
                row, tokens, state = app.extensions["companion"].create(body)
            except RuleError:            # a name no play takes: the default seats
                continue
        play = {"id": row.id, "edit_token": tokens["edit"], "version": state["version"]}
        if kept:
            KEPT[(game_id, *seats)] = play
        return play
    raise AssertionError(f"no play of {game_id} for {case.body!r}")


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_matches_its_openapi_document(case):
    """Where a case names a play (and that part of it is meant to be valid) it gets a real
    play and its edit token; the box data operations get the owner key."""
    components = case.meta.components if case.meta else {}
    path_mode = components.get(ParameterLocation.PATH)
    path_valid = path_mode is None or path_mode.mode == GenerationMode.POSITIVE
    # content coding is HTTP's business, not the document's: ask for plain bodies, as the
    # WSGI transport does not decode br/gzip
    headers = {"Accept-Encoding": "identity"}
    if "play_id" in (case.path_parameters or {}) and path_valid:
        body_mode = components.get(ParameterLocation.BODY)
        refused = body_mode is not None and not body_mode.mode.is_positive
        play = fresh_play(API_APP, case, kept=refused)
        case.path_parameters["play_id"] = play["id"]
        if case.path == EVENTS and not refused and isinstance(case.body, dict) \
                and isinstance(case.body.get("expected_version"), int):
            # the fresh play's version: a random one would be a 409 before the data is read
            case.body["expected_version"] = play["version"]
        headers["Authorization"] = f"Bearer {play['edit_token']}"
    elif case.path.startswith("/api/v1/catalogue/") and case.method != "GET":
        headers["Authorization"] = f"Bearer {owner_key(API_APP)}"
    response = case.call(headers=headers)
    case.validate_response(response, checks=ALL_CHECKS, headers=headers)

