"""The syntax hint in the bottom toolbar."""

from __future__ import annotations

import pytest

from mqsh.shell.toolbar import syntax_hint


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", ""),
        ("NOSUCHVERB", ""),
        ("DEFINE ", "DEFINE QLOCAL | QMODEL | QALIAS | QREMOTE | CHANNEL"),
        ("DEFINE QLOCAL(Q1) ", "DEFINE QLOCAL( queue_name )"),
        ("DEFINE QLOCAL(Q1) MAXDEPTH(", "MAXDEPTH( 0..999999999 )  Maximum number of messages on the queue"),
        ("DEFINE QLOCAL(Q1) MAXDEPTH", "MAXDEPTH( 0..999999999 )"),
        ("DEFINE QLOCAL(Q1) NOSHARE", "SHARE | NOSHARE"),
        ("DEFINE QLOCAL(Q1) MAXDEPTH(5) ", "DEFINE QLOCAL( queue_name )"),
        ("DEFINE CHANNEL(C) ", "DEFINE CHANNEL( channel_name ) CHLTYPE( SDR | SVR | "),
        ("DEFINE CHANNEL(C) CHLTYPE(SDR) ", "DEFINE CHANNEL( channel_name ) CHLTYPE( SDR )"),
        ("RESET QMGR TYPE(", "TYPE( ADVANCELOG | ARCHLOG | REDUCELOG"),
        ("DIS QL(*) WHERE(CURDEPTH GT ", "CURDEPTH( integer )"),
        ("DEFINE QLOCAL(Q1) DEFPSIST(Y", "DEFPSIST( NO | YES )"),
        ("DEFINE QLOCAL(Q1) DESCR('x", "DESCR( string, up to 64 characters )  Plain-text comment"),
        ("SET AUTHREC AUTHADD(", "AUTHADD( ALL | "),
        ("DEFINE QLOCAL(Q1) +\n  MAXDEPTH(", "MAXDEPTH( 0..999999999 )"),
        ("\\format ", "\\format mqsc|table|json|csv  Choose how responses are shown."),
        ("crtmqm ", "crtmqm [-lc | -ll | -lr] [-lf FILE_PAGES]"),
    ],
)
def test_syntax_hint(vocabulary, text, expected):
    assert syntax_hint(text, vocabulary).startswith(expected)
    if not expected:
        assert syntax_hint(text, vocabulary) == ""
