"""The log: checksummed records, extents, torn tails and damage."""

from __future__ import annotations

import zlib

import pytest

from mqsh.store import log as logstore
from mqsh.store import log_writer


def write(directory, count, extent_bytes=1 << 20):
    writer = log_writer.LogWriter(directory, extent_bytes, 0)
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
    writer = log_writer.LogWriter(tmp_path, 1 << 20, 0)
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
    writer = log_writer.LogWriter(directory, 1 << 20, 0)
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
    writer = log_writer.LogWriter(tmp_path, 1 << 20, 0)
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
