"""Shared-message records in a queue manager's log change nothing restart rebuilds, on any engine.

A member of a queue-sharing group logs its persistent shared-message changes
(SBLK, SPUT, SGET, the backup's SBKS, SBKP, SBKE) on its own log, among its
local records, and its units' endings gain cfs and r. Restart rebuilds local
queues only: the reference, the columnar replay and the Spark replay must all
leave exactly the state of the same log without them - from extents with
columnar copies, with copies made before the shared fields were typed, and
(Spark) from the extents' text.
"""

from __future__ import annotations

import copy

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqsh.recovery.replay import reference as replay
from mqsh.recovery.replay.columnar import replay_log as replay_columnar
from mqsh.store import columnar
from tests.recovery.logs import LogMaker, random_case, write_log
from tests.support import examples

SHARED_KINDS = ("SBLK", "SPUT", "SGET", "SBKS", "SBKP", "SBKE")


class SharedLogMaker(LogMaker):
    """Random local logs with shared-message records among them, and cfs and r on some unit endings."""

    lrsn = 1_700_000_000_000_000

    def _log(self, record):
        self.lrsn += self.random.randint(1, 50)
        if record["t"] in ("CMT", "BCK") and self.random.random() < 0.5:
            record = {**record, "cfs": ["APP1"], "r": self.lrsn}
        super()._log(record)

    def step(self):
        if self.random.random() < 0.35:
            self._log(self._shared())
        else:
            super().step()

    def _shared(self):
        pick = self.random
        entry = f"{self.lrsn:016X}"
        kind = pick.choice(SHARED_KINDS)
        unit = pick.choice([None, f"{len(self.records)}.7"])
        common = {"cf": "APP1", "e": entry, "r": self.lrsn}
        if kind == "SBLK":
            return {"t": kind, **common, "o": "QM1", "b": pick.randint(0, 99), "n": pick.randint(1, 4)}
        if kind == "SPUT":
            return {
                "t": kind,
                **common,
                "sq": "SQ1",
                "p": pick.randint(0, 9),
                "s": pick.randint(0, 999),
                "tm": "2026-01-01T00:00:00",
                "u": unit,
                "o": pick.choice([None, "QM1"]),
                "b": 7,
                "n": 2,
            }
        if kind == "SGET":
            return {"t": kind, **common, "u": unit}
        if kind == "SBKP":
            return {
                "t": kind,
                "cf": "APP1",
                "sq": "SQ1",
                "e": entry,
                "p": 1,
                "s": 10,
                "tm": "t",
                "o": None,
                "b": None,
                "n": None,
            }
        if kind == "SBKE":
            return {"t": kind, "cf": "APP1", "r": self.lrsn, "c": pick.randint(0, 9)}
        return {"t": kind, "cf": "APP1", "r": self.lrsn}


def without_shared(records):
    """The same log as a queue manager outside any group would have written it."""
    plain = []
    for record in records:
        if record["t"] in SHARED_KINDS:
            continue
        plain.append({name: value for name, value in record.items() if name not in ("cfs", "r")})
    return plain


def reference(base, records):
    state = copy.deepcopy(base)
    replay.replay(state, records)
    return state


def drop_shared_columns(log_dir):
    """Make every copy as one made before the shared fields were typed (its metadata kept)."""
    for copy_file in (log_dir.parent / "columnar").glob("S???????.parquet"):
        table = pq.read_table(copy_file)
        old = table.drop_columns(list(columnar.SHARED_FIELDS)).replace_schema_metadata(table.schema.metadata)
        pq.write_table(old, copy_file)


def assert_same(result, base, records):
    assert result.state == reference(base, records)
    assert result.count == len(records)
    assert [record["lsn"] for record in result.object_records] == [
        record["lsn"] for record in records if record["t"] in ("OBJ", "IMG", "DEL")
    ]


def case(tmp_path_factory, seed, length, extent_bytes, old_copies):
    base, records = random_case(seed, length, SharedLogMaker)
    assert reference(base, records) == reference(base, without_shared(records))
    log_dir = tmp_path_factory.mktemp("log") / "active"
    first_extent, from_lsn = write_log(log_dir, records, extent_bytes)
    if old_copies:
        drop_shared_columns(log_dir)
    return base, records, log_dir, first_extent, from_lsn


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    length=st.integers(5, 150),
    extent_bytes=st.sampled_from([600, 2000, 100_000]),
    old_copies=st.booleans(),
)
def test_columnar_restart_ignores_shared_records(tmp_path_factory, seed, length, extent_bytes, old_copies):
    base, records, log_dir, first_extent, from_lsn = case(
        tmp_path_factory, seed, length, extent_bytes, old_copies
    )
    assert_same(replay_columnar(base, log_dir, first_extent, from_lsn, {}, set()), base, records)


def test_shared_fields_are_typed_columns_of_a_copy(tmp_path):
    from mqsh.store import log as logstore
    from mqsh.store import log_writer

    writer = log_writer.LogWriter(tmp_path / "active", 250, 0, on_seal=columnar.write_copy)
    writer.append({"t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1})
    writer.append(
        {
            "t": "SPUT",
            "cf": "APP1",
            "sq": "SQ1",
            "e": "00000000000000AB",
            "p": 4,
            "s": 9,
            "tm": "t",
            "u": "2.1",
            "o": "QM2",
            "b": 12,
            "n": 3,
            "r": 171,
        }
    )
    writer.append({"t": "CMT", "u": "2.1", "qs": [], "cfs": ["APP1"], "r": 172})
    writer.append({"t": "CKPT", "uows": {}, "media": {}})
    writer.close()
    copy_file = columnar.usable_copy(logstore.extent_path(tmp_path / "active", 0))
    assert copy_file is not None and set(columnar.SHARED_FIELDS) <= set(pq.read_schema(copy_file).names)
    rows = pq.read_table(copy_file, columns=["t", "o", "n", "b", "r", "cfs", "body"]).to_pylist()
    assert rows[0] == {
        "t": "OBJ",
        "o": "QLOCAL",
        "n": None,
        "b": None,
        "r": None,
        "cfs": None,
        "body": '{"lsn":0,"t":"OBJ","k":"QUEUE/A","o":"QLOCAL","n":"A","a":{},"c":1}',
    }
    assert rows[1:] == [
        {"t": "SPUT", "o": "QM2", "n": 3, "b": 12, "r": 171, "cfs": None, "body": None},
        {"t": "CMT", "o": None, "n": None, "b": None, "r": 172, "cfs": ["APP1"], "body": None},
    ]


@pytest.mark.parametrize("copies", ["new", "old", "none"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), length=st.integers(20, 150))
def test_spark_restart_ignores_shared_records(
    spark_runner, tmp_path_factory, monkeypatch, copies, seed, length
):
    """From copies, old copies, and the extents' text (no copy can be made: Spark reads the JSON lines)."""
    from mqsh.recovery.replay.spark import replay_log

    base, records, log_dir, first_extent, from_lsn = case(
        tmp_path_factory, seed, length, 900, copies == "old"
    )
    if copies == "none":
        for path in (log_dir.parent / "columnar").glob("*"):
            path.unlink()
        monkeypatch.setattr(columnar, "write_copy", lambda extent: None)
    assert_same(replay_log(spark_runner, base, log_dir, first_extent, from_lsn, {}, set()), base, records)
