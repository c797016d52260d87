"""Channels at work: what makes a sender RUNNING, RETRYING or STOPPED, and what it moves."""

from __future__ import annotations

from tests.model.network.conftest import depth, run


def status(session, channel: str = "QM1.TO.QM2") -> dict:
    return dict(session.execute(f"DISPLAY CHSTATUS({channel}) ALL").responses[0].attributes)


def errors(session, qmgr: str) -> str:
    return session.installation.connect(qmgr).errors.read()


def test_a_running_channel_moves_every_message_in_batches(linked):
    run(
        linked, "LAB PUT QUEUE(APP.OUT) COUNT(20) PERSISTENT", "LAB PUT QUEUE(APP.OUT) COUNT(2) NONPERSISTENT"
    )
    assert depth(linked, "QM1", "QM2") == 22 and depth(linked, "QM2", "APP.IN") == 0
    run(linked, "START CHANNEL(QM1.TO.QM2)")
    assert depth(linked, "QM1", "QM2") == 0 and depth(linked, "QM2", "APP.IN") == 22
    shown = status(linked)
    # 20 persistent messages in batches of at most 7, the non-persistent ones outside any batch
    assert (shown["STATUS"], shown["MSGS"], shown["BATCHES"], shown["LSTSEQNO"]) == (
        "RUNNING",
        "22",
        "3",
        "3",
    )
    assert shown["RQMNAME"] == "QM2" and shown["INDOUBT"] == "NO" and shown["XQMSGSA"] == "0"
    run(linked, "LAB USE QMGR(QM2)")
    receiving = status(linked)
    assert (receiving["CHLTYPE"], receiving["STATUS"], receiving["RQMNAME"]) == ("RCVR", "RUNNING", "QM1")
    # the receiver keeps one marker for the channel: the last batch it committed
    assert (
        depth(linked, "QM2", "SYSTEM.CHANNEL.SYNCQ") == 1
        and depth(linked, "QM1", "SYSTEM.CHANNEL.SYNCQ") == 0
    )
    # later puts go at once while the channel runs
    run(linked, "LAB USE QMGR(QM1)", "LAB PUT QUEUE(APP.OUT) COUNT(3) PERSISTENT")
    assert depth(linked, "QM2", "APP.IN") == 25 and status(linked)["LSTSEQNO"] == "4"


def test_no_listener_on_the_port_means_retrying_until_one_starts(linked):
    run(
        linked,
        "LAB USE QMGR(QM2)",
        "STOP LISTENER(L1)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) COUNT(2) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert status(linked)["STATUS"] == "RETRYING" and depth(linked, "QM1", "QM2") == 2
    assert "AMQ9202E: Remote host 'qm2(1414)' not available, retry later." in errors(linked, "QM1")
    run(linked, "LAB USE QMGR(QM2)", "START LISTENER(L1)", "LAB USE QMGR(QM1)")
    # it tries again when its short retry falls due: SHORTTMR(60) after the failure
    assert status(linked)["STATUS"] == "RETRYING" and depth(linked, "QM1", "QM2") == 2
    run(linked, "LAB CLOCK ADVANCE(59S)")
    assert status(linked)["STATUS"] == "RETRYING"
    run(linked, "LAB CLOCK ADVANCE(1S)")
    assert status(linked)["STATUS"] == "RUNNING" and depth(linked, "QM2", "APP.IN") == 2


def test_a_queue_manager_that_is_ended_or_on_another_port_is_not_reached(linked):
    run(
        linked,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1415)')",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert status(linked)["STATUS"] == "RETRYING"
    run(
        linked,
        "STOP CHANNEL(QM1.TO.QM2)",
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)')",
        "endmqm QM2",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert status(linked)["STATUS"] == "RETRYING"
    run(linked, "strmqm QM2", "LAB CLOCK ADVANCE(1M)")  # CONTROL(QMGR): its listener starts with it
    assert status(linked)["STATUS"] == "RUNNING" and depth(linked, "QM2", "APP.IN") == 1


def test_no_receiver_of_that_name_and_a_stopped_receiver_refuse_the_sender(linked):
    run(
        linked,
        "LAB USE QMGR(QM2)",
        "DELETE CHANNEL(QM1.TO.QM2)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert status(linked)["STATUS"] == "RETRYING"
    assert "AMQ9520E: Channel not defined remotely." in errors(linked, "QM1")
    run(linked, "LAB USE QMGR(QM2)", "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)", "LAB CLOCK ADVANCE(1M)")
    assert depth(linked, "QM2", "APP.IN") == 1
    run(linked, "STOP CHANNEL(QM1.TO.QM2)", "LAB USE QMGR(QM1)", "LAB PUT QUEUE(APP.OUT) PERSISTENT")
    assert status(linked)["STATUS"] == "RETRYING" and depth(linked, "QM1", "QM2") == 1
    assert "AMQ9558E: Remote Channel is not currently available." in errors(linked, "QM1")
    run(linked, "LAB USE QMGR(QM2)", "START CHANNEL(QM1.TO.QM2)", "LAB CLOCK ADVANCE(1M)")
    assert depth(linked, "QM2", "APP.IN") == 2


def test_a_network_cut_holds_messages_on_the_transmission_queue_until_joined(linked):
    run(
        linked,
        "START CHANNEL(QM1.TO.QM2)",
        "LAB SITE QMGR(QM2) SITE(DR)",
        "LAB NETWORK CUT SITES(MAIN,DR)",
        "LAB PUT QUEUE(APP.OUT) COUNT(4) PERSISTENT",
    )
    assert status(linked)["STATUS"] == "RETRYING" and depth(linked, "QM1", "QM2") == 4
    run(linked, "LAB USE QMGR(QM2)")
    assert not linked.execute("DISPLAY CHSTATUS(*)").ok  # the receiving end ended
    run(linked, "LAB NETWORK JOIN SITES(DR,MAIN)", "LAB USE QMGR(QM1)", "LAB CLOCK ADVANCE(1M)")
    assert status(linked)["STATUS"] == "RUNNING" and depth(linked, "QM2", "APP.IN") == 4


def test_a_channel_says_it_starts_once_per_start_not_at_every_retry(linked):
    starting = "AMQ9002I: Channel 'QM1.TO.QM2' is starting."
    run(linked, "START CHANNEL(QM1.TO.QM2)", "LAB SITE QMGR(QM2) SITE(DR)", "LAB NETWORK CUT SITES(MAIN,DR)")
    for _ in range(3):  # cut and joined, a minute apart: the channel retries and connects again
        run(
            linked,
            "LAB PUT QUEUE(APP.OUT) PERSISTENT",
            "LAB NETWORK JOIN SITES(DR,MAIN)",
            "LAB CLOCK ADVANCE(1M)",
            "LAB NETWORK CUT SITES(MAIN,DR)",
        )
    run(linked, "LAB NETWORK JOIN SITES(DR,MAIN)", "LAB CLOCK ADVANCE(1M)")
    assert depth(linked, "QM2", "APP.IN") == 3
    assert errors(linked, "QM1").count(starting) == 1  # one start: its retries are not starts
    # the receiving end starts an instance for each conversation, and says so each time
    assert errors(linked, "QM2").count(starting) == 5
    run(linked, "STOP CHANNEL(QM1.TO.QM2)", "START CHANNEL(QM1.TO.QM2)")
    assert errors(linked, "QM1").count(starting) == 2  # started again: said again


def test_a_stopped_sender_moves_nothing_and_starts_again(linked):
    run(linked, "START CHANNEL(QM1.TO.QM2)", "STOP CHANNEL(QM1.TO.QM2)", "LAB PUT QUEUE(APP.OUT) PERSISTENT")
    assert status(linked)["STATUS"] == "STOPPED" and depth(linked, "QM1", "QM2") == 1
    run(linked, "START CHANNEL(QM1.TO.QM2)")
    assert depth(linked, "QM2", "APP.IN") == 1


def test_a_message_for_an_unknown_queue_goes_to_the_dead_letter_queue(linked):
    run(
        linked,
        "DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2) XMITQ(QM2)",
        "LAB PUT QUEUE(NOWHERE) PERSISTENT",
        "LAB USE QMGR(QM2)",
        "ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)",
        "LAB USE QMGR(QM1)",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert depth(linked, "QM2", "SYSTEM.DEAD.LETTER.QUEUE") == 1
    qm2 = linked.installation.connect("QM2")
    dead = qm2.lookup("QUEUE", "SYSTEM.DEAD.LETTER.QUEUE").messages[0]
    assert qm2.units.data.get(dead.msgid) == {"dlh": 2085, "qm": "QM2", "q": "NO.SUCH.QUEUE"}


def test_without_a_dead_letter_queue_the_channel_stops_and_leaves_the_message(linked):
    run(
        linked,
        "DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2) XMITQ(QM2)",
        "LAB PUT QUEUE(NOWHERE) PERSISTENT",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
    )
    shown = status(linked)
    assert shown["STATUS"] == "STOPPED" and shown["INDOUBT"] == "NO" and depth(linked, "QM1", "QM2") == 2
    assert "AMQ9544E: Messages not put to destination queue." in errors(linked, "QM1")
    run(
        linked,
        "LAB USE QMGR(QM2)",
        "DEFINE QLOCAL(NO.SUCH.QUEUE)",
        "LAB USE QMGR(QM1)",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert depth(linked, "QM2", "NO.SUCH.QUEUE") == 1 and depth(linked, "QM2", "APP.IN") == 1


def test_messages_hop_on_through_a_transmission_queue_named_after_the_next_queue_manager(linked):
    run(
        linked,
        "crtmqm QM3",
        "strmqm QM3",
        "LAB USE QMGR(QM3)",
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(L1)",
        "DEFINE QLOCAL(FAR.IN)",
        "DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(RCVR)",
        "LAB USE QMGR(QM2)",
        "DEFINE QLOCAL(QM3) USAGE(XMITQ)",
        "DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(SDR) CONNAME('qm3') XMITQ(QM3)",
        "START CHANNEL(QM2.TO.QM3)",
        "LAB USE QMGR(QM1)",
        "DEFINE QREMOTE(FAR.OUT) RNAME(FAR.IN) RQMNAME(QM3) XMITQ(QM2)",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB PUT QUEUE(FAR.OUT) COUNT(3) PERSISTENT",
    )
    assert depth(linked, "QM3", "FAR.IN") == 3 and depth(linked, "QM2", "QM3") == 0


def test_starting_a_running_channel_is_refused_and_a_receiver_starts_only_out_of_stopped(linked):
    run(linked, "START CHANNEL(QM1.TO.QM2)")
    again = linked.execute("START CHANNEL(QM1.TO.QM2)")
    assert not again.ok and linked.render(again) == "AMQ9514E: Channel 'QM1.TO.QM2' is in use."
