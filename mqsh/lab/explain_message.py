"""LAB EXPLAIN MESSAGE(msgid): one message followed through the log, the backups and the last recovery.

What the log holds of it, in LSN order: the put (queue, time, unit of work, and
who put it - the user id and the putting application's name, as its MQMD's
UserIdentifier and PutApplName say; the queue manager is the log's own),
the media images that hold it, the get, and the end of each unit of work it
was moved in; then which of the queue manager's backups (LAB BACKUP) hold it,
where it is now, and how the last recovery treated it - found written (on the
queue file or in a media image) or replayed from the log. A non-persistent
message is never logged: only the queue it is on can tell of it. This reads
the whole log present, record by record: it follows one message, not a queue.
A message on a shared queue is followed through every member's log
(mqsh.lab.explain_shared_message).
"""

from __future__ import annotations

import json
from pathlib import Path

from mqsh.commands.context import Context
from mqsh.core.objects import GET_PENDING, PUT_PENDING
from mqsh.lab.backup import BACKUPS, NOTE
from mqsh.recovery import ledger, logscan
from mqsh.responses import Message, Result
from mqsh.store import log as logstore
from mqsh.store import putnotes, records
from mqsh.store.identity import put_by

STATES = {
    PUT_PENDING: "put in a unit of work not yet committed",
    GET_PENDING: "got in a unit of work not yet committed",
}


def _in_log(log_dir: Path, msgid: str) -> tuple[list[tuple[int, str]], int | None, list[str]]:
    """(LSN, what happened) for each record that names the message; the LSN of its put; missing extents."""
    events: list[tuple[int, str]] = []
    units: set[str] = set()
    put_lsn = None
    present = logstore.list_extents(log_dir)
    putters = putnotes.read(log_dir.parent)
    skipped: list[str] = []
    for record in logscan.records(log_dir, present[0], 0, skipped) if present else ():
        typed = records.decode(record)
        lsn = record[records.LSN]
        if isinstance(typed, (records.Put, records.Get)) and typed.msgid == msgid:
            where = f"in unit of work {typed.unit}" if typed.unit else "outside syncpoint"
            if typed.unit:
                units.add(typed.unit)
            if isinstance(typed, records.Put):
                put_lsn = lsn
                put = (
                    f"put on queue {typed.queue} at {typed.put_time}, {where}, PRIORITY({typed.priority}) "
                    f"SIZE({typed.size}), {put_by(putters.of(lsn, typed.user, typed.appl))}"
                )
                events.append((lsn, put))
            else:
                events.append((lsn, f"got from queue {typed.queue}, {where}"))
        elif isinstance(typed, records.ObjectImage) and any(
            item.get(records.MSGID) == msgid for item in typed.messages or []
        ):
            events.append((lsn, f"held in the media image of queue {typed.name}"))
        elif isinstance(typed, records.UnitEnded) and typed.unit in units:
            word = "committed" if isinstance(typed, records.Commit) else "backed out"
            events.append((lsn, f"unit of work {typed.unit} {word}"))
    return events, put_lsn, skipped


def _backups(data_dir: Path, qmgr: str, msgid: str) -> list[str]:
    """The queue manager's backups whose files (queue files or log) name the message."""
    found = []
    needle = msgid.encode("ascii")
    for folder in sorted((data_dir / BACKUPS).glob("*")):
        try:
            note = json.loads((folder / NOTE).read_text())
        except (OSError, ValueError):
            continue
        if note.get("qmgr") != qmgr:
            continue
        if any(
            needle in path.read_bytes() for path in folder.rglob("*") if path.is_file() and path.name != NOTE
        ):
            found.append(f"{folder.name} (taken at {note.get('taken', '?')})")
    return found


def _now(ctx: Context, qmgr: str, msgid: str) -> tuple[str, bool]:
    """Where the message is now (if the queue manager is running here), and whether it is non-persistent."""
    held = ctx.installation.held.get(qmgr)
    if held is None:
        return "Queue manager not running here: where the message is now is not known.", False
    for obj in held.catalog.state.values():
        for message in obj.messages:
            if message.msgid == msgid:
                state = STATES.get(message.state, "committed")
                kind = "persistent" if message.persistent else "non-persistent (never logged)"
                return f"Now on queue {obj.name}, {state}: {kind}.", not message.persistent
    return "Now on no queue.", False


def _last_recovery(qmgr_dir: Path, put_lsn: int | None, events: list[tuple[int, str]]) -> str | None:
    record = ledger.load(qmgr_dir)
    if record is None or put_lsn is None:
        return None
    log_end = record.extents[-1].last_lsn if record.extents else None
    if log_end is not None and put_lsn > log_end:
        return f"It was put after the last recovery ({record.kind} at {record.at})."
    if record.kind == "rcrmqobj":
        images = {lsn for _name, lsn in record.images}
        if any(lsn in images and text.startswith("held in the media image") for lsn, text in events):
            how = "from the media image"
        elif images and put_lsn > min(images):
            how = "replayed from the log after the media image"
        else:
            how = "not brought back: its queue's image came after it was got"
        return f"The last recovery (rcrmqobj at {record.at}) treated it: {how}."
    if record.restart_lsn is not None and put_lsn < record.restart_lsn:
        return (
            f"The last recovery (restart at {record.at}) found it written before its restart point (LSN "
            f"{record.restart_lsn}): on the queue file, if it was still there."
        )
    return f"The last recovery (restart at {record.at}) replayed it from the log."


def explain(ctx: Context, qmgr: str, msgid: str) -> Result:
    msgid = msgid.upper()
    paths = ctx.installation.paths(qmgr)
    events, put_lsn, skipped = _in_log(paths.log_dir, msgid)
    now, nonpersistent = _now(ctx, qmgr, msgid)
    if not events:
        from mqsh.lab import explain_shared_message  # a group's shared message: its modules only when asked

        shared = explain_shared_message.explain(ctx, qmgr, msgid)
        if shared is not None:
            return shared
        why = (
            "it is non-persistent, and a non-persistent message is never logged"
            if nonpersistent
            else "the extents that held its records are gone, or it was never put here"
        )
        return Result(
            [
                Message(f"Message MSGID({msgid}) is not in the log of queue manager '{qmgr}': {why}."),
                Message(now),
            ]
        )
    lines = [
        Message(
            f"Message MSGID({msgid}) in the log of queue manager '{qmgr}':",
            inserts=[f"LSN {lsn:<8} {text}" for lsn, text in events],
        )
    ]
    if skipped:
        lines.append(
            Message(f"Extents missing from the log, which may have held more of it: {', '.join(skipped)}.")
        )
    backed_up = _backups(ctx.installation.data_dir, qmgr, msgid)
    lines.append(
        Message(
            "Backed up in " + ", ".join(backed_up) + "."
            if backed_up
            else "In no backup of the queue manager (LAB BACKUP)."
        )
    )
    lines.append(Message(now))
    told = _last_recovery(paths.qmgr_dir, put_lsn, events)
    if told:
        lines.append(Message(told))
    return Result(lines)
