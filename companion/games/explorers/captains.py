"""The captains: who can be dealt, what each one's end-game bonus is worth.

The 11 base captains and the 2 Rocks of Ruin captains are computed from the score sheet and
the islands. The box catalogue may add captains the expansion holds whose bonus nobody
publishes; their bonus is entered by hand on the sheet (``captain_vp``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from ..bodies import Body, text
from ..errors import DUPLICATE, RuleError, say
from ..inputs import MAX_NAME
from ..messages import Message, say_n, series

# TRANSLATORS: Explorers of the North Sea captains: no German or French card list was at
# hand, so these names are our own translations.
BASE_CAPTAINS = (say("Archer"), say("Barbarian"), say("Cartographer"), say("Hero"),
                 say("Huntsman"), say("Queen"), say("Scout"), say("Shieldmaiden"),
                 say("Trader"), say("Tyrant"), say("Watchman"))
ROCKS_CAPTAINS = (say("Berserker"), say("Adventurer"))
SOLO_REMOVED = ("Queen", "Scout")
MAX_CATALOGUE_CAPTAINS = 10
MAX_BONUS_TEXT = 500

# Short paraphrases of each bonus, for the setup and the phone.
CAPTAIN_BONUS = {
    "Archer": say("+1 VP per tile on the shortest route from the Mainland to your farthest "
                  "outpost."),
    "Barbarian": say("+1 VP per enemy ship you destroyed."),
    "Cartographer": say("Your second-largest controlled island scores again (needs 2 "
                        "islands)."),
    "Hero": say("+2 VP per set of 1 outpost, 1 raided settlement and 1 destroyed enemy ship."),
    "Huntsman": say("+2 VP per pair of delivered livestock of the same type."),
    "Queen": say("Your influence on one island you control, minus the number of players "
                 "(min 0)."),
    "Scout": say("+1 VP per completed island you do not control where you have a Viking."),
    "Shieldmaiden": say("+1 VP per island you control."),
    "Trader": say("+2 VP per 3 livestock delivered."),
    "Tyrant": say("+1 VP per settlement you raided."),
    "Watchman": say("+1 VP per outpost you built."),
    "Berserker": say("+1 VP per Viking death, on top of the squared score."),
    "Adventurer": say("+1 VP per shipwreck token still on your dashboard, gold included."),
}


@dataclass
class CaptainContext:
    """What a captain's bonus reads: the parsed sheet and the player's islands."""
    sheet: dict
    players: int
    controlled: list[dict] = field(default_factory=list)   # [{"tiles", "influence"}]
    scout_islands: int = 0


def known_captains(rocks_of_ruin: bool, catalogue: dict) -> list[str]:
    """Every captain a sheet may name with these options."""
    names = list(BASE_CAPTAINS)
    if rocks_of_ruin:
        names += ROCKS_CAPTAINS
        names += [c["name"] for c in catalogue.get("captains", [])]
    return names


def captain_word(name: Any) -> Message | str:
    """A captain named in a sentence: a boxed captain in the reader's words, a captain of the
    box data as typed."""
    return next((c for c in BASE_CAPTAINS + ROCKS_CAPTAINS if c == name), name)


def captain_pool(rocks_of_ruin: bool, catalogue: dict, solo: bool) -> list[str]:
    """The captains shuffled at setup (the solo game removes the Queen and the Scout)."""
    pool = known_captains(rocks_of_ruin, catalogue)
    return [c for c in pool if not (solo and c in SOLO_REMOVED)]


def canonical_captain(value: str, rocks_of_ruin: bool, catalogue: dict, solo: bool,
                      where: str) -> str:
    """The captain's proper name, or a 422 saying why it cannot be scored here."""
    by_fold = {c.casefold(): c for c in known_captains(True, catalogue)}
    name = by_fold.get(" ".join(value.split()).casefold())
    if name is None:
        raise RuleError(say("There is no captain called '%(name)s'. Captains: %(captains)s.",
                            name=value, captains=series(
                                known_captains(rocks_of_ruin, catalogue), ", ")),
                        where, "unknown_captain", 422)
    if name not in known_captains(rocks_of_ruin, catalogue):
        raise RuleError(say("The %(captain)s comes with Rocks of Ruin; turn the expansion on.",
                            captain=name), where, "needs_expansion", 422)
    if solo and name in SOLO_REMOVED:
        raise RuleError(say("The solo game removes the %(captain)s.", captain=name), where,
                        "not_in_solo", 422)
    return name


def captain_description(name: str, catalogue: dict) -> str:
    if name in CAPTAIN_BONUS:
        return CAPTAIN_BONUS[name]
    for entry in catalogue.get("captains", []):
        if entry["name"] == name:
            return entry["bonus"]
    return ""


# --------------------------------------------------------------------------- bonuses
def _archer(ctx: CaptainContext) -> tuple[int, str]:
    """Tiles from the Mainland to the farthest outpost: with no outpost there is no farthest
    one, so the Archer scores nothing (whatever the tile count says)."""
    tiles = ctx.sheet["archer_tiles"]
    if not ctx.sheet["outposts"]:
        return 0, say("Archer: no outpost built, so there is no route to count = 0 VP.")
    return tiles, say_n("Archer: %(count)s tile from the Mainland to the farthest outpost = "
                        "%(vp)s VP.", "Archer: %(count)s tiles from the Mainland to the farthest "
                        "outpost = %(vp)s VP.", tiles, vp=tiles)


def _barbarian(ctx: CaptainContext) -> tuple[int, str]:
    ships = ctx.sheet["enemy_ships"]
    return ships, say_n("Barbarian: %(count)s enemy ship destroyed = %(vp)s VP.",
                        "Barbarian: %(count)s enemy ships destroyed = %(vp)s VP.", ships, vp=ships)


def _cartographer(ctx: CaptainContext) -> tuple[int, str]:
    sizes = sorted((i["tiles"] for i in ctx.controlled), reverse=True)
    if len(sizes) < 2:
        return 0, say("Cartographer: needs 2 controlled islands, has %(count)s = 0 VP.",
                      count=len(sizes))
    return sizes[1], say_n("Cartographer: the second-largest controlled island (%(count)s tile) "
                           "scores again = %(vp)s VP.", "Cartographer: the second-largest "
                           "controlled island (%(count)s tiles) scores again = %(vp)s VP.",
                           sizes[1], vp=sizes[1])


def _hero(ctx: CaptainContext) -> tuple[int, str]:
    sheet = ctx.sheet
    sets = min(sheet["outposts"], len(sheet["settlements"]), sheet["enemy_ships"])
    return 2 * sets, say_n("Hero: %(count)s set of outpost, settlement and enemy ship x 2 = "
                           "%(vp)s VP.", "Hero: %(count)s sets of outpost, settlement and enemy "
                           "ship x 2 = %(vp)s VP.", sets, vp=2 * sets)


def _huntsman(ctx: CaptainContext) -> tuple[int, str]:
    pairs = sum(n // 2 for n in ctx.sheet["livestock"].values())
    return 2 * pairs, say_n("Huntsman: %(count)s pair of the same livestock x 2 = %(vp)s VP.",
                            "Huntsman: %(count)s pairs of the same livestock x 2 = %(vp)s VP.",
                            pairs, vp=2 * pairs)


def _queen(ctx: CaptainContext) -> tuple[int, str]:
    if not ctx.controlled:
        return 0, say("Queen: controls no island = 0 VP.")
    best = max(i["influence"] for i in ctx.controlled)
    vp = max(0, best - ctx.players)
    return vp, say("Queen: %(count)s influence on the best controlled island minus "
                   "%(players_count)s players = %(vp)s VP.", count=best,
                   players_count=ctx.players, vp=vp)


def _scout(ctx: CaptainContext) -> tuple[int, str]:
    n = ctx.scout_islands
    return n, say_n("Scout: %(count)s completed island held by others (or nobody) with a Viking "
                    "= %(vp)s VP.", "Scout: %(count)s completed islands held by others (or "
                    "nobody) with a Viking = %(vp)s VP.", n, vp=n)


def _count_bonus(name: str, unit: str, read: Callable[[CaptainContext], int]) -> Callable:
    """A bonus of 1 VP per ``unit`` (singular, e.g. "outpost built")."""
    def bonus(ctx: CaptainContext) -> tuple[int, str]:
        n = read(ctx)
        return n, say("%(captain)s: 1 VP per %(unit)s, %(count)s in all = %(vp)s VP.",
                      captain=captain_word(name), unit=unit, count=n, vp=n)
    return bonus


def _trader(ctx: CaptainContext) -> tuple[int, str]:
    delivered = sum(ctx.sheet["livestock"].values())
    vp = 2 * (delivered // 3)
    return vp, say("Trader: %(count)s livestock delivered, 2 VP per 3 = %(vp)s VP.",
                   count=delivered, vp=vp)


BONUSES = {
    "Archer": _archer,
    "Barbarian": _barbarian,
    "Cartographer": _cartographer,
    "Hero": _hero,
    "Huntsman": _huntsman,
    "Queen": _queen,
    "Scout": _scout,
    "Shieldmaiden": _count_bonus("Shieldmaiden", say("island controlled"),
                                 lambda ctx: len(ctx.controlled)),
    "Trader": _trader,
    "Tyrant": _count_bonus("Tyrant", say("settlement raided"),
                           lambda ctx: len(ctx.sheet["settlements"])),
    "Watchman": _count_bonus("Watchman", say("outpost built"),
                             lambda ctx: ctx.sheet["outposts"]),
    "Berserker": _count_bonus("Berserker", say("Viking death"),
                              lambda ctx: ctx.sheet["viking_deaths"]),
    "Adventurer": _count_bonus("Adventurer", say("shipwreck token left on the dashboard"),
                               lambda ctx: ctx.sheet.get("shipwreck_tokens", 0)),
}


def captain_bonus(name: str, ctx: CaptainContext, hand_vp: int) -> tuple[int, str]:
    """(VP, one-line explanation) for one captain; ``hand_vp`` is the sheet's entry for a
    box-catalogue captain whose bonus cannot be computed."""
    if name in BONUSES:
        return BONUSES[name](ctx)
    return hand_vp, say("%(captain)s: bonus entered by hand = %(vp)s VP.",
                        captain=captain_word(name), vp=hand_vp)


# --------------------------------------------------------------------------- catalogue
class ExplorersCaptain(Body):
    """A captain the box holds beyond the known ones: its name (not one the box has, nor
    another entry's, ignoring case: else a 422, invalid_input or duplicate_entry) and its bonus
    in words."""
    name: text(MAX_NAME, say("The captain's name"), collapse=True)
    bonus: Annotated[text(MAX_BONUS_TEXT, say("The captain's bonus")), AfterValidator(str.strip)]


class CatalogueExplorers(Body):
    """Explorers: the extra captains of the Rocks of Ruin box."""
    captains: Annotated[list[ExplorersCaptain], Field(max_length=MAX_CATALOGUE_CAPTAINS)] = []


def catalogue_rules(clean: dict) -> None:
    """A captain's name is not one the box has already, nor another entry's (a 422)."""
    boxed = {c.casefold() for c in BASE_CAPTAINS + ROCKS_CAPTAINS}
    taken: set[str] = set()
    for i, captain in enumerate(clean["captains"]):
        name = captain["name"].casefold()
        if name in boxed or name in taken:
            raise RuleError(say("There is already a captain called %(captain)s.",
                                captain=captain["name"]), f"captains[{i}].name",
                            "invalid_input" if name in boxed else DUPLICATE, 422)
        taken.add(name)
