"""The owner's space in its shared message data set: blocks for a message, expansion, and its retry.

The owner expands its data set when a message would make it 90 % full,
provided DSEXPAND(YES) is in effect for it: its SMDS override says YES, or
DEFAULT and the structure says YES. Each expansion adds an extent of the
secondary size (CSQE213I); with no secondary allocation the expansion asks
for about 20 % of the current size. At the maximum number of extents the
attempt fails with a message (CSQE239I), EXPANDST becomes MAXIMUM and the
owner sets its override to DSEXPAND(NO), so as not to try again at every
put; a full data set then refuses large messages with 2192
(MQRC_STORAGE_MEDIUM_FULL). Setting DSEXPAND back to YES or DEFAULT with
ALTER SMDS triggers a retry (IBM, "Managing your shared message data set
environment", Data set becomes full): past the maximum extents it is
rejected again with the message, and DSEXPAND(NO) set again.

The owner's space map is brought up to date from the structure when it
needs room: a get deletes the entry in the structure, whichever member
makes it, so the blocks of messages got since are free.
"""

from __future__ import annotations

from typing import Any, Protocol

from mqsh.core.reasons import MQRC_STORAGE_MEDIUM_FULL, MQError
from mqsh.model.qsg import smds_restart
from mqsh.model.qsg.datasets import EXPAND_AT, DataSet, blocks_for
from mqsh.model.qsg.list_structure import Structure
from mqsh.model.qsg.repository import SharedRepository


class Expanding(Protocol):
    """The owner's SMDSCONN entry for its data set: EXPANDST."""

    expandst: str


class SpaceOwner(smds_restart.Owner, Protocol):
    """The member and its data sets (mqsh.model.qsg.smds_access.SmdsAccess)."""

    open: dict[tuple[str, str], DataSet]

    def connection(self, repository: SharedRepository, cf: str, owner: str) -> Expanding: ...


def dsexpand(owner: SpaceOwner, repository: SharedRepository, cf: str, cf_attributes: dict[str, Any]) -> str:
    """The DSEXPAND in effect for the owner's data set: its SMDS override, or the structure's when
    that is DEFAULT - and the structure's DEFAULT is the default it assumes, YES ("Managing your shared
    message data set environment": YES "set or assumed as the DSEXPAND default for the CFSTRUCT")."""
    expand = repository.smds_overrides(cf).get(owner.member, {}).get("DSEXPAND", "DEFAULT")
    if expand == "DEFAULT":
        expand = cf_attributes.get("DSEXPAND", "YES")
    return "YES" if expand == "DEFAULT" else str(expand)


def allocate(
    owner: SpaceOwner,
    repository: SharedRepository,
    cf: str,
    cf_attributes: dict[str, Any],
    data_set: DataSet,
    structure: Structure,
    size: int,
) -> tuple[int, int]:
    """(first block, count) for a message of size bytes, expanding the data set at 90 % full when
    DSEXPAND allows; MQError 2192 when it is full."""
    count = blocks_for(size, data_set.header.block)
    first = data_set.free_run(count)
    if first is None or (len(data_set.used) + count) >= EXPAND_AT * data_set.total_blocks():
        reclaim(owner, data_set, structure)
        if (len(data_set.used) + count) >= EXPAND_AT * data_set.total_blocks() and dsexpand(
            owner, repository, cf, cf_attributes
        ) == "YES":
            _expand(owner, repository, cf, data_set)
        first = data_set.free_run(count)
    if first is None:
        raise MQError(MQRC_STORAGE_MEDIUM_FULL)
    return first, count


def retry_expansion(
    owner: SpaceOwner,
    repository: SharedRepository,
    cf: str,
    cf_attributes: dict[str, Any],
    structure: Structure | None,
) -> None:
    """ALTER SMDS set DSEXPAND back to YES (or DEFAULT, the structure's YES) for the owner's data set:
    an open one whose last expansion failed, or that is 90 % full, is expanded now. (One not open is
    expanded at its owner's next put that needs it.)"""
    data_set = owner.open.get((cf, owner.member))
    if data_set is None or dsexpand(owner, repository, cf, cf_attributes) != "YES":
        return
    if structure is not None:
        reclaim(owner, data_set, structure)
    if (
        owner.connection(repository, cf, owner.member).expandst != "NORMAL"
        or len(data_set.used) >= EXPAND_AT * data_set.total_blocks()
    ):
        _expand(owner, repository, cf, data_set)


def reclaim(owner: SpaceOwner, data_set: DataSet, structure: Structure) -> None:
    """The owner's space map brought up to date: the blocks of messages got since are free (the owner
    frees them when it next needs room or reports its usage)."""
    data_set.use_runs(smds_restart.scan(owner, structure, data_set).runs)


def _expand(owner: SpaceOwner, repository: SharedRepository, cf: str, data_set: DataSet) -> None:
    connection = owner.connection(repository, cf, owner.member)
    header = data_set.header
    if header.extents >= header.max_extents:
        connection.expandst = "MAXIMUM"
        repository.set_smds_overrides(cf, [owner.member], {"DSEXPAND": "NO"})
        owner.errors.write(
            "CSQE239I",
            at_maximum_extents(owner.member, cf, data_set),
            "DSEXPAND(NO) is now set for this data set.",
            "Make room by getting messages, or reallocate the data set larger.",
        )
        return
    data_set.expand()
    connection.expandst = "NORMAL"
    owner.errors.write(
        "CSQE213I",
        f"SMDS({owner.member}) CFSTRUCT({cf}) data set {data_set.path.name} has been "
        f"expanded to {data_set.total_blocks()} blocks",
    )


def at_maximum_extents(owner: str, cf: str, data_set: DataSet) -> str:
    """CSQE239I's words: the data set cannot be expanded, at its maximum extents - at a put, at ALTER
    SMDS, or in a recovery that must write more blocks than its allocation may hold."""
    return (
        f"SMDS({owner}) CFSTRUCT({cf}) data set {data_set.path.name} cannot be expanded: "
        f"the maximum number of extents ({data_set.header.max_extents}) has been reached"
    )
