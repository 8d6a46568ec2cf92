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
# for machines. It comes back as one JSON string (json.loads it): Playwright hands a returned
# array over value by value, one string at once (the 26,202 pairs of the 87 German pages of
# tests/browser/test_words_on_every_page.py: 8.2 s as an array, 2.2 s as JSON, load 12-16).
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
    return JSON.stringify(out); }"""

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
    found = ENGLISH.findall(bare := strip_names(text, lang, names))
    return text.strip() if found or key_word_in(bare, lang) else None


WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1)
def game_keys() -> frozenset:
    """The keys of the games' declarations: the fields, kinds, choices, places and options
    that the API's bodies and the games' options name ("mill", "horse", "raid_keeps")."""
    from pydantic import TypeAdapter

    from companion.games import GAMES
    from companion.plays import event_body

    found: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            found.update(node.get("properties") or {})
            found.update(v for v in [node.get("const"), *node.get("enum", [])]
                         if isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for game_id, game in GAMES.items():
        walk(TypeAdapter(event_body(game_id)).json_schema())
        for option in game.options:
            found |= {option.name, *(str(c) for c in option.choices)}
        for field in game.sheet_fields:
            found |= {field.name, *field.keys, *field.choices}
    return frozenset(found - {""})


@lru_cache(maxsize=1)
def key_words() -> frozenset:
    """Every word of the games' keys, case-folded ("raid_keeps": raid, keeps), as a page that
    showed a key in place of its words would show one."""
    return frozenset(w.casefold() for key in game_keys() for w in WORD.findall(key)
                     if len(w) > 2)


@lru_cache(maxsize=2)
def own_words(lang: str) -> frozenset:
    """The words the language's catalogue itself writes ("Gold", "Bonus", "Score"): a key
    spelt as one of those is a word of the page's language."""
    said = catalogue(lang).values()
    return frozenset(w.casefold() for text in said
                     for part in ((text,) if isinstance(text, str) else text)
                     for w in WORD.findall(part or ""))


def key_word_in(text: str, lang: str) -> str | None:
    """A word of a key of the games ("mill", "Workshop", "horse") on a page in ``lang`` whose
    catalogue never writes it: a key shown where a word of the page's language belongs."""
    if lang == "en":
        return None
    return next((w for w in WORD.findall(text) if w.casefold() in key_words()
                 and w.casefold() not in own_words(lang)), None)


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
