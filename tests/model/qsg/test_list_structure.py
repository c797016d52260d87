"""A structure's file: its entry columns are records.LIST_ENTRY_COLUMNS, and a file made before reads."""

from __future__ import annotations

import sqlite3
from dataclasses import fields

from mqsh.model.qsg.list_structure import COMMITTED, Entry, Structure
from mqsh.store.records import LIST_ENTRY_COLUMNS

# A structure's file as the queue managers have always made it, its columns spelled out.
MADE_BEFORE = """
CREATE TABLE entry (
    e TEXT PRIMARY KEY, sq TEXT NOT NULL, p INTEGER NOT NULL, s INTEGER NOT NULL, tm TEXT NOT NULL,
    persistent INTEGER NOT NULL, o TEXT, b INTEGER, n INTEGER, state TEXT NOT NULL, member TEXT, u TEXT
);
CREATE TABLE applied (member TEXT PRIMARY KEY, lsn INTEGER NOT NULL);
CREATE TABLE allocation (qsg TEXT NOT NULL, name TEXT NOT NULL, allocated TEXT NOT NULL);
INSERT INTO allocation VALUES ('QSG1', 'APP1', '2026-01-01T00:00:00');
INSERT INTO entry VALUES ('00000000000000A1', 'SQ1', 4, 100, '2026-01-01T00:00:01', 1, 'QM1', 3, 2, 'C', NULL, NULL);
INSERT INTO entry VALUES ('00000000000000A2', 'SQ1', 0, 9, '2026-01-01T00:00:02', 0, NULL, NULL, NULL, 'P', 'QM2', '7.1');
INSERT INTO applied VALUES ('QM1', 41);
"""


def test_an_entry_has_the_columns_in_their_order():
    assert tuple(field.name for field in fields(Entry)) == LIST_ENTRY_COLUMNS


def test_a_structure_made_before_reads_and_changes(tmp_path):
    path = tmp_path / "APP1.cf"
    made = sqlite3.connect(path)
    made.executescript(MADE_BEFORE)
    made.close()
    with Structure(path, "QSG1", "APP1") as structure:
        assert structure.entries() == [
            Entry(
                "00000000000000A1",
                "SQ1",
                4,
                100,
                "2026-01-01T00:00:01",
                True,
                "QM1",
                3,
                2,
                COMMITTED,
                None,
                None,
            ),
            Entry(
                "00000000000000A2",
                "SQ1",
                0,
                9,
                "2026-01-01T00:00:02",
                False,
                None,
                None,
                None,
                "P",
                "QM2",
                "7.1",
            ),
        ]
        assert structure.offloaded_to("QM1")[0].b == 3 and structure.held("QM2", "7.1") == 1
        assert structure.applied("QM1") == 41 and structure.depth("SQ1") == 2
        with structure.transaction() as db:
            Structure.end_unit(db, "QM2", "7.1", commit=True)
            Structure.note_applied(db, "QM2", 50)
        assert [entry.state for entry in structure.committed("SQ1", by_priority=True)] == [COMMITTED] * 2
        assert structure.applied("QM2") == 50
