"""Words the pure core says in English (option labels, help, scenario names), listed here so
`make i18n` extracts them; pages show them through ``core()`` (gettext of the English text,
which stays English where no translation exists)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po
from flask import current_app
from flask_babel import get_locale, gettext
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
    # TRANSLATORS: Seafarers scenario names: the German and French 1997 names were not at
    # hand, so these are our own translations; "share"/"split" are Reavers tie options.
    _l("new shores"), _l("four islands"), _l("oceans"), _l("wasteland"), _l("new world"),
    _l("great crossing"), _l("greater catan"), _l("share"), _l("split"),
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


AS_TYPED = re.compile(r"^(name|names|player|players|who|.*_name)$")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def core(text) -> str:
    """The core's English words in the page's language, where the catalogue has them: the
    text itself as a message id, or else the shape it was said from
    (companion.games.base.say): the most specific shape in the catalogue whose English the
    text matches; its parameters are translated in turn, except players' names. Text no
    shape matches stays as the core said it."""
    if not text:
        return ""
    text = str(text)
    if str(get_locale() or "en") == "en":
        return text
    return _translated(str(get_locale()), text)


@lru_cache(maxsize=8192)
def _translated(locale: str, text: str) -> str:
    said = gettext(text)
    if said != text:
        return said
    for shape, pattern in _shapes():
        found = pattern.match(text)
        if found:
            params = {name: value if AS_TYPED.match(name) else _translated(locale, value)
                      for name, value in found.groupdict().items()}
            return gettext(shape, **params)
    return text


def _shapes() -> list[tuple[str, re.Pattern]]:
    folders = current_app.config.get("BABEL_TRANSLATION_DIRECTORIES", "translations")
    return _shapes_in(str(Path(folders.split(";")[0]) / "messages.pot"))


@lru_cache(maxsize=4)
def _shapes_in(template: str) -> list[tuple[str, re.Pattern]]:
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
        pieces, seen = PLACEHOLDER.split(shape), set()
        pattern = ""
        for i, piece in enumerate(pieces):
            if i % 2 == 0:
                pattern += re.escape(piece.replace("%%", "%"))
            elif piece in seen:
                pattern += f"(?P={piece})"
            else:
                seen.add(piece)
                pattern += f"(?P<{piece}>.+?)"
        fixed = len(PLACEHOLDER.sub("", shape))
        shapes.append((fixed, shape, re.compile(f"^{pattern}$", re.DOTALL)))
    shapes.sort(key=lambda item: -item[0])
    return [(shape, pattern) for _fixed, shape, pattern in shapes]
