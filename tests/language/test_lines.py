"""runmqsc continuation: + and -, ;, comments and blank lines."""

from __future__ import annotations

from mqsh.language.lines import LineReader, split_commands


def commands(text):
    return [chunk.text for chunk in split_commands(text) if chunk.is_command]


def test_plus_drops_leading_blanks_minus_keeps_them():
    assert commands("DESCR('Fr+\n   ed')\n") == ["DESCR('Fred')"]
    assert commands("DESCR('ABC-\n  D')\n") == ["DESCR('ABC  D')"]


def test_semicolon_ends_even_after_plus():
    assert commands("def ql(a) +\n;\ndis ql(a)\n") == ["def ql(a)", "dis ql(a)"]


def test_comments_and_blanks_inside_a_continued_command_are_dropped_but_kept_for_echo():
    chunks = split_commands("alter ql(Q) +\n* why\n\n  descr('x')\n")
    assert [c.text for c in chunks] == ["alter ql(Q) descr('x')"]
    assert chunks[0].lines == ["alter ql(Q) +", "* why", "", "  descr('x')"]


def test_reader_knows_when_a_command_is_incomplete():
    reader = LineReader()
    assert reader.feed("define ql(A) +") == [] and reader.in_command
    assert reader.feed("maxdepth(5)")[0].text == "define ql(A) maxdepth(5)"
    assert not reader.in_command
