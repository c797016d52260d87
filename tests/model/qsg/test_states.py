"""The shared status of data sets: the rules of IBM's DISPLAY SMDS for STATUS, ACCESS and the times kept with them."""

from __future__ import annotations

from mqsh.model.qsg import states
from mqsh.model.qsg.repository import SharedRepository

NOW = "2026-04-03 10:00:00"


def test_a_failed_recovery_puts_the_data_set_back_with_the_time_it_failed(group, data_dir):
    assert group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        states.set_smds_status(repository, "APP1", "QM1", states.ACTIVE, NOW)
        states.set_smds_status(repository, "APP1", "QM1", states.FAILED, "2026-04-03 12:00:00")
        states.set_smds_status(repository, "APP1", "QM1", states.INRECOVER, "2026-04-03 12:10:00")
        back = states.set_smds_status(repository, "APP1", "QM1", states.FAILED, "2026-04-03 12:10:01")
        assert (back.status, back.access, back.failed) == (
            states.FAILED,
            states.SUSPENDED,
            "2026-04-03 12:00:00",
        )
        # A data set that was active, found invalid by the recovery, fails when the recovery does.
        states.set_smds_status(repository, "APP1", "QM2", states.ACTIVE, NOW)
        states.set_smds_status(repository, "APP1", "QM2", states.INRECOVER, "2026-04-03 12:10:00")
        failed = states.set_smds_status(repository, "APP1", "QM2", states.FAILED, "2026-04-03 12:10:01")
        assert failed.failed == "2026-04-03 12:10:01"
        # Recovered and active again, then found invalid by a recovery that fails: a new failure time.
        for status in (states.INRECOVER, states.RECOVERED, states.ACTIVE, states.INRECOVER):
            states.set_smds_status(repository, "APP1", "QM1", status, "2026-04-03 13:00:00")
        again = states.set_smds_status(repository, "APP1", "QM1", states.FAILED, "2026-04-03 14:00:00")
        assert again.failed == "2026-04-03 14:00:00"


def test_each_return_to_recovered_or_active_is_counted_whatever_the_time(group, data_dir):
    """Times are in seconds: a data set can fail, be recovered and be ACTIVE again within the second a
    member's connection to it failed, and that member must still hear that it came back."""
    assert group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        first = states.set_smds_status(repository, "APP1", "QM1", states.ACTIVE, NOW).returned
        assert states.set_smds_status(repository, "APP1", "QM1", states.ACTIVE, NOW).returned == first
        for status in (states.FAILED, states.INRECOVER, states.RECOVERED, states.ACTIVE):
            states.set_smds_status(repository, "APP1", "QM1", status, NOW)
        assert states.smds_state(repository, "APP1", "QM1").returned == first + 2
