"""--format table and --format csv: stdout holds one table or CSV block per DISPLAY and nothing else;
the banner, messages and the summary go to stderr; exit codes are the report's."""

from __future__ import annotations

import csv
import io

import pytest

from tests.support import run_mqsh

SCRIPT = """* queues for the lab
DEFINE QLOCAL(F1) MAXDEPTH(7) DESCR('first, with a comma')
DEFINE QLOCAL(F2)
DISPLAY QLOCAL(F*) MAXDEPTH DESCR
DISPLAY QLOCAL(NOPE)
DISPLAY QMGR QMNAME
FOO
"""


@pytest.fixture
def qmgr(data_dir) -> str:
    for control in (("crtmqm", "QF"), ("strmqm", "QF")):
        assert run_mqsh(*control, data_dir=data_dir).returncode == 0
    return "QF"


def blocks(text: str) -> list[list[list[str]]]:
    """The CSV blocks of stdout: rows up to each blank line."""
    found: list[list[list[str]]] = [[]]
    for row in csv.reader(io.StringIO(text)):
        if row:
            found[-1].append(row)
        elif found[-1]:
            found.append([])
    return [block for block in found if block]


def test_csv_is_one_block_per_display_and_nothing_else(data_dir, qmgr):
    done = run_mqsh("--format", "csv", qmgr, stdin=SCRIPT, data_dir=data_dir)
    assert blocks(done.stdout) == [
        [
            ["QUEUE", "TYPE", "DESCR", "MAXDEPTH"],
            ["F1", "QLOCAL", "first, with a comma", "7"],
            ["F2", "QLOCAL", "", "5000"],
        ],
        [["QMNAME"], ["QF"]],
    ]
    assert "AMQ" not in done.stdout and ":" not in done.stdout  # no echo, no messages, no summary
    assert "AMQ8006I: IBM MQ queue created." in done.stderr
    assert "AMQ8147E: IBM MQ object NOPE not found." in done.stderr
    assert "AMQ8405I" in done.stderr and "Starting MQSC for queue manager QF." in done.stderr
    assert done.stderr.splitlines()[-3:] == [
        "6 MQSC commands read.",
        "One command has a syntax error.",
        "One valid MQSC command could not be processed.",
    ]
    assert done.returncode == 10  # as runmqsc's report would end


def test_table_is_one_table_per_display_without_the_report_around_it(data_dir, qmgr):
    done = run_mqsh("--format", "table", qmgr, stdin=SCRIPT, data_dir=data_dir)
    lines = done.stdout.splitlines()
    assert [line.split() for line in lines if line and not line.startswith("-")] == [
        ["QUEUE", "TYPE", "DESCR", "MAXDEPTH"],
        ["F1", "QLOCAL", "first,", "with", "a", "comma", "7"],
        ["F2", "QLOCAL", "5000"],
        ["QMNAME"],
        ["QF"],
    ]
    assert lines[4] == ""  # the tables stand apart
    assert not any(line.lstrip().startswith(("1 :", "AMQ", "6 MQSC")) for line in lines)
    assert "AMQ8147E: IBM MQ object NOPE not found." in done.stderr
    assert "6 MQSC commands read." in done.stderr
    assert done.returncode == 10


def test_exit_codes_are_unchanged_in_every_format(data_dir, qmgr):
    for output_format in ("mqsc", "table", "json", "csv"):
        assert (
            run_mqsh(
                "--format", output_format, qmgr, stdin="DISPLAY QMGR QMNAME\n", data_dir=data_dir
            ).returncode
            == 0
        )
        unknown = run_mqsh("--format", output_format, "NOSUCH", stdin="DISPLAY QMGR\n", data_dir=data_dir)
        assert unknown.returncode == 20
        assert "AMQ8118E" in unknown.stdout + unknown.stderr


def test_csv_unknown_queue_manager_leaves_stdout_empty(data_dir, qmgr):
    done = run_mqsh("--format", "csv", "NOSUCH", stdin="DISPLAY QMGR\n", data_dir=data_dir)
    assert done.stdout == "" and "AMQ8118E: IBM MQ queue manager does not exist." in done.stderr
