"""Logger events: one on SYSTEM.ADMIN.LOGGER.EVENT for each new extent, and on enabling, on a linear log."""

from __future__ import annotations

from tests.recovery.helpers import qmgr, run, started

QUEUE = "SYSTEM.ADMIN.LOGGER.EVENT"


def depth(session) -> str:
    return run(session, f"DISPLAY QLOCAL({QUEUE}) CURDEPTH")[-1].strip()


def status(session, field: str) -> str:
    line = next(line for line in run(session, f"DISPLAY QMSTATUS {field}") if f"{field}(" in line)
    return line.split(f"{field}(")[1].split(")")[0]


def test_enabling_and_each_new_extent_put_a_logger_event(data_dir):
    session = started(data_dir, "-ll")
    run(session, "RESET QMGR TYPE(ADVANCELOG)")
    assert depth(session) == "CURDEPTH(0)"  # LOGGEREV(DISABLED), as created
    run(session, "ALTER QMGR LOGGEREV(ENABLED)")
    assert depth(session) == "CURDEPTH(1)"
    run(session, "ALTER QMGR DESCR('no change to the events')")
    assert depth(session) == "CURDEPTH(1)"
    run(session, "RESET QMGR TYPE(ADVANCELOG)")
    assert depth(session) == "CURDEPTH(2)"
    current, restart, media = (
        status(session, "CURRLOG"),
        status(session, "RECLOG"),
        status(session, "MEDIALOG"),
    )
    lines = run(session, f"LAB EVENTS QUEUE({QUEUE})")
    second = lines[lines.index("") + 1 :]
    assert second[0].startswith("**** Message #2 (") and second[0].endswith(f"on Queue {QUEUE} ****")
    assert [line.split(":", 1)[0].strip() for line in second[1:]] == [
        "Event Type",
        "Reason",
        "Event created",
        "Queue Manager Name",
        "Current Log Extent Name",
        "Restart Log Extent Name",
        "Media Log Extent Name",
        "Log Path",
    ]
    values = [line.split(":", 1)[1].strip() for line in second[1:]]
    assert values[:2] == ["Logger Event [91]", "Logger Status [2411]"]
    assert values[3:7] == ["QM1", current, restart, media]
    assert values[7] == str(qmgr(session).paths.log_dir) + "/"
    assert depth(session) == "CURDEPTH(0)"  # LAB EVENTS got them, as amqsevt does
    session.close()


def test_an_extent_filled_by_messages_puts_one_too(data_dir):
    session = started(data_dir, "-ll", extra="-lf 4")
    run(session, "ALTER QMGR LOGGEREV(ENABLED)", "DEFINE QLOCAL(Q1) DEFPSIST(YES)")
    before, events = status(session, "CURRLOG"), int(depth(session)[9:-1])
    run(session, "LAB PUT QUEUE(Q1) COUNT(200)")
    assert status(session, "CURRLOG") != before
    assert int(depth(session)[9:-1]) > events
    lines = run(session, f"LAB EVENTS QUEUE({QUEUE}) BROWSE")
    newest = [line.split(":", 1)[1].strip() for line in lines if "Current Log Extent Name" in line][-1]
    assert newest == status(session, "CURRLOG")
    session.close()


def test_disabled_again_puts_none_and_a_missing_queue_loses_the_event_only(data_dir):
    session = started(data_dir, "-ll")
    run(
        session,
        "ALTER QMGR LOGGEREV(ENABLED)",
        "ALTER QMGR LOGGEREV(DISABLED)",
        "RESET QMGR TYPE(ADVANCELOG)",
    )
    assert depth(session) == "CURDEPTH(1)"  # the enabling's only
    run(session, "ALTER QMGR LOGGEREV(ENABLED)", f"DELETE QLOCAL({QUEUE}) PURGE")
    assert run(session, "RESET QMGR TYPE(ADVANCELOG)") == ["AMQ8084I: IBM MQ queue manager reset."]
    session.close()
