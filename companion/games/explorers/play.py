"""A play at the table: the turn counter and the islands, kept in ``state["table"]``.

Events (besides the common "sheet", "advance" and "finish"):
- "turn" {}: the current player's turn is over (same as "advance"); after the last turn the
  table says ``game_over`` (the play is not finished, so islands and sheets can be entered).
- "add_island" {tiles, complete?, unraided_fortress?, name?, influence?}
- "update_island" {island: index, tiles?, complete?, unraided_fortress?, name?, influence?,
  add?: {tiles: n}}: ``add`` counts tiles on from the stored value (taps commute)
- "remove_island" {island: index}
- "set_influence" {island: index, player, vikings?, outposts?, mill?, workshop?, barracks?,
  add?: {piece: n}}
- "keep_captain" {player, captain}: the captain a player keeps of the 2 dealt.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..bodies import given
from ..errors import RuleError, say
from ..inputs import MAX_NUMBER, player_of
from ..messages import Message, say_n, series
from .captains import captain_word
from .islands import (
    INFLUENCE,
    MAX_ISLANDS,
    PIECE_COUNTS,
    STRUCTURES,
    clean_islands,
    pieces_of,
)

if TYPE_CHECKING:
    from .events import ExplorersKeepCaptain


# --------------------------------------------------------------------------- turn counter
def turns_played_by(turns_done: int, seat: int, players: int) -> int:
    """How many of the first ``turns_done`` turns belong to the seat ``seat`` of turn order."""
    return (turns_done - seat + players - 1) // players if turns_done > seat else 0


def turn_table(setup: dict, turns_done: int) -> dict:
    """The turn counter after ``turns_done`` turns, every player's turn counted."""
    order, total = setup["turn_order"], setup["total_turns"]
    n, tiles = len(order), setup["tiles_in_play"]
    over = turns_done >= total
    if setup["solo"]:
        to_draw = tiles - 3 * turns_done
        hands = {order[0]: 0 if over else 3}
        tiles_left = to_draw
    else:
        to_draw = max(0, tiles - 3 * n - turns_done)
        hands = hands_after(order, tiles - 3 * n, turns_done)
        tiles_left = tiles - turns_done
    face_up = min(setup["face_up_tiles"], to_draw)
    table = {"turn": min(turns_done + 1, total), "turns_done": turns_done, "total_turns": total,
             "current_player": None if over else order[turns_done % n],
             "lap": min(turns_done // n + 1, total // n),
             "turn_order": order, "winter_token": setup["winter_token"],
             "tiles_left": tiles_left, "stack_left": to_draw - face_up,
             "face_up_left": face_up, "hands": hands,
             "last_turn": turns_done == total - 1, "game_over": over}
    table["notices"] = notices(table, setup)
    return table


def hands_after(order: list[str], draws: int, turns_done: int) -> dict:
    """Tiles in each hand: 3, minus the tiles played, plus the tiles drawn (the first
    ``draws`` turns draw one each)."""
    n = len(order)
    return {p: 3 - turns_played_by(turns_done, s, n)
            + turns_played_by(min(turns_done, draws), s, n)
            for s, p in enumerate(order)}


def notices(table: dict, setup: dict) -> list[str]:
    if table["game_over"]:
        return [say("The game is over: enter the islands and every score sheet, then finish "
                    "the play.")]
    out = []
    if table["last_turn"]:
        out.append(say("Last turn: the last 3 tiles are drawn.") if setup["solo"] else
                   say("Last turn: %(player)s holds the Winter Token and plays their last "
                       "tile.", player=table["winter_token"]))
    elif not setup["solo"] and table["stack_left"] + table["face_up_left"] == 0:
        out.append(say("No tiles left to draw: play out the tiles in hand."))
    elif table["stack_left"] == 0 and table["face_up_left"]:
        out.append(say("The stack is empty: draw one of the face-up tiles."))
    return out


def end_turn(state: dict) -> dict:
    table = state["table"]
    if table["game_over"]:
        raise RuleError("The game is over: every turn has been played.", "type", "game_over",
                        422)
    table.update(turn_table(state["setup"], table["turns_done"] + 1))
    state["round"] = table["lap"]
    return state


# --------------------------------------------------------------------------- islands
def names_of(state: dict) -> list[str]:
    return [p["name"] for p in state["players"]]


def island_index(state: dict, index: int) -> int:
    """The island at ``index`` (a whole number a table could have: its declaration), when this
    table has it (a rule of the play: 422)."""
    islands = state["table"]["islands"]
    if not islands:
        raise RuleError("There is no island yet; add one first.", "data.island",
                        "no_island", 422)
    if index >= len(islands):
        raise RuleError(say("There is no island %(n)s on the table: it has %(count)s.",
                            n=index + 1, count=len(islands)), "data.island",
                        "unknown_island", 422)
    return index


def store_islands(state: dict, islands: list, edited: int, prefix: str) -> dict:
    """Hold the whole list to the rules (the edited island's errors name ``data``), store it."""
    def where(i: int, player: str, key: str) -> str:
        # the list was valid before this edit, so a piece count over the box is the edit's
        return prefix.format(player=player, key=key)
    try:
        clean = clean_islands(islands, names_of(state), state["options"]["rocks_of_ruin"],
                              where)
    except RuleError as err:
        if err.field and err.field.startswith(f"islands[{edited}]"):
            err.field = "data" + err.field[len(f"islands[{edited}]"):]
        raise
    state["table"]["islands"] = clean
    return state


def add_island(state: dict, data: Any) -> dict:
    if len(state["table"]["islands"]) >= MAX_ISLANDS:
        raise RuleError(say("The table already has %(count)s islands, the most a play keeps.",
                            count=MAX_ISLANDS), "type", "too_many_islands", 422)
    islands = state["table"]["islands"] + [given(data)]
    return store_islands(state, islands, len(islands) - 1,
                         "data.influence.{player}.{key}")


def update_island(state: dict, data: Any) -> dict:
    i = island_index(state, data.island)
    islands = list(state["table"]["islands"])
    changes = {k: v for k, v in given(data).items() if k not in ("island", "add")}
    islands[i] = {**islands[i], **changes}
    if data.add is not None:
        tiles = islands[i]["tiles"] + data.add.tiles
        if not 1 <= tiles <= MAX_NUMBER:      # the count so far is the play's: a 422
            raise RuleError(say("%(island)s covers %(count)s tiles; that would make %(total)s.",
                                island=island_title(state, i), count=islands[i]["tiles"],
                                total=tiles), "data.add.tiles", "out_of_range", 422)
        islands[i]["tiles"] = tiles
    return store_islands(state, islands, i, "data.influence.{player}.{key}")


def remove_island(state: dict, data: Any) -> dict:
    i = island_index(state, data.island)
    del state["table"]["islands"][i]
    return state


def set_influence(state: dict, data: Any) -> dict:
    i = island_index(state, data.island)
    player = player_of(data.player, names_of(state), "data.player",
                       say("Pick a player of this play."))
    set_ = {k: v for k, v in given(data).items() if k in INFLUENCE}
    pieces = pieces_of(set_, "data", state["options"]["rocks_of_ruin"], fill=False)
    islands = [dict(island) for island in state["table"]["islands"]]
    influence = {p: dict(v) for p, v in islands[i]["influence"].items()}
    held = influence.get(player, {})
    for key, n in (given(data.add) if data.add is not None else {}).items():
        if held.get(key, 0) + n < 0:
            raise RuleError(say("%(player)s has %(pieces)s there; none can be taken away "
                                "below 0.", player=player,
                                pieces=PIECE_COUNTS[key](held.get(key, 0))),
                            f"data.add.{key}", "out_of_range", 422)
        most = 1 if key in STRUCTURES else MAX_NUMBER
        if held.get(key, 0) + n > most:
            raise RuleError(say("%(player)s has %(pieces)s there; at most %(high)s can stand "
                                "on one island.", player=player,
                                pieces=PIECE_COUNTS[key](held.get(key, 0)), high=most),
                            f"data.add.{key}", "out_of_range", 422)
        pieces[key] = held.get(key, 0) + n
    influence[player] = {**influence.get(player, {}), **pieces}
    islands[i]["influence"] = influence
    return store_islands(state, islands, i, "data.{key}")


# --------------------------------------------------------------------------- captains
def keep_captain(state: dict, data: ExplorersKeepCaptain) -> dict:
    player, captain = data.player, data.captain
    player_of(player, names_of(state), "data.player", say("Pick a player of this play."))
    if state["setup"]["solo"]:
        raise RuleError("The solo game keeps both captains and scores the lower one.",
                        "data.captain", "solo", 422)
    captain = dealt_captain(state, player, captain, "data.captain")
    state["sheets"].setdefault(player, {})["captain"] = captain
    return state


def dealt_captain(state: dict, player: str, captain: str, field: str) -> str:
    """The captain ``player`` names, which must be one of the 2 dealt to them (rulebook:
    "Deal 2 Captains per player; each keeps 1"; solo: both are theirs): its name as dealt, or
    a 422 ``not_dealt`` naming who holds it when it was dealt to another player. The one
    check of the ``keep_captain`` event and of a score sheet's captain rows."""
    dealt = state["setup"]["captains"][player]
    wanted = " ".join(captain.split()).casefold()
    for name in dealt:
        if name.casefold() == wanted:
            return name
    holder, held = next(((other, name) for other, pair in state["setup"]["captains"].items()
                         for name in pair if name.casefold() == wanted), (None, None))
    if holder is not None:
        raise RuleError(say("The %(captain)s was dealt to %(name)s; %(player)s was dealt "
                            "%(first_captain)s and %(other_captain)s.", captain=captain_word(held),
                            name=holder, player=player, first_captain=captain_word(dealt[0]),
                            other_captain=captain_word(dealt[1])), field, "not_dealt", 422)
    raise RuleError(say("%(player)s was dealt %(captain)s and %(other_captain)s; keep one "
                        "of them.", player=player, captain=captain_word(dealt[0]),
                        other_captain=captain_word(dealt[1])), field, "not_dealt", 422)


def check_sheet_change(state: dict, data: dict) -> None:
    """A sheet change naming a captain: one dealt to that player (``dealt_captain``)."""
    fields = data.get("fields") if isinstance(data.get("fields"), dict) else {}
    for key in ("captain", "captain_2"):
        if isinstance(fields.get(key), str) and fields[key].strip():
            dealt_captain(state, data["player"], fields[key], f"data.fields.{key}")


def start_table(state: dict) -> dict:
    state["table"] = {**turn_table(state["setup"], 0), "islands": []}
    state["round"] = 1
    return state


def islands_for_scoring(state: dict) -> list[dict]:
    return [dict(island) for island in state["table"].get("islands", [])]


# --------------------------------------------------------------------------- words, undo
def island_label(state: dict, index: Any) -> Message | str:
    islands = state["table"]["islands"]
    if isinstance(index, int) and 0 <= index < len(islands) and islands[index].get("name"):
        return islands[index]["name"]
    return say("island %(n)s", n=index + 1) if isinstance(index, int) else say("an island")


def island_title(state: dict, index: Any) -> Message | str:
    """The island's label to begin a sentence with ("Island 2", a name as typed)."""
    islands = state["table"]["islands"]
    if isinstance(index, int) and 0 <= index < len(islands) and islands[index].get("name"):
        name = islands[index]["name"]
        return name[:1].upper() + name[1:]
    return say("Island %(n)s", n=index + 1) if isinstance(index, int) else say("An island")


def piece_words(piece: str, n: int) -> Message:
    """A tap's change of pieces, for the Undo label: "+1 viking", "-2 outposts"."""
    return PIECE_COUNTS[piece](abs(n), "+" if n > 0 else "-" if n else "")


def describe(state: dict, event: dict, moment: str | None = None) -> Message | None:
    """Explorers' changes in players' words: "Ann +1 viking on island 2"."""
    kind, data = event.get("type"), event.get("data") or {}
    where = island_label(state, data.get("island"))
    title = island_title(state, data.get("island"))
    add = data.get("add") if isinstance(data.get("add"), dict) else {}
    player = data.get("player")
    if kind == "set_influence" and add:
        return say("%(player)s %(pieces)s on %(island)s", player=player, island=where,
                   pieces=series([piece_words(piece, n) for piece, n in add.items()], ", "))
    if kind == "set_influence":
        return say("%(player)s's pieces on %(island)s", player=player, island=where)
    if kind == "update_island" and "tiles" in add:
        n = add["tiles"]
        return say_n("%(island)s: %(sign)s%(count)s tile", "%(island)s: %(sign)s%(count)s tiles",
                     abs(n), island=title, sign="+" if n > 0 else "-" if n else "")
    if kind == "update_island":
        return say("%(island)s changed", island=title)
    if kind in ("turn", "advance"):
        return describe_turn_end(state, moment)
    if kind == "add_island":
        return say("A new island")
    if kind == "remove_island":
        return say("%(island)s removed", island=title)
    if kind == "keep_captain":
        return say("%(player)s keeps %(captain)s", player=player,
                   captain=captain_word(data.get("captain")))
    return None


def describe_turn_end(state: dict, moment: str | None) -> Message:
    """"End of Ann's turn": whose turn it was is known from the state right after the turn
    (the turn before the current one) or right before it (the current one)."""
    table = state.get("table") or {}
    order, done = table.get("turn_order") or [], table.get("turns_done")
    if not order or not isinstance(done, int) or moment not in ("after", "before"):
        return say("End of turn")
    turn = done - 1 if moment == "after" else done
    if turn < 0:
        return say("End of turn")
    return say("End of %(player)s's turn", player=order[turn % len(order)])


def inverse(event: dict) -> dict | None:
    """A counter change (``add``) is taken back by its negation. The page's island form also
    sends the values it shows (complete, name); those stay as they are now."""
    kind, data = event.get("type"), event.get("data") or {}
    add = data.get("add")
    if kind not in ("update_island", "set_influence") or not isinstance(add, dict):
        return None
    kept = {k: data[k] for k in ("island", "player") if k in data}
    return {"type": kind, "data": {**kept, "add": {k: -n for k, n in add.items()}}}
