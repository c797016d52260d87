"""DEFINE, ALTER, DELETE, CLEAR and DISPLAY of queue manager objects."""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, is_generic, name_matches
from mqsh.commands.qsg.copies import (
    disposition_of,
    disposition_types,
    group_of,
    in_use,
    is_copy,
)
from mqsh.commands.qsg.group_display import group_entries, shows, with_disposition
from mqsh.core.clock import mq_date, mq_time
from mqsh.core.objects import DISPOSITION, QMGR, MQObject, namespace_of
from mqsh.language.catalogue import ObjectSpec
from mqsh.language.validate import Command
from mqsh.recovery.media.coverage import HOLDING_QUEUES
from mqsh.responses import Result

# Parameters that steer a command and are not stored with the object.
COMMAND_ONLY = {"LIKE", "REPLACE", "FORCE", "PURGE", "ALL", "CMDSCOPE", "QSGDISP", "IGNSTATE"}


def not_found(name: str) -> Result:
    return Result.failure(f"IBM MQ object {name} not found.", "AMQ8147E")


def catalogue_failure(ctx: Context, target: str, kind: str) -> Result:
    """A failure in the words the catalogue gives the object for kind (exists, notfound ...)."""
    spec = ctx.catalogue.objects[target].message(kind)
    assert spec is not None
    return Result.failure(spec.text, spec.id)


# The PCF parameter that names an object of each name space (MQCA_Q_NAME, MQCACH_CHANNEL_NAME ...):
# runmqsc's AMQ8149 names the damaged object by it, as in "[2016, QL.A]" for a queue.
NAME_PARAMETERS = {
    "QUEUE": 2016,
    "QMGR": 2015,
    "PROCESS": 2012,
    "NAMELIST": 2010,
    "AUTHINFO": 2045,
    "SERVICE": 2077,
    "TOPIC": 2092,
    "COMMINFO": 2110,
    "POLICY": 2112,
    "CHANNEL": 3501,
    "LISTENER": 3554,
    "SUB": 3152,
}


def damaged(obj: MQObject) -> Result:
    """AMQ8149S, then the insert naming the object by its name parameter (runmqsc's own form). A
    record with no name parameter of its own (a CHLAUTH or authority record) is named by the
    queue it is kept on, which is what is damaged in MQ (IBM documents no id or insert for that
    case: MQ's style)."""
    holder = HOLDING_QUEUES.get(obj.namespace)
    if obj.namespace in NAME_PARAMETERS:
        parameter, name = NAME_PARAMETERS[obj.namespace], obj.name
    else:
        parameter, name = NAME_PARAMETERS["QUEUE"], holder.queue if holder else obj.name
    return Result.failure("IBM MQ object damaged.", "AMQ8149S", [f"[{parameter}, {name}]"])


def _message(obj: ObjectSpec, kind: str, fallback: str) -> Result:
    spec = obj.message(kind)
    return Result.message(spec.text if spec else fallback, spec.id if spec else "")


def _cluster_conflict(attributes: dict[str, Any]) -> Result | None:
    """MQ: "Up to one of the resultant values of CLUSTER or CLUSNL can be nonblank" (a queue, a
    cluster channel). The PCF reason is MQRCCF_CLUSTER_NAME_CONFLICT (3088); IBM documents no
    runmqsc message id for it, so the id and text are in MQ's style (docs/messages.md lists it)."""
    if str(attributes.get("CLUSTER") or "").strip() and str(attributes.get("CLUSNL") or "").strip():
        return Result.failure(
            "Both CLUSTER and CLUSNL are nonblank: give the object one of them only.", "AMQ8766E"
        )
    return None


def stamp(attributes: dict[str, Any], ctx: Context, created: bool) -> None:
    now = ctx.clock.now()
    attributes["ALTDATE"], attributes["ALTTIME"] = mq_date(now), mq_time(now)
    if created:
        attributes["CRDATE"], attributes["CRTIME"] = mq_date(now), mq_time(now)


def _settings(command: Command) -> dict[str, Any]:
    return {key: value for key, value in command.params.items() if key not in COMMAND_ONLY}


CREATION = ("CRDATE", "CRTIME")


def default_object(obj: ObjectSpec, settings: dict[str, Any], name: str) -> str | None:
    """The object a DEFINE without LIKE is like: the default object of its type (IBM, DEFINE
    queues, LIKE: "If this field is not completed, the values of undefined parameters are taken
    from the default definition for queues of this type on the queue manager";  "Copying a local
    queue definition": DEFINE QLOCAL without LIKE "is the same as" LIKE(SYSTEM.DEFAULT.LOCAL.QUEUE)),
    a channel's by its CHLTYPE, an authentication information object's by its AUTHTYPE. MQ needs
    it ("default objects of these names are required"): DEFINE LIKE an object that is not there
    fails, so does this one. None for the default object itself, which crtmqm and strmqm -c define
    with the product's values, and for a type that has none (AMQP and MQTT channels, the Windows
    listener transports): the catalogue's defaults are then the product's."""
    given = settings.get(obj.discriminator) if obj.discriminator else None
    default = obj.variant(given).default_object
    return None if default == name else default


def defined_attributes(
    obj: ObjectSpec, settings: dict[str, Any], like: dict[str, Any] | None, replaced: dict[str, Any] | None
) -> dict[str, Any]:
    """The attributes DEFINE gives an object: those it states, the rest from the LIKE object (the
    default object of the type when the command names none: default_object) or else the
    catalogue's defaults. REPLACE is no ALTER: IBM's Create Queue (MQCMD_CREATE_Q) with
    Replace sets "all attributes that are not specified ... to the default value for the type of
    queue", and strmqm -c's REPLACE sets a channel's MCAUSER back to blanks, so nothing a command
    could set is kept from the replaced object. What no command sets is kept, as the object stays
    the same one (a queue keeps its messages): when it was created (CRDATE, CRTIME, IBM's
    CreationDate "the date when the queue was created"), a subscription's SUBID, a dynamic queue's
    DEFTYPE. A LIKE object lends none of those: they are its own."""
    given = settings.get(obj.discriminator or "")
    if given is None and like is not None and obj.discriminator:
        given = like.get(obj.discriminator)
    # Where the discriminator must be given (CHLTYPE, AUTHTYPE) the syntax check has seen to it; a
    # listener defined without TRPTYPE takes the first variant's, TCP.
    variant = obj.variant(given)
    own = variant.readonly | set(CREATION)
    lent = {key: value for key, value in (like or {}).items() if key not in own or key == obj.discriminator}
    kept = {key: value for key, value in (replaced or {}).items() if key in own and key != obj.discriminator}
    return {**variant.defaults, **lent, **kept, **settings}


def _variant_key(obj: ObjectSpec, attributes: dict[str, Any]) -> str | None:
    return attributes.get(obj.discriminator) if obj.discriminator else None


def define(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    qmgr = ctx.qmgr
    namespace = namespace_of(obj.name, obj.family)
    name = command.name
    existing = qmgr.lookup(namespace, name)
    if existing is not None and existing.damaged:
        return damaged(existing)  # only DELETE and rcrmqobj act on a damaged object
    # A copy of a group object is not replaced by the queue manager's own definition (QSGDISP(QMGR)).
    if existing is not None and (
        not command.flag("REPLACE")
        or existing.object_type != obj.name
        or (is_copy(existing) and _own_only(command))
    ):
        return Result.failure("IBM MQ object already exists.", "AMQ8150E")
    like: dict[str, Any] | None = None
    like_name = command.params.get("LIKE") or default_object(obj, command.params, name)
    if like_name:
        source = qmgr.lookup(namespace, like_name)
        if source is None or source.object_type != obj.name:
            return not_found(like_name)
        if source.damaged:
            return damaged(source)  # its attributes are what the damage lost
        like = source.attributes
    settings = _settings(command)
    merged = defined_attributes(obj, settings, like, existing.attributes if existing is not None else None)
    # The queue manager's own object, even when like a copy: on z/OS "the disposition of the LIKE
    # object is not copied to the object you are defining".
    merged.pop(DISPOSITION, None)
    if obj.name_attribute:
        merged[obj.name_attribute] = name
    if obj.name == "SUB" and not merged.get("SUBID"):
        merged["SUBID"] = qmgr.new_identifier()  # MQ gives each subscription a 48-hex-digit id
    conflict = _cluster_conflict(merged)
    if conflict is not None:
        return conflict
    stamp(merged, ctx, created="CRDATE" not in merged)
    qmgr.save_object(obj.name, namespace, name, merged)
    return _message(obj, "created", f"IBM MQ {obj.name.lower()} created.")


def _own_only(command: Command) -> bool:
    """QSGDISP(QMGR), said or by default: the command leaves copies of group objects alone."""
    return command.params.get(DISPOSITION, QMGR) == QMGR


def _find(ctx: Context, obj: ObjectSpec, name: str | None, command: Command | None = None) -> MQObject | None:
    if obj.name == "QMGR":
        own = ctx.qmgr.qmgr_object  # its name inside: a restored copy's may differ from the directory's
        return ctx.qmgr.lookup("QMGR", own.name) if own is not None else None
    found = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), name or "")
    if found is None or (obj.kind != "family" and found.object_type != obj.name):
        return None
    if command is not None and _own_only(command) and is_copy(found):
        return None
    return found


def alter(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    found = _find(ctx, obj, command.name, command)
    if found is None:
        return not_found(command.name or obj.name)
    if found.damaged:
        return damaged(found)
    settings = _settings(command)
    # Logger events report the extents a linear log moves through; a circular log has none to report.
    if obj.name == "QMGR" and settings.get("LOGGEREV") == "ENABLED" and ctx.qmgr.log_type == "CIRCULAR":
        return catalogue_failure(ctx, "QMGR", "loggerev_circular")
    if obj.discriminator and settings.get(
        obj.discriminator, found.attributes.get(obj.discriminator)
    ) != found.attributes.get(obj.discriminator):
        return Result.failure(
            f"{obj.discriminator} does not match the definition of {found.name}.", "AMQ8427E"
        )
    attributes = {**found.attributes, **settings}
    conflict = _cluster_conflict(attributes)
    if conflict is not None:
        return conflict
    stamp(attributes, ctx, created=False)
    ctx.qmgr.save_object(found.object_type, found.namespace, found.name, attributes)
    return _message(obj, "changed", f"IBM MQ {obj.name.lower()} changed.")


def ignoring_state(command: Command, result: Result) -> Result:
    """IGNSTATE(YES): a command that finds the object already as it asks (gone, stopped)
    still says so, but counts as processed."""
    if command.params.get("IGNSTATE") == "YES":
        result.ok = True
    return result


def delete(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    found = _find(ctx, obj, command.name, command)
    if found is None:
        return ignoring_state(command, not_found(command.name or obj.name))
    # A damaged object's messages are out of reach already, so nothing stops its deletion.
    if not found.damaged and found.object_type == "QLOCAL" and found.messages and not command.flag("PURGE"):
        return Result.failure("IBM MQ queue not empty.", "AMQ8143E")
    if not found.damaged and in_use(ctx.qmgr, found):
        return Result.failure("IBM MQ object in use.", "AMQ8148E")
    ctx.qmgr.delete_object(found.namespace, found.name)
    # The records of the object's own name go with a queue or topic unless AUTHREC(NO): MQ's
    # default is YES, so that a later object of that name does not inherit its authorities.
    if found.namespace in ("QUEUE", "TOPIC") and command.params.get("AUTHREC", "YES") == "YES":
        for record in ctx.qmgr.objects("AUTHREC"):
            if (
                record.attributes.get("OBJTYPE") == found.namespace
                and record.attributes.get("PROFILE") == found.name
            ):
                ctx.qmgr.delete_object("AUTHREC", record.name)
    return _message(obj, "deleted", f"IBM MQ {obj.name.lower()} deleted.")


def clear(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    found = _find(ctx, obj, command.name)
    if found is None:
        return not_found(command.name or "")
    if found.damaged:
        return damaged(found)
    if in_use(ctx.qmgr, found):
        return Result.failure("IBM MQ object in use.", "AMQ8148E")
    ctx.qmgr.clear(found)
    return _message(obj, "cleared", "IBM MQ queue cleared.")


def current_values(ctx: Context, found: MQObject) -> dict[str, Any]:
    """Stored attributes plus the ones that are worked out on demand (CURDEPTH ...)."""
    values = dict(found.attributes)
    if found.object_type == "QLOCAL":
        values["CURDEPTH"] = ctx.qmgr.depth(found)
        # A LAB OPEN handle stands for an application with the queue open for input and output.
        values["IPPROCS"] = values["OPPROCS"] = ctx.qmgr.open_handles.get(found.name, 0)
    if found.object_type == "NAMELIST":
        values["NAMCOUNT"] = len(values.get("NAMES") or [])
    if (
        found.object_type == "QMGR"
    ):  # its name inside: a restored copy (LAB RESTORE ... AS) keeps the original's
        values["QMNAME"] = found.attributes.get("QMNAME") or ctx.qmgr.name
    return values


def _channel_type_asked(obj: ObjectSpec, command: Command) -> str | None:
    """DISPLAY CHANNEL(*) TYPE(SDR), or CHLTYPE(SDR): only the channels of that type; TYPE(ALL): every one."""
    if obj.name != "CHANNEL":
        return None
    asked = command.params.get("TYPE", command.params.get("CHLTYPE"))
    return None if asked == "ALL" else asked


def _attributes_of(found: MQObject | dict[str, Any]) -> dict[str, Any]:
    return found.attributes if isinstance(found, MQObject) else found


def display(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    groups: list = []
    if obj.name == "QMGR":
        candidates = [_find(ctx, obj, None)]
    else:
        namespace = namespace_of(obj.name, obj.family)
        name = command.name or "*"
        if is_generic(name):
            candidates = [found for found in ctx.qmgr.objects(namespace) if name_matches(name, found.name)]
        else:  # one object: found by its key, not by checking every object's file on the way
            found = ctx.qmgr.lookup(namespace, name)
            candidates = [found] if found is not None else []
        wanted_type = command.params.get("TYPE") if obj.kind == "family" else obj.name
        if wanted_type and wanted_type not in ("ALL", "QUEUE"):
            candidates = [found for found in candidates if found.object_type == wanted_type]
        candidates = [found for found in candidates if found is not None and shows(command, found)]
        groups = group_entries(ctx, obj, command, name, wanted_type)
    member = obj.name in disposition_types(ctx.catalogue) or obj.kind == "family"
    member = member and group_of(ctx) is not None
    # The queue manager's objects and the group's, in name order (its own first where a name is both).
    entries = [(found.name, found.object_type, found) for found in candidates if found is not None]
    chltype = _channel_type_asked(obj, command)
    if chltype is not None:
        entries = [entry for entry in entries if _attributes_of(entry[2]).get("CHLTYPE") == chltype]
        groups = [entry for entry in groups if _attributes_of(entry[2]).get("CHLTYPE") == chltype]
    entries = sorted(entries + groups, key=lambda entry: entry[0])
    result = Result()
    for _name, object_type, found in entries:
        if isinstance(found, MQObject) and found.damaged:
            result.responses += damaged(found).responses
            result.ok = False
            continue
        spec = ctx.catalogue.objects.get(object_type, obj)
        values = (
            {**current_values(ctx, found), DISPOSITION: disposition_of(found)}
            if isinstance(found, MQObject)
            else found
        )
        attributes = spec.variant(_variant_key(spec, values)).attributes
        record = build_display(ctx.catalogue, spec, command, values, attributes)
        if record is not None:
            result.responses.append(with_disposition(record, values) if member else record)
    if not result.responses:
        return not_found(command.name or obj.name)
    return result
