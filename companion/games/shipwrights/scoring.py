"""End-game scoring: the rulebook's six rows, longship bonuses, track VP, the solo opponent."""
from __future__ import annotations

from typing import Any

from ..box_questions import Unknowns
from ..errors import RuleError, impossible
from ..inputs import MAX_NUMBER, SheetField, check_int, parse_options, parse_score_players
from ..messages import Message, say, series
from ..ranking import Tiebreak, score_response
from .catalogue import parse_track_vp, reject_unknown, require_object, track_vp_question
from .heroes import parse_positions
from .rules import (
    BONUS_LABELS,
    BONUS_TYPES,
    OPTION_PASSTHROUGH,
    OPTIONS,
    ROUNDS,
    SOLO_VP_PER_HERO,
    TRACK_END,
    TRACK_LABELS,
    TRACKS,
    track_name,
)
from .setup import parse_nemesis_option

MAX_BONUS_LONGSHIPS = 30


class BonusListField(SheetField):
    """A list of longship bonus types, one entry per constructed bonus longship.

    kind "choices": a list of strings from ``choices``; a form may also send counts per type
    ({"raid_cards": 2}), which become the list."""

    def empty(self) -> Any:
        return []

    def settle(self, value: Any, where: str) -> Any:
        return self.parse(value, where)

    def parse(self, value: Any, where: str) -> Any:
        if isinstance(value, str):
            value = text_to_counts(value, where)
        if isinstance(value, dict):
            value = counts_to_list(value, where, self.choices)
            if len(value) > self.max_items:     # counts that each fit but not together
                raise RuleError(say("%(row)s: the box holds at most %(count)s such "
                                    "Longships.", row=self.label, count=self.max_items),
                                where, "too_many_pieces", 422)
        if not isinstance(value, list) or len(value) > self.max_items:
            raise RuleError(say("%(row)s must be a list of at most %(count)s bonus types.",
                                row=self.label, count=self.max_items), where)
        for i, item in enumerate(value):
            if item not in self.choices:
                raise RuleError(say("%(row)s: each entry must be one of %(choices)s.",
                                    row=self.label, choices=", ".join(self.choices)),
                                f"{where}[{i}]")
        return list(value)


def text_to_counts(text: str, where: str) -> dict:
    """A form's text: "raid_cards, upgrades=2" (brackets and quotes are ignored)."""
    for junk in "[]'\"":
        text = text.replace(junk, " ")
    counts: dict[str, Any] = {}
    for item in text.replace(";", ",").replace(" ", ",").split(","):
        if not item.strip():
            continue
        kind, _, count = item.strip().partition("=")
        counts[kind] = counts.get(kind, 0) + check_int(count or 1, f"{where}.{kind}", A_COUNT,
                                                        0, MAX_BONUS_LONGSHIPS)
    return counts


def counts_to_list(counts: dict, where: str, choices: tuple) -> list[str]:
    for key in counts:
        if key not in choices:
            raise RuleError(say("Unknown longship bonus '%(key)s'.", key=key),
                            f"{where}.{key}", "unknown_field")
    return [kind for kind in choices
            for _ in range(check_int(counts.get(kind, 0), f"{where}.{kind}", A_COUNT, 0,
                                     MAX_BONUS_LONGSHIPS))]


A_COUNT = say("A count")


def bonus_of(*kinds: str):
    """Whether a sheet's bonus Longships include one of ``kinds`` (which read this count)."""
    return lambda sheet: isinstance(sheet.get("longship_bonuses"), list) and any(
        kind in sheet["longship_bonuses"] for kind in kinds)


SETS = "raid_trade_upgrade_sets"
# The rulebook's SCORING ("The game ends after distributing Hero Cards in Round 5"): every
# row but the tracks (the table keeps them) is entered at the end; a count only a bonus
# Longship reads is needed by the sheets with that bonus, and the supplies only break ties.
END = {"end_game": True}
SHEET_FIELDS = (
    SheetField("longships_vp", say("Longships: VP printed on constructed Longships"), **END),
    BonusListField("longship_bonuses", say("Longships with an end-game bonus (one entry each)"),
                   kind="choices", choices=BONUS_TYPES, max_items=MAX_BONUS_LONGSHIPS, **END,
                   key_labels=tuple(BONUS_LABELS.items())),
    SheetField("unique_buildings", say("Unique Buildings (Huts count)"), **END,
               needed=bonus_of("unique_buildings")),
    SheetField("unique_longships", say("Unique Longships (Eikjas count)"), **END,
               needed=bonus_of("unique_longships")),
    SheetField("raid_cards", say("Raid Cards"), maximum=15, **END,
               needed=bonus_of("raid_cards", SETS)),
    SheetField("trade_cards", say("Trade Cards"), maximum=15, **END,
               needed=bonus_of("trade_cards", SETS)),
    SheetField("upgrades", say("Upgrades (flipped Eikja, Labourer, Hut)"), maximum=3, **END,
               needed=bonus_of("upgrades", SETS)),
    SheetField("buildings_vp", say("Buildings: VP"), **END),
    SheetField("jarls_vp", say("Recruited Jarls: VP"), **END),
    SheetField("tracks", say("Progress Track positions"), kind="counts", keys=TRACKS,
               maximum=TRACK_END, key_labels=tuple(TRACK_LABELS.items())),
    SheetField("heroes_vp", say("VP on Hero and Labourer cards (upgraded sides included)"),
               **END),
    SheetField("gold", say("Gold (1 VP each)"), **END),
    SheetField("resources", say("Oak + Wool + Iron left (tie-break)"), **END, when_tied=True),
    SheetField("workers", say("Workers in supply (tie-break)"), **END, when_tied=True),
)

TIEBREAKS = (Tiebreak(say("Oak, Wool and Iron"), lambda r: r["resources"]),
             Tiebreak(say("Workers"), lambda r: r["workers"]))


def score(body: Any, catalogue: dict) -> dict:
    body = require_object(body, None, say("The request"))
    reject_unknown(body, ("players", "options"), "")
    options = parse_options(OPTIONS, body.get("options"), passthrough=OPTION_PASSTHROUGH)
    parse_nemesis_option(options.get("nemesis"))
    track_vp = merged_track_vp(options.get("track_vp"), catalogue)
    opponent = parse_solo_opponent(options.get("solo_opponent"))
    players = parse_score_players(body, SHEET_FIELDS, options, 1, 5)
    if opponent is not None and len(players) != 1:
        raise RuleError("The solo opponent only plays against a single player.",
                        "options.solo_opponent", "not_solo", 422)
    check_box_cards(players)
    unknowns = Unknowns()
    results = [player_result(p, track_vp, unknowns) for p in players]
    if opponent is None:
        return score_response(results, TIEBREAKS, unknowns)
    return solo_response(results, opponent_result(opponent, track_vp, unknowns), unknowns)


BOX_CARDS = {"raid_cards": (say("Raid Cards"), 15), "trade_cards": (say("Trade Cards"), 15)}


def check_box_cards(players: list[dict]) -> None:
    """The box holds 15 Raid Cards and 15 Trade Cards ("Shuffle all 15 Raid Cards"): the
    players together cannot hold more."""
    for key, (label, limit) in BOX_CARDS.items():
        held = [i for i, p in enumerate(players) if p["sheet"][key]]
        total = sum(players[i]["sheet"][key] for i in held)
        if total > limit:
            counts = series([Message("%(player)s %(count)s", {"player": players[i]["name"],
                                                               "count": players[i]["sheet"][key]})
                             for i in held], ", ")
            raise impossible(say("The box holds %(count)s %(cards)s, but the sheets add up to "
                                 "%(total)s (%(who)s).", count=limit, cards=label,
                                 total=total, who=counts),
                             [f"players[{i}].sheet.{key}" for i in held])


def merged_track_vp(raw: Any, catalogue: dict) -> dict:
    """The catalogue's track VP, overridden space by space by options.track_vp."""
    given = {} if raw is None else parse_track_vp(raw, "options.track_vp")
    return {**catalogue.get("track_vp", {}), **given}


# --------------------------------------------------------------------------- one player
def player_result(player: dict, track_vp: dict, unknowns: Unknowns) -> dict:
    sheet = player["sheet"]
    longships, longship_note = longship_points(sheet)
    tracks, track_note, unknown = track_points(positions_of(sheet["tracks"]), track_vp,
                                               unknowns)
    categories = {"longships": longships, "buildings": sheet["buildings_vp"],
                  "jarls": sheet["jarls_vp"], "tracks": tracks,
                  "heroes": sheet["heroes_vp"], "gold": sheet["gold"]}
    explanations = {"longships": longship_note, "tracks": track_note,
                    "gold": say("%(count)s Gold at 1 VP each.", count=sheet["gold"])}
    return {"name": player["name"], "categories": categories, "explanations": explanations,
            "unknown": ["tracks"] if unknown else [],
            "resources": sheet["resources"], "workers": sheet["workers"]}


def longship_points(sheet: dict) -> tuple[int, str]:
    bonuses = [bonus_points(kind, sheet) for kind in sheet["longship_bonuses"]]
    total = sheet["longships_vp"] + sum(bonuses)
    if not bonuses:
        return total, say("%(vp)s VP printed on Longships, no end-game bonus.",
                          vp=sheet["longships_vp"])
    # one part per kind of bonus, however many Longships carry it: the rule's words once
    # ("4 × 3 (3 VP per set of …)"), never once per Longship
    kinds = list(dict.fromkeys(sheet["longship_bonuses"]))
    parts = series([bonus_part(sheet["longship_bonuses"].count(kind), bonus_points(kind, sheet),
                               kind) for kind in kinds], ", ")
    return total, say("%(vp)s VP printed on Longships plus bonuses: %(items)s.",
                      vp=sheet["longships_vp"], items=parts)


def bonus_part(longships: int, vp: int, kind: str) -> Message:
    if longships == 1:
        return say("%(vp)s (%(bonus)s)", vp=vp, bonus=BONUS_LABELS[kind])
    return say("%(count)s × %(vp)s (%(bonus)s)", count=longships, vp=vp,
               bonus=BONUS_LABELS[kind])


def bonus_points(kind: str, sheet: dict) -> int:
    """VP one longship with this end-game bonus scores for the sheet's counts."""
    if kind == "unique_buildings":
        return sheet["unique_buildings"]
    if kind == "unique_longships":
        return sheet["unique_longships"]
    if kind == "raid_trade_upgrade_sets":
        return 3 * min(sheet["raid_cards"], sheet["trade_cards"], sheet["upgrades"])
    return 2 * sheet[kind]            # raid_cards, trade_cards, upgrades: 2 VP each


def positions_of(counts: dict) -> dict:
    return {track: counts.get(track, 0) for track in TRACKS}


def track_points(positions: dict, track_vp: dict, unknowns: Unknowns) -> tuple[int, str, bool]:
    """VP for markers on spaces 15-18, the sentence, and whether a space's VP is unknown (it
    then counts 0 and the score asks for it)."""
    total, parts, unknown = 0, [], False
    for track in TRACKS:
        position = positions[track]
        if position < 15:
            continue
        space = str(position)
        if space not in track_vp:
            unknowns.ask(f"track_vp.{space}", track_vp_question(space))
            parts.append(say("%(track)s on %(space)s: not known yet, counted as 0",
                             track=track_name(track), space=space))
            unknown = True
            continue
        total += track_vp[space]
        parts.append(say("%(track)s on %(space)s: %(vp)s", track=track_name(track), space=space,
                         vp=track_vp[space]))
    if not parts:
        return 0, say("No marker reached space 15."), False
    return total, say("%(parts)s.", parts=series(parts)), unknown


# --------------------------------------------------------------------------- solo
def parse_solo_opponent(raw: Any) -> dict | None:
    if raw is None:
        return None
    where = "options.solo_opponent"
    raw = require_object(raw, where, say("The solo opponent"))
    reject_unknown(raw, ("heroes_won", "round_card_vp", "tracks"), where)
    vps = raw.get("round_card_vp")
    if not isinstance(vps, list) or len(vps) != ROUNDS:
        raise RuleError(say("round_card_vp must list the VP of all %(count)s Round Cards.",
                            count=ROUNDS), f"{where}.round_card_vp")
    return {"heroes_won": check_int(raw.get("heroes_won"), f"{where}.heroes_won",
                                    say("Heroes the opponent won"), 0, len(TRACKS)),
            "round_card_vp": [check_int(v, f"{where}.round_card_vp[{i}]",
                                        say("A Round Card's VP"), 0, MAX_NUMBER)
                              for i, v in enumerate(vps)],
            "tracks": parse_positions(raw.get("tracks"), f"{where}.tracks")}


def opponent_result(opponent: dict, track_vp: dict, unknowns: Unknowns) -> dict:
    tracks, note, _ = track_points(opponent["tracks"], track_vp, unknowns)
    categories = {"heroes": SOLO_VP_PER_HERO * opponent["heroes_won"],
                  "round_cards": sum(opponent["round_card_vp"]), "tracks": tracks}
    return {"categories": categories, "total": sum(categories.values()),
            "explanations": {"heroes": say("%(count)s Hero cards at %(vp)s VP each.",
                                           count=opponent["heroes_won"], vp=SOLO_VP_PER_HERO),
                             "round_cards": say("VP on the 5 Round Cards."), "tracks": note}}


def solo_response(results: list[dict], opponent: dict, unknowns: Unknowns) -> dict:
    response = score_response(results, TIEBREAKS, unknowns, opponent=opponent)
    player = response["players"][0]
    won = player["total"] > opponent["total"]
    player["rank"] = 1 if won else 2
    response["winners"] = [player["name"]] if won else []
    if won:
        response["solo_result"] = say("%(name)s scores %(total)s against the opponent's "
                                      "%(opponent_total)s and wins.", name=player["name"],
                                      total=player["total"], opponent_total=opponent["total"])
    else:
        response["solo_result"] = say("%(name)s scores %(total)s against the opponent's "
                                      "%(opponent_total)s and loses.", name=player["name"],
                                      total=player["total"], opponent_total=opponent["total"])
    response["tiebreak"] = say("%(name)s tied the opponent on %(total)s: in solo a tie is a "
                               "loss.", name=player["name"], total=player["total"]
                               ) if player["total"] == opponent["total"] else None
    return response
