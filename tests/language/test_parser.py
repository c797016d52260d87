"""The grammar: structure, quoting, case folding and error positions."""

from __future__ import annotations

import pytest

from mqsh.language.parser import ParseError, parse


def test_case_folding_and_quotes():
    parsed = parse("def ql(abc) descr('Keep Case') principal('a''b')")
    assert parsed.verb == "DEF"
    assert [(i.keyword, i.values[0].text) for i in parsed.items] == [
        ("QL", "ABC"), ("DESCR", "Keep Case"), ("PRINCIPAL", "a'b")]


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
