"""mqsh audit and LAB AUDIT: the cluster audit of a data directory's caches, or of a folder of dumps."""

from __future__ import annotations

from tests.model.cluster.conftest import member, run
from tests.support import run_mqsh


def restored_story(session) -> None:
    """A cluster whose PA was restored from a backup taken before two updates of its queue."""
    run(session, "LAB CLOCK SET('2026-05-01 09:00:00')")
    for name, full in (("FR1", True), ("FR2", True), ("PA", False), ("PB", False)):
        member(session, name, full)
    run(
        session,
        "LAB USE QMGR(PA)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO)",
        "endmqm PA",
        "LAB BACKUP QMGR(PA) TO(W0)",
        "strmqm PA",
        "LAB USE QMGR(PA)",
        "ALTER QLOCAL(APP.Q) DESCR('one')",
        "ALTER QLOCAL(APP.Q) DESCR('two')",
        "endmqm PA",
        "LAB RESTORE QMGR(PA) FROM(W0)",
        "strmqm PA",
        "LAB CLOCK ADVANCE(5D)",
    )


def test_lab_audit_finds_the_restored_owner_and_says_when_its_queue_goes(session):
    restored_story(session)
    text = run(session, "LAB AUDIT CLUSTER(DEMO)")[0]
    assert "STALE" in text and "QUEUE APP.Q" in text and "PA_2026-05-01_09.00.00" in text
    assert "sequence number 1777626000 below 1777626002" in text and "gone in 85 days (2026-07-30)" in text
    assert text.endswith(
        "1 finding in 17 records of the cluster caches of 4 queue managers (audited in process)."
    )
    assert "0 findings" in run(session, "LAB AUDIT CLUSTER(OTHER*)")[0]


def test_mqsh_audit_from_the_operating_system_and_from_collected_dumps(session, data_dir, tmp_path):
    restored_story(session)
    session.close()
    done = run_mqsh("audit", "-c", "DEM*", data_dir=data_dir)
    assert done.returncode == 0 and "STALE" in done.stdout
    dumps = tmp_path / "dumps"
    done = run_mqsh("audit", "--collect", str(dumps), data_dir=data_dir)
    assert (
        done.returncode == 0
        and "The cluster caches of 4 queue managers (17 records) written to" in done.stdout
    )
    done = run_mqsh("audit", "--from", str(dumps), data_dir=data_dir)
    assert done.returncode == 0 and "STALE" in done.stdout
    done = run_mqsh("audit", "--from", str(tmp_path / "nothing"), data_dir=data_dir)
    assert done.returncode == 20 and "holds no cluster cache dumps" in done.stdout + done.stderr
