"""endmqm's modes: what each leaves for the next start, and what dspmq then says."""

from __future__ import annotations

import shutil

import pytest

from mqsh.shell.session import Session
from tests.recovery.helpers import run, started
from tests.support import run_mqsh


@pytest.fixture
def with_work_in_flight(data_dir):
    """Five committed messages, and two more put in a unit of work still open."""
    session = started(data_dir, "-ll")
    run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(5)",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT",
    )
    yield session
    session.close()


def depth(session) -> list[str]:
    return run(session, "DISPLAY QSTATUS(Q1) CURDEPTH UNCOM")[-1].split()


@pytest.mark.parametrize(
    "option, said",
    [
        (
            "",
            ["Quiesce request accepted. The queue manager will stop when all outstanding work is complete."],
        ),
        (
            "-c",
            ["Quiesce request accepted. The queue manager will stop when all outstanding work is complete."],
        ),
        ("-w", ["Waiting for queue manager 'QM1' to end.", "IBM MQ queue manager 'QM1' ended."]),
        ("-w -r", ["Waiting for queue manager 'QM1' to end.", "IBM MQ queue manager 'QM1' ended."]),
    ],
)
def test_a_controlled_end_backs_out_the_open_unit_itself(with_work_in_flight, option, said):
    session = with_work_in_flight
    assert run(session, f"endmqm {option} QM1") == said
    assert run(session, "dspmq")[0].endswith("STATUS(Ended normally)")
    lines = run(session, "strmqm QM1")
    assert lines[-2] == "Transaction manager state recovered for queue manager 'QM1'."
    assert session.installation.last_start.unclean is False
    assert depth(session) == ["CURDEPTH(5)", "UNCOM(NO)"]


def test_an_immediate_end_leaves_the_unit_in_flight_for_the_next_start(with_work_in_flight):
    session = with_work_in_flight
    assert run(session, "endmqm -i QM1") == [
        "IBM MQ queue manager 'QM1' ending.",
        "IBM MQ queue manager 'QM1' ended.",
    ]
    assert run(session, "dspmq")[0].endswith("STATUS(Ended immediately)")
    assert run(session, "DISPLAY QMGR") == ["AMQ8146E: IBM MQ queue manager not available."]
    lines = run(session, "strmqm QM1")
    assert (
        lines[-3]
        == "Transaction manager state recovered for queue manager 'QM1'. 1 in-flight unit of work backed out."
    )
    assert lines[-2] == (
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 5 messages: 5 from the queue file, 0 replayed "
        "from the log (S0000000.LOG); 1 in-flight unit of work backed out."
    )
    assert session.installation.last_start.unclean is False  # the end still took its checkpoint
    assert depth(session) == ["CURDEPTH(5)", "UNCOM(NO)"]


def test_a_preemptive_end_is_recovered_from_like_a_failure(with_work_in_flight):
    session = with_work_in_flight
    assert run(session, "endmqm -p QM1") == [
        "IBM MQ queue manager 'QM1' ending.",
        "IBM MQ queue manager 'QM1' ended.",
    ]
    assert run(session, "dspmq")[0].endswith("STATUS(Ended preemptively)")
    lines = run(session, "strmqm QM1")
    assert (
        lines[-3]
        == "Transaction manager state recovered for queue manager 'QM1'. 1 in-flight unit of work backed out."
    )
    assert lines[-2] == (
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 5 messages: 0 from the queue file, 5 replayed "
        "from the log (S0000000.LOG); 1 in-flight unit of work backed out."
    )
    assert session.installation.last_start.unclean is True
    assert session.installation.last_start.replayed > 7
    assert depth(session) == ["CURDEPTH(5)", "UNCOM(NO)"]


def test_end_modes_exclude_each_other(with_work_in_flight):
    result = with_work_in_flight.execute("endmqm -i -p QM1")
    assert not result.ok and "not allowed with argument" in with_work_in_flight.render(result)
    assert with_work_in_flight.installation.status("QM1") == "RUNNING"


def test_strmqm_of_a_queue_manager_left_running_by_an_earlier_run_says_it_is_running(data_dir):
    for command in ("crtmqm", "strmqm"):
        assert run_mqsh(command, "QM1", data_dir=data_dir).returncode == 0
    again = run_mqsh("strmqm", "QM1", data_dir=data_dir)
    assert again.returncode == 5 and "IBM MQ queue manager 'QM1' running." in again.stdout


@pytest.mark.parametrize(
    "words",
    [
        ["crtmqm", "-lc", "-ll", "QM9"],
        ["strmqm", "-y", "QM1"],
        ["crtmqm"],
        ["rcdmqimg", "-t", "nonsense", "Q1"],
    ],
)
def test_a_control_command_given_arguments_it_does_not_take_exits_36(data_dir, words):
    done = run_mqsh(*words, data_dir=data_dir)
    assert done.returncode == 36 and "Traceback" not in done.stderr


def test_a_control_command_with_unbalanced_quotes_exits_36(session):
    result = session.execute("endmqm 'QM1")
    assert not result.ok and result.code == 36


@pytest.mark.parametrize("name", ["", "A B", "A*B", "-X", "Q" * 49])
def test_crtmqm_refuses_a_name_mq_does_not_allow(data_dir, name):
    done = run_mqsh("crtmqm", "--", name, data_dir=data_dir)
    assert done.returncode == 72 and "AMQ7048E" in done.stdout
    assert run_mqsh("dltmqm", "--", name, data_dir=data_dir).returncode == 16  # no such queue manager


def test_crtmqm_takes_every_character_mq_allows_in_a_name(data_dir):
    assert run_mqsh("crtmqm", "Q.M_1/%" + "Q" * 41, data_dir=data_dir).returncode == 0


def test_only_the_first_queue_manager_or_crtmqm_q_becomes_the_default(data_dir):
    session = Session(data_dir)
    for command in ("crtmqm QM1", "crtmqm QM2"):
        assert session.execute(command).ok
    assert session.installation.default_name() == "QM1"
    assert session.execute("crtmqm -q QM3").ok
    assert session.installation.default_name() == "QM3"
    session.close()


def test_dspmq_shows_what_its_options_ask_for(data_dir):
    from mqsh.model.installation import INSTALLATION_PATH

    session = Session(data_dir)
    run(session, "crtmqm QA", "crtmqm -lr QR", "strmqm QR", "crtmqm QC")
    assert run(session, "dspmq -o default") == [
        f"{'QMNAME(QA)':<58}DEFAULT(yes)",
        f"{'QMNAME(QC)':<58}DEFAULT(no)",
        f"{'QMNAME(QR)':<58}DEFAULT(no)",
    ]
    everything = run(session, "dspmq -o all -m QA")[0]
    # The fields and their order are a real dspmq -o all's (MQ 9.4).
    assert everything == (
        f"{'QMNAME(QA)':<58}STATUS(Ended normally) DEFAULT(yes) STANDBY(Not applicable) "
        f"INSTNAME(Installation1) INSTPATH({INSTALLATION_PATH}) INSTVER(0.1.0) "
        "ROLE(Not configured) INSTANCE() INSYNC() QUORUM() GRPLSN() GRPNAME() GRPROLE(Not configured)"
    )
    assert run(session, "dspmq -a") == [f"{'QMNAME(QR)':<58}STATUS(Running)"]
    replicated = run(session, "dspmq -x -o nativeha -m QR")
    host = "qr"  # the queue manager's host in the lab's network: its name in lower case
    assert replicated == [
        (
            f"{'QMNAME(QR)':<58}ROLE(Active) INSTANCE({host}) INSYNC(yes) QUORUM(1/1) "
            "GRPLSN() GRPNAME() GRPROLE(Not configured)"
        ),
        f"    INSTANCE({host}) MODE(Active)",
    ]
    refused = session.execute("dspmq -o everything")
    assert not refused.ok and refused.code == 36
    session.close()


@pytest.mark.parametrize(
    "option, value",
    [("-lf", "٣"), ("-lp", "1_0"), ("-ls", "²"), ("--log-fs-size", "𝟘1"), ("--checkpoint-records", "1_000")],
)
def test_crtmqm_reads_numbers_written_with_the_digits_0_to_9_only(data_dir, option, value):
    done = run_mqsh("crtmqm", option, value, "QM9", data_dir=data_dir)
    assert done.returncode == 36 and "invalid number value" in done.stdout + done.stderr
    assert run_mqsh("dltmqm", "QM9", data_dir=data_dir).returncode == 16  # not created


def test_strmqm_ns_starts_no_channel_initiator_command_server_listeners_or_services(data_dir):
    from mqsh.shell.session import Session

    def shown(session, command):
        return session.render(session.execute(command))

    session = Session(data_dir, "QM1")
    for command in (
        "crtmqm QM1",
        "strmqm QM1",
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "DEFINE SERVICE(S1) CONTROL(QMGR)",
        "endmqm QM1",
        "strmqm -ns QM1",
    ):
        assert session.execute(command).ok, command
    assert "CHINIT(STOPPED)" in shown(session, "DISPLAY QMSTATUS CHINIT CMDSERV")
    assert "CMDSERV(STOPPED)" in shown(session, "DISPLAY QMSTATUS CHINIT CMDSERV")
    assert "AMQ8736E" in shown(session, "DISPLAY LSSTATUS(*)")
    session.installation.held.pop("QM1").crash()  # another process takes it over: still -ns
    other = Session(data_dir, "QM1")
    assert "CHINIT(STOPPED)" in shown(other, "DISPLAY QMSTATUS CHINIT")
    assert "AMQ8736E" in shown(other, "DISPLAY LSSTATUS(*)")
    assert other.execute("START LISTENER(L1)").ok  # by hand, as after strmqm -ns
    for command in ("endmqm QM1", "strmqm QM1"):
        assert other.execute(command).ok
    assert "CHINIT(RUNNING)" in shown(other, "DISPLAY QMSTATUS CHINIT")
    assert "LISTENER(L1)" in shown(other, "DISPLAY LSSTATUS(*)")
    other.close()


def test_a_queue_manager_runs_on_its_own_host_in_the_labs_network(data_dir):
    from mqsh.shell.session import Session

    session = Session(data_dir)
    assert session.execute("crtmqm --host prod-a.example.com QMH").ok
    assert session.execute("crtmqm QMX").ok
    refused = session.execute("crtmqm --host 'not a host' QMY")
    assert (refused.ok, refused.code) == (False, 36) and not session.installation.exists("QMY")
    assert [session.installation.host(name) for name in ("QMH", "QMX")] == ["prod-a.example.com", "qmx"]
    session.execute("strmqm QMH")
    assert "INSTANCE(prod-a.example.com) MODE(Active)" in session.render(session.execute("dspmq -m QMH -x"))
    session.current_qmgr = "QMH"
    assert "HOSTNAME(prod-a.example.com)" in session.render(session.execute("DISPLAY QMSTATUS HOSTNAME"))
    session.close()


def test_strmqm_c_redefines_the_default_objects_and_ends_the_queue_manager(data_dir):
    session = started(data_dir, "-lc")
    run(
        session,
        "ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(7)",
        "DEFINE QLOCAL(MINE) MAXDEPTH(9)",
        "endmqm -w QM1",
    )
    lines = run(session, "strmqm -c QM1")
    assert "Default objects statistics : 0 created. 52 replaced. 0 failed." in lines
    assert lines[-1] == "IBM MQ queue manager 'QM1' ended."
    assert session.installation.status("QM1") == "ENDED"
    run(session, "strmqm QM1")
    assert "MAXDEPTH(5000)" in " ".join(run(session, "DISPLAY QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH"))
    assert "MAXDEPTH(9)" in " ".join(run(session, "DISPLAY QLOCAL(MINE) MAXDEPTH"))
    session.close()


@pytest.mark.parametrize("option", ["-z", "-d none", "-d NONE"])
def test_strmqm_z_and_d_none_print_errors_only(data_dir, option):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    done = run_mqsh("strmqm", *option.split(), "QM1", data_dir=data_dir)
    assert done.returncode == 0 and done.stdout == ""
    again = run_mqsh("strmqm", *option.split(), "QM1", data_dir=data_dir)
    assert again.returncode == 5 and again.stdout.strip() == "IBM MQ queue manager 'QM1' running."


def test_strmqm_d_information_prints_everything_and_a_bad_value_is_named(data_dir):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    bad = run_mqsh("strmqm", "-d", "maybe", "QM1", data_dir=data_dir)
    assert bad.returncode == 36 and "argument -d: invalid choice: 'maybe'" in bad.stdout + bad.stderr
    done = run_mqsh("strmqm", "-d", "information", "QM1", data_dir=data_dir)
    assert done.returncode == 0 and "IBM MQ queue manager 'QM1' started." in done.stdout


@pytest.mark.parametrize("level, code, said", [("942", 0, "AMQ7290I"), ("940", 36, "AMQ7291E")])
def test_strmqm_e_accepts_only_the_command_level_there_is(data_dir, level, code, said):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    done = run_mqsh("strmqm", "-e", f"CMDLEVEL={level}", "QM1", data_dir=data_dir)
    assert done.returncode == code and said in done.stdout
    assert "STATUS(Ended normally)" in run_mqsh("dspmq", data_dir=data_dir).stdout


@pytest.mark.parametrize(
    "words, code, said",
    [
        (["-r", "QM1"], 71, "AMQ7087E: Queue manager 'QM1' is not a backup queue manager."),
        (["-a", "QM1"], 71, "AMQ7087E: Queue manager 'QM1' is not a backup queue manager."),
        (["-r", "QMA"], 71, "AMQ7369E"),
        (["-si", "QM1"], 36, "-si (service mode) is not supported"),
        (["-ss", "QM1"], 36, "-ss (service mode) is not supported"),
    ],
)
def test_strmqm_refuses_what_the_model_has_no_such_thing_for(data_dir, words, code, said):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    assert (
        run_mqsh("crtmqm", "-ll", "--log-management", "automatic", "QMA", data_dir=data_dir).returncode == 0
    )
    done = run_mqsh("strmqm", *words, data_dir=data_dir)
    assert done.returncode == code and said in done.stdout + done.stderr
    assert "Running" not in run_mqsh("dspmq", data_dir=data_dir).stdout


def test_strmqm_x_starts_the_first_instance_and_a_second_finds_it_running(data_dir):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    first = run_mqsh("strmqm", "-x", "QM1", data_dir=data_dir)
    assert first.returncode == 0 and "IBM MQ queue manager 'QM1' started." in first.stdout
    assert run_mqsh("strmqm", "-x", "QM1", data_dir=data_dir).returncode == 5


def test_strmqm_f_makes_a_missing_object_folder_again(data_dir):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    folder = data_dir / "qmgrs" / "QM1" / "namelist"
    shutil.rmtree(folder)
    assert run_mqsh("strmqm", "-f", "QM1", data_dir=data_dir).returncode == 0
    assert folder.is_dir()
    assert run_mqsh("endmqm", "-w", "QM1", data_dir=data_dir).returncode == 0
    shutil.rmtree(folder)
    assert run_mqsh("strmqm", "QM1", data_dir=data_dir).returncode == 0
    assert not folder.exists()  # without -f a missing folder stays missing
