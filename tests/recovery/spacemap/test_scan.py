"""The space scan of a structure: each rule of the result on every engine, the read into Arrow, the choice of engine."""

from __future__ import annotations

import contextlib
import sqlite3

import pyarrow as pa
import pytest

from mqsh.model.qsg.list_structure import Structure
from mqsh.recovery.spacemap import columnar as space_columnar
from mqsh.recovery.spacemap import scan as space_scan
from mqsh.recovery.spacemap.reference import SpaceScan
from mqsh.recovery.spacemap.scan import SpaceScanEngine
from mqsh.recovery.spacemap.spark import words_to_runs

ENGINES = ["reference", "local", "spark"]


def structure(tmp_path, rows) -> Structure:
    """A structure holding entries (e, o, b, n) of queue SQ1."""
    made = Structure(tmp_path / "APP1.cf", "QSGA", "APP1", allocate_at="2026-05-01 10:00:00")
    with made.transaction() as db:
        db.executemany("INSERT INTO entry VALUES (?, 'SQ1', 0, 100, 't', 1, ?, ?, ?, 'C', NULL, NULL)", rows)
    return made


@pytest.fixture(params=ENGINES)
def scan(request, tmp_path):
    """scan(rows, total) of QM1's entries on one engine; Spark shares the tests' session."""
    engine = SpaceScanEngine(request.param)
    if request.param == "spark":
        from tests.recovery.conftest import MASTER

        request.getfixturevalue("spark_runner")
        engine = SpaceScanEngine("spark", MASTER)

    def run(rows, total=1000) -> SpaceScan:
        with structure(tmp_path, rows) as made:
            return engine.scan(made.db, "QM1", total)

    return run


def test_an_owner_with_no_messages(scan):
    assert scan([("A1", "QM2", 0, 3), ("A2", None, None, None)]) == SpaceScan([], 0, None, [])


def test_runs_join_adjacent_and_overlapping_extents_of_the_owners_messages_only(scan):
    rows = [
        ("A1", "QM1", 10, 2),
        ("A2", "QM1", 12, 3),
        ("A3", "QM1", 0, 1),
        ("A4", "QM1", 20, 5),
        ("A5", "QM1", 22, 1),
        ("A6", "QM2", 1, 9),
        ("A7", None, None, None),
        ("A8", "QM1", 63, 2),
    ]
    found = scan(rows)
    assert found.runs == [(0, 1), (10, 5), (20, 5), (63, 2)]
    assert found.messages == 6 and found.newest == ("A8", 63, 2)


def test_an_entry_without_a_block_or_count_holds_block_0_or_one_block(scan):
    assert scan([("B1", "QM1", None, 4), ("B2", "QM1", 9, None), ("B3", "QM1", 7, 0)]).runs == [
        (0, 4),
        (7, 1),
        (9, 1),
    ]


def test_the_newest_is_the_highest_entry_id_and_those_past_the_end_come_in_entry_order(scan):
    rows = [
        ("0000000000000003", "QM1", 98, 4),
        ("0000000000000009", "QM1", 0, 2),
        ("0000000000000001", "QM1", 99, 2),
        ("0000000000000005", "QM1", 90, 10),
        ("000000000000000A", "QM2", 500, 1),
    ]
    found = scan(rows, total=100)
    assert found.newest == ("0000000000000009", 0, 2)
    assert found.beyond == ["0000000000000001", "0000000000000003"]  # ending at block 100 still fits
    assert found.runs == [(0, 2), (90, 12)]


def test_a_long_extent_spans_many_words_of_the_bitmap(scan):
    assert scan([("C1", "QM1", 5, 300), ("C2", "QM1", 305, 1), ("C3", "QM1", 400, 64)]).runs == [
        (5, 301),
        (400, 64),
    ]


def test_words_with_the_top_bit_set_and_words_apart():
    words = pa.table({"w": [3, 0, 1], "bits": [1, -(1 << 63), 1 | (1 << 5)]})  # bit 63 set: a negative BIGINT
    assert words_to_runs(words) == [(63, 2), (69, 1), (192, 1)]
    assert words_to_runs(pa.table({"w": pa.array([], pa.int64()), "bits": pa.array([], pa.int64())})) == []


def test_the_read_into_arrow_goes_batch_by_batch_in_one_snapshot(tmp_path, monkeypatch):
    monkeypatch.setattr(space_columnar, "BATCH_ROWS", 3)
    rows = [
        (f"D{index:02}", ("QM1", "QM2", None)[index % 3], index * 2 if index % 4 else None, index % 5)
        for index in range(20)
    ]
    split = space_columnar._split

    def split_then_another_member_gets(text, kind):  # between two batches, another process's change
        with contextlib.closing(sqlite3.connect(tmp_path / "APP1.cf", isolation_level=None)) as other:
            other.execute("DELETE FROM entry WHERE e = 'D18'")
        return split(text, kind)

    with structure(tmp_path, rows) as made:
        expected = made.db.execute(
            "SELECT e, coalesce(b, 0), coalesce(nullif(n, 0), 1) FROM entry WHERE o = 'QM1' ORDER BY rowid"
        ).fetchall()
        monkeypatch.setattr(space_columnar, "_split", split_then_another_member_gets)
        table = space_columnar.read_entries(made.db, "QM1")
        monkeypatch.setattr(space_columnar, "_split", split)
        assert not made.db.in_transaction  # its read transaction ended
        assert list(zip(*table.to_pydict().values())) == expected  # D18 still there: one snapshot
        assert table.num_rows == 7 and len(table["e"].chunks) == 7  # a batch for each three rowids with any
        with made.transaction() as db:  # inside the caller's transaction: it reads what that one sees
            db.execute("DELETE FROM entry WHERE e = 'D03'")  # one of QM1's
            assert space_columnar.read_entries(db, "QM1")["e"].to_pylist() == [
                "D00",
                "D06",
                "D09",
                "D12",
                "D15",
            ]
            assert db.in_transaction


def test_auto_scans_in_process_then_on_spark(monkeypatch):
    assert SpaceScanEngine("auto").where_scan(0) == "reference"
    assert SpaceScanEngine("auto").where_scan(space_scan.REFERENCE_BELOW - 1) == "reference"
    assert SpaceScanEngine("auto").where_scan(space_scan.REFERENCE_BELOW) == "local"
    assert SpaceScanEngine("auto").where_scan(space_scan.SPARK_FROM - 1) == "local"
    assert SpaceScanEngine("auto").where_scan(space_scan.SPARK_FROM) == "spark"
    assert SpaceScanEngine("auto", threshold=200_000).where_scan(150_000) == "local"
    assert SpaceScanEngine("auto", threshold=200_000).where_scan(200_000) == "spark"
    assert SpaceScanEngine("auto", master="local[2]").where_scan(0) == "spark"  # a master named: Spark
    monkeypatch.setenv("MQSH_SPARK_MASTER", "spark://cluster:7077")
    assert SpaceScanEngine("auto").where_scan(0) == "spark"
    for choice in ("reference", "local", "spark"):
        assert (
            SpaceScanEngine(choice, master="local[2]").where_scan(10**9 if choice == "reference" else 0)
            == choice
        )
