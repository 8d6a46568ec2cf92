"""The body of POST /api/v1/plays/{play_id}/events for a play of one game, as JSON Schema
(OpenAPI 3.1 = JSON Schema 2020-12): one branch per event type the game takes, each with the
exact data its handler accepts (companion.plays for the common types, companion/games for each
game's own), so that a body the schema allows is never answered 400.

What a schema cannot know is the play itself: who sits at the table, which islands lie on it,
whose turn it is, which options the play was started with. A refusal that depends on them is
a rule of the play, answered 422 with its own code (unknown_player, unknown_island, ...);
only a sheet that cannot happen as a whole (impossible_sheet) stays a 400 a schema cannot
hold. Every bound below is read from the games' own definitions (SheetFields, constants),
never copied by hand.
"""
from __future__ import annotations

from collections.abc import Callable

from ..games.inputs import MAX_NAME, MAX_NUMBER
from ..games.protocol import Game
from .openapi import DEVICE, PYTHON_SPACE
from .openapi_catalogue import whole

# ------------------------------------------------------------------ building blocks
# Python's str.strip()/split() whitespace (what the handlers use), spelled out as a class so
# that every regex engine reading the document (Python's, Rust's, ECMA's) agrees on it: the
# document's one list (openapi.PYTHON_SPACE).
SPACE = f"[{PYTHON_SPACE}]"
NOT_SPACE = f"[^{PYTHON_SPACE}]"
EMPTY = {"enum": [None, ""], "description": "null or \"\": left out"}


def delta(limit: int, words: str = "") -> dict:
    """A number to add with check_delta: a whole number other than 0, at most limit either
    way."""
    return {**whole(-limit, limit, words), "not": {"const": 0}}


def flag(words: str = "") -> dict:
    schema = {"type": "boolean"}
    return {**schema, "description": words} if words else schema


def optional(schema: dict) -> dict:
    """A value that may also be null or "" (a form's empty box): left out."""
    return {"anyOf": [schema, EMPTY]}


def text(maximum: int, words: str = "") -> dict:
    """A text with something besides spaces in it, at most ``maximum`` characters."""
    schema = {"type": "string", "maxLength": maximum, "pattern": NOT_SPACE}
    return {**schema, "description": words} if words else schema


def _same_length(low: str, high: str) -> list[str]:
    """Regex alternatives for the digit strings low..high, both of one length."""
    if low == high:
        return [low]
    if len(low) == 1:
        return [f"[{low}-{high}]"]
    if low[0] == high[0]:
        return [low[0] + p for p in _same_length(low[1:], high[1:])]
    rest = len(low) - 1
    out = []
    low_full, high_full = low[1:] == "0" * rest, high[1:] == "9" * rest
    if not low_full:
        out += [low[0] + p for p in _same_length(low[1:], "9" * rest)]
    first, last = int(low[0]) + (not low_full), int(high[0]) - (not high_full)
    if first <= last:
        out.append(f"[{first}-{last}][0-9]{{{rest}}}")
    if not high_full:
        out += [high[0] + p for p in _same_length("0" * rest, high[1:])]
    return out


def _magnitudes(low: int, high: int) -> str:
    """Digits (leading zeros allowed, 15 digits at most) of the numbers low..high >= 0."""
    out = []
    for length in range(len(str(low)), len(str(high)) + 1):
        a, b = max(low, 10 ** (length - 1) if length > 1 else 0), min(high, 10 ** length - 1)
        if a <= b:
            out.append(f"0{{0,{15 - length}}}(?:{'|'.join(_same_length(str(a), str(b)))})")
    return "|".join(out)


def number_text(minimum: int, maximum: int) -> str:
    """A regex (unanchored) for the texts check_int reads as a number in minimum..maximum:
    ASCII digits (up to 15, leading zeros allowed) after an optional '-'."""
    alternatives = []
    if maximum >= 0:
        alternatives.append(_magnitudes(max(minimum, 0), maximum))
    if minimum < 0:
        alternatives.append(f"-(?:{_magnitudes(max(1, -maximum), -minimum)})")
    if minimum <= 0 <= maximum:
        alternatives.append("-0{1,15}")
    return "(?:" + "|".join(alternatives) + ")"


def obj(properties: dict, required: tuple = (), nullable: bool = False, **extra) -> dict:
    """An object of exactly these keys (the handlers refuse any other with a 400)."""
    schema = {"type": ["object", "null"] if nullable else "object",
              "additionalProperties": False, "properties": properties, **extra}
    if required:
        schema["required"] = list(required)
    return schema


def not_both(keys) -> dict:
    """No key both set (beside add) and added to (in add) in one change (the handlers' 400)."""
    return {"anyOf": [{"required": [k, "add"], "properties": {
        "add": {"type": "object", "required": [k]}}} for k in keys]}


def player(words: str = "") -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "description": words or (
        "A player of this play, exactly as the play names them; any other name is a 422 "
        "unknown_player.")}


# ------------------------------------------------------------------ common events
def sheet_value(field) -> dict:
    """What SheetField.parse accepts for one score-sheet row."""
    words = field.label + (f" (only in a play with the option {field.when}; else a 422 "
                           "field_not_in_play)" if field.when else "")
    number = whole(field.minimum, field.maximum)
    if field.kind == "int":
        return {**number, "description": words}
    if field.kind == "bool":
        return flag(words)
    if field.kind == "list":
        return {"type": "array", "items": number, "maxItems": field.max_items,
                "description": words}
    if field.kind == "counts":
        if field.keys:
            return obj({k: number for k in field.keys}, description=words)
        return {"type": "object", "additionalProperties": number, "description": words,
                "propertyNames": {"minLength": 1, "maxLength": MAX_NAME}}
    if field.kind == "choice":
        if field.choices:
            return {"enum": [*field.choices, None, ""], "description": words}
        return {"type": ["string", "null"], "maxLength": MAX_NAME, "description": words}
    if field.kind == "choices":
        return {"type": "array", "items": {"enum": list(field.choices)},
                "maxItems": field.max_items, "description": words}
    if field.kind == "text":
        return {"type": "string", "maxLength": 500, "description": words}
    raise ValueError(f"no schema for a sheet field of kind {field.kind}")


def sheet_add(field) -> dict | None:
    """What companion.plays.parse_add accepts for one row, or None when it adds to nothing."""
    from ..sheet_changes import ADDABLE

    if field.kind not in ADDABLE:
        return None
    step = delta(MAX_NUMBER)
    if field.kind == "int":
        return {**step, "description": field.label}
    known = field.keys or field.choices
    if known:
        return obj({k: step for k in known}, minProperties=1, description=field.label)
    return {"type": "object", "minProperties": 1, "additionalProperties": step,
            "propertyNames": {"minLength": 1, "maxLength": MAX_NAME},
            "description": field.label}


def sheet_set(field) -> dict | None:
    """What companion.plays.parse_set accepts for one row of kinds, or None for another row:
    a count per named kind (a choices row: how many entries of that choice)."""
    from ..sheet_changes import SETTABLE

    if field.kind not in SETTABLE:
        return None
    count = (whole(field.minimum, field.maximum) if field.kind == "counts"
             else whole(0, field.max_items))
    known = field.keys or field.choices
    if known:
        return obj({k: count for k in known}, minProperties=1, description=field.label)
    return {"type": "object", "minProperties": 1, "additionalProperties": count,
            "propertyNames": {"minLength": 1, "maxLength": MAX_NAME},
            "description": field.label}


def sheet_data(game: Game) -> dict:
    fields = {f.name: sheet_value(f) for f in game.sheet_fields}
    adds = {f.name: a for f in game.sheet_fields if (a := sheet_add(f)) is not None}
    kinds = {f.name: k for f in game.sheet_fields if (k := sheet_set(f)) is not None}
    ways = {"fields": fields, "add": adds, "set": kinds}
    twice = [(one, other, k) for one, other in (("fields", "add"), ("set", "add"),
                                                ("fields", "set"))
             for k in ways[one] if k in ways[other]]
    return {**obj({
        "player": player(),
        "fields": {**obj(fields, nullable=True), "description": (
            f"{game.name}: score-sheet rows to set; a row from an option this play does not "
            "use is a 422 field_not_in_play")},
        "add": {**obj(adds, nullable=True), "description": (
            "Numbers to add to number rows ({row: {kind: n}} for a row of kinds): a result "
            "outside the row's bounds is a 422 out_of_range; adds commute")},
        "set": {**obj(kinds, nullable=True), "description": (
            "Single kinds of rows of kinds to set, {row: {kind: n}} (a box typed for one kind "
            "on a phone): the row's other kinds stay as they are; for a choices row n is how "
            "many entries of that choice it holds (more than the row holds in all is a 422 "
            "out_of_range)")}},
        ("player",)),
        "anyOf": [{"required": [way], "properties": {way: {"type": "object"}}}
                  for way in ways],
        "not": {"anyOf": [{"required": [one, other], "properties": {
            one: {"type": "object", "required": [k]},
            other: {"type": "object", "required": [k]}}} for one, other, k in twice]},
        "description": (
            "Set rows (fields), set single kinds of rows (set) and/or add to rows (add), one "
            "way per row in one change. A change that leaves the sheets impossible as a whole "
            "is a 400 impossible_sheet.")}


def box_value_data(game: Game) -> dict | None:
    """The answers the game's parse_box_value takes, or None for a game that asks for none."""
    keys = BOX_VALUES.get(game.id)
    if keys is None:
        if type(game).parse_box_value is not Game.parse_box_value:
            raise ValueError(f"{game.id} asks for box values the document does not describe")
        return None
    branches = [obj({"key": key, "value": value}, ("key", "value")) for key, value in keys()]
    return {"oneOf": branches, "description": f"{game.name}: an answer to one of the score's "
                                              "questions about the box (its key and value)"}


def shipwrights_box_values() -> list[tuple[dict, dict]]:
    from ..games.shipwrights.catalogue import MAX_VP
    from ..games.shipwrights.rules import SCORING_SPACES

    return [({"enum": [f"track_vp.{s}" for s in SCORING_SPACES]}, whole(0, MAX_VP))]


def reavers_box_values() -> list[tuple[dict, dict]]:
    from ..games.reavers.box import MAX_SCHEDULE_LENGTH, MAX_TYPE_NAME, SCHEDULE_KEY, WALL_KEYS

    glory = whole(0, MAX_NUMBER)
    gap = f"[,{SPACE[1:-1]}]"
    number = number_text(0, MAX_NUMBER)
    schedule_text = {"type": "string", "pattern": (
        f"^{gap}*{number}(?:{gap}+{number}){{0,{MAX_SCHEDULE_LENGTH - 1}}}{gap}*$"),
        "description": "the numbers in order, separated by spaces or commas"}
    kind = f"{SPACE}*{NOT_SPACE}(?:[\\s\\S]{{0,{MAX_TYPE_NAME - 2}}}{NOT_SPACE})?{SPACE}*"
    schedule_key = {"type": "string", "maxLength": 80,
                    "pattern": "^" + SCHEDULE_KEY.replace(".", "\\.") + kind + "$",
                    "description": f"{SCHEDULE_KEY}<spoils type>"}
    steps = {"anyOf": [glory, {"type": "array", "items": glory, "minItems": 1,
                               "maxItems": MAX_SCHEDULE_LENGTH}, schedule_text],
             "description": "the glory for a set of 1, 2, 3 ... cards"}
    return [({"enum": list(WALL_KEYS)}, glory), (schedule_key, steps)]


BOX_VALUES: dict[str, Callable[[], list[tuple[dict, dict]]]] = {
    "shipwrights": shipwrights_box_values, "reavers": reavers_box_values}

IGNORED = {"type": ["object", "null"],
           "description": "Not read: the event needs no data (any object or null is taken)."}


def common_data(game: Game) -> dict:
    """The data of each event type every game takes (companion.plays.COMMON_EVENTS)."""
    from ..plays import COMMON_EVENTS

    out = {"sheet": sheet_data(game), "box_value": box_value_data(game),
           "advance": {**IGNORED, "description": "Next phase or round (data not read)."},
           "finish": {**IGNORED, "description": "End of the game (data not read)."},
           "pause": {**IGNORED, "description": "Stop the game clock (data not read)."},
           "resume": {**IGNORED, "description": "Count on (data not read)."}}
    assert set(out) == set(COMMON_EVENTS), "a common event without a schema"
    return {kind: out[kind] for kind in COMMON_EVENTS if out[kind] is not None}


# ------------------------------------------------------------------ each game's own events
def knarr_events() -> dict:
    from ..games.knarr import MAX_REPUTATION_SPACE, SHIP_CAP, TRACK_MAX_VP

    tokens = f"0 to {MAX_NUMBER}; more than {SHIP_CAP} is a 422 over_cap"
    return {"turn": obj({
        "player": optional(player("Whose turn it is (left out: the current player); "
                                  "another player is a 422 not_your_turn, a name not in "
                                  "this play a 422 unknown_player")),
        "vp_gained": optional(whole(0, MAX_NUMBER, "VP gained this turn")),
        "reputation": optional(whole(0, MAX_REPUTATION_SPACE, (
            "The Reputation marker's space now; backwards is a 422 marker_backwards"))),
        "recruits": optional(whole(0, MAX_NUMBER, f"Recruits on the ship now ({tokens})")),
        "bracelets": optional(whole(0, MAX_NUMBER, f"Bracelets on the ship now ({tokens})")),
        "reputation_vp": optional(whole(0, TRACK_MAX_VP, (
            "The reputation step's VP, when the box data lacks the track (else it must "
            "match it: a 422 reputation_mismatch)")))},
        nullable=True, description="The current player's turn is over")}


def explorers_events() -> dict:
    from ..games.explorers.islands import INFLUENCE, MAX_ISLANDS, STRUCTURES

    island = whole(0, MAX_ISLANDS - 1, "The island's index on the table (from 0); one that "
                                       "is not on the table is a 422 unknown_island")
    pieces = {k: ({"anyOf": [flag(), whole(0, 1)], "description": f"{k} built (Rocks of "
                                                                  "Ruin; else a 422)"}
                  if k in STRUCTURES else whole(0, MAX_NUMBER, k)) for k in INFLUENCE}
    influence = {"anyOf": [{"type": "object", "propertyNames": player(),
                            "additionalProperties": {"anyOf": [obj(pieces), {"type": "null"}]}},
                           {"type": "null"}],
                 "description": "Each player's pieces on the island, by name (a name not in "
                                "this play is a 422 unknown_player; more pieces than the box "
                                "holds a 422 too_many_pieces)"}
    shape = {"tiles": whole(1, MAX_NUMBER, "Tiles the island covers"),
             "complete": flag("Surrounded by sea"),
             "unraided_fortress": flag("An unraided fortress stands on it (Rocks of Ruin; else "
                                       "a 422 needs_expansion)"),
             "name": {"anyOf": [{"type": "string", "maxLength": 60}, {"type": "null"}]},
             "influence": influence}
    add_tiles = {"anyOf": [obj({"tiles": delta(100)}, minProperties=1), {"type": "null"}],
                 "description": "Tiles to add (a result under 1 is a 422 out_of_range)"}
    add_pieces = {"anyOf": [obj({k: delta(100) for k in INFLUENCE}, minProperties=1),
                            {"type": "null"}],
                  "description": "Pieces to add (a count below 0 or over the box's is a 422 "
                                 "out_of_range)"}
    return {
        "turn": obj({}, nullable=True, description="The current player's turn is over"),
        "add_island": obj(shape, ("tiles",), description="A new island on the table"),
        "update_island": {**obj({**shape, "island": island, "add": add_tiles}, ("island",)),
                          "not": not_both(("tiles",))},
        "remove_island": obj({"island": island}, ("island",)),
        "set_influence": {**obj({**pieces, "island": island, "player": player(),
                                 "add": add_pieces}, ("island", "player")),
                          "not": not_both(INFLUENCE)},
        "keep_captain": obj({"player": player(), "captain": {
            "type": "string", "description": "One of the 2 captains dealt to the player "
                                             "(another is a 422 not_dealt)"}},
                            ("player", "captain")),
    }


def reavers_events() -> dict:
    from ..games.reavers.table import LOCATIONS, MAX_TERRITORIES

    return {
        "place": obj({"location": {"enum": list(LOCATIONS)},
                      "player": player("Whose pawn (left out: the next; another is a 422 "
                                       "not_your_turn)")}, ("location",)),
        "territories": {**obj({"player": player(),
                               "count": whole(0, MAX_TERRITORIES, "Territories held now"),
                               "add": delta(MAX_TERRITORIES, "Territories gained or lost "
                                                             "(a result out of range is a "
                                                             "422 out_of_range)")},
                              ("player",)),
                        "oneOf": [{"required": ["count"]}, {"required": ["add"]}]},
        "start_player": obj({"player": player()}, ("player",)),
    }


def seafarers_events() -> dict:
    from ..games.seafarers.table import COORD_LIMIT

    coordinate = whole(-COORD_LIMIT, COORD_LIMIT, "An axial coordinate (a position not on "
                                                  "the board is a 422 unknown_position)")
    return {"discover": obj({"q": coordinate, "r": coordinate}, ("q", "r")),
            "move_chip": obj({k: coordinate for k in ("from_q", "from_r", "q", "r")},
                             ("from_q", "from_r", "q", "r"))}


def shipwrights_events() -> dict:
    from ..games.shipwrights.catalogue import (
        CARD_FIELDS,
        MAX_ICONS,
        MAX_TEXT,
        MAX_TRADES,
        MAX_VP,
    )
    from ..games.shipwrights.rules import DRAFT_DIRECTIONS, TRACK_END, TRACKS

    icon = whole(0, MAX_ICONS)
    # one text of trades split at ';' and line ends: blank pieces are skipped, the others are
    # trades of at most MAX_TEXT characters (their surrounding spaces aside), MAX_TRADES at most
    gap, mark = "[;\\n]", f"[^;\\n{SPACE[1:-1]}]"
    blank = SPACE.replace("\\u0009-\\u000d", "\\u0009\\u000b-\\u000d") + "*"
    filled = f"{blank}{mark}(?:[^;\\n]{{0,{MAX_TEXT - 2}}}{mark})?{blank}"
    trades_text = {"type": "string", "pattern": (
        f"^(?:{blank}{gap})*(?:{filled}(?:{gap}{blank})*"
        f"(?:{gap}{filled}(?:{gap}{blank})*){{0,{MAX_TRADES - 1}}}|{blank})$"),
        "description": f"the trades as one text, separated by ';' or lines (at most "
                       f"{MAX_TRADES}, each at most {MAX_TEXT} characters)"}
    card = {"id": optional(text(MAX_TEXT, "The card's id")),
            "name": optional(text(MAX_TEXT, "The card's name")),
            "icons": optional(obj({t: icon for t in TRACKS}, tuple(TRACKS))),
            "solo_vp": optional(whole(0, MAX_VP, "The VP the solo opponent scores")),
            "draft": {"enum": [*DRAFT_DIRECTIONS, None, ""]},
            "trades": {"anyOf": [{"type": "array", "items": text(MAX_TEXT),
                                  "maxItems": MAX_TRADES}, trades_text, EMPTY]},
            **{t: {"anyOf": [icon, {"const": ""}], "description": f"{t} icons (a form's "
                                                                   "field: all three or none)"}
               for t in TRACKS}}
    assert set(CARD_FIELDS) <= set(card)
    blank_tracks = {t: {"const": ""} for t in TRACKS}
    reveal = {**obj(card, nullable=True), "description": (
        "The Round Card turned over (when the box data could not deal it): which of icons, "
        "draft and solo_vp the play needs depends on its player count (one left out is a "
        "422 missing_value)"), "anyOf": [
        {"required": ["icons"], "properties": {"icons": {"not": {"const": ""}},
                                               **blank_tracks}},
        {"properties": {"icons": {"const": ""}}, "anyOf": [
            {"required": list(TRACKS), "properties": {t: icon for t in TRACKS}},
            {"properties": blank_tracks}]}]}
    move = obj({"player": player("A player of this play, or 'neutral' when the play has the "
                                 "neutral player (else a 422 unknown_player)"),
                "track": {"enum": list(TRACKS)},
                "steps": delta(TRACK_END, "Spaces to move (negative: back)")},
               ("player", "track", "steps"))
    return {"track": move, "reveal": reveal}


OWN_EVENTS: dict[str, Callable[[], dict]] = {
    "knarr": knarr_events, "explorers": explorers_events, "reavers": reavers_events,
    "seafarers": seafarers_events, "shipwrights": shipwrights_events}


# ------------------------------------------------------------------ the event body
def expected_version() -> dict:
    return {"type": ["integer", "null"], "description": (
        "The version the change was made on: a stale one is a 409 and records nothing. Absent "
        "or null: no check; such a write waits for the play's lock and never answers 409.")}


def event_schema(game: Game) -> dict:
    """The event body for a play of ``game``: a oneOf with one branch per event type."""
    data = common_data(game)
    own = OWN_EVENTS[game.id]()
    missing = set(game.event_types) ^ set(own)
    if missing:
        raise ValueError(f"{game.id}: events without a schema or not the game's: {missing}")
    data.update((kind, own[kind]) for kind in game.event_types)
    device = {**DEVICE, "type": ["string", "null"]}
    branches = []
    for kind, schema in data.items():
        needs_data = "null" not in _types(schema)
        branches.append({
            "type": "object", "additionalProperties": False,
            "required": ["type", "data"] if needs_data else ["type"],
            "properties": {"type": {"const": kind}, "data": schema,
                           "expected_version": expected_version(), "device": device}})
    return {"oneOf": branches, "description": (
        f"An event of a {game.name} play: {', '.join(data)}.")}


def _types(schema: dict) -> list:
    kind = schema.get("type", [])
    return kind if isinstance(kind, list) else [kind]
