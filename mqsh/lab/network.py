"""LAB SITE and LAB NETWORK: where hosts are, and which sites can reach each other.

LAB SITE QMGR(QM1) SITE(PROD)        the host QM1 runs on is in site PROD
LAB SITE HOST(drhost) SITE(DR)       a host by name (one a backup is restored on)
LAB SITE QMGR(QM1) ADDRESS(10.1.0.5) the host's IP address (with SITE, or alone)
LAB NETWORK CUT SITES(PROD,DR)       no connection between the two sites from now on
LAB NETWORK JOIN SITES(PROD,DR)      joined again
LAB NETWORK                          the sites, their hosts and the cuts
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.model.network.topology import DEFAULT_SITE, ipv4
from mqsh.responses import Message, Result


def site(ctx: Context, command: Command, shell: Shell) -> Result:
    params = command.params
    place, host, qmgr = params.get("SITE"), params.get("HOST"), params.get("QMGR")
    given = params.get("ADDRESS")
    if not (place or given) or (host and qmgr):
        return Result.failure(
            "mqsh: LAB SITE needs SITE(name) or ADDRESS(a.b.c.d) or both, and QMGR(name) or "
            "HOST(name) but not both."
        )
    address = ipv4(given) if given else None
    if given and address is None:
        return Result.failure(f"mqsh: LAB SITE ADDRESS({given}) is not an IPv4 address (four numbers 0-255).")
    if not host:
        qmgr = qmgr or shell.current_qmgr
        if not qmgr or not ctx.installation.exists(qmgr):
            return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
        host = ctx.installation.host(qmgr)
    topology = ctx.installation.network.topology
    lines = []
    if place:
        topology.place(host, place)
        lines.append(Message(f"Host {host.lower()} is now in site {place.upper()}."))
    if address:
        topology.set_address(host, address)
        lines.append(Message(f"Host {host.lower()} now has address {address}."))
    return Result(lines)


def network(ctx: Context, command: Command) -> Result:
    params = command.params
    topology = ctx.installation.network.topology
    cut, join = params.get("CUT", False), params.get("JOIN", False)
    if not cut and not join:
        return _show(ctx)
    sites = [name.upper() for name in params.get("SITES") or []]
    if cut == join or len(sites) != 2 or sites[0] == sites[1]:
        return Result.failure("mqsh: LAB NETWORK needs CUT or JOIN, and SITES(a,b) naming two sites.")
    if cut:
        topology.cut(*sites)
        return Result.message(f"The network between sites {sites[0]} and {sites[1]} is cut.")
    topology.join(*sites)
    return Result.message(f"Sites {sites[0]} and {sites[1]} are joined.")


def _show(ctx: Context) -> Result:
    topology = ctx.installation.network.topology
    placed = {host for hosts in topology.sites().values() for host in hosts}
    sites = topology.sites()
    for name in ctx.installation.names():
        host = ctx.installation.host(name).lower()
        if host not in placed:
            sites[DEFAULT_SITE].append(host)
            placed.add(host)
    lines = [
        Message(
            f"Site {name}: "
            + (", ".join(f"{host} ({topology.address_of(host)})" for host in sorted(hosts)) or "(no hosts)")
        )
        for name, hosts in sorted(sites.items())
    ]
    cuts = topology.cuts()
    lines.append(
        Message(
            "Cut: " + ", ".join(f"{a}-{b}" for a, b in cuts) if cuts else "Every site reaches every other."
        )
    )
    if topology.damaged():
        lines.append(
            Message(
                f"mqsh: {topology.path} is damaged: the network is shown, and works, as one "
                "site until LAB SITE or LAB NETWORK writes it again."
            )
        )
    return Result(lines)
