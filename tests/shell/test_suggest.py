"""suggest(): text before the cursor -> the kinds of word that may come next."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqsh.shell.suggest import (
    Attribute,
    AttributeValue,
    ControlArgument,
    ControlCommand,
    ControlOption,
    FilterKeyword,
    FilterOperator,
    ObjectName,
    ObjectType,
    ShellArgument,
    ShellCommand,
    Verb,
    Where,
    suggest,
)
from tests.shell.fakes import LONG_COMMANDS
from tests.support import examples

FIRST_WORD = {Verb(), ControlCommand(), ShellCommand()}


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("", "", FIRST_WORD),
        ("DE", "DE", FIRST_WORD),
        ("  dis", "dis", FIRST_WORD),
        ("\\fo", "\\fo", {ShellCommand()}),
        ("DEF ", "", {ObjectType("DEFINE")}),
        ("DEFINE QL", "QL", {ObjectType("DEFINE")}),
        ("LAB P", "P", {ObjectType("LAB")}),
        ("LAB PUT QUEUE(", "", {AttributeValue("QUEUE", "PUT", "LAB")}),
        ("DEF QL(", "", {ObjectName("QLOCAL")}),
        ("DEF QL (Q", "Q", {ObjectName("QLOCAL")}),
        ("DIS Q(", "", {ObjectName("QUEUE", generic=True)}),
        ("DIS QS(SYS", "SYS", {ObjectName("QUEUE", generic=True)}),
        ("DEF QL('ab", "'ab", {ObjectName("QLOCAL")}),
        ("DEFINE QLOCAL(Q1) MAXD", "MAXD", {Attribute("DEFINE", "QLOCAL")}),
        (
            "DEFINE QLOCAL(Q1) NOSHARE MAXD",
            "MAXD",
            {Attribute("DEFINE", "QLOCAL", given=frozenset({"SHARE"}))},
        ),
        (
            "DEFINE CHANNEL(X) CHLTYPE(SDR) CONN",
            "CONN",
            {Attribute("DEFINE", "CHANNEL", "SDR", frozenset({"CHLTYPE"}))},
        ),
        ("ALTER QMGR IMGR", "IMGR", {Attribute("ALTER", "QMGR")}),
        ("DIS QL(*) ", "", {Attribute("DISPLAY", "QLOCAL"), Where()}),
        ("DEFINE QLOCAL(Q1) DEFPSIST(", "", {AttributeValue("DEFPSIST", "QLOCAL", "DEFINE")}),
        ("DEFINE QLOCAL(Q1) DEFPSIST(Y", "Y", {AttributeValue("DEFPSIST", "QLOCAL", "DEFINE")}),
        ("SET AUTHREC AUTHADD(PUT,", "", {AttributeValue("AUTHADD", "AUTHREC", "SET", frozenset({"PUT"}))}),
        ("DIS QL(*) WHERE(", "", {FilterKeyword("QLOCAL")}),
        ("DIS QL(*) WHERE(CURDEPTH ", "", {FilterOperator()}),
        ("DIS QL(*) WHERE(CURDEPTH GT ", "", {AttributeValue("CURDEPTH", "QLOCAL", "DISPLAY")}),
        ("DIS QL(*) WHERE(CURDEPTH GT 0) ", "", {Attribute("DISPLAY", "QLOCAL")}),
        ("crtmqm -", "-", {ControlOption("crtmqm")}),
        ("crtmqm -lc -", "-", {ControlOption("crtmqm", frozenset({"-lc", "-ll", "-lr"}))}),
        ("crtmqm -lf ", "", {ControlArgument("crtmqm", "file_pages")}),
        ("strmqm ", "", {ControlArgument("strmqm", "qmgr"), ControlOption("strmqm")}),
        ("strmqm QM1 ", "", {ControlOption("strmqm")}),
        ("dspmq -m Q", "Q", {ControlArgument("dspmq", "qmgr")}),
        ("\\format ", "", {ShellArgument("\\format")}),
        ("\\format j", "j", {ShellArgument("\\format")}),
    ],
)
def test_suggestions(vocabulary, text, word, expected):
    suggestions = suggest(text, vocabulary)
    assert suggestions.word == word
    assert set(suggestions.items) == expected


@pytest.mark.parametrize(
    "text",
    [
        "DEFINE QLOCAL(Q1)",  # a blank must come before the next parameter
        "DEFINE QLOCAL(Q1) DESCR('closed'",
        "DEFINE QLOCAL(Q1) ;",
        "DEFINE QLOCAL(Q1) 9",
        "NOSUCHVERB ",
    ],
)
def test_nothing_fits(vocabulary, text):
    assert suggest(text, vocabulary).items == []


@pytest.mark.parametrize("command", LONG_COMMANDS)
def test_every_prefix_of_a_long_command(vocabulary, command):
    for end in range(len(command) + 1):
        suggest(command[:end], vocabulary)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("DEFINQLOCA()',; -+*\\\x00é\t")) | st.characters(), max_size=60))
def test_arbitrary_text_never_raises(vocabulary, text):
    suggest(text, vocabulary)
