"""SET, DISPLAY and DELETE POLICY: Advanced Message Security policies.

A policy is named like the queue whose messages it protects and says how they
are signed (SIGNALG, SIGNER) and encrypted (ENCALG, RECIP). Like channel
authentication records, policies are stored as records of their own name space,
kept (in MQ) on SYSTEM.PROTECTION.POLICY.QUEUE, and logged like any definition.
"""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.objects import ignoring_state
from mqsh.language.validate import Command
from mqsh.responses import Result

NAMESPACE = "POLICY"
LISTS = ("SIGNER", "RECIP")  # the settings ACTION(ADD) and ACTION(REMOVE) add to or take from


def _message(ctx: Context, kind: str) -> Result:
    spec = ctx.catalogue.objects[NAMESPACE].message(kind)
    assert spec is not None
    return Result.message(spec.text, spec.id)


def _not_found(ctx: Context, name: str) -> Result:
    spec = ctx.catalogue.objects[NAMESPACE].message("notfound")
    assert spec is not None
    return Result.failure(spec.text.replace("{name}", name), spec.id)


def _merged(existing: dict[str, Any], params: dict[str, Any], action: str) -> dict[str, Any]:
    """The policy after SET POLICY: REPLACE starts from the defaults, ADD and REMOVE from the policy
    as it is, adding or removing the distinguished names given."""
    if action == "REPLACE":
        return {**existing, **params}
    merged = {**existing, **{key: value for key, value in params.items() if key not in LISTS}}
    for key in LISTS:
        given = params.get(key, [])
        current = list(existing.get(key, []))
        if action == "ADD":
            merged[key] = current + [name for name in given if name not in current]
        else:
            merged[key] = [name for name in current if name not in given]
    return merged


def set_policy(ctx: Context, command: Command) -> Result:
    params = dict(command.params)
    params.pop("CMDSCOPE", None)
    action = params.pop("ACTION", "REPLACE")
    name = command.name or ""
    found = ctx.qmgr.lookup(NAMESPACE, name)
    if found is None and action == "REMOVE":
        return _not_found(ctx, name)
    defaults = ctx.catalogue.objects[NAMESPACE].variant().defaults
    start = dict(defaults) if found is None or action == "REPLACE" else dict(found.attributes)
    attributes = _merged(start, params, action)
    attributes["POLICY"] = name
    ctx.qmgr.save_object(NAMESPACE, NAMESPACE, name, attributes)
    return _message(ctx, "set")


def display_policy(ctx: Context, command: Command) -> Result:
    spec = ctx.catalogue.objects[NAMESPACE]
    pattern = command.name or "*"
    result = Result()
    for record in sorted(ctx.qmgr.objects(NAMESPACE), key=lambda record: record.name):
        if name_matches(pattern, record.name):
            shown = build_display(ctx.catalogue, spec, command, record.attributes, spec.variant().attributes)
            if shown is not None:
                result.responses.append(shown)
    return result if result.responses else _not_found(ctx, pattern)


def delete_policy(ctx: Context, command: Command) -> Result:
    name = command.name or ""
    if ctx.qmgr.lookup(NAMESPACE, name) is None:
        return ignoring_state(command, _not_found(ctx, name))
    ctx.qmgr.delete_object(NAMESPACE, name)
    return _message(ctx, "deleted")
