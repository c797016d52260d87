"""CMDSCOPE: commands run on another member, or on every active member, with the replies in z/OS's form."""

from __future__ import annotations

from tests.commands.conftest import run


def test_cmdscope_star_collects_every_active_members_reply(group):
    group.current_qmgr = "QM2"
    group.execute("DEFINE QLOCAL(ONLY.ON.QM2) DESCR('two')")
    group.current_qmgr = "QM1"
    lines = run(group, "DISPLAY QLOCAL(ONLY*) CMDSCOPE(*) DESCR")
    assert lines == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000004",
        "CSQN137I -QM1 'DISPLAY QLOCAL' command accepted for CMDSCOPE(*), sent to 2",
        "CSQN205I   COUNT=       4, RETURN=00000000, REASON=00000000",
        "CSQN121I -QM1 'DISPLAY QLOCAL' command responses from QM1",
        "CSQM297I -QM1 CSQMDRTS NO QLOCAL FOUND MATCHING REQUEST CRITERIA",
        "CSQ9022I -QM1 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION",
        "CSQN205I   COUNT=       5, RETURN=00000000, REASON=00000000",  # a display record is one message
        "CSQN121I -QM1 'DISPLAY QLOCAL' command responses from QM2",
        "CSQM293I -QM2 CSQMDRTS 1 QLOCAL FOUND MATCHING REQUEST CRITERIA",
        "CSQM201I -QM2 CSQMDRTS  DISPLAY QLOCAL DETAILS",
        "QUEUE(ONLY.ON.QM2)",
        "TYPE(QLOCAL)",
        "QSGDISP(QMGR)",
        "DESCR(two)",
        "END QLOCAL DETAILS",
        "CSQ9022I -QM2 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION",
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQN122I -QM1 'DISPLAY QLOCAL' command for CMDSCOPE(*) normal completion",
    ]


def test_cmdscope_names_one_member_and_its_failures_are_in_z_os_words(group):
    assert group.execute("DEFINE QLOCAL(THERE) CMDSCOPE(QM2)").ok
    assert run(group, "DISPLAY QLOCAL(THERE)")[1] == "CSQM094I -QM1 CSQMDRTS QLOCAL(THERE) WAS NOT FOUND"
    result = group.execute("DEFINE QLOCAL(THERE) CMDSCOPE(QM2)")
    assert not result.ok
    assert group.render(result).splitlines()[3:6] == [
        "CSQN121I -QM1 'DEFINE QLOCAL' command responses from QM2",
        "CSQM095I -QM2 CSQMAQLC QLOCAL(THERE) QSGDISP(QMGR) ALREADY EXISTS",
        "CSQ9023E -QM2 CSQMAQLC ' DEFINE QLOCAL' ABNORMAL COMPLETION",
    ]
    lines = run(group, "DELETE QLOCAL(NOPE) CMDSCOPE(QM2)")
    assert "CSQM125I -QM2 CSQMMSGP QLOCAL(NOPE) QSGDISP(QMGR) WAS NOT FOUND" in lines
    assert lines[-1] == "CSQN123E -QM1 'DELETE QLOCAL' command for CMDSCOPE(QM2) abnormal completion"
    for name, scope in (("HERE.BLANK", "' '"), ("HERE.NAMED", "QM1")):  # here, as without CMDSCOPE
        assert run(group, f"DEFINE QLOCAL({name}) CMDSCOPE({scope})") == [
            "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
            "CSQ9022I -QM1 CSQMAQLC ' DEFINE QLOCAL' NORMAL COMPLETION",
        ]


def test_z_os_form_replies_keep_their_own_messages(group):
    lines = run(group, "DISPLAY CFSTRUCT(CSQSYSAPPL) CMDSCOPE(QM2) CFLEVEL")
    assert lines[2:6] == [
        "CSQN205I   COUNT=       4, RETURN=00000000, REASON=00000000",
        "CSQN121I -QM1 'DISPLAY CFSTRUCT' command responses from QM2",
        "CSQM201I -QM2 CSQMDRTS  DISPLAY CFSTRUCT DETAILS",
        "CFSTRUCT(CSQSYSAPPL)",
    ]


def test_what_cmdscope_refuses(group):
    assert group.execute("endmqm QM2").ok
    for command, message in [
        ("DEFINE QLOCAL(A) QSGDISP(GROUP) CMDSCOPE(*)", "CSQM092I -QM1 CSQMMSGP CMDSCOPE(*) VALUE INVALID"),
        ("DEFINE QLOCAL(A) CMDSCOPE(QM7)", "CSQM092I -QM1 CSQMMSGP CMDSCOPE(QM7) VALUE INVALID"),
    ]:
        result = group.execute(command)
        assert not result.ok and group.render(result).splitlines()[1] == message
    result = group.execute("DISPLAY QLOCAL(*) CMDSCOPE(QM2)")  # a member, but not active
    assert not result.ok
    assert group.render(result).splitlines() == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000004",
        "CSQN137I -QM1 'DISPLAY QLOCAL' command accepted for CMDSCOPE(QM2), sent to 0",
        "CSQN205I   COUNT=       2, RETURN=00000008, REASON=00000000",
        "CSQN123E -QM1 'DISPLAY QLOCAL' command for CMDSCOPE(QM2) abnormal completion",
    ]


def test_cmdscope_outside_a_group_is_refused(lone):
    result = lone.execute("DISPLAY QLOCAL(*) CMDSCOPE(*)")
    assert not result.ok
    assert (
        lone.render(result).splitlines()[1]
        == "CSQM150I -QM9 CSQMMSGP QUEUE MANAGER NOT IN A QUEUE SHARING GROUP"
    )
