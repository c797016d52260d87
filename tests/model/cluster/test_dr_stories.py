"""Seed 003's stories, end to end: a queue manager restored from a backup, a DR copy with a new
QMID taking over a CLUSRCVR name, and the ways of keeping a DR test away from production."""

from __future__ import annotations

import pytest

from mqsh.model.cluster.cache import QMGR, QUEUE
from tests.model.cluster.conftest import cache, depth, error_log, run

pytestmark = pytest.mark.slow

BASE = 1777626000


def queue_record(session, qmgr, owner="PA"):
    return {(record.name, record.qmname): record for record in cache(session, qmgr).records(QUEUE)}.get(
        ("APP.Q", owner)
    )


def put_fails(session, reason):
    result = session.execute("LAB PUT QUEUE(APP.Q)")
    assert not result.ok and str(reason) in session.render(result), session.render(result)


def test_restored_queue_manager_fades_from_the_cluster_until_refresh(cluster):
    run(
        cluster,
        "LAB PUT QUEUE(APP.Q)",
        "endmqm PA",
        "LAB BACKUP QMGR(PA) TO(WEEK0)",
        "strmqm PA",
        "LAB USE QMGR(PA)",
    )
    for number in range(6):  # six updates in the week after the backup
        run(cluster, f"ALTER QLOCAL(APP.Q) DESCR('version {number}')")
    assert queue_record(cluster, "FR1").seq == BASE + 6
    # PB's channel to PA failed while PA was down: the put waits for its retry (SHORTTMR)
    run(
        cluster,
        "endmqm -i PA",
        "LAB RESTORE QMGR(PA) FROM(WEEK0)",
        "strmqm PA",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
        "LAB CLOCK ADVANCE(1M)",
    )  # all applications work, for now
    assert depth(cluster, "PA", "APP.Q") == 2  # the persistent message of before the backup, and the new one
    run(cluster, "LAB CLOCK ADVANCE(28D)", "LAB PUT QUEUE(APP.Q)")
    # day 27: the restored owner re-published with BASE + 1; the full repositories discarded it
    assert (
        cache(cluster, "PA").record(("QUEUE", "DEMO", queue_record(cluster, "PA").qmid, "APP.Q")).seq
        == BASE + 1
    )
    assert queue_record(cluster, "FR1").seq == BASE + 6
    assert "AMQ9456" not in error_log(cluster, "PB")
    run(cluster, "LAB CLOCK ADVANCE(3D)")
    log = error_log(cluster, "PB")
    assert (
        "AMQ9456W: Update not received for queue APP.Q, queue manager PA from full repository for cluster "
        "DEMO." in log
    )
    assert "due to a restore of the remote queue manager from a backup" in log
    run(cluster, "LAB PUT QUEUE(APP.Q)")  # still routed: the record is kept 60 days past its expiry
    run(cluster, "LAB CLOCK ADVANCE(60D)")
    assert error_log(cluster, "PB").count("AMQ9456W") == 60 * 24 + 1  # hourly, from expiry to deletion
    assert queue_record(cluster, "FR1").deleted and queue_record(cluster, "PB").deleted
    put_fails(cluster, 2085)  # even the full repositories say there is no such queue
    run(cluster, "LAB USE QMGR(PA)", "ALTER QLOCAL(APP.Q) DESCR('one more')", "LAB USE QMGR(PB)")
    put_fails(cluster, 2085)  # one increment is not enough: still below BASE + 6
    run(cluster, "LAB USE QMGR(PA)", "REFRESH CLUSTER(DEMO)", "LAB USE QMGR(PB)", "LAB PUT QUEUE(APP.Q)")
    assert not queue_record(cluster, "PB").deleted and queue_record(cluster, "FR1").seq > BASE + 6


def test_dr_queue_manager_with_a_new_qmid_takes_over_the_clusrcvr_name(cluster):
    run(
        cluster,
        "LAB PUT QUEUE(APP.Q)",
        "crtmqm PADR --host pa-dr",
        "strmqm PADR",
        "LAB USE QMGR(PADR)",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        # the production definitions replayed in DR: the same CLUSRCVR name, a DR CONNAME
        "DEFINE CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('pa-dr(1414)') TRPTYPE(TCP)",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('fr1(1414)') TRPTYPE(TCP)",
        "LAB USE QMGR(PB)",
    )
    owners = {
        record.qmname: record
        for record in cache(cluster, "FR1").records(QMGR)
        if record.name in ("PA", "PADR")
    }
    assert owners["PADR"].in_use and not owners["PA"].in_use  # the newer record of TO.PA is in use
    run(cluster, "LAB PUT QUEUE(APP.Q) COUNT(2)")
    assert depth(cluster, "PADR", "APP.Q") == 2 and depth(cluster, "PA", "APP.Q") == 1  # routed to DR
    text = run(cluster, "DISPLAY CLUSQMGR(*) CHANNEL(TO.PA) QMID STATUS")[0]
    assert text.count("CHANNEL(TO.PA)") == 2 and "STATUS(INACTIVE)" in text
    # the fix: end DR, re-assert production's CLUSRCVR, remove the DR QMID on the full repositories
    dr_qmid = owners["PADR"].qmid
    run(
        cluster,
        "endmqm PADR",
        "LAB USE QMGR(PA)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) DESCR('production')",
        "LAB USE QMGR(FR1)",
        f"RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('{dr_qmid}') QUEUES(YES)",
        "LAB USE QMGR(FR2)",
        f"RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('{dr_qmid}') QUEUES(YES)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
    )
    assert depth(cluster, "PA", "APP.Q") == 1  # PB's TO.PA lost DR when it ended: the put waits for its retry
    run(cluster, "LAB CLOCK ADVANCE(1M)")
    assert depth(cluster, "PA", "APP.Q") == 2
    assert all(record.qmid != dr_qmid for record in cache(cluster, "PB").records())


def test_isolation_by_network_cut_keeps_dr_updates_out_of_production(cluster):
    run(
        cluster,
        *(f"LAB SITE QMGR({name}) SITE(PROD)" for name in ("FR1", "FR2", "PA", "PB")),
        "crtmqm PADR --host pa-dr",
        "LAB SITE HOST(pa-dr) SITE(DR)",
        "LAB NETWORK CUT SITES(PROD,DR)",
        "strmqm PADR",
        "LAB USE QMGR(PADR)",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        "DEFINE CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('pa-dr(1414)') TRPTYPE(TCP)",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('fr1(1414)') TRPTYPE(TCP)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
    )
    assert depth(cluster, "PA", "APP.Q") == 1
    assert all(record.qmname != "PADR" for record in cache(cluster, "FR1").records())
    assert depth(cluster, "PADR", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") >= 1  # its updates wait in DR


def test_isolation_by_strmqm_ns_starts_no_channel(cluster):
    run(
        cluster,
        "crtmqm PADR --host pa-dr",
        "strmqm -ns PADR",
        "LAB USE QMGR(PADR)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        "DEFINE CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('pa-dr(1414)') TRPTYPE(TCP)",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('fr1(1414)') TRPTYPE(TCP)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
    )
    assert depth(cluster, "PA", "APP.Q") == 1
    assert all(record.qmname != "PADR" for record in cache(cluster, "FR1").records())


def test_isolation_by_ending_production_for_the_dr_test(cluster):
    # Production ends for the test; DR, restored from production's backup, refreshes and changes
    # what it likes - the production full repositories are down, so DR's channels only retry.
    run(
        cluster,
        "LAB PUT QUEUE(APP.Q)",
        "endmqm PA",
        "LAB BACKUP QMGR(PA) TO(FORDR)",
        "strmqm PA",
        *(f"endmqm {name}" for name in ("PB", "PA", "FR2", "FR1")),
        "LAB RESTORE QMGR(PA) FROM(FORDR) AS(PA.DR) HOST(pa-dr)",
        "strmqm PA.DR",
        "LAB USE QMGR(PA.DR)",
        "LAB CLOCK ADVANCE(1H)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CONNAME('pa-dr(1414)')",
        "REFRESH CLUSTER(DEMO)",
        "ALTER QLOCAL(APP.Q) DESCR('changed in DR')",
        "LAB CLOCK ADVANCE(1H)",
    )
    assert "STATUS(RETRYING)" in run(cluster, "DISPLAY CHSTATUS(TO.FR1) STATUS")[0]
    assert depth(cluster, "PA.DR", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") >= 1  # DR's updates, undelivered
    # After the test DR ends first, then production starts again: nothing of DR's reached it.
    run(
        cluster,
        "endmqm PA.DR",
        *(f"strmqm {name}" for name in ("FR1", "FR2", "PA", "PB")),
        "LAB CLOCK ADVANCE(1H)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
        "LAB CLOCK ADVANCE(1M)",
    )
    record = {r.name: r for r in cache(cluster, "FR1").records(QMGR)}["PA"]
    assert record.seq == BASE and record.attrs["CONNAME"] == "pa(1414)"
    assert queue_record(cluster, "FR1").attrs.get("DESCR") != "changed in DR"
    assert depth(cluster, "PA", "APP.Q") == 2


def test_isolation_by_different_names_keeps_production_records_apart(cluster):
    # DR's queue manager, channel and queue names carry DR: its records are its own, and
    # production's - and production's messages - are untouched.
    run(
        cluster,
        "crtmqm PADR --host pa-dr",
        "strmqm PADR",
        "LAB USE QMGR(PADR)",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
        "DEFINE QLOCAL(APP.DR.Q) CLUSTER(DEMO)",
        "DEFINE CHANNEL(TO.PADR) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('pa-dr(1414)') TRPTYPE(TCP)",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('fr1(1414)') TRPTYPE(TCP)",
        "REFRESH CLUSTER(DEMO)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q) COUNT(4)",
    )
    owners = {(r.name, r.qmname): r for r in cache(cluster, "FR1").records(QMGR)}
    assert owners[("PA", "PA")].seq == BASE and owners[("PA", "PA")].in_use and ("PADR", "PADR") in owners
    assert depth(cluster, "PA", "APP.Q") == 4 and depth(cluster, "PADR", "APP.DR.Q") == 0
    # a DR copy with the same queue names: a DR instance of APP.Q takes production's messages -
    # here the next four, as the instance that has been sent the fewest
    run(
        cluster,
        "LAB USE QMGR(PADR)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q) COUNT(4)",
    )
    assert depth(cluster, "PADR", "APP.Q") == 4 and depth(cluster, "PA", "APP.Q") == 4


def test_dr_copy_with_the_same_qmid_overrides_production_until_production_refreshes(cluster):
    run(
        cluster,
        "LAB PUT QUEUE(APP.Q)",
        "endmqm PA",
        "LAB BACKUP QMGR(PA) TO(DRCOPY)",
        "strmqm PA",
        "LAB RESTORE QMGR(PA) FROM(DRCOPY) AS(PA.DR) HOST(pa-dr)",
        "strmqm PA.DR",
        "LAB USE QMGR(PA.DR)",
    )
    assert "QMID(PA_2026-05-01_09.00.00)" in run(cluster, "DISPLAY QMGR QMID")[0]
    # the DR test: its CLUSRCVR pointed at the DR host, and a REFRESH CLUSTER "to be safe"
    run(
        cluster,
        "LAB CLOCK ADVANCE(1H)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CONNAME('pa-dr(1414)')",
        "REFRESH CLUSTER(DEMO)",
        "LAB USE QMGR(PB)",
    )
    dr_refresh = BASE + 3600
    record = {r.name: r for r in cache(cluster, "FR1").records(QMGR)}["PA"]
    assert record.seq == dr_refresh and record.attrs["CONNAME"] == "pa-dr(1414)"
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    assert (
        depth(cluster, "PA.DR", "APP.Q") == 2 and depth(cluster, "PA", "APP.Q") == 1
    )  # production's messages in DR
    run(cluster, "LAB USE QMGR(PA)", "ALTER QLOCAL(APP.Q) DESCR('production change')")
    assert queue_record(cluster, "FR1").attrs.get("DESCR") != "production change"  # ignored: an "old" update
    # the fix: end the DR copy, then REFRESH CLUSTER on production
    run(
        cluster,
        "endmqm PA.DR",
        "LAB CLOCK ADVANCE(1H)",
        "REFRESH CLUSTER(DEMO)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
    )
    assert queue_record(cluster, "FR1").attrs.get("DESCR") == "production change"
    # PB's TO.PA, failing at DR for the hour, made its nine short retries a minute apart, then two
    # long ones 20 minutes apart (LONGTMR): the put goes to production at the next long retry
    shown = run(cluster, "DISPLAY CHSTATUS(TO.PA) STATUS SHORTRTS LONGRTS")[0]
    assert "STATUS(RETRYING)" in shown and "SHORTRTS(0)" in shown and "LONGRTS(999999997)" in shown, shown
    assert depth(cluster, "PA", "APP.Q") == 1
    run(cluster, "LAB CLOCK ADVANCE(20M)")
    assert depth(cluster, "PA", "APP.Q") == 2


def test_isolation_by_chlauth_production_refuses_the_dr_addresses(cluster):
    # The first commenter's scheme: production admits production's addresses only. Production
    # has its addresses before the rules come: a member refused meanwhile would wait for its retry.
    run(
        cluster,
        "LAB SITE QMGR(PA) SITE(PROD) ADDRESS(10.1.0.10)",
        "LAB SITE QMGR(PB) SITE(PROD) ADDRESS(10.1.0.11)",
        *(f"LAB SITE QMGR({name}) SITE(PROD) ADDRESS(10.1.0.{name[-1]})" for name in ("FR1", "FR2")),
    )
    for name in ("FR1", "FR2"):
        run(
            cluster,
            f"LAB USE QMGR({name})",
            "SET CHLAUTH('TO.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('nobody by default')",
            "SET CHLAUTH('TO.*') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(CHANNEL) DESCR('production')",
        )
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "ALTER QLOCAL(APP.Q) DESCR('still admitted')",
        "crtmqm PADR --host pa-dr",
        "LAB SITE HOST(pa-dr) SITE(DR) ADDRESS(10.2.0.7)",
        "strmqm PADR",
        "LAB USE QMGR(PADR)",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        "DEFINE CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('pa-dr(1414)') TRPTYPE(TCP)",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('fr1(1414)') TRPTYPE(TCP)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q)",
    )
    assert queue_record(cluster, "FR1").attrs["DESCR"] == "still admitted"
    assert all(record.qmname != "PADR" for record in cache(cluster, "FR1").records())
    assert depth(cluster, "PA", "APP.Q") == 1
    assert "AMQ9777E" in error_log(cluster, "FR1")  # the DR channel was blocked, and said so
