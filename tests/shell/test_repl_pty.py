"""The real `mqsh QM1` in a pseudo-terminal, driven as a user types.

Each test starts `python -m mqsh --data-dir DIR QM1` with prompt-toolkit's
cursor-position request off (PROMPT_TOOLKIT_NO_CPR), a fixed window, a
temporary HOME/XDG tree and cat as the pager. prompt-toolkit draws "QM1> " as "QM1>" and a cursor
move, so tests wait for "QM1>"; after a command they wait for its output
first, because the accepted line is redrawn with its prompt too.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support import REPO, copy_data_dir, run_mqsh

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")
TIMEOUT = 15


def readable(raw: str) -> str:
    return ANSI.sub("", raw).replace("\r", "")


class Terminal:
    """A pexpect child whose timeouts say what was expected and what the screen showed."""

    def __init__(self, child: pexpect.spawn, transcript: io.StringIO, prompt: str):
        self.child = child
        self.transcript = transcript
        self.prompt = prompt

    def send(self, text: str) -> None:
        self.child.send(text)

    def expect(self, text: str) -> None:
        try:
            self.child.expect_exact(text, timeout=TIMEOUT)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            seen = readable(self.transcript.getvalue())[-2000:]
            raise AssertionError(
                f"expected {text!r} ({type(error).__name__})\n"
                f"--- actual (ANSI stripped, last 2000 characters) ---\n{seen}"
            ) from None

    def run(self, command: str, response: str) -> None:
        """Type a command, wait for its response and the next prompt."""
        self.send(command + "\r")
        self.expect(response)
        self.expect(self.prompt)

    def exit_status(self) -> int | None:
        self.expect_end()
        self.child.close()
        return self.child.exitstatus

    def expect_end(self) -> None:
        try:
            self.child.expect(pexpect.EOF, timeout=TIMEOUT)
        except pexpect.TIMEOUT:
            seen = readable(self.transcript.getvalue())[-2000:]
            raise AssertionError(f"expected mqsh to end\n--- actual (ANSI stripped) ---\n{seen}") from None


QM1_MADE: dict[str, Path] = {}  # the data directory data_dir_with_qm1 copies, once it is made


@pytest.fixture
def data_dir_with_qm1(tmp_path, tmp_path_factory) -> Path:
    """QM1 created and started by mqsh processes that have ended: made once, copied for each test
    (here and in the modules that import these fixtures)."""
    if "template" not in QM1_MADE:
        template = tmp_path_factory.mktemp("qm1") / "data"
        for control in (["crtmqm", "QM1"], ["strmqm", "QM1"]):
            result = run_mqsh(*control, data_dir=template)
            assert result.returncode == 0, result.stdout + result.stderr
        QM1_MADE["template"] = template
    data_dir = tmp_path / "data"
    copy_data_dir(QM1_MADE["template"], data_dir)
    return data_dir


@pytest.fixture
def environment(tmp_path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MQSH_", "MQPROMPT"))}
    env.update(
        PROMPT_TOOLKIT_NO_CPR="1",
        TERM="xterm",
        HOME=str(tmp_path / "home"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "xdg-data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        PAGER="cat",  # the pager is on, as in pgcli: a long response must not wait for a key here
    )
    return env


@pytest.fixture
def start_shell(data_dir_with_qm1, environment):
    children: list[pexpect.spawn] = []

    def start(prompt: str = "QM1>", **extra_env: str) -> Terminal:
        transcript = io.StringIO()
        child = pexpect.spawn(
            sys.executable,
            ["-m", "mqsh", "--data-dir", str(data_dir_with_qm1), "QM1"],
            cwd=str(REPO),
            env={**environment, **extra_env},
            dimensions=(40, 120),
            encoding="utf-8",
            codec_errors="replace",
            timeout=TIMEOUT,
        )
        child.logfile_read = transcript
        children.append(child)
        terminal = Terminal(child, transcript, prompt)
        terminal.expect(prompt)
        return terminal

    yield start
    for child in children:
        if child.isalive():
            child.terminate(force=True)


def test_define_and_end(start_shell):
    shell = start_shell()
    assert "Starting MQSC for queue manager QM1." in readable(shell.transcript.getvalue())
    shell.run("DEFINE QLOCAL(Q1)", "AMQ8006I: IBM MQ queue created.")
    shell.run("DEFINE QLOCAL(Q1)", "AMQ8150E")  # exists already: could not be processed
    shell.send("END\r")
    shell.expect("2 MQSC commands read.")  # runmqsc's summary, as it ends an interactive session
    shell.expect("No commands have a syntax error.")
    shell.expect("One valid MQSC command could not be processed.")
    assert shell.exit_status() == 10  # runmqsc's: processed with errors, at a terminal as in a script
    assert "Traceback" not in shell.transcript.getvalue()


def test_continued_command(start_shell):
    shell = start_shell()
    shell.send("DEFINE QLOCAL(Q2) +\r")
    shell.expect(":")  # the continuation line's marker ("   : ")
    shell.run("   DESCR('second line')", "AMQ8006I")
    shell.run("DIS QL(Q2) DESCR", "DESCR(second line)")


def test_tab_completes_a_verb(start_shell):
    shell = start_shell()
    shell.send("DEFI")
    shell.expect("DEFINE")  # the completion menu is up
    shell.send("\t")
    shell.run(" QLOCAL(Q3)", "AMQ8006I")


def test_ctrl_c_abandons_the_input(start_shell):
    shell = start_shell()
    shell.send("DEFINE QLOCAL(ABANDONED)")
    shell.send("\x03")
    shell.expect("QM1>")
    shell.run("DIS QL(ABANDONED)", "AMQ8147E")
    shell.send("quit\r")
    assert shell.exit_status() == 10  # the DISPLAY found nothing


def test_history_is_written(start_shell, tmp_path):
    shell = start_shell()
    shell.run("DIS QMGR", "AMQ8408I")
    shell.send("exit\r")
    assert shell.exit_status() == 0
    history = tmp_path / "state" / "mqsh" / "history"
    assert "+DIS QMGR" in history.read_text()


def test_format_json(start_shell):
    shell = start_shell()
    shell.run("DEFINE QLOCAL(Q1)", "AMQ8006I")
    shell.run("\\format json", "json")
    shell.run("DIS QL(Q1)", '"QUEUE": "Q1"')


def test_syntax_error_is_reported_the_runmqsc_way(start_shell):
    shell = start_shell()
    shell.run("DEFINE QLOCAL(Q1) NOSUCHATTR(1)", "AMQ8405I")
    shell.send("END\r")
    shell.expect("One command has a syntax error.")
    assert shell.exit_status() == 10
    assert "Traceback" not in shell.transcript.getvalue()


def test_help_and_shell_commands_are_not_counted_as_mqsc_commands(start_shell):
    shell = start_shell()
    shell.run("help", "Leave mqsh.")
    shell.run("help NOSUCHTOPIC", "no help for")
    shell.run("\\format xml", "usage: \\format")  # refused, but no MQSC command that failed
    shell.run("\\format mqsc", "Output format is mqsc.")
    shell.send("END\r")
    shell.expect("No MQSC commands read.")
    shell.expect("All valid MQSC commands were processed.")
    assert shell.exit_status() == 0


def test_ctrl_d_leaves(start_shell):
    shell = start_shell()
    shell.send("\x04")
    shell.expect("No MQSC commands read.")
    assert shell.exit_status() == 0


def test_mqprompt(start_shell):
    shell = start_shell(prompt="QM1 on mqsh", MQPROMPT="+QMNAME+ on mqsh")
    shell.run("DIS QMGR", "AMQ8408I")


def test_a_typo_is_answered_in_three_lines_and_help_shows_the_syntax(start_shell):
    shell = start_shell()
    before = len(shell.transcript.getvalue())
    shell.run("DISPLAY QLOCAL(Q1) CURDPTH", "Type help DISPLAY QLOCAL for the full syntax.")
    answer = [line for line in readable(shell.transcript.getvalue()[before:]).splitlines() if line.strip()]
    assert any("AMQ8405I" in line for line in answer)
    assert any(line.startswith("Did you mean CURDEPTH") for line in answer)
    assert not any("AMQ8427I" in line for line in answer)  # the 40-line usage is one help away
    shell.run("help DISPLAY QLOCAL CURDEPTH", "DISPLAY QLOCAL CURDEPTH: ")


def test_a_long_load_shows_its_progress_and_stops_whole_on_ctrl_c(start_shell):
    shell = start_shell()
    shell.run("DEFINE QLOCAL(BIG)", "AMQ8006I")
    shell.send("LAB LOAD QUEUE(BIG) RECORDS(50000000)\r")
    shell.expect("records/s); Ctrl-C stops")  # the status line, on the terminal
    shell.send("\x03")
    shell.expect("LAB LOAD interrupted: ")
    shell.expect("the rest were not written.")
    shell.expect("QM1>")
    shell.run("DISPLAY QLOCAL(BIG) CURDEPTH", "CURDEPTH(")
    assert "Traceback" not in shell.transcript.getvalue()


def test_an_empty_data_directory_gets_qm1_created_started_and_said_on_stderr(environment, tmp_path):
    """`mqsh --data-dir EMPTY` at a terminal: QM1 is made and started before the prompt, said on
    stderr (here a file, the terminal having stdin and stdout), and it is the queue manager used."""
    data_dir, errors = tmp_path / "empty", tmp_path / "stderr.txt"
    command = f'exec "{sys.executable}" -m mqsh --data-dir "{data_dir}" 2>"{errors}"'
    transcript = io.StringIO()
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", command],
        cwd=str(REPO),
        env=environment,
        dimensions=(40, 120),
        encoding="utf-8",
        codec_errors="replace",
        timeout=TIMEOUT,
    )
    child.logfile_read = transcript
    shell = Terminal(child, transcript, "QM1>")
    try:
        shell.expect("Starting MQSC for queue manager QM1.")
        shell.expect("QM1>")
        assert errors.read_text() == f"mqsh: no queue manager in {data_dir}; created and started QM1.\n"
        shell.run("DISPLAY QMGR QMNAME", "QMNAME(QM1)")
        shell.send("END\r")
        assert shell.exit_status() == 0
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert "Traceback" not in transcript.getvalue() and "Traceback" not in errors.read_text()


def test_a_stopped_default_opens_the_prompt_so_that_strmqm_can_be_typed(data_dir_with_qm1, environment):
    """`mqsh` at a terminal with the default queue manager ended: the prompt opens after AMQ8146E,
    an MQSC command says again that it is not available, and after strmqm it is used. Named
    (`mqsh QM1`), the session ends at AMQ8146E as runmqsc's does."""
    assert run_mqsh("endmqm", "-i", "QM1", data_dir=data_dir_with_qm1).returncode == 0
    named = pexpect.spawn(
        sys.executable,
        ["-m", "mqsh", "--data-dir", str(data_dir_with_qm1), "QM1"],
        cwd=str(REPO),
        env=environment,
        dimensions=(40, 120),
        encoding="utf-8",
        timeout=TIMEOUT,
    )
    named.expect_exact("AMQ8146E")
    named.expect(pexpect.EOF)
    named.close()
    assert named.exitstatus != 0
    transcript = io.StringIO()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mqsh", "--data-dir", str(data_dir_with_qm1)],
        cwd=str(REPO),
        env=environment,
        dimensions=(40, 120),
        encoding="utf-8",
        codec_errors="replace",
        timeout=TIMEOUT,
    )
    child.logfile_read = transcript
    shell = Terminal(child, transcript, "QM1>")
    try:
        shell.expect("AMQ8146E: IBM MQ queue manager not available.")
        shell.expect("QM1>")
        shell.run("DISPLAY QMGR QMNAME", "AMQ8146E")
        shell.run("strmqm QM1", "IBM MQ queue manager 'QM1' started.")
        shell.run("DISPLAY QMGR QMNAME", "QMNAME(QM1)")
        shell.send("END\r")
        shell.expect_end()
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert "Traceback" not in transcript.getvalue()


def test_echo_numbers_each_command_as_runmqsc_does(start_shell):
    """\\echo on: each command echoed before its response, numbered as a report numbers it (the
    commands before it counted too, help not), a continued command on its lines; \\echo off stops it."""
    shell = start_shell()
    shell.run("DISPLAY QMGR QMNAME", "QMNAME(QM1)")
    shell.run("help", "END")
    shell.run("\\echo on", "Echo is on.")
    shell.send("DEFINE QLOCAL(E1) +\rDESCR('typed')\r")
    shell.expect("     2 : DEFINE QLOCAL(E1) +")
    shell.expect("       : DESCR('typed')")
    shell.expect("AMQ8006I: IBM MQ queue created.")
    shell.expect("QM1>")
    shell.run("\\echo off", "Echo is off.")
    shell.run("DELETE QLOCAL(E1)", "AMQ8007I")
    assert "     3 : DELETE" not in readable(shell.transcript.getvalue())


def test_the_echo_flag_turns_it_on_from_the_start(data_dir_with_qm1, environment):
    transcript = io.StringIO()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mqsh", "--echo", "--data-dir", str(data_dir_with_qm1), "QM1"],
        cwd=str(REPO),
        env=environment,
        dimensions=(40, 120),
        encoding="utf-8",
        codec_errors="replace",
        timeout=TIMEOUT,
    )
    child.logfile_read = transcript
    shell = Terminal(child, transcript, "QM1>")
    try:
        shell.expect("QM1>")
        shell.run("DEFINE QLOCAL(RECEIVER.Q)", "     1 : DEFINE QLOCAL(RECEIVER.Q)")
        shell.send("END\r")
        shell.expect("     2 : END")
        shell.expect_end()
    finally:
        if child.isalive():
            child.terminate(force=True)
