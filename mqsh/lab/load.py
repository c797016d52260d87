"""LAB LOAD: a long log in seconds, to rehearse a heavy restart.

It writes what an application moving persistent messages through a queue
would have logged, without making the calls one by one: each cycle of ten
records puts four messages (two outside syncpoint, two in a committed unit of
work) and gets the four the previous cycle put (two outside syncpoint, two in
a committed unit of work), first in, first out. Records are built as text and
written an extent's worth at a time, each block with one write(). Memory ends
where replaying those records would leave it: the last cycle's messages on
the queue.
"""

from __future__ import annotations

import errno
import json
import zlib

from mqsh.commands.context import Context
from mqsh.core.objects import StoredMessage
from mqsh.core.progress import status_line
from mqsh.core.reasons import MQRC_GET_INHIBITED, MQRC_RESOURCE_PROBLEM, MQError
from mqsh.language.validate import Command
from mqsh.model.interrupts import uninterrupted
from mqsh.model.qsg.shared_queue import SharedQueue
from mqsh.responses import Result
from mqsh.store.records import KIND, LSN, MSGID, PRIORITY, PUT_TIME, QUEUE, QUEUES, SIZE, UNIT

CYCLE = 10  # records per cycle
PER_CYCLE = 4  # messages put (and got) per cycle


class _Records:
    """Builds the cycles' log lines, numbering records and ids as it goes."""

    def __init__(self, queue: str, lsn: int, msgid_prefix: str, first_msg: int, size: int, put_time: str):
        self.lsn = lsn
        self.next_msg = first_msg
        self.units = 0
        self.msgid_prefix = msgid_prefix
        self.queue = json.dumps(queue)
        # The records' JSON made up around the values that change, keyed as records.py keys them.
        self.lsn_head = f'{{"{LSN}":'
        self.put_head = f',"{KIND}":"PUT","{QUEUE}":{self.queue},"{MSGID}":"'
        self.put_tail = f'","{PRIORITY}":0,"{SIZE}":{size},"{PUT_TIME}":{json.dumps(put_time)},"{UNIT}":'
        self.get_head = f',"{KIND}":"GET","{QUEUE}":{self.queue},"{MSGID}":"'
        self.get_tail = f'","{UNIT}":'
        self.commit_head = f',"{KIND}":"CMT","{UNIT}":'
        self.commit_tail = f',"{QUEUES}":[{self.queue}]}}'
        self.puts = self.gets = 0
        self.lines: list[bytes] = []
        self.size = 0  # bytes in lines

    def _line(self, body: str) -> None:
        data = body.encode("ascii")
        line = b"%08x %s\n" % (zlib.crc32(data), data)
        self.lines.append(line)
        self.size += len(line)
        self.lsn += 1

    def take(self) -> bytes:
        """The lines built so far, as one block; the builder starts afresh."""
        block = b"".join(self.lines)
        self.lines, self.size = [], 0
        return block

    def _unit(self) -> str:
        self.units += 1
        return f'"{self.lsn}.L{self.units}"'

    def put(self, unit: str) -> str:
        msgid = f"{self.msgid_prefix}{self.next_msg:012X}"
        self.next_msg += 1
        self.puts += 1
        self._line(f"{self.lsn_head}{self.lsn}{self.put_head}{msgid}{self.put_tail}{unit}}}")
        return msgid

    def get(self, msgid: str, unit: str) -> None:
        self.gets += 1
        self._line(f"{self.lsn_head}{self.lsn}{self.get_head}{msgid}{self.get_tail}{unit}}}")

    def commit(self, unit: str) -> None:
        self._line(f"{self.lsn_head}{self.lsn}{self.commit_head}{unit}{self.commit_tail}")

    def cycle(self, waiting: list[str]) -> list[str]:
        """Get the messages waiting (if any), put new ones; the new ones are returned."""
        if waiting:
            self.get(waiting[0], "null")
            self.get(waiting[1], "null")
            unit = self._unit()
            self.get(waiting[2], unit)
            self.get(waiting[3], unit)
            self.commit(unit)
        new = [self.put("null"), self.put("null")]
        unit = self._unit()
        new += [self.put(unit), self.put(unit)]
        self.commit(unit)
        return new


def load(ctx: Context, command: Command) -> Result:
    params = command.params
    name, count = params.get("QUEUE"), params.get("RECORDS")
    if not name or not count:
        return Result.failure("mqsh: LAB LOAD needs QUEUE(name) and RECORDS(n).")
    qmgr = ctx.qmgr
    try:
        queue = qmgr.units.load_target(name)
    except MQError as error:
        return Result.failure(error.report("MQPUT" if error.reason != MQRC_GET_INHIBITED else "MQGET"))
    if isinstance(queue, SharedQueue):
        return Result.failure(
            f"mqsh: LAB LOAD writes a local queue's log records in bulk; {queue.name} is a "
            "shared queue, whose messages are kept in its structure: use LAB PUT."
        )
    # Ids in the queue manager's own shape: the load numbers the last 12 digits of those it reserves.
    template = qmgr.new_identifier(reserve=count)
    size, put_time = params.get("SIZE", 100), ctx.clock.now().isoformat()
    records = _Records(queue.name, qmgr.log.next_lsn, template[:-12], int(template[-12:], 16), size, put_time)
    kept = list(queue.messages)  # the load gets only its own messages
    waiting: list[str] = []
    written = 0
    try:
        with status_line(f"LAB LOAD into {queue.name}", total=count) as progress:
            while written < count:
                # Memory follows the log block by block, so a checkpoint between blocks is true;
                # a Ctrl-C waits for the block it comes in (and for the log to go on to a new extent).
                with uninterrupted():
                    # One extent's worth at a time, numbered from where the log stands
                    # once the extent is there (finding room may take a checkpoint).
                    qmgr.journal.make_log_room()
                    log = qmgr.log
                    records.lsn = log.next_lsn
                    room = max(log.extent_bytes - log.size, 1)
                    while written + len(records.lines) < count and records.size < room:
                        if written + len(records.lines) + CYCLE <= count:
                            waiting = records.cycle(waiting)
                        else:
                            waiting.append(records.put("null"))  # the few records a whole cycle would overrun
                    done = len(records.lines)
                    log.append_block(records.take(), done)
                    written += done
                    queue.messages = kept + [
                        StoredMessage(msgid, True, 0, size, put_time) for msgid in waiting
                    ]
                    queue.lsn = records.lsn - 1
                    # Inside the step: the queue marked changed before a Ctrl-C can end the load,
                    # or the next checkpoint would move the restart point past records in no file.
                    qmgr.units.note_bulk_records(queue, done)
                progress.advance(done)
    except KeyboardInterrupt:
        # Each block is in the log and in memory whole: what was written stands, as for MQPUTs.
        return Result.failure(
            f"LAB LOAD interrupted: {written} log records written for queue {queue.name} "
            f"({len(queue.messages) - len(kept)} message(s) of the load on it); "
            "the rest were not written."
        )
    except MQError as error:
        return Result.failure(f"{written} log records written before the failure. {error.report('MQPUT')}")
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
        # A full disk: the block it cut short is not in the log (nor in memory); what was written stands.
        return Result.failure(
            f"{written} log records written before the failure. {MQError(MQRC_RESOURCE_PROBLEM).report('MQPUT')}"
        )
    return Result.message(
        f"{count} log records written for queue {queue.name}: {records.puts} persistent "
        f"message(s) put, {records.gets} got, {records.units} unit(s) of work committed; "
        f"{len(waiting)} message(s) left on the queue."
    )
