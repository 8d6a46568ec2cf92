"""The Shipwrights box catalogue: the card data no rulebook publishes, entered once by the owner.

Shape (every key optional at the top level; an entry, once there, is complete)::

    {"round_cards": [{"id": "Harbour", "name": "optional", "icons": {"military": 1, "trade": 0,
                      "renown": 1}, "solo_vp": 4, "draft": "clockwise",
                      "trades": ["1 Silver -> 1 Oak"]}],
     "huts": {"1": "military", "2": "trade", ...},
     "track_vp": {"15": n, "16": n, "17": n, "18": n},
     "nemesis": [{"id": "...", "name": "optional", "icons": {"military": 1, ...}}]}

Nothing is ever filled in by the app: a value the catalogue lacks is asked for where it is
needed, with the path to enter it.
"""
from __future__ import annotations

from typing import Any

from ..errors import DUPLICATE, RuleError
from ..inputs import check_int
from ..messages import Message, say
from .rules import DRAFT_DIRECTIONS, HUT_NUMBERS, SCORING_SPACES, TRACK_END, TRACKS, track_name

MAX_ROUND_CARDS = 60
MAX_NEMESIS = 4
MAX_ICONS = 10
MAX_VP = 100
MAX_TEXT = 100
MAX_TRADES = 12
CATALOGUE_PAGE = say("the Box data page")
CARD_ID, CARD_NAME = say("The card's id"), say("The card's name")
CARD_FIELDS = ("id", "name", "icons", "solo_vp", "draft", "trades")
NEMESIS_FIELDS = ("id", "name", "icons")
TOP_FIELDS = ("round_cards", "huts", "track_vp", "nemesis")


def empty_catalogue() -> dict:
    return {"round_cards": [], "huts": {}, "track_vp": {}, "nemesis": []}


def validate_catalogue(data: Any) -> dict:
    """The cleaned catalogue, or a RuleError naming the bad entry (e.g. round_cards[2].icons)."""
    data = require_object(data, None, say("The catalogue"))
    reject_unknown(data, TOP_FIELDS, "")
    round_cards = parse_entries(data.get("round_cards", []), "round_cards", MAX_ROUND_CARDS,
                                parse_catalogue_card)
    nemesis = parse_entries(data.get("nemesis", []), "nemesis", MAX_NEMESIS, parse_nemesis)
    return {"round_cards": round_cards,
            "huts": parse_huts(data.get("huts", {})),
            "track_vp": parse_track_vp(data.get("track_vp", {}), "track_vp"),
            "nemesis": nemesis}


# --------------------------------------------------------------------------- parts
def parse_entries(raw: Any, where: str, limit: int, parse_one) -> list[dict]:
    if not isinstance(raw, list):
        raise RuleError(say("%(field)s must be a list.", field=where), where)
    if len(raw) > limit:
        raise RuleError(say("%(field)s can hold at most %(count)s cards.", field=where,
                            count=limit), where)
    entries = [parse_one(entry, f"{where}[{i}]") for i, entry in enumerate(raw)]
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        if entry["id"].casefold() in seen:
            raise RuleError(say("Two cards in %(field)s are called '%(card_name)s'; ids must "
                                "differ.", field=where, card_name=entry["id"]),
                            f"{where}[{i}].id", DUPLICATE)
        seen.add(entry["id"].casefold())
    return entries


def parse_catalogue_card(raw: Any, where: str) -> dict:
    """One Round Card of the catalogue: id, icons and draft are required; the solo VP only
    matters in solo games (a solo play asks for it when the card lacks it)."""
    return parse_round_card(raw, where, required=("id", "icons", "draft"))


def parse_round_card(raw: Any, where: str, required: tuple[str, ...]) -> dict:
    """A Round Card from the catalogue or typed in at the table (``where`` prefixes fields)."""
    raw = require_object(raw, where, say("A Round Card"))
    reject_unknown(raw, CARD_FIELDS, where)
    for key in required:
        if raw.get(key) is None:
            raise RuleError(missing_card_value(key, where), join(where, key), "missing_value")
    card = {"id": parse_text(raw.get("id"), join(where, "id"), CARD_ID),
            "name": parse_text(raw.get("name"), join(where, "name"), CARD_NAME),
            "icons": parse_icons(raw.get("icons"), join(where, "icons")),
            "solo_vp": parse_optional_int(raw.get("solo_vp"), join(where, "solo_vp"),
                                          say("The solo VP"), MAX_VP),
            "draft": parse_draft(raw.get("draft"), join(where, "draft")),
            "trades": parse_trades(raw.get("trades"), join(where, "trades"))}
    return card


def parse_nemesis(raw: Any, where: str) -> dict:
    raw = require_object(raw, where, say("A Nemesis card"))
    reject_unknown(raw, NEMESIS_FIELDS, where)
    for key in ("id", "icons"):
        if raw.get(key) is None:
            raise RuleError(missing_card_value(key, where), join(where, key), "missing_value")
    return {"id": parse_text(raw["id"], join(where, "id"), CARD_ID),
            "name": parse_text(raw.get("name"), join(where, "name"), CARD_NAME),
            "icons": parse_icons(raw["icons"], join(where, "icons"))}


def parse_icons(raw: Any, where: str) -> dict | None:
    """Icon counts per track; all three tracks must be given (0 where the card shows none)."""
    if raw is None:
        return None
    raw = require_object(raw, where, say("The icons"))
    reject_unknown(raw, TRACKS, where)
    icons = {}
    for track in TRACKS:
        if track not in raw:
            raise RuleError(say("%(field)s is missing: enter how many %(track)s icons the card "
                                "shows (0 if none).", field=join(where, track),
                                track=track_name(track)), join(where, track), "missing_value")
        icons[track] = check_int(raw[track], join(where, track),
                                 say("The number of %(track)s icons", track=track_name(track)),
                                 0, MAX_ICONS)
    return icons


def parse_huts(raw: Any) -> dict:
    raw = require_object(raw, "huts", say("huts"))
    out = {}
    for key, track in raw.items():
        if key not in HUT_NUMBERS:
            raise RuleError(say("There is no Hut '%(hut)s': the Huts are numbered 1 to 6.",
                                hut=key), f"huts.{key}", "unknown_field")
        if track not in TRACKS:
            raise RuleError(say("Hut %(hut)s's icon must be one of: %(tracks)s.", hut=key,
                                tracks=", ".join(TRACKS)), f"huts.{key}")
        out[key] = track
    return dict(sorted(out.items()))


def parse_track_vp(raw: Any, where: str) -> dict:
    """VP per scoring space {"15".."18": n}; spaces left out are simply not known yet."""
    raw = require_object(raw, where, say("The track VP"))
    out = {}
    for key, value in raw.items():
        space = str(key)
        if space not in SCORING_SPACES:
            raise RuleError(say("Only spaces 15 to %(space)s of a Progress Track score VP, not "
                                "'%(key)s'.", space=TRACK_END, key=space),
                            f"{where}.{space}", "unknown_field")
        out[space] = check_int(value, f"{where}.{space}",
                               say("The VP for space %(space)s", space=space), 0, MAX_VP)
    return dict(sorted(out.items()))


def parse_draft(raw: Any, where: str) -> str | None:
    if raw is None:
        return None
    if raw not in DRAFT_DIRECTIONS:
        raise RuleError("The draft direction must be clockwise or counterclockwise.", where)
    return raw


def parse_trades(raw: Any, where: str) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) > MAX_TRADES:
        raise RuleError(say("The trades must be a list of at most %(count)s short texts.",
                            count=MAX_TRADES), where)
    if None in raw:     # a null trade would be stored and then break the card's text
        raise RuleError("Each trade must be a text.", f"{where}[{raw.index(None)}]")
    return [parse_text(t, f"{where}[{i}]", say("A trade")) for i, t in enumerate(raw)]


def parse_text(raw: Any, where: str, label: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_TEXT:
        raise RuleError(say("%(row)s must be a text of 1 to %(count)s characters.", row=label,
                            count=MAX_TEXT), where)
    return " ".join(raw.split())


def parse_optional_int(raw: Any, where: str, label: str, maximum: int) -> int | None:
    return None if raw is None else check_int(raw, where, label, 0, maximum)


# --------------------------------------------------------------------------- look-ups
def find_round_card(catalogue: dict, card_id: str) -> dict | None:
    return next((c for c in catalogue.get("round_cards", []) if c["id"] == card_id), None)


def find_nemesis(catalogue: dict, card_id: str) -> dict | None:
    return next((c for c in catalogue.get("nemesis", []) if c["id"] == card_id), None)


def hut_track(catalogue: dict, hut: int) -> str | None:
    return catalogue.get("huts", {}).get(str(hut))


def missing_hut_note(hut: int, player: str) -> Message:
    return say("The box data does not know Hut %(hut)s's track icon: %(player)s moves 1 space "
               "on the track shown in the Hut's top-right corner (record it as a track move), "
               "and the owner can enter Hut %(hut)s on the Box data page.", hut=hut,
               player=player)


def track_vp_question(space: str) -> Message:
    return say("How many VP does Progress Track space %(space)s give? (printed on the board)",
               space=space)


def missing_card_value(key: str, where: str) -> Message:
    what = {"id": say("the card's id or name"), "icons": say("its Progress Track icons"),
            "solo_vp": say("the VP it gives the solo opponent"),
            "draft": say("its draft direction")}[key]
    return say("%(field)s is missing: enter %(what)s.", field=join(where, key), what=what)


# --------------------------------------------------------------------------- helpers
def require_object(raw: Any, where: str | None, label: Message) -> dict:
    if not isinstance(raw, dict):
        raise RuleError(say("%(row)s must be a JSON object.", row=label), where)
    return raw


def reject_unknown(raw: dict, allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise RuleError(say("Unknown field '%(key)s'.", key=str(key)), join(where, str(key)),
                            "unknown_field")


def join(where: str | None, key: str) -> str:
    return f"{where}.{key}" if where else key
