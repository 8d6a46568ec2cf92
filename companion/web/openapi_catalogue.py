"""The exact JSON Schema (2020-12, as OpenAPI 3.1 uses it) of each game's box data, the body of
PUT /api/v1/catalogue/<game>: a body it allows is one the game's ``validate_catalogue`` takes,
save for the refusals no JSON Schema can say (one entry compared with another, a Seafarers
layout's material list and harbour spots), whose codes ``rule_codes`` gives.

Every bound comes from the game modules' own constants, so a changed limit changes the
document with it. Whole numbers are described as JSON integers; the validators also take
whole-number text such as "12" (the forms send text), which the document leaves unsaid.
"""
from __future__ import annotations

import copy
import sys
from functools import cache

from ..games.bodies import SPACE
from ..games.errors import DUPLICATE
from ..games.inputs import MAX_NAME

# ------------------------------------------------------------------ texts
# \S: not blank as str.strip() sees it; openapi.sane_text writes it out with Python's own
# whitespace (which engines' \s disagree on) and the document's text rule (no NUL).
NOT_BLANK = "\\S"


def text(max_length: int, description: str = "") -> dict:
    """A str that is not blank, at most ``max_length`` characters as sent."""
    out = {"type": "string", "minLength": 1, "maxLength": max_length, "pattern": NOT_BLANK}
    return {**out, "description": description} if description else out


def _char_class(chars: str) -> str:
    return "[" + "".join(c if c.isascii() and c.isalnum() else f"\\u{ord(c):04x}"
                         for c in chars) + "]"


def _folding_to(pieces: set[str]) -> dict[str, list[str]]:
    """Each piece -> every character whose str.casefold() is exactly that piece."""
    out: dict[str, list[str]] = {}
    for char in map(chr, range(sys.maxunicode + 1)):
        folded = char.casefold()
        if folded in pieces:
            out.setdefault(folded, []).append(char)
    return out


@cache
def casefold_equal(words: tuple[str, ...]) -> str:
    """A regex for the texts equal to one of ``words`` as the validators compare names:
    spaces collapsed and stripped (" ".join(text.split())), then str.casefold()."""
    space = f"[{SPACE}]"      # what split() splits on, spelt out for every engine
    folded = [w.casefold() for w in words]
    pieces = {w[i:j] for w in folded for i in range(len(w)) for j in range(i + 1, len(w) + 1)}
    sources = _folding_to(pieces - {" "})

    def from_(word: str, i: int) -> str:
        if i == len(word):
            return ""
        if word[i] == " ":
            return space + "+" + from_(word, i + 1)
        single = sources.get(word[i], [])
        options = [_char_class("".join(single)) + from_(word, i + 1)] if single else []
        options += [_char_class(char) + from_(word, j) for j in range(i + 2, len(word) + 1)
                    for char in sources.get(word[i:j], [])]
        return options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"

    return f"^{space}*(?:" + "|".join(from_(w, 0) for w in folded) + f"){space}*$"


def whole(minimum: int, maximum: int, description: str = "") -> dict:
    """A whole number the server reads with check_int (a JSON integer; 2.0 counts as 2)."""
    out = {"type": "integer", "minimum": minimum, "maximum": maximum}
    return {**out, "description": description} if description else out


def or_null(schema: dict) -> dict:
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    return {**schema, "type": [*kinds, "null"]}


def closed(properties: dict, required: tuple[str, ...] = (), description: str = "") -> dict:
    out = {"type": "object", "additionalProperties": False, "properties": properties}
    if required:
        out["required"] = list(required)
    return {**out, "description": description} if description else out


# ------------------------------------------------------------------ the games
def shipwrights() -> dict:
    from ..games.shipwrights import catalogue as box
    from ..games.shipwrights.rules import DRAFT_DIRECTIONS, HUT_NUMBERS, SCORING_SPACES, TRACKS

    name = text(box.MAX_TEXT)
    icons = closed({t: whole(0, box.MAX_ICONS) for t in TRACKS}, TRACKS,
                   "Icons per Progress Track, all three (0 where the card shows none).")
    fields = {"id": text(box.MAX_TEXT, "The card's id, unique in its list (ignoring case)."),
              "name": or_null(name), "icons": icons,
              "solo_vp": or_null(whole(0, box.MAX_VP)),
              "draft": {"enum": list(DRAFT_DIRECTIONS)},
              "trades": {"type": ["array", "null"], "maxItems": box.MAX_TRADES, "items": name}}
    card = closed({k: fields[k] for k in box.CARD_FIELDS}, ("id", "icons", "draft"))
    nemesis = closed({k: fields[k] for k in box.NEMESIS_FIELDS}, ("id", "icons"))
    top = {"round_cards": {"type": "array", "maxItems": box.MAX_ROUND_CARDS, "items": card},
           "huts": closed({h: {"enum": list(TRACKS)} for h in HUT_NUMBERS},
                          description="Each Hut's Progress Track icon."),
           "track_vp": closed({s: whole(0, box.MAX_VP) for s in SCORING_SPACES},
                              description="VP per scoring space; spaces left out are not "
                                          "known yet."),
           "nemesis": {"type": "array", "maxItems": box.MAX_NEMESIS, "items": nemesis}}
    return closed({k: top[k] for k in box.TOP_FIELDS})


def reavers() -> dict:
    from ..games.reavers import box

    glory = whole(0, box.MAX_GLORY)
    schedule = {"type": "object", "maxProperties": box.MAX_SPOILS_TYPES,
                "propertyNames": text(box.MAX_TYPE_NAME),
                "additionalProperties": {"type": "array", "minItems": 1,
                                         "maxItems": box.MAX_SCHEDULE_LENGTH, "items": glory},
                "description": "{spoils type: [glory for 1, 2, ... cards]}; a type is "
                               "listed once (ignoring case and surrounding spaces)."}
    majority = {"type": ["array", "null"], "minItems": 2, "maxItems": 2,
                "items": or_null(glory),
                "description": "[glory for the most, for the second most wall tokens], null "
                               "where not known; the second is at most the first."}
    top = {"keep_spoils_schedule": schedule, "wall_majority": majority}
    return closed({k: top[k] for k in box.CATALOGUE_KEYS})


def knarr() -> dict:
    from ..games.knarr import TRACK_MAX_SPACES, TRACK_MAX_VP

    return closed({"reputation_track": {
        "type": "array", "maxItems": TRACK_MAX_SPACES, "items": whole(0, TRACK_MAX_VP),
        "description": "The VP printed on each space of the Reputation track, from the "
                       "starting space on."}})


def explorers() -> dict:
    from ..games.explorers import captains as box

    name = text(MAX_NAME, "Not a captain the box already has, nor another entry's (ignoring "
                          "case).")
    name["not"] = {"pattern": casefold_equal(box.BASE_CAPTAINS + box.ROCKS_CAPTAINS)}
    captain = closed({"name": name, "bonus": text(box.MAX_BONUS_TEXT)}, ("name", "bonus"))
    return closed({"captains": {"type": "array", "maxItems": box.MAX_CATALOGUE_CAPTAINS,
                                "items": captain}})


def seafarers() -> dict:
    from ..games.seafarers import book
    from ..games.seafarers.scenarios import NUMBERS, PRODUCING, TERRAINS

    coord = whole(-book.COORD_LIMIT, book.COORD_LIMIT)
    face_down = {"required": ["hidden"], "properties": {"hidden": {"const": True}}}
    null = {"type": "null"}
    kinds = [{**face_down, "properties": {**face_down["properties"], "terrain": null,
                                          "number": null}},
             {"not": face_down, "required": ["terrain", "number"],
              "properties": {"terrain": {"enum": list(PRODUCING)},
                             "number": {"enum": list(NUMBERS)}}},
             {"not": face_down, "required": ["terrain"],
              "properties": {"terrain": {"enum": [t for t in TERRAINS if t not in PRODUCING]},
                             "number": null}}]
    fields = {"q": coord, "r": coord, "terrain": {"enum": [*TERRAINS, None]},
              "number": {"enum": [*NUMBERS, None]},
              "hidden": {"type": ["boolean", "null"], "description": "true: face down"},
              "label": {"type": ["string", "null"],
                        "description": "Ignored: the app labels the hexes itself."}}
    hex_ = {**closed({k: fields[k] for k in book.HEX_FIELDS}, ("q", "r")), "anyOf": kinds}
    spot = {"q": coord, "r": coord, "facing": whole(0, book.MAX_FACING),
            "type": {"type": ["string", "null"],
                     "description": "Ignored: the pieces are dealt onto the spots at each "
                                    "setup."}}
    harbour = closed({k: spot[k] for k in book.HARBOUR_FIELDS}, ("q", "r", "facing"))
    layout = closed({"hexes": {"type": "array", "minItems": 1, "maxItems": book.MAX_HEXES,
                               "items": hex_},
                     "harbours": {"type": ["array", "null"], "items": harbour}}, ("hexes",),
                    "One layout: every hex and the harbour spots, holding exactly the book's "
                    "material list for the scenario and player count; a harbour lies on a sea "
                    "hex facing a land hex; positions and spots differ.")
    return closed({"layouts": closed({key: layout for key in book.book_keys()})})


BUILDERS = {"shipwrights": shipwrights, "reavers": reavers, "knarr": knarr,
            "explorers": explorers, "seafarers": seafarers}


def rule_codes(game) -> dict[str, str]:
    """The 400s a body of the right shape can still meet, by code: what no JSON Schema can
    say (one entry against another; a layout against the book's list)."""
    from ..games.reavers.box import SECOND_ABOVE_MOST
    from ..games.seafarers.book import OFF_COAST

    codes = {
        "shipwrights": {DUPLICATE: "two cards of one list with one id (ignoring case)"},
        "reavers": {DUPLICATE: "a spoils type listed twice (ignoring case and spaces)",
                    SECOND_ABOVE_MOST: "the second most walls worth more than the most"},
        "explorers": {DUPLICATE: "two captains with one name (ignoring case)"},
        "seafarers": {DUPLICATE: "two hexes on one position, or two harbours on one spot",
                      "wrong_material": "not exactly the book's material list for the "
                                        "scenario and player count",
                      OFF_COAST: "a harbour not on a sea hex of the layout facing land"}}
    return codes.get(game.id, {})


def catalogue_schema(game) -> dict:
    """The box data ``game.validate_catalogue`` takes; a game that keeps none takes {}."""
    build = BUILDERS.get(game.id)
    if build is None:
        return {"type": "object", "maxProperties": 0,
                "description": f"{game.name} keeps no box data."}
    return copy.deepcopy({**build(), "description": f"{game.name}: {game.catalogue_help}"})


def put_body(component: str) -> dict:
    """The PUT body: the box data itself, or an object holding it as "catalogue" (what GET
    answers, so a read can be sent back; its other keys, any JSON, are ignored)."""
    ref = {"$ref": f"#/components/schemas/{component}"}
    return {"anyOf": [ref, {"type": "object", "required": ["catalogue"],
                            "properties": {"catalogue": ref},
                            "additionalProperties": {"$ref": "#/components/schemas/JsonValue"}}]}


# Any JSON value: as a schema, so that the document's text rule reaches every string and key
# in it (openapi.sane_text); "true" would let a generator put NUL where the server refuses it.
JSON_VALUE = {"description": "Any JSON value (ignored)", "anyOf": [
    {"type": ["null", "boolean", "number", "string"]},
    {"type": "array", "items": {"$ref": "#/components/schemas/JsonValue"}},
    {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/JsonValue"}}]}
