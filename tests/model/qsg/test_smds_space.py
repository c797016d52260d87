"""The owner's space in its data set, through the shell: expansion at 90 % full, its limit, and the retry
that ALTER SMDS DSEXPAND(YES|DEFAULT) triggers."""

from __future__ import annotations

import pytest

from tests.commands.conftest import run
from tests.model.qsg.conftest import STRUCTURE

PUT = "LAB PUT QUEUE(SQ1) SIZE(100000)"  # one block of 256 KB


@pytest.fixture
def small(group):
    """QM1's data set of APP1 allocated with 10 blocks, a secondary allocation of 5, at most 2 extents."""
    for command in (
        STRUCTURE + " DSEXPAND(YES)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(10) SECONDARY(5) MAXEXTENTS(2)",
    ):
        assert group.execute(command).ok, command
    return group


def _shown(session, command: str, field: str) -> str:
    return next(line for line in run(session, command) if line.startswith(field + "("))


def test_alter_back_to_yes_retries_at_once_and_past_the_maximum_extents_is_rejected_again(small):
    assert "2192" in run(small, PUT + " COUNT(16)")[-1]
    assert _shown(small, "DISPLAY SMDS(QM1) CFSTRUCT(APP1)", "DSEXPAND") == "DSEXPAND(NO)"
    run(small, "LAB ERRLOG")  # the first failure, read
    assert run(small, "ALTER SMDS(QM1) CFSTRUCT(APP1) DSEXPAND(YES)")[-1].endswith("NORMAL COMPLETION")
    errors = "\n".join(run(small, "LAB ERRLOG"))
    assert "CSQE239I: SMDS(QM1) CFSTRUCT(APP1)" in errors and "maximum number of extents (2)" in errors
    assert _shown(small, "DISPLAY SMDS(QM1) CFSTRUCT(APP1)", "DSEXPAND") == "DSEXPAND(NO)"
    assert _shown(small, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)", "EXPANDST") == "EXPANDST(MAXIMUM)"
    assert "2192" in run(small, PUT)[-1]
    assert "No new messages" in run(small, "LAB ERRLOG")[0]  # DSEXPAND(NO): no attempt at the put


def test_alter_back_to_default_expands_a_data_set_90_percent_full_at_once(small):
    assert small.execute("ALTER SMDS(QM1) CFSTRUCT(APP1) DSEXPAND(NO)").ok
    assert small.execute(PUT + " COUNT(9)").ok  # 9 of 10 blocks, no expansion allowed
    assert "CSQE213I" not in "\n".join(run(small, "LAB ERRLOG"))
    run(small, "ALTER SMDS(QM1) CFSTRUCT(APP1) DSEXPAND(DEFAULT)")  # the structure's YES
    assert "has been expanded to 15 blocks" in "\n".join(run(small, "LAB ERRLOG"))
    assert _shown(small, "DISPLAY SMDS(QM1) CFSTRUCT(APP1)", "DSEXPAND") == "DSEXPAND(DEFAULT)"
    assert _shown(small, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)", "EXPANDST") == "EXPANDST(NORMAL)"
    assert small.execute(PUT + " COUNT(4)").ok  # 13 of 15


def test_alter_to_no_or_of_a_data_set_with_room_expands_nothing(small):
    assert small.execute(PUT + " COUNT(3)").ok
    run(small, "ALTER SMDS(QM1) CFSTRUCT(APP1) DSEXPAND(NO)")
    run(small, "ALTER SMDS(QM1) CFSTRUCT(APP1) DSEXPAND(YES)")
    assert "No new messages" in run(small, "LAB ERRLOG")[0]


def test_the_structures_dsexpand_default_is_yes_for_a_data_set_that_takes_the_structures_value(small):
    """ALTER CFSTRUCT DSEXPAND(DEFAULT) puts back the structure's default, YES: a data set whose SMDS
    entry says DEFAULT still expands at 90 % full."""
    run(small, "ALTER CFSTRUCT(APP1) DSEXPAND(DEFAULT)")
    assert _shown(small, "DISPLAY CFSTRUCT(APP1) DSEXPAND", "DSEXPAND") == "DSEXPAND(DEFAULT)"
    assert small.execute(PUT + " COUNT(9)").ok  # the 9th makes 10 blocks 90 % full
    assert "has been expanded to 15 blocks" in "\n".join(run(small, "LAB ERRLOG"))


def test_alter_cfstruct_dsexpand_rules_the_next_expansion_of_a_data_set_that_takes_its_value(small):
    """The structure's DSEXPAND is read at each expansion: NO leaves a full data set full (no attempt, so
    EXPANDST stays NORMAL), and YES again lets the next put that needs room expand it - the ALTER itself
    retries nothing (ALTER SMDS does)."""
    run(small, "ALTER CFSTRUCT(APP1) DSEXPAND(NO)")
    assert "2192" in run(small, PUT + " COUNT(11)")[-1]
    assert _shown(small, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)", "EXPANDST") == "EXPANDST(NORMAL)"
    run(small, "LAB ERRLOG")
    run(small, "ALTER CFSTRUCT(APP1) DSEXPAND(YES)")
    assert "No new messages" in run(small, "LAB ERRLOG")[0]
    assert small.execute(PUT).ok
    assert "has been expanded to 15 blocks" in "\n".join(run(small, "LAB ERRLOG"))
