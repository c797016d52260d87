"""LAB BACKUP and LAB RESTORE: an ended queue manager's files copied away and back, whole."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session


def say(session: Session, command: str) -> str:
    return session.render(session.execute(command))


@pytest.fixture
def qmb(data_dir):
    session = Session(data_dir)
    for command in (
        "crtmqm -ll QMB",
        "strmqm QMB",
        "LAB USE QMGR(QMB)",
        "DEFINE QLOCAL(KEEP) DEFPSIST(YES)",
        "LAB PUT QUEUE(KEEP) COUNT(3)",
    ):
        assert session.execute(command).ok, command
    yield session
    session.close()


def state(session: Session) -> tuple:
    qmgr = session.installation.held["QMB"]
    return (
        qmgr.lookup("QMGR", "QMB").attributes["QMID"],
        sorted(qmgr.state),
        [message.msgid for message in qmgr.state["QUEUE/KEEP"].messages],
    )


def test_a_restore_brings_back_the_queue_manager_as_it_was_at_the_backup(qmb):
    taken = state(qmb)
    assert not qmb.execute("LAB BACKUP TO(before)").ok  # running: refused
    qmb.execute("endmqm QMB")
    assert say(qmb, "LAB BACKUP TO(before)").startswith("Queue manager QMB backed up to BEFORE: ")
    for command in ("strmqm QMB", "DEFINE QLOCAL(LATER)", "LAB PUT QUEUE(KEEP) COUNT(5)", "endmqm QMB"):
        assert qmb.execute(command).ok
    assert say(qmb, "LAB RESTORE FROM(before)").startswith(
        "Queue manager QMB restored from BEFORE, as it was at "
    )
    assert qmb.execute("strmqm QMB").ok
    assert state(qmb) == taken  # same QMID, objects and messages: LATER and the five puts are gone


def test_a_deleted_queue_manager_comes_back_from_its_backup(qmb):
    qmb.execute("endmqm QMB")
    qmb.execute("LAB BACKUP TO(B1)")
    taken_files = sorted(path.name for path in (qmb.installation.data_dir / "backups" / "B1").iterdir())
    assert taken_files == ["backup.json", "log", "qmgr"]
    assert qmb.execute("dltmqm QMB").ok
    assert not qmb.installation.exists("QMB")
    assert qmb.execute("LAB RESTORE FROM(B1)").ok
    assert qmb.execute("strmqm QMB").ok
    assert len(qmb.installation.held["QMB"].state["QUEUE/KEEP"].messages) == 3


@pytest.mark.parametrize(
    "command, words",
    [
        ("LAB BACKUP TO(B2)", "backup B2 exists already"),
        ("LAB RESTORE FROM(NONE)", "there is no backup NONE"),
        ("LAB BACKUP TO('a/b')", "is not a backup name"),
        ("LAB RESTORE QMGR(QMC) FROM(B2)", "backup B2 is of queue manager QMB, not QMC"),
    ],
)
def test_what_is_refused_is_said(qmb, command, words):
    for setup in ("endmqm QMB", "LAB BACKUP TO(B2)", "crtmqm QMC"):
        qmb.execute(setup)
    result = qmb.execute(command)
    assert not result.ok and words in qmb.render(result)


def test_a_backup_cut_short_leaves_no_backup(qmb, monkeypatch):
    import shutil

    qmb.execute("endmqm QMB")
    real = shutil.copytree
    calls = []

    def fails_second_time(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(shutil, "copytree", fails_second_time)
    assert say(qmb, "LAB BACKUP TO(B3)") == (
        "mqsh: LAB BACKUP could not copy queue manager QMB: No space left on device; no backup was kept."
    )
    monkeypatch.setattr(shutil, "copytree", real)
    backups = qmb.installation.data_dir / "backups"
    assert sorted(path.name for path in backups.iterdir()) == []  # no half backup, under any name
    assert "there is no backup B3" in say(qmb, "LAB RESTORE FROM(B3)")


def test_a_restore_on_another_host_is_the_same_queue_manager_at_a_dr_site(qmb):
    taken = state(qmb)
    for command in ("endmqm QMB", "LAB BACKUP TO(PROD)"):
        assert qmb.execute(command).ok
    assert say(qmb, "LAB RESTORE FROM(PROD) HOST('dr-a.example.com')").startswith(
        "Queue manager QMB restored from PROD on host dr-a.example.com, as it was at "
    )
    assert qmb.installation.host("QMB") == "dr-a.example.com"
    assert qmb.execute("strmqm QMB").ok
    assert state(qmb) == taken  # the same QMID: what makes a DR copy trouble in a cluster
