"""A short run of the shared fuzzer: fuzzed MQSC, lab and control command lines and raw bytes into batch
sessions, and control commands from the operating system, end with no traceback, hang or queue manager
that cannot start."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

FUZZ = SHARED / "tools" / "fuzz.py"
SEED = 17


def mqsh_bin() -> str:
    return shutil.which("mqsh") or str(Path(sys.executable).parent / "mqsh")


@pytest.mark.skipif(not FUZZ.is_file(), reason="../shared/tools/fuzz.py (the fuzzer) is not present")
def test_a_short_fuzz_run_finds_no_defect(tmp_path):
    env = dict(os.environ, MQSH_BIN=mqsh_bin())
    done = subprocess.run([sys.executable, str(FUZZ), "2000", str(SEED), "--os-runs", "50", "--timeout", "120",
                           "--out", str(tmp_path / "defects")],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False)
    report = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert report and " 0 defects " in report[-1], report[-20:]
