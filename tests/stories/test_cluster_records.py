"""The cluster family's record model on its own: sequence numbers, re-publishes, restores, rebuilds and
RESET CLUSTER, as MQ's rules have them (no shell)."""

from __future__ import annotations

from tests.stories.cluster_operations import refresh_explained
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


LAB_41_REFRESH = """Last REFRESH CLUSTER(DEMO) REPOS(NO) on queue manager 'PA', a partial repository, at 2026-07-31 09:01:00.
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(FR1)                           CLUSTER(DEMO)
   QMID(FR1_2026-05-01_09.00.00)           QMTYPE(REPOS)
   FATE(KEPT)                              SEQBEFORE(1777626003)
   DAYSBEFORE(19)                          SEQNOW(1777626003)
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(PA)                            CLUSTER(DEMO)
   QMID(PA_2026-05-01_09.00.00)            QMTYPE(NORMAL)
   FATE(OWN)                               SEQBEFORE(1777626003)
   DAYSBEFORE(19)                          SEQNOW(1785488460)
Cluster DEMO in the repository of 'PA': 5 before - 2 removed + 2 learned since - 1 gone since = 4 now."""


def test_a_refresh_explained_has_its_own_records_renumbered_and_a_sum_that_adds_up():
    check = refresh_explained("PA_2026-05-01_09.00.00", 1785488460)
    assert check(LAB_41_REFRESH) is None
    assert "renumbered" in (refresh_explained("PA_2026-05-01_09.00.00", 1785488461)(LAB_41_REFRESH) or "")
    assert "renumbered" in (refresh_explained("PA_2026-06-01_09.00.00", 1785488460)(LAB_41_REFRESH) or "")
    assert "does not add up" in (check(LAB_41_REFRESH.replace("= 4 now", "= 5 now")) or "")
    assert "expected the refresh explained" in (check("No REFRESH CLUSTER ... is recorded") or "")
