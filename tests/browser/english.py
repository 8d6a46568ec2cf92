"""English left on a German or French page: what a person reads (text, and the words a screen
reader says: aria-label, title, alt, placeholder), with the words that stay English in every
language taken out first (players' names, the games sold under their English names)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]

# What a page shows a person, with where it stands. Text marked as another language (the
# language switcher's "English") is that language's by design; code, JSON and addresses are
# for machines.
TEXTS = """(lang) => {
    const out = [];
    const other = (el) => { const marked = el.closest("[lang]");
        return marked && marked.getAttribute("lang") !== lang; };
    const skip = "script, noscript, style, textarea, pre, code, kbd, .link, svg title";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const el = walker.currentNode.parentElement, text = walker.currentNode.data.trim();
        if (text && !el.closest(skip) && !other(el)) out.push([text, el.tagName.toLowerCase()]);
    }
    const named = "[aria-label], [title], [alt], [placeholder]";
    for (const el of document.body.querySelectorAll(named)) {
        if (el.closest(skip) || other(el)) continue;
        for (const name of ["aria-label", "title", "alt", "placeholder"]) {
            const text = (el.getAttribute(name) || "").trim();
            if (text) out.push([text, `${el.tagName.toLowerCase()}@${name}`]);
        }
    }
    return out; }"""

# English words that German and French never use (French "or" is gold, "on" a pronoun and
# "score" a French word; German "in", "so", "was" and "will" are German: none of those is here)
ENGLISH = re.compile(r"\b(the|and|of|with|your|you|for|each|from|this|that|these|is|are|not|"
                     r"were|which|when|there|what|how|has|have|been|yet|nobody|it|its|"
                     r"turns?|rounds?|players?|cards?|VP|left|only|none|here|"
                     r"tap|enter|missing|still|every|than|more|less|by|to|but|expansion|side|"
                     r"variant|own|can|who|one|two|three|first|last|next)\b", re.I)
# Names that stay English on every page: the games sold or kept under their English names (the
# catalogues say which), the app's own name, an expansion's.
SAME_NAMES = ("North Sea Companion", "Rocks of Ruin", "Rocks-of-Ruin", "BG Stats")
# Single words spelt the same in English and in German or French
SAME_WORDS = {"de": {"Art", "Gold", "Set", "Crew", "Draft", "Export", "Start", "Name",
                     "Helm", "Ruin", "Total", "Status", "Bonus", "Hut", "Jarl"},
              "fr": {"Place", "Total", "Mode", "Bonus", "Vikings", "Solo", "Export", "Type",
                     "Action", "Actions", "Jarls", "Or", "Score", "Phase", "Stations"}}


@lru_cache(maxsize=2)
def catalogue(lang: str) -> dict:
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return {m.id: m.string for m in read_po(handle, locale=lang) if m.id}


@lru_cache(maxsize=2)
def kept_english(lang: str) -> tuple[str, ...]:
    """The names that stay English: a game's name that the language's catalogue keeps as it is
    (only a game's name: an English sentence "translated" as itself is English), and the fixed
    names; longest first."""
    from companion.games import GAMES

    said = catalogue(lang)
    same = [str(game.name) for game in GAMES.values() if said.get(str(game.name)) == str(game.name)]
    return tuple(sorted({*same, *SAME_NAMES}, key=len, reverse=True))


@lru_cache(maxsize=2)
def english_ids(lang: str) -> frozenset:
    """The catalogue's English words that the language says otherwise."""
    out = set()
    for mid, text in catalogue(lang).items():
        if isinstance(mid, tuple):
            mid, text = mid[0], text[0]
        if text and text != mid and "%(" not in mid and len(mid) > 2 \
                and mid not in SAME_WORDS[lang]:
            out.add(mid)
    return frozenset(out)


def english_in(text: str, lang: str, names: tuple[str, ...]) -> str | None:
    """The English in ``text`` on a page in ``lang``, or None: a template's words and the
    core's sentences alike (the core's messages are translated where they are shown). A
    catalogue entry left in English is found whole, before the names are taken out ("Rocks of
    Ruin expansion" is not the name "Rocks of Ruin"). Soft hyphens go first ("For\u00adte\u00ad
    resses" is one French word)."""
    text = text.replace("\u00ad", "")
    for bare in (text, strip_names(text, lang, names)):
        bare = bare.strip(" :·,.;()…→←↶↷?!*\u00a0")
        if bare in english_ids(lang):
            return bare
    found = ENGLISH.findall(strip_names(text, lang, names))
    return text.strip() if found else None


def strip_names(text: str, lang: str, names: tuple[str, ...]) -> str:
    for name in kept_english(lang) + tuple(names):
        text = text.replace(name, " ")
    return text


@lru_cache(maxsize=1)
def keys() -> frozenset:
    """The games' keys for their rows, kinds, choices and options, as the API spells them and
    as a template that printed one with its underscores replaced would show it."""
    from companion.games import GAMES

    found = set()
    for game in GAMES.values():
        for field in game.sheet_fields:
            found |= {field.name, *field.keys, *field.choices}
        for option in game.options:
            found |= {option.name, *(str(c) for c in option.choices)}
    return frozenset({k for k in found if "_" in k} | {k.replace("_", " ") for k in found
                                                        if "_" in k})


MARKUP = re.compile(r"<\s*/?\s*[a-zA-Z][^>]*>|&(lt|gt|amp|quot|#\d+);")


def not_words(text: str) -> str | None:
    """A key or markup shown as text ("raid cards", "<em>as shown</em>"), in any language."""
    bare = text.strip(" :·,.;()…")
    if bare in keys():
        return bare
    if MARKUP.search(text):
        return text
    return None
