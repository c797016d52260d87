"""What full repositories pass on: a queue's users learn the queue manager hosting it, even when the
queue reached a full repository before its host's CLUSRCVR record did."""

from __future__ import annotations

import pytest

from mqsh.model.cluster.cache import QMGR, QUEUE
from mqsh.shell.session import Session
from tests.model.cluster.conftest import START, cache, depth, listening, receiving, run


def sender(session: Session, name: str, target: str) -> None:
    run(
        session,
        f"LAB USE QMGR({name})",
        f"DEFINE CHANNEL(TO.{target}) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('{target.lower()}(1414)') TRPTYPE(TCP)",
    )


@pytest.fixture
def late_link(data_dir):
    """FR1's sender to FR2 starts before FR2 listens, and fails; PRA joins through FR1 and hosts
    ORDERS, PRB joins through FR2. PRA, having learnt of FR2 from FR1, tells FR2 of ORDERS
    directly - but its own CLUSRCVR record went to FR1 alone, and waits on FR1's failed sender."""
    session = Session(data_dir)
    run(session, f"LAB CLOCK SET('{START}')")
    listening(session, "FR1")
    receiving(session, "FR1", True)
    run(session, "crtmqm FR2")  # FR2 exists, its listener not yet started
    sender(session, "FR1", "FR2")
    listening(session, "PRA")
    receiving(session, "PRA", False)
    sender(session, "PRA", "FR1")
    run(
        session,
        "LAB USE QMGR(FR2)",
        "strmqm FR2",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
    )
    receiving(session, "FR2", True)
    sender(session, "FR2", "FR1")
    run(session, "LAB USE QMGR(PRA)", "DEFINE QLOCAL(ORDERS) CLUSTER(DEMO) DEFPSIST(YES)")
    listening(session, "PRB")
    receiving(session, "PRB", False)
    sender(session, "PRB", "FR2")
    yield session
    session.close()


def known_qmgrs(session: Session) -> set[str]:
    return {
        dict(response.attributes)["CLUSQMGR"] for response in session.execute("DISPLAY CLUSQMGR(*)").responses
    }


def test_a_queue_that_came_before_its_host_still_reaches_its_users_with_the_host(late_link):
    session = late_link
    held = {record.name for record in cache(session, "FR2").records(QMGR)}
    assert "PRA" not in held and "ORDERS" in {record.name for record in cache(session, "FR2").records()}
    run(session, "LAB USE QMGR(PRB)")
    put = session.execute("LAB PUT QUEUE(ORDERS)")
    assert not put.ok and "2085" in session.render(put)  # FR2 does not know where ORDERS is yet
    # FR1's sender retries a minute later (SHORTTMR): FR2 learns PRA, and passes it to PRB
    run(session, "LAB CLOCK ADVANCE(2M)")
    assert "PRA" in known_qmgrs(session)
    run(session, "LAB PUT QUEUE(ORDERS) COUNT(2)", "LAB CLOCK ADVANCE(1M)")
    assert depth(session, "PRA", "ORDERS") == 2


def test_a_partial_repository_holding_a_queue_without_its_host_asks_for_the_host(late_link):
    session = late_link
    run(session, "LAB CLOCK ADVANCE(2M)", "LAB USE QMGR(PRB)", "LAB PUT QUEUE(ORDERS)")
    # a cache that kept the queue and lost its host's record (as one written before the full
    # repositories sent the host along): the queue was asked for before, so only asking for the
    # host helps - the next put does
    prb = cache(session, "PRB")
    prb.drop([record.key for record in prb.records(QMGR, name="PRA")])
    assert "PRA" not in known_qmgrs(session)
    run(session, "LAB PUT QUEUE(ORDERS)", "LAB CLOCK ADVANCE(1M)")
    assert "PRA" in known_qmgrs(session)
    assert depth(session, "PRA", "ORDERS") == 2


def test_a_queue_manager_made_a_full_repository_is_sent_everything_the_other_one_holds(data_dir):
    """FR2 is the only full repository when PR5 joins through it with Q.PR5. FR1, a member until
    then, is made a full repository (ALTER QMGR REPOS): FR2 sends it every record it holds, as full
    repositories each keep the whole cluster. So a partial that joins through FR1 reaches Q.PR5, and
    so does one after FR2's REFRESH CLUSTER, which rebuilds FR2's queues from FR1."""
    session = Session(data_dir)
    run(session, f"LAB CLOCK SET('{START}')")
    listening(session, "FR2")
    receiving(session, "FR2", True)
    listening(session, "FR1")
    receiving(session, "FR1", False)
    sender(session, "FR1", "FR2")
    listening(session, "PR5")
    receiving(session, "PR5", False)
    sender(session, "PR5", "FR2")
    run(session, "DEFINE QLOCAL(Q.PR5) CLUSTER(DEMO) DEFPSIST(YES)", "LAB CLOCK ADVANCE(1M)")
    assert "Q.PR5" not in {record.name for record in cache(session, "FR1").records()}
    run(session, "LAB USE QMGR(FR1)", "ALTER QMGR REPOS(DEMO)")
    sender(session, "FR2", "FR1")
    run(session, "LAB CLOCK ADVANCE(1M)")
    assert {"PR5", "Q.PR5"} <= {record.name for record in cache(session, "FR1").records()}
    run(session, "LAB USE QMGR(FR2)", "REFRESH CLUSTER(DEMO)", "LAB CLOCK ADVANCE(1M)")
    listening(session, "PR1")
    receiving(session, "PR1", False)
    sender(session, "PR1", "FR1")
    run(
        session, "LAB CLOCK ADVANCE(1M)", "LAB USE QMGR(PR1)", "LAB PUT QUEUE(Q.PR5)", "LAB CLOCK ADVANCE(1M)"
    )
    assert depth(session, "PR5", "Q.PR5") == 1
    session.close()


def test_a_partial_repository_renews_its_interest_with_its_27_day_republish(cluster):
    """A full repository that lost PB's interest in APP.Q (built again, or restored from a backup
    older than the interest) learns it again at PB's next re-publish, and answers it with what it
    holds now: PB's copies of PA's records keep being updated and never pass their expiry."""
    session = cluster
    run(session, "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(1M)")
    pb = session.installation.clusters.manager(session.installation.connect("PB")).qmid
    for full in ("FR1", "FR2"):
        assert pb in cache(session, full).subscribers("DEMO", QUEUE, "APP.Q")
        cache(session, full).forget_interests("DEMO", pb)
    run(session, "LAB CLOCK ADVANCE(28D)")
    assert all(pb in cache(session, full).subscribers("DEMO", QUEUE, "APP.Q") for full in ("FR1", "FR2"))
    run(session, "LAB CLOCK ADVANCE(28D)")
    held = {(r.kind, r.name): r.seq for r in cache(session, "FR1").records() if r.qmname == "PA"}
    copied = {(r.kind, r.name): r.seq for r in cache(session, "PB").records() if r.qmname == "PA"}
    assert held == copied and held[("QMGR", "PA")] > 0


def test_a_full_repository_reset_just_after_its_rebuild_does_not_come_back_from_a_copy(data_dir):
    """FR1 built again (a new QMID) joins FR2, which sends it every record it holds - the old
    FR1's among them - and at once force-removes the old QMID. That copy, still on its way to the
    new FR1 as the reset is, must not bring the old QMID back: a record published before a reset
    is what the reset removed, whoever sends it later; only a publication since rejoins."""
    from tests.model.cluster.conftest import formed, sending

    session = formed(data_dir)
    run(session, "LAB CLOCK ADVANCE(21M)")
    old = cache(session, "FR2").records(QMGR, "DEMO", name="FR1")[0].qmid
    run(session, "LAB USE QMGR(FR1)", "endmqm -i FR1", "dltmqm FR1", "LAB CLOCK ADVANCE(4M)")
    listening(session, "FR1")
    receiving(session, "FR1", True)
    sending(session, "FR1")
    run(
        session,
        "LAB USE QMGR(FR2)",
        f"RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('{old}') QUEUES(YES)",
        "endmqm FR2",
        "strmqm FR2",
        "LAB CLOCK ADVANCE(21M)",
    )
    for name in ("FR1", "FR2", "PA", "PB"):
        held = {record.qmid for record in cache(session, name).records(QMGR, "DEMO", name="FR1")}
        assert old not in held, name
    session.close()
