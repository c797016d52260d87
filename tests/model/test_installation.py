"""The installation: a queue manager's qm.ini as a start reads it, its deletion, and the parts it loads."""

from __future__ import annotations

import ast

import pytest

from tests.recovery.helpers import run, started
from tests.support import run_mqsh


def files_of(data_dir) -> dict[str, bytes]:
    return {
        str(path.relative_to(data_dir)): path.read_bytes()
        for path in sorted(data_dir.rglob("*"))
        if path.is_file() and path.name != "clock"
    }


@pytest.fixture
def linear_ended(data_dir):
    """A linear queue manager with three persistent messages, ended cleanly."""
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(3)", "endmqm QM1")
    yield session
    session.close()


@pytest.mark.parametrize("spoil", ["delete", "empty", "garbage", "no log stanza"])
def test_a_qm_ini_that_cannot_be_read_refuses_the_start_and_changes_nothing(linear_ended, data_dir, spoil):
    ini = linear_ended.installation.paths("QM1").qm_ini
    if spoil == "delete":
        ini.unlink()
    elif spoil == "empty":
        ini.write_bytes(b"")
    elif spoil == "garbage":
        ini.write_bytes(b"\xff\xfe\x00Log:\n\x80")
    else:
        ini.write_text("QueueManager:\n   Name=QM1\n")
    before = files_of(data_dir)
    result = linear_ended.execute("strmqm QM1")
    assert not result.ok and result.code == 71
    assert "mqsh: queue manager QM1 cannot start: " in linear_ended.render(result)
    assert "qm.ini" in linear_ended.render(result)
    assert files_of(data_dir) == before
    assert linear_ended.installation.status("QM1") == "ENDED"


def test_a_queue_manager_whose_qm_ini_is_lost_still_exists(linear_ended, data_dir):
    """Not created again over its files with a circular log's defaults, by crtmqm or by mqsh's first run."""
    linear_ended.installation.paths("QM1").qm_ini.unlink()
    before = files_of(data_dir)
    assert linear_ended.installation.names() == ["QM1"]
    assert run(linear_ended, "crtmqm QM1") == ["AMQ8110E: IBM MQ queue manager 'QM1' already exists."]
    assert run(linear_ended, "dspmq")[0].endswith("STATUS(Ended normally)")
    done = run_mqsh(stdin="DISPLAY QMGR QMNAME\n", data_dir=data_dir)
    assert "created and started" not in done.stderr
    assert "AMQ8146E: IBM MQ queue manager not available." in done.stdout
    assert done.returncode == 10  # the default is attached by the command that needs it, which fails
    assert files_of(data_dir) == before


def test_a_log_stanza_without_a_log_path_is_not_taken_for_a_circular_log(linear_ended):
    ini = linear_ended.installation.paths("QM1").qm_ini
    ini.write_text("\n".join(line for line in ini.read_text().splitlines() if "LogPath" not in line) + "\n")
    result = linear_ended.execute("strmqm QM1")
    assert not result.ok
    assert "has no LogPath" in linear_ended.render(result)


def test_a_deleted_queue_manager_no_longer_exists(linear_ended):
    assert run(linear_ended, "dltmqm QM1") == ["IBM MQ queue manager 'QM1' deleted."]
    assert linear_ended.installation.names() == []
    assert not linear_ended.installation.exists("QM1")


def test_a_settle_lists_the_queue_managers_once_and_the_next_command_lists_them_again(session):
    installation = session.installation
    with installation.settling():
        assert installation.names() == ["QM1"]
        (installation.data_dir / "qmgrs" / "QM2").mkdir()
        installation.paths("QM2").qm_ini.write_text("QueueManager:\n   Name=QM2\n")
        assert installation.names() == ["QM1"]
    assert installation.names() == ["QM1", "QM2"]


# The parts a queue manager in no cluster and no queue-sharing group never builds, nor loads.
LAZY_PARTS = (
    "mqsh.model.cluster.clusters",
    "mqsh.model.cluster.manager",
    "mqsh.model.network.channels",
    "mqsh.model.qsg.shared_messages",
)


def parts_loaded(data_dir, commands: str) -> list[str]:
    """Which of LAZY_PARTS a fresh mqsh loads to run commands as a report."""
    import subprocess
    import sys

    from tests.support import REPO

    probe = (
        "import atexit, runpy, sys\n"
        f"atexit.register(lambda: print(sorted(m for m in {LAZY_PARTS!r} if m in sys.modules), file=sys.stderr))\n"
        "sys.argv = ['mqsh', '--data-dir', sys.argv[1]]\nrunpy.run_module('mqsh', run_name='__main__')"
    )
    child = subprocess.run(
        [sys.executable, "-c", probe, str(data_dir)], input=commands, capture_output=True, text=True, cwd=REPO
    )
    assert "MQSC command" in child.stdout, child.stdout + child.stderr
    return ast.literal_eval(child.stderr.strip().splitlines()[-1])


def test_a_queue_manager_in_no_cluster_and_no_group_loads_no_channels_clusters_or_shared_messages(data_dir):
    for control in (["crtmqm", "QM1"], ["strmqm", "QM1"]):
        assert run_mqsh(*control, data_dir=data_dir).returncode == 0
    work = "DISPLAY QMGR\nDEFINE QLOCAL(Q1)\nLAB PUT QUEUE(Q1) COUNT(2)\nLAB GET QUEUE(Q1)\nDISPLAY QLOCAL(Q1) CURDEPTH\n"
    assert parts_loaded(data_dir, work) == []
    # A channel started, and the channels are built; a cluster receiver, and the clusters work too.
    assert parts_loaded(
        data_dir,
        "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2)\n"
        "DEFINE QLOCAL(QM2) USAGE(XMITQ)\nSTART CHANNEL(TO.QM2)\n",
    ) == ["mqsh.model.cluster.clusters", "mqsh.model.cluster.manager", "mqsh.model.network.channels"]
    assert parts_loaded(
        data_dir, "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CONNAME('qm1(1414)') CLUSTER(DEMO)\n"
    ) == ["mqsh.model.cluster.clusters", "mqsh.model.cluster.manager", "mqsh.model.network.channels"]


def test_a_member_of_a_queue_sharing_group_loads_its_shared_messages(data_dir):
    for control in (
        ["crtmqm", "QM1"],
        ["csq5pqsg", "ADD", "QSG", "QSGA"],
        ["csq5pqsg", "ADD", "QMGR", "QM1", "QSGA"],
        ["strmqm", "QM1"],
    ):
        assert run_mqsh(*control, data_dir=data_dir).returncode == 0
    assert parts_loaded(data_dir, "DISPLAY QMGR\n") == ["mqsh.model.qsg.shared_messages"]
