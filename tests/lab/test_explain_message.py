"""LAB EXPLAIN MESSAGE follows one message through a media image, a backup, a failure and a recovery."""

from __future__ import annotations

import re

import pytest

from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session
from mqsh.store import putnotes
from mqsh.store.identity import process_user
from tests.recovery.helpers import records, run


def msgids(session: Session, queue: str) -> list[str]:
    return re.findall(r"MSGID\((\w+)\)", "\n".join(run(session, f"LAB BROWSE QUEUE({queue})")))


def test_a_message_through_an_image_a_backup_a_crash_and_a_restart(data_dir):
    session = Session(data_dir)
    run(session, "crtmqm -ll QM", "strmqm QM")
    session.current_qmgr = "QM"
    run(
        session,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q) COUNT(2)",
        "rcdmqimg -m QM -t ql Q",
        "endmqm QM",
        "LAB BACKUP QMGR(QM) TO(MONDAY)",
        "strmqm QM",
    )
    first, second = msgids(session, "Q")
    run(session, "LAB GET QUEUE(Q) SYNCPOINT", "LAB CRASH", "strmqm QM")
    lines = run(session, f"LAB EXPLAIN MESSAGE({first.lower()})")
    assert lines[0] == f"Message MSGID({first}) in the log of queue manager 'QM':"
    told = [line.split(None, 2)[2] for line in lines[1:5]]
    assert told[0].startswith("put on queue Q at ") and "outside syncpoint" in told[0]
    assert told[1] == "held in the media image of queue Q"
    assert re.fullmatch(r"got from queue Q, in unit of work (\S+)", told[2])
    assert told[3].endswith("backed out")  # by the restart: the unit was in flight at the crash
    assert lines[5].startswith("Backed up in MONDAY (taken at ")
    assert lines[6] == "Now on queue Q, committed: persistent."
    assert (
        lines[7].startswith("The last recovery (restart at ")
        and "found it written before its restart point" in lines[7]
    )
    # The application's first call after the crash is told its connection broke (2009).
    assert "2009" in run(session, "LAB GET QUEUE(Q) COUNT(2)")[0]
    run(session, "LAB GET QUEUE(Q) COUNT(2)", "LAB PUT QUEUE(Q) NONPERSISTENT")
    got = run(session, f"LAB EXPLAIN MESSAGE({second})")
    assert any(line.split(None, 2)[2] == "got from queue Q, outside syncpoint" for line in got[1:4])
    assert "Now on no queue." in got
    (fleeting,) = msgids(session, "Q")[-1:]
    unlogged = (
        f"Message MSGID({fleeting}) is not in the log of queue manager 'QM': it is non-persistent, and a "
        "non-persistent message is never logged."
    )
    assert run(session, f"LAB EXPLAIN MESSAGE({fleeting})") == [
        unlogged,
        "Now on queue Q, committed: non-persistent (never logged).",
    ]
    session.close()


def test_rcrmqobj_tells_whether_it_came_from_the_image_or_the_log(data_dir):
    session = Session(data_dir)
    run(session, "crtmqm -ll QM", "strmqm QM")
    session.current_qmgr = "QM"
    run(
        session,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q)",
        "rcdmqimg -m QM -t ql Q",
        "LAB PUT QUEUE(Q)",
    )
    imaged, logged = msgids(session, "Q")
    run(session, "LAB DAMAGE QUEUE(Q) HOW(DELETE)", "rcrmqobj -m QM -t ql Q")
    assert run(session, f"LAB EXPLAIN MESSAGE({imaged})")[-1].endswith("treated it: from the media image.")
    assert run(session, f"LAB EXPLAIN MESSAGE({logged})")[-1].endswith(
        "treated it: replayed from the log after the media image."
    )
    session.close()


def test_who_put_a_message_is_told_and_kept_through_a_restart_and_rcrmqobj(data_dir):
    """LAB PUT's messages carry the user id mqsh runs as and its application name (MQMD
    UserIdentifier and PutApplName): LAB BROWSE and LAB EXPLAIN MESSAGE show them, and a restart (the
    queue file, the log replayed) and rcrmqobj (the media image) keep them."""
    session = Session(data_dir)
    run(session, "crtmqm -ll QM", "strmqm QM")
    session.current_qmgr = "QM"
    run(session, "DEFINE QLOCAL(Q) DEFPSIST(YES)", "LAB PUT QUEUE(Q)", "rcdmqimg -m QM -t ql Q")
    run(session, "LAB PUT QUEUE(Q) SYNCPOINT", "LAB COMMIT")
    who = f"USERID({process_user()})  PUTAPPL(mqsh)"
    imaged, logged = msgids(session, "Q")
    browsed = run(session, "LAB BROWSE QUEUE(Q)")[1:]
    assert len(browsed) == 2 and all(line.endswith(f"  {who}") for line in browsed)
    put = run(session, f"LAB EXPLAIN MESSAGE({logged})")[1]
    assert put.split(None, 2)[2].startswith("put on queue Q at ") and put.endswith(
        f"SIZE(100), by {who.replace('  ', ' ')}"
    )
    run(session, "LAB CRASH", "strmqm QM")
    assert all(line.endswith(f"  {who}") for line in run(session, "LAB BROWSE QUEUE(Q)")[1:])
    run(session, "LAB DAMAGE QUEUE(Q) HOW(DELETE)", "rcrmqobj -m QM -t ql Q")
    assert all(line.endswith(f"  {who}") for line in run(session, "LAB BROWSE QUEUE(Q)")[1:])
    session.close()


def test_a_put_logged_before_the_putter_was_recorded_says_so(data_dir):
    """A log written before who put its messages was noted (no putter notes) stays readable: its put
    says not recorded (the queue file, written since, still tells LAB BROWSE)."""
    session = Session(data_dir)
    run(session, "crtmqm -ll QM", "strmqm QM")
    session.current_qmgr = "QM"
    run(session, "DEFINE QLOCAL(Q) DEFPSIST(YES)", "LAB PUT QUEUE(Q)")
    (msgid,) = msgids(session, "Q")
    put = [record for record in records(session, "PUT") if record["m"] == msgid]
    assert len(put) == 1 and set(put[0]) == {"t", "q", "m", "p", "s", "tm", "u", "lsn"}  # no putter bytes
    run(session, "endmqm QM")
    putnotes.notes_path(session.installation.paths("QM").log_root).unlink()
    run(session, "strmqm QM")
    told = run(session, f"LAB EXPLAIN MESSAGE({msgid})")
    assert told[1].endswith("SIZE(100), by whom not recorded")
    session.close()


@pytest.mark.parametrize("engine", ["reference", "local", pytest.param("spark", marks=pytest.mark.spark)])
def test_every_engine_tells_who_put_the_messages_it_replays_from_the_log(data_dir, engine):
    """A crash before any checkpoint leaves the messages only in the log: each engine's replay takes
    who put them from the log's putter notes, as the reference replay does."""
    session = Session(data_dir, engine=ReplayEngine(engine))
    run(session, "crtmqm -ll QM", "strmqm QM")
    session.current_qmgr = "QM"
    run(session, "DEFINE QLOCAL(Q) DEFPSIST(YES)", "LAB PUT QUEUE(Q) COUNT(3)", "LAB CRASH", "strmqm QM")
    browsed = run(session, "LAB BROWSE QUEUE(Q)")[1:]
    who = f"USERID({process_user()})  PUTAPPL(mqsh)"
    assert len(browsed) == 3 and all(line.endswith(f"  {who}") for line in browsed)
    session.close()
