"""dmpmqcfg: a queue manager's configuration as the MQSC that rebuilds it, in MQ's dump format.

The format is a real dump's (MQ 9.3): a box of 79 asterisks around a header
(when, who, where, which queue manager, the command); ALTER QMGR ... FORCE,
then every object, DEFINE ... REPLACE, then SET CHLAUTH ... ACTION(REPLACE) and
SET AUTHREC; one attribute a line, three blanks in, " +" to continue;
read-only attributes (dates, depths, QMID) as comment lines, which runmqsc
skips inside a command; names and string values quoted; without -a only the
attributes that differ from their defaults; a trailer box with counts.
Replayed through mqsh (or runmqsc) on a new queue manager, the dump defines
the same objects with the same attributes.

Queues, channels and the queue manager list their attributes alphabetically
(a channel's CHLTYPE first); the other types in the order DISPLAY shows
them, as the real dump does for topics, services and namelists. IBM documents
no names for the trailer's count lines between "Queue count" and "AuthRec
count": mqsh names them in the same style.
"""

from __future__ import annotations

import argparse
import getpass
from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.control.parsing import ControlParser, lines, qmgr_not_available, unknown_qmgr
from mqsh.commands.control.parsing import control_parser as _parser
from mqsh.commands.display import name_matches
from mqsh.commands.objects import current_values
from mqsh.commands.security import chlauth_order
from mqsh.core.objects import MQObject
from mqsh.language.catalogue import Catalogue, ObjectSpec
from mqsh.model.installation import QmgrNotAvailable
from mqsh.responses import Result

BOX = "*" * 79
INDENT, COMMENT = "   ", "*  "
# What each -t word and each -x choice dumps, by name space, in the order MQ writes them.
ORDER = (
    "QMGR",
    "QUEUE",
    "NAMELIST",
    "PROCESS",
    "CHANNEL",
    "AUTHINFO",
    "LISTENER",
    "SERVICE",
    "COMMINFO",
    "TOPIC",
    "SUB",
    "CHLAUTH",
    "AUTHREC",
    "POLICY",
)
EXPORTS = {
    "all": ORDER,
    "object": ORDER[:10],
    "sub": ("SUB",),
    "chlauth": ("CHLAUTH",),
    "authrec": ("AUTHREC",),
    "policy": ("POLICY",),
}
TYPES = {
    "all": ORDER,
    **{namespace.lower(): (namespace,) for namespace in ORDER},
    "lstr": ("LISTENER",),
    "srvc": ("SERVICE",),
    "prcs": ("PROCESS",),
    "nl": ("NAMELIST",),
    "q": ("QUEUE",),
}
COUNTED = {
    "QMGR": "QueueManager",
    "QUEUE": "Queue",
    "NAMELIST": "NameList",
    "PROCESS": "Process",
    "CHANNEL": "Channel",
    "AUTHINFO": "AuthInfo",
    "LISTENER": "Listener",
    "SERVICE": "Service",
    "COMMINFO": "CommInfo",
    "TOPIC": "Topic",
    "SUB": "Subscription",
    "CHLAUTH": "ChlAuthRec",
    "AUTHREC": "AuthRec",
    "POLICY": "Policy",
}
ALPHABETICAL = ("QUEUE", "CHANNEL", "QMGR")  # MQ writes these name spaces' attributes in alphabetical order
LIST_BREAK = "\n,"  # between the names of a list: a line of its own in the mqsc format


def parsers() -> dict[str, ControlParser]:
    dmpmqcfg = _parser("dmpmqcfg", "Dump a queue manager's configuration as MQSC.")
    dmpmqcfg.add_argument("-m", dest="qmgr", help="queue manager (default: the default queue manager)")
    dmpmqcfg.add_argument(
        "-a",
        dest="all_attributes",
        action="store_true",
        help="every attribute, not only those that differ from their defaults",
    )
    dmpmqcfg.add_argument(
        "-o",
        dest="format",
        choices=["mqsc", "1line"],
        default="mqsc",
        help="mqsc (one attribute a line, the default) or 1line (one command a line)",
    )
    dmpmqcfg.add_argument("-x", dest="export", choices=list(EXPORTS), default="all", help="what to dump")
    dmpmqcfg.add_argument("-t", dest="type", choices=list(TYPES), default="all", help="object type to dump")
    dmpmqcfg.add_argument("-n", dest="name", default="*", help="object name or generic name (default *)")
    return {"dmpmqcfg": dmpmqcfg}


def _quoted(text: str) -> str:
    return "'" + (text or " ").replace("'", "''") + "'"


def _value(
    catalogue: Catalogue, spec: ObjectSpec, name: str, value: Any, readonly: bool, required: bool = False
) -> str | None:
    """KEYWORD(value) as a dump writes it; None for a flag that is off with no word for off.
    An empty string is one blank, as MQ's fixed-length fields hold it, but a required one is
    written empty (TOPICSTR(''), the root of the topic tree)."""
    attribute = catalogue.attribute(name, spec)
    kind = attribute.type if attribute is not None else "string"
    if kind == "flag":
        return name if value else (attribute.negative or None)
    if isinstance(value, list):
        if kind == "keyword":
            return f"{name}({','.join(value) or 'NONE'})"
        return f"{name}({LIST_BREAK.join(_quoted(item) for item in value) or _quoted('')})"
    shown = attribute.render(value) if attribute is not None else str(value)
    if kind == "string" and not readonly:
        shown = "''" if required and not shown.strip() else _quoted(shown.strip())
    return f"{name}({shown})"


def _items(
    catalogue: Catalogue, spec: ObjectSpec, values: dict[str, Any], every: bool
) -> list[tuple[str, bool]]:
    """(text, read-only) of each attribute the dump writes, in the dump's order: what differs from
    its default (all with -a), and always what decides the type or DEFINE needs."""
    always = {spec.discriminator, *catalogue.verbs["DEFINE"].required_for(spec.name)}
    variant = spec.variant(values.get(spec.discriminator) if spec.discriminator else None)
    readonly = variant.readonly
    names = [name for name in variant.attributes if name not in (spec.name_attribute, spec.name)]
    if spec.family == "QUEUE":
        names.remove("TYPE")  # DEFINE QLOCAL says it
    if (spec.family or spec.name) in ALPHABETICAL:
        names.sort(key=lambda name: (name != spec.discriminator, name))
    items = []
    for name in names:
        value = values.get(name)
        decides = name in always
        if value is None or (
            not every
            and not decides
            and (
                value == variant.defaults.get(name, "" if name not in readonly else None)
                or (name in readonly and value in ("", 0))
            )
        ):
            continue
        text = _value(catalogue, spec, name, value, name in readonly and not decides, name in always)
        if text is not None:
            items.append((text, name in readonly and not decides))
    return items


def _command(head: str, items: list[tuple[str, bool]], tail: str | None, one_line: bool) -> list[str]:
    if one_line:
        texts = [text.replace(LIST_BREAK, ",") for text, readonly in items if not readonly]
        return [" ".join([head, *texts, *([tail] if tail else [])])]
    body = [
        f"{COMMENT if readonly else INDENT}{text}".replace(LIST_BREAK, " +\n        ,")
        for text, readonly in items
    ]
    if tail:
        body.append(f"{INDENT}{tail}")
    if not body:
        return [head]
    return [f"{head} +", *(f"{line} +" for line in body[:-1]), body[-1]]


def _object_lines(ctx: Context, obj: MQObject, every: bool, one_line: bool) -> list[str]:
    catalogue = ctx.catalogue
    spec = catalogue.objects.get(obj.object_type) or catalogue.objects[obj.namespace]
    values = current_values(ctx, obj)
    if obj.namespace == "QMGR":
        return _command("ALTER QMGR", _items(catalogue, spec, values, every), "FORCE", one_line)
    if obj.namespace == "CHLAUTH":
        head = f"SET CHLAUTH({_quoted(values.get('CHLAUTH', ''))})"
        return _command(head, _items(catalogue, spec, values, every), "ACTION(REPLACE)", one_line)
    if obj.namespace == "POLICY":
        return _command(
            f"SET POLICY({_quoted(obj.name)})",
            _items(catalogue, spec, values, every),
            "ACTION(REPLACE)",
            one_line,
        )
    if obj.namespace == "AUTHREC":
        items = (
            []
            if values.get("OBJTYPE") == "QMGR"
            else [(f"PROFILE({_quoted(values.get('PROFILE', ''))})", False)]
        )
        items += [
            (f"{values.get('ENTTYPE', 'PRINCIPAL')}({_quoted(values.get('ENTITY', ''))})", False),
            (f"OBJTYPE({values.get('OBJTYPE')})", False),
            (f"AUTHADD({','.join(values.get('AUTHLIST') or []) or 'NONE'})", False),
        ]
        return _command("SET AUTHREC", items, None, one_line)
    return _command(
        f"DEFINE {obj.object_type}({_quoted(obj.name)})",
        _items(catalogue, spec, values, every),
        "REPLACE",
        one_line,
    )


def _selected(qmgr, namespace: str, pattern: str) -> list[MQObject]:
    found = qmgr.objects(namespace)
    if namespace == "CHANNEL":  # client channels last, as MQ writes them
        found = sorted(found, key=lambda obj: obj.attributes.get("CHLTYPE") == "CLNTCONN")
    if namespace == "CHLAUTH":  # most specific first, as MQ lists (and matches) them
        return sorted(
            (rule for rule in found if name_matches(pattern, rule.attributes.get("CHLAUTH", ""))),
            key=lambda rule: chlauth_order(rule.attributes),
        )
    if namespace == "AUTHREC":
        return [record for record in found if name_matches(pattern, record.attributes.get("PROFILE", ""))]
    return [obj for obj in found if namespace == "QMGR" or name_matches(pattern, obj.name)]


def _header(ctx: Context, qmgr, command: str) -> list[str]:
    now = ctx.clock.now()
    level = qmgr.qmgr_object.attributes.get("CMDLEVEL", "")
    return [
        BOX,
        f"* Script generated on {now:%Y-%m-%d}   at {now:%H.%M.%S} ",
        f"* Script generated by user '{getpass.getuser()}' on host '{ctx.installation.host(qmgr.name)}' ",
        f"* Queue manager name: {qmgr.name} ",
        "* Queue manager platform: UNIX ",
        f"* Queue manager command level: ({level}/{level})   ",
        f"* Command issued: {command}  ",
        BOX,
    ]


def _command_line(args: argparse.Namespace, qmgr: str) -> str:
    words = ["dmpmqcfg", "-m", qmgr]
    for flag, value, default in (
        ("-x", args.export, "all"),
        ("-t", args.type, "all"),
        ("-n", args.name, "*"),
        ("-o", args.format, "mqsc"),
    ):
        if value != default:
            words += [flag, value]
    return " ".join(words + (["-a"] if args.all_attributes else []))


def dmpmqcfg(ctx: Context, args: argparse.Namespace, run) -> Result:
    installation = ctx.installation
    name = args.qmgr or installation.default_name()
    if not name or not installation.exists(name):
        return unknown_qmgr()
    try:
        qmgr = installation.connect(name)
    except QmgrNotAvailable:
        return qmgr_not_available()
    here = Context(ctx.catalogue, installation, qmgr)
    wanted = [
        namespace
        for namespace in ORDER
        if namespace in EXPORTS[args.export] and namespace in TYPES[args.type]
    ]
    out = _header(here, qmgr, _command_line(args, name))
    counts: dict[str, int] = {}
    for namespace in wanted:
        for obj in _selected(qmgr, namespace, args.name):
            if obj.damaged:
                out.append(
                    f"* {obj.object_type}({obj.name}) is damaged (AMQ8149S) and is not in this script."
                )
                continue
            out += _object_lines(here, obj, args.all_attributes, args.format == "1line")
            counts[namespace] = counts.get(namespace, 0) + 1
    now = ctx.clock.now()
    total = sum(counts.values())
    out += [
        BOX,
        f"* Script ended on {now:%Y-%m-%d}   at {now:%H.%M.%S} ",
        f"* Number of Inquiry commands issued: {len(wanted)} ",
        f"* Number of Inquiry commands completed: {len(wanted)} ",
        f"* Number of Inquiry responses processed: {total} ",
        *(f"* {COUNTED[namespace]} count: {counts.get(namespace, 0)} " for namespace in wanted),
        f"* Number of objects/records: {total} ",
        BOX,
    ]
    return lines(*out)


HANDLERS = {"dmpmqcfg": dmpmqcfg}
