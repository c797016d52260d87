"""Usage text shown after a syntax error (AMQ8427I), derived from the catalogue.

runmqsc prints the command's diagram as ``  VERB OBJECT( name )``, then the
discriminator when the object has one (``   CHLTYPE( SVRCONN )``), then the
parameters (the object's attributes and the verb's own parameters together)
as ``[ KEY( a | b ) ]`` items in alphabetical order (transcript T3):

* items sit in two columns: the left one starts in column 4, the right one in
  column 44;
* two items share a line only when both fit their column and their keywords
  start with the same letter (CERTLABL with COMPHDR, DESCR with DISCINT, but
  HBINT and KAINT each alone);
* every line after the heading is padded with blanks to 79 columns, the
  discriminator line to 78;
* parameters that must be given (the discriminator, and the verb's required
  parameters) are shown without brackets, one to a line, before the rest.

z/OS-only parameters (CMDSCOPE, QSGDISP, ...) are accepted by the validator
but left out of the diagram, as runmqsc on Multiplatforms leaves them out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mqsh.language.catalogue import AttributeSpec, Catalogue, ObjectSpec
from mqsh.language.validate import allowed_keywords

LINE_WIDTH = 79
LEFT_WIDTH = 40  # the left column, after the 3-blank indent
INDENT = "   "
RIGHT_WIDTH = LINE_WIDTH - len(INDENT) - LEFT_WIDTH  # 36

# Words the shell itself understands; runmqsc lists END among its commands.
SHELL_VERBS = ("END",)


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


def _fits(left: str, right: str) -> bool:
    """The DISPLAY rule: both items fit their column."""
    return len(left) < LEFT_WIDTH - 2 and len(right) < RIGHT_WIDTH


def _same_initial(left: str, right: str) -> bool:
    """The usage-diagram rule: both fit, and the keywords share their first letter."""
    return _fits(left, right) and left.lstrip("[ ")[:1] == right.lstrip("[ ")[:1]


def two_columns(
    items: list[str], indent: str = INDENT, pair: Callable[[str, str], bool] = _fits, width: int | None = None
) -> list[str]:
    """Pair items into lines the way runmqsc lays out usage and DISPLAY output.

    ``pair`` decides whether two neighbours share a line; ``width`` pads each
    line with blanks to that many columns (the usage text is padded, DISPLAY
    output is not).
    """
    lines: list[str] = []
    index = 0
    while index < len(items):
        left = items[index]
        right = items[index + 1] if index + 1 < len(items) else None
        if right is not None and pair(left, right):
            line = f"{indent}{left:<{LEFT_WIDTH}}{right}"
            index += 2
        else:
            line = f"{indent}{left}"
            index += 1
        lines.append(line.ljust(width) if width else line)
    return lines


def _heading(verb: str, obj: ObjectSpec) -> str:
    head = f"  {verb} {obj.name}"
    if obj.takes_name and obj.name_attribute:
        head += f"( {obj.name_attribute.lower()}_name )"
    return head


def _discriminator_line(catalogue: Catalogue, obj: ObjectSpec, variant: str | None) -> str | None:
    if not obj.discriminator:
        return None
    if variant is not None and variant in obj.variants:
        shown = variant
    else:
        spec = catalogue.attribute(obj.discriminator, obj)
        shown = " | ".join(spec.values) if spec is not None and spec.values else "string"
    return f"{INDENT}{obj.discriminator}( {shown} )".ljust(LINE_WIDTH - 1)


def _required_line(name: str, spec: AttributeSpec | None) -> str:
    """A parameter that must be given is shown without brackets, alone on its line."""
    return f"{INDENT}{_item(name, spec)[2:-2]}".ljust(LINE_WIDTH - 1)


def attribute_names(
    catalogue: Catalogue, verb: str, obj: ObjectSpec, variant: str | None, group_member: bool = False
) -> list[str]:
    """The attributes VERB OBJECT takes, as its usage lists them: the z/OS-only ones (QSGDISP,
    CFSTRUCT, CMDSCOPE ...) only for a member of a queue-sharing group, a z/OS queue manager."""
    verb_spec = catalogue.verbs[verb]
    if variant is not None and variant in obj.variants:
        variants = [obj.variants[variant]]
    else:
        variants = list(obj.variants.values())
    attributes: set[str] = set()
    if verb_spec.attributes == "settable":
        for spec in variants:
            attributes |= spec.settable
    elif verb_spec.attributes == "selectors":
        for spec in variants:
            attributes |= set(spec.attributes)
        attributes |= set(obj.groups)  # DISPLAY QMGR [ CHINIT ] [ CLUSTER ] [ EVENT ] ...
        if group_member:
            attributes |= set(obj.selectable)  # a member's DISPLAY QLOCAL ... CFSTRUCT
        attributes.discard(obj.name_attribute)
    attributes.discard(obj.discriminator)
    params = [name for name in verb_spec.params_for(obj.name) if name != obj.discriminator]
    if len(variants) == 1 and len(obj.variants) > 1:
        # A parameter taken for every type though it is another type's attribute (PUTAUT of a
        # receiver, which only z/OS takes on a server-connection channel) is not this type's.
        others = {name for spec in obj.variants.values() for name in spec.attributes} - set(
            variants[0].attributes
        )
        params = [name for name in params if name not in others]
    names = sorted(set(params) | attributes)
    visible = []
    for name in names:
        attribute = catalogue.attribute(name, obj, verb_spec)
        if attribute is not None and attribute.zos_only and not group_member:
            continue
        visible.append(name)
    return visible


def usage_lines(
    catalogue: Catalogue,
    verb: str,
    target: str | None,
    variant: str | None = None,
    group_member: bool = False,
) -> list[str]:
    """The diagram for VERB TARGET; without a target, the verb's target list.

    ``variant`` picks one discriminator value (CHLTYPE(SVRCONN)); without it the
    diagram covers every variant of the object. ``group_member``: the z/OS-only
    attributes are listed too (attribute_names).
    """
    verb_spec = catalogue.verbs[verb]
    if target is None:
        return [f"  {verb} " + " | ".join(verb_spec.targets)]
    obj = catalogue.objects[target]
    lines = [_heading(verb, obj)]
    discriminator = _discriminator_line(catalogue, obj, variant)
    # Shown only where the verb takes it: STOP CHANNEL takes CHLTYPE, STOP CONN no TYPE.
    if discriminator is not None and obj.discriminator in allowed_keywords(verb_spec, obj, None):
        lines.append(discriminator)
    required = [name for name in verb_spec.required_for(obj.name) if name != obj.discriminator]
    lines += [_required_line(name, catalogue.attribute(name, obj, verb_spec)) for name in required]
    items = [
        _item(name, catalogue.attribute(name, obj, verb_spec))
        for name in attribute_names(catalogue, verb, obj, variant, group_member)
        if name not in required
    ]
    return lines + two_columns(items, pair=_same_initial, width=LINE_WIDTH)


def variant_named(obj: ObjectSpec, text: str) -> str | None:
    """The discriminator value a command's text gives (SVRCONN in CHLTYPE(SVRCONN)), when the
    object has that variant: the usage shown is then that variant's alone."""
    if not obj.discriminator:
        return None
    given = re.search(rf"\b{obj.discriminator}\s*\(\s*'?([A-Za-z]+)", text, re.IGNORECASE)
    value = given[1].upper() if given else None
    return value if value in obj.variants else None


def verb_list(catalogue: Catalogue) -> list[str]:
    """AMQ8426's list of valid MQSC commands, one verb per line (lab controls left out)."""
    mqsc = [
        name
        for name, spec in catalogue.verbs.items()
        if not spec.targets or any(catalogue.objects[target].kind != "lab" for target in spec.targets)
    ]
    return [f"    {name}" for name in sorted({*mqsc, *SHELL_VERBS})]
