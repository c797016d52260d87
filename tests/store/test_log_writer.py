"""The log's writer: extents started before they are named, their room given ahead, records forced."""

from __future__ import annotations

import errno
import os

import pytest

from mqsh.store import log as logstore
from mqsh.store import log_writer
from tests.store.test_log import write


def test_a_new_extent_exists_before_it_is_named_and_before_the_full_one_is_sealed(tmp_path):
    """A process killed while the full extent is copied leaves a log whose newest extent is there."""
    seen = []

    def on_start(number):
        seen.append(("start", number, (tmp_path / logstore.extent_name(number)).exists()))

    def on_seal(path):
        seen.append(("seal", path.name))
        raise KeyboardInterrupt  # the kill, or a Ctrl-C, in the middle of the copy

    writer = log_writer.LogWriter(tmp_path, 300, 0, on_seal=on_seal, on_start=on_start)
    with pytest.raises(KeyboardInterrupt):
        for i in range(100):
            writer.append({"t": "X", "i": i})
    assert seen == [("start", 1, True), ("seal", "S0000000.LOG")]
    written = writer.next_lsn
    writer.append({"t": "Y"})  # the writer goes on in the new extent
    assert [record["lsn"] for record in logstore.read_records(tmp_path)][-1] == written


def test_an_extent_started_but_not_written_to_continues_the_lsns_of_the_one_before(tmp_path):
    write(tmp_path, 3)
    (tmp_path / "S0000001.LOG").touch()
    writer = log_writer.LogWriter(tmp_path, 1 << 20, 0)
    assert writer.append({"t": "Y"}) == 3
    writer.close()


def test_the_current_extent_has_its_full_size_and_one_that_ends_the_size_of_its_records(tmp_path):
    writer = log_writer.LogWriter(tmp_path, 1 << 16, 0)
    writer.append({"t": "X"})
    path = tmp_path / "S0000000.LOG"
    assert path.stat().st_size == 1 << 16  # its room is there before records fill it
    assert [record["t"] for record in logstore.read_records(tmp_path)] == ["X"]  # the room ends the records
    writer.close()
    assert path.stat().st_size == writer.size < 1 << 16


def test_a_killed_writer_leaves_room_after_its_records_and_the_next_goes_on_after_them(tmp_path):
    writer = log_writer.LogWriter(tmp_path, 1 << 16, 0)
    for number in range(3):
        writer.append({"t": "X", "n": number})
    written = writer.size
    writer.abandon()  # a kill: nothing cut, nothing closed
    path = tmp_path / "S0000000.LOG"
    assert path.stat().st_size == 1 << 16
    assert logstore.valid_end(path) == (written, 2)
    writer = log_writer.LogWriter(tmp_path, 1 << 16, 0)
    assert writer.append({"t": "Y"}) == 3
    writer.abandon()
    assert [record["lsn"] for record in logstore.read_records(tmp_path)] == [0, 1, 2, 3]


def test_every_extent_but_the_newest_holds_only_its_records(tmp_path):
    writer = log_writer.LogWriter(tmp_path, 1000, 0)
    for number in range(150):
        writer.append({"t": "X", "n": number})
    writer.abandon()
    extents = logstore.list_extents(tmp_path)
    assert len(extents) > 3
    for number in extents[:-1]:
        path = logstore.extent_path(tmp_path, number)
        assert path.stat().st_size == logstore.valid_end(path)[0]
    assert [record["n"] for record in logstore.read_records(tmp_path)] == list(range(150))


def test_the_end_of_an_extents_bytes_leaves_out_the_room_beyond_its_records(tmp_path):
    writer = log_writer.LogWriter(tmp_path, 1 << 16, 0)
    path = tmp_path / "S0000000.LOG"
    assert logstore.records_end(path) == 0
    for number in range(7):
        writer.append({"t": "X", "n": number, "text": "\u0000 escaped, never a zero byte"})
        assert logstore.records_end(path) == writer.size < path.stat().st_size
    writer.close()
    assert logstore.records_end(path) == path.stat().st_size == writer.size


def test_a_disk_without_room_for_the_full_size_still_takes_records(tmp_path, monkeypatch):
    def no_room(fd, offset, length):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(log_writer.os, "posix_fallocate", no_room)
    writer = log_writer.LogWriter(tmp_path, 1 << 16, 0)
    writer.append({"t": "X"})
    writer.append({"t": "Y"})
    assert (tmp_path / "S0000000.LOG").stat().st_size == writer.size
    writer.abandon()
    assert [record["t"] for record in logstore.read_records(tmp_path)] == ["X", "Y"]


def test_the_room_is_written_with_zeros_ahead_of_the_records_a_part_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(log_writer, "FORMAT_BYTES", 4096)
    formats = []
    pwrite = os.pwrite
    monkeypatch.setattr(
        log_writer.os,
        "pwrite",
        lambda fd, data, offset: formats.append((offset, len(data))) or pwrite(fd, data, offset),
    )
    writer = log_writer.LogWriter(tmp_path, 1 << 14, 0)
    for number in range(100):
        writer.append({"t": "X", "n": number, "text": "x" * 60})
        assert writer.size <= writer.formatted  # every record lands on zeros written before it
    # Parts that follow one another from the start, each written once, as the records reached them.
    assert formats[0][0] == 0 and all(
        offset == previous + length for (previous, length), (offset, _) in zip(formats, formats[1:])
    )
    assert len(formats) == -(-writer.size // 4096)
    path = tmp_path / "S0000000.LOG"
    assert path.read_bytes()[writer.size : writer.formatted] == bytes(writer.formatted - writer.size)
    assert [record["n"] for record in logstore.read_records(tmp_path)] == list(range(100))
    writer.close()
    assert path.stat().st_size == writer.size


def test_zeros_that_cannot_be_written_leave_the_records_to_fill_the_room_as_they_come(tmp_path, monkeypatch):
    def failing(fd, data, offset):
        attempts.append(offset)
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    attempts = []
    monkeypatch.setattr(log_writer.os, "pwrite", failing)
    writer = log_writer.LogWriter(tmp_path, 1 << 16, 0)
    for number in range(5):
        writer.append({"t": "X", "n": number})
    assert attempts == [0]  # tried once, then given up for this extent
    writer.abandon()
    assert [record["n"] for record in logstore.read_records(tmp_path)] == list(range(5))


def test_force_makes_the_records_written_durable_once_per_batch(tmp_path, monkeypatch):
    forced = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: forced.append(fd))
    writer = log_writer.LogWriter(tmp_path, 1 << 20, 0)
    writer.force()
    assert forced == []  # nothing written, nothing to force
    for number in range(3):
        writer.append({"t": "PUT", "n": number})
    writer.force()
    writer.force()
    assert len(forced) == 1  # one force for the three records (a group commit)
    writer.append({"t": "PUT", "n": 3})
    writer.force()
    assert len(forced) == 2
    writer.close()


def test_each_command_that_logs_is_forced_before_its_response(data_dir, monkeypatch):
    from mqsh.shell.session import Session

    session = Session(data_dir)
    assert session.execute("crtmqm QF").ok and session.execute("strmqm QF").ok
    session.current_qmgr = "QF"
    assert session.execute("DEFINE QLOCAL(Q1)").ok
    forced = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: forced.append(fd))
    assert session.execute("LAB PUT QUEUE(Q1) COUNT(10) PERSISTENT").ok
    assert len(forced) == 1
    assert session.execute("DISPLAY QLOCAL(Q1)").ok
    assert len(forced) == 1  # a command that logs nothing forces nothing
    session.close()
