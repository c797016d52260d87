"""Damaged object files: noticed on use, refused to everything but DELETE and rcrmqobj, never rewritten."""

from __future__ import annotations

import pytest

from mqsh.core.reasons import MQError
from mqsh.recovery import restart
from tests.recovery.helpers import error_log, qmgr, run, started


@pytest.fixture
def linear(data_dir):
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(3)")
    yield session
    session.close()


@pytest.mark.parametrize("how", ["DELETE", "TRUNCATE", "CORRUPT"])
def test_damage_is_noticed_on_use(linear, how):
    path = qmgr(linear).paths.object_file("QUEUE", "Q1")
    assert run(linear, f"LAB DAMAGE QUEUE(Q1) HOW({how})")[0].startswith("File of QUEUE(Q1)")
    assert path.exists() == (how != "DELETE")
    with pytest.raises(MQError) as error:
        qmgr(linear).put("Q1", persistent=True)
    assert error.value.reason == 2101
    assert run(linear, "DISPLAY QLOCAL(Q1)") == ["AMQ8149S: IBM MQ object damaged.", "   [2016, Q1]"]
    assert run(linear, "ALTER QLOCAL(Q1) DESCR('x')")[0].startswith("AMQ8149S")
    assert run(linear, "DEFINE QLOCAL(Q1) REPLACE")[0].startswith("AMQ8149S")
    assert "AMQ7472W: Object Q1, type queue damaged." in error_log(linear)


def test_a_file_replaced_by_a_good_copy_is_not_damage(linear):
    path = qmgr(linear).paths.object_file("QUEUE", "Q1")
    copy = path.read_bytes()
    path.unlink()
    path.write_bytes(copy)
    assert run(linear, "LAB PUT QUEUE(Q1)")[0].startswith("1 persistent")


def test_checkpoints_and_images_leave_a_damaged_file_alone(linear):
    manager = qmgr(linear)
    path = manager.paths.object_file("QUEUE", "Q1")
    run(linear, "LAB DAMAGE QUEUE(Q1) HOW(TRUNCATE)", "LAB PUT QUEUE(Q1)")
    spoiled, media_lsn = path.read_bytes(), manager.media["QUEUE/Q1"]
    manager.checkpoint()
    lines = run(linear, "rcdmqimg -t ql Q1")
    assert lines[0].startswith("AMQ7472W: Object Q1, type qlocal damaged: no media image recorded.")
    assert path.read_bytes() == spoiled and manager.media["QUEUE/Q1"] == media_lsn


def test_a_damaged_queue_can_be_deleted(linear):
    run(linear, "LAB DAMAGE QUEUE(Q1) HOW(DELETE)", "LAB GET QUEUE(Q1)")
    assert run(linear, "DELETE QLOCAL(Q1)") == ["AMQ8007I: IBM MQ queue deleted."]
    assert "QUEUE/Q1" not in qmgr(linear).state


def test_damaged_queue_manager_object_ends_the_queue_manager(linear):
    run(linear, "LAB DAMAGE QMGR(QM1)")
    assert run(linear, "DISPLAY QMGR DESCR") == ["AMQ8146E: IBM MQ queue manager not available."]
    assert run(linear, "dspmq")[0].endswith("STATUS(Ended unexpectedly)")
    assert "AMQ8004I: IBM MQ queue manager 'QM1' ended." in error_log(linear)
    assert "ended preemptively: its queue manager object is damaged" in error_log(linear)
    lines = run(linear, "strmqm QM1")
    assert "Object QM1, type qmgr was damaged and has been recreated from its media image." in lines
    assert run(linear, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(3)"


def test_circular_queue_manager_with_a_damaged_qmgr_object_does_not_start(data_dir):
    session = started(data_dir, "-lc")
    run(session, "LAB DAMAGE QMGR(QM1) HOW(DELETE)", "DISPLAY QMGR")
    result = session.execute("strmqm QM1")
    assert not result.ok and result.code == 71
    assert "uses circular logging, which cannot re-create the queue manager object" in session.render(result)
    session.close()


@pytest.mark.parametrize("how", ["DELETE", "TRUNCATE", "CORRUPT"])
def test_damaged_catalog_ends_the_queue_manager_and_is_rebuilt(linear, how):
    run(linear, f"LAB DAMAGE CATALOG HOW({how})")
    assert run(linear, "DISPLAY QLOCAL(Q1)") == ["AMQ8146E: IBM MQ queue manager not available."]
    lines = run(linear, "strmqm QM1")
    assert "AMQ7472W: Object QMQMOBJCAT, type catalog damaged; it was rebuilt." in lines
    assert restart.read_catalog(qmgr(linear).paths.catalog) is not None
    assert run(linear, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(3)"


def test_a_deleted_file_is_found_at_start_through_the_catalog(linear):
    run(linear, "endmqm QM1")
    qmgr_paths = linear.installation.paths("QM1")
    qmgr_paths.object_file("QUEUE", "Q1").unlink()
    lines = run(linear, "strmqm QM1")
    assert "AMQ7472W: Object Q1, type qlocal damaged." in lines
    assert run(linear, "rcrmqobj -t ql Q1") == [
        "Object Q1, type qlocal recreated.",
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 3 messages: 0 from the media image, 3 replayed from the log "
        "(S0000000.LOG).",
    ]
    assert run(linear, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(3)"


@pytest.mark.parametrize(
    "define, damage, like, insert",
    [
        ("DEFINE QLOCAL(SRC)", "QUEUE(SRC)", "DEFINE QLOCAL(NEWQ) LIKE(SRC)", "[2016, SRC]"),
        (
            "DEFINE QREMOTE(SRC) RNAME(X) RQMNAME(QM2)",
            "QUEUE(SRC)",
            "DEFINE QREMOTE(NEWQ) LIKE(SRC)",
            "[2016, SRC]",
        ),
        (
            "DEFINE CHANNEL(SRC) CHLTYPE(SVRCONN)",
            "CHANNEL(SRC)",
            "DEFINE CHANNEL(NEWC) CHLTYPE(SVRCONN) LIKE(SRC)",
            "[3501, SRC]",
        ),
        ("DEFINE PROCESS(SRC)", "PROCESS(SRC)", "DEFINE PROCESS(NEWP) LIKE(SRC)", "[2012, SRC]"),
        ("DEFINE NAMELIST(SRC)", "NAMELIST(SRC)", "DEFINE NAMELIST(NEWN) LIKE(SRC)", "[2010, SRC]"),
    ],
)
def test_a_damaged_object_is_no_model_for_define_like(linear, define, damage, like, insert):
    """Its attributes went with the damage: DEFINE ... LIKE it fails as every other use does, before
    and after the damage was first reported, and AMQ8149 names it by its PCF name parameter."""
    run(linear, define, f"LAB DAMAGE {damage}")
    for _ in range(2):
        assert run(linear, like) == ["AMQ8149S: IBM MQ object damaged.", f"   {insert}"]
    new_name = like.split("(")[1].split(")")[0]
    kind = like.split()[1].split("(")[0]
    assert run(linear, f"DISPLAY {kind}({new_name})")[0].startswith("AMQ8147E")
