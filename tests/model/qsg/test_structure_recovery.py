"""RECOVER CFSTRUCT's data sets, through the shell: one it has to make anew gets the allocation LAB
SIZE gave it, not a default one; one it grows stops at its maximum extents."""

from __future__ import annotations

import pytest

from tests.commands.conftest import run
from tests.model.qsg.conftest import STRUCTURE

PUT = "LAB PUT QUEUE(SQ1) SIZE(100000)"  # one block of 256 KB


@pytest.mark.parametrize("how", ["DELETE", "EMPTY", "HEADER"])
def test_a_data_set_lost_and_recovered_is_allocated_again_at_the_size_lab_size_gave(group, how):
    for command in (
        STRUCTURE,
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(4) SECONDARY(2) MAXEXTENTS(2)",
        PUT,
        f"LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW({how})",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB CLOCK ADVANCE(5M)",
        "RECOVER CFSTRUCT(APP1)",
        PUT,
    ):
        assert group.execute(command).ok, command
    usage = "\n".join(run(group, "DISPLAY USAGE TYPE(SMDS)"))
    assert "2 of 4 blocks in use" in usage, usage
    # Its secondary extent and maximum extents are LAB SIZE's too: one expansion, then none.
    run(group, "LAB ERRLOG")  # the recovery's messages, read
    assert group.execute(PUT + " COUNT(2)").ok  # the 4th block makes it 90 % full: expanded to 6
    assert "has been expanded to 6 blocks" in "\n".join(run(group, "LAB ERRLOG"))
    assert "2 message(s) completed before the failure." in run(group, PUT + " COUNT(3)")  # then 2192
    assert "maximum number of extents (2)" in "\n".join(run(group, "LAB ERRLOG"))


def _grown(group, secondary: int) -> None:
    """QM1's data set allocated with 4 blocks (at most 3 extents) and grown by two expansions to hold 6
    messages; 5 got, the newest left."""
    for command in (
        STRUCTURE + " DSBLOCK(256K)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        f"LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(4) SECONDARY({secondary}) MAXEXTENTS(3)",
        PUT + " COUNT(2)",
        "LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(BEFORE)",  # before its first expansion
        PUT + " COUNT(4)",
        "LAB GET QUEUE(SQ1) COUNT(5)",
    ):
        assert group.execute(command).ok, command


@pytest.mark.parametrize("how", ["EMPTY", "HEADER"])
def test_a_grown_data_set_spoiled_or_preformatted_keeps_its_extents_when_recovered(group, how):
    """Neither a spoiled header nor a preformatting changes a data set's allocation: the recovery writes
    it at the size it had grown to, not at its primary allocation."""
    _grown(group, secondary=2)
    assert "1 of 8 blocks in use" in "\n".join(run(group, "DISPLAY USAGE TYPE(SMDS)"))
    for command in (
        f"LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW({how})",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB CLOCK ADVANCE(5M)",
        "RECOVER CFSTRUCT(APP1)",
    ):
        assert group.execute(command).ok, command
    assert "1 of 8 blocks in use" in "\n".join(run(group, "DISPLAY USAGE TYPE(SMDS)"))


def test_a_copy_from_before_the_first_expansion_of_a_data_set_with_no_secondary_allocation_is_recovered(
    group,
):
    """Restored from a copy taken before it grew, the data set is smaller than the messages it held: it is
    FAILED, and the recovery grows it again - by 20 % of its size an extent, as its owner did - to hold
    them (it did not stop with no secondary size to grow by)."""
    _grown(group, secondary=0)
    for command in (
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(BEFORE)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)",
    ):
        assert group.execute(command).ok, command
    assert "STATUS(FAILED)" in run(group, "DISPLAY CFSTATUS(APP1) TYPE(SMDS)")
    group.execute("LAB CLOCK ADVANCE(5M)")
    assert "1 messages recovered" in "\n".join(run(group, "RECOVER CFSTRUCT(APP1)"))
    # The newest message is in block 5, past the 4 blocks of the copy: two extents of 1 block hold it.
    assert "1 of 6 blocks in use" in "\n".join(run(group, "DISPLAY USAGE TYPE(SMDS)"))
    assert "1 message(s) got" in run(group, "LAB GET QUEUE(SQ1)")[-1]


def test_a_recovery_stops_at_the_maximum_extents_and_leaves_the_data_set_failed_with_its_messages(group):
    """A data set reallocated smaller than the messages it held, at most 2 extents of 1 block beyond its
    2: the recovery may grow it to 3 blocks, not to the 5 the newest message needs. It says so as the
    owner's expansion does (CSQE239I), leaves the data set FAILED with its message in the structure -
    2561 to a get - and recovered again once reallocated larger, it brings the message back."""
    _grown(group, secondary=1)
    for command in (
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(2) SECONDARY(1) MAXEXTENTS(2)",
        "LAB CLOCK ADVANCE(5M)",
    ):
        assert group.execute(command).ok, command
    recovered = "\n".join(run(group, "RECOVER CFSTRUCT(APP1)"))
    assert "CSQE239I" in recovered and "maximum number of extents (2) has been reached" in recovered
    assert "they need 6 blocks, and its most extents (2) hold 3" in recovered, recovered
    assert "CSQE131I" not in recovered and "ABNORMAL COMPLETION" in recovered
    status = "\n".join(run(group, "DISPLAY CFSTATUS(APP1) TYPE(SMDS)"))
    assert "STATUS(FAILED)" in status and "ACCESS(SUSPENDED)" in status
    assert "2561" in run(group, "LAB GET QUEUE(SQ1)")[-1]
    assert "CURDEPTH(1)" in run(group, "DISPLAY QLOCAL(SQ1) CURDEPTH")
    for command in (
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(4) SECONDARY(1) MAXEXTENTS(3)",
        "RECOVER CFSTRUCT(APP1)",
    ):
        assert group.execute(command).ok, command
    assert "1 of 6 blocks in use" in "\n".join(run(group, "DISPLAY USAGE TYPE(SMDS)"))
    assert "1 message(s) got" in run(group, "LAB GET QUEUE(SQ1)")[-1]
