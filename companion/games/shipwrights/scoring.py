"""End-game scoring: the rulebook's six rows, longship bonuses, track VP, the solo opponent."""
from __future__ import annotations

from ..box_questions import Unknowns
from ..errors import RuleError, impossible, say
from ..inputs import SheetField
from ..messages import Message, say_n, series
from ..ranking import Tiebreak, score_response
from .catalogue import track_vp_question
from .rules import (
    BONUS_LABELS,
    BONUS_TYPES,
    SOLO_VP_PER_HERO,
    TRACK_END,
    TRACK_LABELS,
    TRACKS,
    track_name,
)

MAX_BONUS_LONGSHIPS = 30


def bonus_of(*kinds: str):
    """Whether a sheet's bonus Longships include one of ``kinds`` (which read this count)."""
    def needs(sheet: dict) -> bool:
        bonuses = sheet.get("longship_bonuses")       # one entry each, or counts per kind
        if isinstance(bonuses, dict):
            bonuses = [kind for kind, count in bonuses.items() if count]
        return isinstance(bonuses, list) and any(kind in bonuses for kind in kinds)
    return needs


SETS = "raid_trade_upgrade_sets"
# The rulebook's SCORING ("The game ends after distributing Hero Cards in Round 5"): every
# row but the tracks (the table keeps them) is entered at the end; a count only a bonus
# Longship reads is needed by the sheets with that bonus, and the supplies only break ties.
END = {"end_game": True}


def bonus_longships(kind: str, n: int, sign: str = "") -> Message:
    """Longships of one bonus, for a change's label: "+1 Longship: 2 VP per Raid Card"."""
    return say_n("%(sign)s%(count)s Longship: %(bonus)s", "%(sign)s%(count)s Longships: "
                 "%(bonus)s", n, sign=sign, bonus=BONUS_LABELS.get(kind, kind))


SHEET_FIELDS = (
    SheetField("longships_vp", say("Longships: VP printed on constructed Longships"), **END),
    SheetField("longship_bonuses", say("Longships with an end-game bonus (one entry each)"),
               kind="choices", choices=BONUS_TYPES, max_items=MAX_BONUS_LONGSHIPS, **END,
               key_labels=tuple(BONUS_LABELS.items()), counted=bonus_longships),
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

TIEBREAKS = (Tiebreak(say("Oak, Wool and Iron"), lambda r: r["resources"],
                      # TRANSLATORS: follows "with" in a tie-break sentence (German: "mit ...").
                      most=say("the most Oak, Wool and Iron")),
             Tiebreak(say("Workers"), lambda r: r["workers"],
                      # TRANSLATORS: follows "with" in a tie-break sentence (German: "mit ...").
                      most=say("the most Workers")))


def tally(body: dict, catalogue: dict) -> dict:
    options, players = body["options"], body["players"]
    track_vp = {**catalogue.get("track_vp", {}), **(options.get("track_vp") or {})}
    opponent = options.get("solo_opponent")
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
def opponent_result(opponent: dict, track_vp: dict, unknowns: Unknowns) -> dict:
    tracks, note, _ = track_points(opponent["tracks"], track_vp, unknowns)
    categories = {"heroes": SOLO_VP_PER_HERO * opponent["heroes_won"],
                  "round_cards": sum(opponent["round_card_vp"]), "tracks": tracks}
    return {"categories": categories, "total": sum(categories.values()),
            "explanations": {"heroes": say_n("%(count)s Hero card at %(vp)s VP each.",
                                             "%(count)s Hero cards at %(vp)s VP each.",
                                             opponent["heroes_won"], vp=SOLO_VP_PER_HERO),
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
