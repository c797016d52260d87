"""The cluster family's record model on its own: sequence numbers, re-publishes, restores, rebuilds and
RESET CLUSTER, as MQ's rules have them (no shell)."""

from __future__ import annotations

from tests.stories.cluster_records import DAY, EPOCH, QMGR, QUEUE, Publication, Records


def _member(now: int = 0) -> Records:
    records = Records()
    records.create("PA", now)
    records.define("PA", QMGR, now, delivered=True)
    records.define("PA", QUEUE, now, delivered=True)
    return records


def test_a_record_starts_at_the_creation_and_each_re_publish_adds_one_every_27_days():
    records = _member()
    assert records.qmid["PA"] == "PA_2026-05-01_09.00.00"
    records.republish_until("PA", 60 * DAY, delivered=True)
    assert records.held[("PA_2026-05-01_09.00.00", QUEUE)] == Publication(EPOCH + 2, 54 * DAY)


def test_a_queue_manager_ended_when_a_re_publish_fell_due_re_publishes_when_it_starts():
    records = _member()
    records.republish_overdue("PA", 40 * DAY, delivered=True)
    assert records.held[("PA_2026-05-01_09.00.00", QMGR)] == Publication(EPOCH + 1, 40 * DAY)


def test_a_restore_after_a_refresh_the_cluster_received_leaves_the_owner_behind():
    records = _member()
    backup = records.snapshot("PA")
    records.refresh("PA", 3600, delivered=True)
    assert records.stale("PA") is False
    records.restore("PA", backup)
    assert records.stale("PA") is True
    records.refresh("PA", 7200, delivered=True)  # IBM's cure
    assert records.stale("PA") is False


def test_a_refresh_not_known_to_have_arrived_leaves_a_restore_undecided():
    records = _member()
    backup = records.snapshot("PA")
    records.refresh("PA", 3600, delivered=False)
    records.restore("PA", backup)
    assert records.stale("PA") is None


def test_a_re_publish_of_a_restored_owner_at_the_number_held_is_dropped():
    records = _member()
    backup = records.snapshot("PA")
    records.republish_until("PA", 27 * DAY, delivered=True)
    records.restore("PA", backup)
    records.republish_overdue("PA", 28 * DAY, delivered=True)  # the same number again: not above
    assert records.held[("PA_2026-05-01_09.00.00", QUEUE)].published == 27 * DAY
    assert records.stale("PA") is False  # equal, not behind


def test_records_expire_30_days_and_are_deleted_90_days_after_their_last_publication():
    records = _member()
    key = ("PA_2026-05-01_09.00.00", QUEUE)
    assert records.expired(key, 28 * DAY) is False and records.lives(key, 88 * DAY) is True
    assert records.expired(key, 32 * DAY) is True
    assert records.lives(key, 92 * DAY) is False


def test_a_rebuild_keeps_the_old_qmid_until_reset_cluster_removes_it():
    records = _member()
    records.create("PA", 600)
    records.define("PA", QMGR, 600, delivered=True)
    old = "PA_2026-05-01_09.00.00"
    assert records.old["PA"] == [old] and records.qmid["PA"] == "PA_2026-05-01_09.10.00"
    assert records.lives((old, QMGR), 600) is True
    records.reset(old, queues=False)
    assert records.lives((old, QMGR), 600) is False and records.lives((old, QUEUE), 600) is True
    records.reset(old, queues=True)
    assert records.lives((old, QUEUE), 600) is False


def test_a_full_repository_restored_makes_every_publication_on_its_way_unsure():
    records = _member()
    records.create("PB", 0)
    records.define("PB", QMGR, 0, delivered=False)
    records.unsure_of_pending()
    key = ("PB_2026-05-01_09.00.00", QMGR)
    assert records.pending == [] and records.lives(key, 0) is None
    records.settle(lambda qmgr: True)
    assert records.lives(key, 0) is None  # not promised until its owner publishes again
    records.republish_until("PB", 27 * DAY, delivered=True)
    assert records.lives(key, 27 * DAY) is True
