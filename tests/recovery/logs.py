"""Random logs that keep MQ's rules, with the live state after every record.

Only available committed messages are got; a queue holding uncommitted
messages is neither cleared nor deleted; each unit of work ends once. Records
get consecutive LSNs and are applied as they are made, exactly as the queue
manager does, so the state after record i is what the object files may hold.
"""

from __future__ import annotations

import copy
import random

from mqsh.core.objects import COMMITTED
from mqsh.recovery.replay import reference as replay
from mqsh.recovery.replay.reference import Record, State
from mqsh.store import columnar, log_writer
from mqsh.store import log as logstore

QUEUES = ("A", "B", "C")


class LogMaker:
    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.state: State = {}
        self.records: list[Record] = []
        self.snapshots: list[State] = [{}]  # snapshots[i]: the state before record i
        self.uow: str | None = None
        self.uow_queues: set[str] = set()
        self.messages = 0

    def _log(self, record: Record) -> None:
        record = {"lsn": len(self.records), **record}
        self.records.append(record)
        replay.apply(self.state, record)
        self.snapshots.append(copy.deepcopy(self.state))

    def _queue(self, name: str):
        return self.state.get(replay.queue_key(name))

    def _pending(self, name: str) -> bool:
        return any(message.uow for message in self._queue(name).messages)

    def _unit(self, name: str) -> str | None:
        if self.random.random() < 0.4:
            return None
        if self.uow is None:
            self.uow = f"{len(self.records)}.1"
            self.uow_queues = set()
        self.uow_queues.add(name)
        return self.uow

    def step(self) -> None:
        pick = self.random
        name = pick.choice(QUEUES)
        queue = self._queue(name)
        roll = pick.random()
        if queue is None or roll < 0.05:
            created = queue is None
            attributes = {"MAXDEPTH": pick.randint(100, 5000), "DESCR": f"d{len(self.records)}"}
            self._log(
                {
                    "t": "OBJ",
                    "k": replay.queue_key(name),
                    "o": "QLOCAL",
                    "n": name,
                    "a": attributes,
                    **({"c": 1} if created else {}),
                }
            )
        elif roll < 0.45:
            self.messages += 1
            self._log(
                {
                    "t": "PUT",
                    "q": name,
                    "m": f"M{self.messages:06d}",
                    "p": pick.randint(0, 3),
                    "s": pick.randint(0, 999),
                    "tm": f"2026-01-01T00:00:{self.messages % 60:02d}",
                    "u": self._unit(name),
                }
            )
        elif roll < 0.75:
            available = [message for message in queue.messages if message.state == COMMITTED]
            if available:
                self._log({"t": "GET", "q": name, "m": pick.choice(available).msgid, "u": self._unit(name)})
        elif roll < 0.87:
            if self.uow is not None:
                self._log(
                    {"t": pick.choice(("CMT", "CMT", "BCK")), "u": self.uow, "qs": sorted(self.uow_queues)}
                )
                self.uow = None
        elif roll < 0.91:
            self._log(
                {
                    "t": "IMG",
                    "k": queue.key,
                    "o": queue.object_type,
                    "n": name,
                    "a": queue.attributes,
                    "ms": [message.to_document() for message in queue.messages],
                }
            )
        elif roll < 0.94 and not self._pending(name):
            self._log({"t": "CLR", "q": name})
        elif roll < 0.96 and not self._pending(name):
            self._log({"t": "DEL", "k": queue.key})
        elif roll < 0.98:
            self._log({"t": "OBJ", "k": "CHANNEL/CH1", "o": "CHANNEL", "n": "CH1", "a": {"CHLTYPE": "SDR"}})
        else:
            self._log({"t": "CKPT", "uows": {}, "media": {}})


def random_case(seed: int, length: int, kind: type[LogMaker] = LogMaker) -> tuple[State, list[Record]]:
    """A base state and the records a restart replays over it, cut at a random crash point.

    Each object's file is a snapshot taken somewhere between the restart point
    and the crash, as checkpoints and definitions leave them.
    """
    maker = kind(seed)
    while len(maker.records) < length:
        maker.step()
    pick = maker.random
    crash = pick.randint(0, length)
    restart = pick.randint(0, crash)
    keys = {key for snapshot in maker.snapshots[restart : crash + 1] for key in snapshot}
    base: State = {}
    for key in sorted(keys):
        snapshot = maker.snapshots[pick.randint(restart, crash)]
        if key in snapshot:
            base[key] = copy.deepcopy(snapshot[key])
    return base, maker.records[restart:crash]


def write_log(log_dir, records: list[Record], extent_bytes: int, before: int = 0) -> tuple[int, int]:
    """The records in extents of extent_bytes, sealed ones with their copies; (first extent, restart LSN).

    before checkpoint records lead them: records before the restart point share
    its extent, which then counts only in part.
    """
    from_lsn = records[0]["lsn"] if records else 0
    writer = log_writer.LogWriter(
        log_dir, extent_bytes, max(from_lsn - before, 0), on_seal=columnar.write_copy
    )
    for _ in range(min(before, from_lsn)):
        writer.append({"t": "CKPT", "uows": {}, "media": {}})
    for record in records:
        writer.append({name: value for name, value in record.items() if name != "lsn"})
    writer.close()
    return logstore.list_extents(log_dir)[0], from_lsn
