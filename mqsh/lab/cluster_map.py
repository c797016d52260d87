"""LAB MAP CLUSTER(name) [SVG('file')]: a cluster as a graph, from every queue manager's own view.

The members are the queue managers of this data directory whose cluster cache holds their own
queue-manager record in the cluster (a DR copy made from a backup is one too, with the QMID it
was restored with): full or partial repositories, in the site of their host (LAB SITE), the
cuts between sites (LAB NETWORK). The edges are their cluster-sender channels - the manual
CLUSSDRs they define and the ones auto-defined from the CLUSRCVR records they hold - to the
member whose host the CONNAME names, with the channel's status. And for each member, what it
believes of the others: the QMID, sequence number and days left of each queue-manager record
it holds, set against the owner's own (a record behind the owner's, or of a QMID the owner of
that name no longer has, is what a DR test leaves behind). Drawn to the terminal's width, or
written as SVG.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.lab.cluster_map_draw import Belief, ClusterMap, Link, Member, svg, text_lines
from mqsh.lab.explain_cluster import cluster_cache, days_left
from mqsh.lab.picture_output import deliver
from mqsh.language.validate import Command
from mqsh.model.cluster import own
from mqsh.model.cluster.cache import QMGR, ClusterCache, Record
from mqsh.model.network.topology import addresses
from mqsh.model.qmgr_directory import RUNNING
from mqsh.responses import Result

INACTIVE = "INACTIVE"  # a channel with no status, as DISPLAY CHSTATUS knows none


def _own_record(cache: ClusterCache, cluster: str) -> Record | None:
    return next((record for record in cache.records(QMGR, cluster, own=True) if not record.deleted), None)


def gather(ctx: Context, cluster: str) -> ClusterMap:
    installation = ctx.installation
    topology = installation.network.topology
    now = installation.clock.now()
    members: list[Member] = []
    held_records: dict[str, list[Record]] = {}
    for name in installation.names():
        with cluster_cache(ctx, name) as cache:
            mine = _own_record(cache, cluster) if cache is not None else None
            if cache is None or mine is None:
                continue
            held_records[name] = [
                record for record in cache.records(QMGR, cluster) if not record.deleted and not record.own
            ]
        host = installation.host(name).lower()
        members.append(
            Member(
                name,
                mine.name,
                mine.qmid,
                mine.attrs.get("QMTYPE") == "REPOS",
                host,
                topology.site_of(host),
                installation.status(name) == RUNNING,
                mine.seq,
                days_left(mine.expiry, now),
            )
        )
    owners = {member.qmid: member for member in members}
    by_host = {member.host: member.name for member in members}
    for member in members:
        for record in held_records[member.name]:
            member.beliefs.append(
                Belief(
                    record.name,
                    record.qmid,
                    record.seq,
                    days_left(record.expiry, now),
                    record.in_use,
                    _note(record, owners, members),
                )
            )
        member.links = _links(ctx, member, held_records[member.name], by_host, cluster)
    sites = sorted({member.site for member in members})
    cuts = [pair for pair in topology.cuts() if pair[0] in sites and pair[1] in sites]
    return ClusterMap(cluster, now.strftime("%Y-%m-%d %H:%M:%S"), members, sites, cuts)


def _note(record: Record, owners: dict[str, Member], members: list[Member]) -> str:
    owner = owners.get(record.qmid)
    if owner is None:
        named = [member.qmid for member in members if member.mq_name == record.name]
        return (
            f"no member has this QMID ({record.name} is {named[0]})" if named else "no member has this QMID"
        )
    if record.seq < owner.seq:
        return f"behind the owner's {owner.seq}"
    if record.seq > owner.seq:
        # the owner's own numbers went back (restored from a backup), or another copy of its QMID
        # numbered the record: the owner's next updates at or below it are dropped
        return f"ahead of the owner's {owner.seq}: its updates up to this number are dropped"
    return "" if record.in_use else "not in use"


def _links(
    ctx: Context, member: Member, records: list[Record], by_host: dict[str, str], cluster: str
) -> list[Link]:
    """The member's cluster-sender channels in the cluster: auto-defined from the records in use it
    holds, merged with (or beside) its manual CLUSSDR definitions."""
    qmgr = ctx.installation.held.get(member.name)
    states = qmgr.channel_states if qmgr is not None else {}
    channels: dict[str, tuple[str, str]] = {}  # channel -> (deftype, CONNAME)
    for record in records:
        if record.in_use:
            channels[record.attrs.get("CHANNEL", "")] = ("CLUSSDRA", str(record.attrs.get("CONNAME", "")))
    manual = (
        []
        if qmgr is None
        else [
            channel
            for channel in qmgr.objects("CHANNEL")
            if channel.attributes.get("CHLTYPE") == "CLUSSDR"
            and cluster in own.clusters_of(qmgr, channel.attributes)
        ]
    )
    for channel in manual:  # a queue manager not running here: only what its cache holds is known
        merged = channel.name in channels
        channels[channel.name] = (
            "CLUSSDRB" if merged else "CLUSSDR",
            channels[channel.name][1] if merged else str(channel.attributes.get("CONNAME", "")),
        )
    topology = ctx.installation.network.topology
    links = []
    for channel, (deftype, conname) in sorted(channels.items()):
        host = next((address.host for address in addresses(conname) if address.host in by_host), "")
        state = states.get(channel)
        links.append(
            Link(
                member.name,
                by_host.get(host, ""),
                channel,
                deftype,
                state.status if state is not None else INACTIVE,
                bool(host) and not topology.joined(member.host, host),
            )
        )
    return links


def cluster_map(ctx: Context, command: Command) -> Result:
    cluster = command.params["CLUSTER"]  # the catalogue requires it
    picture = gather(ctx, cluster)
    if not picture.members:
        return Result.message(
            f"No queue manager of this data directory is in cluster {cluster}: none holds its "
            "own record there (a CLUSRCVR channel naming the cluster)."
        )
    return deliver(
        command, lambda width: text_lines(picture, width), lambda: svg(picture), f"Cluster {cluster}"
    )
