"""The core's sentences with names and numbers (companion.games.base.say) on the pages in
German and French: every shape is recovered from its English, whatever words fill it."""
from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.web.core_words import AS_TYPED, LISTS, NUMBERS, NUMERIC, PLACEHOLDER, core

ROOT = Path(__file__).resolve().parents[2]


def catalogue(name: str):
    with open(ROOT / "translations" / name, "rb") as handle:
        return read_po(handle)


def sample(name: str) -> str:
    """Several words for a placeholder (numbers where the shape holds a number)."""
    if NUMERIC.match(name):
        return "12"
    if NUMBERS.match(name):
        return "7, 5, 5"
    if LISTS.match(name):
        return "+2 fjord horses, -1 amber bead"
    if AS_TYPED.match(name):
        return "Ann Marie Lee"
    return "north west harbour gate"


def said_shapes() -> list[str]:
    """Every shape the core says through say() (what make i18n extracts with keyword say)."""
    from babel.messages.extract import extract_from_dir
    found = extract_from_dir(str(ROOT / "companion"), [("**.py", "python")], {},
                             keywords={"say": None})
    return sorted({message for _f, _l, message, _c, _ctx in found
                   if isinstance(message, str) and PLACEHOLDER.search(message)})


SHAPES = said_shapes()


def test_the_shapes_are_in_the_catalogue():
    template = catalogue("messages.pot")
    assert len(SHAPES) > 20
    assert all(template.get(shape) is not None for shape in SHAPES)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_shape_is_recovered_from_its_english(app, lang):
    """A shape filled with multi-word values is said in the page's language through that
    shape (or another with the same English and the same translation): no two placeholders
    run together so that a word could belong to either."""
    translated = catalogue(f"{lang}/LC_MESSAGES/messages.po")
    wrong = []
    with app.test_request_context(headers={"Accept-Language": lang}):
        for shape in SHAPES:
            params = {name: sample(name) for name in PLACEHOLDER.findall(shape)}
            english = shape.replace("%%", "%") if not params else shape % params
            expected = translated.get(shape).string % params
            if core(english) != expected:
                wrong.append((shape, core(english), expected))
    assert not wrong, "\n".join(map(repr, wrong))
