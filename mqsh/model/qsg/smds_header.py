"""A shared message data set at its open: whether its owner formats it anew, the header it is
formatted with, and the checks every member makes on a header before it uses the data set.

The owner formats its data set when it is new, when its EMPTY one's contents were discarded (missing,
never formatted, unreadable, or a recovery left partial), and when a RECOVERED one was preformatted
(IBM MQ docs: "Managing your shared message data set environment"). A header that names another
group, structure or owner, or an earlier definition of the structure, is invalid; one that marks a
recovery left partial is too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import (
    DataSet,
    DataSetError,
    Header,
    Sizing,
    block_bytes,
    extents_held,
    initialized,
)


def to_format(member: str, owner: str, state: states.SmdsState, path: Path, qsg: str, cf: str) -> bool:
    """Whether the member formats the data set before it opens it: only its own, when it is new, its
    EMPTY contents were discarded, or it is RECOVERED but preformatted (no header) - its owner then
    initializes it, and the scan that follows finds whether the structure holds messages it should
    have."""
    if owner != member:
        return False
    if state.status in (states.NOTFOUND, states.NEW):
        return True
    if state.status == states.EMPTY:
        return discarded(path, qsg, cf, member)
    return state.status == states.RECOVERED and path.exists() and not initialized(path)


def discarded(path: Path, qsg: str, cf: str, member: str) -> bool:
    """Whether this member's EMPTY data set is to be formatted anew: it is missing, was never
    formatted, or its header is unreadable or marks a recovery left partial. Its contents were
    discarded (RECOVER CFSTRUCT TYPE(PURGE), a structure reset) and may be replaced by a new
    allocation, so its state before does not make it fail."""
    if not path.exists():
        return True
    try:
        data_set = DataSet(path, owner_side=False, member=member)
    except DataSetError as error:
        return error.kind in ("HEADER", "EMPTY")
    data_set.close()
    header = data_set.header
    return header.partial and (header.qsg, header.cf, header.owner) == (qsg, cf, member)


def new_header(
    member: str,
    qsg: str,
    cf: str,
    cf_attributes: dict[str, Any],
    sizing: Sizing,
    defined: str,
    now: str,
    path: Path | None = None,
) -> Header:
    """The header the member formats its own data set (at path) with, for the structure's definition
    defined. A data set preformatted where it stands keeps its allocation, the extents it grew by
    included (preformatting clears the contents, not the space), as a recovery that formats it does."""
    block = block_bytes(cf_attributes.get("DSBLOCK", "256K"))
    extents, secondary = 1, sizing.secondary
    if path is not None and path.exists() and not initialized(path):
        extents, secondary = extents_held(path, block, sizing)
    return Header(
        qsg,
        cf,
        member,
        block,
        sizing.blocks,
        extents=extents,
        secondary=secondary,
        max_extents=sizing.max_extents,
        formatted=now,
        structure=defined,
    )


def validate(data_set: DataSet, qsg: str, cf: str, owner: str, defined: str) -> None:
    """DataSetError HEADER when the data set is not the one expected, PARTIAL when a recovery of it
    was left unfinished."""
    header = data_set.header
    if (header.qsg, header.cf, header.owner) != (qsg, cf, owner):
        raise DataSetError(
            "HEADER",
            f"data set {data_set.path.name} belongs to SMDS({header.owner}) "
            f"CFSTRUCT({header.cf}) of queue sharing group {header.qsg}",
        )
    if header.structure != defined:
        raise DataSetError(
            "HEADER",
            f"data set {data_set.path.name} was formatted for an earlier definition "
            f"of CFSTRUCT({cf}), deleted since",
        )
    if header.partial:
        raise DataSetError("PARTIAL", f"data set {data_set.path.name} holds a partial recovery")
