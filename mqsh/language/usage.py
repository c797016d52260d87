"""Usage text shown after a syntax error (AMQ8427I), derived from the catalogue.

runmqsc prints the command's diagram as ``  VERB OBJECT( name )`` followed by
``[ KEY( a | b ) ]`` items, two to a line: the second item starts in column 44
and an item too wide for the left column stands alone (transcript T3).
"""

from __future__ import annotations

from mqsh.language.catalogue import AttributeSpec, Catalogue

LINE_WIDTH = 79
LEFT_WIDTH = 40  # the left column, after the 3-blank indent


def _value_hint(spec: AttributeSpec | None) -> str:
    if spec is None:
        return "string"
    if spec.type == "keyword":
        return " | ".join(spec.values)
    if spec.type == "integer":
        return " | ".join((*spec.values, "integer"))
    return "string"


def _item(name: str, spec: AttributeSpec | None) -> str:
    if spec is not None and spec.type == "flag":
        words = [name] + ([spec.negative] if spec.negative else [])
        return "[ " + " | ".join(words) + " ]"
    return f"[ {name}( {_value_hint(spec)} ) ]"


def two_columns(items: list[str], indent: str = "   ") -> list[str]:
    """Pair items into lines the way runmqsc lays out usage and DISPLAY output."""
    lines: list[str] = []
    index = 0
    while index < len(items):
        left = items[index]
        right = items[index + 1] if index + 1 < len(items) else None
        if right is not None and len(left) < LEFT_WIDTH - 2 and len(right) < LINE_WIDTH - LEFT_WIDTH - 3:
            lines.append(f"{indent}{left:<{LEFT_WIDTH}}{right}")
            index += 2
        else:
            lines.append(f"{indent}{left}")
            index += 1
    return lines


def usage_lines(catalogue: Catalogue, verb: str, target: str | None) -> list[str]:
    """The diagram for VERB TARGET; without a target, the verb's target list."""
    verb_spec = catalogue.verbs[verb]
    if target is None:
        return [f"  {verb} " + " | ".join(verb_spec.targets)]
    obj = catalogue.objects[target]
    head = f"  {verb} {target}"
    if obj.takes_name and obj.name_attribute:
        head += f"( {obj.name_attribute.lower()}_name )"
    names: list[str] = list(verb_spec.params_for(target))
    if verb_spec.attributes == "settable":
        settable: dict[str, None] = {}
        for variant in obj.variants.values():
            for name in variant.attributes:
                if name in variant.settable:
                    settable.setdefault(name, None)
        names += sorted(settable)
    elif verb_spec.attributes == "selectors":
        names += sorted(set(obj.all_attributes()) - {obj.name_attribute})
    items = [_item(name, catalogue.attribute(name, obj)) for name in dict.fromkeys(names)]
    return [head] + two_columns(items)


def verb_list(catalogue: Catalogue) -> list[str]:
    """AMQ8426's list of valid commands, one verb per line."""
    return [f"    {name}" for name in sorted(catalogue.verbs)]
