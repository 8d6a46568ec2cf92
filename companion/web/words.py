"""The core's messages on a page, in the page's language.

A message of the core (companion.games.messages) is its id and its parameters: the page looks
the id up in its gettext catalogue (Flask-Babel) and fills it with its parameters said the
same way in turn, numbers and lists written by Babel for the page's locale (format_decimal,
format_list: "Ann, Bo und Cy", "Ann, Bo et Cy"). Names as typed stay as typed. A plain text is
a word of the core with no parameters (a terrain, a captain's name): it is looked up as it is.
An English page shows the message's own English, the same words the JSON API and the CLI
answer with.
"""
from __future__ import annotations

from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal
from flask_babel import get_locale, get_translations

from ..games.messages import render


def core(value: Any) -> str:
    """``value`` (a message, a word of the core, or None) in the page's language."""
    if value is None:
        return ""
    locale = get_locale()
    if locale is None or locale.language == "en":
        return str(value)
    return render(value, shape=(words := get_translations()).ugettext, counted=words.ungettext,
                  number=lambda n: format_decimal(n, locale=locale),
                  listing=lambda items: format_list(items, locale=locale))
