"""The runmqsc report: echo, numbering, responses, summary lines and exit codes."""

from __future__ import annotations

from io import StringIO

import pytest

from mqsh.shell.batch import run_batch
from tests.support import run_mqsh


def report(session, script: str, **options) -> tuple[list[str], int]:
    out = StringIO()
    code = run_batch(session, script.splitlines(), out, **options)
    return out.getvalue().splitlines(), code


def transcript_block(path, first_line: str) -> list[str]:
    """The block of a transcript file that starts at the banner before first_line."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("5724-H72"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("All valid MQSC commands"))
    return lines[start : end + 1]


@pytest.mark.parametrize(
    "script, transcript, qmgr",
    [
        (
            "ibm-messaging__mq-rdqm__cloud__azure__configure.mqsc",
            "ibm-messaging__mq-rdqm__cloud__azure__Deployment.md.txt",
            "RDQMDRHAQM1",
        ),
        (
            "ibm-messaging__mq-rdqm__ansible__templates__mqsc.j2.mqsc",
            "ibm-messaging__mq-rdqm__ansible__Testing.md.txt",
            "QM1",
        ),
    ],
)
def test_report_equals_real_runmqsc_after_the_banner(shared, data_dir, script, transcript, qmgr):
    assert run_mqsh("crtmqm", qmgr, data_dir=data_dir).returncode == 0
    assert run_mqsh("strmqm", qmgr, data_dir=data_dir).returncode == 0
    text = (shared / "corpus" / "mqsc" / script).read_text()
    done = run_mqsh(qmgr, stdin=text, data_dir=data_dir)
    expected = transcript_block(shared / "corpus" / "transcripts" / transcript, "")
    assert done.stdout.splitlines()[1:] == expected[1:]
    assert done.returncode == 0


def test_numbering_continuation_comments_and_end(session):
    lines, code = report(
        session, "* note\n\nalter ql(SYSTEM.DEFAULT.LOCAL.QUEUE) +\n  descr('x')\nend\nignored\n"
    )
    assert lines[4:] == [
        "       : * note",
        "       :",
        "     1 : alter ql(SYSTEM.DEFAULT.LOCAL.QUEUE) +",
        "       :   descr('x')",
        "AMQ8008I: IBM MQ queue changed.",
        "     2 : end",
        "One MQSC command read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]
    assert code == 0


def test_failures_and_syntax_errors_give_exit_code_10(session):
    lines, code = report(session, "dis ql(NOPE)\ndefine ql(A) maxdepth(abc)\n")
    assert "AMQ8147E: IBM MQ object NOPE not found." in lines
    assert "AMQ8405I: Syntax error detected at or near end of command segment below:-" in lines
    assert "define ql(A) maxdepth(abc)" in lines
    assert lines[-3:] == [
        "2 MQSC commands read.",
        "One command has a syntax error.",
        "One valid MQSC command could not be processed.",
    ]
    assert code == 10


def test_in_a_script_help_is_an_unknown_verb_and_every_backslash_command_is_refused(session):
    lines, code = report(session, "help\n\\format json\n\\?\n\\q\nDISPLAY QMGR QMNAME\n")
    assert lines[4:7] == [
        "     1 : help",
        "AMQ8405I: Syntax error detected at or near end of command segment below:-",
        "help",
    ]
    assert "AMQ8426I: Valid MQSC commands are:" in lines  # runmqsc's answer to a word that is no verb
    for word in ("\\format", "\\?", "\\q"):
        assert f"mqsh: {word} works only at the interactive prompt, not in a script." in lines
    assert "   QMNAME(QM1)" in lines  # \q did not end the script, \format did not change the report
    assert session.output_format == "mqsc"
    assert lines[-3:] == [
        "5 MQSC commands read.",
        "One command has a syntax error.",
        "3 valid MQSC commands could not be processed.",
    ]
    assert code == 10


def test_verify_only_reads_help_and_backslash_commands_as_a_script_does(session):
    lines, code = report(session, "help\n\\format json\n", verify=True)
    assert "mqsh: \\format works only at the interactive prompt, not in a script." in lines
    assert lines[-2:] == ["2 MQSC commands read.", "One command has a syntax error."]
    assert code == 10


def test_echo_off_and_verify_only(session):
    lines, _code = report(session, "define ql(V1)\n", echo=False, verify=True)
    assert not any(line.startswith("     1 :") for line in lines)
    assert lines[-2:] == ["One MQSC command read.", "No commands have a syntax error."]
    assert session.execute("dis ql(V1)").ok is False  # verify ran nothing


def test_unknown_queue_manager_is_exit_20(data_dir):
    run_mqsh("crtmqm", "QM1", data_dir=data_dir)
    done = run_mqsh("NOSUCH", stdin="dis qmgr\n", data_dir=data_dir)
    assert done.returncode == 20
    assert "AMQ8118E: IBM MQ queue manager does not exist." in done.stdout


def test_ended_queue_manager_is_not_available(data_dir):
    run_mqsh("crtmqm", "QM1", data_dir=data_dir)
    run_mqsh("strmqm", "QM1", data_dir=data_dir)
    assert run_mqsh("endmqm", "QM1", data_dir=data_dir).returncode == 0
    done = run_mqsh("QM1", stdin="dis qmgr\n", data_dir=data_dir)
    assert done.returncode == 20
    assert "AMQ8146E: IBM MQ queue manager not available." in done.stdout


def test_garbage_bytes_get_a_syntax_error_not_a_traceback(data_dir):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "mqsh", "--data-dir", str(data_dir)],
        input=b"\xff\xfe\x00garbage(\n\x80\x81\n",
        capture_output=True,
        check=False,
    )
    assert b"Traceback" not in done.stderr
    assert b"AMQ8405I" in done.stdout
    assert done.returncode == 10


def test_default_queue_manager_is_created_and_announced(data_dir):
    done = run_mqsh(stdin="dis qmgr qmname\n", data_dir=data_dir)
    assert "created and started QM1" in done.stderr
    assert "   QMNAME(QM1)" in done.stdout
    assert done.returncode == 0


def test_a_script_that_makes_its_own_queue_managers_leaves_no_qm1_and_says_nothing(data_dir):
    script = "crtmqm LAB.OWN\nstrmqm LAB.OWN\nLAB USE QMGR(LAB.OWN)\nDEFINE QLOCAL(Q1)\ndspmq\n"
    done = run_mqsh(stdin=script, data_dir=data_dir)
    assert done.returncode == 0 and done.stderr == ""
    assert "QMNAME(LAB.OWN)" in done.stdout and "QMNAME(QM1)" not in done.stdout
    assert not (data_dir / "qmgrs" / "QM1").exists()


def test_a_script_may_start_the_stopped_default_queue_manager_it_then_uses(data_dir):
    """No queue manager named: the default is attached by the first command that needs one, so a
    script whose first line starts it runs, and its report names it at its head, as runmqsc's does."""
    made = run_mqsh(
        stdin="crtmqm QX\nstrmqm QX\nDEFINE QLOCAL(A) MAXDEPTH(7)\nendmqm QX\n", data_dir=data_dir
    )
    assert made.returncode == 0 and made.stderr == ""
    assert not (data_dir / "qmgrs" / "QM1").exists()  # the script's DEFINE went to its own default, QX
    done = run_mqsh(stdin="strmqm QX\nDISPLAY QLOCAL(A) MAXDEPTH\n", data_dir=data_dir)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert lines[1:5] == ["Starting MQSC for queue manager QX.", "", "", "     1 : strmqm QX"]
    assert "   QUEUE(A)                                TYPE(QLOCAL)" in lines
    assert "   MAXDEPTH(7)" in lines


def test_a_stopped_default_fails_the_command_that_needs_it_and_the_script_goes_on(data_dir):
    assert run_mqsh("crtmqm", "QX", data_dir=data_dir).returncode == 0
    done = run_mqsh(stdin="DISPLAY QMGR QMNAME\nstrmqm QX\nDISPLAY QMGR QMNAME\n", data_dir=data_dir)
    assert done.returncode == 10
    assert done.stdout.count("AMQ8146E: IBM MQ queue manager not available.") == 1
    assert "QMNAME(QX)" in done.stdout


def test_starting_mqsc_names_the_queue_manager_a_script_first_attaches_to(data_dir):
    """In an empty data directory the line is said where a command first needs a queue manager,
    naming the one it got: never a QM1 the script does not use, and not at all when none is used."""
    script = "* own queue managers\ncrtmqm LAB.A\ncrtmqm LAB.B\nLAB USE QMGR(LAB.B)\nstrmqm LAB.B\nDEFINE QLOCAL(Q1)\n"
    done = run_mqsh(stdin=script, data_dir=data_dir)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert [line for line in lines if line.startswith("Starting MQSC")] == [
        "Starting MQSC for queue manager LAB.B."
    ]
    at = lines.index("Starting MQSC for queue manager LAB.B.")
    assert lines[at + 1 : at + 4] == ["", "", "     5 : DEFINE QLOCAL(Q1)"]
    assert lines[1] == "       : * own queue managers"
    controls_only = run_mqsh(
        stdin="dspmq\nLAB CLOCK SET('2026-01-05 09:00:00')\n", data_dir=data_dir / "other"
    )
    assert controls_only.returncode == 0 and "Starting MQSC" not in controls_only.stdout
    assert not (data_dir / "other" / "qmgrs" / "QM1").exists()


def test_a_named_queue_manager_keeps_runmqscs_report_head(data_dir):
    assert run_mqsh("crtmqm", "QM1", data_dir=data_dir).returncode == 0
    assert run_mqsh("strmqm", "QM1", data_dir=data_dir).returncode == 0
    done = run_mqsh("QM1", stdin="* note\nDISPLAY QMGR QMNAME\n", data_dir=data_dir)
    assert done.stdout.splitlines()[1:5] == [
        "Starting MQSC for queue manager QM1.",
        "",
        "",
        "       : * note",
    ]


def test_with_several_queue_managers_and_no_default_a_script_still_runs_control_commands(data_dir):
    for name in ("QA", "QB"):
        assert run_mqsh("crtmqm", name, data_dir=data_dir).returncode == 0
    (data_dir / "mqs.ini").unlink()  # no default named any more
    done = run_mqsh(
        stdin="strmqm QA\nDISPLAY QMGR QMNAME\nLAB USE QMGR(QA)\nDISPLAY QMGR QMNAME\n", data_dir=data_dir
    )
    assert done.returncode == 10
    assert "mqsh: there is no default queue manager; name one (mqsh dspmq lists them)." in done.stdout
    assert "QMNAME(QA)" in done.stdout and "Traceback" not in done.stderr


def test_a_clock_sent_past_the_last_date_is_refused_and_the_script_goes_on(data_dir):
    script = "LAB CLOCK SET('8999-12-31 23:59:59')\nLAB CLOCK ADVANCE(1D)\nDISPLAY QMGR QMNAME\n"
    done = run_mqsh(stdin=script, data_dir=data_dir)
    assert (
        done.returncode == 10 and "stays between 1970-01-01 00:00:00 and 9000-01-01 00:00:00" in done.stdout
    )
    assert "QMNAME(QM1)" in done.stdout


def test_verify_only_with_no_queue_manager_creates_and_starts_nothing(data_dir):
    done = run_mqsh("-v", stdin="DEFINE QLOCAL(A)\nDEFINE QLOCL(B)\n", data_dir=data_dir)
    assert done.returncode == 10 and "One command has a syntax error." in done.stdout
    assert "created and started" not in done.stderr
    assert not data_dir.exists()  # runmqsc -v only checks the syntax


def test_format_json_is_json_lines_for_tools(data_dir):
    """stdout holds one object per command and the summary, nothing else; numbers are numbers."""
    import json

    assert run_mqsh("crtmqm", "QJ", data_dir=data_dir).returncode == 0
    assert run_mqsh("strmqm", "QJ", data_dir=data_dir).returncode == 0
    script = (
        "* a comment\nDEFINE QLOCAL(J1) MAXDEPTH(7)\nDISPLAY QLOCAL(J*) MAXDEPTH\nDISPLAY QLOCAL(NOPE)\nFOO\n"
    )
    done = run_mqsh("--format", "json", "QJ", stdin=script, data_dir=data_dir)
    records = [json.loads(line) for line in done.stdout.splitlines()]  # every line parses
    assert [record.get("seq") for record in records] == [1, 2, 3, 4, None]
    assert records[1]["command"] == "DISPLAY QLOCAL(J*) MAXDEPTH"
    assert records[1]["objects"] == [{"QUEUE": "J1", "TYPE": "QLOCAL", "MAXDEPTH": 7}]
    assert records[2]["ok"] is False and records[2]["messages"][0]["msgid"] == "AMQ8147E"
    assert records[-1]["summary"]["read"] == 4 and records[-1]["summary"]["exit_code"] == 10
    assert done.returncode == 10  # the exit code is the report's, in every format
    assert "Starting MQSC for queue manager QJ." in done.stderr


def test_each_command_is_echoed_before_it_runs_and_answered_after_its_log_is_forced(session):
    """The report's contract, which a reader of a killed script's output relies on: an echo not
    there means the command never ran; a response there means its work is on the disk."""
    from mqsh.shell.batch import BatchRun

    qmgr = session.installation.held["QM1"]

    class Checked:
        def __init__(self):
            self.lines: list[str] = []

        def write(self, text: str) -> int:
            if "DEFINE QLOCAL(ORDER." in text:  # an echo: that queue does not exist yet
                assert qmgr.lookup("QUEUE", text.split("(")[1].split(")")[0]) is None, text
            if text.startswith("AMQ8006I"):
                assert not qmgr.log._unforced, text
            self.lines.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    out = Checked()
    script = [f"DEFINE QLOCAL(ORDER.Q{number})\n" for number in range(20)]
    assert BatchRun(session, out).run(script) == 0
    assert sum(line.startswith("AMQ8006I") for line in out.lines) == 20


class ForcedBeforeEachLine:
    """A report destination that checks, at every line, that no held log has records not yet forced."""

    def __init__(self, session):
        self.session = session
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        held = self.session.installation.held.values()
        assert not any(qmgr.log is not None and qmgr.log._unforced for qmgr in held), text
        self.lines.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_a_report_with_no_echo_forces_once_a_group_of_arrived_commands_and_answers_after(
    session, monkeypatch
):
    import os

    from mqsh.shell.batch import GROUP_LIMIT, BatchRun

    forces = []
    real = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (forces.append(fd), real(fd)))
    out = ForcedBeforeEachLine(session)
    script = [f"DEFINE QLOCAL(G.Q{number:03d})\n" for number in range(200)]
    assert BatchRun(session, out, echo=False).run(script) == 0
    assert 200 / GROUP_LIMIT <= len(forces) < 20  # a force per group, not per command
    assert sum("AMQ8006I" in line for line in out.lines) == 200
    forces.clear()
    assert (
        BatchRun(session, ForcedBeforeEachLine(session)).run(
            ["DEFINE QLOCAL(E.Q1)\n", "DEFINE QLOCAL(E.Q2)\n"]
        )
        == 0
    )
    assert len(forces) == 2  # with the echo, each command is forced before the next is echoed


class FedScript:
    """A script run on a thread of its own and fed a line at a time, as a pipe's lines arrive;
    its response lines (AMQ...) come back in order."""

    def __init__(self, session, echo: bool = True):
        import queue
        import threading

        from mqsh.shell.batch import BatchRun

        self.lines: queue.Queue = queue.Queue()
        self.responses: queue.Queue = queue.Queue()
        self.thread = threading.Thread(
            target=BatchRun(session, self, echo=echo).run, args=(self._fed(),), daemon=True
        )
        self.thread.start()

    def _fed(self):
        while (line := self.lines.get()) is not None:
            yield line

    def write(self, text: str) -> int:
        if text.startswith("AMQ"):
            self.responses.put(text.strip())
        return len(text)

    def flush(self) -> None:
        pass

    def answer(self, line: str) -> str:
        """The first response line to line, waited for while the script waits for its next line."""
        self.lines.put(line)
        return self.responses.get(timeout=10)

    def end(self) -> None:
        self.lines.put(None)
        self.thread.join(10)
        assert not self.thread.is_alive()


def test_a_script_with_no_echo_fed_a_command_at_a_time_gets_each_response_before_the_next(session):
    script = FedScript(session, echo=False)
    for number in range(3):
        # answered while the script waits: nothing is held back
        assert script.answer(f"DEFINE QLOCAL(ONE.Q{number})\n") == "AMQ8006I: IBM MQ queue created."
    script.end()


def test_a_long_script_sets_what_lives_aside_from_full_collections_and_gives_it_back_at_its_end(
    session, monkeypatch
):
    import gc

    from mqsh.shell import batch

    calls = []
    real_freeze, real_unfreeze = gc.freeze, gc.unfreeze
    monkeypatch.setattr(batch, "FREEZE_EVERY", 2)
    monkeypatch.setattr(gc, "freeze", lambda: (calls.append("freeze"), real_freeze()))
    monkeypatch.setattr(
        gc, "unfreeze", lambda: (calls.append(f"unfreeze {gc.get_freeze_count() > 0}"), real_unfreeze())
    )
    lines, code = report(session, "\n".join(f"DEFINE QLOCAL(F.Q{number})" for number in range(5)))
    assert code == 0 and sum("AMQ8006I" in line for line in lines) == 5
    assert calls == ["freeze", "freeze", "unfreeze True"]  # after commands 2 and 4, then at the end
    assert gc.get_freeze_count() == 0
    calls.clear()
    report(session, "DISPLAY QMGR")
    assert calls == []  # a short script leaves the collector alone


def _count_core_looks(monkeypatch, run) -> list[int]:
    """The numbers of the commands before which the queue manager's core files were looked at."""
    from mqsh.model.catalog import ObjectCatalog

    looks = []
    real = ObjectCatalog.core_damage
    monkeypatch.setattr(
        ObjectCatalog, "core_damage", lambda catalog: (looks.append(run.number), real(catalog))[1]
    )
    return looks


def test_commands_that_arrived_before_the_last_look_at_the_core_files_share_it(session, monkeypatch):
    from mqsh.shell import session as session_module
    from mqsh.shell.batch import BatchRun

    monkeypatch.setattr(session_module, "CORE_LOOK_SECONDS", 60.0)
    run = BatchRun(session, StringIO())
    looks = _count_core_looks(monkeypatch, run)
    script = [f"DEFINE QLOCAL(L.Q{number:03d})\n" for number in range(100)]
    assert run.run(script[:50] + ["dspmq -m QM1\n"] + script[50:]) == 0
    assert 1 in looks and 52 in looks  # the first command, and the first after a control command
    assert len(looks) <= 6  # not one a command: the script had arrived
    # Never longer apart than CORE_LOOK_SECONDS: with none, every command looks.
    monkeypatch.setattr(session_module, "CORE_LOOK_SECONDS", 0.0)
    run = BatchRun(session, StringIO())
    looks = _count_core_looks(monkeypatch, run)
    assert run.run([f"ALTER QLOCAL(L.Q{number:03d}) DESCR('x')\n" for number in range(20)]) == 0
    assert looks == list(range(1, 21))


def test_a_core_file_removed_before_a_command_arrives_ends_the_queue_manager_at_that_command(
    session, monkeypatch
):
    from mqsh.shell import session as session_module

    monkeypatch.setattr(session_module, "CORE_LOOK_SECONDS", 60.0)
    script = FedScript(session)
    assert script.answer("DEFINE QLOCAL(R.Q1)\n") == "AMQ8006I: IBM MQ queue created."
    session.installation.held["QM1"].paths.catalog.unlink()  # by hand, between two commands
    assert script.answer("DEFINE QLOCAL(R.Q2)\n") == "AMQ8146E: IBM MQ queue manager not available."
    script.end()
