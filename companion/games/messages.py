"""Messages are data: what the rules core says to players is a message id and its parameters.

The id is the English text with ``%(name)s`` placeholders (also the id German and French are
looked up by: ``make i18n`` extracts the first argument of every ``say(...)``). A parameter is

- a ``str``: a name or code as typed, shown as it is (a player's name, an island's name);
- a ``Message``: words of the core, said in the reader's language in turn;
- an ``int`` or ``float``: a number, written the reader's way;
- a ``list`` or ``tuple`` of these: "Ann, Bo and Cy", joined the reader's way.

A ``Message`` is also the ``str`` of its English text, so the JSON API, the CLI and code that
compares or searches a sentence keep working with the English. Only a page says it in another
language, from the id and the parameters (``render`` with the page's catalogue and Babel's
list and number formats): a finished sentence is never parsed back. Where a message is kept
(snapshots, a play's initial state, backups), ``to_data`` writes its id and parameters and
``from_data`` reads them back. A counted message (``say_n``) also keeps its plural's shape.

Pure: standard library only.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from gettext import NullTranslations
from typing import Any

TAG = "$message"
CONTEXT = "\x04"     # between a message's context and its shape (gettext's own separator)
ENGLISH = NullTranslations().ngettext    # the singular for 1, else the plural


class Message(str):
    """A sentence for players: ``str(message)`` is its English text, ``id`` the English shape
    it is said from and ``params`` what fills the shape's placeholders."""

    id: str
    params: dict[str, Any]
    plural: str | None              # a counted message's plural shape (say_n), else None

    def __new__(cls, id: str, params: Mapping[str, Any] | None = None, plural=None) -> Message:
        id, params = str(id), dict(params) if params else {}
        self = super().__new__(cls, _fill(id, params, plural))
        self.id, self.params, self.plural = id, params, plural
        return self

    # immutable: copies are the message itself; pickled (worker processes) by id and params
    def __copy__(self) -> Message:
        return self

    def __deepcopy__(self, memo: dict) -> Message:
        return self

    def __reduce__(self):
        return Message, (self.id, self.params, self.plural)

    def __repr__(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        head = f"say_n({self.id!r}, {self.plural!r}" if self.plural else f"say({self.id!r}"
        return f"{head}{params})"


def say(shape: str, **params: Any) -> Message:
    """The message ``shape`` filled with ``params`` (write ``shape`` as one string literal, so
    ``make i18n`` extracts it)."""
    return Message(shape, params)


def say_in(context: str, shape: str, **params: Any) -> Message:
    """A message whose shape alone could mean several things ("%(player)s to %(other_name)s":
    a draft pass), told apart by ``context`` as gettext's pgettext does: the id is
    ``context + "\\x04" + shape``, the English the shape's."""
    return Message(f"{context}{CONTEXT}{shape}", params)


def say_n(singular: str, plural: str, count: Any, **params: Any) -> Message:
    """A message said by its parameter "count" as ngettext says it: "%(count)s recruit" for 1,
    else "%(count)s recruits" in English; a page takes its language's forms (French 0: one)."""
    return Message(singular, {"count": count, **params}, plural)


# --------------------------------------------------------------------------- composed messages
def join_names(names: Iterable[Any]) -> Message:
    """"Ann, Bo and Cy": a list the reader's language joins (German "und", French "et")."""
    return Message("%(names)s", {"names": list(names)})


def known_word(name: Any, words: Iterable[Message]) -> Any:
    """``name`` as one of the game's own ``words`` when it is one (ignoring case: "treasure" is
    the printed Treasure, said in the reader's language), else as typed (a name from the box
    data)."""
    folded = name.casefold() if isinstance(name, str) else None
    return next((w for w in words if w.casefold() == folded), name)


def series(items: Sequence[Any], separator: str = "; ") -> Message:
    """Items one after another with ``separator`` (``"; "``, ``", "`` or ``" "``: sentences),
    each item said in turn: "Gold +3; Silver -1". The separators are messages of their own,
    so a language may space them its way (French "a ; b")."""
    if separator not in PAIRS:
        raise ValueError(f"no message joins items with {separator!r}")
    items = list(items)
    if not items:
        return Message("")
    said = items[-1]
    if not isinstance(said, Message):
        said = Message("%(item)s", {"item": said})
    for item in reversed(items[:-1]):
        said = Message(PAIRS[separator].id, {"head": item, "tail": said})
    return said


# --------------------------------------------------------------------------- rendering
def english_list(items: Sequence[str]) -> str:
    """The English of a list: "Ann", "Ann and Bo", "Ann, Bo and Cy" (no serial comma, as the
    API has always said it)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def render(value: Any, shape: Callable[[str], str] = str, number: Callable[[Any], str] = str,
           listing: Callable[[list[str]], str] = english_list, counted=ENGLISH) -> str:
    """``value`` in words (by default English): ``shape(id)`` is a message id in the reader's
    language (``counted`` a counted one's, as ngettext), ``number`` writes a number, ``listing``
    joins a list. A plain ``str`` is a word of the core's (a terrain): looked up as an id."""
    if value is None or type(value) is str:
        return shape(value) if value else ""
    return _said(value, (shape, number, listing, counted))


def _said(value: Any, how: tuple) -> str:
    """A message, or a parameter of one (a name as typed), in words as ``how`` says them."""
    if isinstance(value, Message):
        return _fill(value.id, value.params, value.plural, how)
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return how[1](value)
    if isinstance(value, (list, tuple)):
        return how[2]([_said(v, how) for v in value])
    return str(value)


def _fill(id: str, params: Mapping[str, Any], plural: str | None = None,
          how: tuple = (str, str, english_list, ENGLISH)) -> str:
    """Message ``id`` with ``params`` said as ``render`` says them (by default in English)."""
    n, shape, counted = params.get("count"), how[0], how[3]
    said = counted(id, plural, n) if plural else shape(id).rpartition(CONTEXT)[2] if id else ""
    if not params:
        return said
    params = {k: _said(v, how) for k, v in params.items()}
    try:
        return said % params
    except (KeyError, TypeError, ValueError):   # a translation that lost a placeholder
        return (ENGLISH(id, plural, n) if plural else id.rpartition(CONTEXT)[2]) % params


# the joints of a series (made once _fill, which a message is made with, is defined)
PAIRS = {"; ": say("%(head)s; %(tail)s"), ", ": say("%(head)s, %(tail)s"),
         " ": say("%(head)s %(tail)s")}


# --------------------------------------------------------------------------- keeping
def to_data(value: Any) -> Any:
    """``value`` (a state, a score, any JSON-like data) with every message as its id and
    parameters: ``{"$message": id, "params": {...}}``, for JSON that keeps the message. The
    value itself is left as it is."""
    kind = type(value)
    if kind is Message:
        if not value.params:
            return {TAG: value.id}
        kept = {"plural": value.plural} if value.plural else {}
        return {TAG: value.id, **kept, "params": {k: to_data(v) for k, v in value.params.items()}}
    if kind is dict:
        return {k: to_data(v) if type(v) in CONTAINERS else v for k, v in value.items()}
    if kind is list or kind is tuple:
        return [to_data(v) if type(v) in CONTAINERS else v for v in value]
    return value


def from_data(value: Any) -> Any:
    """What ``to_data`` wrote, with its messages back; the lists and objects of ``value`` are
    reused (it is fresh from a JSON decoder). Data kept before messages were data holds their
    English as plain text, which stays plain text."""
    kind = type(value)
    if kind is dict and TAG in value and is_message_data(value):
        return Message(value[TAG], {k: from_data(v) for k, v in (value.get("params") or {})
                                    .items()}, value.get("plural"))
    if kind is dict or kind is list:
        for k, v in value.items() if kind is dict else enumerate(value):
            if type(v) is dict or type(v) is list:
                value[k] = from_data(v)
    return value


CONTAINERS = frozenset({Message, dict, list, tuple})


def is_message_data(value: dict) -> bool:
    return (isinstance(value.get(TAG), str) and set(value) <= {TAG, "params", "plural"}
            and type(value.get("params", {})) is dict and type(value.get("plural", "")) is str)
