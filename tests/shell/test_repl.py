"""The REPL's loop pieces that need no terminal: running an accepted input, opening the history."""

from __future__ import annotations

import os

import pytest
from prompt_toolkit.history import FileHistory, InMemoryHistory

from mqsh.responses import Result
from mqsh.shell.completer import SessionNames
from mqsh.shell.repl import open_history, run_input


class RecordingSession:
    """Runs nothing; remembers each command and answers from a script."""

    def __init__(self, answers: dict[str, Result | Exception] | None = None):
        self.answers = answers or {}
        self.executed: list[str] = []

    def execute(self, text: str) -> Result:
        self.executed.append(text)
        answer = self.answers.get(text, Result.message(f"ran {text}"))
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def render_parts(self, result: Result) -> tuple[str, str]:
        return "\n".join(response.line() for response in result.responses), ""

    def object_names(self, target: str) -> list[str]:
        return []

    def qmgr_names(self) -> list[str]:
        return []


def run(session: RecordingSession, text: str) -> bool:
    return run_input(session, text, SessionNames(session))


def test_each_command_of_a_pasted_input_runs_joined(capsys):
    session = RecordingSession()
    assert run(session, "* a comment\nDEFINE QLOCAL(Q1) +\n  MAXDEPTH(5)\n\nDIS QL(Q1)") is False
    assert session.executed == ["DEFINE QLOCAL(Q1) MAXDEPTH(5)", "DIS QL(Q1)"]
    assert capsys.readouterr().out == "ran DEFINE QLOCAL(Q1) MAXDEPTH(5)\nran DIS QL(Q1)\n"


def test_end_stops_the_input_and_the_session():
    session = RecordingSession({"END": Result(ends_session=True)})
    assert run(session, "DIS QMGR\nEND\nDIS QMGR") is True
    assert session.executed == ["DIS QMGR", "END"]


def test_a_fault_is_one_line_and_the_shell_goes_on(capsys, monkeypatch):
    monkeypatch.delenv("MQSH_DEBUG", raising=False)
    session = RecordingSession({"BOOM": RuntimeError("model broke")})
    assert run(session, "BOOM") is False
    captured = capsys.readouterr()
    assert captured.err == "mqsh: internal error: RuntimeError: model broke. Set MQSH_DEBUG=1 to see where.\n"
    assert "Traceback" not in captured.out + captured.err


def test_a_data_directory_that_fails_is_one_line_and_the_shell_goes_on(capsys):
    error = OSError(28, "No space left on device", "/data/log/QM1/active/S0000003.LOG")
    assert run(RecordingSession({"PUT": error}), "PUT") is False
    assert (
        capsys.readouterr().err
        == "mqsh: cannot use /data/log/QM1/active/S0000003.LOG: No space left on device.\n"
    )


def test_mqsh_debug_shows_where_a_fault_happened(capsys, monkeypatch):
    monkeypatch.setenv("MQSH_DEBUG", "1")
    run(RecordingSession({"BOOM": RuntimeError("model broke")}), "BOOM")
    assert "Traceback" in capsys.readouterr().err


def test_ctrl_c_during_a_command_returns_to_the_prompt(capsys):
    session = RecordingSession({"SLOW": KeyboardInterrupt()})
    assert run(session, "SLOW\nDIS QMGR") is False
    assert session.executed == ["SLOW"]
    assert "interrupted" in capsys.readouterr().err


def test_history_file_and_its_directory_are_created(tmp_path):
    history_file = tmp_path / "state" / "mqsh" / "history"
    assert isinstance(open_history(history_file), FileHistory)
    assert history_file.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_history_that_cannot_be_written_lasts_the_session(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert isinstance(open_history(locked / "mqsh" / "history"), InMemoryHistory)
    finally:
        locked.chmod(0o700)
    assert "history will not be saved" in capsys.readouterr().err


def test_history_under_a_file_lasts_the_session(tmp_path, capsys):
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    assert isinstance(open_history(blocker / "mqsh" / "history"), InMemoryHistory)
    assert "history will not be saved" in capsys.readouterr().err
