"""Random sequences of a queue-sharing group's commands and accidents: no error escapes, every member restarts.

Three members and two structures (APP1 recoverable with SMDS offload, APP2 not)
take puts and gets in and out of units of work, backups and recoveries,
structure failures, every kind of data set damage, denied connections, copies
put back, reallocations, preformatting, storage limits, RESET SMDS, START /
STOP SMDSCONN, structures deleted and defined again, crashes, ends and
restarts, displays, in an order drawn from a seed. Whatever each command
answers, none may raise, and at the end every member must start again.
"""

from __future__ import annotations

import random

import pytest

from mqsh.shell.session import Session

pytestmark = pytest.mark.slow

MEMBERS = ("QM1", "QM2", "QM3")
APP1 = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1') OFFLD1SZ(8K) OFFLD1TH(0)"
SET_UP = (
    "LAB CLOCK SET('2026-05-01 09:00:00')",
    *(f"crtmqm {name}" for name in MEMBERS),
    "csq5pqsg ADD QSG QSGA",
    *(f"csq5pqsg ADD QMGR {name} QSGA" for name in MEMBERS),
    *(f"strmqm {name}" for name in MEMBERS),
    "LAB USE QMGR(QM1)",
    APP1,
    "DEFINE CFSTRUCT(APP2) CFLEVEL(4) RECOVER(NO)",
    "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
    "DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP2)",
)
DISPLAYS = (
    "DISPLAY CFSTATUS(*) TYPE(SUMMARY)",
    "DISPLAY CFSTATUS(*) TYPE(CONNECT)",
    "DISPLAY CFSTATUS(*) TYPE(BACKUP)",
    "DISPLAY CFSTATUS(APP1) TYPE(SMDS)",
    "DISPLAY SMDSCONN(*) CFSTRUCT(*)",
    "DISPLAY USAGE TYPE(SMDS)",
    "DISPLAY SMDS(*) CFSTRUCT(APP1)",
    "DISPLAY QSTATUS(*)",
    "DISPLAY QLOCAL(S*) QSGDISP(ALL) CURDEPTH",
    "DISPLAY CFSTRUCT(*)",
    "DISPLAY QLOCAL(S*) CMDSCOPE(*)",
)
DEFINITIONS = (
    "DEFINE QLOCAL(SQ3) QSGDISP(SHARED) CFSTRUCT(APP1)",
    "DELETE QLOCAL(SQ3) QSGDISP(SHARED)",
    "DELETE CFSTRUCT(APP2)",
    "DEFINE CFSTRUCT(APP2) CFLEVEL(4)",
    "DEFINE QLOCAL(GQ) QSGDISP(GROUP)",
    "DELETE QLOCAL(GQ) QSGDISP(GROUP)",
    "CLEAR QLOCAL(SQ1)",
    "DELETE CFSTRUCT(APP1)",
    APP1,
)


def command(pick: random.Random) -> str:
    member = pick.choice(MEMBERS)
    other = pick.choice(MEMBERS)
    makers = (
        lambda: f"LAB USE QMGR({member})",
        lambda: (
            f"LAB PUT QUEUE({pick.choice(['SQ1', 'SQ1', 'SQ2'])}) COUNT({pick.randint(1, 3)}) "
            f"SIZE({pick.choice([100, 20000, 70000])}){pick.choice(['', ' SYNCPOINT', ' NONPERSISTENT'])}"
        ),
        lambda: (
            f"LAB GET QUEUE({pick.choice(['SQ1', 'SQ2'])}) COUNT({pick.randint(1, 2)}){pick.choice(['', ' SYNCPOINT'])}"
        ),
        lambda: pick.choice(["LAB COMMIT", "LAB BACKOUT"]),
        lambda: f"BACKUP CFSTRUCT({pick.choice(['APP1', 'APP2', '*'])}){pick.choice(['', ' EXCLINT(60)'])}",
        lambda: (
            f"RECOVER CFSTRUCT({pick.choice(['APP1', 'APP2', 'APP1,APP2'])}){pick.choice(['', '', ' TYPE(PURGE)'])}"
        ),
        lambda: f"LAB FAIL CFSTRUCT({pick.choice(['APP1', 'APP2'])})",
        lambda: f"RESET CFSTRUCT({pick.choice(['APP1', 'APP2'])}) ACTION(FAIL)",
        lambda: (
            f"LAB DAMAGE SMDS({member}) CFSTRUCT(APP1) "
            f"HOW({pick.choice(['DELETE', 'EMPTY', 'HEADER', 'BLOCK', 'IOERROR'])})"
        ),
        lambda: f"LAB {pick.choice(['DENY', 'ALLOW'])} SMDSCONN({member}) CFSTRUCT(APP1) QMGR({other})",
        lambda: f"LAB COPY SMDS({member}) CFSTRUCT(APP1) TO(C{pick.randint(1, 2)})",
        lambda: f"LAB RESTORE SMDS({member}) CFSTRUCT(APP1) FROM(C{pick.randint(1, 2)})",
        lambda: (
            f"LAB SIZE SMDS({member}) CFSTRUCT(APP1) BLOCKS({pick.choice([4, 20, 200])})"
            f"{pick.choice(['', ' SECONDARY(2)', ' MAXEXTENTS(2)'])}"
        ),
        lambda: f"LAB FORMAT SMDS({member}) CFSTRUCT(APP1)",
        lambda: f"LAB MEMLIMIT QMGR({member}) MB({pick.choice(['16', '64', 'NOLIMIT', 'NOLIMIT'])})",
        lambda: (
            f"RESET SMDS({member}) CFSTRUCT(APP1) "
            f"{pick.choice(['ACCESS(ENABLED)', 'ACCESS(DISABLED)', 'STATUS(FAILED)', 'STATUS(RECOVERED)'])}"
        ),
        lambda: (
            f"{pick.choice(['START', 'STOP'])} SMDSCONN({pick.choice([*MEMBERS, '*'])}) CFSTRUCT(APP1)"
            f"{pick.choice(['', ' CMDSCOPE(*)'])}"
        ),
        lambda: pick.choice(DISPLAYS),
        lambda: (
            f"ALTER SMDS({pick.choice([*MEMBERS, '*'])}) CFSTRUCT(APP1) "
            f"DSEXPAND({pick.choice(['YES', 'NO', 'DEFAULT'])}) DSBUFS({pick.choice(['DEFAULT', '10', '200'])})"
        ),
        lambda: pick.choice(
            [
                f"LAB CRASH QMGR({member})",
                f"strmqm {member}",
                f"endmqm {member}",
                f"endmqm -i {member}",
                f"strmqm {member}",
            ]
        ),
        lambda: "LAB CLOCK ADVANCE(1M)",
        lambda: pick.choice(DEFINITIONS),
        lambda: f"LAB {pick.choice(['OPEN', 'CLOSE'])} QUEUE({pick.choice(['SQ1', 'SQ2'])})",
    )
    return pick.choice(makers)()


@pytest.mark.parametrize("seed", range(12))
def test_a_groups_commands_in_any_order_raise_nothing_and_every_member_restarts(data_dir, seed):
    session = Session(data_dir)
    try:
        for line in SET_UP:
            assert session.execute(line).ok, line
        pick = random.Random(seed)
        for _ in range(150):
            session.render(session.execute(command(pick)))
        for name in MEMBERS:
            session.execute(f"endmqm -i {name}")
        for name in MEMBERS:
            started = session.execute(f"strmqm {name}")
            assert started.ok, session.render(started)
    finally:
        session.close()
