"""The cluster workload algorithm: which instance of a cluster queue a put goes to."""

from __future__ import annotations

from mqsh.shell.session import Session
from tests.model.cluster.conftest import START, cache, depth, listening, member, receiving, run, sending


def second_instance(cluster, host: str = "FR2", **queue) -> None:
    """APP.Q on host as well as on PA."""
    extra = " ".join(f"{key}({value})" for key, value in queue.items())
    run(
        cluster,
        f"LAB USE QMGR({host})",
        f"DEFINE QLOCAL(APP.Q) CLUSTER(DEMO) DEFPSIST(YES) MAXDEPTH(100000) {extra}",
        "LAB USE QMGR(PB)",
    )


def test_equal_instances_share_the_puts_in_turn(cluster):
    second_instance(cluster)
    run(cluster, "LAB PUT QUEUE(APP.Q) COUNT(10) PERSISTENT")
    assert (depth(cluster, "PA", "APP.Q"), depth(cluster, "FR2", "APP.Q")) == (5, 5)


def test_channel_weights_share_the_puts_in_proportion(cluster):
    second_instance(cluster)
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLWLWGHT(75)",
        "LAB USE QMGR(FR2)",
        "ALTER CHANNEL(TO.FR2) CHLTYPE(CLUSRCVR) CLWLWGHT(25)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q) COUNT(100) PERSISTENT",
    )
    assert (depth(cluster, "PA", "APP.Q"), depth(cluster, "FR2", "APP.Q")) == (75, 25)


def test_channel_rank_comes_before_queue_priority(cluster):
    second_instance(cluster, CLWLPRTY=9)
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLWLRANK(5)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q) COUNT(6) PERSISTENT",
    )
    assert (depth(cluster, "PA", "APP.Q"), depth(cluster, "FR2", "APP.Q")) == (6, 0)
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "ALTER CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLWLRANK(0)",
        "LAB USE QMGR(PB)",
        "LAB PUT QUEUE(APP.Q) COUNT(6) PERSISTENT",
    )
    assert (depth(cluster, "PA", "APP.Q"), depth(cluster, "FR2", "APP.Q")) == (6, 6)  # then CLWLPRTY(9) wins


def test_a_retrying_channel_loses_the_puts_to_an_instance_it_can_reach(cluster):
    second_instance(cluster)
    run(
        cluster,
        "LAB SITE QMGR(PA) SITE(DR)",
        "LAB NETWORK CUT SITES(MAIN,DR)",
        "LAB PUT QUEUE(APP.Q) COUNT(2) PERSISTENT",
    )  # one each: no channel has been tried yet
    shown = run(cluster, "DISPLAY CHSTATUS(TO.PA) STATUS")[0]
    assert "STATUS(RETRYING)" in shown
    # PA's channel could not start (its status is known after the command): the rest go where one can.
    run(cluster, "LAB PUT QUEUE(APP.Q) COUNT(8) PERSISTENT")
    assert depth(cluster, "FR2", "APP.Q") == 9
    assert depth(cluster, "PB", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 1
    run(cluster, "LAB NETWORK JOIN SITES(MAIN,DR)")
    assert depth(cluster, "PA", "APP.Q") == 0  # until the channel's retry falls due
    run(cluster, "LAB CLOCK ADVANCE(1M)")
    assert depth(cluster, "PA", "APP.Q") == 1


def test_a_local_instance_takes_its_own_puts_unless_its_cluster_use_is_any(cluster):
    second_instance(cluster, host="PB")
    run(cluster, "LAB PUT QUEUE(APP.Q) COUNT(4) PERSISTENT")
    assert (depth(cluster, "PB", "APP.Q"), depth(cluster, "PA", "APP.Q")) == (4, 0)
    run(cluster, "ALTER QLOCAL(APP.Q) CLWLUSEQ(ANY)", "LAB PUT QUEUE(APP.Q) COUNT(4) PERSISTENT")
    assert (depth(cluster, "PB", "APP.Q"), depth(cluster, "PA", "APP.Q")) == (6, 2)
    run(
        cluster,
        "ALTER QLOCAL(APP.Q) CLWLUSEQ(QMGR)",
        "ALTER QMGR CLWLUSEQ(ANY)",
        "LAB PUT QUEUE(APP.Q) COUNT(2) PERSISTENT",
    )
    assert (depth(cluster, "PB", "APP.Q"), depth(cluster, "PA", "APP.Q")) == (7, 3)


def test_an_open_handle_keeps_to_its_instance_and_gets_2041_once_its_queue_manager_record_went(cluster):
    second_instance(cluster)
    run(cluster, "LAB OPEN QUEUE(APP.Q)", "LAB PUT QUEUE(APP.Q) COUNT(4) PERSISTENT")
    bound_to = "FR2" if depth(cluster, "FR2", "APP.Q") == 4 else "PA"
    assert depth(cluster, bound_to, "APP.Q") == 4  # DEFBIND(OPEN): every put through the handle goes there
    # The bound queue manager leaves the cluster: its record is removed from PB's cache.
    run(
        cluster,
        "LAB USE QMGR(FR1)",
        f"RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME({bound_to}) QUEUES(YES)",
        "LAB USE QMGR(PB)",
    )
    failed = cluster.execute("LAB PUT QUEUE(APP.Q) COUNT(1) PERSISTENT")
    assert (
        not failed.ok and "2041" in cluster.render(failed) and "MQRC_OBJECT_CHANGED" in cluster.render(failed)
    )
    # Opened again, the queue resolves to the instance that is left.
    run(
        cluster, "LAB CLOSE QUEUE(APP.Q)", "LAB OPEN QUEUE(APP.Q)", "LAB PUT QUEUE(APP.Q) COUNT(1) PERSISTENT"
    )
    other = "PA" if bound_to == "FR2" else "FR2"
    assert depth(cluster, other, "APP.Q") == 1


def test_a_notfixed_queue_chooses_at_every_put_through_an_open_handle(cluster):
    second_instance(cluster, DEFBIND="NOTFIXED")
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "ALTER QLOCAL(APP.Q) DEFBIND(NOTFIXED)",
        "LAB USE QMGR(PB)",
        "LAB OPEN QUEUE(APP.Q)",
        "LAB PUT QUEUE(APP.Q) COUNT(4) PERSISTENT",
    )
    assert (depth(cluster, "PA", "APP.Q"), depth(cluster, "FR2", "APP.Q")) == (2, 2)


def test_a_remote_queue_definition_reaches_a_queue_manager_of_the_cluster_through_it(cluster):
    # A queue PA does not advertise (a reply queue, say), reached by naming PA: no transmission
    # queue of PA's name on PB, so the cluster carries it.
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "DEFINE QLOCAL(PA.REPLIES)",
        "LAB USE QMGR(PB)",
        "DEFINE QREMOTE(TO.PA.REPLIES) RNAME(PA.REPLIES) RQMNAME(PA)",
        "LAB PUT QUEUE(TO.PA.REPLIES) COUNT(3) PERSISTENT",
    )
    assert depth(cluster, "PA", "PA.REPLIES") == 3
    run(cluster, "DEFINE QREMOTE(TO.NOWHERE) RNAME(Q) RQMNAME(NOSUCHQM)")
    failed = cluster.execute("LAB PUT QUEUE(TO.NOWHERE) COUNT(1)")
    assert not failed.ok and "2087" in cluster.render(failed)


def test_a_gateway_passes_a_message_for_a_cluster_queue_manager_on_into_the_cluster(cluster):
    # OUT is in no cluster: its sender channel reaches FR1, which carries the message on to PA.
    run(
        cluster,
        "crtmqm OUT",
        "strmqm OUT",
        "LAB USE QMGR(FR1)",
        "DEFINE CHANNEL(OUT.TO.FR1) CHLTYPE(RCVR) TRPTYPE(TCP)",
        "LAB USE QMGR(PA)",
        "DEFINE QLOCAL(PA.REQUESTS)",
        "LAB USE QMGR(OUT)",
        "DEFINE QLOCAL(FR1.XMIT) USAGE(XMITQ)",
        "DEFINE CHANNEL(OUT.TO.FR1) CHLTYPE(SDR) CONNAME('fr1(1414)') XMITQ(FR1.XMIT) TRPTYPE(TCP)",
        "DEFINE QREMOTE(PA.REQUESTS) RNAME(PA.REQUESTS) RQMNAME(PA) XMITQ(FR1.XMIT)",
        "START CHANNEL(OUT.TO.FR1)",
        "LAB PUT QUEUE(PA.REQUESTS) COUNT(2) PERSISTENT",
    )
    assert depth(cluster, "PA", "PA.REQUESTS") == 2
    assert not (cluster.installation.paths("OUT").qmgr_dir / "clusters.db").exists()  # OUT never joined


def test_a_queue_manager_in_no_cluster_keeps_its_2087_and_makes_no_cluster_cache(data_dir):
    from mqsh.shell.session import Session

    session = Session(data_dir)
    run(
        session,
        "crtmqm SOLO",
        "strmqm SOLO",
        "LAB USE QMGR(SOLO)",
        "DEFINE QREMOTE(ELSEWHERE) RNAME(Q) RQMNAME(OTHER)",
        "DEFINE QLOCAL(LOCAL.C) CLUSTER(NONE) CLWLUSEQ(ANY)",
    )
    failed = session.execute("LAB PUT QUEUE(ELSEWHERE) COUNT(1)")
    assert not failed.ok and "2087" in session.render(failed)
    run(session, "LAB PUT QUEUE(LOCAL.C) COUNT(1)")
    assert depth(session, "SOLO", "LOCAL.C") == 1
    assert not (session.installation.paths("SOLO").qmgr_dir / "clusters.db").exists()
    session.close()


def test_a_put_that_found_no_full_repository_to_ask_asks_again_once_there_is_one(data_dir):
    """PB is in the cluster (its CLUSRCVR) before it knows a full repository: its first put has no one
    to ask and fails. Once its CLUSSDR reaches FR1, a put asks again and reaches the queue."""
    session = Session(data_dir)
    run(session, f"LAB CLOCK SET('{START}')")
    for name, full in (("FR1", True), ("PA", False)):
        listening(session, name)
        receiving(session, name, full)
        sending(session, name)
    run(session, "LAB USE QMGR(PA)", "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO) MAXDEPTH(100)")
    listening(session, "PB")
    receiving(session, "PB", False)
    first = session.execute("LAB PUT QUEUE(APP.Q)")
    assert not first.ok and "2189" in session.render(first)  # MQRC_CLUSTER_RESOLUTION_ERROR: asked, no answer
    sending(session, "PB")
    run(session, "LAB CLOCK ADVANCE(2M)", "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(1M)")
    assert depth(session, "PA", "APP.Q") == 1
    session.close()


def _copies(session, qmgr: str) -> dict:
    """What the queue manager holds of PA's records: (kind, name) -> (sequence number, expiry)."""
    return {
        (record.kind, record.name): (record.seq, record.expiry)
        for record in cache(session, qmgr).records()
        if record.qmname == "PA" and not record.deleted
    }


def test_a_first_put_subscribes_even_to_a_queue_its_cache_got_unasked(cluster):
    """PB uses APP.Q and is built again (same name and CONNAME, a new QMID). PA's re-publish 27
    days on goes to the subscriber the full repository knows - PB's old QMID - and reaches the new
    PB, which never asked. Once RESET CLUSTER removes the old QMID, nothing updates that copy: PB's
    first put must ask the full repositories as any first use does, or it uses PA's records past
    their expiry while the full repositories hold newer ones."""
    session = cluster
    run(session, "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(1M)")
    old_qmid = session.installation.clusters.manager(session.installation.connect("PB")).qmid
    run(session, "endmqm -i PB", "dltmqm PB")
    member(session, "PB", False)
    run(session, "LAB CLOCK ADVANCE(28D)")
    assert ("QUEUE", "APP.Q") in _copies(session, "PB")  # got unasked
    run(
        session,
        "LAB USE QMGR(FR1)",
        f"RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('{old_qmid}') QUEUES(YES)",
        "LAB CLOCK ADVANCE(27D)",
    )
    assert _copies(session, "PB") != _copies(session, "FR1")  # PA's last re-publish passed PB by
    run(session, "LAB USE QMGR(PB)", "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(1M)")
    assert _copies(session, "PB") == _copies(session, "FR1")
    assert depth(session, "PA", "APP.Q") == 2
