"""LAB EXPLAIN: the last recovery of the current queue manager, told so that it adds up.

A restart, rcrmqobj, or the media recovery a replicated log runs by itself
(mqsh.recovery.media.native_ha) - told with when its damage was noticed and
the attempts it deferred.

No MQ report says why a recovery left what it left. The recovery keeps a
record of what it read and, per queue, where each message came from
(mqsh.recovery.ledger); this tells it: the log extents with their first and
last LSN, the restart point, the media images, the units backed out, then per
queue a record of the ledger's numbers (typed numbers under --format json) and
the sums they make - from what was found written, and from the failure when it
was seen.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.recovery import accounts, ledger
from mqsh.recovery.ledger import Explanation, QueueLedger
from mqsh.responses import Display, Message, Response, Result


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _what_was_read(record: Explanation) -> list[Response]:
    if record.kind == "rcrmqobj":
        head = f"Last recovery of queue manager '{record.qmgr}': rcrmqobj at {record.at}."
        start = "from each object's media image"
    elif record.kind == "automatic":
        head = (
            f"Last recovery of queue manager '{record.qmgr}': automatic media recovery (replicated log) at "
            f"{record.at}, {record.cause}."
        )
        start = "from each object's media image"
    else:
        head = (
            f"Last recovery of queue manager '{record.qmgr}': restart at {record.at}, after {record.cause}."
        )
        start = (
            "from the first record (no log control file: the whole log)"
            if record.restart_lsn is None
            else f"from the restart point, LSN {record.restart_lsn} (the last checkpoint)"
        )
    units = (
        "" if record.kind != "restart" else f"; {_plural(record.units, 'unit')} of work in flight backed out"
    )
    lines = [
        Message(head),
        Message(
            f"Log read {start}: {_plural(record.records, 'record')} replayed by the {record.engine} "
            f"engine{units}.",
            inserts=[
                f"{extent.name}  LSN {_lsn(extent.first_lsn)} - {_lsn(extent.last_lsn)}"
                for extent in record.extents
            ],
        ),
    ]
    if record.images:
        lines.append(
            Message(
                "Media images read: " + ", ".join(f"{name} (LSN {lsn})" for name, lsn in record.images) + "."
            )
        )
    if record.skipped:
        lines.append(
            Message(f"Extents missing and passed over: {', '.join(record.skipped)}: their records are lost.")
        )
    return lines


def _lsn(lsn: int | None) -> str:
    return "?" if lsn is None else str(lsn)


def _terms(first: tuple[int, str], *terms: tuple[int, str]) -> str:
    """'5 from the queue file + 4 put by the log - 1 ...': signed terms, zero ones left out."""
    text = f"{first[0]} {first[1]}"
    for count, words in terms:
        if count:
            text += f" {'-' if count < 0 else '+'} {abs(count)} {words}"
    return text


def _sums(item: QueueLedger) -> list[Message]:
    if item.damaged:
        held = (
            ""
            if item.at_failure is None
            else f" It held {item.at_failure} at the failure, {item.dropped} of them non-persistent (never logged)."
        )
        return [Message(f"Queue {item.queue} is damaged: {item.lost_why}.{held}")]
    lines = [
        Message(
            f"Queue {item.queue}: "
            + _terms(
                (item.found, f"from {item.found_in}"),
                (item.put, "put by the log replayed"),
                (-item.got, "got by the log replayed"),
                (-item.backed_out, "put in units in flight, backed out"),
                (-item.held, "got in units still in flight"),
            )
            + f" = CURDEPTH({item.depth})."
        )
    ]
    if item.at_failure is not None:
        lost = f"lost ({item.lost_why})" if item.lost > 0 else "more than the failure held (a recovery fault)"
        lines.append(
            Message(
                f"Queue {item.queue} against the failure: "
                + _terms(
                    (item.at_failure, "at the failure"),
                    (-item.dropped, "non-persistent (never logged)"),
                    (-item.backed_out, "put in units in flight, backed out"),
                    (item.restored, "got in units in flight, back on the queue"),
                    (-item.lost, lost),
                )
                + f" = CURDEPTH({item.depth})."
            )
        )
    return lines


def _record(item: QueueLedger) -> Display:
    """The ledger's numbers as one record (DISPLAY's shape), typed numbers for --format json."""
    attributes: list[tuple[str, object]] = [("QUEUE", item.queue), ("CURDEPTH", item.depth)]
    if item.damaged:
        attributes.append(("DAMAGED", "YES"))
    else:
        attributes += [
            ("FOUND", item.found),
            ("FOUNDIN", "IMAGE" if "image" in item.found_in else "QFILE"),
            ("PUT", item.put),
            ("GOT", item.got),
            ("BACKEDOUT", item.backed_out),
            ("RESTORED", item.restored),
            ("HELD", item.held),
        ]
    if item.at_failure is not None:
        attributes += [("ATFAILURE", item.at_failure), ("NPDROPPED", item.dropped), ("LOST", item.lost)]
    return Display(accounts.ACCOUNT_ID, "Recovery ledger details.", attributes)


def explain(ctx: Context, command: Command, shell: Shell) -> Result:
    name = shell.current_qmgr
    if "CFSTRUCT" in command.params:
        from mqsh.lab import explain_cf  # a group's structure: loads the group's modules only when asked

        return explain_cf.explain(ctx, command, shell)
    if not name or not ctx.installation.exists(name):
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    if "MESSAGE" in command.params:
        from mqsh.lab import explain_message

        return explain_message.explain(ctx, name, command.params["MESSAGE"])
    record = ledger.load(ctx.installation.paths(name).qmgr_dir)
    if record is None:
        return Result.message(
            f"No recovery of queue manager '{name}' is recorded: it has not needed one since "
            "it was created, or the record of it cannot be read."
        )
    responses = _what_was_read(record)
    if not record.queues:
        responses.append(Message("No local queue held messages after the recovery, or had any recovered."))
    for item in record.queues:
        responses += [_record(item), *_sums(item)]
    return Result(responses)
