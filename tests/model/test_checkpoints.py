"""A checkpoint names a restart point only once every change before it is in the object files.

Each case makes one change the very record that makes a checkpoint due, then crashes:
the restart replays from that checkpoint, so the change must already be in the files.
"""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session

EVERY = 100


def started(data_dir, log: str) -> tuple[Session, object]:
    session = Session(data_dir)
    assert session.execute(f"crtmqm {log} --checkpoint-records {EVERY} QC").ok
    assert session.execute("strmqm QC").ok
    session.current_qmgr = "QC"
    for name in ("Q1", "Q2"):
        assert session.execute(f"DEFINE QLOCAL({name}) MAXDEPTH(999999)").ok
    return session, session.installation.connect("QC")


def to_the_brink(qmgr) -> None:
    """Persistent puts to Q2 until the next record makes a checkpoint due."""
    while qmgr.since_checkpoint < qmgr.checkpoint_every - 1:
        qmgr.put("Q2", persistent=True)


def restarted(session: Session):
    session.installation.crash("QC")
    result = session.execute("strmqm QC")
    assert result.ok, session.render(result)
    return session.installation.connect("QC")


def state(qmgr, name: str = "Q1") -> tuple[int, int] | None:
    queue = qmgr.lookup("QUEUE", name)
    return None if queue is None else (qmgr.depth(queue), qmgr.uncommitted(queue))


CHANGES = {
    # name: (set-up, the change at the brink, Q1's (depth, uncommitted) after the restart, or None: gone)
    "put": (lambda q: None, lambda q: q.put("Q1", persistent=True), (1, 0)),
    "get": (lambda q: [q.put("Q1", persistent=True) for _ in range(2)], lambda q: q.get("Q1"), (1, 0)),
    "commit": (lambda q: q.put("Q1", persistent=True, syncpoint=True), lambda q: q.commit(), (1, 0)),
    "backout": (
        lambda q: q.get("Q1", syncpoint=True) if q.put("Q1", persistent=True) else None,
        lambda q: q.backout(),
        (1, 0),
    ),
    "clear": (lambda q: q.put("Q1", persistent=True), lambda q: q.clear(q.lookup("QUEUE", "Q1")), (0, 0)),
    "uncommitted get": (
        lambda q: q.put("Q1", persistent=True),
        lambda q: q.get("Q1", syncpoint=True),
        (1, 0),
    ),
    "uncommitted put": (lambda q: None, lambda q: q.put("Q1", persistent=True, syncpoint=True), (0, 0)),
    "delete": (lambda q: None, lambda q: q.delete_object("QUEUE", "Q1"), None),
}


@pytest.mark.parametrize("log", ["-lc -lf 16", "-ll -lf 16"], ids=["circular", "linear"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_followed_at_once_by_a_checkpoint_survives_a_crash(data_dir, log, change):
    setup, act, expected = CHANGES[change]
    session, qmgr = started(data_dir, log)
    setup(qmgr)
    qmgr.checkpoint()  # Q1's file holds the set-up: only the change itself is left to write
    to_the_brink(qmgr)
    checkpoints = qmgr.checkpoints_taken
    act(qmgr)
    assert qmgr.checkpoints_taken == checkpoints + 1  # the change's record made the checkpoint due
    assert state(restarted(session)) == expected
    session.close()


def test_a_define_followed_at_once_by_a_checkpoint_survives_a_crash(data_dir):
    session, qmgr = started(data_dir, "-ll -lf 16")
    qmgr.checkpoint()
    to_the_brink(qmgr)
    assert session.execute("DEFINE QLOCAL(NEW.Q)").ok
    assert restarted(session).lookup("QUEUE", "NEW.Q") is not None
    session.close()


def test_a_unit_with_only_non_persistent_work_is_not_in_flight_after_an_immediate_end(data_dir):
    """Nothing of such a unit is logged: the start after endmqm -i backs out nothing, as after a crash."""
    from tests.recovery.helpers import run
    from tests.recovery.helpers import started as started_on

    session = started_on(data_dir, "-ll")
    shown = run(
        session,
        "DEFINE QLOCAL(Q1)",
        "LAB PUT QUEUE(Q1) COUNT(2) NONPERSISTENT SYNCPOINT",
        "endmqm -i QM1",
        "strmqm QM1",
    )
    assert "Transaction manager state recovered for queue manager 'QM1'." in shown
    assert not any("backed out" in line for line in shown)
    session.close()
