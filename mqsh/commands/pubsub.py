"""DISPLAY PUBSUB: the state of this queue manager's publish/subscribe engine.

No publish/subscribe hierarchy is modelled, so the queue manager has neither parent nor
children: TYPE(ALL) shows the local engine alone, and TYPE(CHILD) or TYPE(PARENT) finds none.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import build_display
from mqsh.commands.objects import catalogue_failure
from mqsh.language.validate import Command
from mqsh.responses import Result

# PSMODE -> the engine's STATUS: COMPAT runs the engine without the queued interface.
ENGINE_STATUS = {"ENABLED": "ACTIVE", "COMPAT": "COMPAT", "DISABLED": "INACTIVE"}


def topic_nodes(topic_strings) -> set[str]:
    """The nodes of the topic tree the strings make: 'a/b' makes 'a' and 'a/b' (the root
    itself, the empty string, is not counted)."""
    nodes = set()
    for text in topic_strings:
        levels = text.split("/") if text else []
        nodes.update("/".join(levels[:depth]) for depth in range(1, len(levels) + 1))
    return nodes


def display_pubsub(ctx: Context, command: Command) -> Result:
    if command.params.get("TYPE", "ALL") in ("CHILD", "PARENT"):
        return catalogue_failure(ctx, "PUBSUB", "notfound")
    qmgr = ctx.qmgr
    qmgr_object = qmgr.qmgr_object
    mode = qmgr_object.attributes.get("PSMODE", "ENABLED") if qmgr_object else "ENABLED"
    subscriptions = qmgr.objects("SUB")
    # TPCOUNT counts the topic tree's nodes: those topic objects and subscriptions name.
    strings = [item.attributes.get("TOPICSTR", "") for item in (*qmgr.objects("TOPIC"), *subscriptions)]
    values = {
        "QMNAME": qmgr.name,
        "TYPE": "LOCAL",
        "STATUS": ENGINE_STATUS[mode],
        "SUBCOUNT": len(subscriptions),
        "TPCOUNT": len(topic_nodes(strings)),
    }
    spec = ctx.catalogue.objects["PUBSUB"]
    shown = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
    return Result([shown] if shown is not None else [])
