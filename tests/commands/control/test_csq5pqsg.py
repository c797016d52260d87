"""csq5pqsg: groups and members as z/OS's CSQ5PQSG keeps them, and what a member's start and dspmq see."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mqsh.model.qsg.repository import SharedRepository, repository_path
from mqsh.shell.session import Session
from tests.support import REPO, run_mqsh


def run(session: Session, command: str) -> tuple[list[str], int]:
    result = session.execute(command)
    return session.render(result).splitlines(), result.code


@pytest.fixture
def lab(data_dir):
    """QM1 and QM2 created and ended, and group QSGA."""
    session = Session(data_dir)
    for command in ("crtmqm QM1", "crtmqm QM2", "csq5pqsg ADD QSG QSGA"):
        assert session.execute(command).ok
    yield session
    session.close()


def test_a_group_and_its_members_in_either_form(lab):
    lines, code = run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")
    assert code == 0
    assert lines == [
        "CSQU501I ADD QMGR function requested",
        "CSQU504I Queue manager QM1 added to queue sharing group QSGA as member number 1",
        "CSQU502I ADD QMGR function completed, return code=0",
    ]
    assert run(lab, "csq5pqsg 'ADD QMGR QM2 QSGA'")[1] == 0
    lines, code = run(lab, "csq5pqsg VERIFY QSG,QSGA,DSNG,DB2A")  # z/OS's Db2 names may follow
    assert code == 0 and "CSQU507I Queue sharing group QSGA: 2 member(s): QM1(1), QM2(2)" in lines
    assert "CSQU509I No inconsistencies found" in lines
    lines, _code = run(lab, "dspmq")
    assert lines[0].endswith("STATUS(Ended normally) QSGNAME(QSGA)")
    assert lines[1].endswith("STATUS(Ended normally) QSGNAME(QSGA)")


@pytest.mark.parametrize(
    "command, words",
    [
        ("csq5pqsg ADD QSG QSGA", "Queue sharing group QSGA already exists"),
        ("csq5pqsg ADD QSG QM1", "is the name of a queue manager"),
        ("csq5pqsg ADD QSG TOOLONG", "is not valid: a name is 1 to 4 characters"),
        ("csq5pqsg ADD QSG 1ABC", "is not valid"),
        ("csq5pqsg ADD QMGR,NOPE,QSGA", "Queue manager NOPE does not exist"),
        ("csq5pqsg ADD QMGR,QM1,QSGB", "Queue sharing group QSGB does not exist"),
        ("csq5pqsg REMOVE QMGR,QM1,QSGA", "Queue manager QM1 is not a member of queue sharing group QSGA"),
        ("csq5pqsg FORCE QMGR,QM1,QSGA", "CSQU503E PARM is not valid"),
        ("csq5pqsg ADD QMGR", "CSQU503E PARM is not valid"),
    ],
)
def test_what_the_rules_refuse_is_return_code_8_with_the_reason(lab, command, words):
    lines, code = run(lab, command)
    assert code == 8 and any(words in line for line in lines), lines
    assert lines[-1].endswith("completed, return code=8")


def test_a_queue_manager_is_in_one_group_and_joins_only_when_ended(lab):
    assert run(lab, "csq5pqsg ADD QSG QSGB")[1] == 0
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 0
    lines, code = run(lab, "csq5pqsg ADD QMGR,QM1,QSGB")
    assert code == 8 and "CSQU505E Queue manager QM1 is already a member of queue sharing group QSGA" in lines
    assert lab.execute("strmqm QM2").ok
    lines, code = run(lab, "csq5pqsg ADD QMGR,QM2,QSGB")
    assert code == 8 and any("is running: end it first" in line for line in lines)


def test_a_member_leaves_only_after_a_normal_end(lab):
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 0
    assert lab.execute("strmqm QM1").ok
    lines, code = run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")
    assert code == 8 and any("is running: end it normally first" in line for line in lines)
    lab.execute("LAB CRASH QMGR(QM1)")
    lines, code = run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")
    assert code == 8 and any(
        "did not end normally: its units of work are unresolved" in line for line in lines
    )
    assert lab.execute("strmqm QM1").ok and lab.execute("endmqm QM1").ok
    assert run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")[1] == 0
    assert "QSGNAME" not in run(lab, "dspmq")[0][0]


@pytest.mark.parametrize("queue, shared", [("SQ", True), ("LQ", False)])
def test_a_member_that_ended_preemptively_or_immediately_with_work_in_flight_does_not_leave(
    lab, queue, shared
):
    """endmqm -p ends it as a failure would; endmqm -i leaves its units in flight for its next start:
    either way its units of work are unresolved, as after LAB CRASH."""
    for command in (
        "csq5pqsg ADD QMGR,QM1,QSGA",
        "strmqm QM1",
        "LAB USE QMGR(QM1)",
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)",
        "DEFINE QLOCAL(SQ) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "DEFINE QLOCAL(LQ) DEFPSIST(YES)",
        f"LAB PUT QUEUE({queue}) COUNT(2) SYNCPOINT",
        "endmqm -p QM1",
    ):
        assert lab.execute(command).ok, command
    assert "Ended preemptively" in run(lab, "dspmq -m QM1")[0][0]
    lines, code = run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")
    assert code == 8 and any(
        "did not end normally: its units of work are unresolved" in line for line in lines
    )
    assert lab.execute("strmqm QM1").ok
    # The application whose unit ended with the queue manager is told first that its connection broke.
    assert lab.render(lab.execute(f"LAB PUT QUEUE({queue}) SYNCPOINT")).find("2009") >= 0
    for command in (f"LAB PUT QUEUE({queue}) COUNT(2) SYNCPOINT", "endmqm -i QM1"):
        assert lab.execute(command).ok, command
    lines, code = run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")
    assert code == 8 and any(
        "did not end normally: its units of work are unresolved" in line for line in lines
    )
    # Its next start backs the units out; an immediate end with none in flight leaves nothing unresolved.
    assert lab.execute("strmqm QM1").ok and lab.execute("endmqm -i QM1").ok
    assert run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")[1] == 0


def test_a_group_goes_only_when_empty_and_its_name_is_then_free(lab):
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 0
    lines, code = run(lab, "csq5pqsg REMOVE QSG,QSGA")
    assert code == 8 and any("still has members: QM1" in line for line in lines)
    lines, code = run(lab, "crtmqm QSGA")
    assert code == 72 and "is the name of a queue sharing group" in lines[0]
    lines, code = run(lab, "dltmqm QM1")
    assert code != 0 and "csq5pqsg REMOVE QMGR,QM1,QSGA" in lines[0]
    assert run(lab, "csq5pqsg REMOVE QMGR,QM1,QSGA")[1] == 0
    assert run(lab, "csq5pqsg REMOVE QSG,QSGA")[1] == 0
    assert not repository_path(lab.installation.data_dir, "QSGA").exists()
    assert lab.execute("crtmqm QSGA").ok
    assert lab.execute("dltmqm QM1").ok


def test_verify_names_what_disagrees(lab):
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 0
    qm_ini = lab.installation.paths("QM1").qm_ini
    qm_ini.write_text(qm_ini.read_text().replace("QueueSharingGroup:\n   Name=QSGA\n", ""))
    lines, code = run(lab, "csq5pqsg VERIFY QSG,QSGA")
    assert code == 4
    assert (
        "CSQU508E Queue manager QM1 is a member (number 1) but its qm.ini names no queue sharing group"
        in lines
    )
    assert "CSQU509I 1 inconsistencies found" in lines


def test_a_member_does_not_start_without_its_repository_or_its_entry(lab):
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 0
    path = repository_path(lab.installation.data_dir, "QSGA")
    saved = path.read_bytes()
    path.write_bytes(b"garbage" * 100)
    lines, code = run(lab, "strmqm QM1")
    assert code != 0 and lines[1].startswith(
        "CSQ5003A: Connection to Db2 for queue sharing group QSGA is not "
        "possible (MQRC 2342, MQRC_DB2_NOT_AVAILABLE)"
    )
    assert "is damaged" in lines[1] and str(path) in lines[1]
    path.unlink()
    lines, code = run(lab, "strmqm QM1")
    assert code != 0 and "is missing" in lines[1]
    lines, code = run(
        lab, "csq5pqsg VERIFY QSG,QSGA"
    )  # a group a member names, with no file: lost, not unknown
    assert code == 8 and any("CSQU506E Db2 not available (MQRC 2342" in line for line in lines)
    path.write_bytes(saved)
    with SharedRepository(lab.installation.data_dir, "QSGA") as repository:
        repository.remove_member("QM1")
    lines, code = run(lab, "strmqm QM1")
    assert code != 0 and lines[1].startswith(
        "CSQ5004E: Db2 table entry for queue manager in queue sharing group QSGA is missing or incorrect"
    )
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 8  # its qm.ini still names the group
    assert run(lab, "strmqm QM2")[1] == 0  # not a member: nothing to check


def test_members_added_by_processes_at_once_get_different_numbers(data_dir):
    names = [f"QM{index}" for index in range(6)]
    for command in [f"crtmqm {name}" for name in names] + ["csq5pqsg ADD QSG QSGA"]:
        assert run_mqsh(*command.split(), data_dir=data_dir).returncode == 0
    env = dict(os.environ, MQSH_DATA_DIR=str(data_dir))
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "mqsh", "csq5pqsg", f"ADD QMGR,{name},QSGA"],
            env=env,
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in names
    ]
    outputs = [child.communicate(timeout=120)[0] for child in children]
    assert [child.returncode for child in children] == [0] * len(names), outputs
    with SharedRepository(data_dir, "QSGA") as repository:
        members = repository.members()
    assert sorted(member.number for member in members) == list(range(1, 7))
    assert sorted(member.qmgr for member in members) == names


def test_a_failed_member_is_not_restarted_by_connecting_without_its_repository(lab):
    assert run(lab, "csq5pqsg ADD QMGR,QM1,QSGA")[1] == 0
    assert run(lab, "strmqm QM1")[1] == 0
    lab.installation.held.pop("QM1").crash()  # its process killed: still recorded as running
    path = repository_path(lab.installation.data_dir, "QSGA")
    saved = path.read_bytes()
    path.unlink()
    lab.current_qmgr = "QM1"
    result = lab.execute("DISPLAY QMGR")
    assert not result.ok and result.code != 0
    assert lab.render(result).startswith("CSQ5003A: Connection to Db2 for queue sharing group QSGA")
    assert "QM1" not in lab.installation.held
    path.write_bytes(saved)
    assert lab.execute("DISPLAY QMGR").ok  # the repository back: the member recovers and runs
