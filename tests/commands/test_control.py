"""endmqm's modes: what each leaves for the next start, and what dspmq then says."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session
from tests.recovery.helpers import run, started
from tests.support import run_mqsh


@pytest.fixture
def with_work_in_flight(data_dir):
    """Five committed messages, and two more put in a unit of work still open."""
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(5)",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT")
    yield session
    session.close()


def depth(session) -> list[str]:
    return run(session, "DISPLAY QSTATUS(Q1) CURDEPTH UNCOM")[-1].split()


@pytest.mark.parametrize("option, said", [
    ("", ["Quiesce request accepted. The queue manager will stop when all outstanding work is complete."]),
    ("-c", ["Quiesce request accepted. The queue manager will stop when all outstanding work is complete."]),
    ("-w", ["Waiting for queue manager 'QM1' to end.", "IBM MQ queue manager 'QM1' ended."]),
    ("-w -r", ["Waiting for queue manager 'QM1' to end.", "IBM MQ queue manager 'QM1' ended."]),
])
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
    assert run(session, "endmqm -i QM1") == ["IBM MQ queue manager 'QM1' ending.", "IBM MQ queue manager 'QM1' ended."]
    assert run(session, "dspmq")[0].endswith("STATUS(Ended immediately)")
    assert run(session, "DISPLAY QMGR") == ["AMQ8146E: IBM MQ queue manager not available."]
    lines = run(session, "strmqm QM1")
    assert lines[-2] == "Transaction manager state recovered for queue manager 'QM1'. 1 in-flight unit of work backed out."
    assert session.installation.last_start.unclean is False  # the end still took its checkpoint
    assert depth(session) == ["CURDEPTH(5)", "UNCOM(NO)"]


def test_a_preemptive_end_is_recovered_from_like_a_failure(with_work_in_flight):
    session = with_work_in_flight
    assert run(session, "endmqm -p QM1") == ["IBM MQ queue manager 'QM1' ending.", "IBM MQ queue manager 'QM1' ended."]
    assert run(session, "dspmq")[0].endswith("STATUS(Ended preemptively)")
    lines = run(session, "strmqm QM1")
    assert lines[-2] == "Transaction manager state recovered for queue manager 'QM1'. 1 in-flight unit of work backed out."
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


@pytest.mark.parametrize("words", [["crtmqm", "-lc", "-ll", "QM9"], ["strmqm", "-x", "QM1"], ["crtmqm"],
                                   ["rcdmqimg", "-t", "nonsense", "Q1"]])
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
    assert run(session, "dspmq -o default") == [f"{'QMNAME(QA)':<58}DEFAULT(yes)", f"{'QMNAME(QC)':<58}DEFAULT(no)",
                                                f"{'QMNAME(QR)':<58}DEFAULT(no)"]
    everything = run(session, "dspmq -o all -m QA")[0]
    # The fields and their order are a real dspmq -o all's (MQ 9.4).
    assert everything == (f"{'QMNAME(QA)':<58}STATUS(Ended normally) DEFAULT(yes) STANDBY(Not applicable) "
                          f"INSTNAME(Installation1) INSTPATH({INSTALLATION_PATH}) INSTVER(0.1.0) "
                          "ROLE(Not configured) INSTANCE() INSYNC() QUORUM() GRPLSN() GRPNAME() GRPROLE(Not configured)")
    assert run(session, "dspmq -a") == [f"{'QMNAME(QR)':<58}STATUS(Running)"]
    replicated = run(session, "dspmq -x -o nativeha -m QR")
    host = "qr"  # the queue manager's host in the lab's network: its name in lower case
    assert replicated == [(f"{'QMNAME(QR)':<58}ROLE(Active) INSTANCE({host}) INSYNC(yes) QUORUM(1/1) "
                           "GRPLSN() GRPNAME() GRPROLE(Not configured)"),
                          f"    INSTANCE({host}) MODE(Active)"]
    refused = session.execute("dspmq -o everything")
    assert not refused.ok and refused.code == 36
    session.close()


@pytest.mark.parametrize("option, value", [("-lf", "٣"), ("-lp", "1_0"), ("-ls", "²"), ("--log-fs-size", "𝟘1"),
                                           ("--checkpoint-records", "1_000")])
def test_crtmqm_reads_numbers_written_with_the_digits_0_to_9_only(data_dir, option, value):
    done = run_mqsh("crtmqm", option, value, "QM9", data_dir=data_dir)
    assert done.returncode == 36 and "invalid number value" in done.stdout + done.stderr
    assert run_mqsh("dltmqm", "QM9", data_dir=data_dir).returncode == 16  # not created


def test_strmqm_ns_starts_no_channel_initiator_command_server_listeners_or_services(data_dir):
    from mqsh.shell.session import Session

    def shown(session, command):
        return session.render(session.execute(command))

    session = Session(data_dir, "QM1")
    for command in ("crtmqm QM1", "strmqm QM1", "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
                    "DEFINE SERVICE(S1) CONTROL(QMGR)", "endmqm QM1", "strmqm -ns QM1"):
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
