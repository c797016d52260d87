"""Channel events on SYSTEM.ADMIN.CHANNEL.EVENT, as ALTER QMGR CHLEV decides, and LAB EVENTS."""

from __future__ import annotations

from tests.model.network.conftest import depth, run

EVENTS = "SYSTEM.ADMIN.CHANNEL.EVENT"
CHANNEL = "QM1.TO.QM2"


def shown(session) -> list[str]:
    result = session.execute("LAB EVENTS")
    assert result.ok, session.render(result)
    return session.render(result).splitlines()


def reasons(lines: list[str]) -> list[str]:
    return [line.split(": ", 1)[1] for line in lines if line.startswith("Reason ")]


def qualifiers(lines: list[str]) -> list[str]:
    return [line.split(": ", 1)[1] for line in lines if line.strip().startswith("Reason Qualifier")]


def test_no_events_while_chlev_is_disabled(linked):
    run(linked, "LAB PUT QUEUE(APP.OUT) PERSISTENT", "START CHANNEL(QM1.TO.QM2)", "STOP CHANNEL(QM1.TO.QM2)")
    assert depth(linked, "QM1", EVENTS) == 0
    assert linked.render(linked.execute("LAB EVENTS")) == f"No messages on queue {EVENTS}."


def test_enabled_channel_events_at_both_ends(linked):
    run(
        linked,
        "ALTER QMGR CHLEV(ENABLED)",
        "LAB USE QMGR(QM2)",
        "ALTER QMGR CHLEV(ENABLED)",
        "LAB USE QMGR(QM1)",
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) DISCINT(60)",
        "LAB PUT QUEUE(APP.OUT) PERSISTENT",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB CLOCK ADVANCE(1M)",
    )
    lines = shown(linked)
    assert reasons(lines) == ["Channel Started [2282]", "Channel Stopped [2283]"]
    assert qualifiers(lines) == ["Channel Stopped OK"]  # DISCINT: it closed normally
    assert lines[0] == f"**** Message #1 (228 Bytes) on Queue {EVENTS} ****"
    assert lines[1] == "Event Type                       : Channel Event [46]"
    assert "Event created                    : 2026/05/01 09:00:00.00 GMT" in lines
    assert "  Queue Manager Name             : QM1" in lines
    assert f"  Channel Name                   : {CHANNEL}" in lines
    assert "  Xmit Queue Name                : QM2" in lines
    assert "  Connection Name                : " + _address(linked, "qm2") in lines
    assert depth(linked, "QM1", EVENTS) == 0  # got, as amqsevt gets them
    run(linked, "LAB USE QMGR(QM2)")
    receiving = shown(linked)
    assert reasons(receiving) == ["Channel Started [2282]", "Channel Stopped [2283]"]
    assert "  Connection Name                : " + _address(linked, "qm1") in receiving


def _address(session, host: str) -> str:
    return session.installation.clusters.network.topology.address_of(host)


def test_exception_gives_only_the_abnormal_stops(linked):
    run(
        linked,
        "ALTER QMGR CHLEV(EXCEPTION)",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB SITE QMGR(QM2) SITE(DR)",
        "LAB NETWORK CUT SITES(MAIN,DR)",
        "LAB NETWORK JOIN SITES(MAIN,DR)",
        "LAB CLOCK ADVANCE(1M)",
        "STOP CHANNEL(QM1.TO.QM2)",
    )
    lines = shown(linked)
    # no Started; the cut: Stopped, in retry; the STOP: Stopped By User
    assert reasons(lines) == ["Channel Stopped [2283]", "Channel Stopped By User [2279]"]
    assert qualifiers(lines) == ["Channel Stopped Retry", "Channel Stopped Disabled"]


def test_a_channel_stopped_by_an_error_says_so(linked):
    run(
        linked,
        "ALTER QMGR CHLEV(EXCEPTION)",
        "DEFINE QREMOTE(NOWHERE) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2) XMITQ(QM2)",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB PUT QUEUE(NOWHERE) PERSISTENT",
    )
    lines = shown(linked)
    assert reasons(lines) == ["Channel Stopped [2283]"] and qualifiers(lines) == ["Channel Stopped Disabled"]


def test_a_blocked_channel_and_a_warning(linked):
    run(
        linked,
        "LAB SITE QMGR(QM1) ADDRESS(10.1.0.5)",
        "LAB USE QMGR(QM2)",
        "ALTER QMGR CHLEV(ENABLED)",
        f"SET CHLAUTH('{CHANNEL}') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(NOACCESS)",
        "LAB USE QMGR(QM1)",
        "START CHANNEL(QM1.TO.QM2)",
        "LAB USE QMGR(QM2)",
    )
    lines = shown(linked)
    assert reasons(lines) == ["Channel Blocked [2577]"] and qualifiers(lines) == ["Channel Blocked Noaccess"]
    assert (
        "  Connection Name                : 10.1.0.5" in lines
        and "  Remote Queue Manager Name      : QM1" in lines
    )
    run(
        linked,
        f"SET CHLAUTH('{CHANNEL}') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(NOACCESS) WARN(YES) "
        "ACTION(REPLACE)",
        "LAB USE QMGR(QM1)",
        "LAB CLOCK ADVANCE(1M)",
        "LAB USE QMGR(QM2)",
    )
    lines = shown(linked)
    assert reasons(lines) == ["Channel Blocked Warning [2578]", "Channel Started [2282]"]


def test_browse_leaves_the_events_and_other_messages_are_told_apart(linked):
    run(
        linked,
        "ALTER QMGR CHLEV(ENABLED)",
        "START CHANNEL(QM1.TO.QM2)",
        f"LAB PUT QUEUE({EVENTS}) PERSISTENT",
    )
    browsed = linked.render(linked.execute("LAB EVENTS BROWSE")).splitlines()
    assert reasons(browsed) == ["Channel Started [2282]"] and "  Not an event message." in browsed
    assert depth(linked, "QM1", EVENTS) == 2
    shown(linked)
    assert depth(linked, "QM1", EVENTS) == 0


def test_an_event_queue_that_cannot_take_it_loses_the_event(linked):
    run(
        linked,
        "ALTER QMGR CHLEV(ENABLED)",
        f"ALTER QLOCAL({EVENTS}) PUT(DISABLED)",
        "START CHANNEL(QM1.TO.QM2)",
    )
    assert (
        depth(linked, "QM1", EVENTS) == 0 and depth(linked, "QM1", "QM2") == 0
    )  # the channel runs regardless
