"""The checks of LAB EXPLAIN CLUSTER a cluster story makes, on answers of the shell's own making:
each agrees with what the model says and fails where a record, a number or the sum is wrong."""

from __future__ import annotations

from tests.stories.cluster_explained import refresh_explained, reset_explained, restore_explained

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


RESET_OF_AN_OLD_QMID = """Last RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('PA_2026-05-01_09.00.00') QUEUES(YES) on queue manager 'FR1', a full repository, at 2026-05-01 09:07:00.
It removed queue manager PA (QMID PA_2026-05-01_09.00.00) from its repository (2 records) and told every member it knows to do the same; updates from it are ignored for 10 seconds.
Queue manager PA is in the cluster again with a new QMID, PA_2026-05-01_09.05.00: the reset removed the records of QMID PA_2026-05-01_09.00.00 only; the new one's stay.
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(FR1)                           CLUSTER(DEMO)
   QMID(FR1_2026-05-01_09.00.00)           QMTYPE(REPOS)
   FATE(OWN)                               SEQBEFORE(1777626001)
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(PA)                            CLUSTER(DEMO)
   QMID(PA_2026-05-01_09.00.00)            QMTYPE(NORMAL)
   FATE(REMOVED)                           SEQBEFORE(1777626000)
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(PA)                            CLUSTER(DEMO)
   QMID(PA_2026-05-01_09.05.00)            QMTYPE(NORMAL)
   FATE(KEPT)                              SEQBEFORE(1777626300)
AMQ8409I: Display Queue details.
   QUEUE(APP.Q)                            CLUSQMGR(PA)
   CLUSTER(DEMO)                           QMID(PA_2026-05-01_09.00.00)
   FATE(REMOVED)                           SEQBEFORE(1777626000)
Cluster DEMO in the repository of 'FR1': 4 before - 2 removed = 2 now."""
OLD, NEW = "PA_2026-05-01_09.00.00", "PA_2026-05-01_09.05.00"


def test_a_reset_explained_removes_the_old_qmids_records_and_no_other():
    assert reset_explained(OLD, True, {"qmgr", "queue"}, NEW)(RESET_OF_AN_OLD_QMID) is None
    assert reset_explained(OLD, True, set(), None)(RESET_OF_AN_OLD_QMID) is None
    kept_queue = "expected the old QMID's queue record KEPT"
    assert kept_queue in (reset_explained(OLD, False, set(), None)(RESET_OF_AN_OLD_QMID) or "")
    other = RESET_OF_AN_OLD_QMID.replace("FATE(KEPT)", "FATE(REMOVED)")
    assert "only PA_2026-05-01_09.00.00's may be" in (reset_explained(OLD, True, set(), None)(other) or "")
    no_rejoin = RESET_OF_AN_OLD_QMID.replace("with a new QMID", "with another QMID")
    assert "rejoin" in (reset_explained(OLD, True, set(), NEW)(no_rejoin) or "")
    assert "does not add up" in (
        reset_explained(OLD, True, set(), None)(RESET_OF_AN_OLD_QMID.replace("= 2 now", "= 3 now")) or ""
    )


RESTORE_OF_PA = """Last change to cluster DEMO in the repository of queue manager 'PA', a partial repository: restored from backup B2 (taken at 2026-05-01 09:01:00) at 2026-05-03 09:01:00.
AMQ8441I: Display Cluster Queue Manager details.
   CLUSQMGR(PA)                            CLUSTER(DEMO)
   QMID(PA_2026-05-01_09.00.00)            QMTYPE(NORMAL)
   FATE(OWN)                               SEQBEFORE(1777626000)
   DAYSBEFORE(29)                          SEQNOW(1777626001)
AMQ8409I: Display Queue details.
   QUEUE(APP.Q)                            CLUSQMGR(PA)
   CLUSTER(DEMO)                           QMID(PA_2026-05-01_09.00.00)
   FATE(OWN)                               SEQBEFORE(1777626000)
   DAYSBEFORE(29)                          SEQNOW(1777626000)
Cluster DEMO in the repository of 'PA': 2 before = 2 now."""


def test_a_restore_explained_has_its_own_records_numbered_as_the_model_says():
    own = {"qmgr": 1777626001, "queue": 1777626000}
    assert restore_explained("B2", OLD, own)(RESTORE_OF_PA) is None
    assert "numbered" in (restore_explained("B2", OLD, {**own, "queue": 1777626001})(RESTORE_OF_PA) or "")
    assert "its own records" in (restore_explained("B2", OLD, {"qmgr": 1777626001})(RESTORE_OF_PA) or "")
    assert "expected the restore explained" in (restore_explained("B1", OLD, own)(RESTORE_OF_PA) or "")
