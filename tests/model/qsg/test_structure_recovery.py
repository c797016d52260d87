"""RECOVER CFSTRUCT's data sets, through the shell: one it has to make anew gets the allocation LAB
SIZE gave it, not a default one."""

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
