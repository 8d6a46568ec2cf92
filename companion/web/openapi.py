"""The OpenAPI 3.1 document of /api/v1 (the contract in shared/design/api.md)."""
from __future__ import annotations

import copy
import re

from ..games import GAMES
from ..games.inputs import MAX_NUMBER
from .openapi_catalogue import JSON_VALUE, catalogue_schema, put_body, rule_codes

GAME_IDS = list(GAMES)
ERROR = {"$ref": "#/components/schemas/Error"}
JSON_OBJECT = {"type": "object"}
DEVICE = {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[!-~]+$",
          "description": "The device (phone or client) making the change: 1 to 64 printable "
                         "ASCII characters without spaces. Recorded with the event; undo "
                         "with a device takes back that device's last change."}
# an undo or redo names the device whose own change it is, or the version it saw: not both
ONE_OR_THE_OTHER = {"required": ["device", "expected_version"], "properties": {
    "device": {"type": "string"}, "expected_version": {"type": "number"}}}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[ -~]+$"},
    "description": "One key per change (e.g. a UUID made when the person tapped), 1 to 100 "
                   "printable ASCII characters. A repeat with the same key on the same play "
                   "within 24 hours records nothing and answers the first answer's status and "
                   "body (the state right after the first request, not today's) with the "
                   "header Idempotent-Replayed: true. A request that failed recorded nothing, "
                   "so its repeat is tried afresh. The key is stored in the transaction of the "
                   "change, so two identical requests at once record once. A malformed key is "
                   "a 400 naming the header."}
REPLAYED = {"Idempotent-Replayed": {
    "description": "true when this is the stored answer to a repeated Idempotency-Key",
    "schema": {"type": "string", "enum": ["true"]}}}


SSE_EVENT = {"type": "object", "required": ["event", "data"],
             "description": "One server-sent event: the play's version as text",
             "properties": {"event": {"type": "string", "enum": ["version"]},
                            "data": {"type": "string", "pattern": "^[0-9]+$"},
                            "retry": {"type": "integer", "minimum": 0},
                            "id": {"type": "string"}}}


def _errors(*codes: int) -> dict:
    return {str(c): {"description": "error", "content": {"application/json": {"schema": ERROR}}}
            for c in codes}


def _ok(schema: dict, status: str = "200", kind: str = "application/json") -> dict:
    return {status: {"description": "success", "content": {kind: {"schema": schema}}}}


def _change_ok() -> dict:
    ok = _ok(_ref("StateResponse"))
    ok["200"]["headers"] = REPLAYED
    return ok


def _body(schema: dict, required: bool = True) -> dict:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _path_param(name: str, enum: list | None = None) -> dict:
    schema = {"type": "string", "maxLength": 64}
    if enum:
        schema = {"type": "string", "enum": enum}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def _op(summary, responses, body=None, params=(), secure=False) -> dict:
    op = {"summary": summary, "responses": responses}
    if body:
        op["requestBody"] = body
    if params:
        op["parameters"] = list(params)
    if secure:
        op["security"] = [{"bearer": []}]
    return op


def _schemas() -> dict:
    state = {"type": "object", "required": ["version", "round", "phase", "players", "setup",
                                            "sheets", "score", "finished", "clock"],
             "properties": {"clock": _ref("Clock")}}
    return {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                           "field": {"type": "string"},
                           "fields": {"type": "array", "items": {"type": "string"},
                                      "description": "Every field to blame, when a sheet "
                                                     "cannot happen as a whole (code "
                                                     "impossible_sheet)."}}}}},
        "SetupRequest": {"type": "object", "properties": {
            "players": {"type": "array", "items": {"type": "string"}},
            "seed": {"type": ["string", "integer"]}, "options": JSON_OBJECT}},
        "ScoreRequest": {"type": "object", "properties": {
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "sheet": JSON_OBJECT}}},
            "options": JSON_OBJECT}},
        "ScoreResponse": {"type": "object", "required": ["players", "winners", "tiebreak"],
                          "properties": {
                              "tiebreaks": {
                                  "type": "array", "items": {"type": "string"},
                                  "description": "A sentence for every group of tied players, "
                                                 "best place first."},
                              "notes": {
                                  "type": "array", "items": {"type": "string"},
                                  "description": "Where the rules leave a value on the sheets "
                                                 "open: accepted without a check, and said."}}},
        "PlayRequest": {"type": "object", "required": ["game", "players"], "properties": {
            "game": {"type": "string", "enum": GAME_IDS},
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "colour": {"type": "string"}}}},
            "options": JSON_OBJECT, "seed": {"type": ["string", "integer"]}}},
        "State": state,
        "CatalogueVersions": {"type": "object", "required": ["game", "versions"], "properties": {
            "game": {"type": "string"},
            "versions": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "integer"}, "saved_at": {"type": "string", "format": "date-time"},
                "source": {"type": "string"}}}}}},
        "StateResponse": {"type": "object", "required": ["state"],
                          "properties": {"state": {"$ref": "#/components/schemas/State"}}},
        "Event": {"type": "object", "required": ["type"], "properties": {
            "type": {"type": "string", "description": (
                "Every game: sheet, advance, finish, box_value, and the game clock's pause "
                "(stop counting play time) and resume (count on); each game adds its own.")},
            "data": {"type": "object", "description": (
                'e.g. {"player", "fields": {...}} to set sheet fields, {"player", "add": '
                '{field: n}} to add n to a number field ({field: {key: n}} for a counts or '
                'choices field; a result outside the field\'s bounds is a 422 '
                'out_of_range, nothing is clamped), or a game\'s own event data (Reavers '
                '"territories" and Explorers "update_island" / "set_influence" also take '
                '"add"). Adds commute: send them without expected_version.')},
            "expected_version": {"type": ["integer", "null"], "description": (
                "The version the change was made on: a stale one is a 409 and records "
                "nothing. Absent or null: no check; such a write waits for the play's lock "
                "and never answers 409.")},
            "device": DEVICE},
            "examples": [{"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 4}}},
                         {"type": "sheet", "data": {"player": "Ann", "add": {"vp": 1}}},
                         {"type": "pause"}, {"type": "resume"}]},
        "Clock": {
            "type": "object", "required": ["started_at", "finished_at", "running", "elapsed_s"],
            "description": "The game clock: paused time is not counted; elapsed_s of a running "
                           "play counts up to the moment of the answer.",
            "properties": {
                "started_at": {"type": ["string", "null"], "format": "date-time"},
                "finished_at": {"type": ["string", "null"], "format": "date-time"},
                "running": {"type": "boolean"},
                "elapsed_s": {"type": "integer", "minimum": 0}}},
        "UndoRequest": {"type": "object", "not": ONE_OR_THE_OTHER, "properties": {
            "expected_version": {"type": ["integer", "null"]},
            "device": {**DEVICE, "description": (
                "Undo this device's last change instead of the latest one (the clock's pause "
                "and resume are never changes to undo): a sheet or counter change gets a "
                "compensating event recorded as this device's undo; a change no event inverts "
                "(a turn end, advance) moves the head back when nothing but the clock came "
                "after it (those clock events are recorded again); anything else is a 409 "
                "cannot_undo_out_of_order with a sentence, nothing left a 409 "
                "nothing_to_undo. Not together with expected_version.")}}},
        "RedoRequest": {"type": "object", "not": ONE_OR_THE_OTHER, "properties": {
            "expected_version": {"type": ["integer", "null"]},
            "device": {**DEVICE, "description": (
                "Redo this device's last undo instead of the latest undone event: its "
                "compensating event is taken back in turn, or the head moves on over the "
                "device's own change; a change the device made since ends the redo (409 "
                "nothing_to_redo), one changed again since on another phone is a 409 "
                "cannot_redo. Not together with expected_version.")}}},
    }


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


# The events body: the Event<Game> of the play's game (a schema cannot see which game the
# play in the path is, so any of them; each is exact for its game: companion.web.openapi_events).
EVENT_BODY = {"anyOf": [{"$ref": f"#/components/schemas/Event{g.capitalize()}"} for g in GAMES],
              "description": "An event for the play's game: the Event schema of that game "
                             "(EventKnarr, EventExplorers, ...). Event describes all in words."}


def _paths() -> dict:
    game = _path_param("game_id", GAME_IDS)
    play = _path_param("play_id")
    return {
        "/api/v1/games": {"get": _op("The games and their options", _ok({
            "type": "object", "required": ["games"]}))},
        "/api/v1/games/shipwrights/heroes": {"post": _op(
            "Who holds each Hero", {**_ok(JSON_OBJECT), **_errors(400, 415, 422)},
            _body(_ref("HeroesRequest")))},
        "/api/v1/plays": {"post": _op(
            "Start a play", {**_ok(JSON_OBJECT, "201"),
                             **_errors(400, 404, 413, 415, 422, 429)},
            _body(_ref("PlayRequest")))},
        "/api/v1/plays/{play_id}": {
            "get": _op("A play's state", {**_ok(_ref("StateResponse")), **_errors(401, 403)},
                       params=[play], secure=True),
            "delete": _op("Delete the play and all its events (edit token, or the owner key "
                          "for any play)", {"204": {"description": "deleted"},
                                            **_errors(401, 403, 404, 429)},
                          params=[play], secure=True)},
        "/api/v1/plays/{play_id}/events": {"post": _op(
            "Record an event", {**_change_ok(),
                                **_errors(400, 401, 403, 409, 413, 415, 422, 429)},
            _body(EVENT_BODY), [play, IDEMPOTENCY_KEY], True)},
        "/api/v1/plays/{play_id}/undo": {"post": _op(
            "Undo the last event (or, with device, that device's last change)",
            {**_change_ok(), **_errors(400, 401, 403, 409, 415, 422, 429)},
            _body(_ref("UndoRequest"), False), [play, IDEMPOTENCY_KEY], True)},
        "/api/v1/plays/{play_id}/redo": {"post": _op(
            "Redo an undone event (or, with device, that device's last undo)",
            {**_change_ok(), **_errors(400, 401, 403, 409, 415, 422, 429)},
            _body(_ref("RedoRequest"), False), [play, IDEMPOTENCY_KEY], True)},
        "/api/v1/plays/{play_id}/scoresheet.pdf": {"get": _op(
            "The score sheet as PDF", {**_ok({"type": "string"}, kind="application/pdf"),
                                       **_errors(401, 403, 429)}, params=[play], secure=True)},
        "/api/v1/plays/{play_id}/join.svg": {"get": _op(
            "A QR code of the play's view link",
            {**_ok({"type": "string"}, kind="image/svg+xml"), **_errors(401, 403)},
            params=[play], secure=True)},
        "/api/v1/plays/{play_id}/live": {"get": _op(
            "Server-sent events: 'event: version' with the play's version at once and at "
            "every change (from any worker or server), a ': heartbeat' comment every 15 s; "
            "the server ends the stream after 10 minutes (reconnect, as EventSource does)",
            {**_ok(SSE_EVENT, kind="text/event-stream"), **_errors(401, 403, 404)},
            params=[play], secure=True)},
        "/api/v1/plays/{play_id}/export": {"get": _op(
            "The play as JSON: players, options, seed, box data, every event, the result",
            {**_ok(JSON_OBJECT), **_errors(401, 403)}, params=[play], secure=True)},
        "/api/v1/plays/import": {"post": _op(
            "A new play (new tokens) from an export, its events replayed through every check "
            "(sheet checks added after the play was recorded excepted)",
            {**_ok(JSON_OBJECT, "201"), **_errors(400, 404, 413, 415, 422, 429)},
            _body(_ref("ImportRequest")))},
        **catalogue_paths(),
        "/api/v1/catalogue/{game_id}/versions": {"get": _op(
            "The kept versions of the box data, newest first",
            {**_ok(_ref("CatalogueVersions")), **_errors(404)}, params=[game])},
        "/api/v1/catalogue/{game_id}/versions/{version_id}/restore": {"post": _op(
            "Make a kept version the box data again (owner key; kept as a new version)",
            {**_ok(JSON_OBJECT), **_errors(401, 403, 404)},
            params=[game, {"name": "version_id", "in": "path", "required": True,
                           "schema": {"type": "integer"}}], secure=True)},
        "/api/v1/catalogue/{game_id}/undo": {"post": _op(
            "Undo the latest save or import of the box data (owner key)",
            {**_ok(JSON_OBJECT), **_errors(401, 403, 404, 409)}, params=[game], secure=True)},
        "/api/v1/openapi.json": {"get": _op("This document", _ok(JSON_OBJECT))},
        **_game_paths(),
    }


def catalogue_paths() -> dict:
    """Each game's box data at its own path, as its PUT body is that game's Catalogue<Game>
    (a body cannot depend on a path parameter). GET sits there too: a templated GET beside
    them would document PUT as a method /api/v1/catalogue/<game> does not have."""
    paths = {}
    for game_id, game in GAMES.items():
        component = f"Catalogue{game_id.capitalize()}"
        codes = "; ".join(f"{code}: {why}" for code, why in rule_codes(game).items())
        saved = {"type": "object", "required": ["game", "catalogue"], "properties": {
            "game": {"const": game_id}, "catalogue": _ref(component)}}
        read = {**saved, "required": ["game", "catalogue", "help"], "properties": {
            **saved["properties"], "help": {"type": "string"}}}
        paths[f"/api/v1/catalogue/{game_id}"] = {
            "get": _op(f"The {game.name} box data (empty until saved)", _ok(read)),
            "put": _op(
                f"Replace the {game.name} box data (owner key as the bearer token; the "
                "previous version is kept). The body is the box data, or an object holding "
                "it as \"catalogue\" (what GET answers). A body of this shape is refused "
                f"(400) only for what no schema can say{': ' + codes if codes else ''}.",
                {**_ok(saved), **_errors(400, 401, 403, 413, 415)},
                _body(put_body(component)), secure=True)}
    return paths


def catalogue_components(schemas: dict) -> dict:
    schemas.update({f"Catalogue{game_id.capitalize()}": catalogue_schema(game)
                    for game_id, game in GAMES.items()})
    schemas["JsonValue"] = copy.deepcopy(JSON_VALUE)
    return schemas


SETUP_SUMMARY = (
    "A seeded setup. Seafarers: option layout 'book' (Four Islands, Oceans and Through the "
    "Wasteland as the owner entered the book's diagram; until then the positions with terrain "
    "null and layout_entered false) or 'variable' (the app's own, not the book's); option "
    "target_vp only for The Great Crossing, whose book gives none (target_vp null until set); "
    "every hex has a short label; pirate and robber with pirate_note and robber_note")


def _game_paths() -> dict:
    """POST /games/<id>/setup and /score, one path per game: the body is that game's own
    (its options, its sheet), which a templated path could not say (a schema cannot depend on
    a path parameter). The URLs are the contract's, unchanged."""
    paths = {}
    for game_id, game in GAMES.items():
        key = game_id.capitalize()
        paths[f"/api/v1/games/{game_id}/setup"] = {"post": _op(
            f"{game.name}: a seeded setup" + (f". {SETUP_SUMMARY}" if game_id == "seafarers"
                                              else ""),
            {**_ok(JSON_OBJECT), **_errors(400, 413, 415, 422)},
            _body(_ref(f"SetupRequest{key}")))}
        paths[f"/api/v1/games/{game_id}/score"] = {"post": _op(
            f"{game.name}: final scores", {**_ok(_ref("ScoreResponse")),
                                           **_errors(400, 413, 415, 422)},
            _body(_ref(f"ScoreRequest{key}")))}
    return paths


def openapi_document(app=None) -> dict:
    return sane_text({
        "openapi": "3.1.0",
        "info": {"title": "North Sea Companion API", "version": "1",
                 "description": "Setup, scoring and plays for five seafaring board games. "
                                + TEXT_WORDS},
        "paths": _paths(),
        "components": {"schemas": catalogue_components(game_content(_tightened(_schemas()))),
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    })


# ------------------------------------------------------------------ text the server takes
# Every string and every key of a request is refused (400 invalid_text, companion.web.jsoncheck)
# when it holds NUL or a lone surrogate escape ("\udaa9" parses, but no page could show it):
# a rule of the whole API, so it is written into every schema of the document in one pass
# rather than into each one by hand. ECMA-262 and Python regular expressions read it alike.
# NUL only: a pattern naming surrogates (\ud800-\udfff) is no regex to jsonschema_rs, the
# validator schemathesis generates with (Rust strings hold no surrogate), which then dropped
# the whole rule and sent NUL in "valid" bodies. No UTF-8 client sends a lone surrogate
# unescaped; TEXT_WORDS says that part in the document's description.
TEXT_PATTERN = "^[^\\x00]*$"
TEXT_WORDS = ("Every string and key of a request is text without NUL (every string schema says "
              "so) and without lone surrogate escapes such as \"\\udaa9\" (no pattern a "
              "validator reads alike can say so): either is a 400 invalid_text.")
_SUBSCHEMA_KEYS = ("items", "additionalProperties", "propertyNames", "not", "contains",
                   "unevaluatedProperties", "unevaluatedItems", "if", "then", "else")
_SUBSCHEMA_LISTS = ("oneOf", "anyOf", "allOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")


def _types(schema: dict) -> set:
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if kind else set()


# Patterns already in the document, each with the text rule folded in: a generator meets one
# regular expression more reliably than two under allOf. A pattern of printable ASCII only
# (the device, the Idempotency-Key) holds the rule already.
_TEXT = "[^\\x00]"


def _python_space() -> str:
    """Python's whitespace (str.isspace: what the server's strip() and split() remove) as
    escapes for a character class. Engines disagree on \\s (Rust's and ECMA-262's leave out
    \\x1c-\\x1f and \\x85, ECMA-262 adds \\ufeff), so "not blank" spells it out."""
    codes = [c for c in range(0x10000) if chr(c).isspace()]      # none lies above the BMP
    runs = [[codes[0], codes[0]]]
    for code in codes[1:]:
        if code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(f"\\u{a:04x}" + (f"-\\u{b:04x}" if b > a else "") for a, b in runs)


PYTHON_SPACE = _python_space()
WITH_TEXT_RULE = {"\\S": f"^{_TEXT}*[^\\x00{PYTHON_SPACE}]{_TEXT}*$"}
_ASCII_ONLY = re.compile(r"\^\[[ -~]-~\][+*]\$|\^\[0-9\][+*]\$")


def _with_pattern(schema: dict) -> None:
    if "pattern" not in schema:
        schema["pattern"] = TEXT_PATTERN
    elif schema["pattern"] in WITH_TEXT_RULE:
        schema["pattern"] = WITH_TEXT_RULE[schema["pattern"]]
    elif schema["pattern"] not in (TEXT_PATTERN, *WITH_TEXT_RULE.values()) \
            and not _ASCII_ONLY.fullmatch(schema["pattern"]):
        rule = {"pattern": TEXT_PATTERN}
        if rule not in schema.setdefault("allOf", []):
            schema["allOf"].append(rule)


def _sane_schema(schema) -> None:
    if not isinstance(schema, dict):
        return
    if "string" in _types(schema):
        _with_pattern(schema)
    opens_keys = schema.get("additionalProperties", True) is not False
    if ("object" in _types(schema) or "properties" in schema) and opens_keys:
        names = schema.setdefault("propertyNames", {})
        if isinstance(names, dict):
            _with_pattern(names)
    for key in _SUBSCHEMA_KEYS:
        _sane_schema(schema.get(key))
    for key in _SUBSCHEMA_LISTS:
        for sub in schema.get(key) or ():
            _sane_schema(sub)
    for key in _SUBSCHEMA_MAPS:
        for sub in (schema.get(key) or {}).values():
            _sane_schema(sub)


def sane_text(document: dict) -> dict:
    """The document with the text rule in every schema a request is checked against (a deep
    copy: the module's schema constants are shared between operations and stay as written).
    Answers are left alone: an error names the field at fault, NUL and all."""
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    requests = []
    for operations in document["paths"].values():
        for op in operations.values():
            requests += [param.get("schema") for param in op.get("parameters", ())]
            requests += [media.get("schema") for media in
                         op.get("requestBody", {}).get("content", {}).values()]
    used = [schemas[name] for name in _referenced(requests, schemas)]
    # (+ the generic Event, SetupRequest and ScoreRequest: the bodies in words; each game's
    # Event<Game>, SetupRequest<Game> and ScoreRequest<Game> is the body)
    generic = [schemas[name] for name in ("Event", "SetupRequest", "ScoreRequest")]
    for schema in requests + used + generic:
        _sane_schema(schema)
    return document


def _referenced(roots: list, schemas: dict) -> list[str]:
    """The names of the components the schemas in ``roots`` use, directly or through others."""
    prefix, found, stack = "#/components/schemas/", [], list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix) and ref[len(prefix):] not in found:
                found.append(ref[len(prefix):])
                stack.append(schemas[ref[len(prefix):]])
            stack.extend(v for k, v in node.items() if k != "$ref")
    return found


# ------------------------------------------------------------------ the shape the server checks
# What the server refuses with a 400 before any game rule is asked, written into the request
# schemas, so a body the document allows is one the server takes (schemathesis checks both ways:
# tests/web/test_openapi_schemathesis.py). Kept apart from the schemas above so they read as the
# contract's shapes.
MAX_SEED_TEXT = 200         # companion.plays.MAX_SEED
MAX_NAME = 40               # companion.games.inputs.MAX_NAME
NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": "\\S",
        "description": "A player's name: 1 to 40 characters as sent and after Unicode NFKC "
                       "normalisation (invisible format characters removed, spaces collapsed); "
                       "names that are equal then, ignoring case, are the same player (a 400)."}
SEED = {"type": ["string", "integer", "null"], "minLength": 1, "maxLength": MAX_SEED_TEXT,
        "pattern": "\\S", "minimum": -(2**63) + 1, "maximum": 2**63 - 1,
        "description": "The same seed gives the same setup on any machine; absent, null or "
                       "empty: a fresh one (the answer says which). Text of digits is the "
                       "same seed as that number."}
SEAT = {"oneOf": [NAME, {"type": "object", "required": ["name"], "additionalProperties": False,
                         "properties": {"name": NAME, "colour": {"type": "string"}}}]}


def marker_positions() -> dict:
    """Shipwrights' three markers (shipwrights.heroes.parse_positions): all three, 0..18."""
    from ..games.shipwrights.rules import TRACK_END, TRACKS

    return {"type": "object", "required": list(TRACKS), "additionalProperties": False,
            "properties": {t: {"type": "integer", "minimum": 0, "maximum": TRACK_END}
                           for t in TRACKS},
            "description": "Marker positions on the three tracks."}


def heroes_request() -> dict:
    """POST /games/shipwrights/heroes: every player's (and the neutral's) three marker
    positions, from companion.games.shipwrights (its tracks, track end and most holders)."""
    from ..games.shipwrights.heroes import MAX_HOLDERS

    positions = marker_positions()
    return {"type": "object", "required": ["tracks"], "additionalProperties": False,
            "properties": {
                "tracks": {"type": "object", "propertyNames": NAME, "minProperties": 1,
                           "additionalProperties": positions,
                           "description": f"Each player's positions by name (1 to "
                                          f"{MAX_HOLDERS} players; more is a 422). A name "
                                          "that spells 'neutral', or equals another after "
                                          "normalisation, is a 400."},
                "neutral": {"anyOf": [positions, {"type": "null"}],
                            "description": "The neutral player's markers, or null."}}}


def _tightened(schemas: dict) -> dict:
    from ..plays import COLOURS

    seat = {"oneOf": [SEAT["oneOf"][0], {**SEAT["oneOf"][1], "properties": {
        "name": NAME, "colour": {"type": ["string", "null"], "enum": [*COLOURS, None],
                                  "description": "absent or null: the seat's colour"}}}]}
    schemas["SetupRequest"].update(additionalProperties=False, properties={
        **schemas["SetupRequest"]["properties"],
        "players": {"type": "array", "items": NAME, "uniqueItems": True}, "seed": SEED})
    schemas["PlayRequest"].update(additionalProperties=False, properties={
        **schemas["PlayRequest"]["properties"],
        "players": {"type": "array", "items": seat, "uniqueItems": True}, "seed": SEED})
    schemas["HeroesRequest"] = heroes_request()
    for name in ("Event", "UndoRequest", "RedoRequest"):
        schemas[name]["additionalProperties"] = False
    schemas["Event"]["properties"]["data"] = {**schemas["Event"]["properties"]["data"],
                                              "type": ["object", "null"]}   # null: {}
    for name in ("Event", "UndoRequest"):           # null: no device named
        schemas[name]["properties"]["device"] = {
            **schemas[name]["properties"]["device"], "type": ["string", "null"]}
    saved = schemas["CatalogueVersions"]["properties"]["versions"]["items"]["properties"]
    saved["saved_at"] = {"type": "string", "description": "When it was saved: ISO 8601, UTC "
                                                          "(no offset written)"}
    schemas["UndoRequest"]["not"] = {
        "description": "device and a whole-number expected_version together are a 400",
        "required": ["device", "expected_version"],
        "properties": {"expected_version": {"type": "integer"}}}
    return schemas


# ------------------------------------------------------------------ each game's own content
# Made from the games' own definitions (companion/games: Game.options, Game.sheet_fields), never
# written per game, so a new option or score-sheet row is in the document the day it is added.
def _option_schema(option) -> dict:
    words = {"description": option.label, "default": option.default}
    if option.kind == "bool":
        return {"type": "boolean", **words}
    if option.kind == "choice":
        return {"enum": list(option.choices), **words}
    if option.kind == "int":
        kind = "integer" if option.default is not None else ["integer", "null"]
        return {"type": kind, "minimum": option.minimum, "maximum": option.maximum, **words}
    return words


def options_schema(game) -> dict:
    """A game's setup options: each Option by its kind, and the structured ones the game
    checks itself (option_passthrough) by their own schemas."""
    properties = {o.name: _option_schema(o) for o in game.options}
    structured = structured_options(game.id)
    assert set(structured) == set(game.option_passthrough), game.id
    properties.update(structured)
    return {"type": "object", "additionalProperties": False, "properties": properties,
            "description": f"{game.name}: its setup options (GET /api/v1/games lists them "
                           "with their defaults).", **option_rules(game.id)}


def option_rules(game_id: str) -> dict:
    """Rules between a game's options that a schema can say."""
    if game_id == "shipwrights":       # Nemesis cards by id or by number, not both
        return {"not": {"required": ["nemesis", "nemesis_cards"], "properties": {
            "nemesis": {"type": "array", "minItems": 1},
            "nemesis_cards": {"type": "integer", "minimum": 1}}}}
    return {}


def _field_schema(field) -> dict:
    number = {"type": "integer", "minimum": field.minimum, "maximum": field.maximum}
    words = {"description": field.label + (f" (only with the option {field.when})"
                                           if field.when else "")}
    if field.kind == "int":
        return {**number, **words}
    if field.kind == "bool":
        return {"type": "boolean", **words}
    if field.kind == "list":
        return {"type": "array", "items": number, "maxItems": field.max_items, **words}
    if field.kind == "counts":
        if field.keys:
            return {"type": "object", "additionalProperties": False,
                    "properties": {k: number for k in field.keys}, **words}
        return {"type": "object", "additionalProperties": number,
                "propertyNames": {"minLength": 1, "maxLength": MAX_NAME}, **words}
    if field.kind == "choice":
        if field.choices:
            return {"enum": [*field.choices, None, ""], **words}
        return {"type": ["string", "null"], "maxLength": MAX_NAME, **words}
    if field.kind == "text":
        return {"type": "string", "maxLength": 500, **words}
    if field.kind == "choices":             # one entry per item, e.g. each bonus longship
        count = {"type": "integer", "minimum": 0, "maximum": field.max_items}
        return {"anyOf": [{"type": "array", "items": {"enum": list(field.choices)},
                           "maxItems": field.max_items},
                          {"type": "object", "additionalProperties": False,
                           "properties": {c: count for c in field.choices},
                           "description": "or a count per kind (more than "
                                          f"{field.max_items} in all is a 422)"}], **words}
    return words


def sheet_schema(game) -> dict:
    """One player's score sheet of a game: its SheetFields by kind; a field absent counts as
    empty (0, false, [], none)."""
    return {"type": ["object", "null"], "additionalProperties": False,
            "properties": {f.name: _field_schema(f) for f in game.sheet_fields},
            "description": f"{game.name}: one player's score sheet."}


def game_content(schemas: dict) -> dict:
    """Per-game component schemas (Options<Game>, Sheet<Game>) and the bodies that name a
    game made a oneOf on it (PlayRequest)."""
    plays = []
    for game_id, game in GAMES.items():
        key = game_id.capitalize()
        schemas[f"Options{key}"] = options_schema(game)
        schemas[f"Sheet{key}"] = sheet_schema(game)
        plays.append({"type": "object", "properties": {
            "game": {"const": game_id}, "options": _ref(f"Options{key}")}})
        schemas[f"SetupRequest{key}"] = setup_request(game, key)
        schemas[f"ScoreRequest{key}"] = score_request(game, key)
    play = schemas["PlayRequest"]
    play["oneOf"] = plays
    play["properties"]["options"] = {"type": "object", "description": (
        "The game's own options: the Options schema of the game named in game")}
    for name in ("SetupRequest", "ScoreRequest"):
        schemas[name]["required"] = ["players"]        # the server's 400 without them
        schemas[name]["properties"]["options"] = {
            "anyOf": [_ref(f"Options{g.capitalize()}") for g in GAMES],
            "description": "The options of the game in the path (its Options schema)"}
    from ..plays import COMMON_EVENTS
    from .openapi_events import event_schema

    for game_id, game in GAMES.items():
        schemas[f"Event{game_id.capitalize()}"] = event_schema(game)
    kinds = {t: None for t in COMMON_EVENTS}
    for game in GAMES.values():
        kinds.update(dict.fromkeys(game.event_types))
    own = "; ".join(f"{g.name}: {', '.join(g.event_types) or 'none'}" for g in GAMES.values())
    event_type = schemas["Event"]["properties"]["type"]
    event_type["enum"] = list(kinds)        # from companion.plays and each Game.event_types
    event_type["description"] += f" Each game's own: {own}."
    for game_id, game in GAMES.items():     # after the Event<Game>s it is built from
        schemas[f"Import{game_id.capitalize()}"] = import_request(game, schemas)
    schemas["ImportRequest"] = {
        "oneOf": [_ref(f"Import{g.capitalize()}") for g in GAMES],
        "description": "A play export (GET /api/v1/plays/{play_id}/export) read back: its "
                       "game's Import schema, by the export's game."}
    seat = schemas["ScoreRequest"]["properties"]["players"]["items"]
    seat.update(required=["name"], additionalProperties=False)     # the server's 400s
    seat["properties"]["name"] = NAME
    schemas["ScoreRequest"]["properties"]["players"]["items"]["properties"]["sheet"] = {
        "anyOf": [_ref(f"Sheet{g.capitalize()}") for g in GAMES],
        "description": "The sheet of the game in the path (its Sheet schema)"}
    return schemas


def setup_request(game, key: str) -> dict:
    """POST /games/<id>/setup: players by name in seat order, a seed, the game's options (a
    wrong player count is a rule, 422)."""
    return {"type": "object", "required": ["players"], "additionalProperties": False,
            "description": f"{game.name}: a setup request.",
            "properties": {"players": {"type": "array", "items": NAME, "uniqueItems": True},
                           "seed": SEED, "options": _ref(f"Options{key}")}}


def score_request(game, key: str) -> dict:
    """POST /games/<id>/score: each player's sheet of this game, its options, and what else
    the game scores from the table (Explorers' islands)."""
    seat = {"type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {"name": NAME, "sheet": _ref(f"Sheet{key}")}}
    return {"type": "object", "required": ["players"], "additionalProperties": False,
            "description": f"{game.name}: a scoring request.",
            "properties": {"players": {"type": "array", "items": seat},
                           "options": _ref(f"Options{key}"), **score_extras(game.id)}}


def score_extras(game_id: str) -> dict:
    if game_id != "explorers":
        return {}
    from ..games.explorers.islands import (
        INFLUENCE,
        ISLAND_KEYS,
        MAX_ISLAND_NAME,
        MAX_ISLANDS,
        PIECES,
        STRUCTURES,
    )

    count = {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER}
    pieces = {k: {"anyOf": [{"type": "boolean"}, {"type": "integer", "minimum": 0,
                                                   "maximum": PIECES[k]}],
                  "description": f"The {k}, built or not (Rocks of Ruin)"}
              if k in STRUCTURES else count for k in INFLUENCE}
    island = {"type": "object", "required": ["tiles", "complete"],
              "additionalProperties": False, "properties": {
                  "tiles": {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER},
                  "complete": {"type": "boolean"}, "unraided_fortress": {"type": "boolean"},
                  "name": {"type": ["string", "null"], "maxLength": MAX_ISLAND_NAME},
                  "influence": {"type": ["object", "null"], "propertyNames": NAME,
                                "additionalProperties": {
                                    "type": ["object", "null"], "additionalProperties": False,
                                    "properties": pieces},
                                "description": "Each player's pieces on the island (a name "
                                               "not at the table is a 422)"}}}
    assert set(island["properties"]) == set(ISLAND_KEYS)
    return {"islands": {"type": ["array", "null"], "items": island, "maxItems": MAX_ISLANDS,
                        "description": "The islands on the table, scored for control"}}


def structured_options(game_id: str) -> dict:
    """The structured options (Game.option_passthrough) of a game: the box values a request
    may carry over the box data's, as the box data's own schema (the same checks take them),
    and Shipwrights' solo choices."""
    from .openapi_catalogue import BUILDERS

    if game_id == "shipwrights":
        from ..games.shipwrights.catalogue import MAX_NEMESIS
        from ..games.shipwrights.rules import ROUNDS, TRACKS

        track_vp = BUILDERS["shipwrights"]()["properties"]["track_vp"]
        return {
            "track_vp": {"anyOf": [track_vp, {"type": "null"}],
                         "description": "VP of the track spaces 15 to 18, over the box data's"},
            "nemesis": {"type": ["array", "null"], "maxItems": MAX_NEMESIS,
                        "uniqueItems": True, "items": {"type": "string"},
                        "description": "Solo: the box data's Nemesis card ids to play against "
                                       "(an id the box data lacks, or more than one player, "
                                       "is a 422)"},
            "solo_opponent": {
                "type": ["object", "null"], "additionalProperties": False,
                "required": ["heroes_won", "round_card_vp", "tracks"],
                "description": "Solo scoring: the opponent's heroes, Round Card VP and markers",
                "properties": {
                    "heroes_won": {"type": "integer", "minimum": 0, "maximum": len(TRACKS)},
                    "round_card_vp": {"type": "array", "minItems": ROUNDS, "maxItems": ROUNDS,
                                      "items": {"type": "integer", "minimum": 0,
                                                "maximum": MAX_NUMBER}},
                    "tracks": marker_positions()}}}
    if game_id == "reavers":
        box = BUILDERS["reavers"]()["properties"]
        return {key: box[key] for key in ("keep_spoils_schedule", "wall_majority")}
    return {}


def import_request(game, schemas: dict) -> dict:
    """POST /plays/import for an export of ``game`` (companion.exports.parse_import): the
    play's seats, options, seed and box data as a new play takes them, and its events, each
    as the game's Event<Game> takes it, replayed in order (a rule one breaks is a 422). Keys
    an export holds for people and other apps (result, times, names) are read as any JSON."""
    from ..exports import FORMAT, FORMAT_VERSION, MAX_EVENTS

    key = game.id.capitalize()
    ignored = _ref("JsonValue")
    events = []
    for branch in schemas[f"Event{key}"]["oneOf"]:
        properties = {"type": branch["properties"]["type"],
                      "data": branch["properties"]["data"],
                      "at": {**ignored, "description": "When it happened (ISO 8601): the "
                                                       "import's game clock counts the same"}}
        events.append({"type": "object", "required": branch["required"],
                       "properties": properties, "additionalProperties": ignored})
    seed = {**SEED, "type": ["string", "integer"]}          # an export always holds one
    return {
        "type": "object",
        "required": ["format", "format_version", "game", "players", "seed", "events"],
        "additionalProperties": ignored, "description": f"A {game.name} play export.",
        "properties": {
            "format": {"const": FORMAT}, "format_version": {"type": "integer",
                                                            "maximum": FORMAT_VERSION},
            "game": {"const": game.id},
            "players": copy.deepcopy(schemas["PlayRequest"]["properties"]["players"]),
            "options": {"anyOf": [_ref(f"Options{key}"), {"type": "null"}]},
            "seed": seed,
            "catalogue": {"anyOf": [_ref(f"Catalogue{key}"), {"type": "null"}],
                          "description": "The box data the play was recorded with (null or "
                                         "{}: this installation's)"},
            "events": {"type": "array", "maxItems": MAX_EVENTS, "items": {"oneOf": events},
                       "description": "The events in order, replayed through every check of "
                                      "a live play (whole-sheet checks added after the play "
                                      "was recorded excepted)"}}}
