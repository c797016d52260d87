"""Turning stored attributes into DISPLAY records: selection, generic names, WHERE."""

from __future__ import annotations

from typing import Any

from mqsh.language.catalogue import Catalogue, ObjectSpec
from mqsh.language.parser import WhereClause
from mqsh.language.validate import Command
from mqsh.responses import Display


def is_generic(name: str) -> bool:
    return name.endswith("*")


def name_matches(pattern: str, name: str) -> bool:
    """MQSC generic names: a trailing '*' matches any tail; otherwise an exact match."""
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def like_matches(pattern: str, text: str) -> bool:
    return name_matches(pattern, text)


def display_item(catalogue: Catalogue, obj: ObjectSpec, name: str, value: Any) -> tuple[str, Any] | None:
    """(keyword, value) for one attribute; flags become bare words (value None)."""
    spec = catalogue.attribute(name, obj)
    if spec is not None and spec.type == "flag":
        if value:
            return (name, None)
        return (spec.negative, None) if spec.negative else None
    if isinstance(value, list):
        if spec is not None and spec.type == "keyword":
            return (name, ",".join(value) or " ")  # COMPHDR(NONE), AUTHLIST(DSP,INQ): one item
        return (name, list(value))  # names (NAMES, USERLIST, exits): runmqsc lays them out on lines
    if spec is not None:
        return (name, spec.render(value))
    return (name, " " if value in (None, "") else str(value))


def chosen_attributes(command: Command, obj: ObjectSpec, variant_attributes: tuple[str, ...]) -> list[str]:
    """Which attributes a DISPLAY shows, in catalogue order.

    MQ shows ALL by default when one object is named (or the object has no
    name, as the queue manager) and no attribute is asked for; generic names
    show the summary. A group word (DISPLAY QMGR EVENT) asks for its members.
    """
    one = command.name is None or not is_generic(command.name)
    asked = command.selectors or command.where is not None
    if command.flag("ALL") or (not asked and ((one and obj.all_for_one) or obj.all_for_generic)):
        return list(variant_attributes)
    wanted = set(obj.summary) | set(command.selectors)
    for selector in command.selectors:
        if selector in obj.groups:
            wanted |= set(obj.groups[selector].members)
    if command.where is not None:
        wanted.add(command.where.keyword)
    return [name for name in variant_attributes if name in wanted]


def _number(text: str) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def where_matches(where: WhereClause, value: Any) -> bool:
    """One WHERE(keyword operator value) condition against an attribute value."""
    operator, wanted = where.operator, where.value.text
    if operator in ("CT", "EX", "CTG", "EXG"):
        items = value if isinstance(value, list) else [value]
        if operator in ("CT", "EX"):
            found = any(str(item) == wanted for item in items)
        else:
            found = any(like_matches(wanted, str(item)) for item in items)
        return found if operator in ("CT", "CTG") else not found
    if operator in ("LK", "NL"):
        found = like_matches(wanted, "" if value is None else str(value))
        return found if operator == "LK" else not found
    if isinstance(value, bool):
        value = "YES" if value else "NO"
    left, right = _number(value), _number(wanted)
    if left is None or right is None:
        left, right = ("" if value is None else str(value)).strip(), wanted.strip()
    return {
        "EQ": left == right,
        "NE": left != right,
        "LT": left < right,
        "GT": left > right,
        "LE": left <= right,
        "GE": left >= right,
    }[operator]


def build_display(
    catalogue: Catalogue,
    obj: ObjectSpec,
    command: Command,
    values: dict[str, Any],
    attributes: tuple[str, ...],
) -> Display | None:
    """The DISPLAY record for one object, or None when WHERE filters it out."""
    if command.where is not None and not where_matches(command.where, values.get(command.where.keyword)):
        return None
    header = obj.message("display")
    items = []
    for name in chosen_attributes(command, obj, attributes):
        item = display_item(catalogue, obj, name, values.get(name))
        if item is not None:
            items.append(item)
    return Display(header.id if header else "", header.text if header else "", items)
