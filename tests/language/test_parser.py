"""The grammar: structure, quoting, case folding and error positions."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqsh.language import parser as parser_module
from mqsh.language.lines import split_commands
from mqsh.language.parser import ParseError, parse
from tests.support import REPO, examples

SCRIPTS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "mqsc"
needs_corpus = pytest.mark.skipif(
    not SCRIPTS.is_dir(), reason="../shared/corpus is not beside the repository"
)


def test_case_folding_and_quotes():
    parsed = parse("def ql(abc) descr('Keep Case') principal('a''b')")
    assert parsed.verb == "DEF"
    assert [(i.keyword, i.values[0].text) for i in parsed.items] == [
        ("QL", "ABC"),
        ("DESCR", "Keep Case"),
        ("PRINCIPAL", "a'b"),
    ]


def test_lists_blanks_commas_and_nested_parentheses():
    parsed = parse("SET AUTHREC AUTHADD(CONNECT, INQ,DSP),OBJTYPE(QMGR) X(host(1414))")
    assert [v.text for v in parsed.items[1].values] == ["CONNECT", "INQ", "DSP"]
    assert parsed.items[3].values[0].text == "HOST(1414)"


def test_blank_value_is_allowed_but_empty_parentheses_are_not():
    assert parse("ALTER QMGR DESCR( )").items[1].values[0].text == " "
    with pytest.raises(ParseError) as error:
        parse("ALTER CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) SSLCIPH() SSLCAUTH(OPTIONAL)")
    assert error.value.segment == "ALTER CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) SSLCIPH()"


def test_where_clause():
    where = parse("dis ql(*) where(curdepth gt 0)").where
    assert (where.keyword, where.operator, where.value.text) == ("CURDEPTH", "GT", "0")


@pytest.mark.parametrize("word", ["NL", "CT", "EX", "LT", "EQ"])
def test_words_spelled_like_where_operators_are_keywords_outside_where(word):
    parsed = parse(f"DIS {word}(*) {word}")
    assert [item.keyword for item in parsed.items] == [word, word] and parsed.where is None
    where = parse(f"DIS NL(*) WHERE({word} NL 'x*')").where
    assert (where.keyword, where.operator) == (word, "NL")


# ------------------------------------------------------------ the plain shape read without the parser


def _by_the_parser(text: str):
    """What the LALR parser makes of text (where a ParseError ends when it rejects it)."""
    try:
        return parser_module.parse_by_grammar(text)
    except ParseError as error:
        return ("error", error.end)


# Commands of the plain shape and near it: words, values and gaps of every kind the grammar
# knows, and now and then a piece that breaks the shape put anywhere.
GAPS = st.sampled_from(["", " ", "  ", ",", " , ", "\t", "\n", "\f", "\r", "\v", "\u00a0"])
WORDS = st.sampled_from(
    ["DEFINE", "alter", "QLOCAL", "ql", "DESCR", "MaxDepth", "A1_B", "WHERE", "where", "X", "Q9"]
)
VALUES = st.sampled_from(
    [
        "A",
        "abc",
        "Q.1",
        "*",
        "5000",
        "host(1414)",
        "a(b",
        "a)b",
        "'x'",
        "'It''s'",
        "''",
        "'",
        "'a b'",
        "é",
        "$SYS/MQ",
        "-1",
        "+X+",
        "",
        " ",
        "CURDEPTH GT 0",
    ]
)
BREAKS = st.sampled_from(["(", ")", "'", ";", "()", "((", "-", "WHERE(", "\v", "%"])


@st.composite
def near_plain(draw) -> str:
    parts = [draw(GAPS), draw(WORDS)]
    for _ in range(draw(st.integers(0, 5))):
        parts += [draw(GAPS), draw(WORDS)]
        if draw(st.booleans()):
            values = draw(st.lists(VALUES, min_size=0, max_size=3))
            parts += [draw(GAPS), "(", draw(GAPS)]
            for value in values:
                parts += [value, draw(GAPS)]
            parts.append(")")
    parts.append(draw(GAPS))
    if draw(st.integers(0, 3)) == 0:
        parts.insert(draw(st.integers(0, len(parts))), draw(BREAKS))
    return "".join(parts)


@settings(max_examples=examples(3000), deadline=None)
@given(near_plain() | st.text(max_size=40))
def test_the_plain_shape_is_read_as_the_parser_reads_it(text):
    plain = parser_module._plain(text)
    if plain is not None:
        assert plain == _by_the_parser(text)


@pytest.mark.parametrize(
    "text",
    [
        "DEFINE QLOCAL(BENCH.Q000001) MAXDEPTH(5000) DESCR('batch benchmark')",
        "alter ql(a) descr('it''s') put(disabled) noreplace",
        "SET AUTHREC AUTHADD(CONNECT, INQ,DSP),OBJTYPE(QMGR) X(host(1414))",
        "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('10.0.0.2(1414)') XMITQ(QM2)",
        "DISPLAY QLOCAL(*) CURDEPTH",
        "END",
    ],
)
def test_common_commands_take_the_plain_way(text):
    assert parser_module._plain(text) == _by_the_parser(text) == parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "DIS QL(*) WHERE(CURDEPTH GT 0)",
        "ALTER QMGR DESCR( )",
        "ALTER QMGR SSLCIPH()",
        "DEFINE QL(A",
        "DEFINE QL(A) MAXDEPTH(5",
        "DEFINE QL(A) -",
        "DEFINE(QL)",
        "DEFINE QL(A) X(\vB)",
        "",
    ],
)
def test_other_shapes_are_left_to_the_parser(text):
    assert parser_module._plain(text) is None


@needs_corpus
def test_every_corpus_command_is_read_the_same_either_way():
    read = 0
    for script in sorted(SCRIPTS.glob("*.mqsc")):
        for chunk in split_commands(script.read_text(errors="replace")):
            command = chunk.text
            if not chunk.is_command or command is None:
                continue
            plain = parser_module._plain(command)
            if plain is not None:
                assert plain == _by_the_parser(command), (script.name, command)
                read += 1
    assert read > 1000  # most of the corpus is of the plain shape


def test_commands_of_the_plain_shape_are_read_without_lark(tmp_path):
    """lark is imported at the first command the plain shape does not take: a process whose commands
    are all plain (most reports of one command) never pays for it."""
    import os
    import subprocess
    import sys

    probe = (
        "import sys; from mqsh.language.parser import parse; "
        "parse('DEFINE QLOCAL(A) DESCR(''a'')'); print('lark' in sys.modules); "
        "parse('DIS QL(*) WHERE(CURDEPTH GT 0)'); print('lark' in sys.modules)"
    )
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=REPO, check=True
        )
        for _ in range(2)  # the first makes the kept terminal patterns with lark, the second reads them
    ]
    assert runs[1].stdout.split() == ["False", "True"], runs[1].stdout + runs[1].stderr
