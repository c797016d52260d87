"""The shared repository's state tables: each structure's status in the coupling facility
(cfstruct_status), the members connected to it (cfconnection) and the status of its data sets
(the SMDS array's status columns).

What the states mean and how one follows from another is mqsh.model.qsg.states' and
mqsh.model.qsg.claims'; this module only reads and writes the rows. Every write is one
transaction of the repository (SharedRepository mixes these methods in).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Collection
from typing import Any

SMDS_COLUMNS = "status, access, failed, recovered, stopped_by, space_map, returned"


class StateTables:
    """The state tables' reads and writes, for SharedRepository (its db and transaction())."""

    db: sqlite3.Connection
    transaction: Callable[[], contextlib.AbstractContextManager[sqlite3.Connection]]

    # ------------------------------------------------------------ data sets
    def smds_entry(self, cf: str, owner: str) -> tuple[Any, ...] | None:
        """The owner's entry in the structure's SMDS array: (status, access, failed, recovered,
        stopped_by, space_map, returned), stopped_by a list; None when it has none yet."""
        row = self.db.execute(
            f"SELECT {SMDS_COLUMNS} FROM smds WHERE cfstruct = ? AND qmgr = ?", (cf, owner)
        ).fetchone()
        return (*row[:4], json.loads(row[4]), *row[5:]) if row is not None else None

    def smds_owners(self, cf: str) -> list[str]:
        """The members with an entry in the structure's SMDS array, in name order."""
        return [
            row[0] for row in self.db.execute("SELECT qmgr FROM smds WHERE cfstruct = ? ORDER BY qmgr", (cf,))
        ]

    def save_smds_entry(
        self,
        cf: str,
        owner: str,
        status: str,
        access: str,
        failed: str | None,
        recovered: str | None,
        stopped_by: list[str],
        space_map: str | None,
        returned: int,
    ) -> None:
        """Write the owner's entry (made first where it has none): one transaction."""
        with self.transaction() as db:
            db.execute("INSERT INTO smds (cfstruct, qmgr) VALUES (?, ?) ON CONFLICT DO NOTHING", (cf, owner))
            db.execute(
                f"UPDATE smds SET ({SMDS_COLUMNS}) = (?, ?, ?, ?, ?, ?, ?) WHERE cfstruct = ? AND qmgr = ?",
                (status, access, failed, recovered, json.dumps(stopped_by), space_map, returned, cf, owner),
            )

    def own_data_sets(self, owner: str, access: str, statuses: Collection[str]) -> list[tuple[str, str]]:
        """(structure, status) of the owner's data sets with that access and one of those statuses."""
        return self.db.execute(
            f"SELECT cfstruct, status FROM smds WHERE qmgr = ? AND access = ? AND status IN "
            f"({', '.join('?' * len(statuses))})",
            (owner, access, *statuses),
        ).fetchall()

    # ------------------------------------------------------------ structures
    def structure_status(self, cf: str) -> tuple[str, str | None, str | None, str | None] | None:
        """(status, failed, busy_qmgr, busy_kind) of the structure; None when it has no row yet."""
        row = self.db.execute(
            "SELECT status, failed, busy_qmgr, busy_kind FROM cfstruct_status WHERE name = ?", (cf,)
        ).fetchone()
        return (row[0], row[1], row[2], row[3]) if row is not None else None

    def set_structure_status(self, cf: str, status: str, failed_at: str | None) -> None:
        """The structure's new status; with failed_at, it failed then and its connections went with it."""
        with self.transaction() as db:
            db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
            if failed_at is not None:
                db.execute(
                    "UPDATE cfstruct_status SET status = ?, failed = ? WHERE name = ?",
                    (status, failed_at, cf),
                )
                db.execute("DELETE FROM cfconnection WHERE cfstruct = ?", (cf,))
            else:
                db.execute("UPDATE cfstruct_status SET status = ? WHERE name = ?", (status, cf))

    def mark_busy(self, cf: str, member: str, kind: str) -> None:
        """A BACKUP or RECOVER (kind) of the structure runs on member."""
        with self.transaction() as db:
            db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
            db.execute(
                "UPDATE cfstruct_status SET busy_qmgr = ?, busy_kind = ? WHERE name = ?", (member, kind, cf)
            )

    def clear_busy(self, cf: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE cfstruct_status SET busy_qmgr = NULL, busy_kind = NULL WHERE name = ?", (cf,))

    def busy_structures(self) -> list[str]:
        """The structures marked with a running BACKUP or RECOVER, in name order."""
        return [
            row[0]
            for row in self.db.execute(
                "SELECT name FROM cfstruct_status WHERE busy_qmgr IS NOT NULL ORDER BY name"
            )
        ]

    def purge_point(self, cf: str) -> tuple[int, dict[str, int], str, int | None] | None:
        """(LRSN, each member's last LSN, when, messages discarded) of the structure's latest
        RECOVER CFSTRUCT TYPE(PURGE); None when it has had none."""
        row = self.db.execute(
            "SELECT purged_lrsn, purged_lsns, purged_at, purged FROM cfstruct_status WHERE name = ?", (cf,)
        ).fetchone()
        if row is None or row[0] is None:
            return None
        return row[0], json.loads(row[1] or "{}"), row[2], row[3]

    def record_purge(self, cf: str, lrsn: int, lsns: dict[str, int], at: str, purged: int | None) -> None:
        """The structure's latest purge point; the count of messages lost at its failure goes."""
        with self.transaction() as db:
            db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
            db.execute(
                "UPDATE cfstruct_status SET purged_lrsn = ?, purged_lsns = ?, purged_at = ?, purged = ?, "
                "lost = NULL WHERE name = ?",
                (lrsn, json.dumps(lsns), at, purged, cf),
            )

    def lost_at_failure(self, cf: str) -> int | None:
        """The persistent messages the structure held when it last failed, if that was counted."""
        row = self.db.execute("SELECT lost FROM cfstruct_status WHERE name = ?", (cf,)).fetchone()
        return row[0] if row else None

    def record_lost(self, cf: str, lost: int | None) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
            db.execute("UPDATE cfstruct_status SET lost = ? WHERE name = ?", (lost, cf))

    # ------------------------------------------------------------ connections
    def connect_member(self, cf: str, member: str, now: str) -> None:
        """The member is connected: since now, or since it first connected when it never failed since."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO cfconnection (cfstruct, qmgr, connected) VALUES (?, ?, ?) "
                "ON CONFLICT (cfstruct, qmgr) DO UPDATE SET connected = excluded.connected, failed = NULL "
                "WHERE failed IS NOT NULL",
                (cf, member, now),
            )

    def connection_failed(self, cf: str, member: str, now: str) -> None:
        """A peer noticed the member's connection fail: FAILED since now, until it connects again."""
        with self.transaction() as db:
            db.execute(
                "UPDATE cfconnection SET failed = ? WHERE cfstruct = ? AND qmgr = ? AND failed IS NULL",
                (now, cf, member),
            )

    def disconnect_member(self, member: str) -> None:
        """The member's connections to every structure end (it ended normally)."""
        with self.transaction() as db:
            db.execute("DELETE FROM cfconnection WHERE qmgr = ?", (member,))

    def connections(self, cf: str) -> list[tuple[str, str, str | None]]:
        """(member, connected at, failed at or None) of the members connected to the structure."""
        return list(
            self.db.execute(
                "SELECT qmgr, connected, failed FROM cfconnection WHERE cfstruct = ? ORDER BY qmgr", (cf,)
            )
        )
