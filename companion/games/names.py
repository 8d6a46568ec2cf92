"""Players' names: one spelling each as people read it, and no two that look alike.

Pure (no I/O). Unicode's own data through ICU (PyICU), the library Unicode's security
mechanisms are specified with, instead of tables of our own:

- a name is kept NFKC-normalised ("Ａｎｎ" is "Ann") with its invisible characters taken out:
  every format character (zero-width spaces, bidi overrides such as U+202E) and every
  Default_Ignorable_Code_Point (variation selectors such as U+FE0F, the combining grapheme
  joiner U+034F, the Hangul fillers U+3164 and U+115F, tags); only what draws an emoji is
  kept (a variation selector after an emoji, a zero-width joiner between two), so "Ann❤️"
  stays as typed and a name of fillers alone is blank;
- two names are the same player when their UTS #39 confusable skeletons are equal (ICU's
  SpoofChecker.getSkeleton), as written and case-folded: beside "Ann", Cyrillic "Аnn",
  Greek "Αnn", "ANN" and "Ann" with an invisible character after it are refused, so are
  "Ian" and "lan" (a sans-serif capital I is a small L), while "Ann" and "Anne" are two
  players.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu

from .errors import RuleError, say

MAX_NAME = 40
ZWJ = "\u200d"
PRESENTATION = ("\ufe0e", "\ufe0f")       # text and emoji presentation selectors


def _has(ch: str, prop) -> bool:
    return bool(icu.Char.hasBinaryProperty(ch, prop))


def invisible(ch: str) -> bool:
    """A character that draws nothing by itself: a format character or a
    Default_Ignorable_Code_Point (Unicode's list, read from ICU)."""
    return unicodedata.category(ch) == "Cf" or \
        _has(ch, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)


def _draws_emoji(text: str, i: int) -> bool:
    """Whether the invisible character at ``i`` is part of how an emoji is drawn: a
    presentation selector right after an emoji, a joiner between two pictographs."""
    ch, before = text[i], text[i - 1] if i else ""
    if ch in PRESENTATION:
        return bool(before) and _has(before, icu.UProperty.EMOJI)
    if ch == ZWJ:
        after = text[i + 1] if i + 1 < len(text) else ""
        pictograph = icu.UProperty.EXTENDED_PICTOGRAPHIC
        return bool(after) and _has(after, pictograph) and bool(before) and (
            _has(before, pictograph) or before in PRESENTATION
            or _has(before, icu.UProperty.EMOJI_MODIFIER))
    return False


def normalise_name(text: str) -> str:
    """One spelling per name as people read it: NFKC, invisible characters out (those that
    draw an emoji excepted), spaces collapsed."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for i, ch in enumerate(text)
                   if not invisible(ch) or _draws_emoji(text, i))
    return " ".join(text.split())


def check_name(value: str, field: str) -> str:
    """A name of the declared shape (text of 1 to MAX_NAME characters, not blank) as it is
    kept; what only its normalised form shows is a rule, a 422: nothing left of it but
    invisible characters, or longer than MAX_NAME once normalised (U+FDFA is 18 letters)."""
    name = normalise_name(value)
    if not name:            # (only spaces or invisible characters)
        raise RuleError("A player needs a name.", field, "blank_name", 422)
    if len(name) > MAX_NAME:
        raise RuleError(say("A player's name can be at most %(count)s characters.",
                            count=MAX_NAME), field, "name_too_long", 422)
    return name


@lru_cache(maxsize=1)
def _spoof_checker():
    return icu.SpoofChecker()


@lru_cache(maxsize=4096)
def name_keys(name: str) -> tuple[str, str, str]:
    """What a name looks like, without any invisible character: its UTS #39 skeleton as
    written, the skeleton of it case-folded ('Ian' is 'ian', not 'lan') and the skeleton
    case-folded (Greek 'ΑΝΝ' draws 'ANN', which is 'Ann' in another case). Two names with one
    key equal look alike."""
    visible = "".join(ch for ch in name if not invisible(ch))
    skeleton = _spoof_checker().getSkeleton
    drawn = skeleton(0, visible)
    return (drawn, skeleton(0, visible.casefold()), drawn.casefold())


def look_alike(one: str, other: str) -> bool:
    return any(a == b for a, b in zip(name_keys(one), name_keys(other), strict=True))


def refuse_look_alikes(names: list[str], field: str) -> None:
    """Refuse the first name that looks like an earlier one (duplicate_name: a rule across
    players, 422)."""
    for i, name in enumerate(names):
        earlier = next((n for n in names[:i] if look_alike(n, name)), None)
        if earlier is None:
            continue
        if earlier.casefold() == name.casefold():
            raise RuleError(say("Two players are called %(name)s; give each a different name.",
                                name=name), f"{field}[{i}]", "duplicate_name", 422)
        raise RuleError(say("%(name)s looks just like %(other_name)s; give each player a "
                            "name that looks different.", name=name, other_name=earlier),
                        f"{field}[{i}]", "duplicate_name", 422)
