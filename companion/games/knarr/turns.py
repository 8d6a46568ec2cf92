"""A Knarr turn as the table records it: the typed turn, its checks by the rules of the play
(whose turn, the ship's cap, the Reputation marker and its VP), and the table's upkeep after
it (the score, the end trigger, the next player). The Reputation track's VP are box data."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..bodies import Body, Player, or_blank, whole
from ..errors import RuleError, say
from ..inputs import MAX_NUMBER, player_of

TARGET_VP = 40
SHIP_CAP = 3                    # recruits and silver bracelets a ship can hold
START_TOKENS = 1                # 1 recruit and 1 bracelet slid onto each ship at setup
TRACK_MAX_SPACES = 60           # a catalogue reputation track longer than this is a typo
TRACK_MAX_VP = TARGET_VP        # no reputation step can be worth more than the whole race
MAX_REPUTATION_SPACE = 99


# --------------------------------------------------------------------------- catalogue
class CatalogueKnarr(Body):
    """Knarr: the Reputation track's printed VP."""
    reputation_track: Annotated[list[whole(0, TRACK_MAX_VP, say("The VP of a reputation "
                                                                  "space"))], Field(
        max_length=TRACK_MAX_SPACES, description="The VP printed on each space of the "
        "Reputation track, from the starting space on.")] = []


def highest_reputation_vp(track: list[int], position: int) -> int | None:
    """The highest value the marker has reached, or None when the box data has no track (a
    marker never stands past the last space: see ``read_position``)."""
    if not track:
        return None
    return max(track[:position + 1])


def last_space(track: list[int]) -> int | None:
    """The last space of the Reputation track (the starting space is 0), None without one."""
    return len(track) - 1 if track else None


# --------------------------------------------------------------------------- a turn's data
class KnarrTurn(Body):
    """The current player's turn is over; what is left out stays as it was (the VP gained
    0, the reputation VP last turn's)."""
    player: or_blank(Player) = None
    vp_gained: or_blank(whole(0, MAX_NUMBER, say("The VP gained this turn"))) = None
    reputation: or_blank(whole(0, MAX_REPUTATION_SPACE,
                               say("The Reputation marker's space"))) = None
    recruits: or_blank(whole(0, MAX_NUMBER, say("The number of %(tokens)s",
                                                 tokens=say("recruits")))) = None
    bracelets: or_blank(whole(0, MAX_NUMBER, say("The number of %(tokens)s",
                                                  tokens=say("silver bracelets")))) = None
    reputation_vp: or_blank(whole(0, TRACK_MAX_VP, say("The reputation VP"))) = None


def read_player(data: KnarrTurn, table: dict) -> str:
    current = table["current_player"]
    if data.player is None:
        return current
    name = player_of(data.player, table["order"], "data.player")
    if name != current:
        raise RuleError(say("It is %(player)s's turn, not %(name)s's.", player=current,
                            name=name), "data.player", "not_your_turn", 422)
    return name


def read_tokens(data: KnarrTurn, key: str, sheet: dict) -> int:
    count = getattr(data, key)
    if count is None:
        return sheet.get(key, 0)
    if count > SHIP_CAP:
        label = {"recruits": say("recruits"), "bracelets": say("silver bracelets")}[key]
        raise RuleError(say("A ship holds at most %(count)s %(tokens)s; any extra are lost, so "
                            "enter %(count)s.", count=SHIP_CAP, tokens=label),
                        f"data.{key}", "over_cap", 422)
    return count


def read_position(data: KnarrTurn, player: str, before: int, track: list[int]) -> int:
    """Where the marker stands after the turn. Each reputation point moves it one space on
    (rulebook, "Gain 1 Reputation Point"); the track has no space past its last one, so a
    marker sent further stops there, and the reputation step keeps scoring the highest value
    it reached (the last space's included): the points beyond are lost, as the rulebook says
    of a ship's fourth recruit or bracelet."""
    if data.reputation is None:
        return before
    if data.reputation < before:
        raise RuleError(say("The Reputation marker only moves forward: %(player)s's is on "
                            "space %(space)s.", player=player, space=before),
                        "data.reputation", "marker_backwards", 422)
    end = last_space(track)
    return data.reputation if end is None else min(data.reputation, end)


def read_reputation_vp(data: KnarrTurn, table: dict, player: str) -> int:
    """The reputation step's VP: from the catalogue track, or typed by the table; a blank
    keeps last turn's value (the highest value the marker reached only grows)."""
    track, position = table["reputation_track"], table["reputation"][player]
    computed = highest_reputation_vp(track, position)
    typed = data.reputation_vp
    if computed is not None:
        if typed is not None and typed != computed:
            raise RuleError(say("The reputation track gives %(player)s %(vp)s VP (marker on "
                                "space %(space)s); leave reputation_vp out or enter %(vp)s.",
                                player=player, vp=computed, space=position),
                            "data.reputation_vp", "reputation_mismatch", 422)
        return computed
    last = table["reputation_vp"][player]
    if typed is None:            # left blank (or "Pass turn"): the same as last turn
        return last
    if typed < last:
        raise RuleError(say("%(player)s's reputation VP cannot drop below last turn's %(vp)s: "
                            "it is the highest value the marker has reached.", player=player,
                            vp=last), "data.reputation_vp",
                        "reputation_backwards", 422)
    return typed


def read_turn(data: KnarrTurn, state: dict) -> dict:
    """A turn by the rules of the play, or RuleError naming the field; nothing is changed."""
    table = state["table"]
    player = read_player(data, table)
    sheet = state["sheets"].get(player, {})
    turn = {"player": player, "vp_gained": data.vp_gained or 0,
            "reputation": read_position(data, player, table["reputation"][player],
                                        table["reputation_track"]),
            "recruits": read_tokens(data, "recruits", sheet),
            "bracelets": read_tokens(data, "bracelets", sheet),
            "reputation_vp": read_reputation_vp(data, table, player)}
    if sheet.get("vp", 0) + turn["reputation_vp"] + turn["vp_gained"] > MAX_NUMBER:
        # (the sum with the score so far: a rule of the play, not the shape of the turn)
        raise RuleError(say("A score above %(vp)s VP is not believable.", vp=MAX_NUMBER),
                        "data.vp_gained", "out_of_range", 422)
    return turn


def play_turn(state: dict, data: KnarrTurn) -> dict:
    if state.get("finished"):
        raise RuleError("The game is over: no more turns.", "type", "game_finished", 422)
    turn = read_turn(data, state)
    record_turn(state, turn)
    stopped_at_track_end(state, data, turn)
    check_end_trigger(state)
    pass_turn(state)
    return state


# --------------------------------------------------------------------------- table upkeep
def record_turn(state: dict, turn: dict) -> None:
    table, name = state["table"], turn["player"]
    sheet = state["sheets"].setdefault(name, {})
    sheet["vp"] = sheet.get("vp", 0) + turn["reputation_vp"] + turn["vp_gained"]
    sheet["recruits"], sheet["bracelets"] = turn["recruits"], turn["bracelets"]
    table["reputation"][name] = turn["reputation"]
    table["reputation_vp"][name] = turn["reputation_vp"]
    table["history"].append({**turn, "turn": table["turn"], "round": table["round"],
                             "vp": sheet["vp"]})


def stopped_at_track_end(state: dict, data: KnarrTurn, turn: dict) -> None:
    """Say so when a marker sent past the last space of the Reputation track stopped on it."""
    track = state["table"]["reputation_track"]
    end = last_space(track)
    if end is None or data.reputation is None or data.reputation <= turn["reputation"]:
        return
    state["table"]["notices"].append(say(
        "The Reputation track ends at space %(space)s: %(player)s's marker stops there and "
        "scores %(vp)s VP at every reputation step from now on; reputation beyond it is lost.",
        space=end, player=turn["player"], vp=max(track)))


def check_end_trigger(state: dict) -> None:
    """The first time someone stands on 40 VP or more, say the round will be played out."""
    table = state["table"]
    if table["end_triggered_by"]:
        return
    reached = [n for n in table["order"] if state["sheets"].get(n, {}).get("vp", 0) >= TARGET_VP]
    if not reached:
        return
    who = table["current_player"] if table["current_player"] in reached else reached[0]
    table["end_triggered_by"] = who
    vp = state["sheets"][who]["vp"]
    last = table["order"][-1]
    if table["current_player"] == last:
        words = say("%(who)s reached %(vp)s VP: the game ends this round; this was the round's "
                    "last turn (%(player)s, to %(first_name)s's right).", who=who, vp=vp,
                    player=last, first_name=table["order"][0])
    else:
        words = say("%(who)s reached %(vp)s VP: the game ends this round; the round is played "
                    "out and %(player)s, to %(first_name)s's right, takes the last turn.",
                    who=who, vp=vp, player=last, first_name=table["order"][0])
    table["notices"].append(words)


def pass_turn(state: dict) -> None:
    table = state["table"]
    if table["position"] + 1 < len(table["order"]):
        table["position"] += 1
    elif table["end_triggered_by"]:
        finish(state)
        return
    else:
        table["position"] = 0
        table["round"] += 1
        state["round"] = table["round"]
    table["turn"] += 1
    show_current(state)


def finish(state: dict) -> None:
    table = state["table"]
    state["finished"] = True
    table["current_player"] = table["current_player_index"] = None
    table["next_reputation_vp"], table["asks_reputation_vp"] = None, False
    table["notices"].append(say("The round is over and so is the game: most VP wins; a tie "
                                "goes to the most recruits and silver bracelets together."))


def show_current(state: dict) -> None:
    """Who plays now and what their reputation step is worth (None: the table types it)."""
    table = state["table"]
    name = table["order"][table["position"]]
    table["current_player"] = name
    table["current_player_index"] = [p["name"] for p in state["players"]].index(name)
    vp = highest_reputation_vp(table["reputation_track"], table["reputation"][name])
    table["next_reputation_vp"], table["asks_reputation_vp"] = vp, vp is None

