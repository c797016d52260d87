"""DISPLAY CFSTATUS: the status of the group's structures, their connections, backups and data sets.

Read from the group's repository (the structure's status, the marks of a
BACKUP or RECOVER running on it, its connections, its last backup, its SMDS
array) and from the structure itself (its entries). The fields of each TYPE
are those of IBM's PCF response; one CSQM201I message per record.

Choices where no source says: CSQ_ADMIN is left out (mqsh does not model
the administration structure, so it has no status to show, and naming it is
refused as DISPLAY CFSTRUCT refuses it); a structure's size is counted in
entries, each with room for the 63 KB an entry holds, so SIZEMAX is
ENTSMAX x 63 KB and SIZEUSED the percentage of entries in use; SYSNAME is the
host the member runs on; the backup's RBAs are its log positions, in 16 hex
digits; the csect is CSQMDRTC, as for the other status displays.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, is_generic, name_matches
from mqsh.commands.qsg.group import run_on_repository
from mqsh.commands.zos import Reply
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.validate import Command
from mqsh.model.qsg import states
from mqsh.model.qsg.cfstruct_definitions import ADMIN, named_admin
from mqsh.model.qsg.list_structure import Structure, StructureLost, structure_path
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.shared_messages import ENTRIES_MAX, MAX_IN_ENTRY
from mqsh.model.qsg.structure_backup import megabytes, rba
from mqsh.responses import Display, Result

CSECT = "CSQMDRTC"
BUSY = {"BACKUP": "INBACKUP", "RECOVER": "INRECOVER"}


def _stamp(prefix: str, moment: str | None) -> dict[str, str]:
    """DATE and TIME fields of a stored time stamp; blank when there is none."""
    if not moment:
        return {f"{prefix}DATE": "", f"{prefix}TIME": ""}
    when = datetime.fromisoformat(moment)
    return {f"{prefix}DATE": mq_date(when), f"{prefix}TIME": mq_time(when)}


def _structure_status(state: states.StructureState) -> str:
    return BUSY.get(state.busy_kind or "", state.status)


def _failure(state: states.StructureState) -> dict[str, str]:
    return _stamp("FAIL", state.failed if state.status == states.FAILED else None)


def _summary(ctx: Context, repository: SharedRepository, qsg: str, cf: str) -> list[dict[str, Any]]:
    state = states.structure_state(repository, cf)
    entries, offloaded = 0, False
    if state.status == states.ACTIVE:
        try:
            with Structure(structure_path(ctx.installation.data_dir, qsg, cf), qsg, cf) as structure:
                entries = structure.entry_count()
                offloaded = structure.holds_offloaded()
        except StructureLost:
            pass  # lost since: its members find out at their next use, and it shows no entries
    return [
        {
            "CFTYPE": "APPL",
            "ENTSMAX": ENTRIES_MAX,
            "ENTSUSED": entries,
            **_failure(state),
            "OFFLDUSE": "SMDS" if offloaded else "NONE",
            "SIZEMAX": ENTRIES_MAX * MAX_IN_ENTRY // 1024,
            "SIZEUSED": 100 * entries // ENTRIES_MAX,
            "STATUS": _structure_status(state),
        }
    ]


def _connect(ctx: Context, repository: SharedRepository, qsg: str, cf: str) -> list[dict[str, Any]]:
    """A record per member connected to the structure: ACTIVE, or FAILED since a peer found it failed
    (and recovered its work) until it connects again."""
    records = []
    for member, _connected, failed in repository.connections(cf):
        records.append(
            {
                "QMNAME": member,
                **_stamp("FAIL", failed),
                "STATUS": "FAILED" if failed else "ACTIVE",
                "SYSNAME": ctx.installation.host(member).upper()[:8],
            }
        )
    return records


def _backup(ctx: Context, repository: SharedRepository, qsg: str, cf: str) -> list[dict[str, Any]]:
    state = states.structure_state(repository, cf)
    backup = repository.latest_backup(cf)
    record: dict[str, Any] = {**_failure(state), "STATUS": _structure_status(state)}
    if backup is None:  # never backed up: the fields are blank
        return [
            {
                **record,
                "QMNAME": "",
                **_stamp("BKUP", None),
                "BKUPSRBA": "",
                "BKUPERBA": "",
                "BKUPSIZE": "",
                "LOGS": "",
            }
        ]
    return [
        {
            **record,
            "QMNAME": backup.qmgr,
            **_stamp("BKUP", backup.ended),
            "BKUPSRBA": rba(backup.start_lsn),
            "BKUPERBA": rba(backup.end_lsn),
            "BKUPSIZE": megabytes(backup.size),
            "LOGS": ",".join(backup.logs),
        }
    ]


def _smds(ctx: Context, repository: SharedRepository, qsg: str, cf: str, owners: str) -> list[dict[str, Any]]:
    """A record per data set activated; one that never was shows only when its owner is named."""
    records = []
    for member in repository.members():
        if not name_matches(owners, member.qmgr):
            continue
        state = states.smds_state(repository, cf, member.qmgr)
        if state.status == states.NOTFOUND and is_generic(owners):
            continue
        recovering = repository.cfstructs()[cf].get("RECOVER") == "YES"
        records.append(
            {
                "SMDS": member.qmgr,
                "ACCESS": state.access,
                "STATUS": state.status,
                **_stamp("FAIL", state.failed if state.status != states.ACTIVE else None),
                **_stamp("RCV", state.recovered if recovering else None),
            }
        )
    return records


def _display(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    kind = str(command.params.get("TYPE", "SUMMARY"))
    owners = command.params.get("SMDS")
    if owners is not None and kind != "SMDS":
        return reply.failed("CSQM092I", f"SMDS({owners}) VALUE INVALID")  # only with TYPE(SMDS)
    pattern = command.name or "*"
    if named_admin(pattern):
        return reply.failed("CSQM092I", f"CFSTRUCT({ADMIN}) VALUE INVALID")
    structures = {
        name: attributes
        for name, attributes in repository.cfstructs().items()
        if name != ADMIN and name_matches(pattern, name)
    }
    if not structures and not is_generic(pattern):
        return reply.failed("CSQM094I", f"CFSTRUCT({pattern}) WAS NOT FOUND")
    if kind == "SMDS":
        if not is_generic(pattern) and structures[pattern].get("OFFLOAD") != "SMDS":
            return reply.failed("CSQM092I", f"CFSTRUCT({pattern}) VALUE INVALID")  # it has no data sets
        structures = {
            name: attributes for name, attributes in structures.items() if attributes.get("OFFLOAD") == "SMDS"
        }
    qsg = repository.qsg
    spec = ctx.catalogue.objects["CFSTATUS"]
    attributes = spec.variant(kind).attributes
    records: list[Display] = []
    for cf in sorted(structures):
        if kind == "SMDS":
            found = _smds(ctx, repository, qsg, cf, str(owners or "*"))
        else:
            found = {"SUMMARY": _summary, "CONNECT": _connect, "BACKUP": _backup}[kind](
                ctx, repository, qsg, cf
            )
        for values in found:
            record = build_display(
                ctx.catalogue, spec, command, {"CFSTATUS": cf, "TYPE": kind, **values}, attributes
            )
            if record is not None:
                records.append(record)
    # A structure named that has nothing of the TYPE asked (no connection, no data set activated) is
    # answered as a generic name matching nothing is: CSQM297I (IBM documents no reply for this
    # case; chosen so that every reply says something).
    return reply.displayed("CFSTATUS", records, is_generic(pattern) or not records)


def display(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, CSECT, command.typed), _display)
