"""DEFINE / ALTER / DELETE / DISPLAY CFSTRUCT: the group's structures, answered in z/OS's form."""

from __future__ import annotations

import json

import pytest

from mqsh.model.qsg import claims
from mqsh.model.qsg.repository import SharedRepository, repository_path
from tests.commands.conftest import run


def test_a_definition_answers_with_the_count_line_and_normal_completion(group):
    assert run(
        group, "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"
    ) == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMACFS ' DEFINE CFSTRUCT' NORMAL COMPLETION",
    ]


def test_every_member_sees_the_same_structures(group):
    group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(4) DESCR('orders')")
    group.current_qmgr = "QM2"
    lines = run(group, "DISPLAY CFSTRUCT(APP1)")
    assert lines[0] == "CSQN205I   COUNT=       3, RETURN=00000000, REASON=00000000"
    assert lines[1] == "CSQM201I -QM2 CSQMDRTS  DISPLAY CFSTRUCT DETAILS"
    assert lines[2] == "CFSTRUCT(APP1)"
    assert {"CFLEVEL(4)", "DESCR(orders)", "RECOVER(NO)", "OFFLD1SZ(64K)"} <= set(lines)
    assert lines[-2:] == [
        "END CFSTRUCT DETAILS",
        "CSQ9022I -QM2 CSQMDRTS ' DISPLAY CFSTRUCT' NORMAL COMPLETION",
    ]
    assert run(group, "ALTER CFSTRUCT(APP1) RECOVER(YES)")[-1].endswith("NORMAL COMPLETION")
    group.current_qmgr = "QM1"
    assert "RECOVER(YES)" in run(group, "DISPLAY CFSTRUCT(APP1) RECOVER")


def test_a_generic_display_counts_what_it_found_and_leaves_out_csq_admin(group):
    group.execute("DEFINE CFSTRUCT(APP1)")
    lines = run(group, "DISPLAY CFSTRUCT(*) CFLEVEL")
    assert lines[1] == "CSQM293I -QM1 CSQMDRTS 2 CFSTRUCT FOUND MATCHING REQUEST CRITERIA"
    assert [line for line in lines if line.startswith("CFSTRUCT(")] == [
        "CFSTRUCT(APP1)",
        "CFSTRUCT(CSQSYSAPPL)",
    ]
    assert (
        run(group, "DISPLAY CFSTRUCT(Z*)")[1]
        == "CSQM297I -QM1 CSQMDRTS NO CFSTRUCT FOUND MATCHING REQUEST CRITERIA"
    )


def test_a_where_filter_selects_structures(group):
    group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5)")
    group.execute("DEFINE CFSTRUCT(APP2) CFLEVEL(2)")
    lines = run(group, "DISPLAY CFSTRUCT(APP*) WHERE(CFLEVEL LT 5)")
    assert [line for line in lines if line.startswith("CFSTRUCT(")] == ["CFSTRUCT(APP2)"]


@pytest.mark.parametrize(
    "command, message",
    [
        ("DEFINE CFSTRUCT(CSQSYSAPPL)", "CSQM095I -QM1 CSQMACFS CFSTRUCT(CSQSYSAPPL) ALREADY EXISTS"),
        (
            "DEFINE CFSTRUCT(APP2) CFLEVEL(2) RECOVER(YES)",
            "CSQM092I -QM1 CSQMACFS RECOVER(YES) VALUE INVALID",
        ),
        ("DEFINE CFSTRUCT(APP2) CFLEVEL(4) DSBUFS(50)", "CSQM092I -QM1 CSQMACFS DSBUFS(50) VALUE INVALID"),
        (
            "DEFINE CFSTRUCT(APP2) CFLEVEL(5) OFFLOAD(SMDS)",
            "CSQM092I -QM1 CSQMACFS OFFLOAD(SMDS) VALUE INVALID",
        ),
        (
            "DEFINE CFSTRUCT(APP2) CFLEVEL(5) DSGROUP('NO.STAR')",
            "CSQM092I -QM1 CSQMACFS DSGROUP(NO.STAR) VALUE INVALID",
        ),
        (
            "DEFINE CFSTRUCT(APP2) CFLEVEL(5) OFFLD1SZ(65K)",
            "CSQM092I -QM1 CSQMACFS OFFLD1SZ(65K) VALUE INVALID",
        ),
        ("DEFINE CFSTRUCT(APP_2)", "CSQM092I -QM1 CSQMACFS CFSTRUCT(APP_2) VALUE INVALID"),
        ("DEFINE CFSTRUCT(APP2) LIKE(NOPE)", "CSQM094I -QM1 CSQMACFS CFSTRUCT(NOPE) WAS NOT FOUND"),
        ("ALTER CFSTRUCT(NOPE) DESCR('x')", "CSQM094I -QM1 CSQMACFS CFSTRUCT(NOPE) WAS NOT FOUND"),
        ("ALTER CFSTRUCT(CSQ_ADMIN) DESCR('x')", "CSQM092I -QM1 CSQMACFS CFSTRUCT(CSQ_ADMIN) VALUE INVALID"),
        ("DISPLAY CFSTRUCT(CSQ_ADMIN)", "CSQM092I -QM1 CSQMDRTS CFSTRUCT(CSQ_ADMIN) VALUE INVALID"),
        ("DISPLAY CFSTRUCT(NOPE)", "CSQM094I -QM1 CSQMDRTS CFSTRUCT(NOPE) WAS NOT FOUND"),
        ("DELETE CFSTRUCT(NOPE)", "CSQM094I -QM1 CSQMACFS CFSTRUCT(NOPE) WAS NOT FOUND"),
    ],
)
def test_what_the_rules_refuse_ends_abnormally(group, command, message):
    result = group.execute(command)
    assert not result.ok
    verb = command.split()[0]
    csect = "CSQMDRTS" if verb == "DISPLAY" else "CSQMACFS"
    assert group.render(result).splitlines() == [
        "CSQN205I   COUNT=       3, RETURN=00000008, REASON=00000000",
        message,
        f"CSQ9023E -QM1 {csect} ' {verb} CFSTRUCT' ABNORMAL COMPLETION",
    ]


def test_an_alter_keeps_what_it_does_not_name_and_checks_the_result(group):
    group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5) DSBUFS(300) DESCR('keep me')")
    assert run(group, "ALTER CFSTRUCT(APP1) CFLEVEL(2)")[-1].endswith("NORMAL COMPLETION")
    assert (
        run(group, "ALTER CFSTRUCT(APP1) RECOVER(YES)")[1]
        == "CSQM092I -QM1 CSQMACFS RECOVER(YES) VALUE INVALID"
    )
    lines = run(group, "DISPLAY CFSTRUCT(APP1) ALL")
    assert {"CFLEVEL(2)", "DSBUFS(300)", "DESCR(keep me)", "RECOVER(NO)"} <= set(lines)


def test_like_copies_a_structure_and_replace_redefines_one(group):
    group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) DSBUFS(250)")
    assert run(group, "DEFINE CFSTRUCT(APP2) LIKE(APP1) DESCR('copy')")[-1].endswith("NORMAL COMPLETION")
    assert {"RECOVER(YES)", "DSBUFS(250)", "DESCR(copy)"} <= set(run(group, "DISPLAY CFSTRUCT(APP2)"))
    assert run(group, "DEFINE CFSTRUCT(APP2) DSBUFS(10) REPLACE")[-1].endswith("NORMAL COMPLETION")
    assert "DSBUFS(10)" in run(group, "DISPLAY CFSTRUCT(APP2)")


def test_a_deleted_structure_is_gone_for_every_member(group):
    group.execute("DEFINE CFSTRUCT(APP1)")
    group.current_qmgr = "QM2"
    assert (
        run(group, "DELETE CFSTRUCT(APP1)")[-1]
        == "CSQ9022I -QM2 CSQMACFS ' DELETE CFSTRUCT' NORMAL COMPLETION"
    )
    group.current_qmgr = "QM1"
    assert run(group, "DISPLAY CFSTRUCT(APP1)")[1] == "CSQM094I -QM1 CSQMDRTS CFSTRUCT(APP1) WAS NOT FOUND"


def test_a_queue_manager_outside_any_group_is_told_so(lone):
    result = lone.execute("DEFINE CFSTRUCT(APP1)")
    assert not result.ok
    assert (
        lone.render(result).splitlines()[1]
        == "CSQM150I -QM9 CSQMACFS QUEUE MANAGER NOT IN A QUEUE SHARING GROUP"
    )


def test_a_lost_repository_is_a_db2_failure_named_in_the_error_log(group, data_dir):
    repository_path(data_dir, "QSGA").unlink()
    result = group.execute("DISPLAY CFSTRUCT(*)")
    assert not result.ok
    assert (
        group.render(result).splitlines()[1]
        == "CSQM091E -QM1 CSQMDRTS FAILURE MQRC=2342 (MQRC_DB2_NOT_AVAILABLE)"
    )
    log = (data_dir / "qmgrs" / "QM1" / "errors" / "AMQERR01.LOG").read_text()
    assert "CSQ5003A" in log and "QSGA.db was not found" in log


def test_json_output_carries_the_z_os_messages_and_the_structure(group):
    group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5)")
    group.output_format = "json"
    record = json.loads(group.render(group.execute("DISPLAY CFSTRUCT(APP1) CFLEVEL")))
    assert record["objects"] == [{"CFSTRUCT": "APP1", "CFLEVEL": 5}]
    assert [message["msgid"] for message in record["messages"]] == ["CSQN205I", "CSQM201I", "CSQ9022I"]


APP1 = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"


def _claim_file(data_dir):
    with SharedRepository(data_dir, "QSGA") as repository:
        return claims.claim_path(repository, "APP1")


def test_a_deleted_structure_takes_its_claim_file_with_it_unless_a_claim_is_held(group, data_dir):
    assert group.execute(APP1).ok and group.execute("BACKUP CFSTRUCT(APP1)").ok
    path = _claim_file(data_dir)
    assert path.exists()
    assert group.execute("DELETE CFSTRUCT(APP1)").ok
    assert not path.exists()
    assert group.execute(APP1).ok
    with SharedRepository(data_dir, "QSGA") as repository:
        assert claims.claim_structure(repository, "APP1", "QM2", "BACKUP", "2026-04-03 10:00:00") is None
        try:
            assert group.execute("DELETE CFSTRUCT(APP1)").ok
            assert path.exists()  # the running backup's lock is on it
        finally:
            claims.release_structure(repository, "APP1")


def test_reset_action_fail_honours_a_running_backup_as_a_running_recovery(group, data_dir):
    for command in (APP1, "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1)", "LAB PUT QUEUE(SQ1)"):
        assert group.execute(command).ok, command
    with SharedRepository(data_dir, "QSGA") as repository:
        assert claims.claim_structure(repository, "APP1", "QM2", "BACKUP", "2026-04-03 10:00:00") is None
        try:
            assert (
                run(group, "RESET CFSTRUCT(APP1) ACTION(FAIL)")[1]
                == "CSQE101I -QM1 CSQMACFS Unable to backup or recover structure APP1, structure in use"
            )
        finally:
            claims.release_structure(repository, "APP1")
    assert group.execute("RESET CFSTRUCT(APP1) ACTION(FAIL)").ok  # the backup ended: it fails now
    assert "STATUS(FAILED)" in " ".join(run(group, "DISPLAY CFSTATUS(APP1)"))
