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
from functools import cache, reduce
from operator import or_
from typing import Annotated, Any, Literal, get_args
from urllib.parse import quote

from pydantic import Field, create_model

from .games import GAMES, Game, get_game
from .games.bodies import Open, check, event_type, given, one_of, whole
from .games.errors import RuleError
from .games.messages import Message, say, to_data
from .games.requests import (
    SeatEditsChoice,
    Seats,
    SeedValue,
    TurnLimit,
    UtcOffset,
    options_type,
)
from .plays import apply_event, game_events

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
        # the table's own UTC offset when the play began (the phone's), for local dates
        "utc_offset_min": initial.get("utc_offset_min"),
        # games with turns: each player's clock {name: {elapsed_s, turns, longest_s}}
        "player_times": clock.get("players"),
        "start_player": start_player_of(initial),
        "expansions": expansions_of(play["game"], initial.get("options") or {}),
        "seed": initial["seed"], "players": initial["players"], "options": initial["options"],
        "seat_edits": initial.get("seat_edits", "all"),
        "turn_limit_s": initial.get("turn_limit_s"),
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
             "colour", "rank", "winner", "total", *categories, "provisional", "time_s",
             "turns", "longest_turn_s"]]
    provisional = "yes" if result.get("provisional") else "no"
    duration = doc.get("duration_s")
    minutes = "" if duration is None else duration // 60
    times = doc.get("player_times") or {}
    for p in players:
        mine = times.get(p["name"]) or {}
        rows.append([doc["play_id"], doc["game_name"], local_start(doc)[:10],
                     doc["seed"], "yes" if doc["finished"] else "no", minutes,
                     p["name"], colours.get(p["name"], ""), p["rank"],
                     "yes" if p["name"] in winners else "no", p["total"],
                     *[p["categories"].get(c, "") for c in categories], provisional,
                     mine.get("elapsed_s", ""), mine.get("turns", ""),
                     mine.get("longest_s", "")])
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
        "playDate": local_start(doc),
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
    # BG Stats' push format takes no time per player: each player's clock goes here
    times = doc.get("player_times") or {}
    if times:
        lines.append("Time per player: " + "; ".join(
            f"{name} {clock_text(t['elapsed_s'])} ({t['turns']} "
            f"{'turn' if t['turns'] == 1 else 'turns'}, longest {clock_text(t['longest_s'])})"
            for name, t in times.items()))
    return "\n".join(lines)


def clock_text(seconds: int) -> str:
    """12:05 (minutes:seconds), 1:02:05 past an hour."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def local_start(doc: dict) -> str:
    """When the play began, "YYYY-MM-DD HH:MM:SS" in the table's own time zone (the offset
    the starting phone gave), else as stored (UTC)."""
    when = _parse_iso(doc.get("started_at") or doc.get("created_at"))
    if when is None:
        return ""
    offset = doc.get("utc_offset_min")
    if isinstance(offset, int) and not isinstance(offset, bool) and abs(offset) <= 16 * 60:
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        when = when.astimezone(dt.timezone(dt.timedelta(minutes=offset)))
    return when.strftime("%Y-%m-%d %H:%M:%S")


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


def _minutes(start: Any, end: Any) -> int:
    a, b = _parse_iso(start), _parse_iso(end)
    if not a or not b or b < a:
        return 0
    return int((b - a).total_seconds() // 60)


# --------------------------------------------------------------------------- import
class ImportHead(Open):
    """What makes a file an export this app reads (checked first, so a file of another kind is
    named as such before anything about its game)."""
    format: one_of((FORMAT,))
    format_version: whole(-(2**63) + 1, FORMAT_VERSION)


@cache
def import_type(game: Game) -> type:
    """An export of a play of ``game`` read back (POST /plays/import), declared once: the
    play's seats, options, seed and box data as a new play takes them, and its events, each as
    the game's Event<Game> takes it, replayed in order (a rule one breaks is a 422). Keys an
    export holds for people and other apps (result, times, names) are read as any JSON."""
    key = game.id.capitalize()
    events = list[event_type(key, game_events(game.id), imported=True)]
    return create_model(
        f"Import{key}", __base__=ImportHead, __doc__=f"A {game.name} play export.",
        game=(Literal[game.id], ...), players=(Seats, ...),
        options=(options_type(game) | None, None), seed=(SeedValue, ...),
        seat_edits=(SeatEditsChoice, None), utc_offset_min=(UtcOffset, None),
        turn_limit_s=(TurnLimit, None), catalogue=(Annotated[game.catalogue_type | None, Field(
            description="The box data the play was recorded with (null or {}: this "
                        "installation's)")], None),
        events=(Annotated[events, Field(max_length=MAX_EVENTS, description=(
            "The events in order, replayed through every check of a live play (whole-sheet "
            "checks added after the play was recorded excepted)"))], ...))


@cache
def import_body() -> Any:
    """An export of any game's play: its game's Import<Game>, by the export's game."""
    return Annotated[reduce(or_, [import_type(g) for g in GAMES.values()]),
                     Field(discriminator="game")]


def parse_import(doc: Any) -> tuple[dict, list[dict], dict | None]:
    """An export read back: (the POST /plays body, the events as sent, the box-data
    snapshot), its declaration checked (a RuleError naming the field at fault)."""
    # its head alone: ImportHead reads other keys as any JSON, and read all 10,000 events so
    check(ImportHead, {k: v for k, v in doc.items() if k != "events"} if isinstance(doc, dict)
          else doc)
    game = get_game(doc.get("game"))        # a game this app does not know: 404
    raw = doc.get("events")
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        check(import_body(), doc)           # refused as declared
    # the rest, then each event on its own (a refusal names it as events[i])
    request = check(import_body(), {**doc, "events": []})
    event = get_args(import_type(game).model_fields["events"].annotation)[0]
    for i, each in enumerate(raw):
        check(event, each, f"events[{i}]")
    body = {"game": request.game, "players": given(request.players), "seed": request.seed}
    if request.options is not None:         # null: the game's defaults
        body["options"] = given(request.options)
    if request.seat_edits is not None:         # absent in older exports: "all"
        body["seat_edits"] = request.seat_edits
    if request.utc_offset_min is not None:
        body["utc_offset_min"] = request.utc_offset_min
    if request.turn_limit_s:
        body["turn_limit_s"] = request.turn_limit_s
    events = [{"type": e["type"], "data": e.get("data") or {},
               **({"at": e["at"]} if isinstance(e.get("at"), str) else {})}
              for e in doc["events"]]
    return body, events, doc.get("catalogue") or None


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
                            # a refusal of the play's state (the clock paused twice: 409 when
                            # live) is a rule the file breaks: 422, as the document says
                            err.code, 400 if err.status == 400 else 422) from err
        if keep_every and (i + 1) % keep_every == 0:
            kept[i + 1] = state
    return state, kept
