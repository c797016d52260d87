"""ParsedCommand + catalogue -> Command: which verb, which object, which values.

Anything the catalogue does not allow is a syntax error in runmqsc's sense
(AMQ8405I), quoting the command up to the offending keyword or value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from mqsh.language.catalogue import INTEGER, OBJECT_NAME, AttributeValueError, Catalogue, ObjectSpec, VerbSpec
from mqsh.language.parser import Item, ParsedCommand, ParseError, Value, WhereClause, parse

WHERE_OPERATORS = ("LT", "GT", "EQ", "NE", "LE", "GE", "LK", "NL", "CT", "EX", "CTG", "EXG")


class MqscSyntaxError(Exception):
    """runmqsc's AMQ8405I: the segment to quote, and whose usage to show."""

    def __init__(
        self, text: str, end: int, verb: str | None = None, target: str | None = None, reason: str = ""
    ):
        super().__init__(reason or text[:end])
        self.text = text
        self.end = end
        self.verb = verb  # canonical verb, None when the verb itself is unknown
        self.target = target
        self.reason = reason

    @property
    def segment(self) -> str:
        return self.text[: self.end]


SECOND_WORD = re.compile(r"\s*[A-Za-z]\w*\s+([A-Za-z]\w*)")


@dataclass
class Command:
    text: str
    verb: str
    target: str | None = None
    name: str | None = None
    name_quoted: bool = False
    params: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  # every name of a list (RECOVER CFSTRUCT(APP1,APP2))
    selectors: list[str] = field(default_factory=list)
    where: WhereClause | None = None
    # The verb and object type as written, upper case ("DIS QL"): z/OS's replies name the command so.
    typed: str = ""

    def flag(self, name: str) -> bool:
        return bool(self.params.get(name, False))


def _names_of(item: Item, obj: ObjectSpec, text: str, verb: VerbSpec) -> list[tuple[str, bool]]:
    """The name, or the names where the verb takes a list of them."""
    values: tuple[Value, ...] = item.values or ()
    if len(values) > 1 and obj.name in verb.name_lists:
        return [_name_of(replace(item, values=(value,)), obj, text, verb) for value in values]
    return [_name_of(item, obj, text, verb)]


def _name_of(item: Item, obj: ObjectSpec, text: str, verb_spec: VerbSpec) -> tuple[str, bool]:
    verb = verb_spec.name
    if not item.values or len(item.values) != 1 or not item.values[0].text.strip():
        raise MqscSyntaxError(text, item.end, verb, obj.name, "a name is required")
    value: Value = item.values[0]
    if obj.name_length is not None and len(value.text) > obj.name_length:
        raise MqscSyntaxError(text, item.end, verb, obj.name, "the name is too long")
    if obj.kind in ("object", "family"):
        # DISPLAY takes generic names: one '*' at the end; some objects take * alone for all of them.
        generic = (
            (verb == "DISPLAY" or obj.name in verb_spec.generic_names) and value.text.endswith("*")
        ) or (obj.star_is_all and value.text == "*")
        name = value.text[:-1] if generic else value.text
        if not OBJECT_NAME.match(name):
            raise MqscSyntaxError(
                text, item.end, verb, obj.name, "the name has a character MQ does not allow"
            )
    return value.text, value.quoted


def _variant_key(obj: ObjectSpec, items: list[Item], catalogue: Catalogue) -> str | None:
    """The discriminator value given in the command (CHLTYPE(SDR) -> 'SDR')."""
    if not obj.discriminator:
        return None
    for item in items:
        if item.keyword == obj.discriminator and item.values:
            return item.values[0].text.upper()
    return None


def first_keyword(verb: VerbSpec, obj: ObjectSpec) -> str | None:
    """The keyword that must come straight after the object's name, if any: MQ wants CHLTYPE
    immediately after the channel name on DEFINE and ALTER. Completion offers it alone there."""
    if obj.discriminator_first and verb.name in ("DEFINE", "ALTER"):
        return obj.discriminator
    return None


def allowed_keywords(verb: VerbSpec, obj: ObjectSpec, variant_key: str | None) -> set[str]:
    """Keywords VERB OBJECT may take; with a variant (CHLTYPE(SDR)) only that variant's."""
    allowed = set(verb.params_for(obj.name))
    if verb.attributes == "settable":
        if variant_key is not None and variant_key in obj.variants:
            allowed |= obj.variants[variant_key].settable
        else:
            for variant in obj.variants.values():
                allowed |= variant.settable
        if obj.discriminator:
            allowed.add(obj.discriminator)
    elif verb.attributes == "selectors":
        allowed |= set(obj.all_attributes()) | set(obj.groups) | set(obj.selectable)
    return allowed


def _check_where(where: WhereClause, obj: ObjectSpec, catalogue: Catalogue, text: str, verb: str) -> None:
    keyword = catalogue.canonical(where.keyword)
    if not obj.filters_on(keyword) or where.operator not in WHERE_OPERATORS:
        raise MqscSyntaxError(text, where.end, verb, obj.name, "not a valid filter")


COMPARISONS = ("LT", "GT", "EQ", "NE", "LE", "GE")
LIST_OPERATORS = ("CT", "EX", "CTG", "EXG")  # a list attribute holds, or does not hold, an item
GENERIC_OPERATORS = ("LK", "NL", "CTG", "EXG")  # the value is generic: ABC*


def filter_misfit(where: WhereClause, obj: ObjectSpec, catalogue: Catalogue) -> str | None:
    """Why a filter's operator or value does not fit its keyword (None when it does), by the rules of
    IBM's DISPLAY pages: an explicit value takes LT GT EQ NE LE GE, but one of an attribute's set of
    values only EQ or NE (YES or NO for a flag); an item of a list takes CT or EX, a generic one CTG
    or EXG. Integers compare with integers."""
    spec = catalogue.attribute(catalogue.canonical(where.keyword), obj)
    if spec is None:
        return None  # a z/OS selector the model has no definition of: nothing to hold the value to
    operator, text = where.operator, where.value.text
    generic = text.endswith("*")
    if spec.list:
        if operator not in LIST_OPERATORS:
            return f"{operator} does not apply to a list"
        if generic and operator not in GENERIC_OPERATORS:
            return "a generic item takes CTG or EXG"
        if spec.type == "keyword" and not generic and text.upper() not in spec.values:
            return f"{text} is not one of {', '.join(spec.values)}"
        return None
    if operator in LIST_OPERATORS:
        return f"{operator} applies only to a list"
    if spec.type == "flag":
        if operator not in ("EQ", "NE") or text.upper() not in ("YES", "NO"):
            return "a flag is compared EQ or NE with YES or NO"
        return None
    if spec.type == "keyword" or (spec.type == "integer" and text.upper() in spec.values):
        if operator not in ("EQ", "NE"):
            return "one of a set of values is compared EQ or NE"
        if spec.values and text.upper() not in spec.values:
            return f"{text} is not one of {', '.join(spec.values)}"
        return None
    if spec.type == "integer" and (operator not in COMPARISONS or not INTEGER.match(text)):
        return "an integer is compared with an integer"
    # A string takes every operator but the list ones: LK and NL read a trailing * as generic
    # (without one they compare the whole value), the others compare the value as given.
    return None


def validate(parsed: ParsedCommand, catalogue: Catalogue) -> Command:
    text = parsed.text
    verb = catalogue.verb(parsed.verb)
    if verb is None:
        raise MqscSyntaxError(text, parsed.verb_end, None, None, "unknown verb")
    items = list(parsed.items)
    command = Command(text, verb.name, typed=parsed.verb)
    if not items:
        if verb.requires_target:
            raise MqscSyntaxError(text, len(text), verb.name, None, "an object type is required")
        return command
    first = items.pop(0)
    obj = catalogue.object(first.keyword)
    if obj is None or obj.name not in verb.targets:
        raise MqscSyntaxError(text, first.keyword_end, verb.name, None, "not a valid object type here")
    command.target = obj.name
    command.typed = f"{parsed.verb} {first.keyword}"
    if obj.takes_name and not (obj.name_optional and first.values is None and not verb.names_object):
        names = _names_of(first, obj, text, verb)
        command.name, command.name_quoted = names[0]
        command.names = [name for name, _quoted in names]
    elif not obj.takes_name and first.values is not None:
        raise MqscSyntaxError(text, first.end, verb.name, obj.name, f"{obj.name} takes no name")

    leading = first_keyword(verb, obj)
    if leading is not None and (not items or catalogue.canonical(items[0].keyword) != leading):
        end = items[0].end if items else len(text)
        raise MqscSyntaxError(text, end, verb.name, obj.name, f"{leading} must follow the name")
    allowed = allowed_keywords(verb, obj, _variant_key(obj, items, catalogue))
    for item in items:
        keyword = catalogue.canonical(item.keyword)  # TARGQ -> TARGET
        value_given = item.values is not None
        positive = catalogue.positive_of(keyword)
        if positive and positive in allowed and not value_given:
            name, value = positive, False
        elif keyword in allowed:
            name = keyword
            spec = catalogue.attribute(keyword, obj, verb)
            if (
                verb.attributes == "selectors"
                and not value_given
                and keyword not in verb.params_for(obj.name)
            ):
                if keyword in command.selectors:
                    raise MqscSyntaxError(text, item.keyword_end, verb.name, obj.name, "repeated")
                command.selectors.append(keyword)
                continue
            if spec is None:
                raise MqscSyntaxError(text, item.keyword_end, verb.name, obj.name, f"{keyword} is not known")
            try:
                value = spec.parse(item.values)
            except AttributeValueError as error:
                raise MqscSyntaxError(text, item.end, verb.name, obj.name, str(error)) from None
        else:
            raise MqscSyntaxError(text, item.keyword_end, verb.name, obj.name, f"{keyword} is not valid here")
        if name in command.params:
            raise MqscSyntaxError(text, item.end, verb.name, obj.name, f"{name} is repeated")
        command.params[name] = value
    for name in verb.required_for(obj.name):
        if name not in command.params:
            raise MqscSyntaxError(text, len(text.rstrip()), verb.name, obj.name, f"{name} is required")
    one_of = verb.one_of.get(obj.name, ())
    if one_of and sum(name in command.params for name in one_of) != 1:
        raise MqscSyntaxError(
            text, len(text.rstrip()), verb.name, obj.name, f"one of {', '.join(one_of)} is required"
        )
    if parsed.where is not None:
        if verb.attributes != "selectors":
            raise MqscSyntaxError(text, parsed.where.end, verb.name, obj.name, "WHERE is only for DISPLAY")
        _check_where(parsed.where, obj, catalogue, text, verb.name)
        command.where = parsed.where
    return command


def parse_command(text: str, catalogue: Catalogue) -> Command:
    """Text of one joined command -> Command, or MqscSyntaxError."""
    try:
        parsed = parse(text)
    except ParseError as error:
        verb = catalogue.verb(error.verb) if error.verb else None
        target = _target_named(text, verb, catalogue) if verb else None
        raise MqscSyntaxError(text, error.end, verb.name if verb else None, target, "syntax") from None
    return validate(parsed, catalogue)


def _target_named(text: str, verb: VerbSpec, catalogue: Catalogue) -> str | None:
    """The object type a command that does not parse names after its verb, if the verb takes it:
    its usage is then the object's, as runmqsc's is."""
    second = SECOND_WORD.match(text)
    obj = catalogue.object(second[1]) if second else None
    return obj.name if obj is not None and obj.name in verb.targets else None
