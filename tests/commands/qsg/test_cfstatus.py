"""DISPLAY CFSTATUS: a structure's status, its connections, its last backup and its data sets."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import claims
from mqsh.model.qsg.repository import SharedRepository
from tests.commands.conftest import run
from tests.commands.qsg.test_smds import details

NOW = "2026-04-03 10:00:00"

STRUCTURE = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"


@pytest.fixture
def sq(group):
    for command in (
        STRUCTURE,
        "DEFINE CFSTRUCT(APP2) CFLEVEL(4)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
    ):
        assert group.execute(command).ok, command
    return group


def fields(record: list[str]) -> dict[str, str]:
    return {line.split("(", 1)[0]: line.split("(", 1)[1][:-1] for line in record}


def test_summary_of_a_structure_not_yet_allocated_then_in_use(sq):
    [record] = details(run(sq, "DISPLAY CFSTATUS(APP1)"))
    assert [line.split("(")[0] for line in record] == [
        "CFSTATUS",
        "TYPE",
        "CFTYPE",
        "ENTSMAX",
        "ENTSUSED",
        "FAILDATE",
        "FAILTIME",
        "OFFLDUSE",
        "SIZEMAX",
        "SIZEUSED",
        "STATUS",
    ]
    assert fields(record)["STATUS"] == "NOTFOUND" and fields(record)["ENTSUSED"] == "0"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)").ok
    found = fields(details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SUMMARY)"))[0])
    assert (found["STATUS"], found["ENTSUSED"], found["OFFLDUSE"], found["CFTYPE"]) == (
        "ACTIVE",
        "3",
        "SMDS",
        "APPL",
    )


def test_a_generic_name_counts_the_structures_and_leaves_out_csq_admin(sq):
    lines = run(sq, "DISPLAY CFSTATUS(*)")
    assert lines[1] == "CSQM293I -QM1 CSQMDRTC 3 CFSTATUS FOUND MATCHING REQUEST CRITERIA"
    assert [line for line in lines if line.startswith("CFSTATUS(")] == [
        "CFSTATUS(APP1)",
        "CFSTATUS(APP2)",
        "CFSTATUS(CSQSYSAPPL)",
    ]
    assert (
        run(sq, "DISPLAY CFSTATUS(Z*)")[1]
        == "CSQM297I -QM1 CSQMDRTC NO CFSTATUS FOUND MATCHING REQUEST CRITERIA"
    )


def test_connect_shows_a_record_per_connected_member(sq):
    lines = run(sq, "DISPLAY CFSTATUS(APP1) TYPE(CONNECT)")  # nothing to show is said, not left blank
    assert (
        details(lines) == []
        and lines[1] == "CSQM297I -QM1 CSQMDRTC NO CFSTATUS FOUND MATCHING REQUEST CRITERIA"
    )
    sq.execute("LAB PUT QUEUE(SQ1)")
    sq.current_qmgr = "QM2"
    sq.execute("LAB GET QUEUE(SQ1)")
    records = [fields(record) for record in details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(CONNECT)"))]
    assert [(record["QMNAME"], record["STATUS"], record["SYSNAME"]) for record in records] == [
        ("QM1", "ACTIVE", "QM1"),
        ("QM2", "ACTIVE", "QM2"),
    ]


def test_backup_is_blank_until_one_is_taken_then_shows_it(sq, data_dir):
    [record] = details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)"))
    assert fields(record)["BKUPDATE"] == " " and fields(record)["QMNAME"] == " "
    with SharedRepository(data_dir, "QSGA") as repository, repository.transaction() as db:
        db.execute(
            "INSERT INTO cfbackup VALUES ('APP1', 'QM2', '2025-03-04 05:06:07+00:00', 255, 4096, "
            '3145729, 1, \'["QM1", "QM2"]\')'
        )
    found = fields(details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)"))[0])
    assert (
        found["QMNAME"],
        found["BKUPDATE"],
        found["BKUPTIME"],
        found["BKUPSRBA"],
        found["BKUPERBA"],
        found["BKUPSIZE"],
        found["LOGS"],
    ) == ("QM2", "2025-03-04", "05.06.07", "00000000000000FF", "0000000000001000", "4", "QM1,QM2")


def test_busy_marks_show_as_inbackup_and_inrecover(sq, data_dir):
    """A claim this process holds is live: it shows, whatever the member's look before the command."""
    sq.execute("LAB PUT QUEUE(SQ1)")
    with SharedRepository(data_dir, "QSGA") as repository:
        assert claims.claim_structure(repository, "APP1", "QM2", "BACKUP", NOW) is None
    assert fields(details(run(sq, "DISPLAY CFSTATUS(APP1)"))[0])["STATUS"] == "INBACKUP"
    with SharedRepository(data_dir, "QSGA") as repository:
        claims.release_structure(repository, "APP1")
        claims.claim_structure(repository, "APP1", "QM2", "RECOVER", NOW)
    assert fields(details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)"))[0])["STATUS"] == "INRECOVER"
    with SharedRepository(data_dir, "QSGA") as repository:
        claims.release_structure(repository, "APP1")


def test_smds_shows_activated_data_sets_and_notfound_only_when_named(sq):
    assert details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS)")) == []
    sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)")
    [record] = details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(*)"))
    found = fields(record)
    assert (found["SMDS"], found["STATUS"], found["ACCESS"], found["FAILDATE"]) == (
        "QM1",
        "ACTIVE",
        "ENABLED",
        " ",
    )
    assert found["RCVDATE"] != " "  # a recoverable structure logs its data set from its activation
    [named] = details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM2)"))
    assert fields(named)["STATUS"] == "NOTFOUND"


def test_fields_asked_for_come_with_what_each_record_is_for(sq):
    """MQ always returns an object's identifying fields: the data set's owner for TYPE(SMDS), the
    connected member for TYPE(CONNECT), beside the name, the TYPE and the status."""
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)").ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)").ok
    assert sq.execute("RESET SMDS(QM2) CFSTRUCT(APP1) ACCESS(DISABLED)").ok
    assert details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) ACCESS")) == [
        ["CFSTATUS(APP1)", "TYPE(SMDS)", f"SMDS({owner})", f"ACCESS({access})", "STATUS(ACTIVE)"]
        for owner, access in (("QM1", "ENABLED"), ("QM2", "DISABLED"))
    ]
    assert [
        [line.split("(")[0] for line in record]
        for record in details(run(sq, "DISPLAY CFSTATUS(APP1) TYPE(CONNECT) SYSNAME"))
    ] == [["CFSTATUS", "TYPE", "QMNAME", "STATUS", "SYSNAME"]] * 2
    [record] = details(run(sq, "DISPLAY CFSTATUS(APP1) WHERE(ENTSUSED GT 1)"))
    assert [line.split("(")[0] for line in record] == ["CFSTATUS", "TYPE", "ENTSUSED", "STATUS"]


@pytest.mark.parametrize(
    "command, message",
    [
        ("DISPLAY CFSTATUS(APP2) TYPE(SMDS)", "CSQM092I -QM1 CSQMDRTC CFSTRUCT(APP2) VALUE INVALID"),
        ("DISPLAY CFSTATUS(APP1) SMDS(QM1)", "CSQM092I -QM1 CSQMDRTC SMDS(QM1) VALUE INVALID"),
        ("DISPLAY CFSTATUS(NOPE)", "CSQM094I -QM1 CSQMDRTC CFSTRUCT(NOPE) WAS NOT FOUND"),
        ("DISPLAY CFSTATUS(CSQ_ADMIN)", "CSQM092I -QM1 CSQMDRTC CFSTRUCT(CSQ_ADMIN) VALUE INVALID"),
    ],
)
def test_what_cannot_be_shown_ends_abnormally(sq, command, message):
    result = sq.execute(command)
    assert not result.ok
    assert sq.render(result).splitlines() == [
        "CSQN205I   COUNT=       3, RETURN=00000008, REASON=00000000",
        message,
        "CSQ9023E -QM1 CSQMDRTC ' DISPLAY CFSTATUS' ABNORMAL COMPLETION",
    ]


def test_a_generic_smds_display_skips_structures_without_data_sets(sq):
    sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)")
    assert [
        line for line in run(sq, "DISPLAY CFSTATUS(APP*) TYPE(SMDS)") if line.startswith("CFSTATUS(")
    ] == ["CFSTATUS(APP1)"]


def test_outside_a_group_it_is_refused(lone):
    assert (
        run(lone, "DISPLAY CFSTATUS(*)")[1]
        == "CSQM150I -QM9 CSQMDRTC QUEUE MANAGER NOT IN A QUEUE SHARING GROUP"
    )
