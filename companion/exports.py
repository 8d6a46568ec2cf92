"""A play as a JSON document, as CSV, as a BG Stats play; and a JSON export read back.

Pure: no Flask, no SQL. An export carries everything a replay needs (game, seats, options,
seed, the box-data snapshot and the active events in order) plus the result for people and
other apps. Importing replays the events through the same validation as the live play.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any
from urllib.parse import quote

from .games import get_game
from .games.errors import RuleError
from .games.messages import Message, say, to_data
from .plays import apply_event

FORMAT = "north-sea-companion/play"
FORMAT_VERSION = 1
# as many events as a play of a long evening may reach, and more (an export of 20,000 events
# is about 1.8 MB): the import's body limit (companion.IMPORT_MAX_BODY) takes it whole
MAX_EVENTS = 25_000
APP_NAME = "North Sea Companion"

# BG Stats ("Board Game Stats" by Eerko) documents how another app pushes a finished play to it:
# https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
# "The link is a simple request URL with this format:
#  https://app.bgstatsapp.com/createPlay.html?data=<data>
#  Alternatively, bgstats://app.bgstatsapp.com/createPlay.html?data=<data> works as well", where
# <data> is a url-encoded JSON string: {"sourceName", "sourcePlayId", "playDate"
# ("YYYY-MM-DD HH:MM:SS"), "durationMin", "game": {"name", "highestWins", "noPoints",
# "sourceGameId", "bggId" (optional)}, "players": [{"name", "score", "winner", "rank",
# "startPlayer", "sourcePlayerId", "role"}], "location", "comments", "board"}.
# BG Stats keeps one play per (sourceName, sourcePlayId): the play's id never changes, so sending
# the same play twice updates it instead of logging it twice.
# Expansions: the page names no field for them; we send "expansions": [{"name", "bggId"?}] next
# to the documented ones (an importer ignores what it does not know) and say them in
# "comments" too, so they reach the log either way.
# The app-scheme form opens BG Stats (3.3.2 or newer) straight from the phone, which needs no
# internet at the table; the https form would try the web when the app is missing.
BGSTATS_PREFIX = "bgstats://app.bgstatsapp.com/createPlay.html?data="
# The page gives no length limit. Phones open links of many kilobytes, but a QR code or a
# messenger may cut them: we keep the link under this (our own cautious bound) by shortening
# the comments first, never the players or the result.
BGSTATS_MAX_LINK = 4000
# BoardGameGeek ids, only where a source confirms them (a wrong id files the play under another
# game, so without one BG Stats gets the name only):
#   explorers 176371: boardgamegeek.com/boardgame/176371/explorers-north-sea (linked from a
#     public Garphill solo-variant write-up); reavers 242684: .../boardgame/242684/reavers-midgard;
#   seafarers 325: .../boardgame/325/catan-seafarers; knarr 379629: shared/rules/facts.md
#   (Board Game Arena's Knarr project). Shipwrights Redux and Rocks of Ruin: not confirmed.
BGG_IDS = {"explorers": 176371, "reavers": 242684, "seafarers": 325, "knarr": 379629}
EXPANSIONS = {("explorers", "rocks_of_ruin"): {"name": "Rocks of Ruin"}}


# --------------------------------------------------------------------------- export
def export_document(play: dict, initial: dict, events: list[dict], score: dict,
                    clock: dict | None = None) -> dict:
    """The JSON export. ``play``: {"id", "game", "created_at", "updated_at", "finished"}
    (datetimes or ISO strings); ``events``: the active events in order; ``clock``: the play's
    clock as read now ({"started_at", "finished_at", "running", "elapsed_s"})."""
    clock = clock or {}
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "exported_by": APP_NAME,
        "play_id": play["id"], "game": play["game"], "game_name": get_game(play["game"]).name,
        "created_at": _iso(play.get("created_at")), "updated_at": _iso(play.get("updated_at")),
        "finished": bool(play.get("finished")),
        "started_at": clock.get("started_at"), "finished_at": clock.get("finished_at"),
        "duration_s": clock.get("elapsed_s"),
        "start_player": start_player_of(initial),
        "expansions": expansions_of(play["game"], initial.get("options") or {}),
        "seed": initial["seed"], "players": initial["players"], "options": initial["options"],
        "catalogue": initial.get("catalogue") or {},
        "events": [{"type": e["type"], "data": e.get("data") or {}, "at": _iso(e.get("at"))}
                   for e in events],
        "result": result_of(score),
    }


def start_player_of(initial: dict) -> str | None:
    """Who began: the setup's start (or first) player, else the first seat."""
    setup = initial.get("setup") or {}
    name = setup.get("start_player") or setup.get("first_player")
    if isinstance(name, str):
        return name
    return initial["players"][0]["name"] if initial.get("players") else None


def expansions_of(game_id: str, options: dict) -> list[dict]:
    """The expansions a play used (from its options), each {"name"} plus "bggId" if known."""
    return [dict(entry) for (game, option), entry in EXPANSIONS.items()
            if game == game_id and options.get(option)]


def result_of(score: dict) -> dict:
    """The part of a scoring response that an export keeps (or the scoring error). A sentence
    is kept in English and, beside it, as its message (id and parameters: companion.games.
    messages), so a reader can say it in another language."""
    if "error" in score:
        return {"error": {**score["error"], **said("message", score["error"]["message"])}}
    return {"players": [{"name": p["name"], "total": p["total"], "rank": p["rank"],
                         "categories": p["categories"]} for p in score["players"]],
            "winners": score["winners"], "tiebreak": score.get("tiebreak"),
            # a play's answer says whether its result is final (companion.games.ending)
            **{key: score[key] for key in ("game_over", "provisional", "to_enter")
               if key in score},
            **said("tiebreak", score.get("tiebreak"))}


def said(key: str, value) -> dict:
    """``{key + "_message": {"$message": id, "params": {...}}}`` for a message, else {}."""
    return {f"{key}_message": to_data(value)} if isinstance(value, Message) else {}


def _iso(value: Any) -> str | None:
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return value.isoformat(timespec="seconds")
    return value if isinstance(value, str) else None


def export_json(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


def export_csv(doc: dict) -> str:
    """One row per player: the play's facts, rank, total and every scoring row."""
    result = doc["result"]
    players = result.get("players") or [{"name": s["name"], "total": "", "rank": "",
                                         "categories": {}} for s in doc["players"]]
    categories: list[str] = []
    for p in players:
        categories += [c for c in p["categories"] if c not in categories]
    colours = {s["name"]: s.get("colour", "") for s in doc["players"]}
    winners = set(result.get("winners") or [])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rows = [["play_id", "game", "date", "seed", "finished", "duration_min", "player",
             "colour", "rank", "winner", "total", *categories, "provisional"]]
    provisional = "yes" if result.get("provisional") else "no"
    duration = doc.get("duration_s")
    minutes = "" if duration is None else duration // 60
    for p in players:
        rows.append([doc["play_id"], doc["game_name"], (doc.get("created_at") or "")[:10],
                     doc["seed"], "yes" if doc["finished"] else "no", minutes,
                     p["name"], colours.get(p["name"], ""), p["rank"],
                     "yes" if p["name"] in winners else "no", p["total"],
                     *[p["categories"].get(c, "") for c in categories], provisional])
    for row in rows:
        writer.writerow([_safe_cell(cell) for cell in row])
    return out.getvalue()


def _safe_cell(cell: Any) -> Any:
    """Every text cell (names, the seed, anything a person typed) is kept from being read as
    a formula by a spreadsheet: a leading = + - @ tab or CR gets a quote in front."""
    if not isinstance(cell, str):
        return cell
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r", "\n") else cell


# --------------------------------------------------------------------------- BG Stats
def bgstats_play(doc: dict, comments_limit: int | None = None) -> dict | None:
    """The play in BG Stats' documented push format, or None while it has no scores or its
    result is still provisional (an end-game row to enter, a box value to answer)."""
    result = doc["result"]
    if "error" in result or result.get("provisional"):
        return None
    winners = set(result["winners"])
    start = doc.get("start_player")
    game = {"name": doc["game_name"], "highestWins": True, "noPoints": False,
            "sourceGameId": doc["game"]}
    if doc["game"] in BGG_IDS:
        game["bggId"] = BGG_IDS[doc["game"]]
    duration = doc.get("duration_s")
    return {
        "sourceName": APP_NAME,
        "sourcePlayId": doc["play_id"],
        "playDate": _bgstats_date(doc.get("started_at") or doc.get("created_at")),
        "durationMin": duration // 60 if isinstance(duration, int) else
        _minutes(doc.get("created_at"), doc.get("updated_at")),
        "game": game,
        "expansions": doc.get("expansions") or [],
        "players": [{"name": p["name"], "score": p["total"], "winner": p["name"] in winners,
                     "rank": p["rank"], "startPlayer": p["name"] == start,
                     "sourcePlayerId": p["name"], "role": ""} for p in result["players"]],
        "comments": _clip(bgstats_comments(doc), comments_limit),
        "board": "",
    }


def bgstats_comments(doc: dict) -> str:
    """What the score pad showed, row by row: 'Ann 40: livestock 12, outposts 5, ...'."""
    result = doc["result"]
    lines = [f"{APP_NAME}: {doc['game_name']}"]
    if doc.get("expansions"):
        lines.append("Expansions: " + ", ".join(e["name"] for e in doc["expansions"]))
    for p in result["players"]:
        rows = ", ".join(f"{name.replace('_', ' ')} {vp}" for name, vp in p["categories"].items())
        lines.append(f"{p['name']} {p['total']}: {rows}")
    if result.get("tiebreak"):
        lines.append(result["tiebreak"])
    return "\n".join(lines)


def _clip(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[:max(limit - 1, 0)] + "…" if limit > 0 else ""


def bgstats_link(doc: dict) -> str | None:
    """The link, within BGSTATS_MAX_LINK: the comments are shortened until it fits."""
    play = bgstats_play(doc)
    if play is None:
        return None
    limit = len(play["comments"])
    while True:
        link = BGSTATS_PREFIX + quote(json.dumps(play, ensure_ascii=False,
                                                 separators=(",", ":")), safe="")
        if len(link) <= BGSTATS_MAX_LINK or limit == 0:
            return link
        limit = max(0, limit - max(20, (len(link) - BGSTATS_MAX_LINK) // 3))
        play = bgstats_play(doc, comments_limit=limit)


def _parse_iso(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _bgstats_date(value: Any) -> str:
    when = _parse_iso(value)
    return when.strftime("%Y-%m-%d %H:%M:%S") if when else ""


def _minutes(start: Any, end: Any) -> int:
    a, b = _parse_iso(start), _parse_iso(end)
    if not a or not b or b < a:
        return 0
    return int((b - a).total_seconds() // 60)


# --------------------------------------------------------------------------- import
def parse_import(doc: Any) -> tuple[dict, list[dict], dict | None]:
    """An export read back: (the POST /plays body, the events, the box-data snapshot).
    Raises RuleError naming the field at fault."""
    if not isinstance(doc, dict):
        raise RuleError("The file must hold one exported play (a JSON object).", None)
    if doc.get("format") != FORMAT:
        raise RuleError(say("This is not a %(app)s play export (format '%(format)s').",
                            app=APP_NAME, format=FORMAT), "format")
    version = doc.get("format_version")
    if isinstance(version, float) and version.is_integer():
        version = int(version)              # 1.0 is JSON's (and JSON Schema's) integer 1
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION:
        raise RuleError(say("Only export format version %(version)s can be read.",
                            version=str(FORMAT_VERSION)), "format_version")
    game = get_game(doc.get("game"))
    body = {"game": game.id, "players": doc.get("players"), "seed": doc.get("seed")}
    if doc.get("options") is not None:         # null: the game's defaults
        body["options"] = doc["options"]
    catalogue = doc.get("catalogue")
    if catalogue is not None and not isinstance(catalogue, dict):
        raise RuleError("The box data must be an object.", "catalogue")
    return body, parse_events(doc.get("events")), catalogue or None


def parse_events(events: Any) -> list[dict]:
    if not isinstance(events, list):
        raise RuleError("events must be a list of {type, data}.", "events")
    if len(events) > MAX_EVENTS:
        raise RuleError(say("A play can hold at most %(count)s events.", count=MAX_EVENTS),
                        "events")
    out = []
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str) \
                or not event["type"] or len(event["type"]) > 40:
            raise RuleError("Each event needs a type.", f"events[{i}].type")
        data = event.get("data")
        data = {} if data is None else data
        if not isinstance(data, dict):
            raise RuleError("An event's data must be an object.", f"events[{i}].data")
        entry = {"type": event["type"], "data": data}
        if isinstance(event.get("at"), str):
            entry["at"] = event["at"]   # the game clock of the import counts the same time
        out.append(entry)
    return out


def replay_import(initial: dict, events: list[dict], keep_every: int = 0
                  ) -> tuple[dict, dict[int, dict]]:
    """Replay an import's events from its initial state before anything is stored, through
    the checks of a live play (whole-sheet checks aside, as for any recorded event); the
    error names the event at fault. Returns the final state and the states after every
    ``keep_every``-th event (snapshots to keep; none for 0)."""
    state, kept = initial, {}
    for i, event in enumerate(events):
        try:
            state = apply_event(state, event, check_whole=False)
        except RuleError as err:
            field = f"events[{i}]" + (f".{err.field}" if err.field else "")
            raise RuleError(say("Event %(n)s (%(type)s): %(message)s", n=i + 1,
                                type=event["type"], message=err.message), field,
                            err.code, err.status) from err
        if keep_every and (i + 1) % keep_every == 0:
            kept[i + 1] = state
    return state, kept
