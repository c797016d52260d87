"""The log: checksummed records, extents, torn tails and damage."""

from __future__ import annotations

import errno
import os
import zlib

import pytest

from mqsh.store import log as logstore


def write(directory, count, extent_bytes=1 << 20):
    writer = logstore.LogWriter(directory, extent_bytes, 0)
    lsns = [writer.append({"t": "X", "i": i}) for i in range(count)]
    writer.close()
    return lsns


def test_records_come_back_in_order_with_their_lsns(tmp_path):
    assert write(tmp_path, 5) == [0, 1, 2, 3, 4]
    assert [r["i"] for r in logstore.read_records(tmp_path)] == [0, 1, 2, 3, 4]
    assert [r["lsn"] for r in logstore.read_records(tmp_path, from_lsn=3)] == [3, 4]


def test_extents_fill_and_roll_over(tmp_path):
    write(tmp_path, 200, extent_bytes=1000)
    extents = logstore.list_extents(tmp_path)
    assert len(extents) > 3 and extents == list(range(len(extents)))
    assert (tmp_path / "S0000000.LOG").exists()
    assert len(list(logstore.read_records(tmp_path))) == 200


def test_a_torn_last_record_is_cut_off_and_writing_goes_on(tmp_path):
    write(tmp_path, 3)
    with open(tmp_path / "S0000000.LOG", "ab") as handle:
        handle.write(b'0badc0de {"lsn":3,"t":"X"')  # a write cut short by a kill
    assert len(list(logstore.read_records(tmp_path))) == 3
    writer = logstore.LogWriter(tmp_path, 1 << 20, 0)
    assert writer.append({"t": "Y"}) == 3
    writer.close()
    assert [r["t"] for r in logstore.read_records(tmp_path)] == ["X", "X", "X", "Y"]


def test_a_damaged_record_in_the_middle_is_detected(tmp_path):
    write(tmp_path, 3)
    path = tmp_path / "S0000000.LOG"
    data = bytearray(path.read_bytes())
    data[12] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(logstore.LogCorrupt):
        list(logstore.read_records(tmp_path))


def test_records_before_the_restart_point_are_still_checked(tmp_path):
    write(tmp_path, 5)
    path = tmp_path / "S0000000.LOG"
    data = bytearray(path.read_bytes())
    data[12] ^= 0x01  # inside record 0, which a replay from LSN 3 passes over
    path.write_bytes(bytes(data))
    with pytest.raises(logstore.LogCorrupt):
        list(logstore.read_records(tmp_path, from_lsn=3))


@pytest.mark.parametrize("body", [b'{"lsn":1,"t":', b"[1, 2]", b'{"t":"X"}', b'{"lsn":"1"}'])
def test_a_line_whose_checksum_holds_but_is_no_record_is_damage(tmp_path, body):
    write(tmp_path, 1)
    path = tmp_path / "S0000000.LOG"
    with open(path, "ab") as handle:
        handle.write(f"{zlib.crc32(body):08x} ".encode() + body + b"\n")
        handle.write(logstore.encode({"lsn": 2, "t": "X"}))
    with pytest.raises(logstore.LogCorrupt):
        list(logstore.read_records(tmp_path))


def test_the_end_of_the_log_is_found_without_reading_every_record_through(tmp_path):
    write(tmp_path, 4)
    path = tmp_path / "S0000000.LOG"
    size = path.stat().st_size
    with open(path, "ab") as handle:
        handle.write(b'0badc0de {"lsn":4,"t":"X"')
    assert logstore.valid_end(path) == (size, 3)


def test_a_missing_extent_is_reported_by_name(tmp_path):
    write(tmp_path, 100, extent_bytes=500)
    (tmp_path / "S0000001.LOG").unlink()
    with pytest.raises(logstore.ExtentMissing) as error:
        list(logstore.read_records(tmp_path))
    assert error.value.extent == "S0000001.LOG"


def ring_log(directory):
    """Extents 1 and 2 of a circular log, in files S0000001.LOG and S0000000.LOG."""
    writer = logstore.LogWriter(directory, 1 << 20, 0)
    for lsn in range(10):
        writer.append({"t": "CLR", "q": f"OLD{lsn}"})
    writer.close()
    (directory / "S0000001.LOG").write_bytes(
        b"".join(logstore.encode({"lsn": lsn, "t": "CLR", "q": f"Q{lsn}"}) for lsn in range(10, 20))
    )
    logstore.write_ring(directory, logstore.Ring([0, 1], {1: 1, 2: 0}))


def test_a_ring_says_which_file_holds_each_extent(tmp_path):
    ring_log(tmp_path)
    (tmp_path / "S0000000.LOG").write_bytes(logstore.encode({"lsn": 20, "t": "CLR", "q": "NEW"}))
    assert logstore.list_extents(tmp_path) == [1, 2]
    assert logstore.extent_file_name(tmp_path, 2) == "S0000000.LOG"
    assert logstore.extent_file_name(tmp_path, 3) == "S0000001.LOG"  # the ring goes round
    assert [record["lsn"] for record in logstore.read_records(tmp_path, 1)] == list(range(10, 21))
    (tmp_path / "S0000001.LOG").unlink()
    with pytest.raises(logstore.ExtentMissing) as missing:
        list(logstore.read_records(tmp_path, 1))
    assert missing.value.extent == "S0000001.LOG"


def test_a_ring_file_taken_but_not_yet_emptied_is_emptied_at_start(tmp_path):
    ring_log(tmp_path)  # a crash came after the ring gave extent 2 the file, before it was emptied
    writer = logstore.LogWriter(tmp_path, 1 << 20, 0)
    assert writer.extent == 2 and writer.next_lsn == 20
    writer.append({"t": "CLR", "q": "NEW"})
    writer.close()
    assert [record["q"] for record in logstore.read_records(tmp_path, 2)] == ["NEW"]


def test_a_ring_file_that_cannot_be_read_is_damage_not_a_guess(tmp_path):
    ring_log(tmp_path)
    ring = tmp_path / logstore.RING_FILE
    ring.write_bytes(ring.read_bytes()[:-3])  # cut short
    with pytest.raises(logstore.LogCorrupt) as damaged:
        logstore.list_extents(tmp_path)
    assert (
        damaged.value.extent == logstore.RING_FILE
        and "which file holds which extent" in damaged.value.problem
    )


def test_a_new_extent_exists_before_it_is_named_and_before_the_full_one_is_sealed(tmp_path):
    """A process killed while the full extent is copied leaves a log whose newest extent is there."""
    seen = []

    def on_start(number):
        seen.append(("start", number, (tmp_path / logstore.extent_name(number)).exists()))

    def on_seal(path):
        seen.append(("seal", path.name))
        raise KeyboardInterrupt  # the kill, or a Ctrl-C, in the middle of the copy

    writer = logstore.LogWriter(tmp_path, 300, 0, on_seal=on_seal, on_start=on_start)
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
    writer = logstore.LogWriter(tmp_path, 1 << 20, 0)
    assert writer.append({"t": "Y"}) == 3
    writer.close()


def test_the_current_extent_has_its_full_size_and_one_that_ends_the_size_of_its_records(tmp_path):
    writer = logstore.LogWriter(tmp_path, 1 << 16, 0)
    writer.append({"t": "X"})
    path = tmp_path / "S0000000.LOG"
    assert path.stat().st_size == 1 << 16  # its room is there before records fill it
    assert [record["t"] for record in logstore.read_records(tmp_path)] == ["X"]  # the room ends the records
    writer.close()
    assert path.stat().st_size == writer.size < 1 << 16


def test_a_killed_writer_leaves_room_after_its_records_and_the_next_goes_on_after_them(tmp_path):
    writer = logstore.LogWriter(tmp_path, 1 << 16, 0)
    for number in range(3):
        writer.append({"t": "X", "n": number})
    written = writer.size
    writer.abandon()  # a kill: nothing cut, nothing closed
    path = tmp_path / "S0000000.LOG"
    assert path.stat().st_size == 1 << 16
    assert logstore.valid_end(path) == (written, 2)
    writer = logstore.LogWriter(tmp_path, 1 << 16, 0)
    assert writer.append({"t": "Y"}) == 3
    writer.abandon()
    assert [record["lsn"] for record in logstore.read_records(tmp_path)] == [0, 1, 2, 3]


def test_every_extent_but_the_newest_holds_only_its_records(tmp_path):
    writer = logstore.LogWriter(tmp_path, 1000, 0)
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
    writer = logstore.LogWriter(tmp_path, 1 << 16, 0)
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

    monkeypatch.setattr(logstore.os, "posix_fallocate", no_room)
    writer = logstore.LogWriter(tmp_path, 1 << 16, 0)
    writer.append({"t": "X"})
    writer.append({"t": "Y"})
    assert (tmp_path / "S0000000.LOG").stat().st_size == writer.size
    writer.abandon()
    assert [record["t"] for record in logstore.read_records(tmp_path)] == ["X", "Y"]


def test_the_room_is_written_with_zeros_ahead_of_the_records_a_part_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(logstore, "FORMAT_BYTES", 4096)
    formats = []
    pwrite = os.pwrite
    monkeypatch.setattr(
        logstore.os,
        "pwrite",
        lambda fd, data, offset: formats.append((offset, len(data))) or pwrite(fd, data, offset),
    )
    writer = logstore.LogWriter(tmp_path, 1 << 14, 0)
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
    monkeypatch.setattr(logstore.os, "pwrite", failing)
    writer = logstore.LogWriter(tmp_path, 1 << 16, 0)
    for number in range(5):
        writer.append({"t": "X", "n": number})
    assert attempts == [0]  # tried once, then given up for this extent
    writer.abandon()
    assert [record["n"] for record in logstore.read_records(tmp_path)] == list(range(5))


def test_force_makes_the_records_written_durable_once_per_batch(tmp_path, monkeypatch):
    forced = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: forced.append(fd))
    writer = logstore.LogWriter(tmp_path, 1 << 20, 0)
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
