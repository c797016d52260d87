"""The shell's own commands in a pseudo-terminal, as a user types them: \\e, \\pager, \\timing, \\i."""

from __future__ import annotations

import stat

from tests.shell.test_repl_pty import (  # noqa: F401 - the fixtures the tests below use
    TIMEOUT,
    data_dir_with_qm1,
    environment,
    readable,
    start_shell,
)


def test_edit_puts_what_was_saved_at_the_prompt_and_enter_runs_it(start_shell, tmp_path):
    seen = tmp_path / "seen.txt"
    editor = tmp_path / "editor"
    editor.write_text(f'#!/bin/sh\ncp "$1" {seen}\nprintf "DISPLAY QMGR QMNAME\\n" > "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
    shell = start_shell(EDITOR=str(editor))
    shell.run("DEFINE QLOCAL(P1)", "AMQ8006I")
    shell.send("\\e\r")
    shell.expect("QMNAME")  # the saved command is drawn in the input (its words highlighted apart)
    assert "QM1> DISPLAY QMGR QMNAME" in readable(shell.transcript.getvalue())
    assert "QMNAME(QM1)" not in readable(shell.transcript.getvalue())  # not yet run
    shell.send("\r")
    shell.expect("QMNAME(QM1)")
    assert seen.read_text() == "DEFINE QLOCAL(P1)\n"


def test_a_response_taller_than_the_screen_goes_through_the_pager(start_shell):
    shell = start_shell(PAGER="sed s/^/PAGED:/")
    shell.run("DISPLAY QMGR QMNAME", "QMNAME(QM1)")
    assert "PAGED:" not in shell.transcript.getvalue()  # two lines fit on the screen
    shell.run("DISPLAY QMGR", "PAGED:   QMNAME(QM1)")  # dozens do not
    shell.run("\\pager off", "Pager usage is off.")
    before = len(shell.transcript.getvalue())
    shell.run("DISPLAY QMGR", "QMNAME(QM1)")
    assert "PAGED:" not in shell.transcript.getvalue()[before:]


def test_timing_at_the_prompt(start_shell):
    shell = start_shell()
    shell.run("\\timing on", "Timing is on.")
    shell.send("DISPLAY QMGR QMNAME\r")
    shell.child.expect(r"Time: \d+\.\d{3} ms", timeout=TIMEOUT)
    shell.expect("QM1>")


def test_include_at_the_prompt_and_the_sessions_summary_counts_its_commands(start_shell, tmp_path):
    lab = tmp_path / "lab.mqsc"
    lab.write_text("DEFINE QLOCAL(INC1)\nDEFINE QLOCAL(INC1)\n")
    shell = start_shell()
    shell.run(f"\\i {lab}", "One valid MQSC command could not be processed.")
    assert "     2 : DEFINE QLOCAL(INC1)" in readable(shell.transcript.getvalue())
    shell.run("\\i /no/such/lab.mqsc", "mqsh: \\i: cannot read /no/such/lab.mqsc: No such file or directory.")
    shell.send("END\r")
    shell.expect("2 MQSC commands read.")
    assert shell.exit_status() == 10  # the file's second DEFINE failed
    assert "Traceback" not in shell.transcript.getvalue()
