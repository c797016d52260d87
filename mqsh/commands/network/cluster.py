"""DISPLAY CLUSQMGR and QCLUSTER, REFRESH and RESET CLUSTER, SUSPEND and RESUME QMGR: the
commands over a queue manager's cluster cache (mqsh.model.cluster).

DISPLAY CLUSQMGR shows the fields of IBM's DISPLAY CLUSQMGR page: CLUSQMGR first, then the rest in catalogue order.
DEFTYPE is CLUSRCVR for the queue manager's own record, CLUSSDRB where a manual CLUSSDR has
merged with the record, CLUSSDRA for one learnt alone, and CLUSSDR for a manual channel whose
target has not answered - shown, as MQ does, under a temporary name. IBM documents neither that
name's exact form (mqsh shows SYSTEM.TEMPQMGR. and the CONNAME) nor how a record that is
not in use (its CLUSRCVR name taken over by another QMID) shows; mqsh shows it with its QMID
and STATUS(INACTIVE), the one in use with its channel's status.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.network.channel_status import shown_status
from mqsh.commands.objects import catalogue_failure
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.validate import Command
from mqsh.model.cluster.cache import QMGR, QUEUE, TOPIC, Record
from mqsh.model.cluster.manager import TRANSMIT_QUEUE
from mqsh.model.cluster.operations import ClusterCommandRefused, force_remove, refresh, suspend
from mqsh.model.cluster.own import namelist
from mqsh.model.cluster.timers import moment
from mqsh.responses import Result

# IBM documents no message ids for RESET CLUSTER's refusals: chosen in MQ's style (docs/messages.md).
REFUSED_ID = "AMQ8762E"


def _manager(ctx: Context):
    return ctx.installation.clusters.manager(ctx.qmgr)


def _dated(values: dict, prefix: str, when: str) -> None:
    if when:
        values[f"{prefix}DATE"], values[f"{prefix}TIME"] = mq_date(moment(when)), mq_time(moment(when))


# ------------------------------------------------------------------ DISPLAY CLUSQMGR
def display_clusqmgr(ctx: Context, command: Command) -> Result:
    spec = ctx.catalogue.objects["CLUSQMGR"]
    defaults = ctx.catalogue.objects["CHANNEL"].variant("CLUSRCVR").defaults
    manager = _manager(ctx)
    result = Result()
    records = manager.cache.records(QMGR) if manager.cache.exists() else []
    rows = [_clusqmgr_values(ctx, record, defaults) for record in records if not record.deleted]
    rows += _unanswered_senders(ctx, records, defaults)
    for values in sorted(rows, key=lambda row: (row["CLUSQMGR"], row["CLUSTER"], row["QMID"])):
        if not name_matches(command.name or "*", values["CLUSQMGR"]):
            continue
        if any(
            key in command.params and not name_matches(str(command.params[key]), str(values[key]))
            for key in ("CLUSTER", "CHANNEL")
        ):
            continue
        record = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
        if record is not None:
            result.responses.append(record)
    return result if result.responses else _not_found(command)


def _clusqmgr_values(ctx: Context, record: Record, defaults: dict) -> dict:
    values = {**defaults, **record.attrs}
    channel = record.attrs.get("CHANNEL", "")
    manual = ctx.qmgr.lookup("CHANNEL", channel)
    if record.own:
        deftype, state = "CLUSRCVR", ctx.qmgr.channel_states.get(channel)
    else:
        merged = manual is not None and manual.attributes.get("CHLTYPE") == "CLUSSDR"
        deftype, state = ("CLUSSDRB" if merged else "CLUSSDRA"), ctx.qmgr.channel_states.get(channel)
    status = state.status if state is not None and record.in_use else "INACTIVE"
    values.update(
        CLUSQMGR=record.name,
        CHANNEL=channel,
        CLUSTER=record.cluster,
        DEFTYPE=deftype,
        QMID=record.qmid,
        STATUS=shown_status(ctx, status),
        SUSPEND=record.attrs.get("SUSPEND", "NO"),
        VERSION=ctx.catalogue.objects["QMGR"].variant().defaults.get("VERSION", ""),
        XMITQ="" if record.own else TRANSMIT_QUEUE,
    )
    _dated(values, "CLUS", record.clusdate)
    return values


def _unanswered_senders(ctx: Context, records: list[Record], defaults: dict) -> list[dict]:
    """Manual CLUSSDRs whose target's record has not arrived."""
    known = {record.attrs.get("CHANNEL") for record in records if not record.deleted}
    rows = []
    for channel in ctx.qmgr.objects("CHANNEL"):
        attributes = channel.attributes
        if attributes.get("CHLTYPE") != "CLUSSDR" or channel.name in known:
            continue
        state = ctx.qmgr.channel_states.get(channel.name)
        for cluster in _clusters_of(ctx, attributes):
            values = {**defaults, **attributes}
            values.update(
                CLUSQMGR=f"SYSTEM.TEMPQMGR.{attributes.get('CONNAME', '')}",
                CHANNEL=channel.name,
                CLUSTER=cluster,
                DEFTYPE="CLUSSDR",
                QMID="",
                QMTYPE="NORMAL",
                SUSPEND="NO",
                STATUS=state.status if state is not None else "INACTIVE",
                XMITQ=TRANSMIT_QUEUE,
            )
            rows.append(values)
    return rows


def _clusters_of(ctx: Context, attributes: dict) -> list[str]:
    single = str(attributes.get("CLUSTER") or "").strip()
    return [single] if single else namelist(ctx.qmgr, str(attributes.get("CLUSNL") or "").strip())


# ------------------------------------------------------------------ DISPLAY QCLUSTER / TCLUSTER
def display_qcluster(ctx: Context, command: Command) -> Result:
    return _display_records(ctx, command, "QCLUSTER", QUEUE, "QUEUE", {"TYPE": "QCLUSTER"})


def display_tcluster(ctx: Context, command: Command) -> Result:
    # IBM documents no CLSTATE value for a topic record in good standing; mqsh shows ACTIVE, MQ's
    # word for a cluster topic whose definition is in effect.
    return _display_records(
        ctx, command, "TCLUSTER", TOPIC, "TOPIC", {"TYPE": "CLUSTER", "CLSTATE": "ACTIVE"}
    )


def _display_records(
    ctx: Context, command: Command, target: str, kind: str, keyword: str, fixed: dict
) -> Result:
    """The queue or topic records this queue manager knows, its own included, as MQ lists them:
    one instance a response, with the queue manager that owns it."""
    spec = ctx.catalogue.objects[target]
    manager = _manager(ctx)
    result = Result()
    records = manager.cache.records(kind) if manager.cache.exists() else []
    # A queue of a queue manager RESET CLUSTER removed with QUEUES(NO) is still known (IBM MQ docs,
    # RESET CLUSTER: QUEUES(YES) is what removes it); it shows, though no put can reach it.
    for record in records:
        if record.deleted or not name_matches(command.name or "*", record.name):
            continue
        values = {
            **spec.variant().defaults,
            **record.attrs,
            keyword: record.name,
            **fixed,
            "CLUSTER": record.cluster,
            "CLUSQMGR": record.qmname,
            "QMID": record.qmid,
        }
        _dated(values, "CLUS", record.clusdate)
        display = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
        if display is not None:
            result.responses.append(display)
    return result if result.responses else _not_found(command)


def _not_found(command: Command) -> Result:
    return Result.failure(f"IBM MQ object {command.name or '*'} not found.", "AMQ8147E")


# ------------------------------------------------------------------ REFRESH / RESET CLUSTER
def _named_clusters(ctx: Context, generic: str) -> list[str]:
    return [cluster for cluster in _manager(ctx).clusters() if name_matches(generic, cluster)]


def refresh_cluster(ctx: Context, command: Command) -> Result:
    manager = _manager(ctx)
    clusters = _named_clusters(ctx, command.name or "*")
    now = ctx.qmgr.clock.now()
    try:
        refresh(manager, clusters, command.params.get("REPOS") == "YES", now)
    except ClusterCommandRefused:
        return catalogue_failure(ctx, "CLUSTER", "fullrepos")
    return _done(ctx, "refreshed")


def reset_cluster(ctx: Context, command: Command) -> Result:
    params = command.params  # exactly one of QMNAME and QMID (the catalogue's rule)
    try:
        force_remove(
            _manager(ctx),
            command.name or "",
            params.get("QMNAME"),
            params.get("QMID"),
            params.get("QUEUES") == "YES",
            ctx.qmgr.clock.now(),
        )
    except ClusterCommandRefused as refusal:
        return Result.failure(str(refusal), REFUSED_ID)
    return _done(ctx, "reset")


def _done(ctx: Context, kind: str) -> Result:
    message = ctx.catalogue.objects["CLUSTER"].message(kind)
    assert message is not None
    return Result.message(message.text, message.id)


# ------------------------------------------------------------------ SUSPEND / RESUME QMGR
def suspend_resume(ctx: Context, command: Command) -> Result:
    params = command.params  # exactly one of CLUSTER and CLUSNL (the catalogue's rule)
    if "CLUSTER" in params:
        clusters = [str(params["CLUSTER"])]
    else:
        name = str(params["CLUSNL"])
        clusters = namelist(ctx.qmgr, name)
        # The namelist is read when the command runs, so it must be there and name a cluster.
        # DEFINE or ALTER of a queue or channel does not check its CLUSNL: IBM documents no such
        # check, the namelist may be defined or filled after the object, and the repository
        # reads it as it is whenever it publishes the object.
        if not clusters:
            kind = "notfound" if ctx.qmgr.lookup("NAMELIST", name) is None else "empty"
            message = ctx.catalogue.objects["NAMELIST"].message(kind)
            assert message is not None
            return Result.failure(message.text.format(name=name), message.id)
    suspend(_manager(ctx), clusters, command.verb == "SUSPEND")
    message = ctx.catalogue.objects["QMGR"].message("suspended" if command.verb == "SUSPEND" else "resumed")
    assert message is not None
    return Result.message(message.text, message.id)
