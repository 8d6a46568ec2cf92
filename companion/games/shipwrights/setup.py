"""Setting up a game: huts, round cards, the neutral player, nemesis cards, supplies."""
from __future__ import annotations

import random
from typing import Any

from ..base import RuleError, join_names
from .catalogue import (
    CATALOGUE_PAGE,
    MAX_NEMESIS,
    find_nemesis,
    hut_track,
    missing_hut_note,
    validate_catalogue,
)
from .rules import HUT_NUMBERS, NEUTRAL, ROUNDS, SCORING_SPACES, STARTING_SUPPLY, TRACKS, track_name

SUPPLY_NAMES = {"workers": "Workers", "oak": "Oak", "wool": "Wool", "iron": "Iron",
                "gold": "Gold", "silver": "Silver"}


def build_setup(players: list[str], options: dict, rng: random.Random, catalogue: dict) -> dict:
    catalogue = validate_catalogue(catalogue or {})
    check_no_neutral_name(players)
    nemesis = choose_nemesis(players, options, rng, catalogue)
    start_player = rng.choice(players)
    hut_numbers = rng.sample(range(1, len(HUT_NUMBERS) + 1), len(players))
    huts = dict(zip(players, hut_numbers, strict=True))
    round_cards = deal_round_cards(rng, catalogue)
    neutral = len(players) <= 2
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
        if name.casefold() == NEUTRAL:
            raise RuleError("'Neutral' is the name of the neutral player's markers; pick "
                            "another name.", f"players[{i}]")


def deal_round_cards(rng: random.Random, catalogue: dict) -> list[str]:
    ids = [card["id"] for card in catalogue["round_cards"]]
    return rng.sample(ids, ROUNDS) if len(ids) >= ROUNDS else []


# --------------------------------------------------------------------------- nemesis
def parse_nemesis_option(raw: Any) -> list[str] | None:
    """options.nemesis: chosen catalogue Nemesis ids (solo), or None."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) > MAX_NEMESIS:
        raise RuleError(f"options.nemesis must list at most {MAX_NEMESIS} Nemesis card ids.",
                        "options.nemesis")
    for i, card_id in enumerate(raw):
        if not isinstance(card_id, str) or raw.index(card_id) != i:
            raise RuleError("Each Nemesis card id must be a text, named once.",
                            f"options.nemesis[{i}]")
    return list(raw)


def choose_nemesis(players: list[str], options: dict, rng: random.Random,
                   catalogue: dict) -> list[dict]:
    chosen = parse_nemesis_option(options.get("nemesis"))
    count = options.get("nemesis_cards") or 0
    field = "options.nemesis" if chosen else "options.nemesis_cards"
    if (chosen or count) and len(players) != 1:
        raise RuleError("Nemesis cards are only for a solo game.", field, "not_solo", 422)
    if chosen and count:
        raise RuleError("Either choose Nemesis cards by id or ask for a number of them, not "
                        "both.", "options.nemesis_cards")
    if chosen:
        return [chosen_nemesis(catalogue, card_id, i) for i, card_id in enumerate(chosen)]
    known = catalogue["nemesis"]
    if count > len(known):
        raise RuleError(f"The box data knows {len(known)} Nemesis cards, not {count}: the owner "
                        f"can enter each card's icons under Nemesis cards on {CATALOGUE_PAGE}.",
                        "options.nemesis_cards", "missing_catalogue_data", 422)
    return [{"id": c["id"], "icons": c["icons"]} for c in rng.sample(known, count)]


def chosen_nemesis(catalogue: dict, card_id: str, index: int) -> dict:
    card = find_nemesis(catalogue, card_id)
    if card is None:
        raise RuleError(f"The box data has no Nemesis card '{card_id}': the owner can enter it "
                        f"under Nemesis cards on {CATALOGUE_PAGE}.", f"options.nemesis[{index}]",
                        "missing_catalogue_data", 422)
    return {"id": card["id"], "icons": card["icons"]}


def neutral_start(nemesis: list[dict]) -> dict:
    return {track: sum(card["icons"][track] for card in nemesis) for track in TRACKS}


# --------------------------------------------------------------------------- sentences
def supply_checklist(hut: int) -> list[str]:
    items = [f"{n} {SUPPLY_NAMES[k]}" for k, n in STARTING_SUPPLY.items()]
    return items + ["a Player Board", "the Eikja of your colour, basic side up",
                    "the Labourer of your colour, basic side up", f"Hut {hut}, basic side up"]


def setup_notes(setup: dict, catalogue: dict) -> list[str]:
    notes = [missing_hut_note(hut, player) for player, hut in setup["huts"].items()
             if setup["hut_tracks"][player] is None]
    if not setup["round_cards"]:
        notes.append(f"The box data holds fewer than {ROUNDS} Round Cards, so the app "
                     "will ask for each revealed card's icons, draft direction and solo VP as "
                     f"its round starts; to skip that, enter the cards under Round Cards on "
                     f"{CATALOGUE_PAGE}.")
    missing = [s for s in SCORING_SPACES if s not in catalogue["track_vp"]]
    if missing:
        notes.append(f"The VP for Progress Track spaces {join_names(missing)} are not in the "
                     "box data: a marker that reaches one counts 0 until the table answers the "
                     "score's question (or the owner enters them under Track VP).")
    return notes


def table_checklist(setup: dict, players: list[str]) -> list[str]:
    lines = ["Lay the Main Board in the middle of the table.", round_card_line(setup),
             "Shuffle the 15 Raid Cards and the 15 Trade Cards into two face-down piles on "
             "the board.",
             "Put the Hero Cards on the board, with the 5 Randi cards in one stack.",
             "Shuffle the Village Cards into a face-down pile; the discards go below it.",
             "Each player puts a marker of their colour on space 0 of every Progress Track."]
    if setup["neutral_player"]:
        lines.append("Put a set of markers in an unused colour on space 0 of every track for "
                     "the neutral player.")
    lines += [nemesis_line(card) for card in setup["nemesis"]]
    lines += ["Put the Workers, Oak, Wool, Iron, Gold and Silver in a general supply.",
              "Each player takes a Player Board and the Eikja and Labourer of their colour, "
              "basic side up (white Upgrade icon); the Labourer goes left of the board and the "
              "Eikja above it."]
    lines += [hut_line(p, setup["huts"][p], setup["hut_tracks"][p]) for p in players]
    lines += ["Return the unused Huts to the box.",
              "Each player takes 3 Workers, 1 Oak, 1 Wool, 1 Iron, 1 Gold and 2 Silver.",
              f"{setup['start_player']} is the start player."]
    return lines


def round_card_line(setup: dict) -> str:
    if setup["round_cards"]:
        order = ", ".join(setup["round_cards"])
        return (f"Stack these 5 Round Cards face down on their space, to be revealed in this "
                f"order: {order}; the other Round Cards go back in the box.")
    return ("Shuffle the Round Cards, put 5 face down on their space and return the rest to the "
            "box; the app asks for each card as it is revealed.")


def nemesis_line(card: dict) -> str:
    moves = icon_moves(card["icons"]) or "no spaces"
    return f"Lay Nemesis card {card['id']} face up by the board; the neutral markers move {moves}."


def hut_line(player: str, hut: int, track: str | None) -> str:
    where = (f"1 space on {track_name(track)}" if track
             else "1 space on the track shown in the Hut's top-right corner")
    return f"{player} gets Hut {hut}, basic side up below the Labourer, and moves {where}."


def icon_moves(icons: dict) -> str:
    parts = [f"{n} on {track_name(t)}" for t, n in icons.items() if n]
    return join_names(parts)
