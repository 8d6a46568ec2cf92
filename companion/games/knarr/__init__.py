"""Knarr (Bombyx, 2023): setup, the score pad and a play recorded turn by turn.

A race to 40 VP. Each turn starts with the reputation step: the player scores the highest value
their Reputation marker has reached. The printed values of the Reputation track are box data
no rulebook publishes, so they come from the box catalogue; without them the table types the
reputation VP each turn. When someone reaches 40 the round is played out: the player to the
first player's right takes the last turn. Most VP wins; ties go to the most recruits and silver
bracelets together, then a shared win.

- setup: the first player and turn order, the artifacts, the Viking cards to take out and the
  checklist (``setup``);
- a play: a turn checked by the rules of the play and the table's upkeep after it (``turns``);
- the game itself and its score: here.
"""
from __future__ import annotations

import random

from ..bodies import On, box_data
from ..errors import say
from ..inputs import Option, SheetField
from ..messages import Message, say_n
from ..protocol import Game
from ..ranking import Tiebreak, score_response
from .setup import (
    ARTIFACT_TIMING,
    ARTIFACTS,
    FACE_UP,
    MEAD_CUP,
    VIKING_CARDS_REMOVED,
    draw_artifacts,
    setup_checklist,
    turn_order,
)
from .turns import (
    SHIP_CAP,
    START_TOKENS,
    TARGET_VP,
    TRACK_MAX_SPACES,
    TRACK_MAX_VP,
    CatalogueKnarr,
    KnarrTurn,
    play_turn,
    show_current,
)

# what the tests take from the game by its name
__all__ = ["ARTIFACTS", "GAME", "MEAD_CUP", "TIEBREAKS", "TRACK_MAX_SPACES", "TRACK_MAX_VP"]

TIEBREAKS = (Tiebreak(say("recruits and silver bracelets together"),
                      lambda r: r["crew_tokens"],
                      # TRANSLATORS: follows "with" in a tie-break sentence (German: "mit ...").
                      most=say("the most recruits and silver bracelets together")),)


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
            "explanations": {"score": say(
                "%(vp)s VP on the score track; %(recruits)s and %(bracelets)s for ties.",
                vp=sheet["vp"],
                recruits=say_n("%(count)s recruit", "%(count)s recruits", sheet["recruits"]),
                bracelets=say_n("%(count)s silver bracelet", "%(count)s silver bracelets",
                                sheet["bracelets"]))},
            "crew_tokens": tokens}


GAME = KnarrGame()
