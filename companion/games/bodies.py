"""Request bodies declared once, as pydantic v2 types: the same declaration validates what
comes in and is the JSON Schema of the OpenAPI document (companion.web.openapi). Why pydantic
rather than msgspec is said once, in the commit that chose it (324773a: git show 324773a).

Shapes only: a rule that needs other fields, other players or the play stays in Python and is
a 422 with its code. Every type here is strict (no text for numbers, no numbers for flags):
the HTML forms turn their text into JSON values first (companion.web.forms).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial, reduce
from operator import or_
from typing import Annotated, Any, Literal

from annotated_types import MaxLen, Predicate
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    WrapValidator,
    create_model,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import PydanticCustomError
from typing_extensions import TypeAliasType

from .inputs import MAX_NAME, MAX_NUMBER, SheetField
from .messages import Message, say
from .refusals import refusal, told

# Python's whitespace (str.isspace, what strip() and split() remove) spelt out: engines
# disagree on \s, and "not blank" must mean one thing to the server and to every generator.
SPACE = "".join(f"\\u{c:04x}" for c in range(0x10000) if chr(c).isspace())
NOT_BLANK = f"[^{SPACE}]"
# the API's text rule (companion.web.jsoncheck) as far as a pattern can say it: no NUL. Every
# string and key of a declaration says it (NoTitles); NOT_BLANK_TEXT says it with "not blank"
TEXT_PATTERN = "^[^\\x00]*$"
NOT_BLANK_TEXT = f"^[^\\x00]*[^\\x00{SPACE}][^\\x00]*$"
PRINTABLE = "^[!-~]+$"      # printable ASCII, no space (a device): no NUL either
REF = "#/components/schemas/{model}"
MAX_DEVICE = 64


class Body(BaseModel):
    """A request body or a part of one: exactly these keys, each strictly its type."""
    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")

    @model_validator(mode="wrap")
    @classmethod
    def _rows(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        """A fault under a key is the row of its title (a key left out too), unless a type
        inside names it (``said``); none past a model's own keys."""
        return faulted(data, handler, lambda err: told(err, lambda e: {"row": getattr(
            cls.model_fields.get(e["loc"][0] if e["loc"] else None), "title", None)}))


def faulted(value: Any, handler: Callable[[Any], Any], said: Callable) -> Any:
    """``handler(value)``; its ValidationError as ``said`` makes it again."""
    try:
        return handler(value)
    except ValidationError as err:
        raise said(err) from None


def said(kind: Any, **ctx: Any) -> Any:
    """``kind`` whose refusals carry its title (the row's label), its longest length and
    ``ctx`` (``count`` instead, ``choices``): what a refusal says of a row is put on where it
    is declared."""
    fields = [m for m in getattr(kind, "__metadata__", ()) if isinstance(m, FieldInfo)]
    ctx = {"row": next((f.title for f in fields if f.title), None),
           "count": next((m.max_length for f in fields for m in f.metadata
                          if isinstance(m, MaxLen)), None), **ctx}
    ctx = {k: v for k, v in ctx.items() if v is not None}
    return Annotated[kind, WrapValidator(partial(
        faulted, said=lambda err: told(err, lambda fault: ctx)))] if ctx else kind


def one_of(choices: tuple) -> Any:
    """One of ``choices``, refused with them listed (pydantic's own "'a' or 'b'" is English)."""
    return said(Literal[choices], choices=", ".join(f"'{c}'" for c in choices))


def _exact(value: Any) -> Any:
    """2.0 is 2, as JSON Schema's integer says."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def whole(minimum: int = 0, maximum: int = MAX_NUMBER, title: str | None = None,
          **extra: Any) -> Any:
    return said(Annotated[int, Field(ge=minimum, le=maximum, title=title, **extra),
                          BeforeValidator(_exact)])


def refuse(message: Message, at: str | int = "") -> PydanticCustomError:
    """A shape rule between keys of one object (in its schema too), said in plain words (a
    message, carried as it is to the RuleError: companion.games.refusals); ``at``: the key
    (dotted, under the object) or the list's index to blame."""
    return PydanticCustomError("rule", "{said}", {"at": at, "said": message})


def exactly_one(*keys: str) -> dict:
    """The schema words of an object that takes exactly one of ``keys``."""
    return {"oneOf": [{"required": [key]} for key in keys]}


def one_given(model: BaseModel, *keys: str, message: Message) -> None:
    if sum(key in model.model_fields_set for key in keys) != 1:
        raise refuse(message)


def delta(limit: int, title: str | None = None) -> Any:
    """A number to add (a tap's +1 or -1): a whole number other than 0 (Predicate: 0 is false)."""
    return said(Annotated[whole(-limit, limit, title, json_schema_extra={"not": {"const": 0}}),
                          Predicate(bool)], count=limit)


def _collapsed(value: str) -> str:
    return " ".join(value.split())


def text(maximum: int, title: str | None = None, blank: bool = False,
         collapse: bool = False, **extra: Any) -> Any:
    """A text of at most ``maximum`` characters with something besides spaces in it
    (``blank``: or not); ``collapse``: kept with its spaces collapsed."""
    kind = Annotated[str, Field(max_length=maximum, title=title,
                                pattern=None if blank else NOT_BLANK_TEXT, **extra)]
    return said(Annotated[kind, AfterValidator(_collapsed)] if collapse else kind)


def worded(kind: Any, message: Message) -> Any:
    """``kind``, refused in the words of ``message`` (said to players beside the control)."""
    return Annotated[kind, WrapValidator(partial(faulted, said=lambda err: refuse(message)))]


def _none_if_blank(value: Any) -> Any:
    return None if value == "" else value


def or_blank(kind: Any) -> Any:
    """A value a form may leave empty: null or "" count as left out (None)."""
    return Annotated[kind | Literal[""] | None, AfterValidator(_none_if_blank)]


Player = said(Annotated[str, Field(min_length=1, max_length=MAX_NAME, title=say("Player"))])
def _no_newline(value: str) -> str:
    if value.endswith("\n"):      # (Python's $ matches before a last newline; JSON Schema's not)
        raise PydanticCustomError("string_pattern_mismatch", "a line end")
    return value


Device = said(Annotated[str, Field(
    min_length=1, max_length=MAX_DEVICE, pattern=PRINTABLE, description=(
        "The device (phone or client) making the change, recorded with the event; undo with a "
        "device takes back that device's last change.")), AfterValidator(_no_newline)])
Int64 = whole(-(2**63) + 1, 2**63 - 1)  # what a database's BIGINT and every JSON reader hold
Version = Annotated[Int64 | None, Field(description=(
    "The version the change was made on: a stale one is a 409 and records nothing. Absent or "
    "null: no check; such a write waits for the play's lock and never answers 409."))]
Anything = dict[str, Any] | None        # data a handler does not read


# --------------------------------------------------------------------------- score sheets
def row_type(field: SheetField) -> Any:
    """What one score-pad row takes, by its kind, from its SheetField (titled with its label)."""
    number, most = whole(field.minimum, field.maximum), field.max_items
    choice = one_of(field.choices) if field.choices else None
    kinds = {"int": number, "bool": bool, "text": text(500, blank=True),
             "list": Annotated[list[number], Field(max_length=most)],
             "counts": dict[key_type(field.keys), number],
             "choice": or_blank(choice or said(Annotated[str, Field(max_length=MAX_NAME)])),
             # one entry per item, or a count per kind
             "choices": Annotated[list[choice], Field(max_length=most)]
             | dict[choice, whole(0, most)]}
    return Annotated[kinds[field.kind], Field(title=field.label)]


def add_type(field: SheetField) -> Any | None:
    """What a tap may add to a row (``{"row": n}``, ``{"row": {"kind": n}}``), or None."""
    step = delta(MAX_NUMBER, field.label)
    if field.kind == "int":
        return step
    if field.kind in ("counts", "choices"):
        return Annotated[dict[key_type(field.keys or field.choices), step],
                         Field(min_length=1, title=field.label)]
    return None


def key_type(known: tuple) -> Any:
    """A key of a counts row: one of ``known``, or any name when the row lists none."""
    return Literal[known] if known else Annotated[str, Field(min_length=1, max_length=MAX_NAME)]


def model_of(name: str, rows: dict[str, Any], doc: str = "", base: type = Body) -> type:
    """A model of optional keys (absent: not given; ``given`` tells which were)."""
    return create_model(name, __base__=base, __doc__=doc or None,
                        **{key: (kind, None) for key, kind in rows.items()})


def given(value: Any) -> Any:
    """A checked value as plain data: a model as the keys it was given (a list, each)."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_unset=True)
    return [given(v) for v in value] if isinstance(value, list) else value


def box_data(kind: type, data: Any, rules: Callable[[dict], None] | None = None) -> dict:
    """Box data as it is kept: its declaration checked (a 400 naming the field), every key
    filled, then ``rules`` across its entries (a 422 each)."""
    clean = check(kind, data).model_dump()
    if rules is not None:
        rules(clean)
    return clean


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class On:
    """An event type of a game: the type of its data (None: not read) and what applies it
    (``apply(state, data) -> state``, data of that type)."""
    data: Any
    apply: Callable[[dict, Any], dict]
    words: str = ""
    optional: bool = False        # data may be left out (null: {})
    # the parts of the state it changes in place, copied first (None: every part that may
    # change); a function that replaces what it changes itself takes ()
    copies: tuple[str, ...] | None = None


def data_of(on: On, event: dict) -> Any:
    """An event's data as its declared type: checked already (``event["typed"]``) or now;
    data left out of an event whose data may be (null) is its empty model."""
    data = event["typed"] if "typed" in event else check(on.data or Anything,
                                                        event.get("data") or {}, "data")
    if data is None and isinstance(on.data, type) and issubclass(on.data, BaseModel):
        return on.data()
    return data


JsonValue = TypeAliasType("JsonValue", Annotated[
    None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"],
    Field(description="Any JSON value (ignored)")])


class Open(Body):
    """Keys besides the declared ones are any JSON, ignored (an export's, read back)."""
    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue]


def event_type(game_key: str, events: dict[str, On], imported: bool = False) -> Any:
    """The body of POST .../events for a play of one game: one branch per event type
    (``imported``: an export's event, its time and other keys read as any JSON)."""
    extra = {"at": (JsonValue, None)} if imported else {
        "expected_version": (Version, None), "device": (Device | None, None)}
    branches = [create_model(
        f"{'Import' if imported else 'Event'}{game_key}{kind.title().replace('_', '')}",
        __base__=Open if imported else Body, __doc__=on.words or None, type=(Literal[kind], ...),
        data=(Anything, None) if on.data is None else (on.data | None, None) if on.optional
        else (on.data, ...), **extra) for kind, on in events.items()]
    return Annotated[reduce(or_, branches), Field(discriminator="type")]


# --------------------------------------------------------------------------- checking
@cache
def adapter(kind: Any) -> TypeAdapter:
    """A model as it is declared; any other type as strictly as a Body's keys."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return TypeAdapter(kind)
    return TypeAdapter(kind, config=Body.model_config)


def check(kind: Any, value: Any, where: str = "") -> Any:
    """``value`` as ``kind``, or the RuleError (400) of its first fault, naming the field."""
    try:
        return adapter(kind).validate_python(value)
    except ValidationError as err:
        raise refusal(err, value, where) from None


class NoTitles(GenerateJsonSchema):
    """Titles only where a declaration gives one (a row's label), no defaults (a default is
    the server's business, not a value to send); the text rule in every string and in the keys
    of every object that takes keys besides its own."""

    def str_schema(self, schema) -> dict:
        return with_rule(super().str_schema(schema))

    def model_schema(self, schema) -> dict:
        out = super().model_schema(schema)
        if out.get("additionalProperties") is not False:
            out["propertyNames"] = {"pattern": TEXT_PATTERN}
        return out

    def field_title_should_be_set(self, schema) -> bool:
        return False

    def default_schema(self, schema) -> dict:
        return self.generate_inner(schema["schema"])

    def dict_schema(self, schema) -> dict:
        """Keys with a pattern as propertyNames: under patternProperties a key that does not
        match would be free, where the check refuses it."""
        out = super().dict_schema(schema)
        for pattern, values in out.pop("patternProperties", {}).items():
            out["additionalProperties"] = values
            out.setdefault("propertyNames", {})["pattern"] = pattern
        with_rule(out.setdefault("propertyNames", {}))
        return out


def with_rule(schema: dict) -> dict:
    """A string's schema with the text rule: as its pattern, or beside a pattern of its own."""
    pattern = schema.setdefault("pattern", TEXT_PATTERN)
    if pattern not in (TEXT_PATTERN, NOT_BLANK_TEXT, PRINTABLE):
        schema.setdefault("allOf", []).append({"pattern": TEXT_PATTERN})
    return schema


@cache
def schema_of(kind: Any) -> dict:
    """The JSON Schema of ``kind`` as declared: its titles are the rows' labels as messages
    (JSON writes their English)."""
    return adapter(kind).json_schema(ref_template=REF, schema_generator=NoTitles)
