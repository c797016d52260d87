"""The names the session offers for completion: a status display's are those of what it shows."""

from __future__ import annotations


def test_status_displays_complete_the_names_of_what_they_show(session):
    session.execute("DEFINE QLOCAL(APP.Q1)")
    session.execute("DEFINE LISTENER(APP.L1) TRPTYPE(TCP)")
    session.execute("DEFINE SUB(APP.S1) TOPICSTR('a') DEST(APP.Q1)")
    assert "APP.Q1" in session.object_names("QSTATUS")
    assert "APP.L1" in session.object_names("LSSTATUS")
    assert session.object_names("SBSTATUS") == ["APP.S1", "SYSTEM.DEFAULT.SUB"]
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


