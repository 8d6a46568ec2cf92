"""Checks of what a request brings: options, numbers, names, players and score sheets.

Pure. ``Option`` and ``SheetField`` declare a game's setup options and score-pad rows; the
``check_*`` and ``parse_*`` functions turn JSON or form values into clean values or raise
:class:`~companion.games.errors.RuleError` naming the field. Names: companion.games.names.
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

    def parse(self, value: Any) -> Any:
        """Turn a JSON or form value into the option's value, or raise RuleError."""
        where = f"options.{self.name}"
        if self.kind == "bool":
            return check_bool(value, where, self.label)
        if self.kind == "choice":
            if value not in self.choices:
                raise RuleError(say("%(row)s must be one of: %(choices)s.", row=self.label,
                                    choices=", ".join(map(str, self.choices))), where)
            return value
        if self.kind == "int":
            return check_int(value, where, self.label, self.minimum, self.maximum)
        raise RuleError(say("Option %(key)s cannot be set.", key=self.name), where)


def parse_options(specs: Sequence[Option], options: Any, *,
                  passthrough: Iterable[str] = ()) -> dict:
    """Validate ``options`` against ``specs``; fill defaults. Keys in ``passthrough`` are kept
    as they are (for structured options a game validates itself)."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("Options must be an object.", "options")
    by_name = {o.name: o for o in specs}
    allowed = set(by_name) | set(passthrough)
    for key in options:
        if key not in allowed:
            raise RuleError(say("Unknown option '%(key)s'.", key=key), f"options.{key}",
                            "unknown_field")
    out = {o.name: o.default for o in specs}
    for key, value in options.items():
        out[key] = by_name[key].parse(value) if key in by_name else value
    return out


# --------------------------------------------------------------------------- values
def check_object(value: Any, allowed: Iterable[str], where: str | None = None,
                 message: str = "The request must be a JSON object.",
                 unknown: str = say("Unknown field '%(key)s'.")) -> dict:
    """A JSON object whose keys are all in ``allowed``; the first unknown key is named in the
    words of ``unknown`` (a message with a %(key)s)."""
    if not isinstance(value, dict):
        raise RuleError(message, where)
    extra = set(value) - set(allowed)
    if extra:
        key = sorted(extra, key=str)[0]
        path = f"{where}.{key}" if where else str(key)
        raise RuleError(say(unknown, key=str(key)), path, "unknown_field")
    return value


def check_int(value: Any, field: str, label: str | None = None,
              minimum: int = 0, maximum: int = MAX_NUMBER) -> int:
    """An integer within [minimum, maximum]; numeric strings from forms are accepted."""
    label = label or field
    if isinstance(value, str) and is_whole_number_text(value):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise RuleError(say("%(row)s must be a whole number.", row=label), field)
    if value < minimum:
        raise RuleError(say("%(row)s must be at least %(low)s.", row=label, low=minimum), field)
    if value > maximum:
        raise RuleError(say("%(row)s must be at most %(high)s.", row=label, high=maximum), field)
    return value


def check_delta(value: Any, field: str, label: str | None = None,
                limit: int = MAX_NUMBER) -> int:
    """A number to add (a tap's +1 or -1): a whole number other than 0, at most ``limit``
    either way."""
    if isinstance(value, str) and is_whole_number_text(value):
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():    # 2.0 is 2, as in check_int
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value == 0 or abs(value) > limit:
        raise RuleError(say("%(row)s: add a whole number other than 0 (at most %(count)s either "
                            "way).", row=label or field, count=limit), field)
    return value


def is_whole_number_text(text: str) -> bool:
    """"12" or "-3" in ASCII digits (str.isdigit also accepts "²", which int() refuses)."""
    digits = text.strip().removeprefix("-")
    return 0 < len(digits) < 16 and digits.isascii() and digits.isdigit()


def check_bool(value: Any, field: str, label: str | None = None) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "on", "1", "yes"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "off", "0", "no", ""):
        return False
    raise RuleError(say("%(row)s must be true or false.", row=label or field), field)


def player_of(value: Any, players: Iterable[str], field: str, message: str | None = None) -> str:
    """A player of this play named in an event: a name that is not text is bad input (400);
    a text that names nobody at this table breaks a rule of the play, which a schema of
    shapes cannot know (422 unknown_player). ``message`` says it in the handler's words."""
    if not isinstance(value, str):
        raise RuleError("Pick a player of this play.", field)
    if value not in players:
        raise RuleError(message or say("There is no player called '%(name)s' in this play.",
                                       name=value), field, "unknown_player", 422)
    return value


def check_players(names: Any, minimum: int, maximum: int, field: str = "players") -> list[str]:
    """Seat-ordered, distinct player names; a wrong count is a 422."""
    if not isinstance(names, list):
        raise RuleError("Players must be a list of names in seat order.", field)
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

    def key_label(self, key: str) -> str:
        return dict(self.key_labels).get(key) or key

    def __post_init__(self) -> None:
        said(self, "label", "help", "when_label")

    def empty(self) -> Any:
        return {"int": 0, "bool": False, "list": [], "counts": {}, "choice": None,
                "text": ""}[self.kind]

    def settle(self, value: Any, where: str) -> Any:
        """A value of the row's declared type as the sheet keeps it (a row of choices keeps
        counts per kind as its list)."""
        return value

    def parse(self, value: Any, where: str) -> Any:
        if self.kind == "int":
            return check_int(value, where, self.label, self.minimum, self.maximum)
        if self.kind == "bool":
            return check_bool(value, where, self.label)
        if self.kind == "list":
            if not isinstance(value, list):
                raise RuleError(say("%(row)s must be a list of numbers.", row=self.label), where)
            if len(value) > self.max_items:
                raise RuleError(say("%(row)s can hold at most %(count)s entries.", row=self.label,
                                    count=self.max_items), where)
            return [check_int(v, f"{where}[{i}]", self.label, self.minimum, self.maximum)
                    for i, v in enumerate(value)]
        if self.kind == "counts":
            if not isinstance(value, dict):
                raise RuleError(say("%(row)s must be an object of counts.", row=self.label),
                                where)
            out = {}
            for key, count in value.items():
                if self.keys and key not in self.keys:
                    raise RuleError(unknown_kind(self.label, key), f"{where}.{key}",
                                    "unknown_field")
                if not self.keys and (not isinstance(key, str) or not key or len(key) > MAX_NAME):
                    raise RuleError(say("%(row)s: each kind needs a short name.", row=self.label),
                                    where)
                out[key] = check_int(count, f"{where}.{key}", self.label, self.minimum,
                                     self.maximum)
            return out
        if self.kind == "choice":
            if value in (None, ""):
                return None
            if self.choices and value not in self.choices:
                raise RuleError(say("%(row)s must be one of: %(choices)s.", row=self.label,
                                    choices=", ".join(self.choices)), where)
            if not isinstance(value, str) or len(value) > MAX_NAME:
                raise RuleError(say("%(row)s must be a short name.", row=self.label), where)
            return value
        if self.kind == "text":
            if not isinstance(value, str) or len(value) > 500:
                raise RuleError(say("%(row)s must be a text of at most 500 characters.",
                                    row=self.label), where)
            return value
        raise RuleError(say("%(row)s cannot be set.", row=self.label), where)


def unknown_kind(label: str, key: Any) -> Message:
    """A kind a counts row does not have ("Delivered livestock: unknown kind 'yak'.")."""
    return say("%(row)s: unknown kind '%(key)s'.", row=label, key=str(key))


def said(spec: Any, *names: str) -> None:
    """A declaration's words as messages (written as say("...") where declared, so that
    `make i18n` finds them; a plain text is made one), so a sentence that names them says
    them in the reader's language too."""
    for name in names:
        value = getattr(spec, name)
        if isinstance(value, str) and not isinstance(value, Message):
            object.__setattr__(spec, name, Message(value))


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


def parse_sheet(fields: Sequence[SheetField], sheet: Any, options: dict, where: str,
                *, fill: bool = True) -> dict:
    """Validate one player's sheet. Unknown fields are 400; missing ones count as empty
    (``fill``) or are left out (a partial update)."""
    if sheet is None:
        sheet = {}
    if not isinstance(sheet, dict):
        raise RuleError("A sheet must be an object of fields.", where)
    by_name = {f.name: f for f in active_fields(fields, options)}
    refuse_idle_rows(fields, options, sheet, where)
    for key in sheet:
        if key not in by_name:
            raise RuleError(say("Unknown score-sheet field '%(key)s'.", key=str(key)),
                            f"{where}.{key}", "unknown_field")
    out = {}
    for name, spec in by_name.items():
        if name in sheet:
            out[name] = spec.parse(sheet[name], f"{where}.{name}")
        elif fill:
            out[name] = spec.empty()
    return out


def parse_score_players(body: Any, fields: Sequence[SheetField], options: dict,
                        minimum: int, maximum: int) -> list[dict]:
    """The ``players`` of a scoring request: [{"name", "sheet"}] with sheets validated."""
    if not isinstance(body, dict):
        raise RuleError("The request must be a JSON object.", None)
    players = body.get("players")
    if not isinstance(players, list):
        raise RuleError("players must be a list of {name, sheet} in seat order.", "players")
    names = check_players([p.get("name") if isinstance(p, dict) else None for p in players],
                          minimum, maximum)
    out = []
    for i, (name, entry) in enumerate(zip(names, players, strict=True)):
        extra = set(entry) - {"name", "sheet"}
        if extra:
            key = sorted(extra)[0]
            raise RuleError(say("Unknown field '%(key)s'.", key=str(key)), f"players[{i}].{key}",
                            "unknown_field")
        out.append({"name": name,
                    "sheet": parse_sheet(fields, entry.get("sheet"), options,
                                         f"players[{i}].sheet")})
    return out
