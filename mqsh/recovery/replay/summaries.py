"""What a replay needs of each object apart from its messages, taken from extent summaries.

The Spark replay decides every object's fate (does it still exist, with which
attributes, and where do its current messages start) from a handful of facts
per object: the newest record touching it, the newest CLR, and its OBJ, IMG
and DEL records. A sealed extent's columnar copy carries those facts for the
whole extent (extent_tables.summarize), so a replay adds them up instead of
running a Spark job over every record; only the extent the restart point
falls in and the active extent are summarized afresh, from their records.

fate_rows gives the facts in the shape the Spark aggregation returns them,
so both sources feed the same decisions (fates.fate).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mqsh.recovery.replay.reference import State
from mqsh.store.records import (
    BODY,
    CREATED,
    KIND,
    LSN,
    OBJECT_KEY_COLUMN,
    SUMMARY_COUNT,
    SUMMARY_NEWEST,
    SUMMARY_OBJECTS,
)

BodyReader = Callable[[list[int]], dict[int, str]]  # LSNs -> the JSON texts of the object records there


@dataclass
class LogSummary:
    count: int = 0
    newest: dict[str, list[int | None]] = field(default_factory=dict)  # key -> [newest LSN, newest CLR LSN]
    objects: list[list[Any]] = field(default_factory=list)  # [lsn, t, k, c]
    readers: dict[int, BodyReader] = field(default_factory=dict)  # object record LSN -> its extent's reader

    def add(self, summary: dict, read_body: BodyReader) -> None:
        """One extent's summary (extent_tables.summarize), whose object bodies read_body finds."""
        self.count += summary[SUMMARY_COUNT]
        for key, (lsn, clr) in summary[SUMMARY_NEWEST].items():
            known = self.newest.setdefault(key, [None, None])
            known[0] = _newer(known[0], lsn)
            known[1] = _newer(known[1], clr)
        self.objects += summary[SUMMARY_OBJECTS]
        self.readers.update((lsn, read_body) for lsn, *_rest in summary[SUMMARY_OBJECTS])

    def bodies(self, lsns: list[int]) -> dict[int, str]:
        """The JSON texts of the object records at lsns, each extent read once."""
        wanted: dict[BodyReader, list[int]] = defaultdict(list)
        for lsn in lsns:
            wanted[self.readers[lsn]].append(lsn)
        found: dict[int, str] = {}
        for read, some in wanted.items():
            found.update(read(some))
        return found


def _newer(one: int | None, other: int | None) -> int | None:
    return other if one is None else one if other is None else max(one, other)


def fate_rows(summary: LogSummary, base: State) -> list[dict[str, Any]]:
    """Rows as the Spark replay's fates job (mqsh.recovery.replay.spark) makes them, for one log over base.

    A fact counts for an object only if it is newer than the object's file
    (its base LSN): the reference replayer's freshness rule.
    """
    rows: list[dict[str, Any]] = [{"log": 0, OBJECT_KEY_COLUMN: None, "read": summary.count}]
    by_key: dict[str, list[list[Any]]] = defaultdict(list)
    for record in sorted(summary.objects):
        by_key[record[2]].append(record)
    for key, (newest, newest_clr) in summary.newest.items():
        base_lsn = base[key].lsn if key in base else None

        def fresh(lsn: int | None, base_lsn: int | None = base_lsn) -> bool:
            return lsn is not None and (base_lsn is None or lsn > base_lsn)

        objects = by_key.get(key, [])
        current = [(lsn, kind) for lsn, kind, _key, _created in objects if fresh(lsn)]
        images = [lsn for lsn, kind in current if kind == "IMG"]
        deletions = [lsn for lsn, kind in current if kind == "DEL"]
        rows.append(
            {
                "log": 0,
                OBJECT_KEY_COLUMN: key,
                "read": 0,
                "object_records": [
                    {LSN: lsn, KIND: kind, CREATED: created} for lsn, kind, _key, created in objects
                ],
                "max_lsn": newest if fresh(newest) else None,
                "last_clr": newest_clr if fresh(newest_clr) else None,
                "last_obj": current[-1] if current else None,  # (lsn, t): its body is filled in below
                "last_del": deletions[-1] if deletions else None,
                "last_img": images[-1] if images else None,
                "creations": [lsn for lsn, kind in current if kind != "DEL"],
            }
        )
    # Only the newest object record and the newest image of each object are read whole.
    wanted = {row["last_obj"][0] for row in rows[1:] if row["last_obj"] and row["last_obj"][1] != "DEL"}
    wanted |= {row["last_img"] for row in rows[1:] if row["last_img"] is not None}
    bodies = summary.bodies(sorted(wanted))
    for row in rows[1:]:
        if row["last_obj"] is not None:
            lsn, kind = row["last_obj"]
            row["last_obj"] = {KIND: kind, BODY: bodies.get(lsn)}
        row["img"] = bodies.get(row["last_img"]) if row["last_img"] is not None else None
    return rows
