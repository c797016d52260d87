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
    shown = [
        line for line in run(session, f"DISPLAY QLOCAL({queue}) CURDEPTH") if line.startswith("CURDEPTH(")
    ]
    return int(shown[0][len("CURDEPTH(") : -1])


def test_before_any_recovery_none_is_recorded(shared_queue_group):
    assert run(shared_queue_group, "LAB EXPLAIN CFSTRUCT(APP1)") == [
        "No RECOVER CFSTRUCT of structure APP1 in group QSGA is recorded."
    ]


def test_a_recovery_from_a_backup_adds_up_per_shared_queue(shared_queue_group):
    session = shared_queue_group
    run(
        session,
        "DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ1) COUNT(4)",
        "LAB PUT QUEUE(SQ2) COUNT(2)",
        "LAB CLOCK ADVANCE(1M)",
        "BACKUP CFSTRUCT(APP1)",
        "LAB CLOCK ADVANCE(1H)",
        "LAB PUT QUEUE(SQ1) COUNT(3)",
        "LAB PUT QUEUE(SQ1) COUNT(2) NONPERSISTENT",
        "LAB USE QMGR(QM2)",
        "LAB GET QUEUE(SQ1) COUNT(2)",
        "LAB PUT QUEUE(SQ2) COUNT(2)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1)",
    )
    answer = explained(session)
    assert answer["ok"]
    records = {record["QUEUE"]: record for record in answer["objects"]}
    assert {queue: (record["FROMBACKUP"], record["REPLAYED"]) for queue, record in records.items()} == {
        "SQ1": (2, 3),
        "SQ2": (2, 2),
    }
    for queue, record in records.items():
        assert record["FROMBACKUP"] + record["REPLAYED"] == record["CURDEPTH"] == curdepth(session, queue)
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert text[0].startswith("Last recovery of structure APP1: RECOVER CFSTRUCT by QM2 at ")
    assert "from the backup taken by QM1 at " in text[0] and text[0].endswith(": 6 messages.")
    assert [line.split()[0] for line in text[2:4]] == ["QM1", "QM2"]
    assert (
        "Structure APP1: 6 from the backup - 2 got or backed out since + 5 put since = 9 messages; "
        "0 non-persistent dropped (never logged)." in text
    )
    assert "Against its failure: 9 persistent messages held then, 9 recovered: none lost." in text


def test_a_purge_is_told_and_the_next_recovery_starts_from_it(shared_queue_group):
    session = shared_queue_group
    run(
        session,
        "LAB PUT QUEUE(SQ1) COUNT(3)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
    )
    assert run(session, "LAB EXPLAIN CFSTRUCT(APP1)")[0].startswith(
        "Last recovery of structure APP1: RECOVER CFSTRUCT TYPE(PURGE) by QM1 at "
    )
    run(session, "LAB PUT QUEUE(SQ1) COUNT(2)", "LAB FAIL CFSTRUCT(APP1)", "RECOVER CFSTRUCT(APP1)")
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert "from the purge of " in text[0] and "which discarded 3 messages" in text[0]
    assert "Shared queue SQ1: 0 from the backup + 2 put since, replayed = CURDEPTH(2)." in text
    assert curdepth(session, "SQ1") == 2


def test_outside_a_group_it_says_so(session):
    assert run(session, "LAB EXPLAIN CFSTRUCT(APP1)") == [
        "mqsh: queue manager QM1 is not in a queue sharing group."
    ]


def test_a_down_level_data_set_rebuilt_is_told_and_adds_up(shared_queue_group):
    session = shared_queue_group
    run(
        session,
        "LAB CLOCK SET('2026-04-08 08:00:00')",
        "BACKUP CFSTRUCT(APP1)",
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(SQ1) COUNT(2) SIZE(100000)",
        "LAB COPY SMDS(QM2) CFSTRUCT(APP1) TO(MONDAY)",
        "LAB CLOCK ADVANCE(1H)",
        "LAB PUT QUEUE(SQ1) COUNT(3) SIZE(100000)",
        "RESET SMDS(QM2) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB RESTORE SMDS(QM2) CFSTRUCT(APP1) FROM(MONDAY)",
        "LAB CLOCK ADVANCE(10M)",
        "RESET SMDS(QM2) CFSTRUCT(APP1) STATUS(RECOVERED)",
    )
    # Found down level, not yet rebuilt: the last recovery (none) has nothing of it to tell.
    assert run(session, "LAB EXPLAIN CFSTRUCT(APP1)") == [
        "No RECOVER CFSTRUCT of structure APP1 in group QSGA is recorded."
    ]
    run(session, "RECOVER CFSTRUCT(APP1)")
    records = [record for record in explained(session)["objects"] if "SMDS" in record]
    assert len(records) == 2  # the down-level finding, and the data set remade
    rebuilt = records[0]
    assert (rebuilt["SMDS"], rebuilt["DSN"], rebuilt["HELD"]) == ("QM2", "MQ.QSGA.QM2.APP1", "")
    assert (rebuilt["MESSAGES"], rebuilt["INTACT"]) == (5, 2)
    assert (rebuilt["REWRITTEN"], rebuilt["COPYHELD"], rebuilt["AFTERCOPY"]) == (5, 2, 3)
    assert rebuilt["NEWEST"] < rebuilt["EXPECTED"]
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert any(
        line.startswith(
            "Data set MQ.QSGA.QM2.APP1 (SMDS(QM2)) was found down level at 2026-04-08 "
            "09:10:00, by restart processing after RESET SMDS STATUS(RECOVERED): "
        )
        and "put at 2026-04-08 09:00:00" in line
        and "which held nothing" in line
        for line in text
    )
    assert (
        "The newest message the data set held was put at 2026-04-08 08:00:00 (entry "
        f"{rebuilt['NEWEST']}): a copy from then. It held 2 of the structure's 5 messages there; 3 missing."
        in text
    )
    assert (
        "Data set MQ.QSGA.QM2.APP1 rewritten: 2 messages the copy held + 3 put after its newest, from the "
        "members' logs = 5 messages' data." in text
    )
    # The finding was the last recovery's: a recovery with no data set found down level tells none.
    run(session, "LAB FAIL CFSTRUCT(APP1)", "RECOVER CFSTRUCT(APP1)")
    assert not [record for record in explained(session)["objects"] if "SMDS" in record]


def test_every_data_set_the_recovery_formatted_anew_is_itemised_and_adds_up(shared_queue_group):
    """QM1's data set with its header destroyed, QM2's deleted: the recovery finds them so, remakes
    each and rewrites its messages' data; with the messages held in their entries they add up."""
    session = shared_queue_group
    run(
        session,
        "LAB PUT QUEUE(SQ1) COUNT(2)",
        "LAB PUT QUEUE(SQ1) COUNT(3) SIZE(100000)",
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(SQ1) COUNT(2) SIZE(100000)",
        "LAB USE QMGR(QM1)",
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(HEADER)",
        "LAB DAMAGE SMDS(QM2) CFSTRUCT(APP1) HOW(DELETE)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1)",
    )
    records = {record["SMDS"]: record for record in explained(session)["objects"] if "FOUND" in record}
    assert (records["QM1"]["FOUND"], records["QM1"]["REWRITTEN"]) == ("HEADER", 3)
    assert (records["QM2"]["FOUND"], records["QM2"]["REWRITTEN"]) == ("MISSING", 2)
    assert records["QM1"]["BLOCKS"] > 0 and records["QM2"]["BLOCKS"] > 0
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert any(
        line.startswith("Data set MQ.QSGA.QM1.APP1 (SMDS(QM1)) was found invalid, its header destroyed; ")
        and line.endswith("rewrote into it the data of 3 recovered messages.")
        for line in text
    )
    assert any(line.startswith("Data set MQ.QSGA.QM2.APP1 (SMDS(QM2)) was found missing; ") for line in text)
    assert (
        "Structure APP1's messages: 2 with their data in their list entries + 3 rewritten into SMDS(QM1) "
        "+ 2 rewritten into SMDS(QM2) = 7." in text
    )
    assert curdepth(session, "SQ1") == 7


def test_a_data_set_left_as_it_was_counts_in_the_sum(shared_queue_group):
    """Only QM2's data set is emptied (preformatted anew): QM1's keeps its messages' data as it was."""
    session = shared_queue_group
    run(
        session,
        "LAB PUT QUEUE(SQ1) COUNT(2) SIZE(100000)",
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(SQ1) COUNT(4) SIZE(100000)",
        "LAB USE QMGR(QM1)",
        "LAB DAMAGE SMDS(QM2) CFSTRUCT(APP1) HOW(EMPTY)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1)",
    )
    records = [record for record in explained(session)["objects"] if "FOUND" in record]
    assert [(record["SMDS"], record["FOUND"], record["REWRITTEN"]) for record in records] == [
        ("QM2", "EMPTY", 4)
    ]
    text = run(session, "LAB EXPLAIN CFSTRUCT(APP1)")
    assert (
        "Structure APP1's messages: 0 with their data in their list entries + 2 in SMDS(QM1) as it was "
        "+ 4 rewritten into SMDS(QM2) = 6." in text
    )
