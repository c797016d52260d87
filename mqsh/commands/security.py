"""SET AUTHREC, SET CHLAUTH, their DISPLAYs, and REFRESH SECURITY.

Authority records and channel authentication rules are stored as objects of
their own name spaces, keyed by what identifies a rule, and logged like any
other definition.
"""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.objects import catalogue_failure, not_found
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.validate import Command
from mqsh.responses import Result

# The field that tells two CHLAUTH rules of one profile and type apart.
CHLAUTH_DISCRIMINATORS = ("ADDRESS", "CLNTUSER", "SSLPEER", "QMNAME")


def _message(ctx: Context, target: str, kind: str) -> Result:
    spec = ctx.catalogue.objects[target].message(kind)
    return Result.message(spec.text, spec.id) if spec else Result()


def set_authrec(ctx: Context, command: Command) -> Result:
    params = command.params
    entity = params.get("PRINCIPAL") or params.get("GROUP")
    if not entity:
        return Result.failure("PRINCIPAL or GROUP is required.", "AMQ8425E")
    profile = params.get("PROFILE") or (ctx.qmgr.name if params.get("OBJTYPE") == "QMGR" else "")
    entity_type = "PRINCIPAL" if params.get("PRINCIPAL") else "GROUP"
    name = f"{params.get('OBJTYPE')}|{profile}|{entity_type}|{entity}"
    existing = ctx.qmgr.lookup("AUTHREC", name)
    granted = set(existing.attributes.get("AUTHLIST", [])) if existing else set()
    granted |= set(params.get("AUTHADD", []))
    granted -= set(params.get("AUTHRMV", []))
    attributes = {
        "PROFILE": profile,
        "OBJTYPE": params.get("OBJTYPE"),
        "ENTITY": entity,
        "ENTTYPE": entity_type,
        "AUTHLIST": sorted(granted),
    }
    ctx.qmgr.save_object("AUTHREC", "AUTHREC", name, attributes)
    return _message(ctx, "AUTHREC", "set")


def _chlauth_key(profile: str, params: dict[str, Any]) -> str:
    detail = next((str(params[key]) for key in CHLAUTH_DISCRIMINATORS if params.get(key)), "")
    return f"{profile}|{params.get('TYPE')}|{detail}"


def set_chlauth(ctx: Context, command: Command) -> Result:
    params = dict(command.params)
    action = params.pop("ACTION", "ADD")
    profile = command.name or ""
    if action == "REMOVEALL":
        for rule in ctx.qmgr.objects("CHLAUTH"):
            if rule.attributes.get("CHLAUTH") == profile and rule.attributes.get("TYPE") == params.get(
                "TYPE"
            ):
                ctx.qmgr.delete_object("CHLAUTH", rule.name)
        return _message(ctx, "CHLAUTH", "set")
    key = _chlauth_key(profile, params)
    existing = ctx.qmgr.lookup("CHLAUTH", key)
    if action == "REMOVE":
        if existing is None:
            return Result.failure("Channel authentication record not found.", "AMQ8884E")
        ctx.qmgr.delete_object("CHLAUTH", key)
    else:
        # ACTION(ADD) of a mapping that exists fails; REPLACE writes the rule afresh.
        if existing is not None and action == "ADD" and "USERSRC" in existing.attributes:
            return catalogue_failure(ctx, "CHLAUTH", "exists")
        defaults = ctx.catalogue.objects["CHLAUTH"].variant(params.get("TYPE")).defaults
        now = ctx.clock.now()
        ctx.qmgr.save_object(
            "CHLAUTH",
            "CHLAUTH",
            key,
            {**defaults, "CHLAUTH": profile, **params, "ALTDATE": mq_date(now), "ALTTIME": mq_time(now)},
        )
    return _message(ctx, "CHLAUTH", "set")


def _display_records(
    ctx: Context, command: Command, namespace: str, matches, attributes_of=None, order=None
) -> Result:
    """DISPLAY of records; attributes_of(values) chooses a record's attributes (default: the
    object's), order(values) sorts them (default: by name)."""
    spec = ctx.catalogue.objects[namespace]
    result = Result()
    records = ctx.qmgr.objects(namespace)
    if order is not None:
        records = sorted(records, key=lambda record: order(record.attributes))
    for record in records:
        if matches(record.attributes):
            attributes = attributes_of(record.attributes) if attributes_of else spec.variant().attributes
            shown = build_display(ctx.catalogue, spec, command, record.attributes, attributes)
            if shown is not None:
                result.responses.append(shown)
    if not result.responses:
        return not_found(command.name or namespace)
    return result


def _chlauth_attributes(ctx: Context, values: dict[str, Any]) -> tuple[str, ...]:
    """A rule's attributes: its TYPE's, with WARN for a NOACCESS mapping and CHCKCLNT otherwise,
    and MCAUSER only where the rule maps to a user (USERSRC(MAP))."""
    attributes = ctx.catalogue.objects["CHLAUTH"].variant(values.get("TYPE")).attributes
    if "USERSRC" not in attributes:
        return attributes
    dropped = {"CHCKCLNT" if values.get("USERSRC") == "NOACCESS" else "WARN"}
    if values.get("USERSRC", "MAP") != "MAP":
        dropped.add("MCAUSER")
    return tuple(name for name in attributes if name not in dropped)


def chlauth_order(values: dict[str, Any]) -> tuple:
    """Most specific profile first, as MQ lists (and matches) rules: names before generic
    profiles, longer generic prefixes before shorter; mapping rules before blocking ones."""
    profile = values.get("CHLAUTH", "")
    generic = profile.endswith("*")
    return (generic, -len(profile) if generic else 0, profile, values.get("TYPE", "").startswith("BLOCK"))


def display_chlauth(ctx: Context, command: Command) -> Result:
    wanted_type = command.params.get("TYPE", "ALL")
    return _display_records(
        ctx,
        command,
        "CHLAUTH",
        lambda values: (
            name_matches(command.name or "*", values.get("CHLAUTH", ""))
            and wanted_type in ("ALL", values.get("TYPE"))
        ),
        lambda values: _chlauth_attributes(ctx, values),
        chlauth_order,
    )


def display_authrec(ctx: Context, command: Command) -> Result:
    params = command.params
    return _display_records(
        ctx,
        command,
        "AUTHREC",
        lambda values: all(
            params.get(key) in (None, values.get(field))
            for key, field in (
                ("PROFILE", "PROFILE"),
                ("OBJTYPE", "OBJTYPE"),
                ("PRINCIPAL", "ENTITY"),
                ("GROUP", "ENTITY"),
            )
        ),
    )


def refresh_security(ctx: Context, command: Command) -> Result:
    return _message(ctx, "SECURITY", "refreshed")
