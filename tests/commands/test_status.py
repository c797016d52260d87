"""DISPLAY QSTATUS and SBSTATUS: what the running model says about a queue or a subscription."""

from __future__ import annotations

from mqsh.responses import Display


def attributes(result) -> dict:
    """The first record's attributes, whichever form the reply has (a group member's is z/OS's)."""
    return dict(next(response for response in result.responses if isinstance(response, Display)).attributes)


def test_open_handles_show_as_input_and_output_processes(session):
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    shown = attributes(session.execute("DISPLAY QSTATUS(Q1) IPPROCS OPPROCS"))
    assert shown["IPPROCS"] == "1" and shown["OPPROCS"] == "1"
    session.execute("LAB CLOSE QUEUE(Q1)")
    assert attributes(session.execute("DISPLAY QSTATUS(Q1) IPPROCS"))["IPPROCS"] == "0"


def test_one_queues_status_shows_everything_as_mq_does_with_monitoring_off(session):
    session.execute("DEFINE QLOCAL(DEV.QUEUE.1)")
    session.execute("LAB PUT QUEUE(DEV.QUEUE.1) COUNT(1) PERSISTENT")
    lines = session.render(session.execute("DIS QSTATUS(DEV.QUEUE.1)")).splitlines()
    assert lines == [
        "AMQ8450I: Display queue status details.",
        "   QUEUE(DEV.QUEUE.1)                      TYPE(QUEUE)",
        "   CURDEPTH(1)                             CURFSIZE(1)",
        "   CURMAXFS(2088960)                       IPPROCS(0)",
        "   LGETDATE( )                             LGETTIME( )",
        "   LPUTDATE( )                             LPUTTIME( )",
        "   MEDIALOG( )                             MONQ(OFF)",
        "   MSGAGE( )                               OPPROCS(0)",
        "   QTIME( , )                              UNCOM(NO)",
    ]


def test_sbstatus_shows_each_subscription_as_defined_and_idle(session):
    session.execute("DEFINE QLOCAL(PRICE.FEED)")
    session.execute("DEFINE SUB(PRICE.SUB) TOPICSTR('prices/#') DEST(PRICE.FEED)")
    defined = dict(session.execute("DISPLAY SUB(PRICE.SUB) ALTDATE ALTTIME").responses[0].attributes)
    summary = session.execute("DISPLAY SBSTATUS(*)").responses[0]
    assert summary.attributes == [("SUB", "PRICE.SUB"), ("SUBID", defined["SUBID"])]
    shown = dict(session.execute("DISPLAY SBSTATUS(PRICE.SUB) ALL").responses[0].attributes)
    assert (shown["RESMDATE"], shown["RESMTIME"]) == (defined["ALTDATE"], defined["ALTTIME"])
    assert shown["DURABLE"] == "YES" and shown["SUBTYPE"] == "ADMIN" and shown["NUMMSGS"] == "0"
    assert shown["ACTCONN"] == "0" * 48
    assert (
        session.execute("DISPLAY SBSTATUS(NOPE)").responses[0].line()
        == "AMQ8147E: IBM MQ object NOPE not found."
    )


def test_handle_status_shows_each_handle_the_application_holds(session):
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("DEFINE QLOCAL(Q2)")
    assert session.execute("DISPLAY QSTATUS(Q1) TYPE(HANDLE)").responses[0].msgid == "AMQ8147E"
    for queue in ("Q1", "Q1", "Q2"):
        session.execute(f"LAB OPEN QUEUE({queue})")
    handles = session.execute("DISPLAY QSTATUS(*) TYPE(HANDLE) APPLTAG INPUT OUTPUT").responses
    assert [dict(record.attributes)["QUEUE"] for record in handles] == ["Q1", "Q1", "Q2"]
    assert dict(handles[0].attributes) == {
        "QUEUE": "Q1",
        "TYPE": "HANDLE",
        "APPLTAG": "mqsh",
        "INPUT": "SHARED",
        "OUTPUT": "YES",
    }
    assert (
        attributes(session.execute("DISPLAY QMSTATUS CONNS"))["CONNS"] == "2"
    )  # mqsh's and the application's


def test_a_damaged_queue_is_found_by_its_oldest_medialog(data_dir):
    """Seed 000: the damaged object is the one with the oldest MEDIALOG when its status is displayed."""
    from tests.support import started_qmgr

    session, _qmgr = started_qmgr(data_dir, "-ll", "QM1")
    for command in (
        "DEFINE QLOCAL(D1)",
        "RESET QMGR TYPE(ADVANCELOG)",
        "DEFINE QLOCAL(D2)",
        "LAB DAMAGE QUEUE(D1)",
    ):
        assert session.execute(command).ok
    result = session.execute("DISPLAY QSTATUS(D*) MEDIALOG")
    shown = {
        dict(record.attributes)["QUEUE"]: dict(record.attributes)["MEDIALOG"] for record in result.responses
    }
    assert shown == {"D1": "S0000000.LOG", "D2": "S0000001.LOG"}
    depth = session.execute("DISPLAY QSTATUS(D1) CURDEPTH")  # an operation on it: MQRC_OBJECT_DAMAGED
    assert not depth.ok and "AMQ8149S" in session.render(depth)
    session.close()


def test_a_shared_queue_shows_the_structures_depth_and_uncommitted_messages_on_every_member(group):
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ1) COUNT(3)",
        "LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT",
    ):
        assert group.execute(command).ok, command
    group.current_qmgr = "QM2"
    shown = attributes(group.execute("DISPLAY QSTATUS(SQ1)"))
    assert (shown["CURDEPTH"], shown["UNCOM"], shown["IPPROCS"]) == ("5", "2", "0")
    # No queue file, no media recovery: nothing to say of either.
    assert (shown["CURFSIZE"], shown["MEDIALOG"]) == (" ", " ")
    queues = [
        dict(record.attributes)["QUEUE"]
        for record in group.execute("DISPLAY QSTATUS(S*)").responses
        if isinstance(record, Display)
    ]
    assert "SQ1" in queues and "SYSTEM.ADMIN.COMMAND.QUEUE" in queues


def test_a_replicated_queue_manager_shows_its_one_native_ha_instance_active_and_in_sync(data_dir):
    from mqsh.shell.session import Session

    session = Session(data_dir)
    for command in ("crtmqm -lr NHA", "strmqm NHA"):
        assert session.execute(command).ok
    session.current_qmgr = "NHA"
    session.execute("DEFINE QLOCAL(NHA.Q)")  # something logged: ACKLSN follows the log
    result = session.execute("DISPLAY QMSTATUS TYPE(NATIVEHA)")
    shown = attributes(result)
    disk_lsn = attributes(session.execute("DISPLAY QMSTATUS DISKLSN"))["DISKLSN"]
    assert (shown["QMNAME"], shown["TYPE"], shown["INSTANCE"], shown["ROLE"], shown["INSYNC"]) == (
        "NHA",
        "NATIVEHA",
        "nha",
        "ACTIVE",
        "YES",
    )
    assert shown["BACKLOG"] == "0" and shown["CONNACTV"] == "YES" and shown["ACKLSN"] == disk_lsn
    assert "STATUS" not in shown and "LOGTYPE" not in shown  # TYPE(QMGR)'s fields are not Native HA's
    assert len(session.execute("DISPLAY QMSTATUS TYPE(NATIVEHA) NHATYPE(nha)").responses) == 1
    assert (
        session.render(session.execute("DISPLAY QMSTATUS TYPE(NATIVEHA) NHATYPE(other)"))
        == "AMQ8147E: IBM MQ object OTHER not found."
    )  # no instance of that name
    assert attributes(session.execute("DISPLAY QMSTATUS TYPE(NATIVEHA) WHERE(ROLE EQ ACTIVE) INSYNC")) == {
        "QMNAME": "NHA",
        "TYPE": "NATIVEHA",
        "INSYNC": "YES",
        "ROLE": "ACTIVE",
    }
    qmgr = attributes(session.execute("DISPLAY QMSTATUS INSTANCE QUORUM"))
    assert (qmgr["INSTANCE"], qmgr["QUORUM"]) == ("nha", "1/1")
    session.close()


def test_a_queue_manager_without_native_ha_refuses_its_native_ha_status(session):
    result = session.execute("DISPLAY QMSTATUS TYPE(NATIVEHA)")
    assert not result.ok
    assert session.render(result) == "AMQ8101S: IBM MQ error (7DC) has occurred."
    assert attributes(session.execute("DISPLAY QMSTATUS INSTANCE"))["INSTANCE"] == " "


def test_a_shared_queue_on_a_failed_structure_answers_2373_not_an_empty_queue(shared_queue_group):
    """CURDEPTH(0) would read as the messages lost, when RECOVER CFSTRUCT may bring them back."""
    session = shared_queue_group
    assert session.execute("LAB PUT QUEUE(SQ1) COUNT(5)").ok
    assert session.execute("DEFINE QLOCAL(LOCAL.Q)").ok
    assert session.execute("LAB FAIL CFSTRUCT(APP1)").ok
    result = session.execute("DISPLAY QSTATUS(*) CURDEPTH WHERE(QUEUE NL 'SYSTEM*')")
    lines = session.render(result).splitlines()
    assert not result.ok
    assert "CSQM091E -QM1 CSQMDRTC FAILURE MQRC=2373 (MQRC_CF_STRUC_FAILED)" in lines
    assert lines[-1] == "CSQ9023E -QM1 CSQMDRTC ' DISPLAY QSTATUS' ABNORMAL COMPLETION"
    assert not any("SQ1" in line for line in lines)  # no depth shown for it
    assert any("LOCAL.Q" in line for line in lines)  # the member's own queues still answer
    assert session.execute("RECOVER CFSTRUCT(APP1)").ok
    assert "CURDEPTH(5)" in session.render(session.execute("DISPLAY QSTATUS(SQ1) CURDEPTH"))
