"""Valid MQSC that mqsh does not carry out yet gets one clear message, never an internal error."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "text, verb_and_target",
    [
        ("DISPLAY USAGE TYPE(PAGESET)", "DISPLAY USAGE"),
        ("DISPLAY USAGE TYPE(ALL)", "DISPLAY USAGE"),  # outside a queue-sharing group
        ("DISPLAY APSTATUS(*) TYPE(QMGR) ALL", "DISPLAY APSTATUS"),
        ("DISPLAY AUTHSERV ALL", "DISPLAY AUTHSERV"),
        ("CLEAR TOPICSTR('prices/fruit') CLRTYPE(RETAINED) SCOPE(LOCAL)", "CLEAR TOPICSTR"),
        ("START CHINIT INITQ(SYSTEM.CHANNEL.INITQ)", "START CHINIT"),
        ("PURGE CHANNEL(MQTT.CHL) CLIENTID('client1')", "PURGE CHANNEL"),
    ],
)
def test_valid_mqsc_not_carried_out_says_so(session, text, verb_and_target):
    result = session.execute(text)
    assert not result.ok
    assert (
        result.responses[0].line()
        == f"AMQ8698E: mqsh does not carry out {verb_and_target} yet; the command is valid MQSC."
    )


def test_every_handler_named_in_the_table_is_there():
    """The table names handlers as text (imported when first used): a module or function renamed
    without it would fail only when a user first gave that command."""
    from mqsh.commands import dispatch

    names = [
        *dispatch.OBJECT_VERBS.values(),
        *dispatch.SPECIAL.values(),
        *dispatch.SHARED_QUEUE_VERBS.values(),
        dispatch.GROUP_DEFINITIONS,
        dispatch.NOT_CARRIED_OUT,
        dispatch.BEFORE_COMMAND,
    ]
    assert all(callable(dispatch.handler_named(name)) for name in names)


def test_a_report_loads_only_the_command_families_it_uses(tmp_path):
    """Through the shell: DISPLAY QMGR loads neither the cluster's commands nor the structures'
    recovery; a DISPLAY CLUSQMGR in the same kind of report loads the cluster's."""
    import subprocess
    import sys

    from tests.support import REPO, run_mqsh

    for control in (["crtmqm", "QM1"], ["strmqm", "QM1"]):
        assert run_mqsh(*control, data_dir=tmp_path / "data").returncode == 0
    families = (
        "mqsh.commands.network.cluster",
        "mqsh.commands.qsg.backup_recover",
        "mqsh.commands.control.dmpmqcfg",
        "mqsh.commands.control.media",
        "tabulate",
    )
    probe = (
        "import atexit, runpy, sys\n"
        f"atexit.register(lambda: print(sorted(m for m in {families!r} if m in sys.modules), file=sys.stderr))\n"
        "sys.argv = ['mqsh', '--data-dir', sys.argv[1]]\nrunpy.run_module('mqsh', run_name='__main__')"
    )

    def loaded(commands: str) -> str:
        child = subprocess.run(
            [sys.executable, "-c", probe, str(tmp_path / "data")],
            input=commands,
            capture_output=True,
            text=True,
            cwd=REPO,
        )
        assert "One MQSC command read." in child.stdout, child.stdout + child.stderr
        return child.stderr.strip().splitlines()[-1]

    assert loaded("DISPLAY QMGR\n") == "[]"
    assert loaded("DISPLAY CLUSQMGR(*)\n") == "['mqsh.commands.network.cluster']"
