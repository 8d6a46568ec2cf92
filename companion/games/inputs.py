"""What a game declares of its inputs: setup options (``Option``) and score-pad rows
(``SheetField``), from which companion.games.bodies and requests build the declared request
bodies that check their shape; and the rules about players' names that no declaration can say
(a 422 each).

Pure. Names: companion.games.names.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RuleError
from .messages import Message, say
from .names import MAX_NAME, check_name, normalise_name, refuse_look_alikes  # noqa: F401

MAX_NUMBER = 10_000


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class Option:
    """A setup option of a game. kind: "bool", "choice" or "int"."""
    name: str
    label: str
    kind: str = "bool"
    default: Any = False
    choices: tuple = ()
    minimum: int = 0
    maximum: int = MAX_NUMBER
    help: str = ""
    choice_labels: tuple = ()     # (choice, words for people) pairs; else the choice itself

    def __post_init__(self) -> None:
        said(self, "label", "help")

    def choice_label(self, choice: Any) -> str:
        return dict(self.choice_labels).get(choice) or str(choice).replace("_", " ")

    def describe(self) -> dict:
        out = {"type": self.kind, "default": self.default, "label": self.label}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.kind == "int":
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        return out


# --------------------------------------------------------------------------- values
def is_whole_number_text(text: str) -> bool:
    """"12" or "-3" in ASCII digits (str.isdigit also accepts "²", which int() refuses), as
    int() reads it (strip() also removes "\x1c" to "\x1f", which int() does not)."""
    digits = text.strip().removeprefix("-")
    if not (0 < len(digits) < 16 and digits.isascii() and digits.isdigit()):
        return False
    try:
        return int(text) is not None
    except ValueError:
        return False


def player_of(value: str, players: Iterable[str], field: str, message: str | None = None) -> str:
    """A player of this play named in an event (its declaration checked the text): one who is
    not at this table breaks a rule of the play, which a schema of shapes cannot know (422
    unknown_player). ``message`` says it in the handler's words."""
    if value not in players:
        raise RuleError(message or say("There is no player called '%(name)s' in this play.",
                                       name=value), field, "unknown_player", 422)
    return value


def check_players(names: list[str], minimum: int, maximum: int, field: str = "players"
                  ) -> list[str]:
    """Seat-ordered names of the declared shape as they are kept, distinct once normalised;
    each rule a 422 (the same name twice, a wrong count)."""
    clean = [check_name(n, f"{field}[{i}]") for i, n in enumerate(names)]
    refuse_look_alikes(clean, field)
    if not minimum <= len(clean) <= maximum:
        raise RuleError(say("This game takes %(low)s to %(high)s players, not %(count)s.",
                            low=minimum, high=maximum, count=len(clean)),
                        field, "wrong_player_count", 422)
    return clean


# --------------------------------------------------------------------------- sheets
@dataclass(frozen=True)
class SheetField:
    """One row of a score pad, which drives validation and the page's inputs.

    kind: "int" (a count), "bool", "list" (a list of ints, e.g. each raided settlement's
    strength), "counts" (ints per key, e.g. livestock by type), "choice" (one of ``choices``),
    "text". ``when`` names a bool option that must be on for the field to apply.
    """
    name: str
    label: str
    kind: str = "int"
    minimum: int = 0
    maximum: int = MAX_NUMBER
    keys: tuple = ()
    choices: tuple = ()
    help: str = ""
    when: str | None = None
    max_items: int = 100
    when_label: str = ""     # the option ``when`` in the players' words (an expansion's name)
    # scored only at the game's end (the rulebook's final scoring): until it is entered, a
    # finished game's result is provisional (companion.games.ending)
    end_game: bool = False
    needed: Callable[[dict], bool] | None = None   # an end-game row only some sheets need
    when_tied: bool = False  # a tie-break row: needed only by a player tied on total
    # (key or choice, words for people) pairs: a box per key on the page is labelled with these,
    # never with the key itself ("raid_cards" is the API's word; a person reads "2 VP per Raid
    # Card")
    key_labels: tuple = ()
    # a count of one kind as a sentence says it, signed for a change (an Undo label):
    # ``counted("horse", 1, "+")`` is "+1 horse delivered", its number agreeing in every
    # language (say_n); without it a label says the row's name, the kind's label and the count
    counted: Callable[[str, int, str], Message] | None = None

    def key_label(self, key: str) -> str:
        return dict(self.key_labels).get(key) or key

    def __post_init__(self) -> None:
        said(self, "label", "help", "when_label")

    def empty(self) -> Any:
        return {"int": 0, "bool": False, "list": [], "counts": {}, "choice": None, "choices": [],
                "text": ""}[self.kind]

    def settle(self, value: Any, where: str) -> Any:
        """A value of the row's declared type as the sheet keeps it: a row of choices keeps
        counts per kind as its list, one entry per piece, at most ``max_items`` of them (a
        rule across its kinds: 422)."""
        if self.kind != "choices" or not isinstance(value, dict):
            return value
        items = [kind for kind in self.choices for _ in range(value.get(kind, 0))]
        if len(items) > self.max_items:
            raise RuleError(say("%(row)s: the box holds at most %(count)s such "
                                "Longships.",
                                row=self.label, count=self.max_items),
                            where, "too_many_pieces", 422)
        return items


def said(spec: Any, *names: str) -> None:
    """A declaration's words are messages, written as say("...") where declared so that
    `make i18n` finds them (a sentence that names a row says it in the reader's language too):
    a plain text would reach a German page in English, so it is refused where it is declared."""
    for name in names:
        value = getattr(spec, name)
        if isinstance(value, str) and value and not isinstance(value, Message):
            raise TypeError(f"{type(spec).__name__} {spec.name}: its {name} {value!r} is "
                            f"plain text; declare it with say(...)")


def active_fields(fields: Sequence[SheetField], options: dict) -> list[SheetField]:
    return [f for f in fields if f.when is None or options.get(f.when)]


def refuse_idle_rows(fields: Sequence[SheetField], options: dict, rows: Any,
                     where: str) -> None:
    """A row of this game that an option adds (Rocks of Ruin's gold), named while the option
    is off: a rule of the game as set up, not a malformed sheet, so a 422 (api.md) like other
    expansion rules. Rows the game does not have at all are left to the caller (400)."""
    active = {f.name for f in active_fields(fields, options)}
    idle = {f.name: f for f in fields if f.name not in active}
    for key in rows if isinstance(rows, dict) else ():
        if key in idle:
            raise RuleError(say("%(row)s is scored only with %(option)s on.",
                                row=idle[key].label,
                                option=idle[key].when_label or idle[key].when),
                            f"{where}.{key}", "field_not_in_play", 422)
