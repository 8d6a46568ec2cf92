"""Setting up a game: huts, round cards, the neutral player, nemesis cards, supplies."""
from __future__ import annotations

import random

from ..errors import RuleError
from ..messages import Message, join_names, say, series
from ..names import look_alike
from .catalogue import (
    CATALOGUE_PAGE,
    find_nemesis,
    hut_track,
    missing_hut_note,
    validate_catalogue,
)
from .rules import (
    HUT_NUMBERS,
    NEUTRAL,
    ROUNDS,
    SCORING_SPACES,
    STARTING_SUPPLY,
    TRACKS,
    has_neutral_player,
    track_name,
)


def build_setup(players: list[str], options: dict, rng: random.Random, catalogue: dict) -> dict:
    catalogue = validate_catalogue(catalogue or {})
    check_no_neutral_name(players)
    nemesis = choose_nemesis(players, options, rng, catalogue)
    start_player = rng.choice(players)
    hut_numbers = rng.sample(range(1, len(HUT_NUMBERS) + 1), len(players))
    huts = dict(zip(players, hut_numbers, strict=True))
    round_cards = deal_round_cards(rng, catalogue)
    neutral = has_neutral_player(len(players))
    hut_tracks = {p: hut_track(catalogue, hut) for p, hut in huts.items()}
    setup = {"start_player": start_player, "huts": huts, "hut_tracks": hut_tracks,
             "round_cards": round_cards, "neutral_player": neutral,
             "nemesis": nemesis, "neutral_start": neutral_start(nemesis) if neutral else None,
             "starting_supply": {p: supply_checklist(huts[p]) for p in players}}
    setup["notes"] = setup_notes(setup, catalogue)
    setup["checklist"] = table_checklist(setup, players)
    return setup


def check_no_neutral_name(players: list[str]) -> None:
    for i, name in enumerate(players):
        if look_alike(name, NEUTRAL):
            raise RuleError("'Neutral' is the name of the neutral player's markers; pick "
                            "another name.", f"players[{i}]", "reserved_name", 422)


def deal_round_cards(rng: random.Random, catalogue: dict) -> list[str]:
    ids = [card["id"] for card in catalogue["round_cards"]]
    return rng.sample(ids, ROUNDS) if len(ids) >= ROUNDS else []


# --------------------------------------------------------------------------- nemesis
def choose_nemesis(players: list[str], options: dict, rng: random.Random,
                   catalogue: dict) -> list[dict]:
    chosen = options.get("nemesis")
    count = options.get("nemesis_cards") or 0
    field = "options.nemesis" if chosen else "options.nemesis_cards"
    if (chosen or count) and len(players) != 1:
        raise RuleError("Nemesis cards are only for a solo game.", field, "not_solo", 422)
    if chosen:
        return [chosen_nemesis(catalogue, card_id, i) for i, card_id in enumerate(chosen)]
    known = catalogue["nemesis"]
    if count > len(known):
        raise RuleError(say("The box data knows %(count)s Nemesis cards, not %(wanted)s: the "
                            "owner can enter each card's icons under Nemesis cards on "
                            "%(page)s.", count=len(known), wanted=count, page=CATALOGUE_PAGE),
                        "options.nemesis_cards", "missing_catalogue_data", 422)
    return [{"id": c["id"], "icons": c["icons"]} for c in rng.sample(known, count)]


def chosen_nemesis(catalogue: dict, card_id: str, index: int) -> dict:
    card = find_nemesis(catalogue, card_id)
    if card is None:
        raise RuleError(say("The box data has no Nemesis card '%(card_name)s': the owner can "
                            "enter it under Nemesis cards on %(page)s.", card_name=card_id,
                            page=CATALOGUE_PAGE), f"options.nemesis[{index}]",
                        "missing_catalogue_data", 422)
    return {"id": card["id"], "icons": card["icons"]}


def neutral_start(nemesis: list[dict]) -> dict:
    return {track: sum(card["icons"][track] for card in nemesis) for track in TRACKS}


# --------------------------------------------------------------------------- sentences
def supply_item(kind: str, count: int) -> Message:
    return {"workers": say("%(count)s Workers", count=count),
            "oak": say("%(count)s Oak", count=count),
            "wool": say("%(count)s Wool", count=count),
            "iron": say("%(count)s Iron", count=count),
            "gold": say("%(count)s Gold", count=count),
            "silver": say("%(count)s Silver", count=count)}[kind]


def supply_checklist(hut: int) -> list[str]:
    items = [supply_item(k, n) for k, n in STARTING_SUPPLY.items()]
    return items + [say("a Player Board"), say("the Eikja of your colour, basic side up"),
                    say("the Labourer of your colour, basic side up"),
                    say("Hut %(hut)s, basic side up", hut=hut)]


def setup_notes(setup: dict, catalogue: dict) -> list[str]:
    notes = [missing_hut_note(hut, player) for player, hut in setup["huts"].items()
             if setup["hut_tracks"][player] is None]
    if not setup["round_cards"]:
        notes.append(say("The box data holds fewer than %(rounds)s Round Cards, so the app "
                         "will ask for each revealed card's icons, draft direction and solo VP "
                         "as its round starts; to skip that, enter the cards under Round Cards "
                         "on the Box data page.", rounds=ROUNDS))
    missing = [s for s in SCORING_SPACES if s not in catalogue["track_vp"]]
    if missing:
        notes.append(say("The VP for Progress Track spaces %(spaces)s are not in the box "
                         "data: a marker that reaches one counts 0 until the table answers the "
                         "score's question (or the owner enters them under Track VP).",
                         spaces=join_names(missing)))
    return notes


def table_checklist(setup: dict, players: list[str]) -> list[str]:
    lines = [say("Lay the Main Board in the middle of the table."), round_card_line(setup),
             say("Shuffle the 15 Raid Cards and the 15 Trade Cards into two face-down piles "
                 "on the board."),
             say("Put the Hero Cards on the board, with the 5 Randi cards in one stack."),
             say("Shuffle the Village Cards into a face-down pile; the discards go below it."),
             say("Each player puts a marker of their colour on space 0 of every Progress "
                 "Track.")]
    if setup["neutral_player"]:
        lines.append(say("Put a set of markers in an unused colour on space 0 of every track "
                         "for the neutral player."))
    lines += [nemesis_line(card) for card in setup["nemesis"]]
    lines += [say("Put the Workers, Oak, Wool, Iron, Gold and Silver in a general supply."),
              say("Each player takes a Player Board and the Eikja and Labourer of their "
                  "colour, basic side up (white Upgrade icon); the Labourer goes left of the "
                  "board and the Eikja above it.")]
    lines += [hut_line(p, setup["huts"][p], setup["hut_tracks"][p]) for p in players]
    lines += [say("Return the unused Huts to the box."),
              say("Each player takes 3 Workers, 1 Oak, 1 Wool, 1 Iron, 1 Gold and 2 Silver."),
              say("%(player)s is the start player.", player=setup["start_player"])]
    return lines


def round_card_line(setup: dict) -> str:
    if setup["round_cards"]:
        return say("Stack these 5 Round Cards face down on their space, to be revealed in this "
                   "order: %(cards_name)s; the other Round Cards go back in the box.",
                   cards_name=series(setup["round_cards"], ", "))
    return say("Shuffle the Round Cards, put 5 face down on their space and return the rest to "
               "the box; the app asks for each card as it is revealed.")


def nemesis_line(card: dict) -> str:
    moves = icon_moves(card["icons"]) or say("no spaces")
    return say("Lay Nemesis card %(card_name)s face up by the board; the neutral markers move "
               "%(moves)s.", card_name=card["id"], moves=moves)


def hut_line(player: str, hut: int, track: str | None) -> str:
    where = (say("1 space on %(track)s", track=track_name(track)) if track
             else say("1 space on the track shown in the Hut's top-right corner"))
    return say("%(player)s gets Hut %(hut)s, basic side up below the Labourer, and moves "
               "%(where)s.", player=player, hut=hut, where=where)


def icon_moves(icons: dict) -> Message:
    parts = [say("%(count)s on %(track)s", count=n, track=track_name(t))
             for t, n in icons.items() if n]
    return join_names(parts)
