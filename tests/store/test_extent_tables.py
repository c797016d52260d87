"""An extent's records as Arrow tables: read with the log's torn-tail rule, summarized, tallied."""

from __future__ import annotations

import pyarrow as pa
import pytest

from mqsh.store import extent_tables
from mqsh.store import log as logstore


def test_only_the_newest_extent_may_end_in_a_torn_record():
    good = logstore.encode({"lsn": 0, "t": "CLR", "q": "A"}) + logstore.encode(
        {"lsn": 1, "t": "CLR", "q": "B"}
    )
    torn = good + b'0badf00d {"lsn":'
    assert extent_tables.extent_table(torn, newest=True)["q"].to_pylist() == ["A", "B"]
    with pytest.raises(extent_tables.DamagedExtent):
        extent_tables.extent_table(torn)
    damaged_inside = logstore.encode({"lsn": 0, "t": "CLR", "q": "A"}) + b"00000000 {}\n" + good
    with pytest.raises(extent_tables.DamagedExtent):
        extent_tables.extent_table(damaged_inside, newest=True)


@pytest.mark.parametrize("from_lsn", [0, 1, 5, 17, 29, 30, 99])
def test_records_before_the_restart_point_are_checked_but_not_kept(from_lsn):
    data = b"".join(logstore.encode({"lsn": lsn, "t": "CLR", "q": f"Q{lsn}"}) for lsn in range(30))
    table = extent_tables.extent_table(data, newest=True, from_lsn=from_lsn)
    assert table["lsn"].to_pylist() == list(range(min(from_lsn, 30), 30))
    damaged_before = b"00000000 {}\n" + data
    with pytest.raises(extent_tables.DamagedExtent):
        extent_tables.extent_table(damaged_before, newest=True, from_lsn=from_lsn)


def test_summary_holds_each_objects_newest_records():
    records = [
        {"lsn": 7, "t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1},
        {"lsn": 8, "t": "PUT", "q": "A", "m": "M1", "p": 0, "s": 1, "tm": "t", "u": "8.1"},
        {"lsn": 9, "t": "CLR", "q": "B"},
        {"lsn": 10, "t": "CMT", "u": "8.1", "qs": ["A", "C"]},
        {"lsn": 11, "t": "DEL", "k": "QUEUE/D"},
        {"lsn": 12, "t": "CKPT", "uows": {}, "media": {}},
    ]
    summary = extent_tables.summarize(
        extent_tables.extent_table(b"".join(logstore.encode(record) for record in records))
    )
    assert summary["count"] == 6 and summary["first"] == 7
    assert summary["newest"] == {
        "QUEUE/A": (10, None),
        "QUEUE/B": (9, 9),
        "QUEUE/C": (10, None),
        "QUEUE/D": (11, None),
    }
    assert summary["objects"] == [[7, "OBJ", "QUEUE/A", 1], [11, "DEL", "QUEUE/D", None]]


def test_the_tally_counts_each_kind_by_structure_and_owner():
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
    schema = pa.schema([extent_tables.SCHEMA.field(name) for name in ("lsn", "t", "cf", "o", "r", "cfs")])
    groups = sorted(
        extent_tables.tally(pa.Table.from_pylist(rows, schema=schema)),
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
