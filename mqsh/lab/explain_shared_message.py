"""LAB EXPLAIN MESSAGE(entry) for a message on a shared queue: followed through every member's log.

A shared message's id is its list entry's (its put's LRSN). Each member logs
its own changes to the structures, so the put (SPUT) lies in the log of the
member that put it - which says which queue manager of the group put it - and
the get (SGET) in the log of the member that got it; a backup (SBKP) in the
log of the member that took it. Then whether the structure holds it now.
"""

from __future__ import annotations

from pathlib import Path

from mqsh.commands.context import Context
from mqsh.lab.group_logs import decoded, members_of
from mqsh.model.qsg.list_structure import Structure, StructureLost, structure_path
from mqsh.responses import Message, Response, Result
from mqsh.store import putnotes, records
from mqsh.store.identity import put_by


def _in_member_log(log_dir: Path, entry: str) -> tuple[list[tuple[int, str]], str | None]:
    """(LSN, what happened) for each record of the member's log naming the entry; its structure."""
    events: list[tuple[int, str]] = []
    units: set[str] = set()
    cf = None
    putters = putnotes.read(log_dir.parent)
    for lsn, typed in decoded(log_dir):
        if isinstance(typed, (records.SharedPut, records.SharedGet)) and typed.entry == entry:
            where = f"in unit of work {typed.unit}" if typed.unit else "outside syncpoint"
            if typed.unit:
                units.add(typed.unit)
            cf = typed.structure
            if isinstance(typed, records.SharedPut):
                events.append(
                    (
                        lsn,
                        f"put on shared queue {typed.queue} (CFSTRUCT({typed.structure})) at "
                        f"{typed.put_time}, {where}, PRIORITY({typed.priority}) SIZE({typed.size}), "
                        + put_by(putters.of(lsn, None, None)),
                    )
                )
            else:
                events.append((lsn, f"got, {where}"))
        elif isinstance(typed, records.BackupEntry) and typed.entry == entry:
            cf = typed.structure
            events.append((lsn, f"held in a backup of CFSTRUCT({typed.structure})"))
        elif isinstance(typed, records.UnitEnded) and typed.unit in units:
            word = "committed" if isinstance(typed, records.Commit) else "backed out"
            events.append((lsn, f"unit of work {typed.unit} {word}"))
    return events, cf


def _now(data_dir: Path, qsg: str, cf: str, entry: str) -> str:
    try:
        with Structure(structure_path(data_dir, qsg, cf), qsg, cf) as structure:
            held = next((item for item in structure.entries() if item.e == entry), None)
    except StructureLost:
        return f"Structure {cf} is not allocated (failed or not yet recovered): where it is now is not known."
    if held is None:
        return f"Now on no queue of structure {cf}."
    return f"Now on shared queue {held.sq} of structure {cf}."


def explain(ctx: Context, qmgr: str, entry: str) -> Result | None:
    """The message's story in the group's logs; None when the queue manager is in no group or no
    member's log names it."""
    group = members_of(ctx, qmgr)
    if group is None:
        return None
    qsg, members = group
    found = [(member, *_in_member_log(ctx.installation.paths(member).log_dir, entry)) for member in members]
    found = [item for item in found if item[1]]
    if not found:
        return None
    # The putting member's log first: the message's story starts there.
    found.sort(key=lambda item: not any(text.startswith("put on") for _lsn, text in item[1]))
    cf = next(str(named) for _member, _events, named in found if named)
    lines: list[Response] = [
        Message(
            f"Message MSGID({entry}) in the log of queue manager '{member}' of group {qsg}:",
            inserts=[f"LSN {lsn:<8} {text}" for lsn, text in events],
        )
        for member, events, _named in found
    ]
    lines.append(Message(_now(ctx.installation.data_dir, qsg, cf, entry)))
    return Result(lines)
