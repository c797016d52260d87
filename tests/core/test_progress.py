"""The status line long work shows on a terminal, and never anywhere else."""

from __future__ import annotations

import io

from mqsh.core.progress import StatusLine, counted, status_line


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Ticks:
    """A clock that moves an eighth of a second each time it is read."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.125
        return self.now


def test_a_terminal_sees_how_far_and_how_fast_at_most_five_times_a_second():
    terminal = Terminal()
    line = StatusLine("LAB LOAD into BIG", total=1000, stream=terminal, clock=Ticks())
    for _ in range(4):
        line.advance(250)
    line.close()
    shown = terminal.getvalue().split("\r\033[K")
    # Started at 0.125; advances read 0.25, 0.375, 0.5, 0.625: redrawn at 0.375 and 0.625 only.
    assert shown[1:] == [
        "mqsh: LAB LOAD into BIG: 500/1,000 records (2,000 records/s); Ctrl-C stops",
        "mqsh: LAB LOAD into BIG: 1,000/1,000 records (2,000 records/s); Ctrl-C stops",
        "",
    ]
    assert terminal.getvalue().endswith("\r\033[K")  # wiped at the end


def test_nothing_is_written_where_nobody_watches():
    stream = io.StringIO()
    with status_line("reading the log to replay it", stream=stream) as line:
        assert list(counted(range(10_000), line, batch=100)) == list(range(10_000))
    assert stream.getvalue() == ""
    assert line.done == 10_000
