"""LineReader.preview: the command so far, while its last line is still being typed."""

from __future__ import annotations

from mqsh.language.lines import LineReader


def reader_after(*lines: str) -> LineReader:
    reader = LineReader()
    for line in lines:
        reader.feed(line)
    return reader


def test_first_line():
    assert reader_after().preview("DEFINE QL") == "DEFINE QL"


def test_plus_continues_from_the_first_non_blank():
    assert reader_after("DEFINE QLOCAL(Q1) +").preview("   MAXD") == "DEFINE QLOCAL(Q1) MAXD"


def test_minus_continues_from_the_first_column():
    assert reader_after("DEFINE QLOCAL(Q1) DESCR('a-").preview("  b") == "DEFINE QLOCAL(Q1) DESCR('a  b"


def test_a_finished_command_is_not_carried_over():
    assert reader_after("DEFINE QLOCAL(Q1)").preview("DIS") == "DIS"


def test_a_comment_line_adds_nothing():
    assert reader_after("DEFINE +").preview("* note") == "DEFINE "


def test_the_reader_does_not_change():
    reader = reader_after("DEFINE +")
    reader.preview("QLOCAL(Q1)")
    [chunk] = reader.feed("QLOCAL(Q2)")
    assert chunk.text == "DEFINE QLOCAL(Q2)"
