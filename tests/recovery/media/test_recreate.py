"""Media recovery: the image plus every later record re-creates an object; what it needs from the log."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqsh.recovery import logscan
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.media import recreate as media_recovery
from mqsh.store import columnar, log_writer
from mqsh.store import log as logstore
from tests.recovery.conftest import MASTER
from tests.recovery.helpers import qmgr, records, run, started
from tests.recovery.logs import LogMaker
from tests.support import examples


@pytest.fixture
def linear(data_dir):
    session = started(data_dir, "-ll", extra="-lf 1")
    yield session
    session.close()


def persistent(obj):
    return [(message.msgid, message.state, message.uow) for message in obj.messages if message.persistent]


def test_rebuild_gives_back_definitions_and_persistent_messages(linear):
    run(
        linear,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES) DESCR('before')",
        "LAB PUT QUEUE(Q1) COUNT(4)",
        "LAB PUT QUEUE(Q1) COUNT(2) NONPERSISTENT",
        "rcdmqimg -t ql Q1",
        "LAB GET QUEUE(Q1) COUNT(2)",
        "ALTER QLOCAL(Q1) DESCR('after')",
        "LAB PUT QUEUE(Q1) COUNT(3) SYNCPOINT",
    )
    manager = qmgr(linear)
    live = manager.state["QUEUE/Q1"]
    rebuilt = media_recovery.rebuild(manager.paths.log_dir, manager.media, ["QUEUE/Q1"])["QUEUE/Q1"]
    assert rebuilt.attributes["DESCR"] == "after"
    assert persistent(rebuilt) == persistent(live)
    assert len(rebuilt.messages) == 2 + 3  # the non-persistent messages are not in the log


def test_selection_starts_at_each_objects_media_recovery_record(linear):
    run(
        linear,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "DEFINE QLOCAL(Q2) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(2)",
        "rcdmqimg -t ql Q1",
        "LAB PUT QUEUE(Q2)",
    )
    manager = qmgr(linear)
    chosen = list(
        media_recovery.select(
            logstore.read_records(manager.paths.log_dir), {"QUEUE/Q1": manager.media["QUEUE/Q1"]}
        )
    )
    assert [record["t"] for record in chosen] == ["IMG"]


def test_rcrmqobj_replays_image_and_later_work(linear):
    run(
        linear,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(5)",
        "rcdmqimg -t ql Q1",
        "LAB GET QUEUE(Q1) COUNT(2)",
        "LAB DAMAGE QUEUE(Q1)",
        "LAB PUT QUEUE(Q1)",
    )
    recreated, account = run(linear, "rcrmqobj -t ql Q*")
    # The image held 5 messages; 2 were got after it: 3 of its messages are left, none put since.
    assert recreated == "Object Q1, type qlocal recreated."
    assert account.startswith(
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 3 messages: 3 from the media image, "
        "0 replayed from the log"
    )
    path = qmgr(linear).paths.object_file("QUEUE", "Q1")
    assert path.exists() and not qmgr(linear).state["QUEUE/Q1"].damaged
    assert run(linear, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(3)"
    assert run(linear, "rcrmqobj -t ql Q1") == [
        "No damaged object matches Q1, type qlocal: nothing to re-create."
    ]


def test_missing_extent_stops_rcrmqobj_and_changes_nothing(linear):
    run(
        linear,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(40)",
        "LAB DAMAGE QUEUE(Q1)",
        "LAB GET QUEUE(Q1)",
    )
    manager = qmgr(linear)
    needed = logstore.extent_name(manager.log.extent - 1)
    (manager.paths.log_dir / needed).unlink()
    result = linear.execute("rcrmqobj -t ql Q1")
    assert not result.ok and result.code == 1
    assert linear.render(result).startswith(f"AMQ6767E: Log file {needed} could not be opened for use.")
    assert manager.state["QUEUE/Q1"].damaged


def test_a_damaged_extent_fails_rcrmqobj_and_leaves_the_queue_manager_running(linear):
    """The extent is needed only for media recovery: that recovery fails, the queue manager runs on."""
    run(
        linear,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(3)",
        "RESET QMGR TYPE(ADVANCELOG)",
        "endmqm QM1",
        "strmqm QM1",
    )
    manager = qmgr(linear)
    first = logstore.extent_name(logscan.extent_holding(manager.paths.log_dir, manager.media["QUEUE/Q1"]))
    assert manager.log.extent > logstore.extent_number(first)  # not needed to restart
    run(linear, f"LAB DAMAGE EXTENT({first}) HOW(CORRUPT)", "LAB DAMAGE QUEUE(Q1)")
    result = linear.execute("rcrmqobj -t ql Q1")
    assert not result.ok and result.code == 1
    text = linear.render(result)
    assert text.startswith(f"AMQ7082E: Log file {first} is damaged: ") and "nothing was re-created" in text
    assert "cannot start" not in text
    assert qmgr(linear).state["QUEUE/Q1"].damaged
    assert "STATUS(Running)" in run(linear, "dspmq -m QM1")[0]


def test_qmgr_and_catalog_are_recorded_but_not_recreated(linear):
    assert run(linear, "rcdmqimg -t qmgr") == ["Media image for object QM1, type qmgr recorded."]
    assert run(linear, "rcdmqimg -t ctlg") == ["Media image for object QMQMOBJCAT, type catalog recorded."]
    assert "AMQ7088E" in run(linear, "rcrmqobj -t qmgr QM1")[0]
    assert "not re-created" in run(linear, "rcrmqobj -t catalog x")[0]
    # A queue manager that does not exist is named as such first, whatever the object type.
    assert run(linear, "rcrmqobj -m NOSUCH -t qmgr NOSUCH")[0].startswith("AMQ7048E")


def test_rcdmqimg_moves_the_media_recovery_record_and_checkpoints(linear):
    run(linear, "DEFINE QLOCAL(Q1)", "DEFINE QLOCAL(Q2) IMGRCOVQ(NO)")
    manager = qmgr(linear)
    before, checkpoints = manager.media["QUEUE/Q1"], len(records(linear, "CKPT"))
    lines = run(linear, "rcdmqimg -l -t ql Q*")
    assert lines[0] == "Media image for object Q1, type qlocal recorded."
    assert not any("Q2" in line for line in lines)  # not recoverable: left out of a generic request
    assert lines[-2].startswith("AMQ7467I: The oldest log file required to start queue manager QM1 is S")
    assert lines[-1].startswith("AMQ7468I: The oldest log file required to perform media recovery")
    assert manager.media["QUEUE/Q1"] > before and len(records(linear, "CKPT")) == checkpoints + 1
    assert "is not recoverable" in run(linear, "rcdmqimg -t ql Q2")[0]


def test_the_ibm_i_form_records_everything(linear):
    lines = run(linear, "RCDMQMIMG OBJ(*ALL) OBJTYPE(*ALL) MQMNAME(QM1) DSPJRNDTA(*YES)")
    assert lines[0] == "Media image for object QM1, type qmgr recorded."
    assert "Media image for object SYSTEM.DEF.SVRCONN, type channel recorded." in lines
    assert "Media image for object QMQMOBJCAT, type catalog recorded." in lines
    assert lines[-1].startswith("AMQ7468I")
    assert "OBJTYPE(*BAD)" in run(linear, "RCDMQMIMG OBJ(*ALL) OBJTYPE(*BAD)")[0]


def test_circular_logging_refuses_media_commands(data_dir):
    session = started(data_dir, "-lc")
    for command in ("rcdmqimg -t all *", "rcrmqobj -t ql Q1"):
        result = session.execute(command)
        assert not result.ok and "AMQ7081E: Media recovery not allowed" in session.render(result)
    session.close()


def test_shutdown_images_non_local_and_empty_local_queues(linear):
    run(
        linear,
        "DEFINE QLOCAL(FULL) DEFPSIST(YES)",
        "DEFINE QLOCAL(EMPTY)",
        "DEFINE QALIAS(ALIAS) TARGET(FULL)",
        "DEFINE CHANNEL(TO.X) CHLTYPE(SDR) CONNAME('x') XMITQ(FULL)",
        "LAB PUT QUEUE(FULL)",
    )
    linear.execute("endmqm QM1")
    linear.execute("strmqm QM1")
    imaged = {record["n"] for record in records(linear, "IMG")}
    assert {"EMPTY", "ALIAS", "QM1"} <= imaged
    assert "FULL" not in imaged and "TO.X" not in imaged
    assert records(linear, "CAT")


def test_automatic_images_follow_imgintvl(linear):
    run(
        linear,
        "LAB CLOCK SET('2026-01-01 09:00:00')",
        "DEFINE QLOCAL(Q1)",
        "ALTER QMGR IMGSCHED(AUTO) IMGINTVL(30)",
        "LAB CLOCK ADVANCE(20M)",
        "DISPLAY QLOCAL(Q1)",
    )
    assert "Q1" not in {record["n"] for record in records(linear, "IMG")}
    run(linear, "LAB CLOCK ADVANCE(11M)", "DISPLAY QLOCAL(Q1)")
    assert "Q1" in {record["n"] for record in records(linear, "IMG")}


def test_rcrmqobj_from_the_operating_system(data_dir):
    from tests.support import run_mqsh

    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(2)")
    session.close()
    session.installation.paths("QM1").object_file("QUEUE", "Q1").unlink()
    done = run_mqsh("rcrmqobj", "-m", "QM1", "-t", "ql", "Q1", data_dir=data_dir)
    assert (
        done.stdout
        == (
            "Object Q1, type qlocal recreated.\nAMQ7234I: Queue Q1 on queue manager 'QM1': 2 messages: "
            "0 from the media image, 2 replayed from the log (S0000000.LOG).\n"
        )
        and done.returncode == 0
    )
    done = run_mqsh("rcrmqobj", "-m", "NOPE", "-t", "ql", "Q1", data_dir=data_dir)
    assert done.returncode == 16 and "AMQ7048E" in done.stdout and "Traceback" not in done.stderr


def _rebuild_on_each_engine(log_dir, seed, length, engines):
    """Each engine's media recovery of every object of a random log: the reference's objects."""
    maker = LogMaker(seed)
    while len(maker.records) < length:
        maker.step()
    writer = log_writer.LogWriter(log_dir, 700, 0, on_seal=columnar.write_copy)
    for record in maker.records:
        writer.append({name: value for name, value in record.items() if name != "lsn"})
    writer.close()
    media = {}  # each object's latest image or creation: its media recovery record
    for record in maker.records:
        if record["t"] == "IMG" or (record["t"] == "OBJ" and record.get("c")):
            media[record["k"]] = record["lsn"]
    keys = sorted(media)
    reference = media_recovery.rebuild(log_dir, media, keys, ReplayEngine("reference"))
    for engine in engines:
        assert media_recovery.rebuild(log_dir, media, keys, engine) == reference


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), length=st.integers(20, 150))
def test_rebuild_on_spark_equals_the_reference(spark_runner, tmp_path_factory, seed, length):
    """A long log's media recovery runs on Spark: the same objects as the reference replayer's."""
    _rebuild_on_each_engine(
        tmp_path_factory.mktemp("log") / "active", seed, length, [ReplayEngine("spark", MASTER)]
    )


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), length=st.integers(20, 150))
def test_rebuild_in_process_equals_the_reference(tmp_path_factory, seed, length):
    _rebuild_on_each_engine(tmp_path_factory.mktemp("log") / "active", seed, length, [ReplayEngine("local")])


@pytest.mark.parametrize("engine", ["reference", "local", "spark"])
def test_ids_after_a_restart_on_a_frozen_clock_are_new_so_recovery_finds_the_message_got(
    request, data_dir, engine
):
    if engine == "spark":
        request.getfixturevalue("spark_runner")  # skips where Java is missing
    session = started(data_dir, "-ll", engine=ReplayEngine(engine, MASTER))
    run(
        session,
        "LAB CLOCK SET('2026-01-01 09:00:00')",
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(2)",
        "endmqm QM1",
        "strmqm QM1",
        "LAB PUT QUEUE(Q1) PRIORITY(9)",
        "LAB GET QUEUE(Q1)",
    )  # takes the priority 9 message
    assert len({record["m"] for record in records(session, "PUT")}) == 3
    left = persistent(qmgr(session).state["QUEUE/Q1"])
    assert len(left) == 2
    run(session, "LAB DAMAGE QUEUE(Q1)")
    # The same account on every engine: its image is its DEFINE, both messages replayed after it.
    assert run(session, "rcrmqobj -t ql Q1") == [
        "Object Q1, type qlocal recreated.",
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 2 messages: 0 from the media image, 2 replayed from the log "
        "(S0000000.LOG).",
    ]
    assert persistent(qmgr(session).state["QUEUE/Q1"]) == left
    session.close()
