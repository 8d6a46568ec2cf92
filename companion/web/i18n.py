"""German and French through Flask-Babel: gettext catalogues in translations/<lang>/LC_MESSAGES.

The language follows the phone (Accept-Language) until someone picks one on the page; that
choice is kept in a cookie for a year. `make i18n` extracts and updates the catalogues,
`make translations` compiles them (make run and make test depend on it); an app started without
compiled catalogues compiles them once itself, so a fresh checkout never shows a half-English page.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Flask, has_request_context, redirect, request, url_for
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l

from ..games import GAMES
from ..games.score_rows import row_name
from ..plays import PHASE_WORDS
from .security import behind_https
from .words import core

LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)

def pick_locale() -> str:
    return locale_of(request) if has_request_context() else "en"


def locale_of(req) -> str:
    """The cookie's language when someone chose one, else the best of Accept-Language (of a
    Flask request, or of a werkzeug one made in front of the app: companion/web/limit_gate.py)."""
    chosen = req.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return req.accept_languages.best_match(LANGUAGES) or "en"


def html_lang() -> str:
    return str(get_locale() or "en")


def game_name(game) -> str:
    """A game's name in the page's language (a game object or its id): the name each game
    says (its catalogue entry tells which names stay English)."""
    game = GAMES.get(game, game) if isinstance(game, str) else game
    return core(getattr(game, "name", game))


COLOUR_NAMES = {
    "red": _l("red"), "blue": _l("blue"), "green": _l("green"), "yellow": _l("yellow"),
    "purple": _l("purple"), "black": _l("black"), "white": _l("white"), "orange": _l("orange"),
}


def category_name(category: str) -> str:
    """A score table's row in the page's language (the games say their rows' names)."""
    return core(row_name(category))


def colour_name(colour: str) -> str:
    name = COLOUR_NAMES.get(colour)
    return str(name) if name is not None else colour


def rank_words(rank: int) -> str:
    """1st, 2nd, 3rd, 4th in English; 1., 2. in German; 1er, 2e in French (the catalogue's)."""
    if rank == 1:
        return gettext("1st")
    if rank == 2:
        return gettext("2nd")
    if rank == 3:
        return gettext("3rd")
    return gettext("%(rank)sth", rank=rank)


def phase_name(phase: str) -> str:
    """A game's phase in the page's language (the words an undo label names it by)."""
    return core(PHASE_WORDS.get(phase, phase))


def and_list(items, style: str = "standard") -> str:
    """Names (or any words) as a list in the page's language, by Babel's CLDR patterns:
    "Ann, Bo, and Cy", "Ann, Bo und Cy", "Ann, Bo et Cy"; one item alone, none: ""."""
    from babel.lists import format_list

    items = [str(item) for item in items or ()]
    return format_list(items, style, locale=html_lang()) if items else ""


LONG_WORD = re.compile(r"\w{8,}")


@lru_cache(maxsize=8)
def hyphenator(lang: str):
    import pyphen  # WeasyPrint's own hyphenation library (LibreOffice's dictionaries)

    return pyphen.Pyphen(lang=pyphen.language_fallback(lang) or "en")


def hyphenate(text) -> str:
    """Soft hyphens (U+00AD) in the long words of a label that sits in a narrow box, by the
    page language's hyphenation rules: "Sieg-punkt-kar-ten" may break at a syllable with a
    hyphen shown, never mid-syllable and never where the box is wide enough. (CSS
    ``hyphens: auto`` needs dictionaries the browser may not have.)"""
    words = hyphenator(html_lang())
    return LONG_WORD.sub(lambda m: words.inserted(m.group(0), hyphen="\u00ad"), str(text))


def or_list(items) -> str:
    """The same with "or": "3 or 4", "3 oder 4", "3 ou 4"."""
    return and_list(items, "or")


def duration_patterns() -> dict:
    """The duration words with {h} and {m} holes, for the page's ticking clock."""
    return {"hm": gettext("%(hours)s h %(minutes)s min", hours="{h}", minutes="{m}"),
            "m": gettext("%(minutes)s min", minutes="{m}")}


def duration(seconds) -> str:
    """'1 h 05 min', '12 min' in the page's language (an unknown length: an empty string)."""
    if seconds is None:
        return ""
    minutes = int(seconds) // 60
    hours, minutes = divmod(minutes, 60)
    if hours:
        return gettext("%(hours)s h %(minutes)s min", hours=hours, minutes=f"{minutes:02d}")
    return gettext("%(minutes)s min", minutes=minutes)


def turn_time(seconds) -> str:
    """A player's time or a turn's, to the second under an hour ('45 s', '3 min 05 s'; a
    turn is often shorter than a minute), else like ``duration``."""
    if seconds is None:
        return ""
    seconds = int(seconds)
    if seconds >= 3600:
        return duration(seconds)
    minutes, seconds = divmod(seconds, 60)
    if not minutes:
        return gettext("%(seconds)s s", seconds=seconds)
    return gettext("%(minutes)s min %(seconds)s s", minutes=minutes, seconds=f"{seconds:02d}")


def js_words() -> dict:
    """The words the page's scripts write themselves (outbox, notes beside a control, the
    screen-wake badge), in the page's language: {English: translation}; empty in English."""
    if html_lang() == "en":
        return {}
    words = {
        "1 change waiting": gettext("1 change waiting"),
        "%(n)s changes waiting": gettext("%(n)s changes waiting", n="%(n)s"),
        " · no connection": gettext(" · no connection"),
        " · sending…": gettext(" · sending…"),
        "This phone may no longer change this play (the link is view only or the play is "
        "gone).": gettext("This phone may no longer change this play (the link is view only "
                          "or the play is gone)."),
        "Your change": gettext("Your change"),
        "“%(label)s”": gettext("“%(label)s”", label="%(label)s"),
        "%(what)s was not recorded: another phone changed the play first. Check the screen, "
        "then try again if it still applies.": gettext(
            "%(what)s was not recorded: another phone changed the play first. Check the "
            "screen, then try again if it still applies.", what="%(what)s"),
        "%(what)s was not recorded.": gettext("%(what)s was not recorded.", what="%(what)s"),
        "Try again": gettext("Try again"),
        "Drop it": gettext("Drop it"),
        "OK": gettext("OK"),
        "Done: %(change)s": gettext("Done: %(change)s", change="%(change)s"),
        "Undo": gettext("Undo"),
        "Screen stays on": gettext("Screen stays on"),
        "Tap anywhere to keep the screen on": gettext("Tap anywhere to keep the screen on"),
        " (watching)": gettext(" (watching)"),
    }
    return {english: text for english, text in words.items() if text != english}


@bp.get("/language/<code>")
def choose(code):
    """Switch the language and go back where the person was (only to a page of this site)."""
    back = request.args.get("next") or ""
    parts = urlsplit(back)
    if parts.scheme or parts.netloc or not back.startswith("/") or back.startswith("//"):
        back = url_for("pages.index")
    response = redirect(back)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                            secure=behind_https())
    return response


def compile_catalogues(root: Path) -> None:
    """Compile every .po whose .mo is missing or older (what `make translations` does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in root.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source)
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as target:
            write_mo(target, catalog)
        tmp.replace(mo)


def init_i18n(app: Flask, root: Path) -> None:
    translations = root / "translations"
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(translations))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    try:
        compile_catalogues(translations)
    except OSError:
        pass  # a read-only install: `make translations` has compiled them already
    Babel(app, locale_selector=pick_locale)
    app.register_blueprint(bp)

    app.add_template_global(game_name)
    app.add_template_global(phase_name)
    app.add_template_global(colour_name)
    app.add_template_global(core)
    app.add_template_filter(core, "core")
    app.add_template_global(rank_words)
    app.add_template_global(category_name, "row_name")
    app.add_template_global(duration_patterns)
    app.add_template_global(js_words)
    app.add_template_filter(duration)
    app.add_template_filter(turn_time)
    app.add_template_filter(and_list)
    app.add_template_filter(or_list)
    app.add_template_filter(hyphenate)

    @app.context_processor
    def languages():
        return {"html_lang": html_lang(), "languages": LANGUAGES}
