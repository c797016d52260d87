"""Full and partial repositories: what each learns, sequence numbers, routing, REFRESH, RESET,
SUSPEND, and the reason codes of a put that cannot be resolved."""

from __future__ import annotations

from mqsh.model.cluster.cache import QMGR, QUEUE
from tests.model.cluster.conftest import cache, depth, error_log, member, run

BASE = 1777626000  # epoch seconds of 2026-05-01 09:00:00, when the queue managers were created


def records(session, qmgr, kind):
    return {(record.name, record.qmid.split("_")[0]): record for record in cache(session, qmgr).records(kind)}


def test_full_repositories_know_every_member_and_partials_what_they_use(cluster):
    for full in ("FR1", "FR2"):
        assert set(records(cluster, full, QMGR)) == {
            ("FR1", "FR1"),
            ("FR2", "FR2"),
            ("PA", "PA"),
            ("PB", "PB"),
        }
        assert set(records(cluster, full, QUEUE)) == {("APP.Q", "PA")}
    assert ("APP.Q", "PA") not in records(cluster, "PB", QUEUE)  # not asked for yet
    run(cluster, "LAB PUT QUEUE(APP.Q) COUNT(3)")
    assert ("APP.Q", "PA") in records(cluster, "PB", QUEUE)
    assert depth(cluster, "PA", "APP.Q") == 3
    assert "AMQ9410I: The repository manager started successfully." in error_log(cluster, "PB")


def test_display_clusqmgr_shows_how_each_channel_came_to_be(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    text = run(cluster, "DISPLAY CLUSQMGR(*) DEFTYPE QMTYPE")[0]
    assert "CLUSQMGR(FR1)                           CHANNEL(TO.FR1)" in text
    blocks = {
        block.split()[0]: block
        for block in text.split("AMQ8441I: Display Cluster Queue Manager details.")[1:]
    }
    assert "DEFTYPE(CLUSSDRB)" in blocks["CLUSQMGR(FR1)"] and "QMTYPE(REPOS)" in blocks["CLUSQMGR(FR1)"]
    assert "DEFTYPE(CLUSSDRA)" in blocks["CLUSQMGR(PA)"] and "QMTYPE(NORMAL)" in blocks["CLUSQMGR(PA)"]
    assert "DEFTYPE(CLUSRCVR)" in blocks["CLUSQMGR(PB)"]
    one = run(cluster, "DISPLAY CLUSQMGR(PA)")[0].splitlines()
    assert (
        one[1].split()[0] == "CLUSQMGR(PA)" and one[1].split()[1] == "ALTDATE(2026-05-01)"
    )  # then alphabetical
    assert "QMID(PA_2026-05-01_09.00.00)" in "\n".join(one)
    assert "XMITQ(SYSTEM.CLUSTER.TRANSMIT.QUEUE)" in "\n".join(one)
    assert "AMQ8147E" in cluster.render(cluster.execute("DISPLAY CLUSQMGR(NOSUCH)"))


def test_display_qcluster_lists_the_instances_known(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    text = run(cluster, "DISPLAY QCLUSTER(APP.Q) CLUSQMGR QMID")[0]
    assert "QUEUE(APP.Q)" in text and "CLUSQMGR(PA)" in text and "QMID(PA_2026-05-01_09.00.00)" in text
    assert run(cluster, "DISPLAY QUEUE(APP.*) TYPE(QCLUSTER)")[0].count("AMQ8409I") == 1


def test_sequence_numbers_start_at_creation_and_every_alter_adds_one(cluster):
    assert records(cluster, "FR1", QUEUE)[("APP.Q", "PA")].seq == BASE
    run(cluster, "LAB USE QMGR(PA)", "ALTER QLOCAL(APP.Q) DESCR('changed')", "ALTER QLOCAL(APP.Q) DESCR(' ')")
    for full in ("FR1", "FR2"):
        assert records(cluster, full, QUEUE)[("APP.Q", "PA")].seq == BASE + 2


def test_owner_republishes_every_27_days_and_nothing_is_warned(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(100D)", "LAB PUT QUEUE(APP.Q)")
    record = records(cluster, "PB", QUEUE)[("APP.Q", "PA")]
    assert record.seq == BASE + 3  # days 27, 54 and 81
    assert record.expiry == "2026-08-20 09:00:00"  # 30 days after the day-81 re-publish
    assert "AMQ9456" not in error_log(cluster, "PB")
    assert depth(cluster, "PA", "APP.Q") == 2


def test_unknown_queue_is_2085_and_unreachable_repositories_2189(cluster):
    result = cluster.execute("LAB PUT QUEUE(NO.SUCH.Q)")
    assert not result.ok and "2085" in cluster.render(result)
    member(cluster, "PC", False)
    run(
        cluster,
        "LAB SITE QMGR(PC) SITE(DR)",
        "LAB SITE QMGR(FR1) SITE(PROD)",
        "LAB SITE QMGR(FR2) SITE(PROD)",
        "LAB NETWORK CUT SITES(PROD,DR)",
        "LAB USE QMGR(PC)",
    )
    result = cluster.execute("LAB PUT QUEUE(APP.Q)")
    assert not result.ok and "2189" in cluster.render(result)


def test_deleted_queue_disappears_from_the_cluster(cluster):
    run(
        cluster,
        "LAB PUT QUEUE(APP.Q)",
        "LAB USE QMGR(PA)",
        "LAB GET QUEUE(APP.Q)",
        "DELETE QLOCAL(APP.Q)",
        "LAB USE QMGR(PB)",
    )
    result = cluster.execute("LAB PUT QUEUE(APP.Q)")
    assert not result.ok and "2085" in cluster.render(result)


def test_refresh_repos_yes_is_refused_on_a_full_repository(cluster):
    run(cluster, "LAB USE QMGR(FR1)")
    result = cluster.execute("REFRESH CLUSTER(DEMO) REPOS(YES)")
    assert not result.ok and "AMQ9406E" in cluster.render(result)
    assert "AMQ9406E" in error_log(cluster, "FR1")


def test_refresh_gives_new_sequence_numbers_and_rebuilds_what_it_dropped(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(2D)", "REFRESH CLUSTER(DEMO)")
    refreshed = BASE + 2 * 86400
    assert records(cluster, "FR1", QMGR)[("PB", "PB")].seq == refreshed
    assert ("APP.Q", "PA") in records(cluster, "PB", QUEUE)  # asked for again: it was used
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    assert depth(cluster, "PA", "APP.Q") == 2


def test_a_second_refresh_in_the_same_second_still_numbers_above_what_was_used(cluster):
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "LAB CLOCK ADVANCE(1M)",
        "REFRESH CLUSTER(DEMO)",
        "ALTER QLOCAL(APP.Q) DESCR('one')",
        "ALTER QLOCAL(APP.Q) DESCR('two')",
        "REFRESH CLUSTER(DEMO)",
        "ALTER QLOCAL(APP.Q) DESCR('three')",
    )
    held = records(cluster, "FR1", QUEUE)[("APP.Q", "PA")]
    assert (
        held.attrs.get("DESCR") == "three" and held.seq == BASE + 60 + 4
    )  # the clock stood still throughout


def test_refresh_repos_yes_on_a_partial_learns_the_full_repositories_again(cluster):
    before = {name: record.attrs.get("QMTYPE") for (name, _), record in records(cluster, "PB", QMGR).items()}
    assert before["FR1"] == before["FR2"] == "REPOS"
    run(cluster, "LAB CLOCK ADVANCE(1M)", "REFRESH CLUSTER(DEMO) REPOS(YES)", "LAB CLOCK ADVANCE(10M)")
    # found again through PB's manual CLUSSDR to FR1, which answers with both full repositories
    shown = cluster.execute("DISPLAY CLUSQMGR(FR*) DEFTYPE QMTYPE").responses
    assert sorted(
        (dict(r.attributes)["CLUSQMGR"], dict(r.attributes)["DEFTYPE"], dict(r.attributes)["QMTYPE"])
        for r in shown
    ) == [("FR1", "CLUSSDRB", "REPOS"), ("FR2", "CLUSSDRA", "REPOS")]
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    assert depth(cluster, "PA", "APP.Q") == 1


def test_suspend_and_resume_reach_the_members(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)", "LAB USE QMGR(PA)", "SUSPEND QMGR CLUSTER(DEMO)", "LAB USE QMGR(PB)")
    assert "SUSPEND(YES)" in run(cluster, "DISPLAY CLUSQMGR(PA) SUSPEND")[0]
    run(cluster, "LAB USE QMGR(PA)", "RESUME QMGR CLUSTER(DEMO)", "LAB USE QMGR(PB)")
    assert "SUSPEND(NO)" in run(cluster, "DISPLAY CLUSQMGR(PA) SUSPEND")[0]


def test_reset_cluster_forceremove_on_a_full_repository(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    refused = cluster.execute("RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(PA)")
    assert not refused.ok  # PB is a partial repository
    run(cluster, "LAB USE QMGR(FR1)", "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(PA) QUEUES(YES)")
    for qmgr in ("FR1", "FR2", "PB"):
        assert ("PA", "PA") not in records(cluster, qmgr, QMGR)
        assert ("APP.Q", "PA") not in records(cluster, qmgr, QUEUE)
    assert ("PA", "PA") in records(
        cluster, "PA", QMGR
    )  # the queue manager removed changes nothing of its own
    run(cluster, "LAB CLOCK ADVANCE(1M)", "LAB USE QMGR(PA)", "REFRESH CLUSTER(DEMO)")  # rejoins after 10 s
    assert ("PA", "PA") in records(cluster, "FR1", QMGR)


def test_reset_cluster_keeps_the_queues_of_the_queue_manager_removed_unless_queues_yes(cluster):
    run(
        cluster,
        "LAB PUT QUEUE(APP.Q)",
        "LAB USE QMGR(FR1)",
        "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMNAME(PA)",
    )
    for qmgr in ("FR1", "FR2", "PB"):
        assert ("PA", "PA") not in records(cluster, qmgr, QMGR)
        assert ("APP.Q", "PA") in records(cluster, qmgr, QUEUE)
    shown = cluster.execute("DISPLAY QCLUSTER(APP.Q) QMID")
    assert shown.ok and dict(shown.responses[0].attributes)["CLUSQMGR"] == "PA"
    run(
        cluster,
        "RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('"
        + records(cluster, "FR1", QUEUE)[("APP.Q", "PA")].qmid
        + "') QUEUES(YES)",
    )
    assert ("APP.Q", "PA") not in records(cluster, "FR1", QUEUE)
    assert not cluster.execute("DISPLAY QCLUSTER(APP.Q)").ok  # AMQ8147E


def test_reset_cluster_refuses_a_blank_name_and_the_local_queue_manager(cluster):
    run(cluster, "LAB USE QMGR(FR1)")
    blank = cluster.execute("RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) QMID('')")
    assert not blank.ok and "None" not in cluster.render(blank) and "QMID is blank" in cluster.render(blank)
    own_qmid = records(cluster, "FR1", QMGR)[("FR1", "FR1")].qmid
    for named in ("QMNAME(FR1)", f"QMID('{own_qmid}')"):
        itself = cluster.execute(f"RESET CLUSTER(DEMO) ACTION(FORCEREMOVE) {named}")
        assert not itself.ok and "is the local queue manager" in cluster.render(itself)
    assert ("FR1", "FR1") in records(cluster, "PB", QMGR)


def test_cluster_messages_wait_out_a_network_cut_and_a_restart(cluster):
    run(
        cluster,
        "LAB SITE QMGR(PA) SITE(EAST)",
        "LAB NETWORK CUT SITES(EAST,MAIN)",
        "LAB USE QMGR(PA)",
        "ALTER QLOCAL(APP.Q) DESCR('while cut')",
    )
    assert depth(cluster, "PA", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") >= 1
    run(cluster, "endmqm PA", "strmqm PA")
    assert records(cluster, "FR1", QUEUE)[("APP.Q", "PA")].seq == BASE
    run(cluster, "LAB NETWORK JOIN SITES(EAST,MAIN)", "LAB USE QMGR(PB)", "LAB CLOCK ADVANCE(1M)")
    assert records(cluster, "FR1", QUEUE)[("APP.Q", "PA")].seq == BASE + 1
    assert depth(cluster, "PA", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 0


def test_cluster_topics_reach_every_member(cluster):
    run(
        cluster,
        "LAB USE QMGR(PA)",
        "DEFINE TOPIC(PRICES) TOPICSTR('prices') CLUSTER(DEMO)",
        "LAB USE QMGR(PB)",
    )
    text = run(cluster, "DISPLAY TCLUSTER(*) CLUSQMGR TOPICSTR CLSTATE")[0]
    assert "TOPIC(PRICES)" in text and "TYPE(CLUSTER)" in text and "CLUSQMGR(PA)" in text
    assert "TOPICSTR(prices)" in text and "CLSTATE(ACTIVE)" in text
    member(cluster, "PC", False)  # a member that joins later learns it from the full repository
    assert "TOPIC(PRICES)" in run(cluster, "DISPLAY TCLUSTER(PRICES)")[0]


def test_auto_defined_cluster_sender_shows_its_status(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q) COUNT(4)")
    text = run(cluster, "DISPLAY CHSTATUS(TO.PA) STATUS MSGS XQMSGSA")[0]
    assert "CHLTYPE(CLUSSDR)" in text and "STATUS(RUNNING)" in text and "CONNAME(pa(1414))" in text
    assert "XQMSGSA(0)" in text and "MSGS(" in text
    run(
        cluster,
        "LAB SITE QMGR(PA) SITE(EAST)",
        "LAB NETWORK CUT SITES(EAST,MAIN)",
        "LAB PUT QUEUE(APP.Q) COUNT(2)",
    )
    text = run(cluster, "DISPLAY CHSTATUS(TO.PA) STATUS XQMSGSA")[0]
    assert "STATUS(RETRYING)" in text and "XQMSGSA(2)" in text


def test_an_auto_defined_cluster_sender_stops_and_starts(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)", "STOP CHANNEL(TO.PA)", "LAB PUT QUEUE(APP.Q) COUNT(2)")
    assert "STATUS(STOPPED)" in run(cluster, "DISPLAY CHSTATUS(TO.PA) STATUS XQMSGSA")[0]
    assert depth(cluster, "PA", "APP.Q") == 1 and depth(cluster, "PB", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 2
    run(cluster, "START CHANNEL(TO.PA)")
    assert depth(cluster, "PA", "APP.Q") == 3
    result = cluster.execute("STOP CHANNEL(TO.NOWHERE)")
    assert not result.ok and "AMQ8227E" in cluster.render(result)


def test_idle_cluster_senders_end_after_discint_and_a_put_starts_them_again(cluster):
    run(cluster, "LAB PUT QUEUE(APP.Q)", "LAB CLOCK ADVANCE(101M)")
    assert not cluster.execute("DISPLAY CHSTATUS(TO.PA)").ok  # inactive: no status
    assert "STATUS(INACTIVE)" in run(cluster, "DISPLAY CLUSQMGR(PA) STATUS")[0]
    assert "AMQ9001I: Channel 'TO.PA' ended normally." in error_log(cluster, "PB")
    run(cluster, "LAB PUT QUEUE(APP.Q)")
    assert (
        "STATUS(RUNNING)" in run(cluster, "DISPLAY CHSTATUS(TO.PA)")[0] and depth(cluster, "PA", "APP.Q") == 2
    )


def test_the_repository_manager_says_when_it_ends(cluster):
    def ended_log(qmgr: str) -> str:
        path = cluster.installation.paths(qmgr).error_log
        return path.read_text() if path.exists() else ""

    assert "AMQ9411I" not in error_log(cluster, "PA")
    run(cluster, "endmqm PA")
    assert "AMQ9411I: Repository manager ended normally." in ended_log("PA")
    run(cluster, "crtmqm LONE", "strmqm LONE", "endmqm LONE")  # in no cluster: no repository manager
    assert "AMQ9411I" not in ended_log("LONE")


def test_without_a_channel_initiator_a_started_cluster_sender_waits_starting(cluster):
    run(cluster, "endmqm PB", "strmqm -ns PB", "LAB USE QMGR(PB)", "START CHANNEL(TO.FR1)")
    shown = cluster.execute("DISPLAY CLUSQMGR(FR1) STATUS")
    assert "STATUS(STARTING)" in cluster.render(shown)


def test_refresh_numbers_above_the_full_repositories_after_the_lab_clock_went_back(cluster):
    # The clock set back a year after the queue managers were created (their records numbered
    # from 2026); PA, restored from a backup, no longer has the six numbers it used since.
    run(
        cluster,
        "LAB CLOCK SET('2025-05-01 09:00:00')",
        "endmqm PA",
        "LAB BACKUP QMGR(PA) TO(WEEK0)",
        "strmqm PA",
        "LAB USE QMGR(PA)",
        *(f"ALTER QLOCAL(APP.Q) DESCR('v{number}')" for number in range(6)),
        "endmqm -i PA",
        "LAB RESTORE QMGR(PA) FROM(WEEK0)",
        "strmqm PA",
    )
    assert records(cluster, "FR1", QUEUE)[("APP.Q", "PA")].seq == BASE + 6
    run(cluster, "LAB CLOCK ADVANCE(1M)", "REFRESH CLUSTER(DEMO)")
    # numbered as the real clock would: a year and a minute after the creation, not the lab
    # clock's 2025, which the full repositories would drop as an old update
    held = records(cluster, "FR1", QUEUE)[("APP.Q", "PA")]
    assert held.seq == BASE + 60 and held.attrs.get("DESCR", "").strip() == ""
    run(cluster, "ALTER QLOCAL(APP.Q) DESCR('after the refresh')")
    assert records(cluster, "FR2", QUEUE)[("APP.Q", "PA")].attrs["DESCR"] == "after the refresh"
