"""A queue-sharing group member answers every MQSC command in z/OS's form; a queue manager outside a group in runmqsc's."""

from __future__ import annotations

from tests.commands.conftest import run


def test_a_members_display_of_one_queue_is_one_csqm201i_message(group):
    assert group.execute("DEFINE QLOCAL(ORDERS) DESCR('orders') MAXDEPTH(9)").ok
    assert run(group, "DISPLAY QLOCAL(ORDERS) DESCR MAXDEPTH") == [
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",  # itself, the record, the completion
        "CSQM201I -QM1 CSQMDRTS  DISPLAY QLOCAL DETAILS",
        "QUEUE(ORDERS)",
        "TYPE(QLOCAL)",
        "QSGDISP(QMGR)",
        "DESCR(orders)",
        "MAXDEPTH(9)",
        "END QLOCAL DETAILS",
        "CSQ9022I -QM1 CSQMDRTS ' DISPLAY QLOCAL' NORMAL COMPLETION",
    ]
    # CMDSCOPE naming the member itself runs the command there, as without CMDSCOPE.
    assert run(group, "DISPLAY QLOCAL(ORDERS) DESCR MAXDEPTH CMDSCOPE(QM1)") == run(
        group, "DISPLAY QLOCAL(ORDERS) DESCR MAXDEPTH"
    )


def test_a_generic_name_counts_what_it_found_and_the_count_counts_every_message(group):
    for name in ("A.ONE", "A.TWO"):
        assert group.execute(f"DEFINE QLOCAL({name})").ok
    lines = run(group, "DISPLAY QUEUE(A.*) CURDEPTH")
    assert lines[:3] == [
        "CSQN205I   COUNT=       5, RETURN=00000000, REASON=00000000",
        "CSQM293I -QM1 CSQMDRTS 2 QUEUE FOUND MATCHING REQUEST CRITERIA",
        "CSQM201I -QM1 CSQMDRTS  DISPLAY QUEUE DETAILS",
    ]
    assert [line for line in lines if line.startswith("END ")] == ["END QUEUE DETAILS"] * 2


def test_nothing_matching_completes_normally_and_a_missing_object_abnormally(group):
    result = group.execute("DISPLAY CHANNEL(NONE.*)")
    assert result.ok
    assert group.render(result).splitlines() == [
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "CSQM297I -QM1 CSQMDRTS NO CHANNEL FOUND MATCHING REQUEST CRITERIA",
        "CSQ9022I -QM1 CSQMDRTS ' DISPLAY CHANNEL' NORMAL COMPLETION",
    ]
    assert (
        run(group, "DISPLAY QLOCAL(*) WHERE(MAXDEPTH EQ 1)")[1]
        == "CSQM297I -QM1 CSQMDRTS NO QLOCAL FOUND MATCHING REQUEST CRITERIA"
    )
    result = group.execute("DISPLAY NAMELIST(NOT.THERE)")
    assert not result.ok
    assert group.render(result).splitlines() == [
        "CSQN205I   COUNT=       3, RETURN=00000008, REASON=00000000",
        "CSQM094I -QM1 CSQMDRTS NAMELIST(NOT.THERE) WAS NOT FOUND",
        "CSQ9023E -QM1 CSQMDRTS ' DISPLAY NAMELIST' ABNORMAL COMPLETION",
    ]


def test_the_title_and_the_completion_name_the_command_as_it_was_typed(group):
    """z/OS echoes the verb and object type as entered, in capitals (DIS CLUSQMGR, DEFINE QL); the
    closing line names the object type itself."""
    assert group.execute("DEFINE QL(ORDERS) DESCR('orders')").ok
    assert run(group, "dis ql(ORDERS) DESCR") == [
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "CSQM201I -QM1 CSQMDRTS  DIS QL DETAILS",
        "QUEUE(ORDERS)",
        "TYPE(QLOCAL)",
        "QSGDISP(QMGR)",
        "DESCR(orders)",
        "END QLOCAL DETAILS",
        "CSQ9022I -QM1 CSQMDRTS ' DIS QL' NORMAL COMPLETION",
    ]
    assert run(group, "Dis ChStatus(*)")[-1] == "CSQ9022I -QM1 CSQMDRTC ' DIS CHSTATUS' NORMAL COMPLETION"
    # As IBM's transcripts have them: DIS CLUSQMGR(*) ALL, and display chstatus(USER1.*) typed in lower case.
    assert run(group, "DIS CLUSQMGR(*) ALL")[-1] == "CSQ9022I -QM1 CSQMDRTC ' DIS CLUSQMGR' NORMAL COMPLETION"
    assert run(group, "display chstatus(USER1.*) mcauser")[-1] == (
        "CSQ9022I -QM1 CSQMDRTC ' DISPLAY CHSTATUS' NORMAL COMPLETION"
    )
    assert run(group, "DEF QL(MORE)") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMAQLC ' DEF QL' NORMAL COMPLETION",
    ]
    # The group's own commands too: a structure's display and a missing one.
    assert group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5)").ok
    lines = run(group, "DIS CFSTRUCT(APP1)")
    assert (lines[1], lines[-2], lines[-1]) == (
        "CSQM201I -QM1 CSQMDRTS  DIS CFSTRUCT DETAILS",
        "END CFSTRUCT DETAILS",
        "CSQ9022I -QM1 CSQMDRTS ' DIS CFSTRUCT' NORMAL COMPLETION",
    )


ZOS_LACKS = {"DISTL", "IMGRCOVQ", "MAXFSIZE", "SCOPE", "STATQ"}


def test_a_members_display_leaves_out_what_z_os_has_not(group):
    """IBM's DISPLAY QUEUE marks DISTL, IMGRCOVQ and STATQ not valid on z/OS, MAXFSIZE and SCOPE
    not on z/OS or IBM i: a member shows no such line, even when asked for one."""
    assert group.execute("DEFINE QLOCAL(ORDERS)").ok
    shown = {line.split("(")[0].split()[-1] for line in run(group, "DISPLAY QLOCAL(ORDERS) ALL")}
    assert not shown & ZOS_LACKS and {"MAXDEPTH", "QSGDISP", "DEFSOPT"} <= shown
    assert run(group, "DISPLAY QLOCAL(ORDERS) STATQ MAXDEPTH")[2:6] == [
        "QUEUE(ORDERS)",
        "TYPE(QLOCAL)",
        "QSGDISP(QMGR)",
        "MAXDEPTH(5000)",
    ]


def test_a_queue_manager_outside_any_group_shows_what_z_os_has_not(lone):
    assert lone.execute("DEFINE QLOCAL(ORDERS)").ok
    shown = " ".join(run(lone, "DISPLAY QLOCAL(ORDERS) ALL"))
    assert all(f"{name}(" in shown for name in ZOS_LACKS)


def test_status_displays_name_the_status_csect_and_the_queue_manager_has_no_count(group):
    assert run(group, "DISPLAY CHSTATUS(*)") == [
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "CSQM297I -QM1 CSQMDRTC NO CHSTATUS FOUND MATCHING REQUEST CRITERIA",
        "CSQ9022I -QM1 CSQMDRTC ' DISPLAY CHSTATUS' NORMAL COMPLETION",
    ]
    assert run(group, "DISPLAY QMGR QMNAME") == [
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "CSQM201I -QM1 CSQMDRTS  DISPLAY QMGR DETAILS",
        "QMNAME(QM1)",
        "END QMGR DETAILS",
        "CSQ9022I -QM1 CSQMDRTS ' DISPLAY QMGR' NORMAL COMPLETION",
    ]
    group.current_qmgr = "QM2"
    assert run(group, "DISPLAY QSTATUS(SYSTEM.DEFAULT.LOCAL.QUEUE) CURDEPTH")[1:5] == [
        "CSQM201I -QM2 CSQMDRTC  DISPLAY QSTATUS DETAILS",
        "QUEUE(SYSTEM.DEFAULT.LOCAL.QUEUE)",
        "TYPE(QUEUE)",
        "CURDEPTH(0)",
    ]


def test_a_damaged_object_is_said_in_the_members_frame(group):
    assert group.execute("DEFINE QLOCAL(HURT)").ok
    assert group.execute("LAB DAMAGE QUEUE(HURT) HOW(CORRUPT)").ok
    result = group.execute("DISPLAY QLOCAL(HURT)")
    lines = group.render(result).splitlines()
    assert not result.ok
    assert lines[0] == "CSQN205I   COUNT=       3, RETURN=00000008, REASON=00000000"
    assert lines[1].startswith("AMQ8") and " -QM1 CSQMDRTS " in lines[1]  # runmqsc's id: z/OS has none for it
    assert lines[-1] == "CSQ9023E -QM1 CSQMDRTS ' DISPLAY QLOCAL' ABNORMAL COMPLETION"


def test_a_members_other_commands_say_only_how_they_completed_when_they_worked(group):
    assert run(group, "DEFINE QLOCAL(WORK)") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMAQLC ' DEFINE QLOCAL' NORMAL COMPLETION",
    ]
    assert run(group, "ALTER QLOCAL(WORK) MAXDEPTH(10)") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMMSGP ' ALTER QLOCAL' NORMAL COMPLETION",
    ]
    result = group.execute("DEFINE QLOCAL(WORK)")
    assert not result.ok
    assert group.render(result).splitlines() == [
        "CSQN205I   COUNT=       3, RETURN=00000008, REASON=00000000",
        "CSQM095I -QM1 CSQMAQLC QLOCAL(WORK) QSGDISP(QMGR) ALREADY EXISTS",
        "CSQ9023E -QM1 CSQMAQLC ' DEFINE QLOCAL' ABNORMAL COMPLETION",
    ]
    assert (
        run(group, "DELETE QLOCAL(WORK)")[-1] == "CSQ9022I -QM1 CSQMMSGP ' DELETE QLOCAL' NORMAL COMPLETION"
    )
    assert (
        run(group, "DELETE QLOCAL(WORK)")[1]
        == "CSQM125I -QM1 CSQMMSGP QLOCAL(WORK) QSGDISP(QMGR) WAS NOT FOUND"
    )
    assert (
        run(group, "DEFINE QLOCAL(OTHER) LIKE(NO.SUCH.MODEL)")[1]
        == "CSQM125I -QM1 CSQMAQLC QLOCAL(NO.SUCH.MODEL) QSGDISP(QMGR) WAS NOT FOUND"
    )  # the object it is like
    # A message z/OS has no words of its own for keeps runmqsc's, in the frame.
    assert run(group, "PING QMGR") == [
        "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000",
        "AMQ8415I -QM1 CSQMMSGP Ping IBM MQ Queue Manager command complete.",
        "CSQ9022I -QM1 CSQMMSGP ' PING QMGR' NORMAL COMPLETION",
    ]


def test_a_queue_manager_outside_any_group_keeps_runmqsc_s_style(lone):
    assert run(lone, "DISPLAY QMGR QMNAME") == ["AMQ8408I: Display Queue Manager details.", "   QMNAME(QM9)"]
    assert run(lone, "DISPLAY CHANNEL(NONE.*)") == ["AMQ8147E: IBM MQ object NONE.* not found."]
    assert run(lone, "DEFINE QLOCAL(WORK)") == ["AMQ8006I: IBM MQ queue created."]
