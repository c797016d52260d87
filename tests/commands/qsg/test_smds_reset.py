"""RESET SMDS: a data set's shared availability and status, and what every member does about it."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import DataSet, data_set_path
from mqsh.model.qsg.repository import SharedRepository
from tests.commands.conftest import run

STRUCTURE = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"
BIG = "LAB PUT QUEUE(SQ1) SIZE(600000)"


@pytest.fixture
def sq(group):
    for command in (STRUCTURE, "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)", BIG):
        assert group.execute(command).ok, command
    return group


def state(data_dir, owner="QM1"):
    with SharedRepository(data_dir, "QSGA") as repository:
        return states.smds_state(repository, "APP1", owner)


def header(data_dir):
    data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=False)
    data_set.close()
    return data_set.header


def test_disabled_closes_it_normally_everywhere_and_enabled_brings_it_back(sq, data_dir):
    assert sq.execute(BIG).ok  # one message stays in QM1's data set: it is not EMPTY when closed
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok  # QM2 has QM1's data set open too
    assert sq.execute(BIG).ok
    sq.current_qmgr = "QM1"
    assert run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(DISABLED)") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMASMD ' RESET SMDS' NORMAL COMPLETION",
    ]
    assert (state(data_dir).access, state(data_dir).status) == ("DISABLED", "ACTIVE")
    assert header(data_dir).space_map is not None  # the owner saved its space map
    assert state(data_dir).space_map == header(data_dir).space_map["stamp"]
    assert "STATUS(NOTENABLED)" in run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)")
    result = sq.execute(BIG)
    assert not result.ok and "2561" in sq.render(result)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)")
    assert sq.execute(BIG).ok
    assert header(data_dir).space_map is None  # the saved map was taken back at the open


def test_disabled_while_it_holds_no_messages_closes_it_empty(sq, data_dir):
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(DISABLED)")
    assert (state(data_dir).access, state(data_dir).status) == ("DISABLED", "EMPTY")
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)")
    assert sq.execute(BIG).ok
    assert state(data_dir).status == "ACTIVE"


def test_failed_closes_it_without_the_space_map_and_recovered_rebuilds_it(sq, data_dir):
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    failed = state(data_dir)
    assert (failed.status, failed.access, failed.failed is not None) == ("FAILED", "SUSPENDED", True)
    assert header(data_dir).space_map is None
    sq.current_qmgr = "QM2"
    result = sq.execute("LAB GET QUEUE(SQ1)")
    assert not result.ok and "2561" in sq.render(result)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)")  # a failed data set stays suspended
    assert state(data_dir).access == "SUSPENDED"
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")
    # QM1, connected to the structure in this process, restarts the data set at once.
    assert (state(data_dir).status, state(data_dir).access) == ("ACTIVE", "ENABLED")
    assert sq.execute("LAB GET QUEUE(SQ1)").ok


def test_an_owner_whose_open_failed_is_suspended_and_retried_when_enabled(sq, data_dir):
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(DISABLED)")
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    moved = path.with_name("MOVED")
    path.rename(moved)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)")
    assert state(data_dir).access == "SUSPENDED"  # the error is still there
    assert {"STATUS(ALLOCFAIL)", "AVAIL(ERROR)"} <= set(run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)"))
    moved.rename(path)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)")
    assert state(data_dir).access == "ENABLED"
    assert {"STATUS(OPEN)", "AVAIL(NORMAL)"} <= set(run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)"))


@pytest.mark.parametrize(
    "command, message",
    [
        (
            "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)",
            "CSQM092I -QM1 CSQMASMD STATUS(RECOVERED) VALUE INVALID FOR SMDS(QM1) STATUS(ACTIVE)",
        ),
        (
            "RESET SMDS(QM2) CFSTRUCT(APP1) STATUS(FAILED)",
            "CSQM092I -QM1 CSQMASMD STATUS(FAILED) VALUE INVALID FOR SMDS(QM2) STATUS(NOTFOUND)",
        ),
        ("RESET SMDS(QM9) CFSTRUCT(APP1) ACCESS(ENABLED)", "CSQM094I -QM1 CSQMASMD SMDS(QM9) WAS NOT FOUND"),
        (
            "RESET SMDS(QM1) CFSTRUCT(NOPE) ACCESS(ENABLED)",
            "CSQM094I -QM1 CSQMASMD CFSTRUCT(NOPE) WAS NOT FOUND",
        ),
    ],
)
def test_what_the_status_does_not_allow_ends_abnormally(sq, command, message):
    result = sq.execute(command)
    assert not result.ok
    assert sq.render(result).splitlines()[1:] == [
        message,
        "CSQ9023E -QM1 CSQMASMD ' RESET SMDS' ABNORMAL COMPLETION",
    ]


def test_star_skips_data_sets_never_activated(sq, data_dir):
    assert sq.execute("RESET SMDS(*) CFSTRUCT(APP1) STATUS(FAILED)").ok
    assert (state(data_dir).status, state(data_dir, "QM2").status) == ("FAILED", "NOTFOUND")
