"""QSGDISP(GROUP|COPY) on DEFINE / ALTER / DELETE and QSGDISP on DISPLAY: the group's definitions and members' copies."""

from __future__ import annotations

import json

from mqsh.model.qsg.repository import SharedRepository
from mqsh.shell.session import Session
from tests.commands.conftest import run
from tests.support import run_mqsh


def shown(session: Session, command: str) -> str:
    """A command's response as one text, to look for attributes in whichever column they are."""
    return " ".join(run(session, command))


def dispositions(session: Session, command: str) -> list[tuple[str, str]]:
    """(name, QSGDISP) of each record a runmqsc-form DISPLAY shows."""
    result = session.execute(command)
    return [
        (dict(record.attributes)["QUEUE"], dict(record.attributes)["QSGDISP"])
        for record in result.responses
        if hasattr(record, "attributes")
    ]


def test_a_group_object_is_stored_once_and_copied_to_every_active_member(group):
    assert run(group, "DEFINE QLOCAL(ORDERS) QSGDISP(GROUP) MAXDEPTH(7) DESCR('orders')") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000004",
        "CSQN138I -QM1 'DEFINE QLOCAL' command generated for CMDSCOPE(*), sent to 2",
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "CSQN121I -QM1 'DEFINE QLOCAL' command responses from QM1",
        "CSQ9022I -QM1 CSQMMSGP ' DEFINE QLOCAL' NORMAL COMPLETION",
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "CSQN121I -QM1 'DEFINE QLOCAL' command responses from QM2",
        "CSQ9022I -QM2 CSQMMSGP ' DEFINE QLOCAL' NORMAL COMPLETION",
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQN122I -QM1 'DEFINE QLOCAL' command for CMDSCOPE(*) normal completion",
    ]
    with SharedRepository(group.installation.data_dir, "QSGA") as repository:
        rows = repository.db.execute("SELECT object_type, name, attributes FROM group_object").fetchall()
    assert [(kind, name) for kind, name, _ in rows] == [("QLOCAL", "ORDERS")]
    assert json.loads(rows[0][2])["MAXDEPTH"] == 7
    for member in ("QM1", "QM2"):
        group.current_qmgr = member
        assert run(group, "DISPLAY QLOCAL(ORDERS) MAXDEPTH DESCR") == [  # a member answers in z/OS's form
            "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
            f"CSQM201I -{member} CSQMDRTS  DISPLAY QLOCAL DETAILS",
            "QUEUE(ORDERS)",
            "TYPE(QLOCAL)",
            "QSGDISP(COPY)",
            "DESCR(orders)",
            "MAXDEPTH(7)",
            "END QLOCAL DETAILS",
            f"CSQ9022I -{member} CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION",
        ]


def test_the_dispositions_of_display(group):
    group.execute("DEFINE QLOCAL(G.Q) QSGDISP(GROUP)")
    group.execute("DEFINE QLOCAL(L.Q)")
    with SharedRepository(group.installation.data_dir, "QSGA") as repository, repository.transaction() as db:
        db.execute(
            "INSERT INTO shared_queue (name, cfstruct, attributes, altered) VALUES "
            "('S.Q', 'CSQSYSAPPL', '{\"DESCR\": \"shared one\"}', '2024-01-01')"
        )
    shown = {
        disposition: dispositions(group, f"DISPLAY QUEUE(*) QSGDISP({disposition}) WHERE(QUEUE NL 'SYSTEM*')")
        for disposition in ("LIVE", "ALL", "PRIVATE", "QMGR", "COPY", "GROUP", "SHARED")
    }
    assert shown == {
        "LIVE": [("G.Q", "COPY"), ("L.Q", "QMGR"), ("S.Q", "SHARED")],
        "ALL": [("G.Q", "COPY"), ("G.Q", "GROUP"), ("L.Q", "QMGR"), ("S.Q", "SHARED")],
        "PRIVATE": [("G.Q", "COPY"), ("L.Q", "QMGR")],
        "QMGR": [("L.Q", "QMGR")],
        "COPY": [("G.Q", "COPY")],
        "GROUP": [("G.Q", "GROUP")],
        "SHARED": [("S.Q", "SHARED")],
    }
    assert (
        dispositions(group, "DISPLAY QLOCAL(*) WHERE(QUEUE NL 'SYSTEM*')") == shown["LIVE"]
    )  # LIVE by default
    lines = run(group, "DISPLAY QLOCAL(S.Q) DESCR")
    assert lines[2:6] == ["QUEUE(S.Q)", "TYPE(QLOCAL)", "QSGDISP(SHARED)", "CFSTRUCT(CSQSYSAPPL)"]
    assert "DESCR(shared one)" in lines


def test_copies_and_the_queue_managers_own_objects_are_kept_apart(group):
    group.execute("DEFINE PROCESS(P1) QSGDISP(GROUP) APPLICID('group')")
    assert (
        run(group, "ALTER PROCESS(P1) APPLICID('own')")[1]
        == "CSQM125I -QM1 CSQMMSGP PROCESS(P1) QSGDISP(QMGR) WAS NOT FOUND"
    )
    assert (
        run(group, "DELETE PROCESS(P1)")[1]
        == "CSQM125I -QM1 CSQMMSGP PROCESS(P1) QSGDISP(QMGR) WAS NOT FOUND"
    )
    assert (
        run(group, "DEFINE PROCESS(P1) REPLACE")[1]
        == "CSQM095I -QM1 CSQMMSGP PROCESS(P1) QSGDISP(COPY) ALREADY EXISTS"
    )
    assert (
        run(group, "ALTER PROCESS(P1) QSGDISP(COPY) APPLICID('this copy')")[-1]
        == "CSQ9022I -QM1 CSQMMSGP ' ALTER PROCESS' NORMAL COMPLETION"
    )
    assert "APPLICID(this copy)" in shown(group, "DISPLAY PROCESS(P1)")
    group.current_qmgr = "QM2"
    assert "APPLICID(group)" in shown(group, "DISPLAY PROCESS(P1)")  # the other member's copy is its own
    group.execute("DEFINE NAMELIST(N1) NAMES(A, B)")
    lines = run(group, "DEFINE NAMELIST(N1) QSGDISP(GROUP) NAMES(C)")
    assert (
        "CSQM095I -QM2 CSQMMSGP NAMELIST(N1) QSGDISP(QMGR) ALREADY EXISTS" in lines
    )  # the generated one, here
    assert lines[-1] == "CSQN123E -QM2 'DEFINE NAMELIST' command for CMDSCOPE(*) abnormal completion"
    assert "NAMES(A" in shown(group, "DISPLAY NAMELIST(N1)")  # the QMGR object stays as it was


def test_alter_group_refreshes_the_copies_and_delete_group_removes_them(group):
    group.execute("DEFINE CHANNEL(TO.HUB) CHLTYPE(SDR) CONNAME('hub(1414)') XMITQ(HUB) QSGDISP(GROUP)")
    lines = run(group, "ALTER CHANNEL(TO.HUB) CHLTYPE(SDR) QSGDISP(GROUP) DESCR('altered')")
    assert lines[1] == "CSQN138I -QM1 'ALTER CHANNEL' command generated for CMDSCOPE(*), sent to 2"
    group.current_qmgr = "QM2"
    assert "DESCR(altered)" in shown(group, "DISPLAY CHANNEL(TO.HUB)")
    lines = run(group, "DELETE CHANNEL(TO.HUB) QSGDISP(GROUP)")
    assert lines[1] == "CSQN138I -QM2 'DELETE CHANNEL' command generated for CMDSCOPE(*), sent to 2"
    assert lines[-1].endswith("normal completion")
    for member in ("QM1", "QM2"):
        group.current_qmgr = member
        assert (
            run(group, "DISPLAY CHANNEL(TO.HUB) QSGDISP(ALL)")[1]
            == f"CSQM094I -{member} CSQMDRTS CHANNEL(TO.HUB) WAS NOT FOUND"
        )


def test_a_copy_holding_messages_stays_but_the_group_object_goes(group):
    group.execute("DEFINE QLOCAL(WORK) QSGDISP(GROUP)")
    group.current_qmgr = "QM2"
    assert group.execute("LAB PUT QUEUE(WORK)").ok
    group.current_qmgr = "QM1"
    lines = run(group, "DELETE QLOCAL(WORK) QSGDISP(GROUP)")
    assert "CSQM101I -QM2 CSQMMSGP QLOCAL(WORK) IS CURRENTLY IN USE" in lines
    assert lines[-1] == "CSQN123E -QM1 'DELETE QLOCAL' command for CMDSCOPE(*) abnormal completion"
    assert (
        dispositions(group, "DISPLAY QLOCAL(WORK) QSGDISP(ALL)") == []
    )  # gone here, and from the repository
    group.current_qmgr = "QM2"
    assert dispositions(group, "DISPLAY QLOCAL(WORK) QSGDISP(ALL)") == [("WORK", "COPY")]
    assert run(group, "DELETE QLOCAL(WORK) QSGDISP(COPY) PURGE")[-1].endswith("NORMAL COMPLETION")


def test_a_member_ended_during_the_define_gets_its_copy_when_it_starts(group):
    assert group.execute("endmqm QM2").ok
    lines = run(group, "DEFINE QALIAS(ALIAS.A) TARGET(ORDERS) QSGDISP(GROUP)")
    assert lines[1] == "CSQN138I -QM1 'DEFINE QALIAS' command generated for CMDSCOPE(*), sent to 1"
    group.execute("DELETE QLOCAL(NOT.THERE) QSGDISP(GROUP)")
    assert group.execute("strmqm QM2").ok
    group.current_qmgr = "QM2"
    assert dispositions(group, "DISPLAY QUEUE(ALIAS.A)") == [("ALIAS.A", "COPY")]


def test_define_copy_takes_the_group_object_as_its_model(group):
    group.execute("DEFINE QLOCAL(MODEL.Q) QSGDISP(GROUP) MAXDEPTH(11)")
    assert run(group, "DEFINE QLOCAL(MODEL.Q) QSGDISP(COPY)") == [
        "CSQN205I   COUNT=       3, RETURN=00000008, REASON=00000000",
        "CSQM095I -QM1 CSQMMSGP QLOCAL(MODEL.Q) QSGDISP(COPY) ALREADY EXISTS",
        "CSQ9023E -QM1 CSQMMSGP ' DEFINE QLOCAL' ABNORMAL COMPLETION",
    ]
    assert run(group, "DELETE QLOCAL(MODEL.Q) QSGDISP(COPY)")[-1].endswith("NORMAL COMPLETION")
    assert run(group, "DEFINE QLOCAL(MODEL.Q) QSGDISP(COPY) DESCR('mine')")[-1].endswith("NORMAL COMPLETION")
    text = shown(group, "DISPLAY QLOCAL(MODEL.Q) MAXDEPTH DESCR")
    assert "QSGDISP(COPY)" in text and "MAXDEPTH(11)" in text and "DESCR(mine)" in text
    assert (
        run(group, "DEFINE QLOCAL(NONE.Q) QSGDISP(COPY)")[1]
        == "CSQM125I -QM1 CSQMMSGP QLOCAL(NONE.Q) QSGDISP(GROUP) WAS NOT FOUND"
    )


def test_what_is_not_there_is_named_with_its_disposition(group):
    for command, message in [
        (
            "ALTER QLOCAL(NOPE) QSGDISP(GROUP) DESCR('x')",
            "CSQM125I -QM1 CSQMMSGP QLOCAL(NOPE) QSGDISP(GROUP) WAS NOT FOUND",
        ),
        (
            "DELETE TOPIC(NOPE) QSGDISP(COPY)",
            "CSQM125I -QM1 CSQMMSGP TOPIC(NOPE) QSGDISP(COPY) WAS NOT FOUND",
        ),
        (
            "DEFINE QLOCAL(Q2) QSGDISP(GROUP) LIKE(NOPE)",
            "CSQM125I -QM1 CSQMMSGP QLOCAL(NOPE) QSGDISP(GROUP) WAS NOT FOUND",
        ),
    ]:
        result = group.execute(command)
        assert not result.ok and group.render(result).splitlines()[1] == message


def test_outside_a_group_group_and_copy_are_refused(lone):
    for command in ("DEFINE QLOCAL(A) QSGDISP(GROUP)", "DELETE QLOCAL(A) QSGDISP(COPY)"):
        result = lone.execute(command)
        assert not result.ok
        assert (
            lone.render(result).splitlines()[1]
            == "CSQM150I -QM9 CSQMMSGP QUEUE MANAGER NOT IN A QUEUE SHARING GROUP"
        )
    assert lone.execute("DEFINE QLOCAL(A) QSGDISP(QMGR)").ok
    assert "QSGDISP" not in lone.render(lone.execute("DISPLAY QLOCAL(A)"))  # not a member: no disposition


def test_a_member_held_by_another_process_catches_up_before_its_next_command(data_dir):
    """QM2 is held by this process while another mqsh defines the group object on QM1."""
    session = Session(data_dir)
    for command in (
        "crtmqm QM1",
        "crtmqm QM2",
        "csq5pqsg ADD QSG QSGA",
        "csq5pqsg ADD QMGR QM1 QSGA",
        "csq5pqsg ADD QMGR QM2 QSGA",
        "strmqm QM1",
        "strmqm QM2",
    ):
        assert session.execute(command).ok, command
    session.installation.end("QM1")
    assert session.execute("strmqm QM1").ok
    session.installation.held.pop("QM1").shutdown()  # running, held by no process: the child takes it over
    session.current_qmgr = "QM2"
    assert session.execute("DISPLAY QMGR").ok  # QM2 held here, its copies as they are
    script = "DEFINE QLOCAL(FROM.CHILD) QSGDISP(GROUP)\nDELETE QLOCAL(NOT.A.COPY) QSGDISP(COPY)\n"
    done = run_mqsh("QM1", stdin=script, data_dir=data_dir)
    assert "CSQN138I -QM1 'DEFINE QLOCAL' command generated for CMDSCOPE(*), sent to 1" in done.stdout
    assert "CSQM125I -QM1 CSQMMSGP QLOCAL(NOT.A.COPY) QSGDISP(COPY) WAS NOT FOUND" in done.stdout
    assert done.stdout.splitlines()[-3:] == [
        "2 MQSC commands read.",
        "No commands have a syntax error.",
        "One valid MQSC command could not be processed.",
    ]
    assert done.returncode == 10
    assert dispositions(session, "DISPLAY QLOCAL(FROM.CHILD)") == [("FROM.CHILD", "COPY")]
    session.close()


def test_define_replace_of_a_group_object_resets_what_it_does_not_state_on_every_copy(group):
    group.execute("DEFINE PROCESS(P1) QSGDISP(GROUP) APPLICID('group') DESCR('a')")
    assert (
        run(group, "DEFINE PROCESS(P1) QSGDISP(GROUP) DESCR('b') REPLACE")[-1]
        == "CSQN122I -QM1 'DEFINE PROCESS' command for CMDSCOPE(*) normal completion"
    )
    for member in ("QM1", "QM2"):
        group.current_qmgr = member
        text = shown(group, "DISPLAY PROCESS(P1) APPLICID DESCR")
        assert "DESCR(b)" in text and "APPLICID( )" in text, member


def test_a_group_object_defined_without_like_is_like_the_default_object_of_the_member_that_defines_it(group):
    """Unstated attributes come from "the default definition ... on the queue manager" (the LIKE
    object's disposition is not copied): the group object and every member's copy have them."""
    assert group.execute("ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(100)").ok
    assert group.execute("DEFINE QLOCAL(ORDERS) QSGDISP(GROUP)").ok
    group.current_qmgr = "QM2"
    assert "MAXDEPTH(100)" in shown(group, "DISPLAY QLOCAL(ORDERS) MAXDEPTH")
    assert "QSGDISP(COPY)" in shown(group, "DISPLAY QLOCAL(ORDERS) MAXDEPTH")
    assert group.execute("DELETE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)").ok
    assert (
        run(group, "DEFINE QLOCAL(MORE) QSGDISP(GROUP)")[1]
        == "CSQM125I -QM2 CSQMMSGP QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) QSGDISP(QMGR) WAS NOT FOUND"
    )
