"""A queue-sharing group's shared repository: what z/OS keeps in Db2, here an SQLite database.

One file per group, ``<data dir>/qsg/<QSG>.db``. Every member's mqsh process
opens it (WAL mode, so readers never wait for a writer; a busy timeout, so
writers take turns) and changes it in transactions: a change is all there or
not at all, whichever process dies when. The schema carries its version
(``PRAGMA user_version``) and is brought up to date by MIGRATIONS when an
older file is opened; a newer file than this mqsh knows is refused, never
rewritten.

A file that is missing or not a database is reported as z/OS reports a Db2
that cannot be reached: MQRC 2342 (MQRC_DB2_NOT_AVAILABLE), with what is
wrong with which file.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqsh.core.reasons import MQRC_DB2_NOT_AVAILABLE
from mqsh.model.qsg.repository_objects import ObjectTables
from mqsh.model.qsg.repository_state import StateTables
from mqsh.store.sqlite_tx import write_transaction

BUSY_SECONDS = 30.0
MAX_MEMBERS = 32  # a queue-sharing group has at most 32 queue managers
# A QSG name: 1 to 4 characters, z/OS names' characters, not starting with a digit.
QSG_NAME = re.compile(r"^[A-Z@#$][A-Z0-9@#$]{0,3}$")
# The structures every group has: CSQ_ADMIN (the group's own, no user data) and CSQSYSAPPL (system
# queues), as CSQ4INSS defines the latter; CFLEVEL 5 and RECOVER(YES) for CSQSYSAPPL.
DEFAULT_STRUCTURES = (
    ("CSQ_ADMIN", '{"CFLEVEL": 5, "RECOVER": "NO", "DESCR": "CSQ_ADMIN structure"}'),
    ("CSQSYSAPPL", '{"CFLEVEL": 5, "RECOVER": "YES", "DESCR": "System application structure"}'),
)

# Each entry takes the schema from the version before it to its own number.
MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
    CREATE TABLE qsg (
        name TEXT PRIMARY KEY,
        dsg TEXT NOT NULL DEFAULT '',        -- the Db2 data-sharing group and subsystem CSQ5PQSG was given
        db2_ssid TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL
    );
    CREATE TABLE member (
        qmgr TEXT PRIMARY KEY,
        number INTEGER NOT NULL UNIQUE CHECK (number BETWEEN 1 AND 32),
        added TEXT NOT NULL
    );
    CREATE TABLE cfstruct (                  -- CFSTRUCT objects
        name TEXT PRIMARY KEY,
        attributes TEXT NOT NULL,            -- JSON
        altered TEXT NOT NULL
    );
    CREATE TABLE smds (                      -- the SMDS array of a structure: one entry per member
        cfstruct TEXT NOT NULL REFERENCES cfstruct(name) ON DELETE CASCADE,
        qmgr TEXT NOT NULL,
        overrides TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'NOTFOUND',
        access TEXT NOT NULL DEFAULT 'ENABLED',
        failed TEXT,
        recovered TEXT,
        stopped_by TEXT NOT NULL DEFAULT '[]',   -- members whose connection was stopped by command
        space_map TEXT,                          -- time stamp of the space map saved at normal close
        PRIMARY KEY (cfstruct, qmgr)
    );
    CREATE TABLE group_object (              -- QSGDISP(GROUP) objects
        object_type TEXT NOT NULL,
        name TEXT NOT NULL,
        attributes TEXT NOT NULL,
        altered TEXT NOT NULL,
        PRIMARY KEY (object_type, name)
    );
    CREATE TABLE shared_queue (              -- QSGDISP(SHARED) queues
        name TEXT PRIMARY KEY,
        cfstruct TEXT NOT NULL REFERENCES cfstruct(name),
        attributes TEXT NOT NULL,
        altered TEXT NOT NULL
    );
    """,
    ),
    (
        2,
        """
    CREATE TABLE cfstruct_status (          -- each structure's state in the coupling facility
        name TEXT PRIMARY KEY REFERENCES cfstruct(name) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'NOTFOUND',  -- NOTFOUND (not allocated), ACTIVE, FAILED
        failed TEXT,                              -- when it last failed
        busy_qmgr TEXT,                           -- the member running a BACKUP or RECOVER of it
        busy_kind TEXT                            -- BACKUP or RECOVER
    );
    CREATE TABLE cfbackup (                 -- the latest successful BACKUP CFSTRUCT of each structure
        cfstruct TEXT PRIMARY KEY REFERENCES cfstruct(name) ON DELETE CASCADE,
        qmgr TEXT NOT NULL,                  -- the member whose log holds it
        ended TEXT NOT NULL,
        start_lsn INTEGER NOT NULL,
        end_lsn INTEGER NOT NULL,
        size INTEGER NOT NULL,               -- bytes of persistent message data backed up
        lrsn INTEGER NOT NULL,               -- changes from this LRSN on are in the members' logs
        logs TEXT NOT NULL DEFAULT '[]'      -- the members whose logs a recovery needs
    );
    CREATE TABLE cfconnection (              -- the members connected to each structure
        cfstruct TEXT NOT NULL REFERENCES cfstruct(name) ON DELETE CASCADE,
        qmgr TEXT NOT NULL,
        connected TEXT NOT NULL,
        PRIMARY KEY (cfstruct, qmgr)
    );
    """,
    ),
    (
        3,
        """
    ALTER TABLE group_object ADD COLUMN serial INTEGER NOT NULL DEFAULT 0;  -- the change that last set it
    CREATE TABLE group_change (             -- counts changes to group objects, so that members notice them
        id INTEGER PRIMARY KEY CHECK (id = 1),
        serial INTEGER NOT NULL
    );
    INSERT INTO group_change (id, serial) VALUES (1, 0);
    """,
    ),
    (
        4,
        """
    ALTER TABLE cfconnection ADD COLUMN failed TEXT;  -- when a peer found the member failed (and recovered it)
    """,
    ),
    (
        5,
        """
    -- A structure may be deleted while queues still name it, when each is empty and closed (z/OS's
    -- rule): the shared queue's structure is no longer a foreign key.
    CREATE TABLE shared_queue_5 (
        name TEXT PRIMARY KEY,
        cfstruct TEXT NOT NULL,
        attributes TEXT NOT NULL,
        altered TEXT NOT NULL
    );
    INSERT INTO shared_queue_5 SELECT name, cfstruct, attributes, altered FROM shared_queue;
    DROP TABLE shared_queue;
    ALTER TABLE shared_queue_5 RENAME TO shared_queue;
    """,
    ),
    (
        6,
        """
    -- Each definition of a structure has an id of its own, written into the header of every data set
    -- formatted for it: a data set of a structure deleted since (defined again under the same name)
    -- then shows the residual data it holds. Structures defined before have the blank id.
    ALTER TABLE cfstruct ADD COLUMN defined TEXT NOT NULL DEFAULT '';
    """,
    ),
    (
        7,
        """
    -- Counts each data set's returns to RECOVERED or ACTIVE, so that a member whose connection to it
    -- failed notices one made by any member, however soon after its error (times are in seconds).
    ALTER TABLE smds ADD COLUMN returned INTEGER NOT NULL DEFAULT 0;
    """,
    ),
    (
        8,
        """
    -- RECOVER CFSTRUCT TYPE(PURGE) is a point later recoveries start from (mqsh.model.qsg.structure_recovery):
    -- its LRSN, each member's last LSN then, when it was made and how many messages it discarded.
    -- lost: the persistent messages a structure held when it last failed, for a purge to say.
    ALTER TABLE cfstruct_status ADD COLUMN purged_lrsn INTEGER;
    ALTER TABLE cfstruct_status ADD COLUMN purged_lsns TEXT;
    ALTER TABLE cfstruct_status ADD COLUMN purged_at TEXT;
    ALTER TABLE cfstruct_status ADD COLUMN purged INTEGER;
    ALTER TABLE cfstruct_status ADD COLUMN lost INTEGER;
    """,
    ),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


@dataclass(frozen=True)
class BackupTaken:
    """A structure's latest successful BACKUP CFSTRUCT: the member that took it, when it ended,
    its log range (start and end LSN), size, LRSN and the members whose logs a recovery reads."""

    qmgr: str
    ended: str
    start_lsn: int
    end_lsn: int
    size: int
    lrsn: int
    logs: list[str]


class RepositoryUnavailable(Exception):
    """The shared repository cannot be used: MQRC 2342, and what is wrong."""

    reason = MQRC_DB2_NOT_AVAILABLE

    def __init__(self, qsg: str, problem: str):
        super().__init__(f"the shared repository of queue-sharing group {qsg} {problem}")
        self.qsg = qsg
        self.problem = problem


@dataclass(frozen=True)
class Member:
    qmgr: str
    number: int
    added: str


def repository_path(data_dir: Path, qsg: str) -> Path:
    return data_dir / "qsg" / f"{qsg}.db"


def group_names(data_dir: Path) -> list[str]:
    folder = data_dir / "qsg"
    return sorted(path.stem for path in folder.glob("*.db")) if folder.is_dir() else []


class SharedRepository(StateTables, ObjectTables):
    """An open shared repository; use as a context manager, or close(). All the SQL on it is its
    own (the state tables' in mqsh.model.qsg.repository_state, the
    object tables' in mqsh.model.qsg.repository_objects): callers name what they read or write."""

    def __init__(self, data_dir: Path, qsg: str, create_at: str | None = None):
        """Open the group's repository; create_at (a time stamp) makes a new one instead."""
        self.qsg = qsg
        self.path = repository_path(data_dir, qsg)
        if create_at is None and not self.path.exists():
            raise RepositoryUnavailable(qsg, f"is missing: {self.path} was not found")
        if create_at is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as error:
            raise RepositoryUnavailable(qsg, f"cannot be opened: {self.path}: {error}") from None
        try:
            self._prepare(create_at)
        except sqlite3.DatabaseError as error:
            self.db.close()
            raise RepositoryUnavailable(qsg, f"is damaged: {self.path}: {error}") from None

    def _prepare(self, create_at: str | None) -> None:
        self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")  # a committed change survives a power failure
        self.db.execute("PRAGMA foreign_keys = ON")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"its schema version {version} is newer than this mqsh's ({SCHEMA_VERSION})"
            )
        if create_at is None and version == 0:
            raise sqlite3.DatabaseError("it holds no queue-sharing group")
        with self.transaction():
            for number, script in MIGRATIONS:
                if number > version:
                    for statement in script.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {number}")
            if create_at is not None:
                self.db.execute("INSERT INTO qsg (name, created) VALUES (?, ?)", (self.qsg, create_at))
                self.db.executemany(
                    "INSERT INTO cfstruct (name, attributes, altered) VALUES (?, ?, ?)",
                    [(name, attributes, create_at) for name, attributes in DEFAULT_STRUCTURES],
                )
        row = self.db.execute("SELECT name FROM qsg").fetchone()
        if row is None or row[0] != self.qsg:
            raise sqlite3.DatabaseError(f"it belongs to queue-sharing group {row[0] if row else '(none)'}")

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE: it waits its turn among the members' processes)."""
        return write_transaction(self.db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> SharedRepository:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    # ------------------------------------------------------------ members
    def members(self) -> list[Member]:
        return [
            Member(*row) for row in self.db.execute("SELECT qmgr, number, added FROM member ORDER BY number")
        ]

    def add_member(self, qmgr: str, added: str) -> Member:
        """The queue manager as the group's next member (the lowest free number); ValueError when full."""
        with self.transaction() as db:
            taken = {row[0] for row in db.execute("SELECT number FROM member")}
            free = [number for number in range(1, MAX_MEMBERS + 1) if number not in taken]
            if not free:
                raise ValueError(f"queue-sharing group {self.qsg} already has {MAX_MEMBERS} queue managers")
            db.execute("INSERT INTO member (qmgr, number, added) VALUES (?, ?, ?)", (qmgr, free[0], added))
        return Member(qmgr, free[0], added)

    def remove_member(self, qmgr: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM member WHERE qmgr = ?", (qmgr,))
            db.execute("DELETE FROM smds WHERE qmgr = ?", (qmgr,))

    def set_db2_names(self, dsg: str, ssid: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE qsg SET dsg = ?, db2_ssid = ?", (dsg, ssid))

    def structures(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM cfstruct ORDER BY name")]

    def integrity_problems(self) -> list[str]:
        """What SQLite's own check finds wrong in the file (nothing for a sound one)."""
        rows = [row[0] for row in self.db.execute("PRAGMA integrity_check")]
        return [] if rows == ["ok"] else rows

    # ------------------------------------------------------------ CF structures
    def latest_backup(self, cf: str) -> BackupTaken | None:
        row = self.db.execute(
            "SELECT qmgr, ended, start_lsn, end_lsn, size, lrsn, logs FROM cfbackup WHERE cfstruct = ?", (cf,)
        ).fetchone()
        return BackupTaken(*row[:-1], json.loads(row[-1])) if row is not None else None

    def record_backup(self, cf: str, backup: BackupTaken) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO cfbackup (cfstruct, qmgr, ended, start_lsn, end_lsn, size, lrsn, logs) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    cf,
                    backup.qmgr,
                    backup.ended,
                    backup.start_lsn,
                    backup.end_lsn,
                    backup.size,
                    backup.lrsn,
                    json.dumps(backup.logs),
                ),
            )

    def cfstructs(self) -> dict[str, dict[str, Any]]:
        """Every CFSTRUCT object by name, in name order: its attributes."""
        return {
            name: json.loads(attributes)
            for name, attributes in self.db.execute("SELECT name, attributes FROM cfstruct ORDER BY name")
        }

    def save_cfstruct(self, name: str, attributes: dict[str, Any], altered: str, new: bool) -> bool:
        """Store a structure's definition; False when new and one of that name exists already
        (or when not new and there is none): the check and the change are one transaction."""
        text = json.dumps(attributes, sort_keys=True)
        with self.transaction() as db:
            exists = db.execute("SELECT 1 FROM cfstruct WHERE name = ?", (name,)).fetchone() is not None
            if exists == new:
                return False
            if new:
                db.execute(
                    "INSERT INTO cfstruct (name, attributes, altered, defined) VALUES (?, ?, ?, ?)",
                    (name, text, altered, uuid.uuid4().hex),
                )
            else:
                db.execute(
                    "UPDATE cfstruct SET attributes = ?, altered = ? WHERE name = ?", (text, altered, name)
                )
        return True

    def definition_id(self, name: str) -> str | None:
        """The id of the structure's current definition (None when it is not defined)."""
        row = self.db.execute("SELECT defined FROM cfstruct WHERE name = ?", (name,)).fetchone()
        return row[0] if row is not None else None

    def delete_cfstruct(self, name: str) -> bool:
        """False when there was no such structure; its SMDS array goes with it."""
        with self.transaction() as db:
            return db.execute("DELETE FROM cfstruct WHERE name = ?", (name,)).rowcount > 0

    def shared_queues_on(self, cfstruct: str) -> list[str]:
        return [
            row[0]
            for row in self.db.execute(
                "SELECT name FROM shared_queue WHERE cfstruct = ? ORDER BY name", (cfstruct,)
            )
        ]

    # ------------------------------------------------------------ SMDS array
    def smds_overrides(self, cfstruct: str) -> dict[str, dict[str, Any]]:
        """qmgr -> the overrides of its entry in the structure's SMDS array (entries set so far)."""
        return {
            qmgr: json.loads(overrides)
            for qmgr, overrides in self.db.execute(
                "SELECT qmgr, overrides FROM smds WHERE cfstruct = ?", (cfstruct,)
            )
        }

    def set_smds_overrides(self, cfstruct: str, qmgrs: list[str], overrides: dict[str, Any]) -> None:
        """Merge overrides into each member's entry (made, as NOTFOUND, where it has none yet)."""
        with self.transaction() as db:
            for qmgr in qmgrs:
                row = db.execute(
                    "SELECT overrides FROM smds WHERE cfstruct = ? AND qmgr = ?", (cfstruct, qmgr)
                ).fetchone()
                merged = json.dumps({**(json.loads(row[0]) if row else {}), **overrides}, sort_keys=True)
                if row is None:
                    db.execute(
                        "INSERT INTO smds (cfstruct, qmgr, overrides) VALUES (?, ?, ?)",
                        (cfstruct, qmgr, merged),
                    )
                else:
                    db.execute(
                        "UPDATE smds SET overrides = ? WHERE cfstruct = ? AND qmgr = ?",
                        (merged, cfstruct, qmgr),
                    )
