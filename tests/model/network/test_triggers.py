"""Inactive senders: DISCINT ends an idle one, a triggered transmission queue starts it again."""

from __future__ import annotations

import pytest

from tests.model.network.conftest import depth, run

TRIGGERED = "ALTER QLOCAL(QM2) TRIGGER TRIGTYPE(FIRST) INITQ(SYSTEM.CHANNEL.INITQ) TRIGDATA(QM1.TO.QM2)"


def status(session, channel: str = "QM1.TO.QM2") -> str | None:
    result = session.execute(f"DISPLAY CHSTATUS({channel})")
    return dict(result.responses[0].attributes)["STATUS"] if result.ok else None


def errors(session, qmgr: str = "QM1") -> str:
    return session.installation.connect(qmgr).errors.read()


def test_an_idle_sender_ends_normally_after_discint_and_waits_for_start(linked):
    run(
        linked,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) DISCINT(600)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB CLOCK ADVANCE(599S)",
    )
    assert status(linked) == "RUNNING"
    run(linked, "LAB CLOCK ADVANCE(1S)")
    assert status(linked) is None  # inactive: no status at either end
    assert "AMQ9001I: Channel 'QM1.TO.QM2' ended normally." in errors(linked)
    run(linked, "LAB USE QMGR(QM2)")
    assert status(linked) is None
    # not triggered: what is put now waits until the channel is started
    run(linked, "LAB USE QMGR(QM1)", "LAB PUT QUEUE(APP.OUT) PERSISTENT", "LAB CLOCK ADVANCE(1H)")
    assert status(linked) is None and depth(linked, "QM1", "QM2") == 1
    run(linked, "START CHANNEL(QM1.TO.QM2)")
    assert status(linked) == "RUNNING" and depth(linked, "QM2", "APP.IN") == 2


def test_a_message_sent_keeps_the_channel_from_ending(linked):
    run(
        linked,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) DISCINT(600)",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB CLOCK ADVANCE(9M)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "LAB CLOCK ADVANCE(9M)",
    )
    assert status(linked) == "RUNNING"  # idle nine minutes since its last message
    run(linked, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) DISCINT(0)", "LAB CLOCK ADVANCE(30D)")
    assert status(linked) == "RUNNING"  # DISCINT(0): it never ends


@pytest.mark.parametrize("trigdata", ["QM1.TO.QM2", ""])
def test_a_triggered_transmission_queue_starts_its_channel(linked, trigdata):
    run(linked, f"ALTER QLOCAL(QM2) TRIGGER INITQ(SYSTEM.CHANNEL.INITQ) TRIGDATA('{trigdata}')")
    assert status(linked) is None
    run(linked, "LAB PUT QUEUE(APP.OUT) COUNT(3) PERSISTENT")
    assert status(linked) == "RUNNING" and depth(linked, "QM2", "APP.IN") == 3


@pytest.mark.parametrize(
    "setting",
    [
        "NOTRIGGER INITQ(SYSTEM.CHANNEL.INITQ)",
        "TRIGGER TRIGTYPE(NONE) INITQ(SYSTEM.CHANNEL.INITQ)",
        "TRIGGER INITQ(APP.INITQ)",
        "TRIGGER INITQ(SYSTEM.CHANNEL.INITQ) TRIGDATA(OTHER.CHANNEL)",
    ],
)
def test_no_trigger_no_start(linked, setting):
    run(
        linked,
        "DEFINE QLOCAL(APP.INITQ)",
        f"ALTER QLOCAL(QM2) {setting}",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
    )
    assert status(linked) is None and depth(linked, "QM1", "QM2") == 1


def test_a_stopped_channel_is_not_triggered_nor_one_without_a_channel_initiator(linked):
    run(
        linked,
        TRIGGERED,
        "START CHANNEL(QM1.TO.QM2)",
        "STOP CHANNEL(QM1.TO.QM2)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
    )
    assert status(linked) == "STOPPED" and depth(linked, "QM1", "QM2") == 1
    run(linked, "endmqm QM1", "strmqm QM1", "LAB USE QMGR(QM1)")
    assert status(linked) == "STOPPED" and depth(linked, "QM1", "QM2") == 1  # stopped through the restart too
    run(linked, "START CHANNEL(QM1.TO.QM2)")
    assert status(linked) == "RUNNING" and depth(linked, "QM1", "QM2") == 0
    run(linked, "endmqm QM1", "strmqm -ns QM1", "LAB USE QMGR(QM1)", "LAB PUT QUEUE(APP.OUT) PERSISTENT")
    assert status(linked) is None and depth(linked, "QM1", "QM2") == 1


def test_triggering_brings_back_a_channel_that_discint_ended(linked):
    run(
        linked,
        TRIGGERED,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) DISCINT(60)",
        "LAB PUT QUEUE(APP.OUT)",
        "LAB CLOCK ADVANCE(2M)",
    )
    assert status(linked) is None and depth(linked, "QM2", "APP.IN") == 1
    run(linked, "LAB PUT QUEUE(APP.OUT) COUNT(2)")
    assert status(linked) == "RUNNING" and depth(linked, "QM2", "APP.IN") == 3
    assert errors(linked).count("AMQ9002I: Channel 'QM1.TO.QM2' is starting.") == 2


def test_start_channel_without_a_channel_initiator_waits_starting_and_says_why_once(linked):
    run(linked, "endmqm QM1", "strmqm -ns QM1", "LAB USE QMGR(QM1)")
    result = linked.execute("START CHANNEL(QM1.TO.QM2)")
    assert result.ok and "AMQ8018I" in str(result.responses)
    run(linked, "LAB PUT QUEUE(APP.OUT) PERSISTENT", "LAB CLOCK ADVANCE(1H)")
    shown = dict(linked.execute("DISPLAY CHSTATUS(QM1.TO.QM2) ALL").responses[0].attributes)
    assert shown["STATUS"] == "STARTING" and depth(linked, "QM1", "QM2") == 1
    assert (
        errors(linked).count("Channel 'QM1.TO.QM2' cannot start: the channel initiator is not running.") == 1
    )
    assert not linked.execute("START CHANNEL(QM1.TO.QM2)").ok  # still waiting: in use, not said again
    assert errors(linked).count("the channel initiator is not running") == 1
