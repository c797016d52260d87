"""LAB EXPLAIN CFSTRUCT through the shell: the last RECOVER CFSTRUCT's ledger adds up to each shared queue's depth."""

from __future__ import annotations

import json

from mqsh.shell.session import Session
from tests.recovery.helpers import run


def explained(session: Session) -> dict:
    session.output_format = "json"
    try:
        return json.loads(session.render(session.execute("LAB EXPLAIN CFSTRUCT(APP1)")))
    finally:
        session.output_format = "mqsc"


def curdepth(session: Session, queue: str) -> int:
    """The queue's CURDEPTH, as the member's DISPLAY shows it (one keyword a line: z/OS's form)."""
    shown = [line for line in run(session, f"DISPLAY QLOCAL({queue}) CURDEPTH") if line.startswith("CURDEPTH(")]
    return int(shown[0][len("CURDEPTH("):-1])


def test_before_any_recovery_none_is_recorded(shared_queue_group):
    assert run(shared_queue_group, "LAB EXPLAIN CFSTRUCT(APP1)") == \
        ["No RECOVER CFSTRUCT of structure APP1 in group QSGA is recorded."]


def test_a_recovery_from_a_backup_adds_up_per_shared_queue(shared_queue_group):
    session = shared_queue_group
    run(session, "DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ1) COUNT(4)", "LAB PUT QUEUE(SQ2) COUNT(2)", "LAB CLOCK ADVANCE(1M)",
        "BACKUP CFSTRUCT(APP1)", "LAB CLOCK ADVANCE(1H)", "LAB PUT QUEUE(SQ1) COUNT(3)",
        "LAB PUT QUEUE(SQ1) COUNT(2) NONPERSISTENT", "LAB USE QMGR(QM2)", "LAB GET QUEUE(SQ1) COUNT(2)",
        "LAB PUT QUEUE(SQ2) COUNT(2)", "LAB FAIL CFSTRUCT(APP1)", "RECOVER CFSTRUCT(APP1)")
    answer = explained(session)
    assert answer["ok"]
    records = {record["QUEUE"]: record for record in answer["objects"]}
    assert {queue: (record["FROMBACKUP"], record["REPLAYED"]) for queue, record in records.items()} == \
        {"SQ1": (2, 3), "SQ2": (2, 2)}
    for queue, record in records.items():
        assert record["FROMBACKUP"] + record["REPLAYED"] == record["CURDEPTH"] == curdepth(session, queue)
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert text[0].startswith("Last recovery of structure APP1: RECOVER CFSTRUCT by QM2 at ")
    assert "from the backup taken by QM1 at " in text[0] and text[0].endswith(": 6 messages.")
    assert [line.split()[0] for line in text[2:4]] == ["QM1", "QM2"]
    assert "Structure APP1: 6 from the backup - 2 got or backed out since + 5 put since = 9 messages; " \
           "0 non-persistent dropped (never logged)." in text
    assert "Against its failure: 9 persistent messages held then, 9 recovered: none lost." in text


def test_a_purge_is_told_and_the_next_recovery_starts_from_it(shared_queue_group):
    session = shared_queue_group
    run(session, "LAB PUT QUEUE(SQ1) COUNT(3)", "LAB FAIL CFSTRUCT(APP1)", "RECOVER CFSTRUCT(APP1) TYPE(PURGE)")
    assert run(session, "LAB EXPLAIN CFSTRUCT(APP1)")[0].startswith(
        "Last recovery of structure APP1: RECOVER CFSTRUCT TYPE(PURGE) by QM1 at ")
    run(session, "LAB PUT QUEUE(SQ1) COUNT(2)", "LAB FAIL CFSTRUCT(APP1)", "RECOVER CFSTRUCT(APP1)")
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert "from the purge of " in text[0] and "which discarded 3 messages" in text[0]
    assert "Shared queue SQ1: 0 from the backup + 2 put since, replayed = CURDEPTH(2)." in text
    assert curdepth(session, "SQ1") == 2


def test_outside_a_group_it_says_so(session):
    assert run(session, "LAB EXPLAIN CFSTRUCT(APP1)") == ["mqsh: queue manager QM1 is not in a queue sharing group."]
