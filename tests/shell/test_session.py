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
    for command in (
        "crtmqm QM1",
        "crtmqm QM2",
        "csq5pqsg ADD QSG QSGA",
        "csq5pqsg ADD QMGR QM1 QSGA",
        "csq5pqsg ADD QMGR QM2 QSGA",
        "strmqm QM1",
    ):
        assert session.execute(command).ok
    session.current_qmgr = "QM1"
    session.execute("DEFINE CFSTRUCT(APP1)")
    assert session.object_names("CFSTRUCT") == ["APP1", "CSQSYSAPPL"]  # never CSQ_ADMIN
    assert session.object_names("SMDS") == ["QM1", "QM2"]
    session.close()


def test_a_members_usage_text_lists_the_queue_sharing_groups_keywords(group):
    """AMQ8427I's usage of DISPLAY QLOCAL on a member of a queue-sharing group lists QSGDISP,
    CFSTRUCT and CMDSCOPE, which a member takes; outside a group they stay out of it."""

    def usage(session) -> str:
        result = session.execute("DISPLAY QLOCAL(Q1) NOSUCH")
        assert result.syntax_error
        return session.render(result)

    member = usage(group)
    assert "AMQ8427I" in member and all(name in member for name in ("QSGDISP", "CFSTRUCT", "CMDSCOPE"))
    for command in ("crtmqm QM3", "strmqm QM3"):
        assert group.execute(command).ok
    group.current_qmgr = "QM3"
    alone = usage(group)
    assert "AMQ8427I" in alone and not any(name in alone for name in ("QSGDISP", "CFSTRUCT", "CMDSCOPE"))
