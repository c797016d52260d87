"""What the tests of a member's data sets share: structure APP1 offloading to the members' data sets,
QM1's holding three messages, and the engines a space map is rebuilt on."""

from __future__ import annotations

import shutil

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.list_structure import Structure, structure_path
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.spacemap.scan import SpaceScanEngine

STRUCTURE = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"
BIG = "LAB PUT QUEUE(SQ1) SIZE(600000)"  # three blocks of 256 KB


@pytest.fixture
def sq(group):
    """The group with APP1 and shared queue SQ1 of persistent messages; QM1 put three BIG ones
    (blocks 0-2, 3-5 and 6-8 of its data set)."""
    for command in (
        STRUCTURE,
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        BIG,
        BIG,
        BIG,
    ):
        assert group.execute(command).ok, command
    return group


@pytest.fixture(params=["reference", "local", "spark"])
def engine(request) -> SpaceScanEngine:
    if request.param == "spark":
        if shutil.which("java") is None:
            pytest.skip("Spark needs Java, which is not installed")
        from tests.recovery.conftest import MASTER  # the Spark tests' one session

        return SpaceScanEngine("spark", MASTER)
    return SpaceScanEngine(request.param)


def entries(data_dir):
    """APP1's entries, oldest first."""
    with Structure(structure_path(data_dir, "QSGA", "APP1"), "QSGA", "APP1") as structure:
        return structure.entries()


def smds_status(data_dir, owner: str = "QM1") -> str:
    with SharedRepository(data_dir, "QSGA") as repository:
        return states.smds_state(repository, "APP1", owner).status
