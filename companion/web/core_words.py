"""Words the pure core says in English (option labels, help, scenario names), listed here so
`make i18n` extracts them; pages show them through ``core()`` (gettext of the English text,
which stays English where no translation exists)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po
from flask import current_app
from flask_babel import get_locale, gettext, pgettext
from flask_babel import lazy_gettext as _l

OPTION_WORDS = (
    _l("Nemesis cards (solo): how many to add at random"),
    _l("Solo only. Or send options.nemesis: a list of catalogue Nemesis ids."),
    _l("Rocks of Ruin expansion"),
    _l("72 tiles, fortresses, shipwrecks, structures, 2 more captains and a fifth player."),
    _l("Artifacts variant"),
    _l("Reveal 1 random artifact (plus the Mead Cup with 2 players) whose reward applies all "
       "game."),
    _l("Advanced ship side"),
    _l("Play the ship sheets on their advanced side instead of the normal one."),
    _l("Tied wall majorities"),
    _l("Scenario"),
    _l("One of the 1997 rulebook's scenarios."),
    _l("No equal numbers side by side"),
    _l("No 2 and 12 side by side"),
    _l("Most pips around one corner (0: no cap)"),
    _l("Pips count the dots on the chips of the hexes meeting at a corner."),
    _l("Largest group of one terrain (0: no cap)"),
    _l("Counts gold and the five resource terrains."),
    _l("Board layout"), _l("The book's layout"), _l("Variable layout (not the book's)"),
    _l("The book's layout: Four Islands, Oceans and Through the Wasteland as the book's "
       "diagram shows them (entered once by the owner). Variable layout: the app's own random "
       "layout, not the book's. Other scenarios are laid at random either way."),
    _l("Victory target (The Great Crossing: the 1997 book gives no target)"),
    _l("Only for The Great Crossing, whose section names no target; the other scenarios play "
       "to the book's."),
    # TRANSLATORS: "share"/"split" are Reavers' options for tied wall majorities.
    _l("share"), _l("split"),
)


# What each game's rows, options and box data are for, as the games say it (the hints under
# the score-sheet rows and options, the box data list): our own translations.
HELP_WORDS = (
    _l('Round Cards (title, track icons, solo VP, draft arrows, trades), the track icon of each '
       "of the 6 Huts, the VP of track spaces 15-18 and the 4 Nemesis cards' icons: all printed "
       'only on the cards.'),
    _l('How many of each type you delivered.'),
    _l('The strength (2 to 5) of each settlement you raided.'),
    _l('The captain you kept.'),
    _l('The solo game deals 2 captains and scores the lower one.'),
    _l('Shortest route; only the Archer scores this.'),
    _l('The value (4 to 6) of each fortress you raided.'),
    _l('Only for a captain whose bonus the app cannot compute; ignored for the others.'),
    _l('Extra captains your Rocks of Ruin box holds beyond the Berserker and the Adventurer: '
       "each one's name and bonus. Their bonus VP is typed on the score sheet."),
    _l('Where the round marker stands on the score track.'),
    _l('0 to 3; breaks ties together with the bracelets.'),
    _l('0 to 3; breaks ties together with the recruits.'),
    _l('The VP printed on each space of the Reputation track, from the starting space on, read '
       'off the board.'),
    _l('Battles, spoils and other glory on the track. In a play the app adds territory glory at '
       'each cleanup itself.'),
    _l('2 glory each.'),
    _l('e.g. Treasure, Art, Armor: scored as sets by the printed schedule.'),
    _l('15 per set of the 3 different tapestries, 2 for each other one.'),
    _l("No rule is published. share: tied players each take the place's full value and the next "
       'place is skipped; split: they share it.'),
    _l('The glory for sets of 1, 2, 3 … cards printed at the bottom of the Treasure, Art and '
       'Armor cards, and the glory for the most and second most wall tokens.'),
    _l('The book\'s layouts of the scenarios laid out "as shown" (Four Islands, Oceans, Through '
       "the Wasteland), entered once from your rulebook's diagrams, each holding exactly the "
       "book's material list."),
)

# Score-sheet rows as the games label them. The North Sea rows' German and French are our own
# translations (no German or French rulebook at hand); Catan's use the published Catan terms.
SHEET_WORDS = (
    _l('Longships: VP printed on constructed Longships'),
    _l('Longships with an end-game bonus (one entry each)'),
    _l('Unique Buildings (Huts count)'),
    _l('Unique Longships (Eikjas count)'),
    _l('Raid Cards'),
    _l('Trade Cards'),
    _l('Upgrades (flipped Eikja, Labourer, Hut)'),
    _l('Buildings: VP'),
    _l('Recruited Jarls: VP'),
    _l('Progress Track positions'),
    _l('VP on Hero and Labourer cards (upgraded sides included)'),
    _l('Gold (1 VP each)'),
    _l('Oak + Wool + Iron left (tie-break)'),
    _l('Workers in supply (tie-break)'),
    _l('Delivered livestock'),
    _l('Outposts built'),
    _l('Enemy ships destroyed'),
    _l('Raided settlements'),
    _l('Viking deaths'),
    _l('Captain'),
    _l('Second captain (solo game only)'),
    _l('Archer: tiles from the Mainland to your farthest outpost'),
    _l('Salvaged gold'),
    _l('Raided fortresses'),
    _l('Shipwreck tokens left on your dashboard (gold included)'),
    _l('Captain bonus VP (a captain from the box catalogue)'),
    _l('Second captain bonus VP (solo, box-catalogue captain)'),
    _l('Score track VP'),
    _l('Recruits on the ship'),
    _l('Silver bracelets on the ship'),
    _l('Glory during play'),
    _l('Artifacts (glory of each)'),
    _l('Favor tokens left'),
    _l('Keep spoils cards by type'),
    _l('Tapestries by name'),
    _l('Wall tokens'),
    _l('Prophecies (glory of each)'),
    _l('Settlements on the board'),
    _l('Cities on the board'),
    _l('Longest trade route (2 VP)'),
    _l('Largest army (2 VP)'),
    _l('Victory point cards'),
    _l("Special victory points (the scenario's chips)"),
    _l('Pass turn →'),
)


# Catan: Seafarers: the scenarios, terrains and resources the core names, and the scenarios'
# notes (companion.games.seafarers.scenarios: each scenario's docstring, its rulebook part and
# the part saying how the app drew its frame).
SEAFARERS_WORDS = (
    # TRANSLATORS: Seafarers scenario names: the German and French 1997 names were not at
    # hand, so these are our own translations.
    _l("To New Shores"), _l("The Four Islands"), _l("Oceans"), _l("Through the Wasteland"),
    _l("New World"), _l("The Great Crossing"), _l("Greater Catan"),
    # TRANSLATORS: Catan terrains (lower case, as the board labels them): the published Catan
    # terms (Kosmos: Ackerland, Hügelland, Gebirge, Weideland, Wald, Wüste, Meer, Goldfluss;
    # Catane: champs, colline, montagnes, pré, forêt, désert, mer, rivière d'or). The 1997
    # book's "wasteland" is the desert tiles (Wüste / désert).
    _l("sea"), _l("gold"), _l("fields"), _l("hills"), _l("mountains"), _l("pasture"),
    _l("forest"), _l("desert"), _l("wasteland"), _l("unknown"),
    # TRANSLATORS: Catan resources: Getreide, Lehm, Erz, Wolle, Holz / blé, argile, minerai,
    # laine, bois.
    _l("grain"), _l("brick"), _l("ore"), _l("wool"), _l("lumber"), _l("any resource"),
    # the fairness settings as a refusal names them
    _l("Most pips around one corner"), _l("Largest group of one terrain"),
    _l("To New Shores (3-4 players, 13 VP). Rulebook: the main island laid as in the base "
        "game, with plain sea tiles around it; the small islands use the listed 18 tiles (10 "
        "sea, 2 gold, 1 fields, 1 hills, 2 mountains, 1 pasture, 1 forest) and 8 chips (2, 3, "
        "4, 5, 8, 9, 10, 11); 9 harbours (5 special, 4 x 3:1); a special VP for each player's "
        "first settlement on a small island."),
    _l("the base game's 18 sea hexes ring the main island; the 18 listed tiles form a strait "
        "and three small islands (3, 2 and 3 land hexes) to the east; six harbour spots on "
        "the main island's coast and one per small island."),
    _l("The Four Islands (3 or 4 players, 12 VP). Rulebook: 3 players: 17 sea, 3 each of "
        "fields, hills, mountains, pasture and forest; 15 chips; 8 harbours (5 special, 3 x "
        "3:1). 4 players: 18 sea, 4 fields, 4 hills, 4 mountains, 5 pasture, 4 forest; 21 "
        "chips; 10 harbours (5 special, 5 x 3:1). Start settlements on any island; 1 VP for "
        "the first foreign island reached, 2 VP for each further one. The example names a big "
        "bottom-left island and top-left/top-right islands."),
    _l("four islands in the corners (the bottom-left one the biggest) split by a sea cross; "
        "two or three harbour spots per island."),
    _l("Oceans (3 or 4 players, 12 VP). Rulebook: a large island and small islands face up, "
        "the spaces marked ? left empty; the face-down tiles and chips are shuffled into two "
        "piles and drawn when a ship or road reaches a ? space (a land tile takes the top "
        "chip and pays its resource at once; sea takes none). 3 players face up: 6 sea, 1 "
        "gold, 2 fields, 2 hills, 2 mountains, 2 pasture, 3 forest, chips 2, 3, 4, 4, 5, 6, "
        "6, 8, 9, 10, 10, 11; face down: 8 sea, 1 fields, 1 hills, 2 mountains, 1 pasture, 1 "
        "forest, chips 3, 5, 8, 9, 11, 12; 8 harbours (5 special, 3 x 3:1). 4 players face "
        "up: 7 sea, 2 gold, 3 each of the five resources, 17 chips; face down: 14 sea, 1 "
        "wasteland, 2 fields, 1 hills, 1 mountains, 2 pasture, 1 forest, 7 chips; 9 harbours "
        "(5 special, 4 x 3:1). No special VP. Start settlements on the main island."),
    _l("a large island around an inner lagoon in the west, a small island south of it, the ? "
        "spaces filling the east. With so little face-up sea, the lagoon and the straits "
        "carry two or three harbours each. The wasteland drawn from the 4-player pile takes "
        "no chip. Added so that no 6/8 can ever touch: a face-up 6/8 never borders a ? space."),
    _l("Through the Wasteland (3 or 4 players, 12 VP). Rulebook: the main island is split in "
        "two by the wasteland tiles; start settlements go on the larger southern and western "
        "part; the other part and the small islands are foreign (1 VP for the first "
        "settlement on a small island). 3 players: 12 sea, 4 wasteland, 1 gold, 4 fields, 5 "
        "hills, 4 mountains, 5 pasture, 4 forest; 23 chips. 4 players: 16 sea, 4 wasteland, 2 "
        "gold, 5 fields, 5 hills, 4 mountains, 5 pasture, 5 forest; 26 chips. 9 harbours (5 "
        "special, 4 x 3:1) for both."),
    _l("a diagonal line of the four wasteland tiles cuts a small north-eastern part off a "
        "large main island that fills most of the frame; small islands lie to the south."),
    _l("New World (3 or 4 players, 12 VP). Rulebook: every tile is shuffled and laid at "
        "random in the frame, then the chips; 6 and 8 may not be neighbours nor lie on gold "
        "(rearranged by agreement). Harbours are dealt face down and each player in turn puts "
        "one next to any land tile. 3 players: 19 sea, 4 each of fields, hills, mountains, "
        "pasture, forest; 20 chips; 9 harbours (5 special, 4 x 3:1). 4 players: 23 sea, 5 "
        "fields, 4 hills, 4 mountains, 5 pasture, 5 forest; 23 chips; 10 harbours (5 special, "
        "5 x 3:1). 1 VP for each first settlement on a foreign island. Frame (fan kit, "
        "facts.md 3.3): 7 rows, long rows of 6 (3 players) or 7 (4 players) hexes alternating "
        "with short rows one shorter: 39 and 46 hexes, matching the tables. The harbours come "
        "as a suggestion obeying the placing rule: each on a sea hex facing land, no corner a "
        "dock of two harbours."),
    _l("The Great Crossing (4 players; the 1997 book gives no victory target). Rulebook: two "
        "lands, Catan and Transcatan; both start settlements on one of them (the home "
        "island); special VP for trade lines of ships between the two lands. 17 sea, 5 "
        "fields, 4 hills, 4 mountains, 5 pasture, 4 forest; 22 chips (two each of 2, 3, 4, 6, "
        "8, 10, 11, 12, three each of 5 and 9); 10 harbours (5 special, 5 x 3:1)."),
    _l("two lands of 11 hexes west and east of a north-south strait; five harbour spots on "
        "each land."),
    _l("Greater Catan (4 players, 18 VP; two base sets). Rulebook: the main island in the "
        "middle as in the base game; a second set's land tiles without its desert (4 forest, "
        "4 pasture, 4 fields, 3 hills, 3 mountains) shuffled onto the small-island spaces "
        "without chips; the gaps filled with 23 sea tiles; the second set's chips 2, 3, 4, 5, "
        "9, 10, 11 go into a bag and are drawn when a ship or road reaches a small-island "
        "tile without a chip; once the bag is empty, chips move from the main island (rules "
        "a-c). 9 harbours (5 special, 4 x 3:1)."),
    _l("the base game's 18 sea hexes ring the main island; six small islands of three hexes, "
        "three west and three east; five harbour spots on the main island's coast and one on "
        "four of the small islands."),
)


# Names the core deals or lays out: Explorers' captains, Knarr's artifacts, ship sides.
CARD_WORDS = (
    # TRANSLATORS: Explorers of the North Sea captains: no German or French card list was at
    # hand, so these names are our own translations.
    _l("Archer"), _l("Barbarian"), _l("Cartographer"), _l("Hero"), _l("Huntsman"), _l("Queen"),
    _l("Scout"), _l("Shieldmaiden"), _l("Trader"), _l("Tyrant"), _l("Watchman"),
    _l("Berserker"), _l("Adventurer"),
    # TRANSLATORS: Knarr's artifacts (our own translations, no German or French rulebook at
    # hand).
    _l("Amulet"), _l("Weathervane"), _l("Golden Bracelet"), _l("Cauldron"), _l("Helmet"),
    _l("Mead Cup"), _l("Silver Coin"),
    # TRANSLATORS: Knarr's ship sheets are played normal or advanced side up.
    _l("normal"), _l("advanced"),
)


AS_TYPED = re.compile(r"^(name|names|player|players|who|.*_name)$")
# Placeholders that hold a number ("+3", "12", "2.5"): they match digits only, so a shape may
# put one right beside a word ("%(player)s %(count)s territory" is "Cecilie +1 territory").
NUMERIC = re.compile(r"^(count|total|value|level|n|low|high|steps|delta|round|rounds|done|of|"
                     r"vp|glory|space|.*_count|.*_vp|.*_total|.*_glory)$")
NUMBER = r"[+-]?\d+(?:\.\d+)?"
# a list of numbers ("3, 2, 2": the others' values in a tie-break sentence)
NUMBERS = re.compile(r"^(others|sizes|values|sums)$")
# ", "-joined lists of counted things, each translated in turn ("+1 viking, -2 outposts")
LISTS = re.compile(r"^(pieces|items)$")
# Whole sentences (a card's text, a scenario's notes): they may run over several sentences
TEXTS = re.compile(r"^(text|.*_text)$")
# ", "-joined lists of anything, each translated in turn ("Ann to Bo, Bo to Cy")
COMMA_LISTS = re.compile(r"^(passes|kinds)$")
# "a, b and c" of things, each translated in turn, and the "and" ("2 on Military and 1 on Trade")
AND_LISTS = re.compile(r"^(moves)$")
# "; "-joined parts, each translated in turn ("Military on 15: 2; Trade on 16: 3")
PARTS = re.compile(r"^(parts)$")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def core(text) -> str:
    """The core's English words in the page's language, where the catalogue has them: the
    text itself as a message id, or else the shape it was said from
    (companion.games.errors.say): the most specific shape in the catalogue whose English the
    text matches; its parameters are translated in turn, except players' names (a list of
    names, "Ann, Bo and Cy", gets its "and" translated). Text no shape matches stays as the
    core said it; several sentences no single shape matches are translated one by one."""
    if not text:
        return ""
    text = str(text)
    if str(get_locale() or "en") == "en":
        return text
    return _translated(str(get_locale()), text)


def _translated(locale: str, text: str) -> str:
    return _parsed(locale, text)[1]


@lru_cache(maxsize=8192)
def _parsed(locale: str, text: str) -> tuple[int, str]:
    """(how many characters of ``text`` the catalogue explains, the text translated). Of the
    shapes the text matches, the one that explains most of it wins, its parameters counted in
    turn: "the undo of Ann +2 territories" is "the undo of %(change)s" around "%(player)s
    %(count)s territories", not the latter with a player called "the undo of Ann"."""
    said = gettext(text)
    if said != text:
        return len(text), said
    best: tuple[int, str] | None = None
    for fixed, shape, pattern in _shapes():
        found = pattern.match(text)
        if not found:
            continue
        score, params = fixed, {}
        for name, value in found.groupdict().items():
            explained, params[name] = _param(locale, name, value)
            score += explained
        if best is None or score > best[0]:
            best = (score, gettext(shape, **params))
        if score >= len(text):
            break
    sentences = SENTENCE_END.split(text)
    if len(sentences) > 1:
        parts = [_parsed(locale, s) for s in sentences]
        together = sum(n for n, _ in parts) + len(sentences) - 1
        if best is None or together > best[0]:
            best = (together, " ".join(words for _, words in parts))
    return best or (0, text)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
LAST_AND = re.compile(r"^(?P<names>.+) and (?P<last>[^,]+)$")


def _param(locale: str, name: str, value: str) -> tuple[int, str]:
    """(characters explained, the parameter in the page's language)."""
    if AS_TYPED.match(name):
        if name in ("names", "players"):   # "Ann, Bo and Cy": only the "and" is ours
            both = LAST_AND.match(value)
            if both:
                return 0, _and(both["names"], both["last"])
        return 0, value
    if NUMERIC.match(name) or NUMBERS.match(name):
        return len(value), value
    if AND_LISTS.match(name):
        both = LAST_AND.match(value)
        if both:
            first, last = _param(locale, "passes", both["names"]), _parsed(locale, both["last"])
            return first[0] + last[0], _and(first[1], last[1])
        return _parsed(locale, value)
    if COMMA_LISTS.match(name):
        items = [_pass(locale, item) for item in value.split(", ")]
        return sum(n for n, _ in items), ", ".join(words for _, words in items)
    if LISTS.match(name):
        items = [_parsed(locale, item) for item in value.split(", ")]
        return sum(n for n, _ in items), ", ".join(words for _, words in items)
    if PARTS.match(name):
        items = [_parsed(locale, item) for item in value.split("; ")]
        return sum(n for n, _ in items), "; ".join(words for _, words in items)
    if name == "changes":   # "Gold +3; Silver -1 and 2 more": see label_words
        from .label_words import changes_words
        return 0, changes_words(value)
    explained, said = _parsed(locale, value)
    if explained < len(value):
        listed = _listed(locale, value)
        if listed and listed[0] > explained:
            return listed
    return explained, said


def _listed(locale: str, value: str) -> tuple[int, str] | None:
    """A list the core joined (ranking.join_names: "2 on Military and 1 on Trade", "15, 16 and
    17"), each item said in turn and joined by the language's "and"."""
    both = LAST_AND.match(value)
    if not both:
        return None
    items = [*both["names"].split(", "), both["last"]]
    parts = [(len(item), item) if re.fullmatch(NUMBER, item) else _parsed(locale, item)
             for item in items]
    words = [w for _, w in parts]
    return (sum(n for n, _ in parts) + 2 * (len(items) - 1),
            _and(", ".join(words[:-1]), words[-1]))


def _and(names: str, last: str) -> str:
    """The last "and" of a list (with a context, so it is never matched as a shape of its own:
    any English text with an "and" in it would match it)."""
    return pgettext("the last two of a list", "%(names)s and %(name)s", names=names, name=last)


PASS = re.compile(r"^(?P<player>.+) to (?P<other>.+)$")


def _pass(locale: str, text: str) -> tuple[int, str]:
    """One pass of a draft, "Ann to Bo" (the core writes it plainly, see
    companion.games.shipwrights.phases: as a shape it would match any "… to …")."""
    found = PASS.match(text)
    if not found:
        return _parsed(locale, text)
    return 4, pgettext("a draft pass: who hands cards to whom", "%(player)s to %(other_name)s",
                       player=found["player"], other_name=found["other"])


def _shapes() -> list[tuple[int, str, re.Pattern]]:
    folders = current_app.config.get("BABEL_TRANSLATION_DIRECTORIES", "translations")
    return _shapes_in(str(Path(folders.split(";")[0]) / "messages.pot"))


@lru_cache(maxsize=4)
def _shapes_in(template: str) -> list[tuple[int, str, re.Pattern]]:
    """Every message id with a placeholder, as a pattern for the English it makes, the most
    specific first (most fixed characters): "Ann's Gold cannot go below 0." is the shape
    "%(player)s's %(row)s cannot go below %(low)s." rather than a looser one."""
    try:
        with open(template, "rb") as handle:
            catalog = read_po(handle)
    except OSError:
        return []
    shapes = []
    for message in catalog:
        shape = message.id
        if not isinstance(shape, str) or message.context or not PLACEHOLDER.search(shape):
            continue
        if "%(head)s" in shape and "%(tail)s" in shape:
            continue   # "%(head)s; %(tail)s": a message's own joins (games.messages.series)
        pieces, seen = PLACEHOLDER.split(shape), set()
        pattern = ""
        for i, piece in enumerate(pieces):
            if i % 2 == 0:
                pattern += re.escape(piece.replace("%%", "%"))
            elif piece in seen:
                pattern += f"(?P={piece})"
            else:
                seen.add(piece)
                pattern += f"(?P<{piece}>{_value_pattern(piece)})"
        fixed = len(PLACEHOLDER.sub("", shape))
        shapes.append((fixed, shape, re.compile(f"^{pattern}$", re.DOTALL)))
    shapes.sort(key=lambda item: -item[0])
    return shapes


def _value_pattern(name: str) -> str:
    if NUMERIC.match(name):
        return NUMBER
    if NUMBERS.match(name):
        return f"{NUMBER}(?:(?:, | \\+ |\\+){NUMBER})*"
    if LISTS.match(name):   # begins with a count: "+1 viking, -2 outposts"
        return f"{NUMBER} {WORDS}"
    if TEXTS.match(name):
        return ".+?"
    return WORDS


# any words that do not run past the end of a sentence into the next one ("… 3). Bo and …"),
# so several sentences joined are matched one by one, not as one shape with a giant parameter
WORDS = r"(?:(?![.!?]\s+[A-Z]).)+?"
