"""The interactive shell's own commands on a real session: \\i, \\o, \\pager, \\timing, \\e."""

from __future__ import annotations

import re
import stat
import sys

import pytest

from mqsh.shell.batch import Tally
from mqsh.shell.console import Console, timing_line
from mqsh.shell.external import ProgramFailed, page
from mqsh.shell.output import Output
from tests.support import run_mqsh


@pytest.fixture
def console(session) -> Console:
    session.brief_syntax_errors = True  # as at the prompt
    shell = Console(session)
    yield shell
    shell.close()


def script(tmp_path, name: str, body: str):
    """An executable shell script standing in for a user's editor or pager."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


# ------------------------------------------------------------------ \i
def test_include_prints_the_files_runmqsc_report_and_counts_its_commands(console, tmp_path, capsys):
    lab = tmp_path / "lab.mqsc"
    lab.write_text("* make a queue\nDEFINE QLOCAL(I1) +\n  MAXDEPTH(9)\nDISPLAY QLOCAL(I1) MAXDEPTH\nFOO\n")
    tally = Tally()
    assert console.run(f"\\i {lab}", tally) is False
    lines = capsys.readouterr().out.splitlines()
    assert lines[:6] == [
        "       : * make a queue",
        "     1 : DEFINE QLOCAL(I1) +",
        "       :   MAXDEPTH(9)",
        "AMQ8006I: IBM MQ queue created.",
        "     2 : DISPLAY QLOCAL(I1) MAXDEPTH",
        "AMQ8409I: Display Queue details.",
    ]
    assert "AMQ8426I: Valid MQSC commands are:" in lines  # a script's report: runmqsc's whole usage
    assert lines[-3:] == [
        "3 MQSC commands read.",
        "One command has a syntax error.",
        "All valid MQSC commands were processed.",
    ]
    assert (tally.read, tally.syntax_errors, tally.failed) == (3, 1, 0)  # the session's summary counts them
    assert console.session.brief_syntax_errors is True  # the prompt's one-line hints are back


def test_include_of_a_missing_file_is_one_line_and_nothing_runs(console, tmp_path, capsys):
    tally = Tally()
    assert console.run(f"\\i {tmp_path}/nope.mqsc", tally) is False
    captured = capsys.readouterr()
    assert captured.err == f"mqsh: \\i: cannot read {tmp_path}/nope.mqsc: No such file or directory.\n"
    assert captured.out == "" and tally.read == 0
    console.run("\\i", tally)
    assert capsys.readouterr().err == "mqsh: usage: \\i FILE\n"


def test_include_stops_at_end_and_the_session_goes_on(console, tmp_path, capsys):
    (tmp_path / "short.mqsc").write_text("DEFINE QLOCAL(BEFORE)\nEND\nDEFINE QLOCAL(AFTER)\n")
    assert console.run(f"\\i {tmp_path}/short.mqsc") is False
    assert "One MQSC command read." in capsys.readouterr().out
    assert console.session.execute("DISPLAY QLOCAL(AFTER)").ok is False


def test_a_file_run_with_include_cannot_include_another(console, tmp_path, capsys):
    (tmp_path / "inner.mqsc").write_text("DEFINE QLOCAL(INNER)\n")
    (tmp_path / "outer.mqsc").write_text(f"\\i {tmp_path}/inner.mqsc\nDEFINE QLOCAL(OUTER)\n")
    console.run(f"\\i {tmp_path}/outer.mqsc")
    out = capsys.readouterr().out
    assert "mqsh: \\i works only at the interactive prompt, not in a script." in out
    assert out.splitlines()[-1] == "One valid MQSC command could not be processed."
    assert console.session.execute("DISPLAY QLOCAL(INNER)").ok is False
    assert console.session.execute("DISPLAY QLOCAL(OUTER)").ok is True


def test_a_script_is_told_the_shell_commands_are_for_the_prompt(data_dir):
    done = run_mqsh(stdin="\\timing on\n\\o out.txt\nDISPLAY QMGR QMNAME\n", data_dir=data_dir)
    assert "mqsh: \\timing works only at the interactive prompt, not in a script." in done.stdout
    assert "mqsh: \\o works only at the interactive prompt, not in a script." in done.stdout
    assert "QMNAME(QM1)" in done.stdout and done.returncode == 10


# ------------------------------------------------------------------ \o
def test_output_to_a_file_emptied_first_until_o_alone(console, tmp_path, capsys):
    target = tmp_path / "out.txt"
    target.write_text("from before\n")
    console.run(f"\\o {target}")
    console.run("DISPLAY QMGR QMNAME")
    (tmp_path / "one.mqsc").write_text("DEFINE QLOCAL(O1)\n")
    console.run(f"\\i {tmp_path}/one.mqsc")  # a report goes where responses go
    assert capsys.readouterr().out == ""
    console.run("\\o")
    console.run("DISPLAY QLOCAL(O1)")
    assert "QUEUE(O1)" in capsys.readouterr().out
    written = target.read_text()
    assert "from before" not in written and "   QMNAME(QM1)" in written
    assert "     1 : DEFINE QLOCAL(O1)" in written and "QUEUE(O1)" not in written


def test_output_to_a_command(console, tmp_path, capsys):
    target = tmp_path / "piped.txt"
    console.run(f"\\o |sed 's/^/piped: /' > {target}")
    console.run("DISPLAY QMGR QMNAME")
    console.run("\\o")  # ends the command's input and waits for it
    assert "piped: AMQ8408I: Display Queue Manager details." in target.read_text().splitlines()
    assert capsys.readouterr().out == ""


def test_csv_into_a_file_keeps_the_messages_on_the_terminal(console, tmp_path, capsys):
    target = tmp_path / "queues.csv"
    console.session.output_format = "csv"
    console.run(f"\\o {target}")
    console.run("DEFINE QLOCAL(C1) MAXDEPTH(3)")
    console.run("DISPLAY QLOCAL(C1) MAXDEPTH")
    console.run("\\o")
    assert target.read_text() == "QUEUE,TYPE,MAXDEPTH\nC1,QLOCAL,3\n\n"
    assert capsys.readouterr().err == "AMQ8006I: IBM MQ queue created.\n"


def test_output_to_a_file_that_cannot_be_written_stays_on_the_terminal(console, tmp_path, capsys):
    console.run(f"\\o {tmp_path}/no/such/dir/out.txt")
    assert (
        capsys.readouterr().err
        == f"mqsh: \\o: cannot write {tmp_path}/no/such/dir/out.txt: No such file or directory.\n"
    )
    console.run("DISPLAY QMGR QMNAME")
    assert "QMNAME(QM1)" in capsys.readouterr().out
    console.run("\\o |")
    assert capsys.readouterr().err == "mqsh: usage: \\o [FILE | |COMMAND]\n"


# ------------------------------------------------------------------ \timing
def test_timing_follows_each_command_on_the_terminal(console, capsys):
    console.run("\\timing")
    assert capsys.readouterr().out == "Timing is on.\n"
    console.run("DISPLAY QMGR QMNAME")
    lines = capsys.readouterr().out.splitlines()
    assert "   QMNAME(QM1)" in lines and re.fullmatch(r"Time: \d+\.\d{3} ms", lines[-1])
    console.run("\\timing off")
    console.run("DISPLAY QMGR QMNAME")
    out = capsys.readouterr().out
    assert out.startswith("Timing is off.\n") and "Time:" not in out
    console.run("\\timing sometimes")
    assert capsys.readouterr().err == "mqsh: usage: \\timing [on|off]\n"


def test_timing_line_is_psqls():
    assert timing_line(0.0123456) == "Time: 12.346 ms"
    assert timing_line(61.5) == "Time: 61500.000 ms (01:01.500)"
    assert timing_line(3723.25) == "Time: 3723250.000 ms (01:02:03.250)"


# ------------------------------------------------------------------ \pager
def test_pager_is_on_and_less_by_default(monkeypatch):
    monkeypatch.delenv("PAGER", raising=False)
    output = Output()
    assert output.pager_on is True and output.pager() == "less -SRXF"
    monkeypatch.setenv("PAGER", "more")
    assert output.pager() == "more"


def test_pager_command_and_switches(console, capsys, monkeypatch):
    monkeypatch.setenv("PAGER", "more")
    console.run("\\pager off")
    assert capsys.readouterr().out == "Pager usage is off.\n"
    console.run("\\pager")
    assert capsys.readouterr().out == "Pager is used for long output: more.\n"
    console.run("\\pager cat -n")
    assert capsys.readouterr().out == "Pager is used for long output: cat -n.\n"
    assert console.output.pager_on and console.output.pager() == "cat -n"


def test_a_response_taller_than_the_screen_goes_through_the_pager(console, tmp_path, capsys, monkeypatch):
    seen = tmp_path / "paged.txt"
    console.run(f"\\pager tee {seen}")
    capsys.readouterr()
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("LINES", "10")
    monkeypatch.setenv("COLUMNS", "100")
    console.run("DISPLAY QMGR QMNAME")  # 2 lines: shown as it is
    assert not seen.exists()
    console.run("DISPLAY QMGR")  # dozens of lines: paged
    assert "   QMNAME(QM1)" in seen.read_text()


def test_never_paged_when_stdout_is_not_a_terminal(console, tmp_path, monkeypatch, capsys):
    seen = tmp_path / "paged.txt"
    console.run(f"\\pager tee {seen}")
    monkeypatch.setenv("LINES", "10")
    console.run("DISPLAY QMGR")
    assert not seen.exists() and "   QMNAME(QM1)" in capsys.readouterr().out


def test_a_pager_that_cannot_run_is_turned_off_and_the_response_shown(console, capsys, monkeypatch):
    console.run("\\pager no-such-pager-mqsh")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("LINES", "10")
    console.run("DISPLAY QMGR")
    captured = capsys.readouterr()
    assert "   QMNAME(QM1)" in captured.out
    assert (
        captured.err == "mqsh: pager: cannot run no-such-pager-mqsh: No such file or directory. "
        "Pager usage is off.\n"
    )
    assert console.output.pager_on is False


def test_the_pager_gets_the_text_and_less_gets_its_options(tmp_path, monkeypatch):
    monkeypatch.delenv("LESS", raising=False)
    got = tmp_path / "got.txt"
    page(f'sh -c \'printf "%s|" "$LESS" > {got}; cat >> {got}\'', "line one\nline two")
    assert got.read_text() == "-SRXF|line one\nline two\n"
    with pytest.raises(ProgramFailed, match="cannot run no-such-pager-mqsh"):
        page("no-such-pager-mqsh", "text")


# ------------------------------------------------------------------ \e
def test_edit_opens_the_last_command_and_keeps_what_is_saved_for_the_prompt(console, tmp_path, monkeypatch):
    seen = tmp_path / "seen.txt"
    editor = script(
        tmp_path, "editor", f'cp "$1" {seen}\nprintf "DISPLAY QLOCAL(E1) +\\n  MAXDEPTH\\n" > "$1"\n'
    )
    monkeypatch.setenv("EDITOR", str(editor))
    console.run("\\e")
    assert seen.read_text() == ""  # nothing run yet: an empty buffer
    console.run("DISPLAY QMGR QMNAME")
    console.run("\\timing on")  # the shell's own commands are not what \e edits
    console.run("\\e")
    assert seen.read_text() == "DISPLAY QMGR QMNAME\n"
    assert console.take_pending() == "DISPLAY QLOCAL(E1) +\n  MAXDEPTH"
    assert console.take_pending() == ""


def test_edit_falls_back_to_visual_and_reports_an_editor_that_fails(console, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setenv("VISUAL", str(script(tmp_path, "failing", "exit 3\n")))
    console.run("\\e")
    assert (
        capsys.readouterr().err
        == f"mqsh: \\e: editor {tmp_path}/failing ended with exit code 3; nothing changed.\n"
    )
    assert console.take_pending() == ""
    monkeypatch.setenv("EDITOR", "no-such-editor-mqsh")
    console.run("\\e")
    assert (
        capsys.readouterr().err == "mqsh: \\e: cannot run no-such-editor-mqsh: No such file or directory.\n"
    )


def test_help_and_shell_commands_at_the_prompt_are_not_counted(console, capsys):
    tally = Tally()
    for text in (
        "help",
        "help foo",
        "\\format xml",
        "\\format mqsc",
        "\\h DEFINE",
        "\\timing on",
        "\\timing off",
    ):
        assert console.run(text, tally) is False
    assert (tally.read, tally.syntax_errors, tally.failed) == (0, 0, 0)
    console.run("DISPLAY QLOCAL(NOPE)", tally)
    assert (tally.read, tally.failed, tally.exit_code) == (1, 1, 10)
