"""A short run of the shared fuzzer: mutated real MQSC, catalogue-built commands, lab and control
commands and raw bytes into batch sessions, and random control command lines; no traceback, hang
or queue manager that no longer starts. The long runs docs/reliability.md quotes use the same tool."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support import REPO, mqsh_executable

pytestmark = pytest.mark.slow

FUZZ = REPO.parent / "shared" / "tools" / "fuzz.py"


def test_fuzzed_input_finds_no_defect(tmp_path):
    if not FUZZ.exists():
        pytest.skip(f"{FUZZ} is not present: the fuzzer runs where ../shared is")
    env = dict(os.environ, MQSH_BIN=mqsh_executable(), TMPDIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, str(FUZZ), "3000", "29", "--os-runs", "60", "--out", str(tmp_path / "defects")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " 0 defects " in last, last
