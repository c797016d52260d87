"""Reading the log for Spark: records from copies, text and the active extent, and their summary."""

from __future__ import annotations

import pytest

from mqsh.store import columnar, log_writer
from mqsh.store import log as logstore


def write_log(directory, puts=30):
    writer = log_writer.LogWriter(directory, 500, 0, on_seal=columnar.write_copy)
    writer.append({"t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1})
    for number in range(puts):
        writer.append({"t": "PUT", "q": "A", "m": f"M{number}", "p": 0, "s": 1, "tm": "t", "u": None})
    writer.close()
    return [directory / logstore.extent_name(number) for number in logstore.list_extents(directory)]


def damage_pages(target):
    """A Parquet file's pages gone, its footer still readable (so still said to be made from its extent)."""
    data = bytearray(target.read_bytes())
    pages_end = len(data) - 8 - int.from_bytes(data[-8:-4], "little")  # the footer follows the pages
    data[4:pages_end] = b"\xff" * (pages_end - 4)
    target.write_bytes(bytes(data))


def test_records_and_summary_from_the_restart_point(spark_runner, tmp_path):
    from mqsh.recovery.spark.log_frame import log_frame

    extents = write_log(tmp_path / "active")
    assert len(extents) > 2
    from_lsn = 5  # inside the first extent: its earlier records do not count
    read = log_frame(spark_runner.session(), tmp_path / "active", 0, from_lsn, spark_runner.run)
    records, summary = read.records_of(), read.summary
    lsns = sorted(row["lsn"] for row in records.select("lsn").collect())
    assert lsns == list(range(from_lsn, 31))
    assert summary.count == len(lsns)
    assert summary.newest == {"QUEUE/A": [30, None]} and summary.objects == []


@pytest.mark.parametrize("lost", [columnar.copy_path, columnar.moves_path])
def test_a_lost_copy_is_made_again_from_its_extent(spark_runner, tmp_path, lost):
    from mqsh.recovery.spark.log_frame import log_frame

    extents = write_log(tmp_path / "active")
    lost(extents[1]).unlink()
    read = log_frame(spark_runner.session(), tmp_path / "active", 0, 0, spark_runner.run)
    assert columnar.usable_copy(extents[1]) is not None and columnar.usable_moves(extents[1]) is not None
    assert read.summary.count == 31 and read.settled.unsettled is None
    assert read.records_of().count() == 31


def test_no_summary_when_a_copy_cannot_be_made(spark_runner, tmp_path, monkeypatch):
    from mqsh.recovery.spark.log_frame import log_frame

    extents = write_log(tmp_path / "active")
    columnar.copy_path(extents[1]).unlink()
    monkeypatch.setattr(columnar, "write_copy", lambda _extent: None)  # as on a full disk
    read = log_frame(spark_runner.session(), tmp_path / "active", 0, 0, spark_runner.run)
    assert read.summary is None and read.settled is None
    assert read.records_of().count() == 31  # the extent is read from its text instead
    read.release()


def test_extents_read_as_text_are_kept_parsed_only_while_replayed(spark_runner, tmp_path, monkeypatch):
    from mqsh.recovery.replay.spark import replay_log

    extents = write_log(tmp_path / "active")
    columnar.copy_path(extents[1]).unlink()
    monkeypatch.setattr(columnar, "write_copy", lambda _extent: None)  # as on a full disk
    spark = spark_runner.session()
    cache = spark._jsparkSession.sharedState().cacheManager()  # the DataFrames persisted
    kept = []
    original = spark_runner.run

    def run(action):  # whether Spark keeps something as each job of the replay starts
        kept.append(not cache.isEmpty())
        return original(action)

    monkeypatch.setattr(spark_runner, "run", run)
    result = replay_log(spark_runner, {}, tmp_path / "active", 0, 0, {}, set())
    assert [message.msgid for message in result.state["QUEUE/A"].messages] == [f"M{n}" for n in range(30)]
    assert len(kept) > 1 and kept[0] and all(kept)  # parsed by the check, read again by the jobs after it
    assert cache.isEmpty()


def test_a_copy_that_cannot_be_read_leaves_the_facts_to_spark(spark_runner, tmp_path, monkeypatch):
    import pyarrow as pa

    from mqsh.recovery.replay.spark import replay_log

    def unreadable(_copy, _lsns):
        raise pa.ArrowInvalid("damaged page")

    write_log(tmp_path / "active")
    monkeypatch.setattr(columnar, "bodies_at", unreadable)
    result = replay_log(spark_runner, {}, tmp_path / "active", 0, 0, {}, set())
    assert result.count == 31
    assert [message.msgid for message in result.state["QUEUE/A"].messages] == [f"M{n}" for n in range(30)]


@pytest.mark.parametrize("damaged", ["copy", "moves"])
def test_a_columnar_file_damaged_inside_is_made_again_or_read_as_text(
    spark_runner, tmp_path, monkeypatch, damaged
):
    from mqsh.recovery.replay.spark import replay_log

    extents = write_log(tmp_path / "active")
    if damaged == "copy":
        # So that the copy's records are what replay reads of the extent: no moves, none made again.
        columnar.moves_path(extents[1]).unlink()
        monkeypatch.setattr(columnar, "write_copy", lambda _extent: None)
    target = columnar.copy_path(extents[1]) if damaged == "copy" else columnar.moves_path(extents[1])
    damage_pages(target)
    assert columnar.usable_copy(extents[1]) is not None
    assert damaged == "copy" or columnar.usable_moves(extents[1]) is not None
    result = replay_log(spark_runner, {}, tmp_path / "active", 0, 0, {}, set())
    assert result.count == 31
    assert [message.msgid for message in result.state["QUEUE/A"].messages] == [f"M{n}" for n in range(30)]
    if damaged == "copy":  # distrusted and not made again: the replay read the extent's text
        assert not target.exists()
    else:  # few moves, read in process: made again from the extent, and good to read next time
        assert columnar.moves_table(columnar.usable_moves(extents[1])) is not None


def test_moves_damaged_inside_that_cannot_be_made_again_give_the_copys_records(
    spark_runner, tmp_path, monkeypatch
):
    import pyarrow.parquet as pq

    from mqsh.recovery.spark.log_frame import log_frame

    extents = write_log(tmp_path / "active")
    damage_pages(columnar.moves_path(extents[1]))
    monkeypatch.setattr(columnar, "write_copy", lambda _extent: None)  # as on a full disk
    read = log_frame(spark_runner.session(), tmp_path / "active", 0, 0, spark_runner.run)
    assert read.settled.unsettled is not None and len(read.settled.extents) == len(extents) - 1
    # The extent's records are read instead, from its copy.
    copied = pq.read_table(columnar.copy_path(extents[1]))["lsn"].to_pylist()
    assert sorted(row["lsn"] for row in read.settled.unsettled.select("lsn").collect()) == copied


def test_a_copy_without_settled_moves_gives_its_records(spark_runner, tmp_path, monkeypatch):
    from mqsh.recovery.replay.spark import replay_log
    from mqsh.recovery.spark.log_frame import log_frame

    extents = write_log(tmp_path / "active")
    columnar.moves_path(extents[1]).unlink()  # and they cannot be made again: a full disk
    monkeypatch.setattr(columnar, "write_copy", lambda _extent: None)
    read = log_frame(spark_runner.session(), tmp_path / "active", 0, 0, spark_runner.run)
    assert read.settled.unsettled is not None and len(read.settled.extents) == len(extents) - 1
    result = replay_log(spark_runner, {}, tmp_path / "active", 0, 0, {}, set())
    assert [message.msgid for message in result.state["QUEUE/A"].messages] == [f"M{n}" for n in range(30)]
