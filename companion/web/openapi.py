"""The OpenAPI 3.1 document of /api/v1 (the contract in shared/design/api.md)."""
from __future__ import annotations

import copy
import re

from ..games import GAMES
from ..games.bodies import NOT_BLANK, SPACE, plain, schema_of, standalone
from .openapi_catalogue import JSON_VALUE, catalogue_schema, put_body, rule_codes

GAME_IDS = list(GAMES)
ERROR = {"$ref": "#/components/schemas/Error"}
JSON_OBJECT = {"type": "object"}
DEVICE = {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[!-~]+$",
          "description": "The device (phone or client) making the change: 1 to 64 printable "
                         "ASCII characters without spaces. Recorded with the event; undo "
                         "with a device takes back that device's last change."}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[ -~]+$"},
    "description": "One key per change (e.g. a UUID made when the person tapped), 1 to 100 "
                   "printable ASCII characters. A repeat with the same key on the same play "
                   "within 24 hours records nothing and answers the first answer's status and "
                   "body (the state right after the first request, not today's) with the "
                   "header Idempotent-Replayed: true. A request that failed recorded nothing, "
                   "so its repeat is tried afresh. The key is stored in the transaction of the "
                   "change, so two identical requests at once record once. The same key sent "
                   "with another request (another body, or undo instead of an event) is a 422 "
                   "idempotency_key_reused and records nothing. A malformed key is a 400 "
                   "naming the header."}
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
        "ScoreResponse": {"type": "object", "required": ["players", "winners", "tiebreak"],
                          "properties": {
                              "tiebreaks": {
                                  "type": "array", "items": {"type": "string"},
                                  "description": "A sentence for every group of tied players, "
                                                 "best place first."},
                              "notes": {
                                  "type": "array", "items": {"type": "string"},
                                  "description": "Where the rules leave a value on the sheets "
                                                 "open: accepted without a check, and said."},
                              "game_over": {
                                  "type": "boolean",
                                  "description": "A play's score: the game is over and its "
                                                 "final scoring due."},
                              "provisional": {
                                  "type": "boolean",
                                  "description": "A play's score: the result may still change "
                                                 "(the game is not over, an end-game row is "
                                                 "still to enter, or a box value is missing); "
                                                 "false: final."},
                              "to_enter": {
                                  "type": "array", "description": (
                                      "A play's score: per player, the end-game rows of "
                                      "their sheet still to enter (none entered and the "
                                      "sheet not marked done), in seat order."),
                                  "items": {"type": "object", "required": ["player", "rows"],
                                            "properties": {
                                                "player": {"type": "string"},
                                                "rows": {"type": "array",
                                                         "items": {"type": "string"}}}}},
                              "turn": {
                                  "type": ["string", "null"],
                                  "description": "Seafarers: whose turn it is; only they win "
                                                 "by standing at the target."}}},
        "State": state,
        "CatalogueVersions": {"type": "object", "required": ["game", "versions"], "properties": {
            "game": {"type": "string"},
            "versions": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "integer"}, "source": {"type": "string"},
                "saved_at": {"type": "string", "description": "When it was saved: ISO 8601, "
                                                              "UTC (no offset written)"}}}}}},
        "StateResponse": {"type": "object", "required": ["state"],
                          "properties": {"state": {"$ref": "#/components/schemas/State"}}},
        "Event": {"type": "object", "required": ["type"], "additionalProperties": False,
                  "description": "Every event in words: the body is the Event schema of the "
                                 "play's game (EventKnarr, ...).", "properties": {
            "type": {"type": "string", "description": (
                "Every game: sheet, advance, finish, box_value, and the game clock's pause "
                "(stop counting play time) and resume (count on); each game adds its own.")},
            "data": {"type": ["object", "null"], "description": (
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
            "device": {**DEVICE, "type": ["string", "null"]}},
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
    }


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


# The events body: the Event<Game> of the play's game (a schema cannot see which game the
# play in the path is, so any of them; each is exact for its game: companion.plays.event_body).
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
            "(sheet checks added after the play was recorded excepted) and stored in one "
            "transaction. The body may be up to 8 MiB (every other body: 256 KiB), an export "
            "of up to 25,000 events",
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
        "components": {"schemas": catalogue_components(game_content(_schemas())),
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


WITH_TEXT_RULE = {"\\S": f"^{_TEXT}*[^\\x00{SPACE}]{_TEXT}*$",
                  NOT_BLANK: f"^{_TEXT}*[^\\x00{SPACE}]{_TEXT}*$"}
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
    generic = [schemas["Event"]]
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


# ------------------------------------------------------------------ the bodies, as declared
def game_content(schemas: dict) -> dict:
    """Every request body as it is declared (companion.games.requests, companion.plays,
    companion.games.shipwrights.heroes), with the models it is made of (Options<Game>,
    Sheet<Game>, ...) among the components: the schema is the declaration that checks."""
    from ..games.requests import RedoRequest, UndoRequest, score_request, setup_request
    from ..games.shipwrights.heroes import HeroesRequest
    from ..plays import COMMON_EVENTS, event_body, play_body

    for game_id, game in GAMES.items():
        key = game_id.capitalize()
        declared(schemas, f"SetupRequest{key}", setup_request(game))
        declared(schemas, f"ScoreRequest{key}", score_request(game))
        declared(schemas, f"Event{key}", event_body(game_id))
    for name, kind in (("PlayRequest", play_body()), ("HeroesRequest", HeroesRequest),
                       ("UndoRequest", UndoRequest), ("RedoRequest", RedoRequest)):
        declared(schemas, name, kind)
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
    return schemas


def declared(schemas: dict, name: str, kind) -> dict:
    """A body declared as a type (companion.games.bodies), its models among the components."""
    schema = plain(schema_of(kind))
    schemas.update(schema.pop("$defs", {}))
    schemas[name] = schema
    return schema


def event_schema(game) -> dict:
    """The events body of a play of ``game`` as one standalone JSON Schema (for tests)."""
    from ..plays import event_body

    return standalone(event_body(game.id))


def import_request(game, schemas: dict) -> dict:
    """POST /plays/import for an export of ``game`` (companion.exports.parse_import): the
    play's seats, options, seed and box data as a new play takes them, and its events, each
    as the game's Event<Game> takes it, replayed in order (a rule one breaks is a 422). Keys
    an export holds for people and other apps (result, times, names) are read as any JSON."""
    from ..exports import FORMAT, FORMAT_VERSION, MAX_EVENTS

    key = game.id.capitalize()
    ignored = _ref("JsonValue")
    events = []
    for ref in schemas[f"Event{key}"]["oneOf"]:
        branch = schemas[ref["$ref"].rsplit("/", 1)[-1]]
        properties = {"type": branch["properties"]["type"],
                      "data": branch["properties"]["data"],
                      "at": {**ignored, "description": "When it happened (ISO 8601): the "
                                                       "import's game clock counts the same"}}
        events.append({"type": "object", "required": branch["required"],
                       "properties": properties, "additionalProperties": ignored})
    play = schemas[f"PlayRequest{key}"]["properties"]
    seed = {"anyOf": [b for b in play["seed"]["anyOf"] if b != {"type": "null"}]}  # one held
    return {
        "type": "object",
        "required": ["format", "format_version", "game", "players", "seed", "events"],
        "additionalProperties": ignored, "description": f"A {game.name} play export.",
        "properties": {
            "format": {"const": FORMAT}, "format_version": {"type": "integer",
                                                            "maximum": FORMAT_VERSION},
            "game": {"const": game.id},
            "players": copy.deepcopy(play["players"]),
            "options": {"anyOf": [_ref(f"Options{key}"), {"type": "null"}]},
            "seed": seed,
            "catalogue": {"anyOf": [_ref(f"Catalogue{key}"), {"type": "null"}],
                          "description": "The box data the play was recorded with (null or "
                                         "{}: this installation's)"},
            "events": {"type": "array", "maxItems": MAX_EVENTS, "items": {"oneOf": events},
                       "description": "The events in order, replayed through every check of "
                                      "a live play (whole-sheet checks added after the play "
                                      "was recorded excepted)"}}}
