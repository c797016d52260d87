"""LAB EXPLAIN CFSTRUCT(name): the structure's last RECOVER CFSTRUCT, told so that it adds up.

The recovery's record (mqsh.recovery.cf_ledger) says what it started from -
the backup (when taken, its LRSN, where its records lie) or a purge - and the
members' logs it read; then per shared queue a record of its numbers (typed
under --format json) and their sum, and the structure's own sum. A data set
the recovery rewrote after its owner found it down level is told too: the
message its newest block should have held and what it held, how old the copy
was, and the messages written back - those the copy held and those put after
it - adding up to what was rewritten. Then every data set the recovery formatted
anew: what it found it to be (missing, empty, its header destroyed, down level
...), the blocks it remade it at and the messages' data written into it; with
the messages whose data is in their entries and those in data sets left as
they were, they add up to the structure's messages.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.core.clock import TIMESTAMP
from mqsh.lab.shared_faults import current_group
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.model.qsg.list_structure import structure_path
from mqsh.model.qsg.lrsn import put_time
from mqsh.recovery import cf_ledger
from mqsh.recovery.cf_ledger import CfExplanation, DataSetRebuild, MemberLogRead
from mqsh.responses import Display, Message, Response, Result

LEDGER_ID = "CSQE135I"  # the recovery's own progress message, whose sum this details


def _started_from(record: CfExplanation) -> str:
    if record.backup_lrsn is not None:
        start, end = record.backup_lsns or (None, None)
        return (
            f"the backup taken by {record.backup_member} at {record.backup_at}, LRSN {record.backup_lrsn:X} "
            f"(its records at LSN {start} - {end} of {record.backup_member}'s log): "
            f"{record.restored} message{'' if record.restored == 1 else 's'}"
        )
    if record.purge_at is not None:
        purged = (
            "" if record.purged_earlier is None else f", which discarded {record.purged_earlier} messages"
        )
        return f"the purge of {record.purge_at} (no backup taken since){purged}: the structure empty"
    return "no backup: the structure empty at the start of the members' logs"


def _logs(record: CfExplanation) -> Message:
    return Message(
        f"Members' logs read ({record.applied} records applied after the start point, "
        f"{record.engine} engine):",
        inserts=[
            f"{item.member}  {_extents(item)}  LSN {item.first_lsn} - {item.last_lsn}"
            if item.first_extent
            else f"{item.member}  no log"
            for item in record.logs
        ],
    )


def _extents(item: MemberLogRead) -> str:
    return (
        item.first_extent
        if item.first_extent == item.last_extent
        else f"{item.first_extent}-{item.last_extent}"
    )


def _sums(record: CfExplanation) -> list[Response]:
    lines: list[Response] = []
    for item in record.queues:
        lines += [
            Display(
                LEDGER_ID,
                "Shared queue recovery ledger details.",
                [
                    ("QUEUE", item.queue),
                    ("CURDEPTH", item.depth),
                    ("FROMBACKUP", item.from_backup),
                    ("REPLAYED", item.replayed),
                ],
            ),
            Message(
                f"Shared queue {item.queue}: {item.from_backup} from the backup + {item.replayed} put "
                f"since, replayed = CURDEPTH({item.depth})."
            ),
        ]
    lines.append(
        Message(
            f"Structure {record.cf}: {record.restored} from the backup - {record.gone} got or backed "
            f"out since + {record.put} put since = {record.entries} messages; {record.dropped} "
            "non-persistent dropped (never logged)."
        )
    )
    if record.at_failure is not None:
        lost = record.at_failure - record.entries
        told = (
            f"{lost} lost"
            if lost > 0
            else f"{-lost} more put after the failure was counted"
            if lost
            else "none lost"
        )
        lines.append(
            Message(
                f"Against its failure: {record.at_failure} persistent messages held then, "
                f"{record.entries} recovered: {told}."
            )
        )
    return lines


def _when(entry: str) -> str:
    return f"{put_time(entry):{TIMESTAMP}}"


def _rebuilt(item: DataSetRebuild) -> list[Response]:
    found = item.found
    held = (
        "nothing: no message was ever written there in the copy"
        if found.held is None
        else f"entry {found.held} (put at {_when(found.held)}) instead"
    )
    newest = (
        "The data set held no message at all"
        if found.newest_held is None
        else f"The newest message the data set held was put at {_when(found.newest_held)} (entry "
        f"{found.newest_held}): a copy from then"
    )
    missing = found.messages - found.intact
    return [
        Display(
            LEDGER_ID,
            "Shared message data set rebuild details.",
            [
                ("SMDS", found.owner),
                ("DSN", found.data_set),
                ("FOUNDDATE", found.found_at[:10]),
                ("FOUNDTIME", found.found_at[11:].replace(":", ".")),
                ("EXPECTED", found.expected),
                ("HELD", found.held or ""),
                ("NEWEST", found.newest_held or ""),
                ("MESSAGES", found.messages),
                ("INTACT", found.intact),
                ("REWRITTEN", item.rewritten),
                ("COPYHELD", item.copy_held),
                ("AFTERCOPY", item.after_copy),
            ],
        ),
        Message(
            f"Data set {found.data_set} (SMDS({found.owner})) was found down level at {found.found_at}, "
            f"by {found.found_by}: the newest message the structure has data there for, entry "
            f"{found.expected} on queue {found.queue} put at {_when(found.expected)}, starts at block "
            f"{found.block}, which held {held}."
        ),
        Message(
            f"{newest}. It held {found.intact} of the structure's {found.messages} messages there; "
            f"{missing} missing."
        ),
        Message(
            f"Data set {found.data_set} rewritten: {item.copy_held} messages the copy held + "
            f"{item.after_copy} put after its newest, from the members' logs = {item.rewritten} "
            "messages' data."
        ),
    ]


def _remade(record: CfExplanation) -> list[Response]:
    """Each data set the recovery formatted anew - what it found, what it made of it - and the sum the
    recovered messages' data makes, where it lies."""
    if not record.remade:
        return []
    lines: list[Response] = []
    for item in record.remade:
        lines.append(
            Display(
                LEDGER_ID,
                "Shared message data set recovery details.",
                [
                    ("SMDS", item.owner),
                    ("DSN", item.data_set),
                    ("FOUND", item.found),
                    ("BLOCKS", item.blocks if item.blocks is not None else ""),
                    ("REWRITTEN", item.messages if item.blocks is not None else 0),
                ],
            )
        )
        done = (
            f"the recovery formatted it anew at {item.blocks} blocks and rewrote into it the data of "
            f"{item.messages} recovered messages"
            if item.blocks is not None
            else f"the recovery formatted it anew but could not rewrite it ({item.error}): the data of "
            f"{item.messages} recovered messages is not in it, and it stays FAILED"
        )
        lines.append(Message(f"Data set {item.data_set} (SMDS({item.owner})) was found {item.why}; {done}."))
    terms = [f"{record.in_entries} with their data in their list entries"]
    terms += [f"{count} in SMDS({owner}) as it was" for owner, count in record.kept.items()]
    terms += [
        f"{item.messages} {'rewritten into' if item.blocks is not None else 'owed to'} SMDS({item.owner})"
        for item in record.remade
    ]
    lines.append(Message(f"Structure {record.cf}'s messages: {' + '.join(terms)} = {record.entries}."))
    return lines


def explain(ctx: Context, command: Command, shell: Shell) -> Result:
    cf = command.params["CFSTRUCT"]
    qsg = current_group(ctx, shell)
    if isinstance(qsg, Result):
        return qsg
    record = cf_ledger.load(cf_ledger.path_beside(structure_path(ctx.installation.data_dir, qsg, cf)))
    if record is None:
        return Result.message(f"No RECOVER CFSTRUCT of structure {cf} in group {qsg} is recorded.")
    if record.purge:
        discarded = "the messages it held" if record.discarded is None else f"{record.discarded} messages"
        return Result.message(
            f"Last recovery of structure {cf}: RECOVER CFSTRUCT TYPE(PURGE) by {record.by} at "
            f"{record.at}: allocated empty; {discarded} purged, {record.dropped} non-persistent "
            "dropped. Its data sets are EMPTY, and the next recovery starts from here."
        )
    return Result(
        [
            Message(
                f"Last recovery of structure {cf}: RECOVER CFSTRUCT by {record.by} at {record.at}, "
                f"from {_started_from(record)}."
            ),
            _logs(record),
            *_sums(record),
            *[line for item in record.rebuilt for line in _rebuilt(item)],
            *_remade(record),
        ]
    )
