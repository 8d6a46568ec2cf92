"""The core's messages (companion.games.messages) on a page, in the page's language: its
gettext catalogue (Flask-Babel) and Babel's numbers and lists for its locale ("Ann, Bo und Cy",
"Ann, Bo et Cy"). An English page shows a message's own English, as the API and the CLI do."""
from __future__ import annotations

from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal
from flask_babel import get_locale, get_translations

from ..games.messages import render


def core(value: Any) -> str:
    """``value`` (a message, a word of the core, or None) in the page's language."""
    locale = get_locale()
    if locale is None or locale.language == "en":
        return "" if value is None else str(value)
    return render(value, shape=(words := get_translations()).ugettext, counted=words.ungettext,
                  number=lambda n: format_decimal(n, locale=locale),
                  listing=lambda items: format_list(items, locale=locale))
