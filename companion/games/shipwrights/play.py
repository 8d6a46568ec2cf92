"""A play at the table: track positions, round cards, neutral moves, reminders, heroes.

Everything the game keeps lives in ``state["table"]``::

    {"tracks": {player: {military, trade, renown}}, "neutral": {...} | None,
     "rewarded": {player: {track: [4, 8]}}, "heroes": {"svend", "thyra", "frode": holder},
     "randi": [players], "round_card": the revealed card | None, "revealed": [cards],
     "draft": [sentences], "steps": [sentences for this phase],
     "reminders": [sentences this round], "notices": [missing data], "moves": [track moves],
     "hero_history": [{"round", "heroes", "randi"}],
     "acting": [players not yet done with the draft or the actions (together.py)]}
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..bodies import given
from ..errors import RuleError, say
from ..inputs import player_of
from ..messages import Message, say_n, series
from .catalogue import CATALOGUE_PAGE, find_round_card, validate_catalogue
from .heroes import award_heroes, hand_out_sentences
from .phases import ACTIONS_STEPS, FINAL_STEPS, INCOME_STEPS, draft_sentences
from .rules import (
    HEROES,
    NEUTRAL,
    PHASES,
    REWARD_SPACES,
    REWARDS,
    ROUNDS,
    TOGETHER,
    TRACK_END,
    TRACKS,
    raid_cost,
    track_name,
)
from .setup import icon_moves

if TYPE_CHECKING:
    from .events import ShipwrightsReveal, ShipwrightsTrackMove


def start_state(state: dict) -> dict:
    setup, names = state["setup"], player_names(state)
    tracks = {name: dict.fromkeys(TRACKS, 0) for name in names}
    for name in names:
        hut_track = setup.get("hut_tracks", {}).get(name)
        if hut_track:
            tracks[name][hut_track] += 1
    neutral = dict(setup["neutral_start"]) if setup.get("neutral_player") else None
    state["table"] = {
        "tracks": tracks, "neutral": neutral,
        "rewarded": {name: {t: [] for t in TRACKS} for name in names},
        "heroes": dict.fromkeys(HEROES.values()), "randi": [],
        "round_card": None, "revealed": [], "draft": [], "steps": [], "reminders": [],
        "notices": missing_data_notice(setup), "moves": [], "hero_history": [], "acting": []}
    return enter_reveal(state)


def player_names(state: dict) -> list[str]:
    return [p["name"] for p in state["players"]]


def catalogue_of(state: dict) -> dict:
    return validate_catalogue(state.get("catalogue") or {})


# --------------------------------------------------------------------------- advancing
def advance(state: dict) -> dict:
    check_open(state)
    table = state["table"]
    if state["phase"] == "reveal" and table["round_card"] is None:
        raise RuleError(say("Enter round %(round)s's Round Card first (its track icons, draft "
                            "direction and solo VP).", round=state["round"]),
                        None, "round_card_missing", 422)
    index = PHASES.index(state["phase"])
    if index + 1 < len(PHASES):
        state["phase"] = PHASES[index + 1]
        return enter_phase(state)
    if state["round"] >= ROUNDS:
        state["finished"] = True
        table["steps"] = list(FINAL_STEPS)
        return state
    state["round"] += 1
    state["phase"] = PHASES[0]
    table["reminders"] = []
    return enter_reveal(state)


def enter_phase(state: dict) -> dict:
    table, phase = state["table"], state["phase"]
    table["acting"] = player_names(state) if phase in TOGETHER else []
    if phase == "draft":
        table["steps"] = list(table["draft"])
    elif phase == "actions":
        table["steps"] = ACTIONS_STEPS + raid_cost_sentences(state)
    elif phase == "income":
        table["steps"] = list(INCOME_STEPS)
    elif phase == "heroes":
        hand_out_heroes(state)
    return state


def check_open(state: dict) -> None:
    if state.get("finished"):
        raise RuleError("This play is finished.", None, "play_finished", 422)


def raid_cost_sentences(state: dict) -> list[str]:
    out = []
    for name, positions in state["table"]["tracks"].items():
        cost = raid_cost(positions["military"])
        if cost is not None:
            out.append(say_n("%(player)s raids for %(count)s Worker (Military %(space)s).",
                             "%(player)s raids for %(count)s Workers (Military %(space)s).",
                             cost, player=name, space=positions["military"]))
    return out


# --------------------------------------------------------------------------- round cards
def enter_reveal(state: dict) -> dict:
    """Reveal the round's card from the catalogue, or ask the table for it."""
    table, n = state["table"], state["round"]
    table["round_card"] = None
    ids = state["setup"].get("round_cards") or []
    card = find_round_card(catalogue_of(state), ids[n - 1]) if len(ids) >= n else None
    if card is not None and (card["solo_vp"] is not None or len(state["players"]) > 1):
        return reveal_card(state, card, "catalogue")
    table["draft"] = []
    table["steps"] = [say("Turn over round %(round)s's Round Card and enter what it shows: "
                          "%(passes)s, in the form below.", round=n,
                          passes=series(reveal_needs(state), ", "))]
    return state


def reveal_needs(state: dict) -> list[str]:
    count = len(state["players"])
    needs = [say("its track icons")] if count <= 2 else [say("its draft direction")]
    return needs + ([say("its solo VP")] if count == 1 else [])


def required_card_fields(player_count: int) -> tuple[str, ...]:
    if player_count == 1:
        return ("icons", "solo_vp")
    return ("icons",) if player_count == 2 else ("draft",)


CARD_NEEDS = {"icons": say("its Progress Track icons"),
              "solo_vp": say("the VP it gives the solo opponent"),
              "draft": say("its draft direction")}


def apply_reveal(state: dict, data: ShipwrightsReveal) -> dict:
    """The table types in the revealed card (when the catalogue could not deal one)."""
    check_open(state)
    card = typed_card(data)
    for key in required_card_fields(len(state["players"])):
        if card[key] is None:      # what a card must show depends on the play's player count
            raise RuleError(say("Enter %(what)s: this play needs it from the card.",
                                what=CARD_NEEDS[key]), f"data.{key}", "missing_value", 422)
    table = state["table"]
    if state["phase"] != "reveal" or table["round_card"] is not None:
        raise RuleError(say("Round %(round)s's Round Card is already revealed; undo to correct "
                            "it.", round=state["round"]), None, "already_revealed", 422)
    return reveal_card(state, card, "table")


def typed_card(data: ShipwrightsReveal) -> dict:
    """The card as the catalogue keeps one: the form's three icon fields as its icons, a text
    of trades as one per line or ';' (blank pieces skipped, spaces collapsed)."""
    icons = given(data.icons) if data.icons else None
    if data.military not in (None, ""):
        icons = {track: getattr(data, track) for track in TRACKS}
    trades = data.trades
    if isinstance(trades, str):
        trades = [" ".join(t.split()) for t in trades.replace("\n", ";").split(";")
                  if t.strip()]
    return {"id": data.id, "name": data.name, "icons": icons, "solo_vp": data.solo_vp,
            "draft": data.draft, "trades": trades or None}


def reveal_card(state: dict, card: dict, source: str) -> dict:
    table = state["table"]
    entry = {"round": state["round"], **card, "source": source}
    table["revealed"].append(entry)
    table["round_card"] = entry
    lines = [say("Round %(round)s: Round Card %(card_name)s.", round=state["round"],
                 card_name=entry["id"]) if entry["id"] else
             say("Round %(round)s: Round Card (entered at the table).", round=state["round"])]
    if table["neutral"] is not None:
        lines.append(move_neutral(table, card["icons"] or dict.fromkeys(TRACKS, 0)))
    lines += card_details(entry, len(state["players"]))
    table["draft"] = draft_sentences(player_names(state), card["draft"])
    table["steps"] = lines
    return state


def move_neutral(table: dict, icons: dict) -> Message:
    moves = icon_moves(icons)
    if not moves:
        return say("The card shows no track icons: the neutral markers stay.")
    for track in TRACKS:
        table["neutral"][track] = min(TRACK_END, table["neutral"][track] + icons[track])
    return say("The neutral markers move %(moves)s.", moves=moves)


def card_details(card: dict, player_count: int) -> list[str]:
    lines = []
    if player_count >= 3:
        if card["draft"] == "clockwise":
            lines.append(say("Village Cards pass clockwise this round."))
        elif card["draft"]:
            lines.append(say("Village Cards pass counterclockwise this round."))
        else:
            lines.append(say("Read the draft arrows on the card: the catalogue lacks them (enter "
                             "them in %(page)s).", page=CATALOGUE_PAGE))
    if player_count == 1 and card["solo_vp"] is not None:
        lines.append(say("The solo opponent will score %(vp)s VP for this card.",
                         vp=card["solo_vp"]))
    if card["trades"]:
        lines.append(say("Trades this round: %(trades)s.", trades=series(card["trades"])))
    return lines


# --------------------------------------------------------------------------- heroes
def hand_out_heroes(state: dict) -> None:
    table = state["table"]
    before = {"heroes": table["heroes"], "randi": table["randi"]}
    after = award_heroes(table["tracks"], table["neutral"])
    markers = dict(table["tracks"])
    if table["neutral"] is not None:
        markers[NEUTRAL] = table["neutral"]
    table["steps"] = hand_out_sentences(before, after, markers)
    table["heroes"], table["randi"] = after["heroes"], after["randi"]
    table["hero_history"].append({"round": state["round"], **after})
    if state["round"] == ROUNDS:
        table["steps"] += FINAL_STEPS


# --------------------------------------------------------------------------- track moves
def apply_track(state: dict, data: ShipwrightsTrackMove) -> dict:
    check_open(state)
    player, track, steps = data.player, data.track, data.steps
    allowed = player_names(state) + ([NEUTRAL] if state["table"]["neutral"] is not None else [])
    player_of(player, allowed, "data.player",
              say("player must be one of: %(names)s.", names=series(allowed, ", ")))
    if state["phase"] == "heroes":
        raise RuleError("The heroes are already handed out this round: undo back to an "
                        "earlier phase to record this move.", None, "wrong_phase", 422)
    table = state["table"]
    positions = table["neutral"] if player == NEUTRAL else table["tracks"][player]
    old = positions[track]
    if old + steps < 0:
        raise RuleError(say("That would move the marker below space 0 (it is on %(space)s).",
                            space=old),
                        "data.steps", "below_track", 422)
    new = min(TRACK_END, old + steps)
    positions[track] = new
    table["moves"].append({"round": state["round"], "player": player, "track": track,
                           "steps": steps, "position": new})
    table["reminders"] += move_reminders(state, player, track, old, old + steps)
    return state



def move_reminders(state: dict, player: str, track: str, old: int, target: int) -> list[str]:
    if target > TRACK_END:
        lines = [say("%(player)s's %(track)s marker stops at space %(space)s.",
                     player=who(player), track=track_name(track), space=TRACK_END)]
    else:
        lines = []
    new = min(target, TRACK_END)
    if player != NEUTRAL:
        lines += reward_reminders(state, player, track, old, new)
        if track == "military" and raid_cost(new) != raid_cost(old) and new > old:
            cost = raid_cost(new)
            if cost == 0:
                lines.append(say("%(player)s's raids are now free of Workers.", player=player))
            else:
                lines.append(say_n("%(player)s's raids now cost %(count)s Worker.",
                                   "%(player)s's raids now cost %(count)s Workers.", cost,
                                   player=player))
    lines += track_vp_notice(state, track, new)
    return lines


def reward_reminders(state: dict, player: str, track: str, old: int, new: int) -> list[str]:
    table = state["table"]
    rewarded = table["rewarded"][player][track]
    lines = []
    for space in REWARD_SPACES:
        if old < space <= new and space not in rewarded:
            rewarded.append(space)
            line = say("%(player)s reached %(track)s %(space)s: %(reward)s.", player=player,
                       track=track_name(track), space=space, reward=REWARDS[track])
            if table["heroes"]["svend"] == player:
                line = series([line, say("Svend: also gain 1 Worker.")], " ")
            lines.append(line)
    return lines


def track_vp_notice(state: dict, track: str, position: int) -> list[str]:
    space = str(position)
    if (position < 15 or space in catalogue_of(state)["track_vp"]
            or f"track_vp.{space}" in state.get("box_values", {})):
        return []
    note = track_vp_note(track, space)
    notices = state["table"]["notices"]
    if note not in notices:
        notices.append(note)
    return [note]


def track_vp_note(track: str, space: str) -> Message:
    return say("A %(track)s marker is on space %(space)s, whose VP is not in the box data yet: "
               "the score counts it as 0 and asks for it.", track=track_name(track), space=space)


def forget_answered_notes(state: dict, key: str) -> dict:
    """The table answered a space's VP (``box_value`` ``track_vp.N``): the notes that said it
    is missing go, from the notices and this round's reminders (an undo of the answer replays
    the log without it, and they are back)."""
    if not key.startswith("track_vp."):
        return state
    said = {track_vp_note(track, key.removeprefix("track_vp.")) for track in TRACKS}
    table = state["table"]
    table["notices"] = [n for n in table["notices"] if n not in said]
    table["reminders"] = [r for r in table["reminders"] if r not in said]
    return state


def who(player: str) -> Message | str:
    return say("The neutral player") if player == NEUTRAL else player


# --------------------------------------------------------------------------- scoring
def score_body(state: dict, body: dict) -> dict:
    """The scoring request (``body``: the sheets, filled): with the table's track positions,
    the catalogue's track VP and, solo, the opponent once all 5 Round Cards' VP are known."""
    table, options = state["table"], dict(state["options"])
    for player in body["players"]:
        player["sheet"]["tracks"] = dict(table["tracks"][player["name"]])
    given = options.get("track_vp") if isinstance(options.get("track_vp"), dict) else {}
    track_vp = {**catalogue_of(state)["track_vp"], **given}
    if track_vp:
        options["track_vp"] = track_vp
    opponent = solo_opponent(state)
    if opponent is not None and "solo_opponent" not in options:
        options["solo_opponent"] = opponent
    return {"players": body["players"], "options": options}


def solo_opponent(state: dict) -> dict | None:
    table = state["table"]
    if len(state["players"]) != 1 or table["neutral"] is None:
        return None
    vps = round_card_vps(state)
    if len(vps) < ROUNDS or None in vps:
        return None
    held = sum(1 for holder in table["heroes"].values() if holder == NEUTRAL)
    return {"heroes_won": held, "round_card_vp": vps, "tracks": dict(table["neutral"])}


def round_card_vps(state: dict) -> list[int | None]:
    """Solo VP of the revealed cards, then of the catalogue cards still to come."""
    vps = [card["solo_vp"] for card in state["table"]["revealed"]]
    ids = state["setup"].get("round_cards") or []
    catalogue = catalogue_of(state)
    for card_id in ids[len(vps):]:
        card = find_round_card(catalogue, card_id)
        vps.append(card["solo_vp"] if card else None)
    return vps


def missing_data_notice(setup: dict) -> list[str]:
    """One short line at the top of the play; the Setup section lists what is missing."""
    if not setup.get("notes"):
        return []
    return [say("Some box data is missing: the Setup section says what to enter, and where.")]
