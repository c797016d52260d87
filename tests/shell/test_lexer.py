"""Syntax colours: which style class each part of the input gets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.document import Document

from mqsh.shell.lexer import MqscLexer, highlight_lines
from tests.support import examples


def classes(vocabulary, text: str) -> list[tuple[str, str]]:
    """(text, class) of the styled fragments of every line, blanks left out."""
    return [
        (fragment, style.removeprefix("class:mqsc."))
        for line in highlight_lines(text, vocabulary)
        for style, fragment in line
        if style
    ]


def test_a_define_command(vocabulary):
    assert classes(vocabulary, "DEFINE QLOCAL(Q1) MAXDEPTH(5000) NOSHARE DESCR('Fred''s queue')") == [
        ("DEFINE", "verb"),
        ("QLOCAL", "object-type"),
        ("(", "punctuation"),
        ("Q1", "object-name"),
        (")", "punctuation"),
        ("MAXDEPTH", "attribute"),
        ("(", "punctuation"),
        ("5000", "value"),
        (")", "punctuation"),
        ("NOSHARE", "attribute"),
        ("DESCR", "attribute"),
        ("(", "punctuation"),
        ("'Fred''s queue'", "string"),
        (")", "punctuation"),
    ]


def test_synonyms_and_lower_case(vocabulary):
    assert classes(vocabulary, "def ql(q1) maxdepth(5)")[:2] == [("def", "verb"), ("ql", "object-type")]


def test_words_the_catalogue_does_not_allow(vocabulary):
    styled = dict(classes(vocabulary, "DEFINE QLOCAL(Q1) CONNAME(X)"))
    assert styled["CONNAME"] == "unknown"
    assert classes(vocabulary, "DEFINE CHANNEL(C) CHLTYPE(SDR) CONNAME('h(1414)')")[-4:] == [
        ("CONNAME", "attribute"),
        ("(", "punctuation"),
        ("'h(1414)'", "string"),
        (")", "punctuation"),
    ]
    assert classes(vocabulary, "FROB QLOCAL")[0] == ("FROB", "unknown")


def test_where_clause(vocabulary):
    styled = classes(vocabulary, "DIS QL(*) WHERE(CURDEPTH GT 0)")
    assert ("WHERE", "where") in styled
    assert ("CURDEPTH", "attribute") in styled
    assert ("GT", "operator") in styled
    assert ("0", "value") in styled


def test_comment_continuation_and_terminator(vocabulary):
    text = "* set up the queue\nDEFINE QLOCAL(Q1) +\n  MAXDEPTH(5) -\nDESCR(x);"
    lines = highlight_lines(text, vocabulary)
    assert lines[0] == [("class:mqsc.comment", "* set up the queue")]
    assert lines[1][-1] == ("class:mqsc.continuation", "+")
    assert ("class:mqsc.attribute", "MAXDEPTH") in lines[2]
    assert lines[2][-1] == ("class:mqsc.continuation", "-")
    assert lines[3][0] == ("class:mqsc.attribute", "DESCR")  # still the same command
    assert lines[3][-1] == ("class:mqsc.terminator", ";")


def test_each_line_keeps_its_text(vocabulary):
    text = "DEFINE QLOCAL(Q1) +\n\n  MAXDEPTH(5)\nDIS QL(Q1)"
    lines = highlight_lines(text, vocabulary)
    assert ["".join(fragment for _, fragment in line) for line in lines] == text.split("\n")


def test_control_and_shell_commands(vocabulary):
    assert classes(vocabulary, "crtmqm -ll QM1") == [
        ("crtmqm", "command"),
        ("-ll", "option"),
        ("QM1", "argument"),
    ]
    assert classes(vocabulary, "\\format json") == [("\\format", "command"), ("json", "argument")]


def test_unreadable_text_is_marked_not_fatal(vocabulary):
    styled = classes(vocabulary, "DEFINE QLOCAL(Q1) ))) 9X")
    assert (")))", "error") in styled or (")", "error") in styled
    assert ("9X", "error") in styled


def test_lexer_for_prompt_toolkit(vocabulary):
    lexer = MqscLexer(vocabulary)
    get_line = lexer.lex_document(Document("DEF QL(Q1) +\n  MAXDEPTH(1)"))
    assert get_line(0)[0] == ("class:mqsc.verb", "DEF")
    assert get_line(5) == []


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=80) | st.binary(max_size=80).map(lambda data: data.decode("latin-1")))
def test_garbage_never_raises_and_keeps_the_text(vocabulary, text):
    lines = highlight_lines(text, vocabulary)
    assert "\n".join("".join(fragment for _, fragment in line) for line in lines) == text
