"""Knarr (Bombyx, 2023): setup, the score pad and a play recorded turn by turn.

A race to 40 VP. Each turn starts with the reputation step: the player scores the highest value
their Reputation marker has reached. The printed values of the Reputation track are box data
no rulebook publishes, so they come from the box catalogue; without them the table types the
reputation VP each turn. When someone reaches 40 the round is played out: the player to the
first player's right takes the last turn. Most VP wins; ties go to the most recruits and silver
bracelets together, then a shared win.
"""
from __future__ import annotations

import random
from typing import Annotated

from pydantic import Field

from .bodies import Body, On, Player, box_data, or_blank, whole
from .errors import RuleError, say
from .inputs import MAX_NUMBER, Option, SheetField, player_of
from .messages import Message
from .protocol import Game
from .ranking import Tiebreak, score_response

TARGET_VP = 40
SHIP_CAP = 3                    # recruits and silver bracelets a ship can hold
START_TOKENS = 1                # 1 recruit and 1 bracelet slid onto each ship at setup
TRACK_MAX_SPACES = 60           # a catalogue reputation track longer than this is a typo
TRACK_MAX_VP = TARGET_VP        # no reputation step can be worth more than the whole race
MAX_REPUTATION_SPACE = 99
VIKING_CARDS_REMOVED = {2: ["3", "4"], 3: ["4"], 4: []}
FACE_UP = {"trading_lands": 3, "lands_of_influence": 3, "vikings": 5}
# TRANSLATORS: Knarr's artifacts (our own translations, no German or French rulebook at hand).
MEAD_CUP = say("Mead Cup")
# The 7 artifacts of the variant; the texts paraphrase the rulebook's.
ARTIFACTS = {
    say("Amulet"): say("Complete a row of Vikings in all 5 colours: take 1 silver bracelet and 1 "
                  "recruit and gain 1 reputation."),
    say("Weathervane"): say("Complete a row of Vikings in all 5 colours: you may Explore straight "
                       "away, still paying the exploration cost."),
    say("Golden Bracelet"): say("Recruit your 3rd Viking of one colour: reserve any face-up "
                           "Destination beside your area; you may later Explore it instead of a "
                           "face-up one (at most 2 reserved at a time)."),
    say("Cauldron"): say("Recruit your 2nd Viking of one colour: take any face-up Viking card "
                    "instead of the one matching the card you played."),
    say("Helmet"): say("Explore a Land of Influence and lay it directly on one of your Trading "
                  "Lands: you may Recruit straight away."),
    MEAD_CUP: say("When you Explore, you may discard one Viking from the board and replace it "
                  "with the top card of the deck."),
    say("Silver Coin"): say("Gain 1 VP for each Viking you Recruit beyond the 3rd of its colour."),
}
# TRANSLATORS: Knarr's ship sheets are played normal or advanced side up.
SHIP_SIDES = {False: say("normal"), True: say("advanced")}
ARTIFACT_TIMING = say("It applies after a player's action, every time the condition is met.")
TIEBREAKS = (Tiebreak(say("recruits and silver bracelets together"),
                      lambda r: r["crew_tokens"]),)


# --------------------------------------------------------------------------- setup
def draw_artifacts(player_count: int, rng: random.Random) -> list[str]:
    """One random artifact, plus the Mead Cup with 2 players when it was not drawn."""
    drawn = [rng.choice(list(ARTIFACTS))]
    if player_count == 2 and MEAD_CUP not in drawn:
        drawn.append(MEAD_CUP)
    return drawn


def turn_order(players: list[str], first: str) -> list[str]:
    """Seats clockwise from the first player; the last one sits to the first player's right."""
    start = players.index(first)
    return players[start:] + players[:start]


def viking_sentence(player_count: int) -> str:
    marked = VIKING_CARDS_REMOVED[player_count]
    if not marked:
        return say("Viking cards: with 4 players use all 50.")
    if len(marked) == 1:
        return say("Viking cards: with %(count)s players take out every card marked %(mark)s "
                   "in the bottom-left corner.", count=player_count, mark=marked[0])
    return say("Viking cards: with %(count)s players take out every card marked %(mark)s or "
               "%(other)s in the bottom-left corner.", count=player_count, mark=marked[0],
               other=marked[1])


def reputation_sentence(track: list[int]) -> str:
    if track:
        return say("Reputation track: the box data gives the VP of %(count)s spaces, so the "
                   "app adds each reputation step itself.", count=len(track))
    return say("Reputation track: the box data has no values for it, so the app asks for each "
               "player's reputation VP every turn (the owner can enter the track on the Box "
               "data page to automate this).")


def setup_checklist(players: list[str], order: list[str], ship_side: str,
                    artifacts: list[str], track: list[int]) -> list[str]:
    steps = [
        say("Put the board in the middle of the table."),
        say("Shuffle the 20 Trading Lands into a face-down deck beside the board; turn the top "
            "%(count)s face up on their spaces.", count=FACE_UP["trading_lands"]),
        say("Do the same with the 15 Lands of Influence: a face-down deck and %(count)s face "
            "up.", count=FACE_UP["lands_of_influence"]),
        viking_sentence(len(players)),
        say("Shuffle the Viking cards into a face-down deck and turn the top %(count)s face up "
            "on the board's coloured spaces.", count=FACE_UP["vikings"]),
        say("Each player takes a ship sheet, %(side)s side up, with 3 silver bracelet and 3 "
            "recruit tokens, then takes the starting Vikings and assets shown below the ship: "
            "2 Viking cards of different colours face up in the crew zone, 1 recruit and 1 "
            "bracelet slid onto the ship.", side=ship_side),
        say("Put each player's round marker on the start of the score track and square marker "
            "on the start of the reputation track."),
        say("Each player draws 3 Viking cards as a hand."),
        say("Destiny draw: %(player)s plays first; play goes clockwise and %(who)s takes the "
            "last turn of every round.", player=order[0], who=order[-1]),
        reputation_sentence(track),
    ]
    for name in artifacts:
        steps.append(say("Artifact: lay %(artifact)s beside the board. %(text)s It applies "
                         "after a player's action, every time the condition is met.",
                         artifact=name, text=ARTIFACTS[name]))
    if len(artifacts) == 2:
        steps.append(say("With 2 players the Mead Cup joins the random artifact."))
    return steps


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


# --------------------------------------------------------------------------- the game
class KnarrGame(Game):
    id = "knarr"
    # TRANSLATORS: sold under its English name in German and French shops.
    name = say("Knarr")
    min_players = 2
    max_players = 4
    options = (
        Option("artifacts", say("Artifacts variant"), help=say(
            "Reveal 1 random artifact (plus the Mead Cup with 2 players) whose reward applies "
            "all game.")),
        Option("advanced_ships", say("Advanced ship side"), help=say(
            "Play the ship sheets on their advanced side instead of the normal one.")),
    )
    phases = ("player turns",)
    rounds = None
    advance_label = say("Pass turn →")     # "advance" ends the turn with only the reputation step
    sheet_fields = (
        SheetField("vp", say("Score track VP"),
                   help=say("Where the round marker stands on the score track.")),
        SheetField("recruits", say("Recruits on the ship"), maximum=SHIP_CAP,
                   help=say("0 to 3; breaks ties together with the bracelets.")),
        SheetField("bracelets", say("Silver bracelets on the ship"), maximum=SHIP_CAP,
                   help=say("0 to 3; breaks ties together with the recruits.")),
    )
    catalogue_help = say("The VP printed on each space of the Reputation track, from the "
                         "starting space on, read off the board.")

    def box_needs(self, catalogue: dict, player_count: int) -> list[dict]:
        track = (catalogue or {}).get("reputation_track") or []
        return [{"what": say("VP printed along the Reputation track"), "known": bool(track),
                 "detail": (say("Known for %(count)s spaces: the app adds the reputation step "
                                "itself.", count=len(track)) if track else
                            say("Not known yet: each turn you type the reputation VP the "
                                "player scores."))}]

    def setup(self, players: list[str], options: dict, rng: random.Random,
              catalogue: dict) -> dict:
        first = rng.choice(players)
        artifacts = draw_artifacts(len(players), rng) if options.get("artifacts") else []
        order = turn_order(players, first)
        ship_side = "advanced" if options.get("advanced_ships") else "normal"
        track = box_data(CatalogueKnarr, catalogue or {})["reputation_track"]
        return {
            "first_player": first, "turn_order": order, "last_player": order[-1],
            "remove_viking_cards_marked": list(VIKING_CARDS_REMOVED[len(players)]),
            "face_up": dict(FACE_UP), "ship_side": ship_side, "artifacts": artifacts,
            "artifact_texts": [{"name": n, "text": ARTIFACTS[n]} for n in artifacts],
            "starting_assets": {"recruits": START_TOKENS, "bracelets": START_TOKENS,
                                "crew_cards": 2, "hand_cards": 3},
            "reputation_track": track, "target_vp": TARGET_VP,
            "checklist": setup_checklist(players, order, ship_side, artifacts, track),
        }

    def tally(self, body: dict, catalogue: dict) -> dict:
        players = body["players"]
        results = [score_player(p["name"], p["sheet"]) for p in players]
        reached = [p["name"] for p in players if p["sheet"]["vp"] >= TARGET_VP]
        return score_response(results, TIEBREAKS, target_vp=TARGET_VP, reached_target=reached)

    catalogue_type = CatalogueKnarr

    def start_state(self, state: dict) -> dict:
        names = [p["name"] for p in state["players"]]
        order = turn_order(names, state["setup"]["first_player"])
        track = box_data(CatalogueKnarr, state.get("catalogue") or {})["reputation_track"]
        state["table"] = {
            "order": order, "first_player": order[0], "last_player": order[-1],
            "position": 0, "turn": 1, "round": 1, "target_vp": TARGET_VP,
            "reputation_track": track, "reputation": {n: 0 for n in names},
            "reputation_vp": {n: 0 for n in names}, "end_triggered_by": None,
            "artifacts": list(state["setup"].get("artifact_texts", [])),
            "artifact_timing": ARTIFACT_TIMING if state["setup"].get("artifacts") else None,
            "notices": [say("%(player)s plays first (destiny draw).", player=order[0])],
            "history": [],
        }
        for name in names:
            sheet = state["sheets"].setdefault(name, {})
            sheet.setdefault("vp", 0)
            sheet["recruits"] = sheet["bracelets"] = START_TOKENS
        state["round"] = 1
        show_current(state)
        return state

    events = {"turn": On(KnarrTurn, play_turn, optional=True)}

    def describe_event(self, state: dict, event: dict, moment: str | None = None
                       ) -> Message | None:
        """"End of Ann's turn", "Ann passed (reputation step only)": whose turn it was is
        the event's player, else the last turn recorded (the state right after it) or the
        current player (the state right before it)."""
        kind, data = event.get("type"), event.get("data") or {}
        if kind not in ("turn", "advance"):
            return None
        table = state.get("table") or {}
        player = data.get("player") if isinstance(data.get("player"), str) else None
        if player is None and moment == "after" and table.get("history"):
            player = table["history"][-1].get("player")
        elif player is None and moment == "before":
            player = table.get("current_player")
        if kind == "advance":
            return (say("%(player)s passed (reputation step only)", player=player) if player
                    else say("A turn passed (reputation step only)"))
        return say("End of %(player)s's turn", player=player) if player else say("End of turn")

    def advance(self, state: dict) -> dict:
        """Pass the turn with nothing but the reputation step (an empty "turn")."""
        return play_turn(state, KnarrTurn())


def score_player(name: str, sheet: dict) -> dict:
    tokens = sheet["recruits"] + sheet["bracelets"]
    return {"name": name, "categories": {"score": sheet["vp"]},
            "explanations": {"score": say("%(vp)s VP on the score track; %(recruits_count)s "
                                          "recruits and %(bracelets_count)s silver bracelets "
                                          "for ties.", vp=sheet["vp"],
                                          recruits_count=sheet["recruits"],
                                          bracelets_count=sheet["bracelets"])},
            "crew_tokens": tokens}


GAME = KnarrGame()
