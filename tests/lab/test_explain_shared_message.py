"""LAB EXPLAIN MESSAGE on a shared queue's message: followed through every member's log, which says
which member put it and who, which got it, and whether the structure holds it now."""

from __future__ import annotations

import re

from mqsh.store.identity import process_user
from tests.recovery.helpers import run


def test_a_shared_message_names_the_member_that_put_it_and_the_one_that_got_it(shared_queue_group):
    session = shared_queue_group
    run(session, "LAB USE QMGR(QM2)", "LAB PUT QUEUE(SQ1) COUNT(2)", "LAB USE QMGR(QM1)")
    first, second = re.findall(r"MSGID\((\w+)\)", "\n".join(run(session, "LAB BROWSE QUEUE(SQ1)")))
    run(session, "LAB GET QUEUE(SQ1) SYNCPOINT", "LAB COMMIT")
    got = run(session, f"LAB EXPLAIN MESSAGE({first})")
    assert got[0] == f"Message MSGID({first}) in the log of queue manager 'QM2' of group QSGA:"
    put = got[1].split(None, 2)[2]
    assert put.startswith("put on shared queue SQ1 (CFSTRUCT(APP1)) at ") and put.endswith(
        f"outside syncpoint, PRIORITY(0) SIZE(100), by USERID({process_user()}) PUTAPPL(mqsh)"
    )
    assert got[2] == f"Message MSGID({first}) in the log of queue manager 'QM1' of group QSGA:"
    assert re.fullmatch(r"got, in unit of work \S+", got[3].split(None, 2)[2])
    assert got[4].split(None, 2)[2].endswith(" committed")
    assert got[-1] == "Now on no queue of structure APP1."
    there = run(session, f"LAB EXPLAIN MESSAGE({second})")
    assert len(there) == 3 and there[-1] == "Now on shared queue SQ1 of structure APP1."


def test_a_message_no_members_log_names_is_not_found(shared_queue_group):
    told = run(shared_queue_group, "LAB EXPLAIN MESSAGE(00064EEF1FEC6402)")
    assert told[0].startswith("Message MSGID(00064EEF1FEC6402) is not in the log of queue manager 'QM1'")
