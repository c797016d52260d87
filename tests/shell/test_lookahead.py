"""Lookahead: a script's chunks in order, and a look at the next that never waits for input."""

from __future__ import annotations

import queue
import threading

from mqsh.shell.lookahead import Lookahead


def fed(lines: queue.Queue):
    """Input that arrives when the test puts it (None ends it), as a pipe's lines do."""
    while (line := lines.get()) is not None:
        yield line


def test_chunks_come_in_order_and_continuations_are_joined():
    ahead = Lookahead(["DEFINE QLOCAL(A) +\n", "  DESCR('x')\n", "* comment\n", "DISPLAY QLOCAL(A)\n"])
    chunks = []
    while (chunk := ahead.next()) is not None:
        chunks.append(chunk)
    assert [chunk.text for chunk in chunks] == ["DEFINE QLOCAL(A) DESCR('x')", None, "DISPLAY QLOCAL(A)"]


def test_a_look_at_the_next_chunk_never_waits_for_input_that_has_not_come():
    lines: queue.Queue = queue.Queue()
    ahead = Lookahead(fed(lines))
    lines.put("DEFINE QLOCAL(A)\n")
    assert ahead.next().text == "DEFINE QLOCAL(A)"
    finished = threading.Event()
    threading.Thread(target=lambda: (ahead.peek(), finished.set()), daemon=True).start()
    assert finished.wait(5)  # nothing more has arrived: the look says so at once
    lines.put("DISPLAY QLOCAL(A)\n")
    for _ in range(500):
        if ahead.peek() is not None:
            break
        threading.Event().wait(0.01)
    assert ahead.peek().text == "DISPLAY QLOCAL(A)"
    assert ahead.next().text == "DISPLAY QLOCAL(A)"  # the look took nothing away
    lines.put(None)
    assert ahead.next() is None


def test_a_failing_input_is_reported_after_what_it_gave():
    def failing():
        yield "DEFINE QLOCAL(A)\n"
        raise OSError(5, "Input/output error")

    ahead = Lookahead(failing())
    assert ahead.next().text == "DEFINE QLOCAL(A)"
    try:
        ahead.next()
    except OSError as error:
        assert error.errno == 5
    else:
        raise AssertionError("the input's error was lost")


def test_each_chunk_says_the_input_line_it_ends_on_and_the_input_how_many_lines_have_arrived():
    lines: queue.Queue = queue.Queue()
    ahead = Lookahead(fed(lines))
    assert ahead.delivered() == 0
    for line in ("DEFINE QLOCAL(A) +\n", "  DESCR('x')\n", "* comment\n"):
        lines.put(line)
    assert ahead.next().text == "DEFINE QLOCAL(A) DESCR('x')"
    assert ahead.last_line == 2
    assert ahead.next().text is None and ahead.last_line == 3
    for _ in range(500):  # the reading thread counts a line once it has handed it over
        if ahead.delivered() == 3:
            break
        threading.Event().wait(0.01)
    assert ahead.delivered() == 3
    lines.put("DISPLAY QLOCAL(A)\n")
    assert ahead.next().text == "DISPLAY QLOCAL(A)" and ahead.last_line == 4
    lines.put(None)
    assert ahead.next() is None
