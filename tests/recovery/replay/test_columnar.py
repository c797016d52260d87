"""The columnar replay (--engine local) gives exactly the reference replay's state, from real extents on disk."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mqsh.recovery import restart
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.replay import reference as replay
from mqsh.recovery.replay.columnar import replay_log
from mqsh.store import columnar, log_writer
from mqsh.store import log as logstore
from tests.recovery.conftest import MASTER
from tests.recovery.helpers import started
from tests.recovery.logs import random_case, write_log
from tests.recovery.test_engine import loaded, restarted
from tests.recovery.test_restart_damage import crash_with_work_in_flight, start_recreates_q1
from tests.support import examples


def reference(base, records):
    state = copy.deepcopy(base)
    replay.replay(state, records)
    return state


def assert_same_as_reference(result, base, records, open_at_start):
    assert result.state == reference(base, records)
    assert result.count == len(records)
    assert result.units == restart.units_in_flight(open_at_start, records)
    assert [record["lsn"] for record in result.object_records] == [
        record["lsn"] for record in records if record["t"] in ("OBJ", "IMG", "DEL")
    ]


@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    length=st.integers(5, 150),
    before=st.integers(0, 4),
    extent_bytes=st.sampled_from([500, 900, 3000, 100_000]),
    without_copies=st.booleans(),
)
# A unit open at the checkpoint that began after the restart point and ended inside a later sealed
# extent: settling that extent drops its ending, which the endings records still hold.
@example(seed=497, length=98, before=0, extent_bytes=3000, without_copies=False)
def test_columnar_replay_equals_reference(
    tmp_path_factory, seed, length, before, extent_bytes, without_copies
):
    """Settled moves where they hold, records where a queue's file or epoch starts inside what settled."""
    base, records = random_case(seed, length)
    log_dir = tmp_path_factory.mktemp("log") / "active"
    first_extent, from_lsn = write_log(log_dir, records, extent_bytes, before)
    if without_copies:  # a full disk when they were sealed: the copies are made again by the replay
        for path in (log_dir.parent / "columnar").glob("*"):
            path.unlink()
    open_at_start = {uow: sorted(queues) for uow, queues in replay.in_flight(base).items()}
    untouched = copy.deepcopy(base)
    result = replay_log(base, log_dir, first_extent, from_lsn, open_at_start, set())
    assert_same_as_reference(result, base, records, open_at_start)
    assert base == untouched  # the replay built a new state


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    length=st.integers(5, 150),
    extent_bytes=st.sampled_from([600, 100_000]),
    lost=st.sampled_from(["A", "B", "C"]),
)
# The lost queue comes back from an image whose message waits on a unit whose records all came
# before the restart point: the unit is in flight all the same (the start backs it out).
@example(seed=8937, length=7, extent_bytes=600, lost="B")
def test_units_on_a_queue_lost_at_start_are_found_in_the_log(
    tmp_path_factory, seed, length, extent_bytes, lost
):
    """A queue whose file was lost: its units of work in flight are still backed out at the end of start."""
    base, records = random_case(seed, length)
    base.pop(replay.queue_key(lost), None)
    log_dir = tmp_path_factory.mktemp("log") / "active"
    first_extent, from_lsn = write_log(log_dir, records, extent_bytes)
    open_at_start = {uow: sorted(queues) for uow, queues in replay.in_flight(base).items()}
    result = replay_log(base, log_dir, first_extent, from_lsn, open_at_start, {lost})
    expected = restart.units_in_flight(open_at_start, records)
    replayed = reference(base, records)
    assert result.state == replayed
    # Every unit left open is found, with the queues its records name, the lost queue where its
    # work there came before the restart point, and a queue an image brought back with its work
    # (as the reference start adds the units the replayed state holds pending).
    pending = replay.in_flight(replayed)
    assert set(result.units) == set(expected) | set(pending)
    for uow, queues in result.units.items():
        named = expected.get(uow, set())
        assert named <= queues <= named | pending.get(uow, set()) | {lost}


@pytest.mark.parametrize("engine", ["local", "spark"])
def test_a_queue_whose_base_falls_inside_a_settled_span_is_read_from_its_records(request, tmp_path, engine):
    """The object file holds a message put in a settled extent whose get is settled against it there."""
    if engine == "spark":
        request.getfixturevalue("spark_runner")  # skips where Java is missing
    writer = log_writer.LogWriter(tmp_path / "active", 400, 0, on_seal=columnar.write_copy)
    records = [
        {"t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1},
        {"t": "PUT", "q": "A", "m": "M1", "p": 0, "s": 1, "tm": "t", "u": None},
        {"t": "GET", "q": "A", "m": "M1", "u": None},
        *({"t": "PUT", "q": "A", "m": f"N{n}", "p": 0, "s": 1, "tm": "t", "u": None} for n in range(8)),
    ]
    records = [{"lsn": writer.append(record), **record} for record in records]
    writer.close()
    base = reference({}, records[:2])  # the queue's file as written after the put of M1
    assert columnar.usable_moves(tmp_path / "active" / "S0000000.LOG").spans == {"QUEUE/A": [1, 2]}
    result = ReplayEngine(engine, MASTER).replay_whole(engine, base, tmp_path / "active", 0, 0, {}, set())
    assert result.state == reference(base, records[2:])
    assert [message.msgid for message in result.state["QUEUE/A"].messages] == [f"N{n}" for n in range(8)]


def test_a_copy_damaged_inside_is_made_again(tmp_path):
    records = [
        {"lsn": n, "t": "PUT", "q": "A", "m": f"M{n}", "p": 0, "s": 1, "tm": "t", "u": None}
        for n in range(1, 60)
    ]
    records.insert(0, {"lsn": 0, "t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1})
    write_log(tmp_path / "active", records, 900)
    moves = columnar.moves_path(tmp_path / "active" / "S0000000.LOG")
    data = bytearray(moves.read_bytes())
    data[8:40] = b"\0" * 32  # pages damaged, footer intact: the copy still looks made from its extent
    moves.write_bytes(bytes(data))
    result = replay_log({}, tmp_path / "active", 0, 0, {}, set())
    assert result.state == reference({}, records)


def test_missing_and_damaged_extents_are_reported_as_the_reference_reports_them(tmp_path):
    records = [
        {"lsn": 0, "t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1},
        *(
            {"lsn": n, "t": "PUT", "q": "A", "m": f"M{n}", "p": 0, "s": 1, "tm": "t", "u": None}
            for n in range(1, 60)
        ),
    ]
    log_dir = tmp_path / "active"
    write_log(log_dir, records, 900)
    sealed = log_dir / "S0000001.LOG"
    columnar.copy_path(sealed).unlink()
    sealed.write_bytes(
        sealed.read_bytes().replace(b'"t":"PUT"', b'"t":"PAT"', 1)
    )  # checksum no longer matches
    with pytest.raises(logstore.LogCorrupt) as found:
        replay_log({}, log_dir, 0, 0, {}, set())
    with pytest.raises(logstore.LogCorrupt) as expected:
        list(logstore.read_records(log_dir))
    assert (found.value.extent, found.value.offset) == (expected.value.extent, expected.value.offset)
    sealed.unlink()
    with pytest.raises(logstore.ExtentMissing, match="S0000001.LOG"):
        replay_log({}, log_dir, 0, 0, {}, set())


def test_restart_on_the_local_engine_equals_the_reference(tmp_path):
    """A real queue manager's crash: the same start report and the same queue, message for message."""
    loaded(tmp_path / "local", 3000)
    loaded(tmp_path / "reference", 3000)
    copies = sorted((tmp_path / "local" / "log" / "QM1" / "columnar").glob("*.parquet"))
    assert len(copies) > 3
    copies[0].write_bytes(b"not parquet")  # a bad copy: made again from its extent
    local, local_result = restarted(tmp_path / "local", ReplayEngine("local"))
    ref, ref_result = restarted(tmp_path / "reference", ReplayEngine("reference"))
    assert local_result.ok and ref_result.ok
    assert local.render(local_result) == ref.render(ref_result)
    assert local.installation.held["QM1"].state == ref.installation.held["QM1"].state
    local.close()
    ref.close()


def test_torn_tail_and_damage_on_the_local_engine(data_dir):
    paths = loaded(data_dir, 300, pages="4096")
    extent = paths.log_dir / "S0000000.LOG"
    extent.write_bytes(extent.read_bytes() + b'0badf00d {"lsn":')  # a record cut short by the crash
    session, result = restarted(data_dir, ReplayEngine("local"))
    assert result.ok
    session.installation.crash("QM1")
    extent.write_bytes(extent.read_bytes().replace(b'"t":"GET"', b'"t":"GOT"', 1))
    session, result = restarted(data_dir, ReplayEngine("local"))
    assert not result.ok
    assert "AMQ7082E" in session.render(result)


def test_local_restart_backs_out_work_on_a_queue_damaged_at_start(data_dir):
    session = started(data_dir, "-ll", engine=ReplayEngine("local"))
    crash_with_work_in_flight(session)
    start_recreates_q1(session)
    session.close()
