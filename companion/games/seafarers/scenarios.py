"""The 1997 Seafarers scenarios as data: material lists and frames.

What comes from the rulebook (``shared/rulebooks/catan-seafarers-1997.txt``): each scenario's
player counts, victory target, material table (tiles, number chips, harbours; face-up and
face-down rows for Oceans), which tiles start face down, and the scenario's structure (four
islands, two lands, a main island cut by wasteland, ...). The base game's main island is
19 land hexes and 18 chips (``shared/rules/facts.md`` 3.1).

What is drawn here: the frames. The 1997 layouts exist only as diagrams (facts.md 3.3 marks them
[MISSING] as data), so each frame below is drawn to hold exactly the listed material with the
scenario's structure; only New World's frame follows a rule (rows alternating long and short).

A frame is text, one line per row, a symbol at every other column (see ``hexgrid.parse_art``):

- ``~`` sea; a digit ``0``-``5`` is sea with a harbour spot facing that direction (0 east,
  1 north-east, 2 north-west, 3 west, 4 south-west, 5 south-east); a letter from
  ``HARBOUR_CODES`` is sea with two or three harbour spots on sides that share no corner;
- ``M`` a tile of the base game's main island (shuffled with the base chips);
- ``L`` a land tile of the scenario's own list (shuffled with the scenario's chips);
- ``D`` a wasteland tile in a fixed place; ``?`` a face-down position (Oceans);
- ``*`` any tile of the list, sea included (New World shuffles everything).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..messages import Message, say
from .hexgrid import parse_art

TERRAINS = ("sea", "desert", "gold", "fields", "hills", "mountains", "pasture", "forest")
LAND = TERRAINS[1:]
PRODUCING = ("gold", "fields", "hills", "mountains", "pasture", "forest")
RESOURCE_OF = {"fields": "grain", "hills": "brick", "mountains": "ore", "pasture": "wool",
               "forest": "lumber", "gold": "gold"}
SPECIAL_HARBOURS = ("brick", "lumber", "wool", "grain", "ore")
HARBOUR_TYPES = ("3:1",) + SPECIAL_HARBOURS
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
RED = (6, 8)
# TRANSLATORS: Catan terrains (lower case, as the board labels them): the published Catan
# terms (Kosmos: Ackerland, Hügelland, Gebirge, Weideland, Wald, Wüste, Meer, Goldfluss;
# Catane: champs, colline, montagnes, pré, forêt, désert, mer, rivière d'or). The 1997
# book's "wasteland" is the desert tiles (Wüste / désert).
TERRAIN_NAMES = {"sea": say("sea"), "desert": say("desert"), "gold": say("gold"),
                 "fields": say("fields"), "hills": say("hills"),
                 "mountains": say("mountains"), "pasture": say("pasture"),
                 "forest": say("forest")}
WASTELAND, UNKNOWN_TERRAIN = say("wasteland"), say("unknown")
# TRANSLATORS: Catan resources: Getreide, Lehm, Erz, Wolle, Holz / blé, argile, minerai,
# laine, bois.
RESOURCE_NAMES = {"grain": say("grain"), "brick": say("brick"), "ore": say("ore"),
                  "wool": say("wool"), "lumber": say("lumber"), "gold": say("any resource")}


def terrain_word(terrain: str | None) -> Message | str:
    """What a terrain is called on the table: the 1997 book's wasteland is the API's
    "desert"."""
    if terrain == "desert":
        return WASTELAND
    return TERRAIN_NAMES.get(terrain, terrain) if terrain else UNKNOWN_TERRAIN

HARBOUR_CODES = {str(i): (i,) for i in range(6)}
HARBOUR_CODES.update({"a": (0, 3), "b": (1, 4), "c": (2, 5), "d": (0, 2), "e": (1, 3),
                      "f": (2, 4), "g": (3, 5), "h": (4, 0), "i": (5, 1),
                      "j": (0, 2, 4), "k": (1, 3, 5)})
SEA_SYMBOLS = frozenset("~") | frozenset(HARBOUR_CODES)


def tiles(sea: int, wasteland: int, gold: int, wheat: int, brick: int, mountain: int,
          meadow: int, wood: int) -> dict[str, int]:
    """A tile row in the rulebook's column order (Sea, Wasteland, Gold, Wheat, Brick,
    Mountain, Meadow, Wood), as counts per terrain; zero counts are left out."""
    counts = dict(zip(TERRAINS, (sea, wasteland, gold, wheat, brick, mountain, meadow, wood),
                      strict=True))
    return {t: n for t, n in counts.items() if n}


def chips(*counts: int) -> dict[int, int]:
    """A number-chip row in the rulebook's order 2, 3, 4, 5, 6, 8, 9, 10, 11, 12."""
    return {n: c for n, c in zip(NUMBERS, counts, strict=True) if c}


def harbour_set(generic: int) -> dict[str, int]:
    """The five special 2:1 harbours (one per resource) and ``generic`` 3:1 harbours."""
    return {"3:1": generic, **{kind: 1 for kind in SPECIAL_HARBOURS}}


# The base game (facts.md 3.1): 4 forest, 4 pasture, 4 fields, 3 hills, 3 mountains, 1 desert.
BASE_ISLAND = tiles(0, 1, 0, 4, 3, 3, 4, 4)
BASE_CHIPS = chips(1, 2, 2, 2, 2, 2, 2, 2, 2, 1)
BASE_SEA_FRAME = 18        # the sea hexes around the main island when laid as in the base game
BASE_LAND = tiles(0, 0, 0, 4, 3, 3, 4, 4)   # a second base set's land tiles, desert left out


@dataclass(frozen=True)
class Layout:
    """One player count's board: the frame and the material the rulebook lists for it."""
    players: tuple[int, ...]
    art: tuple[str, ...]
    tiles: dict             # listed tiles on the board at the start (face up)
    chips: dict             # listed chips for those tiles (or the bag, see Scenario.chip_bag)
    generic_harbours: int   # 3:1 harbours; the five special ones are always there
    hidden_tiles: dict = field(default_factory=dict)   # Oceans: the face-down row
    hidden_chips: dict = field(default_factory=dict)

    @property
    def cells(self) -> dict:
        return parse_art(self.art)

    @property
    def harbours(self) -> dict[str, int]:
        return harbour_set(self.generic_harbours)


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    target_vp: int | None          # None: the book gives no target (the table sets one)
    layouts: tuple[Layout, ...]
    notes: str                     # the rulebook's words, in short
    main_island: bool = False      # the base game's main island ('M' symbols) is on the board
    red_off_gold: bool = False     # the scenario forbids 6 and 8 on gold
    chip_bag: bool = False         # the listed chips go into a bag, not onto the board
    free_harbours: bool = False    # players place harbours themselves (a suggestion is made)
    special_vp: str = ""
    special_vp_rule: str = "none"  # what the special VP can add up to (sheets.SPECIAL_VP)
    cities_per_player: int = 4     # the base box's 4; Greater Catan hands out 8
    as_shown: bool = False         # the book lays the board "as shown" in its diagram
    start_on_main_island: bool = False   # both start settlements "on the main island"
    drawn: str = ""                # how the app draws its own frame of the board

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(n for layout in self.layouts for n in layout.players))

    def layout(self, players: int) -> Layout | None:
        return next((lay for lay in self.layouts if players in lay.players), None)


# TRANSLATORS: Seafarers scenario names: the German and French 1997 names were not at hand, so
# these are our own translations.
def new_shores() -> Scenario:
    """To New Shores (3-4 players, 13 VP)."""
    return Scenario(
        "new_shores", say("To New Shores"), 13, main_island=True,
        notes=say(
            "To New Shores (3-4 players, 13 VP). Rulebook: the main island laid as in the base "
            "game, with plain sea tiles around it; the small islands use the listed 18 tiles (10 "
            "sea, 2 gold, 1 fields, 1 hills, 2 mountains, 1 pasture, 1 forest) and 8 chips (2, 3, "
            "4, 5, 8, 9, 10, 11); 9 harbours (5 special, 4 x 3:1); a special VP for each player's "
            "first settlement on a small island."),
        drawn=say(
            "the base game's 18 sea hexes ring the main island; the 18 listed tiles form a strait "
            "and three small islands (3, 2 and 3 land hexes) to the east; six harbour spots on the "
            "main island's coast and one per small island."),
        special_vp=say("1 VP for your first settlement on a small island."),
        special_vp_rule="first_small_island",
        layouts=(Layout((3, 4), (
            "   ~ ~ 4 ~ ~ L L",
            "  5 M M M ~ 1 ~ L",
            " ~ M M M M 3 ~ ~",
            "0 M M M M M 0 L L",
            " ~ M M M M 3 ~ ~",
            "  ~ M M M ~ ~ 0 L",
            "   ~ ~ 1 ~ ~ L L",
        ), tiles(10, 0, 2, 1, 1, 2, 1, 1), chips(1, 1, 1, 1, 0, 1, 1, 1, 1, 0), 4),))


def four_islands() -> Scenario:
    """The Four Islands (3 or 4 players, 12 VP)."""
    return Scenario(
        "four_islands", say("The Four Islands"), 12,
        notes=say(
            "The Four Islands (3 or 4 players, 12 VP). Rulebook: 3 players: 17 sea, 3 each of "
            "fields, hills, mountains, pasture and forest; 15 chips; 8 harbours (5 special, 3 x "
            "3:1). 4 players: 18 sea, 4 fields, 4 hills, 4 mountains, 5 pasture, 4 forest; 21 "
            "chips; 10 harbours (5 special, 5 x 3:1). Start settlements on any island; 1 VP for the"
            " first foreign island reached, 2 VP for each further one. The example names a big "
            "bottom-left island and top-left/top-right islands."),
        drawn=say(
            "four islands in the corners (the bottom-left one the biggest) split by a sea cross; "
            "two or three harbour spots per island."),
        special_vp=say("1 VP for the first foreign island settled, 2 VP for each further one."),
        special_vp_rule="four_islands", as_shown=True,
        layouts=(
            Layout((3,), (
                " L L 0 L L",
                "0 L 2 ~ L L",
                " 4 ~ ~ ~ 1",
                "L L ~ 0 L L",
                " L L ~ ~ L",
                "~ L 2 ~ 1",
            ), tiles(17, 0, 0, 3, 3, 3, 3, 3), chips(1, 1, 2, 1, 2, 2, 2, 2, 1, 1), 3),
            Layout((4,), (
                " L L 3 L L L",
                "L L ~ 1 ~ L L",
                " 2 5 ~ ~ 1 1",
                "L L L ~ 0 L L",
                " L L 3 ~ 5 L",
                "L L 3 ~ ~ L L",
            ), tiles(18, 0, 0, 4, 4, 4, 5, 4), chips(1, 2, 3, 2, 2, 2, 3, 3, 2, 1), 5),
        ))


def oceans() -> Scenario:
    """Oceans (3 or 4 players, 12 VP)."""
    return Scenario(
        "oceans", say("Oceans"), 12, as_shown=True,
        notes=say(
            "Oceans (3 or 4 players, 12 VP). Rulebook: a large island and small islands face up, "
            "the spaces marked ? left empty; the face-down tiles and chips are shuffled into two "
            "piles and drawn when a ship or road reaches a ? space (a land tile takes the top chip "
            "and pays its resource at once; sea takes none). 3 players face up: 6 sea, 1 gold, 2 "
            "fields, 2 hills, 2 mountains, 2 pasture, 3 forest, chips 2, 3, 4, 4, 5, 6, 6, 8, 9, "
            "10, 10, 11; face down: 8 sea, 1 fields, 1 hills, 2 mountains, 1 pasture, 1 forest, "
            "chips 3, 5, 8, 9, 11, 12; 8 harbours (5 special, 3 x 3:1). 4 players face up: 7 sea, 2"
            " gold, 3 each of the five resources, 17 chips; face down: 14 sea, 1 wasteland, 2 "
            "fields, 1 hills, 1 mountains, 2 pasture, 1 forest, 7 chips; 9 harbours (5 special, 4 x"
            " 3:1). No special VP. Start settlements on the main island."),
        drawn=say(
            "a large island around an inner lagoon in the west, a small island south of it, the ? "
            "spaces filling the east. With so little face-up sea, the lagoon and the straits carry "
            "two or three harbours each. The wasteland drawn from the 4-player pile takes no chip. "
            "Added so that no 6/8 can ever touch: a face-up 6/8 never borders a ? space."),
        start_on_main_island=True,
        layouts=(
            Layout((3,), (
                " L L 3 ? ?",
                "L L L ? ? ?",
                " L k L ? ?",
                "0 L L ? ? ?",
                " ~ b 4 ? ?",
                "L L L ? ?",
            ), tiles(6, 0, 1, 2, 2, 2, 2, 3), chips(1, 1, 2, 1, 2, 1, 1, 2, 1, 0), 3,
                hidden_tiles=tiles(8, 0, 0, 1, 1, 2, 1, 1),
                hidden_chips=chips(0, 1, 0, 1, 0, 1, 1, 0, 1, 1)),
            Layout((4,), (
                "L L L ? ? ? ?",
                " L j L ? ? ?",
                "L L L L ? ? ?",
                " L L L ? ? ?",
                "1 ~ f 4 ? ? ?",
                " 0 L L ? ? ?",
                "0 L L L ? ? ?",
            ), tiles(7, 0, 2, 3, 3, 3, 3, 3), chips(1, 2, 2, 1, 2, 2, 2, 2, 2, 1), 4,
                hidden_tiles=tiles(14, 1, 0, 2, 1, 1, 2, 1),
                hidden_chips=chips(0, 1, 1, 2, 1, 0, 1, 1, 0, 0)),
        ))


def wasteland() -> Scenario:
    """Through the Wasteland (3 or 4 players, 12 VP)."""
    return Scenario(
        "wasteland", say("Through the Wasteland"), 12,
        notes=say(
            "Through the Wasteland (3 or 4 players, 12 VP). Rulebook: the main island is split in "
            "two by the wasteland tiles; start settlements go on the larger southern and western "
            "part; the other part and the small islands are foreign (1 VP for the first settlement "
            "on a small island). 3 players: 12 sea, 4 wasteland, 1 gold, 4 fields, 5 hills, 4 "
            "mountains, 5 pasture, 4 forest; 23 chips. 4 players: 16 sea, 4 wasteland, 2 gold, 5 "
            "fields, 5 hills, 4 mountains, 5 pasture, 5 forest; 26 chips. 9 harbours (5 special, 4 "
            "x 3:1) for both."),
        drawn=say(
            "a diagonal line of the four wasteland tiles cuts a small north-eastern part off a "
            "large main island that fills most of the frame; small islands lie to the south."),
        special_vp=say("1 VP for your first settlement on a small island."),
        special_vp_rule="first_small_island", as_shown=True,
        layouts=(
            Layout((3,), (
                " 0 L L D L L",
                "5 L L L D L L",
                " L L L L D L",
                "0 L L L L D 2",
                " ~ 1 L L 2 5",
                "0 L ~ 1 ~ L L",
            ), tiles(12, 4, 1, 4, 5, 4, 5, 4), chips(1, 2, 3, 3, 2, 3, 3, 3, 2, 1), 4),
            Layout((4,), (
                "0 L L 3 L L 4",
                " L L L D L L",
                "0 L L L D L ~",
                " L L L L D L",
                "0 L L L L D 2",
                " ~ ~ ~ 1 ~ ~",
                "0 L L ~ 0 L L",
            ), tiles(16, 4, 2, 5, 5, 4, 5, 5), chips(2, 2, 3, 3, 3, 3, 3, 3, 3, 1), 4),
        ))


def new_world_art(players: int) -> tuple[str, ...]:
    """New World's frame: 7 rows, long rows (5 hexes plus one per player beyond two)
    alternating with short rows one hex shorter, a long row first."""
    long_row = 5 + players - 2
    return tuple("* " * long_row if r % 2 == 0 else " " + "* " * (long_row - 1)
                 for r in range(7))


def new_world() -> Scenario:
    """New World (3 or 4 players, 12 VP)."""
    return Scenario(
        "new_world", say("New World"), 12, red_off_gold=True,
        notes=say(
            "New World (3 or 4 players, 12 VP). Rulebook: every tile is shuffled and laid at random"
            " in the frame, then the chips; 6 and 8 may not be neighbours nor lie on gold "
            "(rearranged by agreement). Harbours are dealt face down and each player in turn puts "
            "one next to any land tile. 3 players: 19 sea, 4 each of fields, hills, mountains, "
            "pasture, forest; 20 chips; 9 harbours (5 special, 4 x 3:1). 4 players: 23 sea, 5 "
            "fields, 4 hills, 4 mountains, 5 pasture, 5 forest; 23 chips; 10 harbours (5 special, 5"
            " x 3:1). 1 VP for each first settlement on a foreign island. Frame (fan kit, facts.md "
            "3.3): 7 rows, long rows of 6 (3 players) or 7 (4 players) hexes alternating with short"
            " rows one shorter: 39 and 46 hexes, matching the tables. The harbours come as a "
            "suggestion obeying the placing rule: each on a sea hex facing land, no corner a dock "
            "of two harbours."),
        free_harbours=True,
        special_vp=say("1 VP for your first settlement on each foreign island."),
        special_vp_rule="each_foreign_island",
        layouts=(
            Layout((3,), new_world_art(3), tiles(19, 0, 0, 4, 4, 4, 4, 4),
                   chips(1, 2, 2, 2, 2, 2, 3, 3, 2, 1), 4),
            Layout((4,), new_world_art(4), tiles(23, 0, 0, 5, 4, 4, 5, 5),
                   chips(1, 3, 3, 3, 2, 2, 3, 3, 2, 1), 5),
        ))


def great_crossing() -> Scenario:
    """The Great Crossing (4 players; the 1997 book gives no victory target)."""
    return Scenario(
        "great_crossing", say("The Great Crossing"), None,
        notes=say(
            "The Great Crossing (4 players; the 1997 book gives no victory target). Rulebook: two "
            "lands, Catan and Transcatan; both start settlements on one of them (the home island); "
            "special VP for trade lines of ships between the two lands. 17 sea, 5 fields, 4 hills, "
            "4 mountains, 5 pasture, 4 forest; 22 chips (two each of 2, 3, 4, 6, 8, 10, 11, 12, "
            "three each of 5 and 9); 10 harbours (5 special, 5 x 3:1)."),
        drawn=say(
            "two lands of 11 hexes west and east of a north-south strait; five harbour spots on "
            "each land."),
        special_vp=say("1 VP for each trade line between Catan and Transcatan you win."),
        special_vp_rule="trade_lines",
        layouts=(Layout((4,), (
            " 0 L ~ ~ L 3",
            "5 L L ~ L L 4",
            " L L 3 0 L L",
            "L L L ~ L L L",
            " 1 L ~ ~ L 2",
            "~ L L 3 L L 3",
        ), tiles(17, 0, 0, 5, 4, 4, 5, 4), chips(2, 2, 2, 3, 2, 2, 3, 2, 2, 2), 5),))


def greater_catan() -> Scenario:
    """Greater Catan (4 players, 18 VP; two base sets)."""
    return Scenario(
        "greater_catan", say("Greater Catan"), 18, main_island=True,
        notes=say(
            "Greater Catan (4 players, 18 VP; two base sets). Rulebook: the main island in the "
            "middle as in the base game; a second set's land tiles without its desert (4 forest, 4 "
            "pasture, 4 fields, 3 hills, 3 mountains) shuffled onto the small-island spaces without"
            " chips; the gaps filled with 23 sea tiles; the second set's chips 2, 3, 4, 5, 9, 10, "
            "11 go into a bag and are drawn when a ship or road reaches a small-island tile without"
            " a chip; once the bag is empty, chips move from the main island (rules a-c). 9 "
            "harbours (5 special, 4 x 3:1)."),
        drawn=say(
            "the base game's 18 sea hexes ring the main island; six small islands of three hexes, "
            "three west and three east; five harbour spots on the main island's coast and one on "
            "four of the small islands."),
        chip_bag=True, cities_per_player=8, start_on_main_island=True,
        layouts=(Layout((4,), (
            "   L L 3 ~ 5 ~ ~ ~ L L",
            "  ~ L ~ ~ M M M ~ 0 L ~",
            " L ~ ~ ~ M M M M 3 ~ ~ L",
            "L L ~ 0 M M M M M ~ ~ L",
            " ~ ~ ~ ~ M M M M 3 ~ ~ L",
            "  ~ L 3 ~ M M M ~ 0 L ~",
            "   L L ~ ~ 1 ~ ~ ~ L L",
        ), {"sea": 23, **BASE_LAND}, chips(1, 1, 1, 1, 0, 0, 1, 1, 1, 0), 4),))


SCENARIOS: dict[str, Scenario] = {s.id: s for s in (
    new_shores(), four_islands(), oceans(), wasteland(), new_world(), great_crossing(),
    greater_catan())}
