"""Columnar copies of sealed extents: same records as the extent, and only while the extent is unchanged."""

from __future__ import annotations

import json

import pytest

from mqsh.store import columnar, log_writer, shared_units
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
                name for name in columnar.FIELDS if name != "n" or record["t"] in columnar.COUNTED_RECORDS
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
        if record["t"] in columnar.SHARED_RECORDS or "cfs" in record
    ]
    assert [(row["t"], row["lsn"]) for row in rows] == sorted((record["t"], record["lsn"]) for record in kept)
    by_lsn = {record["lsn"]: record for record in kept}
    for row in rows:
        assert list(row) == columnar.SHARED_COLUMNS
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


def test_only_the_newest_extent_may_end_in_a_torn_record():
    good = logstore.encode({"lsn": 0, "t": "CLR", "q": "A"}) + logstore.encode(
        {"lsn": 1, "t": "CLR", "q": "B"}
    )
    torn = good + b'0badf00d {"lsn":'
    assert columnar.extent_table(torn, newest=True)["q"].to_pylist() == ["A", "B"]
    with pytest.raises(columnar.DamagedExtent):
        columnar.extent_table(torn)
    damaged_inside = logstore.encode({"lsn": 0, "t": "CLR", "q": "A"}) + b"00000000 {}\n" + good
    with pytest.raises(columnar.DamagedExtent):
        columnar.extent_table(damaged_inside, newest=True)


@pytest.mark.parametrize("from_lsn", [0, 1, 5, 17, 29, 30, 99])
def test_records_before_the_restart_point_are_checked_but_not_kept(from_lsn):
    data = b"".join(logstore.encode({"lsn": lsn, "t": "CLR", "q": f"Q{lsn}"}) for lsn in range(30))
    table = columnar.extent_table(data, newest=True, from_lsn=from_lsn)
    assert table["lsn"].to_pylist() == list(range(min(from_lsn, 30), 30))
    damaged_before = b"00000000 {}\n" + data
    with pytest.raises(columnar.DamagedExtent):
        columnar.extent_table(damaged_before, newest=True, from_lsn=from_lsn)


def test_summary_holds_each_objects_newest_records():
    records = [
        {"lsn": 7, "t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1},
        {"lsn": 8, "t": "PUT", "q": "A", "m": "M1", "p": 0, "s": 1, "tm": "t", "u": "8.1"},
        {"lsn": 9, "t": "CLR", "q": "B"},
        {"lsn": 10, "t": "CMT", "u": "8.1", "qs": ["A", "C"]},
        {"lsn": 11, "t": "DEL", "k": "QUEUE/D"},
        {"lsn": 12, "t": "CKPT", "uows": {}, "media": {}},
    ]
    summary = columnar.summarize(
        columnar.extent_table(b"".join(logstore.encode(record) for record in records))
    )
    assert summary["count"] == 6 and summary["first"] == 7
    assert summary["newest"] == {
        "QUEUE/A": (10, None),
        "QUEUE/B": (9, 9),
        "QUEUE/C": (10, None),
        "QUEUE/D": (11, None),
    }
    assert summary["objects"] == [[7, "OBJ", "QUEUE/A", 1], [11, "DEL", "QUEUE/D", None]]


def test_copy_carries_its_summary(tmp_path):
    extents = write_log(tmp_path / "active")
    copy = columnar.usable_copy(extents[0])
    summary = columnar.summary_of(copy)
    assert summary["first"] == 0 and summary["objects"] == [[0, "OBJ", "QUEUE/A", 1]]
    assert json.loads(columnar.bodies_at(copy, [0])[0])["a"]["MAXDEPTH"] == 9


def test_the_tally_counts_each_kind_by_structure_and_owner():
    import pyarrow as pa

    rows = [
        {"lsn": 1, "t": "SBLK", "cf": "APP1", "o": "QM1", "r": 10},
        {"lsn": 2, "t": "SBLK", "cf": "APP1", "o": "QM2", "r": 11},
        {"lsn": 3, "t": "SBLK", "cf": "APP1", "o": "QM1", "r": 12},
        {"lsn": 4, "t": "SPUT", "cf": "APP1", "o": "QM1", "r": 13},
        {"lsn": 5, "t": "SPUT", "cf": "APP2", "o": None, "r": 14},
        {"lsn": 6, "t": "SBKP", "cf": "APP1", "o": None, "r": None},
        {"lsn": 7, "t": "SBKP", "cf": "APP1", "o": None, "r": 3},
        # An ending counts once for each structure it lists, a structure listed twice once.
        {"lsn": 8, "t": "CMT", "cfs": ["APP1", "APP2", "APP1"], "r": 15},
        {"lsn": 9, "t": "BCK", "cfs": ["APP2"], "r": 16},
        {"lsn": 10, "t": "SBKS", "cf": "APP1", "r": 2},  # not counted by a recovery
    ]
    schema = pa.schema([columnar.SCHEMA.field(name) for name in ("lsn", "t", "cf", "o", "r", "cfs")])
    groups = sorted(
        columnar.tally(pa.Table.from_pylist(rows, schema=schema)),
        key=lambda group: [str(value) for value in group],
    )
    assert groups == [
        # t, cf, o, records, dated, low r, high r, low LSN, high LSN
        ["BCK", "APP2", None, 1, 1, 16, 16, 9, 9],
        ["CMT", "APP1", None, 1, 1, 15, 15, 8, 8],
        ["CMT", "APP2", None, 1, 1, 15, 15, 8, 8],
        ["SBKP", "APP1", None, 2, 1, 3, 3, 6, 7],
        ["SBLK", "APP1", "QM1", 2, 2, 10, 12, 1, 3],
        ["SBLK", "APP1", "QM2", 1, 1, 11, 11, 2, 2],
        ["SPUT", "APP1", None, 1, 1, 13, 13, 4, 4],  # the owner is kept for SBLK only
        ["SPUT", "APP2", None, 1, 1, 14, 14, 5, 5],
    ]


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
    assert columnar.tally_of(shared) == columnar.tally(pq.read_table(shared))
    assert sorted(group[:4] for group in columnar.tally_of(shared)) == [
        ["CMT", "APP1", None, 1],
        ["SPUT", "APP1", None, 2],
    ]
    assert columnar.tally_of(columnar.copy_path(extent)) is None  # a file written without one
    columnar.shared_path(extent).unlink()
    assert columnar.tally_of(columnar.shared_path(extent)) is None
    parsed = columnar.shared_records(columnar.extent_table(extent.read_bytes(), newest=True))
    assert columnar.tally_of(parsed) is None  # a table made without one
    assert columnar.tally_of(columnar.with_tally(parsed)) == columnar.tally(parsed)
