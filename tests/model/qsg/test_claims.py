"""The claim of a BACKUP or RECOVER CFSTRUCT: honoured while its process lives, released once it died."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from mqsh.model.qsg import claims, states
from mqsh.model.qsg.repository import SharedRepository
from tests.support import REPO

NOW = "2026-04-03 10:00:00"
LATER = "2026-04-03 10:05:00"

# A process that claims APP1 for a recovery on QM2, says so, and waits to be killed.
HOLDER = r"""
import sys, time
from pathlib import Path
from mqsh.model.qsg import claims
from mqsh.model.qsg.repository import SharedRepository
repository = SharedRepository(Path(sys.argv[1]), "QSGA")
assert claims.claim_structure(repository, "APP1", "QM2", "RECOVER", "2026-04-03 10:00:00") is None
print("claimed", flush=True)
time.sleep(600)
"""


@pytest.fixture
def repository(group, data_dir):
    assert group.execute(
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"
    ).ok
    with SharedRepository(data_dir, "QSGA") as opened:
        states.set_smds_status(opened, "APP1", "QM1", states.ACTIVE, NOW)
        states.set_smds_status(opened, "APP1", "QM1", states.FAILED, NOW)
        yield opened


def test_a_claim_in_this_process_is_honoured_until_it_is_released(repository):
    assert claims.claim_structure(repository, "APP1", "QM1", "BACKUP", NOW) is None
    busy = claims.claim_structure(repository, "APP1", "QM2", "RECOVER", NOW)
    assert busy is not None and (busy.busy_qmgr, busy.busy_kind) == ("QM1", "BACKUP")
    assert claims.release_dead(repository, "APP1", NOW) is None  # the command still runs
    assert claims.release_dead_claims(repository, NOW) == []
    claims.release_structure(repository, "APP1")
    assert states.structure_state(repository, "APP1").busy_qmgr is None
    assert claims.claim_structure(repository, "APP1", "QM2", "RECOVER", NOW) is None
    claims.release_structure(repository, "APP1")


def test_a_live_claim_of_another_process_is_honoured_and_a_killed_ones_released(repository, data_dir):
    states.set_smds_status(repository, "APP1", "QM1", states.INRECOVER, NOW)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)], stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert holder.stdout.readline().strip() == "claimed"
        busy = claims.claim_structure(repository, "APP1", "QM1", "RECOVER", LATER)
        assert busy is not None and (busy.busy_qmgr, busy.busy_kind) == ("QM2", "RECOVER")
        assert claims.release_dead_claims(repository, LATER) == []
        assert states.smds_state(repository, "APP1", "QM1").status == states.INRECOVER
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    # Its process is gone: the data set it was recovering is FAILED again (since it first failed), and
    # the structure is free.
    released = claims.release_dead_claims(repository, LATER)
    assert released == [claims.Released("APP1", "QM2", "RECOVER", ["QM1"])]
    data_set = states.smds_state(repository, "APP1", "QM1")
    assert (data_set.status, data_set.access, data_set.failed) == (states.FAILED, states.SUSPENDED, NOW)
    assert states.structure_state(repository, "APP1").busy_kind is None
    assert claims.release_dead_claims(repository, LATER) == []


def test_a_dead_claim_in_the_way_of_a_new_one_is_released_first(repository, data_dir):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)], stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    assert holder.stdout.readline().strip() == "claimed"
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert claims.claim_structure(repository, "APP1", "QM1", "BACKUP", LATER) is None
    state = states.structure_state(repository, "APP1")
    assert (state.busy_qmgr, state.busy_kind) == ("QM1", "BACKUP")
    claims.release_structure(repository, "APP1")
