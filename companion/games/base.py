"""The Game protocol and the helpers every game shares.

Pure: standard library only. Nothing here knows that a request, a database or a page exists.
A game is metadata plus pure functions:

- ``setup(players, options, rng, catalogue)`` -> dict (the ``setup`` object of the API);
- ``score(body, catalogue)`` -> dict (the scoring endpoint's response);
- play hooks used by ``companion.plays``: ``start_state``, ``apply``, ``advance``,
  ``score_body``.

Every bad input raises :class:`RuleError` with a message a person understands and the field at
fault; the web turns it into an inline message or a JSON error, the CLI into exit code 2.
"""
from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MAX_NUMBER = 10_000
MAX_NAME = 40


def say(shape: str, **params: Any) -> str:
    """English words for a player, built from a *shape*: an English text with ``%(name)s``
    placeholders that is also its message id for German and French (``make i18n`` extracts
    the first argument of every ``say(...)``: write it as one string literal). The answer is a
    plain ``str``, so JSON, snapshots and the API keep the English; a page matches the text
    back against the catalogue's shapes and says it in the player's language
    (companion.web.core_words.core). Parameters named like a player's name (``name``,
    ``names``, ``player``, ``players``, ``who``, or ending in ``_name``) stay as typed there;
    the others are translated in turn (a row's label, a card's name, another said text)."""
    return shape % params if params else shape


class RuleError(Exception):
    """Bad input or a broken rule. ``status`` is 400 for malformed input, 422 for a rule."""

    def __init__(self, message: str, field: str | None = None,
                 code: str = "invalid_input", status: int = 400,
                 fields: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code
        self.status = status
        self.fields = list(fields)

    def as_dict(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.field:
            error["field"] = self.field
        if self.fields:
            error["fields"] = self.fields
        return {"error": error}


IMPOSSIBLE = "impossible_sheet"
# Box data refusals that compare one entry with another (two cards with one id, two hexes on
# one position): no JSON Schema can say them, so the API document lists their codes.
DUPLICATE = "duplicate_entry"


def impossible(message: str, fields: Sequence[str]) -> RuleError:
    """A score sheet that cannot happen as a whole (across its fields or across players):
    a 400 whose message names the players, the fields and the rule in plain words; ``field``
    is the first field to blame and ``fields`` lists all of them."""
    fields = list(dict.fromkeys(fields))
    return RuleError(message, fields[0] if fields else None, IMPOSSIBLE, 400, fields)


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
                allowed = ", ".join(map(str, self.choices))
                raise RuleError(f"{self.label} must be one of: {allowed}.", where)
            return value
        if self.kind == "int":
            return check_int(value, where, self.label, self.minimum, self.maximum)
        raise RuleError(f"Option {self.name} cannot be set.", where)


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
            raise RuleError(f"Unknown option '{key}'.", f"options.{key}", "unknown_field")
    out = {o.name: o.default for o in specs}
    for key, value in options.items():
        out[key] = by_name[key].parse(value) if key in by_name else value
    return out


# --------------------------------------------------------------------------- values
def check_object(value: Any, allowed: Iterable[str], where: str | None = None,
                 message: str = "The request must be a JSON object.",
                 noun: str = "field") -> dict:
    """A JSON object whose keys are all in ``allowed``; the first unknown key is named."""
    if not isinstance(value, dict):
        raise RuleError(message, where)
    unknown = set(value) - set(allowed)
    if unknown:
        key = sorted(unknown, key=str)[0]
        path = f"{where}.{key}" if where else str(key)
        raise RuleError(f"Unknown {noun} '{key}'.", path, "unknown_field")
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


def normalise_name(text: str) -> str:
    """One spelling per name as people read it: NFKC (full-width 'Ａｎｎ' is 'Ann'), format
    characters removed (zero-width spaces, bidi overrides such as U+202E), spaces collapsed."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.split())


def check_name(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise RuleError("A player needs a name.", field)
    name = normalise_name(value)
    if not name:            # (only spaces or invisible format characters)
        raise RuleError("A player needs a name.", field, "blank_name")
    # as sent and as kept: padding stripped off a long text does not make it a short name
    if len(value) > MAX_NAME or len(name) > MAX_NAME:
        raise RuleError(say("A player's name can be at most %(count)s characters.",
                            count=MAX_NAME), field, "name_too_long")
    return name


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
    seen: set[str] = set()
    for i, name in enumerate(clean):
        if name.casefold() in seen:
            raise RuleError(say("Two players are called %(name)s; give each a different name.",
                                name=name), f"{field}[{i}]", "duplicate_name")
        seen.add(name.casefold())
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

    def empty(self) -> Any:
        return {"int": 0, "bool": False, "list": [], "counts": {}, "choice": None,
                "text": ""}[self.kind]

    def parse(self, value: Any, where: str) -> Any:
        if self.kind == "int":
            return check_int(value, where, self.label, self.minimum, self.maximum)
        if self.kind == "bool":
            return check_bool(value, where, self.label)
        if self.kind == "list":
            if not isinstance(value, list):
                raise RuleError(f"{self.label} must be a list of numbers.", where)
            if len(value) > self.max_items:
                raise RuleError(f"{self.label} can hold at most {self.max_items} entries.", where)
            return [check_int(v, f"{where}[{i}]", self.label, self.minimum, self.maximum)
                    for i, v in enumerate(value)]
        if self.kind == "counts":
            if not isinstance(value, dict):
                raise RuleError(f"{self.label} must be an object of counts.", where)
            out = {}
            for key, count in value.items():
                if self.keys and key not in self.keys:
                    raise RuleError(f"{self.label}: unknown kind '{key}'.", f"{where}.{key}",
                                    "unknown_field")
                if not self.keys and (not isinstance(key, str) or not key or len(key) > MAX_NAME):
                    raise RuleError(f"{self.label}: each kind needs a short name.", where)
                out[key] = check_int(count, f"{where}.{key}", self.label, self.minimum,
                                     self.maximum)
            return out
        if self.kind == "choice":
            if value in (None, ""):
                return None
            if self.choices and value not in self.choices:
                raise RuleError(f"{self.label} must be one of: {', '.join(self.choices)}.", where)
            if not isinstance(value, str) or len(value) > MAX_NAME:
                raise RuleError(f"{self.label} must be a short name.", where)
            return value
        if self.kind == "text":
            if not isinstance(value, str) or len(value) > 500:
                raise RuleError(f"{self.label} must be a text of at most 500 characters.", where)
            return value
        raise RuleError(f"{self.label} cannot be set.", where)


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
            raise RuleError(f"Unknown score-sheet field '{key}'.", f"{where}.{key}",
                            "unknown_field")
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
            raise RuleError(f"Unknown field '{key}'.", f"players[{i}].{key}", "unknown_field")
        out.append({"name": name,
                    "sheet": parse_sheet(fields, entry.get("sheet"), options,
                                         f"players[{i}].sheet")})
    return out


# --------------------------------------------------------------------------- ranking
@dataclass(frozen=True)
class Tiebreak:
    """A tie-break: ``label`` completes "most ..." (e.g. "viking deaths")."""
    label: str
    value: Callable[[dict], float]


def rank(results: list[dict], tiebreaks: Sequence[Tiebreak] = (),
         total: Callable[[dict], float] = lambda r: r["total"],
         ) -> tuple[list[dict], list[str], str | None]:
    """Rank ``results`` (each with "name" and "total") by total, then each tie-break.

    Sets ``rank`` on each result (1 for the winners; equal results share a rank; competition
    ranking 1, 1, 3). Returns (results in input order, winners' names, the tie-break sentence
    or None when no tie at the top needed deciding). ``tie_sentences`` explains every tie.
    """
    ordered = ranked_order(results, tiebreaks, total)
    if not ordered:
        return results, [], None
    winners = [r["name"] for r in results if r["rank"] == 1]
    return results, winners, tiebreak_sentence(ordered, tiebreaks, total)


def ranked_order(results: list[dict], tiebreaks: Sequence[Tiebreak],
                 total: Callable[[dict], float]) -> list[dict]:
    """The results best first, each given its ``rank``."""
    def key(r: dict) -> tuple:
        return (total(r),) + tuple(t.value(r) for t in tiebreaks)

    ordered = sorted(results, key=key, reverse=True)
    for i, r in enumerate(ordered):
        if i and key(r) == key(ordered[i - 1]):
            r["rank"] = ordered[i - 1]["rank"]
        else:
            r["rank"] = i + 1
    return ordered


def tiebreak_sentence(ordered: list[dict], tiebreaks: Sequence[Tiebreak],
                      total: Callable[[dict], float]) -> str | None:
    """How the tie for first place was decided (None when nobody tied the leader)."""
    top = [r for r in ordered if total(r) == total(ordered[0])]
    if len(top) < 2:
        return None
    return " ".join(explain_tie(top, tiebreaks, 1, number(total(top[0]))))


def tie_sentences(ordered: list[dict], tiebreaks: Sequence[Tiebreak],
                  total: Callable[[dict], float] = lambda r: r["total"]) -> list[str]:
    """One sentence (or more) for EVERY group of players on the same total, best first: what
    decided between them, or that they share the place. ``ordered`` is best first."""
    sentences, i = [], 0
    while i < len(ordered):
        group = [r for r in ordered[i:] if total(r) == total(ordered[i])]
        if len(group) > 1:
            sentences += explain_tie(group, tiebreaks, i + 1, number(total(group[0])))
        i += len(group)
    return sentences


# The tie-break sentences, whole (pages say them in the player's language by their shape, see
# say(); no two placeholders run together, so each is one shape per lead and verb). The lead is
# "Ann and Bo tied on 12" or, inside a tie a tie-break did not settle, "Bo and Cy also tied on
# 3 viking deaths"; the verb is what the most of the next tie-break did for the leaders.
TIE_DECIDED = {
    (False, "wins"): say("%(names)s tied on %(total)s; %(players)s wins with the most "
                         "%(label)s (%(value)s against %(others)s)."),
    (False, "win"): say("%(names)s tied on %(total)s; %(players)s win with the most "
                        "%(label)s (%(value)s against %(others)s)."),
    (False, "stays ahead"): say("%(names)s tied on %(total)s; %(players)s stays ahead with "
                                "the most %(label)s (%(value)s against %(others)s)."),
    (False, "stay ahead"): say("%(names)s tied on %(total)s; %(players)s stay ahead with the "
                               "most %(label)s (%(value)s against %(others)s)."),
    (False, "takes"): say("%(names)s tied on %(total)s; %(players)s takes %(place)s place "
                          "with the most %(label)s (%(value)s against %(others)s)."),
    (False, "share"): say("%(names)s tied on %(total)s; %(players)s share %(place)s place "
                          "with the most %(label)s (%(value)s against %(others)s)."),
    (True, "wins"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s wins "
                        "with the most %(label)s (%(value)s against %(others)s)."),
    (True, "win"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s win "
                       "with the most %(label)s (%(value)s against %(others)s)."),
    (True, "stays ahead"): say("%(names)s also tied on %(level)s %(level_label)s; "
                               "%(players)s stays ahead with the most %(label)s (%(value)s "
                               "against %(others)s)."),
    (True, "stay ahead"): say("%(names)s also tied on %(level)s %(level_label)s; "
                              "%(players)s stay ahead with the most %(label)s (%(value)s "
                              "against %(others)s)."),
    (True, "takes"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s "
                         "takes %(place)s place with the most %(label)s (%(value)s against "
                         "%(others)s)."),
    (True, "share"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s "
                         "share %(place)s place with the most %(label)s (%(value)s against "
                         "%(others)s)."),
}
# (also, on every tie-break, a shared win)
TIE_SHARED = {
    (False, False, True): say("%(names)s tied on %(total)s: a shared win."),
    (False, True, True): say("%(names)s tied on %(total)s and on every tie-break: a shared "
                             "win."),
    (False, False, False): say("%(names)s tied on %(total)s: they share %(place)s place."),
    (False, True, False): say("%(names)s tied on %(total)s and on every tie-break: they share "
                              "%(place)s place."),
    (True, False, True): say("%(names)s also tied on %(level)s %(level_label)s: a shared win."),
    (True, True, True): say("%(names)s also tied on %(level)s %(level_label)s and on every "
                            "other tie-break: a shared win."),
    (True, False, False): say("%(names)s also tied on %(level)s %(level_label)s: they share "
                              "%(place)s place."),
    (True, True, False): say("%(names)s also tied on %(level)s %(level_label)s and on every "
                             "other tie-break: they share %(place)s place."),
}


def explain_tie(group: list[dict], tiebreaks: Sequence[Tiebreak], place: int, total: Any,
                level: tuple[Any, str] | None = None) -> list[str]:
    """Sentences for players level on everything before ``tiebreaks``, in ranked order;
    ``place`` is the best place the group can take; ``total`` their total, ``level`` (value,
    label) the last tie-break they are also level on, inside a tie a tie-break split."""
    also = level is not None
    lead = {"names": join_names([r["name"] for r in group]), "total": total}
    if also:
        lead.update(level=level[0], level_label=level[1])
    for k, tb in enumerate(tiebreaks):
        values = [tb.value(r) for r in group]
        if len(set(values)) == 1:
            continue
        rest = tiebreaks[k + 1:]
        parts = split_by(group, tb.value)
        leaders = parts[0]
        others = ", ".join(str(number(v)) for v in values[len(leaders):])
        settled = len(leaders) == 1 or not splits(leaders, rest)
        if not settled:
            verb = "stays ahead" if len(leaders) == 1 else "stay ahead"
        elif place == 1:
            verb = "wins" if len(leaders) == 1 else "win"
        else:
            verb = "takes" if len(leaders) == 1 else "share"
        sentences = [say(TIE_DECIDED[also, verb], **lead,
                         players=join_names([r["name"] for r in leaders]),
                         place=ordinal(place), label=tb.label, value=number(values[0]),
                         others=others)]
        position = place
        for part in parts:
            if len(part) > 1 and (part is not leaders or not settled):
                sentences += explain_tie(part, rest, position, total,
                                         (number(tb.value(part[0])), tb.label))
            position += len(part)
        return sentences
    return [say(TIE_SHARED[also, bool(tiebreaks), place == 1], **lead,
                place=ordinal(place))]


def split_by(group: list[dict], value: Callable[[dict], float]) -> list[list[dict]]:
    """``group`` (already in ranked order) cut where ``value`` changes."""
    parts: list[list[dict]] = []
    for r in group:
        if parts and value(parts[-1][0]) == value(r):
            parts[-1].append(r)
        else:
            parts.append([r])
    return parts


def splits(group: list[dict], tiebreaks: Sequence[Tiebreak]) -> bool:
    return any(len({tb.value(r) for r in group}) > 1 for tb in tiebreaks)


def ordinal(n: int) -> str:
    """"2nd", "11th" (said from a shape: "2." and "2e" on German and French pages)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return say("%(n)sth", n=n)
    if n % 10 == 1:
        return say("%(n)sst", n=n)
    if n % 10 == 2:
        return say("%(n)snd", n=n)
    return say("%(n)srd", n=n)


def number(value: float) -> Any:
    return int(value) if float(value).is_integer() else value


def count_of(n: int, singular: str, plural: str | None = None) -> str:
    """"1 outpost", "3 outposts": a count with its noun in the right number."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def join_names(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class Unknowns:
    """Box values a score lacks (printed in the box, not yet entered). Scoring never stops for
    one: the row counts it as 0, is marked, and the answer asks for it in plain words."""

    def __init__(self) -> None:
        self._asked: dict[str, str] = {}

    def ask(self, key: str, question: str, answer: str = "number") -> None:
        """Ask once per key (keys that differ only in case are one question). ``answer``:
        "number" (one whole number) or "numbers" (several, in order)."""
        if not any(k.casefold() == key.casefold() for k in self._asked):
            self._asked[key] = (question, answer)

    def __bool__(self) -> bool:
        return bool(self._asked)

    def as_fields(self) -> dict:
        return {"complete": not self._asked,
                "missing": [{"key": k, "question": q, "answer": a}
                            for k, (q, a) in self._asked.items()]}


def complete_answer(response: dict) -> dict:
    """Every score answer says whether it is complete (a game without box values always is)."""
    if "error" not in response:
        response.setdefault("complete", True)
        response.setdefault("missing", [])
    return response


def score_response(results: list[dict], tiebreaks: Sequence[Tiebreak] = (),
                   unknowns: Unknowns | None = None, notes: Sequence[str] = (),
                   **extra) -> dict:
    """The common scoring response: players (name, categories, total, rank), winners, tiebreak,
    complete and missing, and ``notes``: sentences saying where the rules leave a sheet's
    values open and the answer accepted them without a check.

    ``results``: [{"name", "categories": {row: vp}, "unknown": [rows counted 0 for a missing
    box value], ...}]; any other keys are used by the tie-breaks and dropped.
    """
    for r in results:
        r["total"] = sum(r["categories"].values())
    ranked, winners, sentence = rank(results, tiebreaks)
    every_tie = tie_sentences(sorted(ranked, key=lambda r: r["rank"]), tiebreaks)
    players = [{"name": r["name"], "categories": r["categories"], "total": r["total"],
                "rank": r["rank"], **({"explanations": r["explanations"]}
                                      if r.get("explanations") else {}),
                **({"unknown": r["unknown"]} if r.get("unknown") else {})}
               for r in ranked]
    return {"players": players, "winners": winners, "tiebreak": sentence,
            "tiebreaks": every_tie, "notes": list(notes), **extra,
            **(unknowns or Unknowns()).as_fields()}


# --------------------------------------------------------------------------- randomness
def make_rng(seed: Any) -> random.Random:
    """The only source of randomness: a Random seeded by a string or an integer."""
    return random.Random(seed)


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a request that did not bring one."""
    return (rng or random.SystemRandom()).randrange(1, 2**53)


def seat_after(players: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats clockwise after ``player`` (negative: to their right)."""
    i = players.index(player)
    return players[(i + steps) % len(players)]


# --------------------------------------------------------------------------- the protocol
class Game:
    """Base for a game. Subclasses set the metadata and override what their rules need."""
    id: str = ""
    name: str = ""
    min_players: int = 1
    max_players: int = 5
    options: tuple[Option, ...] = ()
    option_passthrough: tuple[str, ...] = ()   # structured options validated by the game
    phases: tuple[str, ...] = ("play",)
    rounds: int | None = None                  # None: no fixed number of rounds
    sheet_fields: tuple[SheetField, ...] = ()
    catalogue_help: str = ""                   # what the box catalogue holds for this game
    # the game's own event types (besides sheet/advance/finish, which every game takes):
    # tests enumerate them from here, so a new type is fuzzed the day it is added
    event_types: tuple[str, ...] = ()

    # ---- metadata
    def describe(self) -> dict:
        return {"id": self.id, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players,
                "options": {o.name: o.describe() for o in self.options}}

    def parse_options(self, options: Any) -> dict:
        return parse_options(self.options, options, passthrough=self.option_passthrough)

    def check_players(self, players: Any) -> list[str]:
        return check_players(players, self.min_players, self.max_players)

    # ---- stateless
    def setup(self, players: list[str], options: dict, rng: random.Random,
              catalogue: dict) -> dict:
        raise NotImplementedError

    def score(self, body: dict, catalogue: dict) -> dict:
        raise NotImplementedError

    # ---- box catalogue
    def empty_catalogue(self) -> dict:
        return {}

    def parse_box_value(self, key: Any, value: Any) -> Any:
        """A value a play's score asked for (``box_value`` event), checked; RuleError if the
        key is not one this game asks about."""
        raise RuleError(f"{self.name} asks for no values from the box.", "data.key",
                        "unknown_box_value")

    def box_question(self, key: str) -> str:
        """The question a box value answers, in plain words (for "answered in this play")."""
        return say("A value from the box")

    def with_box_values(self, catalogue: dict, answers: dict) -> dict:
        """The catalogue with a play's answered box values filled in (answers win)."""
        return catalogue

    def box_value_of(self, catalogue: dict, key: str) -> Any:
        """What the box data holds for a question's key, or None (offered as the answer when
        the box data learnt it after a play began)."""
        return None

    def box_questions_ahead(self, catalogue: dict) -> list[dict]:
        """Questions a play may answer before the score needs them (same shape as a score's
        ``missing``): the values the box data lacks that this game may ask for."""
        return []

    def box_needs(self, catalogue: dict, player_count: int) -> list[dict]:
        """What this game may need from the box, for the warning before a game:
        [{"what": plain words, "known": bool, "detail": plain words}]."""
        return []

    def validate_catalogue(self, data: Any) -> dict:
        """Return the cleaned catalogue or raise RuleError naming the bad entry."""
        if not isinstance(data, dict):
            raise RuleError("The catalogue must be a JSON object.", None)
        if data:   # the first entry is the one to blame
            raise RuleError(f"{self.name} keeps no box data.", str(next(iter(data))))
        return {}

    # ---- a play at the table (state is a plain dict; see companion/plays.py).
    # Each hook gets a deep copy of the state that it may change and return. They must be
    # deterministic: a play's state is a replay of its events.
    def start_state(self, state: dict) -> dict:
        """Add the game's own keys to a new play's state (e.g. ``state["table"]``).
        The box catalogue the play was created with is ``state["catalogue"]``."""
        return state

    def apply(self, state: dict, event: dict) -> dict:
        """Apply a game-specific event to a copy of the state; unknown types are 400."""
        listed = f" Events: {', '.join(self.event_types)}." if self.event_types else ""
        raise RuleError(f"{self.name} has no event '{event.get('type')}'.{listed}", "type",
                        "unknown_event")

    def advance(self, state: dict) -> dict:
        """Next phase, or the next round after the last phase; upkeep belongs here."""
        phases = self.phases
        i = phases.index(state["phase"]) if state["phase"] in phases else -1
        if i + 1 < len(phases):
            state["phase"] = phases[i + 1]
            return state
        if self.rounds is not None and state["round"] >= self.rounds:
            state["finished"] = True
            return state
        state["round"] += 1
        state["phase"] = phases[0]
        return state

    def describe_event(self, state: dict, event: dict) -> str | None:
        """The event in the game's own plain words for players ("Cecilie +1 territory"), or
        None for the common wording (companion.plays.describe_event)."""
        return None

    def inverse_event(self, event: dict) -> dict | None:
        """The game event that takes ``event`` back when later changes stand after it (a
        counter's negated ``add``), or None when it cannot be taken back out of order."""
        return None

    def score_body(self, state: dict) -> dict:
        """The scoring request for a play's current sheets (scored with
        ``score(body, state["catalogue"])``)."""
        return {"players": [{"name": p["name"], "sheet": state["sheets"].get(p["name"], {})}
                            for p in state["players"]],
                "options": state["options"]}

    def check_whole_sheets(self, state: dict) -> None:
        """Refuse a play's sheets that cannot happen as a whole: the scoring path's own
        checks, so a live play and the scoring endpoint refuse the same sheets. Only a
        RuleError with code ``impossible_sheet`` is raised; other scoring errors (a box
        value not entered yet) are the score's business, not the sheet's."""
        try:
            self.score(self.score_body(state), state.get("catalogue") or {})
        except RuleError as err:
            if err.code == IMPOSSIBLE:
                raise

    def sheet_fields_for(self, options: dict) -> list[SheetField]:
        return active_fields(self.sheet_fields, options)
