"""The buffer pool of a member's shared message data sets: LRU reuse, its counters, the storage it takes."""

from __future__ import annotations

from mqsh.model.qsg.buffers import MB, BufferPool, memlimit_file, set_storage_limit, storage_limit


def test_reads_of_saved_blocks_are_hits_and_the_oldest_are_reused_first():
    pool = BufferPool(3)
    pool.wrote("QM1", "E1", 0, 2)
    pool.wrote("QM1", "E2", 2, 2)  # E1's block 0 is reused
    assert pool.read("QM1", "E1", 0, 2) == [0]
    assert (pool.hits, pool.misses, pool.hit_percent(), len(pool.saved)) == (1, 1, 50, 3)
    assert pool.lowest_free == 1 and pool.waits == 0


def test_a_block_reused_for_another_message_is_not_a_hit():
    pool = BufferPool(5)
    pool.wrote("QM1", "E1", 0, 1)
    assert pool.read("QM1", "E9", 0, 1) == [0]


def test_a_message_larger_than_the_pool_waits_and_shrinking_drops_saved_data():
    pool = BufferPool(2)
    pool.wrote("QM1", "E1", 0, 3)
    assert (pool.lowest_free, pool.waits) == (-1, 1)
    pool.resize(1)
    assert len(pool.saved) == 1
    pool.forget("QM1")
    assert not pool.saved


def test_the_storage_limit_is_kept_in_megabytes_and_an_unreadable_one_sets_none(tmp_path):
    assert storage_limit(tmp_path) is None
    set_storage_limit(tmp_path, 64)
    assert storage_limit(tmp_path) == 64 * MB
    set_storage_limit(tmp_path, None)
    assert storage_limit(tmp_path) is None
    memlimit_file(tmp_path).write_bytes(b"\x00garbage")
    assert storage_limit(tmp_path) is None


def test_a_pool_holds_its_buffers_times_the_block_size():
    assert BufferPool(100, 256 * 1024).bytes == 25 * 1024 * 1024
