"""The names the session offers for completion: a status display's are those of what it shows."""

from __future__ import annotations


def test_status_displays_complete_the_names_of_what_they_show(session):
    session.execute("DEFINE QLOCAL(APP.Q1)")
    session.execute("DEFINE LISTENER(APP.L1) TRPTYPE(TCP)")
    session.execute("DEFINE SUB(APP.S1) TOPICSTR('a') DEST(APP.Q1)")
    assert "APP.Q1" in session.object_names("QSTATUS")
    assert "APP.L1" in session.object_names("LSSTATUS")
    assert session.object_names("SBSTATUS") == ["APP.S1"]
    assert session.object_names("QMSTATUS") == []


def test_a_connection_is_completed_once_the_application_has_connected(session):
    assert session.object_names("CONN") == []
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    connection = dict(session.execute("DISPLAY CONN(*)").responses[0].attributes)["CONN"]
    assert session.object_names("CONN") == [connection]


def test_group_objects_are_named_from_the_groups_repository(data_dir):
    from mqsh.shell.session import Session

    session = Session(data_dir)
    for command in ("crtmqm QM1", "crtmqm QM2", "csq5pqsg ADD QSG QSGA", "csq5pqsg ADD QMGR QM1 QSGA",
                    "csq5pqsg ADD QMGR QM2 QSGA", "strmqm QM1"):
        assert session.execute(command).ok
    session.current_qmgr = "QM1"
    session.execute("DEFINE CFSTRUCT(APP1)")
    assert session.object_names("CFSTRUCT") == ["APP1", "CSQSYSAPPL"]  # never CSQ_ADMIN
    assert session.object_names("SMDS") == ["QM1", "QM2"]
    session.close()


def test_the_next_command_is_parsed_while_the_log_is_forced_and_used_only_for_that_command(session):
    assert session.execute("DEFINE QLOCAL(P1)", following="DEFINE QLOCAL(P2) DESCR('second')").ok
    text, parse = session._prepared
    assert text == "DEFINE QLOCAL(P2) DESCR('second')"
    assert parse.result().params["DESCR"] == "second"  # parsed on the parser's thread
    assert session.execute("DEFINE QLOCAL(P2) DESCR('second')").ok
    assert session._prepared is None
    # A look that is not what runs next is dropped; a syntax error found ahead is reported in its turn.
    session.execute("DEFINE QLOCAL(P3)", following="DEFINE QLOCAL(P4) BADWORD")
    assert session.execute("DEFINE QLOCAL(P5)").ok
    result = session.execute("DEFINE QLOCAL(P6)", following="DISPLAY QLOCAL(P6) NOSUCH")
    assert result.ok and session.execute("DISPLAY QLOCAL(P6) NOSUCH").syntax_error


def test_nothing_is_parsed_ahead_where_no_log_force_follows(session):
    session.execute("DISPLAY QMGR", following="DEFINE QLOCAL(P7)")  # DISPLAY logs nothing
    assert session._prepared is None
