"""A short run of the shared crash loop: mqsh killed with SIGKILL at random points, every restart
checked against a durability oracle (no committed message lost, nothing uncommitted visible, every
restart clean). The long runs docs/reliability.md quotes use the same tool with more kill points."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support import REPO, mqsh_executable

pytestmark = pytest.mark.slow

CRASHLOOP = REPO.parent / "shared" / "tools" / "crashloop.py"
ITERATIONS = 15  # per log type: about thirty kill points in all


def test_no_kill_point_loses_a_committed_message_or_shows_uncommitted_work(tmp_path):
    if not CRASHLOOP.exists():
        pytest.skip(f"{CRASHLOOP} is not present: the crash loop runs where ../shared is")
    env = dict(os.environ, MQSH_BIN=mqsh_executable(), TMPDIR=str(tmp_path))
    done = subprocess.run(
        [
            sys.executable,
            str(CRASHLOOP),
            str(ITERATIONS),
            "23",
            "--logs",
            "circular,linear",
            "--time-limit",
            "300",
            "--out",
            str(tmp_path / "violations"),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 lost committed, 0 uncommitted visible, 0 failed restarts, 0 tracebacks" in last, last
