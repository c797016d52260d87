"""Helpers shared by test modules."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from tests import forked

REPO = Path(__file__).resolve().parents[1]
# Whether the slow tests are left out (-m "not slow ..."): the working loop (set by conftest.py).
WORKING_LOOP = False


def examples(full: int) -> int:
    """How many examples a property test tries: all of them in the full suite, an eighth (5 at
    least) in the working loop, which then still tries each property on fresh random cases."""
    return max(5, full // 8) if WORKING_LOOP else full


def run_mqsh(
    *args: str, stdin: str = "", data_dir: Path, timeout: float = 60, env: dict[str, str] | None = None
):
    """mqsh in a child process, as a user runs it (env: variables set for it besides); the process
    is forked from one that has imported mqsh already (tests.forked)."""
    env = dict(os.environ, MQSH_DATA_DIR=str(data_dir), **(env or {}))
    return forked.run_mqsh(list(args), stdin, env, REPO, timeout)


def copy_data_dir(template: Path, data_dir: Path) -> None:
    """A data directory made once, copied for a test: qm.ini's LogPath names the copy's own log."""
    shutil.copytree(template, data_dir, symlinks=True)
    for ini in data_dir.glob("qmgrs/*/qm.ini"):
        ini.write_text(ini.read_text().replace(str(template), str(data_dir)))


def mqsh_executable() -> str:
    """The installed mqsh command beside this interpreter (or on PATH), for tools that run it."""
    import pytest

    beside = Path(sys.executable).parent / "mqsh"
    found = str(beside) if beside.exists() else shutil.which("mqsh")
    if found is None:
        pytest.skip("the mqsh command is not installed")
    return found


def started_qmgr(data_dir: Path, options: str, name: str):
    """(session, queue manager): a queue manager created with crtmqm options, started, current, and
    holding a local queue Q1 deep enough for any test."""
    from mqsh.shell.session import Session

    session = Session(data_dir)
    assert session.execute(f"crtmqm {options} {name}").ok
    assert session.execute(f"strmqm {name}").ok
    session.current_qmgr = name
    assert session.execute("DEFINE QLOCAL(Q1) MAXDEPTH(999999)").ok
    return session, session.installation.connect(name)


class Killed(BaseException):
    """The process dies here: nothing after this point happens (a kill injected by a test)."""


def kill_sometimes(rng, function, odds: float):
    """function, raising Killed instead of running with probability odds (rng: random.Random)."""

    def maybe_killed(*args, **kwargs):
        if rng.random() < odds:
            raise Killed(function.__name__)
        return function(*args, **kwargs)

    return maybe_killed
