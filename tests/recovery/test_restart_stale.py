"""Restart with an old copy of an object file: found by its LSN, never confused with a good file.

A copy of an object file from before the last checkpoint is whole (its checksum is good), but a
replay from the checkpoint cannot bring it up to date: the start reports it damaged, and rcrmqobj
re-creates it from its image and the log. Files that are merely behind the log since the last
checkpoint (written after it, or not yet rewritten when a kill came) are the restart's normal work.
"""

from __future__ import annotations

import random
import shutil

import pytest

from mqsh.model.catalog import ObjectCatalog
from mqsh.recovery.engine import ReplayEngine
from mqsh.store import redo
from tests.recovery.helpers import error_log, qmgr, run, started
from tests.support import examples

ENGINES = ["reference", "local"]


def q1_after_an_old_copy_is_put_back(session, copy, end: str) -> None:
    """Q1 copied with 4 messages; then 2 got and DESCR changed, a checkpoint between them; the copy back."""
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(4)", "endmqm QM1")
    path = session.installation.paths("QM1").object_file("QUEUE", "Q1")
    shutil.copy(path, copy)
    run(session, "strmqm QM1", "LAB GET QUEUE(Q1) COUNT(2)")
    qmgr(session).checkpoint()  # the copy is now older than the restart point
    run(session, "ALTER QLOCAL(Q1) DESCR('changed')", end)
    shutil.copy(copy, path)


def shows(session) -> list[str]:
    """Q1's CURDEPTH and DESCR, each as shown."""
    return " ".join(run(session, "DISPLAY QLOCAL(Q1) CURDEPTH DESCR")).split()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("end", ["endmqm QM1", "LAB CRASH"])
def test_an_old_copy_of_a_queue_file_is_damaged_at_start_and_rcrmqobj_brings_it_up_to_date(
    data_dir, tmp_path, engine, end
):
    session = started(data_dir, "-ll", engine=ReplayEngine(engine))
    q1_after_an_old_copy_is_put_back(session, tmp_path / "Q1.copy", end)
    assert "AMQ7472W: Object Q1, type qlocal damaged." in run(session, "strmqm QM1")
    assert "its object file is older than the queue manager's record of it" in error_log(session)
    assert run(session, "DISPLAY QLOCAL(Q1) CURDEPTH") == [
        "AMQ8149S: IBM MQ object damaged.",
        "   [2016, Q1]",
    ]
    # A start that did not re-create it finds it again: the catalog still holds what the file lacks.
    run(session, "endmqm QM1")
    assert "AMQ7472W: Object Q1, type qlocal damaged." in run(session, "strmqm QM1")
    assert run(session, "rcrmqobj -t ql Q1") == [
        "Object Q1, type qlocal recreated.",
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 2 messages: 0 from the media image, 2 replayed from the log "
        "(S0000000.LOG).",
    ]
    assert "CURDEPTH(2)" in shows(session) and "DESCR(changed)" in shows(session)
    run(session, "endmqm QM1", "strmqm QM1")
    assert "CURDEPTH(2)" in shows(session) and "DESCR(changed)" in shows(session)
    session.close()


def test_an_old_copy_no_older_than_the_checkpoint_is_brought_up_to_date_by_the_replay(data_dir, tmp_path):
    """The copy taken as the last checkpoint left the file: the replay from there has everything it lacks."""
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(4)", "endmqm QM1", "strmqm QM1")
    path = qmgr(session).paths.object_file("QUEUE", "Q1")
    shutil.copy(path, tmp_path / "Q1.copy")  # as the start's checkpoint left it
    run(session, "LAB GET QUEUE(Q1) COUNT(2)", "ALTER QLOCAL(Q1) DESCR('changed')", "LAB CRASH")
    shutil.copy(tmp_path / "Q1.copy", path)
    assert "AMQ7472W" not in " ".join(run(session, "strmqm QM1"))
    assert "CURDEPTH(2)" in shows(session) and "DESCR(changed)" in shows(session)
    session.close()


def test_an_old_copy_of_a_circular_queue_managers_file_is_damaged_too(data_dir, tmp_path):
    session = started(data_dir, "-lc")
    q1_after_an_old_copy_is_put_back(session, tmp_path / "Q1.copy", "endmqm QM1")
    assert "AMQ7472W: Object Q1, type qlocal damaged." in run(session, "strmqm QM1")
    assert run(session, "DELETE QLOCAL(Q1)") == ["AMQ8007I: IBM MQ queue deleted."]
    run(session, "DEFINE QLOCAL(Q1)", "endmqm QM1")
    assert "AMQ7472W" not in " ".join(run(session, "strmqm QM1"))  # the new queue's file is its own
    session.close()


def test_an_old_copy_of_a_deleted_and_redefined_queue_is_settled_by_its_creation(data_dir, tmp_path):
    """The copy is of the queue deleted after the checkpoint: the log re-creates the new one whole."""
    session = started(data_dir, "-ll")
    q1_after_an_old_copy_is_put_back(session, tmp_path / "Q1.copy", "endmqm QM1")
    path = session.installation.paths("QM1").object_file("QUEUE", "Q1")
    run(
        session,
        "strmqm QM1",
        "rcrmqobj -t ql Q1",
        "endmqm QM1",
        "strmqm QM1",
        "DELETE QLOCAL(Q1) PURGE",
        "DEFINE QLOCAL(Q1) DESCR('new')",
        "LAB CRASH",
    )
    shutil.copy(tmp_path / "Q1.copy", path)
    assert "AMQ7472W" not in " ".join(run(session, "strmqm QM1"))
    assert "CURDEPTH(0)" in shows(session) and "DESCR(new)" in shows(session)
    session.close()


class Killed(Exception):
    """The process is killed here: nothing after it runs."""


def kill_at(monkeypatch, where: str, after: int) -> None:
    """The next checkpoint is killed: part way through its object files, or with the catalog written
    and the log control file not."""
    calls = []

    def counted(original):
        def wrapper(*args, **kwargs):
            calls.append(1)
            if len(calls) > after:
                raise Killed()
            return original(*args, **kwargs)

        return wrapper

    if where == "files":
        monkeypatch.setattr(
            ObjectCatalog, "write_object_file_now", counted(ObjectCatalog.write_object_file_now)
        )
    else:
        monkeypatch.setattr(redo, "clear", counted(redo.clear))


def seen(session, names) -> dict[str, tuple[int, str] | None]:
    found = {}
    for name in sorted(names):
        queue = qmgr(session).lookup("QUEUE", name)
        found[name] = (
            None if queue is None else (qmgr(session).depth(queue), queue.attributes.get("DESCR", ""))
        )
    return found


@pytest.mark.parametrize("seed", range(examples(12)))
def test_no_good_file_is_ever_taken_for_an_old_copy(data_dir, monkeypatch, seed):
    """Random changes, checkpoints and kills (also inside a checkpoint); after each kill some files are
    put back as the last checkpoint left them (as if later writes were lost). Every start loads
    every queue as it was, with nothing damaged."""
    rng = random.Random(seed)
    session = started(data_dir, rng.choice(["-ll", "-lc"]), engine=ReplayEngine(rng.choice(ENGINES)))
    names: set[str] = set()
    at_checkpoint: dict[str, bytes] = {}

    def keep_files() -> None:
        at_checkpoint.clear()
        folder = qmgr(session).paths.object_file("QUEUE", "X").parent
        at_checkpoint.update({path.name: path.read_bytes() for path in folder.glob("TQ*")})

    for step in range(60):
        name = f"TQ{rng.randrange(5)}"
        action = rng.randrange(10)
        if action == 0 or name not in names:
            assert session.execute(f"DEFINE QLOCAL({name}) DEFPSIST(YES) REPLACE").ok
            names.add(name)
        elif action <= 3:
            assert session.execute(f"LAB PUT QUEUE({name}) COUNT({rng.randrange(1, 4)})").ok
        elif action == 4:
            session.execute(f"LAB GET QUEUE({name})")
        elif action == 5:
            assert session.execute(f"ALTER QLOCAL({name}) DESCR('step {step}')").ok
        elif action == 6:
            assert session.execute(f"DELETE QLOCAL({name}) PURGE").ok
            names.discard(name)
        elif action == 7:
            # A checkpoint: of its own, after a media image (which moves the queue's LSN, not its
            # file), or at the end of the queue manager (which images empty queues first).
            how = rng.choice(["checkpoint", "image", "restart"])
            if how == "checkpoint":
                qmgr(session).checkpoint()
            elif how == "image":
                session.execute(f"rcdmqimg -t ql {name}")
            else:
                assert not any("AMQ7472W" in line for line in run(session, "endmqm QM1", "strmqm QM1"))
            keep_files()
        else:
            expected = seen(session, names)
            kill = rng.choice(["plain", "files", "catalog"])
            if kill == "plain":
                # Writes since the last checkpoint lost: a file is no older than that checkpoint left it.
                folder = qmgr(session).paths.object_file("QUEUE", "X").parent
                for file_name, data in at_checkpoint.items():
                    if rng.random() < 0.5 and (folder / file_name).exists():
                        (folder / file_name).write_bytes(data)
            else:
                with monkeypatch.context() as patch:
                    kill_at(patch, kill, rng.randrange(3))
                    try:
                        qmgr(session).checkpoint()
                    except Killed:
                        pass
            run(session, "LAB CRASH")
            lines = run(session, "strmqm QM1")
            assert not any("AMQ7472W" in line for line in lines), lines
            assert seen(session, names) == expected
            keep_files()  # the start's checkpoint wrote every file it changed
    session.close()
