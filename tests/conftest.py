"""Shared fixtures: a fresh data directory per test, and the shared corpus when present."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from mqsh.shell.session import Session
from tests.support import copy_data_dir

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


SPARK_FIXTURES = {"spark_runner", "connect_master"}


def pytest_configure(config):
    """Leaving the slow tests out is the working loop: property tests try fewer examples there
    (tests.support.examples); the full suite tries them all."""
    import tests.support

    tests.support.WORKING_LOOP = "not slow" in (config.option.markexpr or "")


def pytest_collection_modifyitems(items):
    """Mark what needs Spark (a Spark fixture, or an engine parameter of "spark") and what drives a
    pseudo-terminal (a module using pexpect), so that `-m "not spark and not pty"` leaves them out;
    slow modules mark themselves (pytestmark = pytest.mark.slow)."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if SPARK_FIXTURES & set(item.fixturenames) or "spark" in params.values():
            item.add_marker(pytest.mark.spark)
        if getattr(item.module, "pexpect", None) is not None:
            item.add_marker(pytest.mark.pty)


@pytest.fixture(scope="session")
def language_cache(tmp_path_factory) -> Path:
    """One cache folder for the test session: the catalogue and grammar are parsed once for all
    the child processes the tests start, not once in each."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch, language_cache):
    """Nothing a test does may touch the user's own data, config or history."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(language_cache))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.delenv("MQSH_DATA_DIR", raising=False)


@pytest.fixture
def python_interrupt_handler():
    """Python's own Ctrl-C handler for a test that interrupts itself, whatever the process had (a
    Spark context installs one of its own; a job started in the background of a shell ignores
    SIGINT), and what was there given back after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"


@pytest.fixture(scope="session")
def made(tmp_path_factory):
    """made(data_dir, *commands): a session on data_dir as the commands leave it (commands that start
    no queue manager: crtmqm, csq5pqsg). Each set of commands runs once in the test session, in a
    data directory of its own, and each test gets a copy of it (qm.ini's LogPath naming the copy):
    creating queue managers costs more than copying their files."""
    templates: dict[tuple[str, ...], Path] = {}

    def make(data_dir: Path, *commands: str) -> Session:
        if commands not in templates:
            template = tmp_path_factory.mktemp("template") / "data"
            maker = Session(template)
            for command in commands:
                assert maker.execute(command).ok, command
            maker.close()
            templates[commands] = template
        copy_data_dir(templates[commands], data_dir)
        return Session(data_dir)

    return make


@pytest.fixture
def session(data_dir, made):
    """A session on a freshly created and started QM1."""
    new = made(data_dir, "crtmqm QM1")
    assert new.execute("strmqm QM1").ok
    new.current_qmgr = "QM1"
    yield new
    new.close()


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared (corpus and transcripts) is not present")
    return SHARED


@pytest.fixture
def group(data_dir, made):
    """QM1 and QM2, members of QSGA, both running; the session works with QM1."""
    session = made(
        data_dir,
        "crtmqm QM1",
        "crtmqm QM2",
        "csq5pqsg ADD QSG QSGA",
        "csq5pqsg ADD QMGR QM1 QSGA",
        "csq5pqsg ADD QMGR QM2 QSGA",
    )
    for command in ("strmqm QM1", "strmqm QM2"):
        assert session.execute(command).ok, command
    session.current_qmgr = "QM1"
    yield session
    session.close()


@pytest.fixture
def shared_queue_group(group):
    """The group with structure APP1 (recoverable, offloading to the members' data sets) and SQ1, a
    shared queue of persistent messages on it."""
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
    ):
        assert group.execute(command).ok, command
    return group
