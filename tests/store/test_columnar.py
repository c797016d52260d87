"""Columnar copies of sealed extents: same records as the extent, and only while the extent is unchanged."""

from __future__ import annotations

import json

from mqsh.store import columnar, extent_tables, log_writer, shared_units
from mqsh.store import log as logstore


def write_log(directory, records=40):
    writer = log_writer.LogWriter(directory, 600, 0, on_seal=columnar.write_copy)
    writer.append(
        {"t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {"MAXDEPTH": 9, "X": [1]}, "c": 1}
    )
    for number in range(records):
        writer.append({"t": "PUT", "q": "A", "m": f"M{number}", "p": 1, "s": 5, "tm": "t", "u": "1.1"})
    writer.append({"t": "CMT", "u": "1.1", "qs": ["A"]})
    writer.close()
    return [directory / logstore.extent_name(number) for number in logstore.list_extents(directory)]


def test_copy_holds_the_extents_records(tmp_path):
    extents = write_log(tmp_path / "active")
    assert len(extents) > 2
    for extent in extents[:-1]:
        copy = columnar.usable_copy(extent)
        assert copy == tmp_path / "columnar" / extent.with_suffix(".parquet").name
        rows = __import__("pyarrow.parquet").parquet.read_table(copy).to_pylist()
        records = list(logstore.read_records(extent.parent, 0))
        expected = [record for record in records if record["lsn"] in {row["lsn"] for row in rows}]
        assert len(rows) == len(expected) > 0
        for row, record in zip(rows, expected):
            # n is a name in an object record, and typed only where it counts blocks.
            typed = {
                name
                for name in extent_tables.FIELDS
                if name != "n" or record["t"] in extent_tables.COUNTED_RECORDS
            }
            assert {name: value for name, value in row.items() if name in record and name in typed} == {
                name: value for name, value in record.items() if name in typed
            }
            assert (row["body"] is not None) == (record["t"] == "OBJ")
    assert columnar.usable_copy(extents[-1]) is None  # the active extent is never copied


def test_rewritten_extent_makes_its_copy_stale(tmp_path):
    extents = write_log(tmp_path / "active")
    sealed = extents[0]
    data = sealed.read_bytes()
    sealed.write_bytes(data.replace(b'"M0"', b'"M9"'))  # same size, other content
    assert columnar.usable_copy(sealed) is None
    sealed.write_bytes(data + data[:20])
    assert columnar.usable_copy(sealed) is None
    sealed.write_bytes(data)
    assert columnar.usable_copy(sealed) is not None


def test_shared_records_are_kept_apart_sorted_by_kind(tmp_path):
    import pyarrow.parquet as pq

    extent = tmp_path / "active" / logstore.extent_name(0)
    extent.parent.mkdir()
    records = [{"lsn": 0, "t": "SBKS", "cf": "APP1", "r": 1}]
    for number in range(columnar.SHARED_ROWS_PER_GROUP):
        lrsn, unit = 10 + 3 * number, f"{number}.1"
        records += [
            {"t": "PUT", "q": "A", "m": f"M{number}", "p": 1, "s": 5, "tm": "t", "u": unit},
            {
                "t": "SPUT",
                "cf": "APP1",
                "sq": "SQ",
                "e": f"{lrsn:016X}",
                "p": 1,
                "s": 5,
                "tm": "t",
                "u": unit,
                "o": None,
                "b": None,
                "n": None,
                "r": lrsn,
            },
            {"t": "SGET", "cf": "APP1", "e": f"{lrsn:016X}", "u": None, "r": lrsn + 1},
            # A unit that touched a structure names it, with an LRSN; one on local queues has neither.
            {
                "t": "CMT" if number % 3 else "BCK",
                "u": unit,
                "qs": ["A"],
                **({"cfs": ["APP1"], "r": lrsn + 2} if number % 2 else {}),
            },
        ]
    records += [
        {"t": "SBKP", "cf": "APP1", "sq": "SQ", "e": f"{0:016X}", "p": 0, "s": 1, "tm": "t"},
        {"t": "SBKE", "cf": "APP1", "r": 1, "c": 1},
        {"t": "CKPT", "uows": {}, "media": {}},
    ]
    extent.write_bytes(
        b"".join(logstore.encode({**record, "lsn": lsn}) for lsn, record in enumerate(records))
    )
    columnar.write_copy(extent)
    shared = columnar.usable_shared(extent)
    assert shared == tmp_path / "columnar" / "S0000000.shared.parquet"
    rows = pq.read_table(shared).to_pylist()
    kept = [
        {"lsn": lsn, **record}
        for lsn, record in enumerate(records)
        if record["t"] in extent_tables.SHARED_RECORDS or "cfs" in record
    ]
    assert [(row["t"], row["lsn"]) for row in rows] == sorted((record["t"], record["lsn"]) for record in kept)
    by_lsn = {record["lsn"]: record for record in kept}
    for row in rows:
        assert list(row) == extent_tables.SHARED_COLUMNS
        assert {
            name: value
            for name, value in row.items()  # the units settled: tests/store/test_shared_units.py
            if value is not None and name not in shared_units.SCHEMA.names
        } == {name: value for name, value in by_lsn[row["lsn"]].items() if name != "qs" and value is not None}
    # Each kind in few row groups: a reader of one kind skips the others' by their statistics.
    footer = pq.read_metadata(shared)
    kind = footer.schema.to_arrow_schema().get_field_index("t")
    spans = [
        (statistics.min, statistics.max)
        for statistics in (
            footer.row_group(group).column(kind).statistics for group in range(footer.num_row_groups)
        )
    ]
    assert footer.num_row_groups == 3 and sum(low <= "SGET" <= high for low, high in spans) <= 2
    extent.write_bytes(extent.read_bytes() + logstore.encode({"lsn": len(records), "t": "CLR", "q": "A"}))
    assert columnar.usable_shared(extent) is None  # made from the extent as it was


def test_a_missing_shared_records_file_is_made_with_the_copy(tmp_path):
    extents = write_log(tmp_path / "active")
    columnar.shared_path(extents[0]).unlink()
    assert columnar.usable_shared(extents[0]) is None
    assert columnar.ensure_copy(extents[0]) is not None
    assert columnar.usable_shared(extents[0]) is not None


def test_damaged_extent_gets_no_copy(tmp_path):
    extent = tmp_path / "active" / "S0000000.LOG"
    extent.parent.mkdir()
    extent.write_bytes(logstore.encode({"lsn": 0, "t": "CLR", "q": "A"}) + b"00000000 {}\n")
    columnar.write_copy(extent)
    assert not columnar.copy_path(extent).exists()


def test_a_copy_that_cannot_be_written_is_not_made(tmp_path):
    (tmp_path / "columnar").write_text("")  # a file where the copies' directory would be
    extents = write_log(tmp_path / "active")  # the seals make no copy, and the log goes on
    assert len(extents) > 2 and all(columnar.ensure_copy(extent) is None for extent in extents[:-1])
    assert len(list(logstore.read_records(extents[0].parent, 0))) == 42


def test_copy_carries_its_summary(tmp_path):
    extents = write_log(tmp_path / "active")
    copy = columnar.usable_copy(extents[0])
    summary = columnar.summary_of(copy)
    assert summary["first"] == 0 and summary["objects"] == [[0, "OBJ", "QUEUE/A", 1]]
    assert json.loads(columnar.bodies_at(copy, [0])[0])["a"]["MAXDEPTH"] == 9


def test_the_shared_records_file_carries_their_tally(tmp_path):
    import pyarrow.parquet as pq

    extent = tmp_path / "active" / logstore.extent_name(0)
    extent.parent.mkdir()
    records = [
        {
            "t": "SPUT",
            "cf": "APP1",
            "sq": "SQ",
            "e": f"{lrsn:016X}",
            "p": 1,
            "s": 5,
            "tm": "t",
            "u": "1.1",
            "o": None,
            "b": None,
            "n": None,
            "r": lrsn,
        }
        for lrsn in (5, 9)
    ]
    records.append({"t": "CMT", "u": "1.1", "qs": [], "cfs": ["APP1"], "r": 12})
    extent.write_bytes(
        b"".join(logstore.encode({**record, "lsn": lsn}) for lsn, record in enumerate(records))
    )
    columnar.write_copy(extent)
    shared = columnar.usable_shared(extent)
    assert columnar.tally_of(shared) == extent_tables.tally(pq.read_table(shared))
    assert sorted(group[:4] for group in columnar.tally_of(shared)) == [
        ["CMT", "APP1", None, 1],
        ["SPUT", "APP1", None, 2],
    ]
    assert columnar.tally_of(columnar.copy_path(extent)) is None  # a file written without one
    columnar.shared_path(extent).unlink()
    assert columnar.tally_of(columnar.shared_path(extent)) is None
    parsed = extent_tables.shared_records(extent_tables.extent_table(extent.read_bytes(), newest=True))
    assert columnar.tally_of(parsed) is None  # a table made without one
    assert columnar.tally_of(columnar.with_tally(parsed)) == extent_tables.tally(parsed)
